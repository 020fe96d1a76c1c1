/*
 * The function the report opens its Function view on (start_function.c).
 */
#ifndef CGA_START_FUNCTION_H
#define CGA_START_FUNCTION_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * The heaviest function of the program itself, by incl[f * stride]
 * (each function's inclusive cost of the event shown):
 *
 *  1. in the program's own object: the object of the function named
 *     "main" (Go's "main.main"), else the one whose file name is a word
 *     of the profiled command's (profile/program.h);
 *  2. failing that, outside the dynamic loader (ld-linux*, ld.so*) and
 *     perf's bracketed pseudo objects ([kernel.kallsyms], [vdso]);
 *  3. failing that, any function;
 *
 * in steps 1 and 2 only functions of a cost above 0 whose name is a
 * symbol (not an address: "0x1090", IgProf's "@?0x7ffff7dc8e01") and
 * not the C runtime's start-up code that encloses main (_start,
 * __libc_start_main, valgrind's "(below main)", ...). Ties go to
 * "main", then to the lower id. Without -b a profile's objects may be
 * unknown (NO_NAME): they are then one object like any other.
 *
 * Returns a function id, or NO_ID when the profile has no functions.
 */
uint32_t start_function(const struct profile *p, const double *incl,
			size_t stride);

#endif
