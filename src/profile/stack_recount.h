/*
 * Costs made again from whole stacks: see stack_recount.c.
 */
#ifndef CGA_STACK_RECOUNT_H
#define CGA_STACK_RECOUNT_H

#include <stdbool.h>

#include "profile.h"

/*
 * p's self, inclusive and count of every function, its arcs and its
 * totals, made again from p's stacks; each position's cost scaled to
 * its function's self cost left, each call site's to its arc's. With
 * keep_arcs (the stacks are those p's arcs were made from, only
 * functions merged since: -b), every arc of p stays, in its order, one
 * of no cost too, and so do the functions' peaks; without (the stacks
 * transformed), the arcs are made anew in the stacks' order, those no
 * stack holds gone, and a function with no self left has no peak. p
 * must have stacks (p->nstacks).
 */
void profile_recount_stacks(struct profile *p, bool keep_arcs);

#endif
