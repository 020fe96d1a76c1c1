/* Whether the profiles added up in one run are of one program. */
#ifndef CGA_ONE_PROGRAM_H
#define CGA_ONE_PROGRAM_H

#include "profile/profile.h"

/*
 * Warn once when the inputs of p are of different programs (costs added
 * up as if they were one), naming the first two that differ and what
 * each was known by: its command line's program, the program its
 * recorded processes ran (perf record -p), or their command name.
 */
void check_one_program(const struct profile *p);

#endif
