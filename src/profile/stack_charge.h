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

/*
 * A tree of stacks charged at once: the rows that stack_charge_leaf()
 * and stack_charge_arc() make of every stack that ends at one of its
 * nodes, charged from its leaf up to its root, but in work of the
 * tree's size, not of the sum of its stacks' depths (a perf.data's
 * 264,062 nodes hold 108,014 stacks of 1,998,296 frames). A stack's
 * function and arc is charged once, at its outermost node of the path
 * (the costs of the stacks below it), found by counting the functions
 * and arcs of the path in a walk from the roots down.
 *
 * Node n's caller is parent[n] (NO_ID: a root), with parent[n] < n.
 * Where stacks pass through n (n is above one that ends), func[n] is
 * its function as a caller and call[n] the arc parent's func -> func[n]
 * (NO_ID at a root); elsewhere both are NO_ID. Where stacks end at n,
 * leaf[n] is their index k among the leaves (else NO_ID):
 * leaf_ids[2k] is their function and leaf_ids[2k + 1] the arc parent's
 * func -> that function; rows[k * (2 * stride + 1)] on are their cost
 * row, their count row and the samples the arcs count. The ids are the
 * caller's, made in the order it wants them. The nodes are those that
 * stacks end at or pass, in the order of a walk from the roots: each
 * node's subtree right after it (stack_tree_order()), so that the
 * charging reads them one after another.
 */
struct stack_tree {
	size_t n;
	const uint32_t *parent, *func, *call, *leaf;
	const uint32_t *leaf_ids;
	const uint64_t *rows;
};

/*
 * Of a tree of n nodes (parent[i] < i, NO_ID at a root) where stacks end
 * at the nodes with ends[i] nonzero: the nodes that stacks end at or
 * pass, each followed by its subtree (roots and children in the order
 * of their numbers), into order[]; returns how many.
 */
size_t stack_tree_order(size_t n, const uint32_t *parent,
			const uint8_t *ends, uint32_t *order);

/* p keeps call_self from now on (as stack_charge_init()) */
void stack_charge_tree(struct profile *p, const struct stack_tree *t);

#endif
