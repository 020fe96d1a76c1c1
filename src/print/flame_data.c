/*
 * The flame graph's tree of call paths (flame_data.h), built two ways.
 *
 * From stacks (IgProf): every stack node of the profile maps to a tree
 * node, the stack's caller's node being its parent, so stacks of equal
 * paths (in two threads, two files) are one node; a stack's own values
 * are its node's self, and a node's total is its self and its
 * children's totals. Exact: a frame's width is what the stacks through
 * it hold.
 *
 * From arcs (Callgrind, gmon.out), an estimate, as gprof shares time:
 * the graph is taken with each cycle as one unit (its members' self,
 * the arcs that leave it), which makes it acyclic. A unit's inclusive
 * cost is its self plus its outgoing arcs' inclusive costs; a path's
 * cost at unit u is split over u's self and its callees in those
 * proportions, so every node's children and self add up to it. The
 * roots are what the arcs coming in do not account for of a unit's
 * inclusive cost (main, a thread's start), scaled so that they add up
 * to the profile's total. A cycle's node has its members as children,
 * each with its share of the cycle's self.
 *
 *        main 100            main: self 10, arcs run 60, init 30
 *       /        \
 *    run 60     init 30      fib, called from run (40) and init (20):
 *      |          |          its 60 shared 40:20, so under run 40,
 *    fib 40     fib 20       under init 20
 *
 * The tree is made breadth first, so a node limit cuts the deepest,
 * smallest paths rather than whole callees of main.
 */
#include "flame_data.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "print.h"

/* Keys of the child map: (parent + 1) << 32 | unit, where a unit is a
 * function id, or nfuncs + cycle for a cycle as a whole. */
static uint64_t child_key(uint32_t parent, uint32_t unit)
{
	return (uint64_t)(parent + 1u) << 32 | unit;
}

static uint32_t add_node(struct flame *fl, struct u64map *children,
			 uint32_t parent, uint32_t unit, uint32_t nfuncs,
			 bool *added)
{
	uint32_t id = (uint32_t)fl->nnodes;
	uint32_t got = u64map_get_or_put(children, child_key(parent, unit), id,
					 added);
	struct flame_node *n;

	if (!*added)
		return got;
	ARRAY_GROW(fl->nodes, fl->nnodes + 1, fl->alloc);
	n = &fl->nodes[fl->nnodes++];
	n->func = unit < nfuncs ? unit : NO_ID;
	n->cycle = unit < nfuncs ? NO_ID : unit - nfuncs;
	n->parent = parent;
	n->first_child = NO_ID;
	n->total = n->self = 0;
	/* linked at the head; flame_link() puts them in order */
	n->next_sibling = NO_ID;
	return id;
}

/* first_child and next_sibling in node order, which is creation order. */
static void flame_link(struct flame *fl)
{
	uint32_t last_root = NO_ID;
	uint32_t *last = xcalloc(fl->nnodes + 1, sizeof(*last));

	fl->first_root = NO_ID;
	for (size_t i = 0; i < fl->nnodes; i++) {
		struct flame_node *n = &fl->nodes[i];
		uint32_t *prev = n->parent == NO_ID ? &last_root : &last[n->parent];

		n->first_child = NO_ID;
		n->next_sibling = NO_ID;
		last[i] = NO_ID;
		if (*prev == NO_ID) {
			if (n->parent == NO_ID)
				fl->first_root = (uint32_t)i;
			else
				fl->nodes[n->parent].first_child = (uint32_t)i;
		} else {
			fl->nodes[*prev].next_sibling = (uint32_t)i;
		}
		*prev = (uint32_t)i;
	}
	free(last);
}

/* Each node's total its self and its children's, the roots' the tree's
 * (from zero totals): children come after their parents, so from the
 * end. */
static void sum_totals(struct flame *fl)
{
	fl->total = 0;
	for (size_t i = fl->nnodes; i-- > 0;) {
		struct flame_node *n = &fl->nodes[i];

		n->total += n->self;
		if (n->parent != NO_ID)
			fl->nodes[n->parent].total += n->total;
		else
			fl->total += n->total;
	}
}

/* The nodes of a tree from stacks, each stack's in node_of (nstacks),
 * with zero costs. */
static void stack_nodes(struct flame *fl, const struct profile *p,
			uint32_t *node_of)
{
	struct u64map children;
	bool added;

	u64map_init(&children);
	/* a stack's caller was made before it: its node is known */
	for (size_t s = 0; s < p->nstacks; s++) {
		uint32_t caller = p->stacks[s].caller;

		node_of[s] = add_node(fl, &children,
				      caller == NO_ID ? NO_ID : node_of[caller],
				      p->stacks[s].func, (uint32_t)p->nfuncs,
				      &added);
	}
	u64map_release(&children);
}

size_t flame_stack_nodes(const struct profile *p, uint32_t *node_of)
{
	struct flame fl;
	size_t n;

	memset(&fl, 0, sizeof(fl));
	stack_nodes(&fl, p, node_of);
	n = fl.nnodes;
	flame_release(&fl);
	return n;
}

static int build_from_stacks(struct flame *fl, const struct profile *p,
			     uint32_t ev)
{
	uint32_t *node_of = xcalloc(p->nstacks + 1, sizeof(*node_of));

	stack_nodes(fl, p, node_of);
	for (size_t i = 0; i < p->nstack_values; i++)
		if (p->stack_values[i].event == ev)
			fl->nodes[node_of[p->stack_values[i].stack]].self +=
				(double)p->stack_values[i].value;
	sum_totals(fl);
	free(node_of);
	return 0;
}

/* The graph with cycles as units, for the estimate. */
struct units {
	const struct cg *cg;
	uint32_t ev, nfuncs;
	/* per unit; root only until the roots are made (not the
	 * self: unit_self() when asked) */
	double *incl, *root;
	double sum_self;		/* every unit's unit_self() */
	uint32_t cur;			/* the unit add_incl() adds to */
	/* the arcs out of each unit expanded, as each_out() gives them
	 * and in its order, found at its first node (a unit is expanded
	 * once per path through it, its arcs' costs the same each time;
	 * only those of the units expanded, not every unit's: many.60's
	 * report has 2 million arcs out of 677,220 units, 20,220 of them
	 * expanded): out_callee[at] is how many, out_callee[i] and
	 * out_cost[i] for the i after it, at the unit's in out_at */
	struct u64map out_at;
	uint32_t *out_callee;
	double *out_cost;
	size_t nout, alloc_callee, alloc_cost;
};

static uint32_t unit_of(const struct cg *cg, uint32_t f)
{
	uint32_t c = cg->nodes[f].cycle;

	return c == NO_ID ? f : (uint32_t)cg->nnodes + c;
}

static double arc_cost(const struct cg *cg, uint32_t a, uint32_t ev)
{
	double s, ch;

	cg_arc_share(cg, a, ev, &s, &ch);
	return s + ch > 0 ? s + ch : 0;
}

/* Calls f(arg, callee unit, cost) for each arc leaving unit u. */
static void each_out(const struct units *un, uint32_t u,
		     void (*fn)(void *arg, uint32_t callee, double cost),
		     void *arg)
{
	const struct cg *cg = un->cg;
	uint32_t m = u < un->nfuncs ? u : cg->cycles[u - un->nfuncs].first_member;

	for (; m != NO_ID; m = u < un->nfuncs ? NO_ID : cg->nodes[m].next_member)
		for (uint32_t i = cg->out_start[m]; i < cg->out_start[m + 1];
		     i++) {
			uint32_t a = cg->out[i];
			uint32_t v = unit_of(cg, cg_arc_callee(cg, a));

			if (v != u)
				fn(arg, v, arc_cost(cg, a, un->ev));
		}
}

/* A unit's self cost (0 for a cycle's member: its cycle has it). */
static double unit_self(const struct units *un, uint32_t u)
{
	const struct cg *cg = un->cg;
	double s;

	if (u < un->nfuncs && cg->nodes[u].cycle != NO_ID)
		return 0;
	s = u < un->nfuncs ? cg_node_self(cg, u, un->ev)
			   : cg_cycle_self(cg, u - un->nfuncs, un->ev);
	return s < 0 ? 0 : s;
}

static void add_incl(void *arg, uint32_t callee, double cost)
{
	struct units *un = arg;

	(void)callee;
	un->incl[un->cur] += cost;
}

static void add_out(void *arg, uint32_t callee, double cost)
{
	struct units *un = arg;

	ARRAY_GROW(un->out_callee, un->nout + 1, un->alloc_callee);
	ARRAY_GROW(un->out_cost, un->nout + 1, un->alloc_cost);
	un->out_callee[un->nout] = callee;
	un->out_cost[un->nout++] = cost;
}

/* Where unit u's arcs out are in out_callee and out_cost, found the
 * first time. */
static uint32_t units_out(struct units *un, uint32_t u)
{
	bool added;
	uint32_t at = u64map_get_or_put(&un->out_at, u, (uint32_t)un->nout,
					&added);

	if (added) {
		add_out(un, 0, 0);
		each_out(un, u, add_out, un);
		un->out_callee[at] = (uint32_t)(un->nout - at - 1);
	}
	return at;
}

static void units_init(struct units *un, const struct cg *cg, uint32_t ev)
{
	size_t n = cg->nnodes + cg->ncycles;

	un->cg = cg;
	un->ev = ev;
	un->nfuncs = (uint32_t)cg->nnodes;
	un->incl = xcalloc(n + 1, sizeof(double));
	un->root = xcalloc(n + 1, sizeof(double));
	u64map_init(&un->out_at);
	un->out_callee = NULL;
	un->out_cost = NULL;
	un->nout = un->alloc_callee = un->alloc_cost = 0;
	un->sum_self = 0;
	for (uint32_t u = 0; u < n; u++) {
		if (u < un->nfuncs && cg->nodes[u].cycle != NO_ID)
			continue;
		un->incl[u] = unit_self(un, u);
		un->sum_self += un->incl[u];
		un->cur = u;
		each_out(un, u, add_incl, un);
		un->root[u] = un->incl[u];
	}
	/* what the calls into a unit account for is not a root's */
	for (size_t a = cg->p->ncalls; a-- > 0;) {
		uint32_t u, v;

		if (!cg_is_arc(cg, a))
			continue;
		u = unit_of(cg, cg_arc_caller(cg, (uint32_t)a));
		v = unit_of(cg, cg_arc_callee(cg, (uint32_t)a));
		if (u != v)
			un->root[v] -= arc_cost(cg, (uint32_t)a, ev);
	}
}

/* root done with, before the expansion's memory. */
static void units_expanding(struct units *un)
{
	free(un->root);
	un->root = NULL;
}

static void units_release(struct units *un)
{
	free(un->incl);
	free(un->root);
	u64map_release(&un->out_at);
	free(un->out_callee);
	free(un->out_cost);
}

/* Expanding one node: its children, by the arcs' shares of its cost. */
struct expand {
	struct flame *fl;
	struct u64map *children;
	struct units *un;
	uint32_t node;
	double per_cost;	/* the node's total over its unit's inclusive */
	double min_cost;
	size_t max_nodes;
};

static void add_child(struct expand *x, uint32_t unit, double value)
{
	struct flame *fl = x->fl;
	bool added;
	uint32_t c;

	if (value <= 0)
		return;
	if (value < x->min_cost || fl->nnodes >= x->max_nodes) {
		fl->nodes[x->node].self += value;
		fl->cut++;
		fl->full |= fl->nnodes >= x->max_nodes;
		return;
	}
	c = add_node(fl, x->children, x->node, unit, x->un->nfuncs, &added);
	fl->nodes[c].total += value;
}

static void expand(struct expand *x)
{
	const struct cg *cg = x->un->cg;
	struct flame_node *n = &x->fl->nodes[x->node];
	uint32_t u = n->func != NO_ID ? n->func : x->un->nfuncs + n->cycle;
	uint32_t at;
	double v = n->total;

	/* a cycle's member is a leaf: its share of the cycle's self */
	if (n->func != NO_ID && cg->nodes[n->func].cycle != NO_ID) {
		n->self = v;
		return;
	}
	if (x->un->incl[u] <= 0) {
		n->self = v;
		return;
	}
	x->per_cost = v / x->un->incl[u];
	/* a node's children are made while it is expanded, and only
	 * then (breadth first): the map need only find this node's */
	if (x->children->nr) {
		u64map_release(x->children);
		u64map_init(x->children);
	}
	if (n->func != NO_ID) {
		n->self = unit_self(x->un, u) * x->per_cost;
	} else {
		for (uint32_t m = cg->cycles[n->cycle].first_member; m != NO_ID;
		     m = cg->nodes[m].next_member) {
			double s = cg_node_self(cg, m, x->un->ev);

			add_child(x, m, (s > 0 ? s : 0) * x->per_cost);
		}
	}
	at = units_out(x->un, u);
	for (uint32_t i = at + 1; i <= at + x->un->out_callee[at]; i++)
		add_child(x, x->un->out_callee[i],
			  x->un->out_cost[i] * x->per_cost);
}

static int build_from_arcs(struct flame *fl, const struct cg *cg, uint32_t ev,
			   double min_cost, size_t max_nodes)
{
	size_t nunits = cg->nnodes + cg->ncycles;
	struct units un;
	struct u64map children;
	struct expand x = { .fl = fl, .children = &children, .un = &un,
			    .min_cost = min_cost, .max_nodes = max_nodes };
	double sum_root = 0, scale;
	bool added;

	units_init(&un, cg, ev);
	u64map_init(&children);
	for (size_t u = 0; u < nunits; u++)
		if (un.root[u] > 0)
			sum_root += un.root[u];
	scale = sum_root > 0 ? un.sum_self / sum_root : 0;
	/* every root is kept, however small: the roots make the total */
	for (uint32_t u = 0; u < nunits; u++) {
		if (un.root[u] > 0 && un.root[u] * scale > 0) {
			uint32_t r = add_node(fl, &children, NO_ID, u, un.nfuncs,
					      &added);

			fl->nodes[r].total = un.root[u] * scale;
			fl->total += un.root[u] * scale;
		}
	}
	units_expanding(&un);
	/* breadth first: node i's children are appended after it, and its
	 * total is complete before it is expanded */
	for (size_t i = 0; i < fl->nnodes; i++) {
		x.node = (uint32_t)i;
		expand(&x);
	}
	u64map_release(&children);
	units_release(&un);
	return 0;
}

/* Where a function without a node goes (flame_exact_self()): under the
 * heaviest node of its cycle, else of its heaviest caller's unit. */
static void attach_points(const struct flame *fl, const struct cg *cg,
			  const double *weight, const uint32_t *best,
			  uint32_t *parent_of)
{
	double *arc_best = xcalloc(cg->nnodes + 1, sizeof(*arc_best));

	for (uint32_t f = 0; f < cg->nnodes; f++) {
		uint32_t c = cg->nodes[f].cycle;

		parent_of[f] = c != NO_ID ? best[cg->nnodes + c] : NO_ID;
	}
	for (size_t a = cg->p->ncalls; a-- > 0;) {
		uint32_t f, u;
		double cost;

		if (!cg_is_arc(cg, a))
			continue;
		f = cg_arc_callee(cg, (uint32_t)a);
		u = unit_of(cg, cg_arc_caller(cg, (uint32_t)a));
		cost = arc_cost(cg, (uint32_t)a, fl->event);
		if (weight[f] > 0 || best[u] == NO_ID ||
		    cg->nodes[f].cycle != NO_ID || cost <= arc_best[f])
			continue;
		arc_best[f] = cost;
		parent_of[f] = best[u];
	}
	free(arc_best);
}

void flame_exact_self(struct flame *fl, const struct cg *cg)
{
	size_t nunits = cg->nnodes + cg->ncycles;
	double *weight = xcalloc(cg->nnodes + 1, sizeof(*weight));
	uint32_t *best = xmalloc((nunits + 1) * sizeof(*best));
	uint32_t *parent_of = xmalloc((cg->nnodes + 1) * sizeof(*parent_of));
	size_t old = fl->nnodes;

	if (!fl->estimated)
		goto out;
	for (size_t u = 0; u < nunits; u++)
		best[u] = NO_ID;
	for (size_t i = 0; i < old; i++) {
		const struct flame_node *n = &fl->nodes[i];
		uint32_t u = n->func != NO_ID
			? (cg->nodes[n->func].cycle != NO_ID ? NO_ID : n->func)
			: (uint32_t)cg->nnodes + n->cycle;

		if (n->func != NO_ID)
			weight[n->func] += n->total;
		if (u != NO_ID && (best[u] == NO_ID ||
				   n->total > fl->nodes[best[u]].total))
			best[u] = (uint32_t)i;
	}
	attach_points(fl, cg, weight, best, parent_of);
	for (size_t i = 0; i < old; i++) {
		struct flame_node *n = &fl->nodes[i];
		double self = n->func != NO_ID
			? cg_node_self(cg, n->func, fl->event) : 0;

		n->self = n->func != NO_ID && self > 0 && weight[n->func] > 0
			? self * (n->total / weight[n->func]) : 0;
	}
	for (uint32_t f = 0; f < cg->nnodes; f++) {
		double self = cg_node_self(cg, f, fl->event);
		struct flame_node *n;

		if (weight[f] > 0 || self <= 0)
			continue;
		ARRAY_GROW(fl->nodes, fl->nnodes + 1, fl->alloc);
		n = &fl->nodes[fl->nnodes++];
		memset(n, 0, sizeof(*n));
		n->func = f;
		n->cycle = NO_ID;
		n->parent = parent_of[f];
		n->self = self;
	}
	for (size_t i = 0; i < fl->nnodes; i++)
		fl->nodes[i].total = 0;
	sum_totals(fl);
	flame_link(fl);
out:
	free(weight);
	free(best);
	free(parent_of);
}

int flame_build(struct flame *fl, const struct cg *cg, uint32_t ev,
		double min_cost, size_t max_nodes)
{
	const struct profile *p = cg->p;
	int ret;

	memset(fl, 0, sizeof(*fl));
	fl->event = ev;
	fl->first_root = NO_ID;
	/* stacks estimated from the arcs (and transformed: arc_stacks.h)
	 * are the tree to show, but still an estimate */
	fl->estimated = !p->nstack_values || p->stacks_estimated;
	if (!p->nstack_values)
		ret = build_from_arcs(fl, cg, ev, min_cost,
				      max_nodes ? max_nodes : SIZE_MAX);
	else
		ret = build_from_stacks(fl, p, ev);
	flame_link(fl);
	return ret;
}

void flame_release(struct flame *fl)
{
	free(fl->nodes);
	memset(fl, 0, sizeof(*fl));
}
