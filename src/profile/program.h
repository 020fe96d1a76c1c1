/*
 * The profiled program itself among a profile's functions and objects:
 * what the report opens on (print/start_function.c) and what --diff
 * matches across two builds (cli/diff_main.c) both start from these.
 */
#ifndef CGA_PROGRAM_H
#define CGA_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

/* Whether function f is a program's entry: "main", Go's "main.main". */
bool profile_is_main(const struct profile *p, uint32_t f);

/*
 * The object whose file's base name is that of a word of an input's
 * command (Callgrind's cmd:, IgProf's program, perf record's command
 * line, where "perf record -g ./prog" names the program last): every
 * reader names an object by the file it was mapped from. NO_NAME when
 * no word names one.
 */
name_id profile_command_object(const struct profile *p);

#endif
