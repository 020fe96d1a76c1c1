/*
 * A perf recording's stacks charged into the profile, resolve_perf.c's
 * last step (see perf_charge.h).
 */
#include "perf_charge.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* A stack's samples: the sum of its events' counts, or the largest
 * where every sample counts in every event */
static uint64_t stack_samples(const struct perf_data *d,
			      const uint64_t *count, size_t stride)
{
	uint64_t samples = 0;

	for (size_t e = 0; e < stride; e++)
		if (!d->samples_every_event)
			samples += count[e];
		else if (count[e] > samples)
			samples = count[e];
	return samples;
}

/* The samples ending at node n: self cost to its leaf (the innermost
 * function of its chain), inclusive cost once to each distinct function
 * and arc up to the root. */
static void charge_stack(struct perf_charge *pc, struct stack_charge *w,
			 uint32_t n)
{
	size_t stride = pc->p->stride;
	const uint32_t *chain;
	size_t len = pc->chain(pc->ctx, pc->d->nodes[n].frame, false, &chain);
	uint32_t callee = chain[len - 1];
	uint64_t samples = stack_samples(pc->d, w->count, stride);

	stack_charge_leaf(w, callee);
	if (pc->positions)
		pc->position(pc->ctx, pc->d->nodes[n].frame, callee, w->cost);
	for (size_t k = len - 1; k-- > 0;) {
		stack_charge_arc(w, chain[k], callee, samples);
		callee = chain[k];
	}
	for (uint32_t up = pc->d->nodes[n].parent; up != NO_ID;
	     up = pc->d->nodes[up].parent) {
		const struct perf_node *nd = &pc->d->nodes[up];

		len = pc->chain(pc->ctx, nd->frame, !nd->exact, &chain);
		for (size_t k = len; k-- > 0;) {
			stack_charge_arc(w, chain[k], callee, samples);
			callee = chain[k];
		}
	}
}

static void charge_stacks(struct perf_charge *pc)
{
	const struct perf_data *d = pc->d;
	struct stack_charge w;

	stack_charge_init(&w, pc->p);
	for (size_t n = 0; n < d->nnodes; n++) {
		bool any = false;

		stack_charge_clear(&w);
		for (uint32_t c = d->nodes[n].cost; c != NO_ID;
		     c = d->costs[c].next) {
			uint32_t pe = pc->event_of[d->costs[c].event];

			if (pe == NO_ID)
				continue;
			w.cost[pe] += d->costs[c].period;
			w.count[pe] += d->costs[c].samples;
			any = true;
		}
		if (any)
			charge_stack(pc, &w, (uint32_t)n);
	}
	stack_charge_release(&w);
}

void perf_charge_prepare(struct perf_charge *pc)
{
	const struct perf_data *d = pc->d;
	size_t nn = d->nnodes, stride = pc->p->stride, nleaves = 0, alloc = 0;
	uint32_t *parent, *leaf;

	if (pc->chains)
		return;
	pc->ids = xmalloc((4 * nn + 1) * sizeof(*pc->ids));
	pc->lists = xmalloc((2 * nn + 1) * sizeof(*pc->lists));
	leaf = pc->ids + 2 * nn;
	parent = pc->ids + 3 * nn;
	memset(pc->ids, 0xff, 3 * nn * sizeof(*pc->ids));	/* NO_ID */
	for (size_t n = 0; n < nn; n++) {
		uint64_t *cost;
		bool any = false;

		parent[n] = d->nodes[n].parent;
		for (uint32_t c = d->nodes[n].cost; c != NO_ID && !any;
		     c = d->costs[c].next)
			any = pc->event_of[d->costs[c].event] != NO_ID;
		if (!any)
			continue;
		if (nleaves == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			pc->leaf_ids = xreallocarray(pc->leaf_ids, 2 * alloc,
						     sizeof(*pc->leaf_ids));
			pc->rows = xreallocarray(pc->rows,
						 (2 * stride + 1) * alloc,
						 sizeof(*pc->rows));
		}
		cost = pc->rows + nleaves * (2 * stride + 1);
		memset(cost, 0, (2 * stride + 1) * sizeof(*cost));
		for (uint32_t c = d->nodes[n].cost; c != NO_ID;
		     c = d->costs[c].next) {
			uint32_t pe = pc->event_of[d->costs[c].event];

			if (pe == NO_ID)
				continue;
			cost[pe] += d->costs[c].period;
			cost[stride + pe] += d->costs[c].samples;
		}
		cost[2 * stride] = stack_samples(d, cost + stride, stride);
		leaf[n] = (uint32_t)nleaves++;
	}
	pc->t = (struct stack_tree){ .n = nn, .parent = parent,
				     .func = pc->ids, .call = pc->ids + nn,
				     .leaf = leaf, .leaf_ids = pc->leaf_ids,
				     .rows = pc->rows, .child = pc->lists,
				     .next = pc->lists + nn };
	stack_tree_lists(&pc->t, pc->lists, pc->lists + nn);
}

/* The function of frame f (ret: a return address), one to a frame */
static uint32_t frame_func(struct perf_charge *pc, uint32_t f, bool ret)
{
	const uint32_t *funcs;

	pc->chain(pc->ctx, f, ret, &funcs);
	return funcs[0];
}

/*
 * charge_stacks() where a frame is one function (no --inlined=callee),
 * in work of the tree's size: the functions and arcs made in the
 * order charge_stacks() makes them (each stack walked up only to the
 * first node an earlier stack passed, whose function and arcs from
 * there out were all made then), then the tree charged at once
 * (stack_charge_tree()). The bench's recording: 108,014 stacks of
 * 1,998,296 frames in 264,062 nodes, 264,162 arcs looked up where
 * charge_stacks() looked up 1.89 million.
 */
static void charge_tree(struct perf_charge *pc)
{
	const struct perf_data *d = pc->d;
	size_t nn = d->nnodes, stride = pc->p->stride;
	uint32_t *func = pc->ids, *call = pc->ids + nn;
	const uint32_t *leaf = pc->ids + 2 * nn;

	profile_want_call_self(pc->p);
	for (size_t n = 0; n < nn; n++) {
		uint32_t k = leaf[n], callee, *slot;

		if (k == NO_ID)
			continue;
		pc->leaf_ids[2 * (size_t)k] = callee =
			frame_func(pc, d->nodes[n].frame, false);
		slot = &pc->leaf_ids[2 * (size_t)k + 1];
		if (pc->positions)
			pc->position(pc->ctx, d->nodes[n].frame, callee,
				     pc->rows + k * (2 * stride + 1));
		for (uint32_t up = d->nodes[n].parent; up != NO_ID;
		     up = d->nodes[up].parent) {
			uint32_t f = frame_func(pc, d->nodes[up].frame,
						!d->nodes[up].exact);

			*slot = profile_call(pc->p, f, callee);
			if (func[up] != NO_ID)
				break;
			func[up] = callee = f;
			slot = &call[up];
		}
	}
	stack_charge_tree(pc->p, &pc->t);
}

void perf_charge_run(struct perf_charge *pc)
{
	if (pc->chains)
		charge_stacks(pc);
	else
		charge_tree(pc);
}

void perf_charge_keep_stacks(struct perf_charge *pc)
{
	struct profile *p = pc->p;
	struct perf_data *d = pc->d;
	uint32_t *stack_of = xcalloc(d->nnodes + 1, sizeof(*stack_of));

	for (size_t n = 0; n < d->nnodes; n++) {
		const struct perf_node *nd = &d->nodes[n];
		const uint32_t *chain;
		size_t len = pc->chain(pc->ctx, nd->frame, !nd->exact, &chain);
		uint32_t s = nd->parent == NO_ID ? NO_ID : stack_of[nd->parent];

		for (size_t k = 0; k < len; k++)
			s = profile_stack(p, chain[k], s);
		stack_of[n] = s;
		for (uint32_t c = nd->cost; c != NO_ID; c = d->costs[c].next) {
			uint32_t pe = pc->event_of[d->costs[c].event];

			if (pe != NO_ID)
				profile_add_stack_value(p, stack_of[n], pe,
							d->costs[c].period,
							d->costs[c].samples);
		}
	}
	/* the logged samples' stacks (the report's threads and timeline) */
	free(d->node_stack);
	d->node_stack = stack_of;
}

void perf_charge_release(struct perf_charge *pc)
{
	free(pc->ids);
	free(pc->leaf_ids);
	free(pc->lists);
	free(pc->rows);
	memset(pc, 0, sizeof(*pc));
}
