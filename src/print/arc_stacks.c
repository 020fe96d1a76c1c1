/*
 * A profile of arcs given the flame graph's estimated paths as its
 * stacks (arc_stacks.h), for the transforms.
 *
 * Each tree node (flame_data.c: a path, parents before children) is a
 * stack, found by (caller's stack, function), so the trees of several
 * events share their paths. A node's self cost is its stack's value,
 * rounded as --output=folded rounds: the running sum rounded less what
 * was given before, so the values add up to the tree's total. The
 * calls into a path's last frame are its arc's calls in the share the
 * path has of the arc's cost:
 *
 *   main -> run (60 of fib's 90 through its calls, 2 calls of 3)
 *   run > fib: 60 of the arc run -> fib's 60  ->  its calls, all 2
 */
#include "arc_stacks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "arc_pin.h"
#include "flame_data.h"

/*
 * The paths are --tree's (print_tree.c) and the report's (html_data.h):
 * cut at FLAME_TREE_MIN_SHARE of the total. Each function's self cost is
 * then spread over its paths by their totals, and one whose every path
 * was cut is put under its heaviest caller (flame_exact_self()), so that
 * a transform that leaves a function whole leaves its self cost the
 * profile's (session 22 measured it on the cc1plus profile of bench/run
 * with --focus=main: the 22 heaviest functions outside cycles kept
 * theirs, 5 of them had before). The report makes the same stacks from
 * the tree it has (its exact.js, by the same operations in the same
 * order) and transforms them as this does: its views under a transform
 * show --tree's figures with that transform
 * (tests/browser/test_report_text.py). Session 22 followed the paths
 * down to 1e-6 here, which the report could not carry (2 to 6 times the
 * nodes on gprof2dot's bzr, xapian and issue34 profiles, past its size
 * budget on a compiler's), so the two differed; the price is inclusive
 * costs under --focus a little further from the measured (0.52-1.51
 * against 0.77-1.27 of them on the cc1plus profile, session 22).
 */
#define ARC_STACKS_MAX_NODES 2000000	/* --tree's */

struct maker {
	struct profile *p;
	const struct cg *cg;
	struct u64map stacks;	/* (caller + 1) << 32 | func -> stack */
	uint32_t *cycle_func;	/* per cycle: its function, or NO_ID */
	/* per (caller unit, callee unit): the arcs' cost of the sort
	 * event and their calls; a unit is a function, or nfuncs + cycle */
	struct u64map unit_arcs;
	double *arc_cost;
	uint64_t *arc_calls;
	size_t narcs;
	double *calls;		/* per stack: the calls into its last frame */
	size_t calls_alloc;
	struct pstack_value *values;	/* the trees' costs */
	size_t nvalues, values_alloc;
	uint32_t pin;		/* the function a focus is pinned to (arc_pin.h) */
};

static uint32_t unit_of(const struct cg *cg, uint32_t f)
{
	uint32_t c = cg->nodes[f].cycle;

	return c == NO_ID ? f : (uint32_t)cg->nnodes + c;
}

static uint32_t stack_of(struct maker *m, uint32_t caller, uint32_t func)
{
	uint64_t key = (uint64_t)(uint32_t)(caller + 1u) << 32 | func;
	uint32_t s = u64map_get(&m->stacks, key);

	if (s == U64MAP_NONE) {
		s = profile_stack(m->p, func, caller);
		u64map_put(&m->stacks, key, s);
	}
	return s;
}

/* The function standing for cycle c as a whole. */
static uint32_t cycle_function(struct maker *m, uint32_t c)
{
	char name[64];
	int len;

	if (m->cycle_func[c] != NO_ID)
		return m->cycle_func[c];
	len = snprintf(name, sizeof(name), "<cycle %u as a whole>",
		       m->cg->cycles[c].number);
	m->cycle_func[c] = profile_func(m->p, NO_NAME, NO_NAME,
					names_intern(&m->p->names, name,
						     (size_t)len));
	return m->cycle_func[c];
}

/* The arcs between units, for the calls of each path. */
static void gather_arcs(struct maker *m)
{
	const struct cg *cg = m->cg;
	size_t alloc = 0;

	u64map_init(&m->unit_arcs);
	for (size_t a = 0; a < cg->p->ncalls; a++) {
		uint32_t u, v, i;
		double s, ch;
		bool added;

		if (!cg_is_arc(cg, a))
			continue;
		u = unit_of(cg, cg_arc_caller(cg, (uint32_t)a));
		v = unit_of(cg, cg_arc_callee(cg, (uint32_t)a));
		if (u == v)
			continue;
		i = u64map_get_or_put(&m->unit_arcs, (uint64_t)u << 32 | v,
				      (uint32_t)m->narcs, &added);
		if (added) {
			if (m->narcs + 1 > alloc) {
				alloc = alloc / 2 * 3 + 64;
				m->arc_cost = xreallocarray(m->arc_cost, alloc,
							    sizeof(double));
				m->arc_calls = xreallocarray(m->arc_calls, alloc,
							     sizeof(uint64_t));
			}
			m->arc_cost[i] = 0;
			m->arc_calls[i] = 0;
			m->narcs++;
		}
		cg_arc_share(cg, (uint32_t)a, cg->sort_event, &s, &ch);
		m->arc_cost[i] += s + ch > 0 ? s + ch : 0;
		m->arc_calls[i] += cg_arc_count(cg, (uint32_t)a);
	}
}

/* One event's tree into stacks; with calls (the sort event's), each
 * path's share of its arc's calls into stack_calls. */
static void add_tree(struct maker *m, uint32_t ev, bool calls)
{
	struct profile *p = m->p;
	const struct cg *cg = m->cg;
	double min = (double)p->totals[ev] * FLAME_TREE_MIN_SHARE;
	struct flame fl;
	uint32_t *stack = NULL;
	uint32_t *unit = NULL;
	uint64_t *whole = NULL;	/* each node's self in whole units */
	double sum = 0;
	uint64_t given = 0;

	flame_build(&fl, cg, ev, min, ARC_STACKS_MAX_NODES);
	/* the transformed listings' self column is the profile's where a
	 * transform leaves a function whole, however many paths were cut */
	flame_exact_self(&fl, cg);
	stack = xcalloc(fl.nnodes + 1, sizeof(*stack));
	unit = xcalloc(fl.nnodes + 1, sizeof(*unit));
	whole = xcalloc(fl.nnodes + 1, sizeof(*whole));
	if (m->pin != NO_ID) {
		uint64_t *row = xcalloc(p->nevents + 1, sizeof(*row));

		cg_inclusive_row(cg, m->pin, row);
		arc_pin(&fl, (uint32_t)cg->nnodes, m->pin, row[ev], whole);
		free(row);
	} else {
		for (size_t i = 0; i < fl.nnodes; i++) {
			const struct flame_node *n = &fl.nodes[i];
			uint64_t upto;

			if (!(n->self > 0))
				continue;
			sum += n->self;
			upto = (uint64_t)llround(sum);
			if (upto > given) {
				whole[i] = upto - given;
				given = upto;
			}
		}
	}
	for (size_t i = 0; i < fl.nnodes; i++) {
		const struct flame_node *n = &fl.nodes[i];
		uint32_t f = n->func != NO_ID ? n->func
			     : cycle_function(m, n->cycle);
		uint32_t up = n->parent == NO_ID ? NO_ID : stack[n->parent];

		unit[i] = n->func != NO_ID ? unit_of(cg, n->func)
			  : (uint32_t)cg->nnodes + n->cycle;
		stack[i] = stack_of(m, up, f);
		/* into the profile once every tree is made: until then it
		 * has no stacks, and each tree is the arcs' */
		if (whole[i]) {
			ARRAY_GROW(m->values, m->nvalues + 1, m->values_alloc);
			m->values[m->nvalues++] = (struct pstack_value){
				.stack = stack[i], .event = ev,
				.value = whole[i] };
		}
		if (calls && n->parent != NO_ID) {
			uint32_t a = u64map_get(&m->unit_arcs,
						(uint64_t)unit[n->parent] << 32 |
							unit[i]);

			/* a cycle's member under the cycle is its share
			 * of the cycle's self, no call */
			if (a != U64MAP_NONE && m->arc_cost[a] > 0) {
				size_t old = m->calls_alloc;

				ARRAY_GROW(m->calls, stack[i] + 1, m->calls_alloc);
				memset(m->calls + old, 0,
				       (m->calls_alloc - old) * sizeof(*m->calls));
				m->calls[stack[i]] +=
					(double)m->arc_calls[a] * n->total /
					m->arc_cost[a];
			}
		}
	}
	free(stack);
	free(unit);
	free(whole);
	flame_release(&fl);
}

void arc_stacks_make(struct profile *p, const struct cg *cg, uint32_t pin)
{
	struct maker m = { .p = p, .cg = cg, .pin = pin };
	/* an estimate (gmon.out's) is of the sort event only; measured
	 * calls say each event's shares */
	bool every = cg->child != NULL;

	u64map_init(&m.stacks);
	m.cycle_func = xmalloc((cg->ncycles + 1) * sizeof(*m.cycle_func));
	for (size_t c = 0; c < cg->ncycles; c++)
		m.cycle_func[c] = NO_ID;
	gather_arcs(&m);
	for (uint32_t e = 0; e < p->nevents; e++)
		if (every || e == cg->sort_event)
			add_tree(&m, e, e == cg->sort_event);
	for (size_t i = 0; i < m.nvalues; i++)
		profile_add_stack_value(p, m.values[i].stack, m.values[i].event,
					m.values[i].value, 0);
	free(m.values);
	free(p->stack_calls);
	p->stack_calls = xcalloc(p->nstacks + 1, sizeof(*p->stack_calls));
	if (m.calls)
		memcpy(p->stack_calls, m.calls,
		       (m.calls_alloc < p->nstacks ? m.calls_alloc : p->nstacks) *
			       sizeof(*m.calls));
	free(p->est_self);
	p->est_self = NULL;
	p->est_total = 0;
	p->stacks_estimated = true;
	u64map_release(&m.stacks);
	u64map_release(&m.unit_arcs);
	free(m.cycle_func);
	free(m.arc_cost);
	free(m.arc_calls);
	free(m.calls);
}
