/*
 * JSON values for the listings' JSON forms (print_json.c's document,
 * and the parts the annotate, disasm, leak and diff listings add).
 */
#ifndef CGA_JSON_WRITE_H
#define CGA_JSON_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"

/* A JSON string; bytes that are not valid UTF-8 are read as Latin-1. */
void json_string(FILE *out, const char *s, size_t len);
/* The name as a JSON string, or null for NO_NAME. */
void json_name(FILE *out, const struct profile *p, name_id id);
/* An array of n costs. */
void json_row(FILE *out, const uint64_t *row, size_t n);

#endif
