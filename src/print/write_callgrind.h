/*
 * --output=callgrind: the analysed profile written back as a Callgrind
 * file (format version 1) that our reader, callgrind_annotate and
 * KCachegrind load, whatever it was read from.
 *
 * What is written, from the neutral profile model:
 *  - the recorded events (`events:`, long names as `event: X : long`),
 *    derived ones as `event: Sum = Ir + 2 Dr` so readers compute them;
 *  - every function as ob= fl= fn= (name compression: "(id) name" at
 *    first use, "(id)" after), its positions (`positions:` instr and/or
 *    line, as the profile has them; fi=/fe= where a position's file is
 *    not the function's) with their self cost, the calls made from each
 *    position (cob= cfi= cfn= calls= and the inclusive cost line) and
 *    the jumps (jump=, jcnd=followed/executed as valgrind writes it);
 *  - self cost no position holds (profiles read without positions,
 *    gmon.out, IgProf frames without an address) at the function's
 *    start line (0 when unknown), address 0;
 *  - `summary:` (the inputs' summary lines if they had them, else the
 *    totals) and `totals:`, the sum of every cost line written.
 *
 * Estimated profiles (gmon.out) have no measured inclusive cost: a
 * call's cost line is gprof's estimate (the arc's share of the callee's
 * self and children), rounded to whole ticks, and 0 for calls to itself
 * or inside a cycle (gprof does not propagate those).
 */
#ifndef CGA_WRITE_CALLGRIND_H
#define CGA_WRITE_CALLGRIND_H

#include <stdio.h>

#include "cg/cg.h"

/*
 * Write cg's profile to out. `where` names out (the file, or "the
 * standard output"). Returns 0; whoever opened out checks it for write
 * errors (ferror) and reports them.
 */
int write_callgrind(FILE *out, const char *where, const struct cg *cg);

#endif
