/*
 * The call graph and its analysis, after gprof's internals: build the
 * arc graph from a profile, number it topologically with cycle
 * detection, propagate cost from callees to callers, and rank the
 * result for listing. Knows nothing of file formats or binaries.
 *
 * Two ways to propagate, for two kinds of data:
 *  - measured: the profile gives each arc's inclusive cost (Callgrind).
 *    A function outside any cycle costs its self cost plus its calls'
 *    inclusive costs; a cycle as a whole costs its members' self cost
 *    plus the calls that leave it. Exact, in integers, every event.
 *  - estimated: only call counts are known (gmon.out). A callee's cost
 *    is shared among its callers in proportion to their call counts,
 *    as gprof does. In doubles, for one event.
 * Self-calls never propagate, and no call inside a cycle does, so no
 * recursive activation is counted twice.
 */
#ifndef CGA_CG_H
#define CGA_CG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/* 24 bytes: a big program has a million functions. */
struct cg_node {
	uint64_t calls;		/* from other functions (self-calls not) */
	/* the profile call of the function to itself, or NO_ID: its count
	 * is the recursive calls (cg_node_self_calls()) */
	uint32_t self_call;
	uint32_t cycle;		/* index into cycles[], or NO_ID */
	uint32_t next_member;	/* next node of the same cycle, or NO_ID */
	uint32_t index;		/* [N] in listings, 1-based; 0 unlisted */
};

struct cg_cycle {
	uint32_t number;	/* "<cycle N as a whole>", 1-based */
	uint32_t first_member, nmembers;
	uint64_t calls;		/* calls entering from outside the cycle */
	uint64_t internal_calls; /* calls between members */
	uint32_t topo;
	uint32_t index;		/* [N] of the cycle's own listing entry */
};

/* A listing entry: a function, or a cycle as a whole. */
struct cg_entry {
	bool is_cycle;
	uint32_t id;		/* node or cycle index */
};

struct cg {
	const struct profile *p;
	size_t nevents;		/* == p->stride */
	uint32_t sort_event;	/* ranks by this event */
	bool measured;		/* arcs carry measured inclusive cost */
	/* p->func_incl when it still holds (no arc was deleted), else NULL */
	const uint64_t *func_incl;
	size_t ndeleted;	/* calls cg_build_without() left out */

	struct cg_node *nodes;	/* one per profile function, same index */
	size_t nnodes;
	/* Each node's topological number, callees numbered below callers
	 * (cg_find_cycles()), for cycles, -q/-Q and estimated propagation;
	 * cg_rank(), which comes after them, frees it (NULL). */
	uint32_t *topo;
	/*
	 * The arcs. An arc is a profile call from one function to another
	 * (a self-call is none: see self_calls; nor is a deleted call), and
	 * is named by the call's index: the profile holds its ends, count
	 * and cost (cg_arc_caller() ...), the graph only the lists. Node
	 * n's arcs out are out[out_start[n]] to out[out_start[n + 1] - 1],
	 * in the profile's order: 4 bytes an arc, and a big program has
	 * millions. The arcs in, which only listings need, and for the
	 * entries they print: struct cg_callers.
	 */
	uint32_t *out;
	uint32_t *out_start;		/* nnodes + 1 */
	uint64_t *arc_set;	/* a bit per profile call: is it an arc? */
	size_t narcs;
	struct cg_cycle *cycles;
	size_t ncycles;

	/* measured: nevents numbers per node/cycle */
	uint64_t *child;	/* cost of calls leaving the node's cycle */
	uint64_t *cycle_self, *cycle_child;
	/*
	 * A cycle member's inclusive cost: the smaller of its cycle's and
	 * the sum of its incoming calls. Both bound it from above; the sum is
	 * exact when the function is never active twice at once (true of
	 * every name without a "'N" suffix in profiles valgrind wrote with
	 * its default --separate-recs=2), the cycle when it is the only way
	 * in. Zero for functions outside cycles (they are self + child).
	 * When the profile knows each function's inclusive cost exactly
	 * (p->func_incl: IgProf), that, capped by its cycle's; then the
	 * member's cg_node_child() is member_incl - self.
	 * A row per cycle member only, in node order (most functions of a
	 * big program are in no cycle): member_set has a bit per node,
	 * member_rank[w] the members before word w of it.
	 */
	uint64_t *member_incl;
	uint64_t *member_set;
	uint32_t *member_rank;

	/* estimated (cg_propagate_estimated): one number per node, or per
	 * profile call for the arcs */
	double *est_self, *est_child;
	double *est_arc_self, *est_arc_child;
	double *est_cycle_self, *est_cycle_child;

	/* listed entries, highest total first: a node, or a cycle with
	 * CG_CYCLE_BIT (4 bytes an entry: a big program lists 700,000);
	 * cg_order_entry() */
	uint32_t *order;
	size_t norder;
};

#define CG_CYCLE_BIT 0x80000000u

/* The i-th entry of the listing order. */
static inline struct cg_entry cg_order_entry(const struct cg *cg, size_t i)
{
	uint32_t id = cg->order[i];

	return (struct cg_entry){ (id & CG_CYCLE_BIT) != 0, id & ~CG_CYCLE_BIT };
}

/* An arc's ends and calls (a is a profile call index). */
static inline uint32_t cg_arc_caller(const struct cg *cg, uint32_t a)
{
	return cg->p->calls[a].caller;
}
static inline uint32_t cg_arc_callee(const struct cg *cg, uint32_t a)
{
	return cg->p->calls[a].callee;
}
static inline uint64_t cg_arc_count(const struct cg *cg, uint32_t a)
{
	return profile_call_count(cg->p, a);
}

/* Node n's calls to itself. */
static inline uint64_t cg_node_self_calls(const struct cg *cg, uint32_t n)
{
	uint32_t c = cg->nodes[n].self_call;

	return c == NO_ID ? 0 : profile_call_count(cg->p, c);
}

/* Is profile call c an arc of the graph? To go through every arc in
 * one fixed order: for (c = ncalls; c-- > 0;) if (cg_is_arc(cg, c)). */
static inline bool cg_is_arc(const struct cg *cg, size_t c)
{
	return cg->arc_set[c / 64] >> (c % 64) & 1;
}

/*
 * The arcs into chosen nodes, each node's in the profile's order, as
 * the arcs out are in the graph. chosen: a bit per node (bit n % 64 of
 * word n / 64), or NULL for every node.
 */
struct cg_callers {
	uint64_t *chosen;	/* a copy of the bits; NULL: all */
	uint32_t *rank;		/* chosen nodes before word w of them */
	size_t nchosen;
	uint32_t *start;	/* nchosen + 2: slot s's arcs from start[s] */
	uint32_t *arc;
};

void cg_callers_build(struct cg_callers *cs, const struct cg *cg,
		      const uint64_t *chosen);
/* Node n's arcs in (n must be chosen): their number, *arcs the list. */
size_t cg_callers_of(const struct cg_callers *cs, uint32_t n,
		     const uint32_t **arcs);
void cg_callers_release(struct cg_callers *cs);

/* Build nodes and arcs from p (self-arcs become self_calls). */
void cg_build(struct cg *cg, const struct profile *p, uint32_t sort_event);

/*
 * The same without the profile calls c for which deleted[c] is set
 * (gprof's -k): they are no arcs, their counts are no calls, and their
 * cost flows to no caller. Then a profile's exact inclusive costs per
 * function (p->func_incl, which counted them) are not used: a cycle
 * member's inclusive cost is bounded by its calls' and its cycle's.
 */
void cg_build_without(struct cg *cg, const struct profile *p,
		      uint32_t sort_event, const bool *deleted);
void cg_release(struct cg *cg);

/* Topological numbering and cycles (Tarjan's SCC, iteratively: the
 * input decides the graph's depth, not our stack). */
void cg_find_cycles(struct cg *cg);

/* Measured propagation over every event (needs p->calls_have_incl or no
 * calls at all). -1 (reported) when sums pass 2^64: a damaged profile. */
int cg_propagate_measured(struct cg *cg);

/*
 * gprof's proportional propagation of one event, for data that has only
 * call counts: self[n] is each node's own cost (e.g. histogram time).
 */
void cg_propagate_estimated(struct cg *cg, const double *self);

/* Listing order and [N] indexes; entries with no cost and no calls are
 * left out. Cycles are numbered in this order. */
void cg_rank(struct cg *cg);

/*
 * Which entries the call graph lists when gprof's -q/-Q select some
 * (after cg_find_cycles). only[f]: -q named f; not[f]: -Q named f
 * (either may be NULL: none). As gprof decides it, callers first: an
 * entry is listed when -q names it, or when a listed function calls it
 * (a cycle: calls one of its members from outside) and -Q does not name
 * it; with no -q at all, every entry -Q does not name. So -q lists the
 * functions it names and what they call, down to what -Q names. A
 * cycle as a whole is listed when a listed function calls into it
 * (with no -q, also when nothing calls into it), as gprof lists it.
 * node_out gets nnodes flags, cycle_out ncycles.
 */
void cg_listed(const struct cg *cg, const bool *only, const bool *not,
	       bool *node_out, bool *cycle_out);

/* Display values of the sort event (either propagation). */
double cg_node_self(const struct cg *cg, uint32_t n, uint32_t event);
double cg_node_child(const struct cg *cg, uint32_t n, uint32_t event);
double cg_cycle_self(const struct cg *cg, uint32_t c, uint32_t event);
double cg_cycle_child(const struct cg *cg, uint32_t c, uint32_t event);
/*
 * The part of the callee's (or its cycle's) self and child cost that an
 * arc accounts for; the two add up exactly to the arc's measured
 * inclusive cost. A profile of whole stacks (profile.call_self) splits
 * it exactly: self is the cost of the stacks ending in the callee
 * called from this caller. Other measured ones (Callgrind) split it in
 * the callee's own self:child proportion, as gprof does; estimated ones
 * (gmon.out) are gprof's shares.
 */
void cg_arc_share(const struct cg *cg, uint32_t a, uint32_t event,
		  double *self, double *child);

/* A maximum event's (pevent.max) children of node n as igprof-analyse
 * shows them: the largest of its calls to other functions (0: none);
 * of those out of its cycle only where the profile's exact inclusive
 * costs are not used (cg_build_without()). */
uint64_t cg_node_largest_call(const struct cg *cg, uint32_t n,
			      uint32_t event);
/* The same of cycle c: the largest of its members' calls out of it. */
uint64_t cg_cycle_largest_call(const struct cg *cg, uint32_t c,
			       uint32_t event);

/* Exact measured values (measured mode only). */
static inline const uint64_t *cg_self_row(const struct cg *cg, uint32_t n)
{
	return profile_self(cg->p, n);
}
static inline const uint64_t *cg_child_row(const struct cg *cg, uint32_t n)
{
	return cg->child + (size_t)n * cg->nevents;
}

/* The inclusive cost of node n for every event (measured mode): self +
 * child, or for a cycle member member_incl. Written to out. */
void cg_inclusive_row(const struct cg *cg, uint32_t n, uint64_t *out);

#endif
