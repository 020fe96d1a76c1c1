/*
 * Costs made again from whole stacks: see stack_recount.c.
 */
#ifndef CGA_STACK_RECOUNT_H
#define CGA_STACK_RECOUNT_H

#include "profile.h"

/*
 * p's self, inclusive and count of every function, its arcs (made
 * anew: those no stack holds are gone) and its totals, made again
 * from p's stacks; each position's cost scaled to its function's self
 * cost left, each call site's to its arc's. p must have stacks
 * (p->nstacks).
 */
void profile_recount_stacks(struct profile *p);

#endif
