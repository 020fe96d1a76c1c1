/* Test helpers shared by the cmocka suites. */
#ifndef CGA_TEST_HELPERS_H
#define CGA_TEST_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "profile/profile.h"
#include "read/read.h"

/*
 * Write `text` (len bytes; -1 for strlen) to a temporary file and read it
 * into p with read_profile(). Diagnostics go to *diag (malloc'd, "" when
 * none; caller frees) instead of stderr. Returns read_profile's result.
 * The temporary file is named <dir>/profile, so messages are predictable
 * up to the directory.
 */
int read_text(struct profile *p, const char *text, long len,
	      const struct read_opts *o, char **diag);

/* Same, but for a file on disk. */
int read_path(struct profile *p, const char *path, const struct read_opts *o,
	      char **diag);

/* A scratch file holding len bytes; returns its malloc'd path. */
char *write_temp(const void *data, size_t len);
/* Remove it, its directory too, and free the path. */
void remove_temp(char *path);

/* Capture diagnostics: begin, then end returns what was printed. */
void diag_capture_begin(void);
char *diag_capture_end(void);

/* [*lo, *hi): the addresses of an ELF file's .text (a test failure
 * when it has none). */
struct Elf;
void elf_text_range(struct Elf *elf, uint64_t *lo, uint64_t *hi);

/* The function with this name (first match) or NO_ID. */
uint32_t find_func(const struct profile *p, const char *name);
/* The arc caller -> callee by names, or NO_ID. */
uint32_t find_call(const struct profile *p, const char *caller,
		   const char *callee);

/*
 * Build a profile from a graph description, one event "Ir":
 *   "main:5 a:10 b:3 main>a:2:40 a>b:1:3"
 * "name:self" declares a function, "x>y:count:inclusive" an arc.
 * Functions named only in arcs get self 0.
 */
void profile_from_spec(struct profile *p, const char *spec);

/* Read a whole file into a malloc'd, NUL-terminated buffer (NULL if it
 * cannot be read). */
char *slurp(const char *path, size_t *len);

/* len bytes of data as one gzip member / one bzip2 stream, malloc'd;
 * *out_len is its size. For tests of compressed input. */
unsigned char *gzip_bytes(const void *data, size_t len, size_t *out_len);
unsigned char *bzip2_bytes(const void *data, size_t len, size_t *out_len);

/* a and b have the same functions, calls, positions and costs, in the
 * same order (two readings of one input). */
void assert_same_profile(const struct profile *a, const struct profile *b);

#endif
