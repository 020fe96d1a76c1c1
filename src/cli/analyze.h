/*
 * The pipeline from options to listings, callable from main() and from
 * the end-to-end tests: read every input into one profile, build and
 * analyse the call graph, print what was asked for.
 */
#ifndef CGA_ANALYZE_H
#define CGA_ANALYZE_H

#include <stdio.h>

#include "options.h"

/* Exit status: 0 success, 1 input error, 2 an option that does not fit
 * the profile (an unknown event); errors are already reported. */
int analyze_run(const struct options *o, FILE *out);

#endif
