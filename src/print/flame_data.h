/*
 * The data behind flame graphs (--output=folded, the HTML report's flame
 * graph): a tree of call paths for one event, each node the cost spent
 * in every path through it. Exact where the profile holds whole stacks
 * (IgProf read with want_stacks, perf.data resolved with it): each
 * stack's value along its path.
 * Estimated from the call arcs otherwise (Callgrind, gmon.out).
 */
#ifndef CGA_FLAME_DATA_H
#define CGA_FLAME_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cg/cg.h"

struct flame_node {
	uint32_t func;		/* profile function, or NO_ID for a cycle */
	uint32_t cycle;		/* cg cycle index when func is NO_ID */
	uint32_t parent;	/* NO_ID at a root */
	uint32_t first_child, next_sibling;	/* NO_ID ends them */
	double total;		/* the cost of every path through it */
	double self;		/* ... of those ending at it */
};

struct flame {
	struct flame_node *nodes;	/* parents before their children */
	size_t nnodes, alloc;
	uint32_t first_root;		/* roots linked by next_sibling */
	uint32_t event;
	bool estimated;		/* from the arcs, not from stacks */
	double total;		/* of the roots: the profile's total */
	size_t cut;		/* paths not followed: under the smallest
				 * cost kept, or past the node limit; their
				 * cost is their caller's self */
	bool full;		/* the node limit was reached */
};

/* The share of the total below which an estimated tree's paths are cut
 * (their cost left in their caller's self): --tree's, the report's, and
 * the stacks the transforms start from (arc_stacks.c). */
#define FLAME_TREE_MIN_SHARE 1e-5

/*
 * Build the tree for event ev of the analysed graph. Estimated trees
 * keep nodes of at least min_cost and at most max_nodes nodes (the
 * arcs of a large program unfold into more paths than anyone reads);
 * exact ones keep every stack. Returns 0.
 */
int flame_build(struct flame *fl, const struct cg *cg, uint32_t ev,
		double min_cost, size_t max_nodes);
void flame_release(struct flame *fl);

/*
 * For a profile with stacks (not estimated): the node of each stack in
 * the tree flame_build() makes of them (the same for every event), in
 * node_of (p->nstacks entries); returns the number of nodes.
 */
size_t flame_stack_nodes(const struct profile *p, uint32_t *node_of);

/*
 * An estimated tree made to hold each function's self cost exactly,
 * for the outputs whose flat column must be the profile's self column
 * (--output=pprof, a Callgrind part's tree on the report): a function's self
 * shared over its nodes by their totals, and one that has no node (its
 * paths were cut) under the heaviest node of its cycle or of its
 * heaviest caller that has one (a root when none has), instead of the
 * cut paths' cost left as their caller's self. The totals are then the
 * nodes' own and their children's again: still an estimate, adding up
 * to the profile's total. Trees from stacks are left as they are.
 */
void flame_exact_self(struct flame *fl, const struct cg *cg);

#endif
