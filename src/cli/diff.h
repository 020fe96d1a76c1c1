/*
 * --diff BASE NEW: per-function (and with --diff-lines, per-line)
 * differences between two profiles in one event.
 *
 * Functions are matched by (object, file, name) after normalisation:
 * --strip-path-prefix=P takes P off the start of file and object paths
 * on both sides (two checkouts, two machines), --fold-recursion counts
 * valgrind's fib'2 as fib, and the two main programs under two paths
 * are one object when they share a function (diff_main.h), said in a
 * note. Functions that then share a key are added up. The event is
 * --sort's (default: BASE's first), and both profiles must have it;
 * other events are not compared.
 */
#ifndef CGA_DIFF_H
#define CGA_DIFF_H

#include <stdio.h>

#include "options.h"

/* Exit status as analyze_run(): 0, 1 (an input), 2 (an event neither
 * or only one profile has). Errors are reported. */
int diff_run(const struct options *o, FILE *out);

#endif
