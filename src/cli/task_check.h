/*
 * The options that choose or list processes, threads and time (--pid,
 * --tid, --comm, --time, --threads, --parts), and --leaks, against the
 * formats read: each is honoured or refused, never left out without a word.
 */
#ifndef CGA_TASK_CHECK_H
#define CGA_TASK_CHECK_H

#include "options.h"
#include "profile/profile.h"

/*
 * After the inputs are read into p: 0, or the exit status after
 * reporting (2: an option the format cannot honour; 1: --pid or --tid
 * kept no part of the Callgrind or IgProf inputs).
 */
int task_check(const struct options *o, const struct profile *p);

/*
 * The options that only some formats use (--part, --max-stack,
 * --kallsyms, --sysroot, --no-filter): 0 when at least one input of p
 * is of such a format, else 2 after saying that none is (the option
 * would change nothing, silently).
 */
int hint_check(const struct options *o, const struct profile *p);

#endif
