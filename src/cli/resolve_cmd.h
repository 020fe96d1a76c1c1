/*
 * The addr2line-style command (--resolve).
 */
#ifndef CGA_RESOLVE_CMD_H
#define CGA_RESOLVE_CMD_H

#include <stdio.h>

#include "options.h"

/*
 * --resolve: where each address is (o->inputs, or lines of `in` when
 * there are none), one line each in the layout of addr2line -f -p -a.
 * Exit status as analyze_run().
 */
int resolve_run(const struct options *o, FILE *in, FILE *out);

#endif
