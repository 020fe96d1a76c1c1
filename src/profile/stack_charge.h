/*
 * One sampled stack charged to the profile's functions and arcs: its
 * cost is the leaf's self cost, and every distinct function and arc of
 * the stack gets it once as inclusive cost (a recursion counted once),
 * with the stack's samples as the arc's count; the innermost arc from
 * another function (the leaf's caller -> the leaf) also gets it as its
 * self cost (profile.call_self). The resolver of
 * perf.data and gperftools stacks (resolve_perf.c) and the pprof reader
 * charge their stacks this way; the stamps remember, per function and
 * per arc, the last stack that charged it.
 *
 *	stack_charge_init(&sc, p);
 *	for each stack: fill sc.cost and sc.count (per event),
 *		stack_charge_leaf(&sc, leaf);
 *		for each caller, innermost first:
 *			stack_charge_arc(&sc, caller, callee, samples);
 *	stack_charge_release(&sc);
 */
#ifndef CGA_STACK_CHARGE_H
#define CGA_STACK_CHARGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct stack_charge {
	struct profile *p;
	uint64_t *cost, *count;	/* the stack's, per event (stride) */
	uint32_t *fstamp, *cstamp;	/* per function, per arc */
	size_t fstamp_alloc, cstamp_alloc;
	uint32_t gen;		/* the stack being charged */
	bool innermost;		/* no arc's self charged yet in this stack */
};

/* cost and count zeroed, one per event of p (its events are final);
 * p keeps call_self from now on */
void stack_charge_init(struct stack_charge *sc, struct profile *p);
void stack_charge_release(struct stack_charge *sc);
/* cost and count to zero, for the next stack */
void stack_charge_clear(struct stack_charge *sc);
/* A new stack ending in leaf: its self cost, count and inclusive. */
void stack_charge_leaf(struct stack_charge *sc, uint32_t leaf);
/* caller calls callee in the stack: the caller's inclusive cost and
 * the arc's, and the arc's count of samples, once per stack each; the
 * first arc after stack_charge_leaf() must be the leaf's (its callee
 * the leaf), and the first of them whose caller is another function
 * gets the stack's cost as its self. */
void stack_charge_arc(struct stack_charge *sc, uint32_t caller,
		      uint32_t callee, uint64_t samples);

#endif
