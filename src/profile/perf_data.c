/*
 * A perf.data recording as objects, frames and a tree of stacks, until
 * it is resolved (see perf_data.h).
 */
#include "perf_data.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "profile.h"

struct perf_data *perf_data_new(void)
{
	struct perf_data *d = xcalloc(1, sizeof(*d));

	perf_node_index_init(&d->node_index);
	u64map_init(&d->cost_index);
	u64map_init(&d->object_index);
	u64map_init(&d->thread_index);
	u64map_init(&d->thread_cost_index);
	d->last_thread_cost = NO_ID;
	d->hostname = d->osrelease = d->arch = d->version = d->cmdline =
		d->kernel_ref = NO_NAME;
	return d;
}

void perf_data_set_events(struct perf_data *d, size_t nevents)
{
	if (d->nnodes)
		BUG("perf events set after %zu stack nodes", d->nnodes);
	ARRAY_GROW(d->events, nevents, d->events_alloc);
	memset(d->events, 0, nevents * sizeof(*d->events));
	d->nevents = nevents;
	for (size_t e = 0; e < nevents; e++)
		d->events[e].name = d->events[e].unit = NO_NAME;
}

void perf_data_free(struct perf_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nobjects; i++)
		u64map_release(&d->objects[i].frames);
	free(d->objects);
	free(d->events);
	free(d->frames);
	free(d->nodes);
	free(d->costs);
	perf_node_index_release(&d->node_index);
	u64map_release(&d->cost_index);
	u64map_release(&d->object_index);
	free(d->threads);
	free(d->thread_costs);
	u64map_release(&d->thread_index);
	u64map_release(&d->thread_cost_index);
	free(d->log);
	free(d->node_stack);
	free(d->event_profile);
	free(d);
}

uint32_t perf_data_object(struct perf_data *d, struct names *names,
			  const char *path, size_t len,
			  enum perf_object_kind kind)
{
	name_id name = names_intern(names, path, len);
	bool added;
	uint32_t o = u64map_get_or_put(&d->object_index, name,
				       (uint32_t)d->nobjects, &added);
	struct perf_object *obj;

	if (!added)
		return o;
	ARRAY_GROW(d->objects, d->nobjects + 1, d->objects_alloc);
	obj = &d->objects[d->nobjects];
	memset(obj, 0, sizeof(*obj));
	obj->path = name;
	obj->kind = kind;
	u64map_init(&obj->frames);
	return (uint32_t)d->nobjects++;
}

uint32_t perf_data_frame(struct perf_data *d, uint32_t object,
			 uint64_t offset)
{
	bool added;
	uint32_t f;

	if (object >= d->nobjects)
		BUG("perf frame in object %u of %zu", object, d->nobjects);
	f = u64map_get_or_put_dense(&d->objects[object].frames, offset,
				    (uint32_t)d->nframes, &added);
	if (!added)
		return f;
	ARRAY_GROW(d->frames, d->nframes + 1, d->frames_alloc);
	d->frames[d->nframes].object = object;
	d->frames[d->nframes].offset = offset;
	return (uint32_t)d->nframes++;
}

/* Node id n, new, of frame fx (exact in its top bit) under parent. */
static void add_node(struct perf_data *d, uint32_t n, uint32_t fx,
		     uint32_t parent)
{
	if (d->nnodes >= UINT32_MAX - 1)
		BUG("more than 2^32 perf stack nodes");
	ARRAY_GROW(d->nodes, d->nnodes + 1, d->nodes_alloc);
	d->nodes[n].frame = fx & ~PERF_NODE_EXACT;
	d->nodes[n].parent = parent;
	d->nodes[n].exact = fx & PERF_NODE_EXACT;
	d->nodes[n].cost = NO_ID;
	d->nnodes++;
}

/* frame, its exact bit: 31 + 1 bits */
static uint32_t node_fx(uint32_t frame, bool exact)
{
	if (frame & PERF_NODE_EXACT)
		BUG("more than 2^31 perf frames");
	return frame | (exact ? PERF_NODE_EXACT : 0);
}

/* perf_node_key_fn of d's nodes */
static uint64_t node_key(const void *ctx, uint32_t n)
{
	const struct perf_node *nd = &((const struct perf_data *)ctx)->nodes[n];

	return (nd->frame | (nd->exact ? PERF_NODE_EXACT : 0)) |
	       (uint64_t)nd->parent << 32;
}

static uint32_t parent_hash(const struct perf_data *d, uint32_t parent)
{
	return parent == NO_ID ? 0
			       : perf_node_index_hash(&d->node_index, parent);
}

uint32_t perf_data_node(struct perf_data *d, uint32_t frame, uint32_t parent,
			bool exact)
{
	uint32_t fx = node_fx(frame, exact), n;
	bool added;

	perf_node_index_reserve(&d->node_index, 1, node_key, d);
	n = perf_node_index_get_or_put(&d->node_index, fx, parent,
				       perf_node_path_hash(parent,
							   parent_hash(d, parent),
							   fx),
				       (uint32_t)d->nnodes, &added);
	if (added)
		add_node(d, n, fx, parent);
	return n;
}

/* How many levels ahead the walk below has asked for its slots. */
#define PATH_PREFETCH 16

uint32_t perf_data_path(struct perf_data *d, const uint32_t *frames,
			const bool *exact, size_t n, uint32_t parent,
			uint32_t *nodes)
{
	uint32_t h = parent_hash(d, parent), up = parent;
	bool added = false;

	if (!n)
		return parent;
	perf_node_index_reserve(&d->node_index, n, node_key, d);
	/* every level's path hash first (into nodes[], which the walk
	 * overwrites with the node): no level's waits for a look-up */
	for (size_t i = 0; i < n; i++) {
		h = perf_node_path_hash(up, h, node_fx(frames[i], exact[i]));
		up = 0;		/* any id but NO_ID: not the root */
		nodes[i] = h;
		if (i < PATH_PREFETCH)
			perf_node_index_prefetch(&d->node_index, h);
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t fx = node_fx(frames[i], exact[i]);

		h = nodes[i];
		if (i + PATH_PREFETCH < n)
			perf_node_index_prefetch(&d->node_index,
						 nodes[i + PATH_PREFETCH]);
		nodes[i] = perf_node_index_get_or_put(&d->node_index, fx,
						      parent, h,
						      (uint32_t)d->nnodes,
						      &added);
		if (added)
			add_node(d, nodes[i], fx, parent);
		parent = nodes[i];
	}
	return parent;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void perf_data_add_sample(struct perf_data *d, uint32_t node, uint32_t e,
			  uint64_t period)
{
	perf_data_add_samples(d, node, e, period, 1);
}

/*
 * A node's costs are found by walking its list (the node was just
 * reached, its first cost is one load away; a recording has an event or
 * a few), where a look-up in cost_index was a cache miss a sample. A
 * node with more than COST_WALK costs has them all in cost_index too,
 * so that a sample costs a bounded walk however many events there are.
 */
#define COST_WALK 8

void perf_data_add_samples(struct perf_data *d, uint32_t node, uint32_t e,
			   uint64_t period, uint64_t samples)
{
	perf_data_add_node_samples(d, node, e, period, samples);
	perf_data_add_event_samples(d, e, period, samples);
}

void perf_data_add_event_samples(struct perf_data *d, uint32_t e,
				 uint64_t period, uint64_t samples)
{
	if (e >= d->nevents)
		BUG("perf sample of event %u", e);
	d->events[e].period = sat_add(d->events[e].period, period);
	d->events[e].samples = sat_add(d->events[e].samples, samples);
}

void perf_data_add_node_samples(struct perf_data *d, uint32_t node,
				uint32_t e, uint64_t period, uint64_t samples)
{
	bool added = true;
	uint32_t c;
	unsigned walked = 0;
	struct perf_cost *pc;

	if (node >= d->nnodes || e >= d->nevents)
		BUG("perf sample at node %u event %u", node, e);
	if (d->ncosts >= UINT32_MAX - 1)
		BUG("more than 2^32 perf stack costs");
	for (c = d->nodes[node].cost; c != NO_ID && walked < COST_WALK;
	     c = d->costs[c].next, walked++)
		if (d->costs[c].event == e)
			break;
	if (c != NO_ID && walked < COST_WALK) {
		added = false;
	} else if (c != NO_ID) {
		c = u64map_get_or_put(&d->cost_index,
				      (uint64_t)node << 32 | e,
				      (uint32_t)d->ncosts, &added);
	} else {
		c = (uint32_t)d->ncosts;
		if (walked == COST_WALK) {
			/* the node's list grows past the walk: index it */
			for (uint32_t o = d->nodes[node].cost; o != NO_ID;
			     o = d->costs[o].next)
				u64map_put(&d->cost_index,
					   (uint64_t)node << 32 |
						   d->costs[o].event,
					   o);
			u64map_put(&d->cost_index, (uint64_t)node << 32 | e, c);
		}
	}
	if (added) {
		ARRAY_GROW(d->costs, d->ncosts + 1, d->costs_alloc);
		d->costs[c] = (struct perf_cost){ e, d->nodes[node].cost, 0, 0 };
		d->nodes[node].cost = c;
		d->ncosts++;
	}
	pc = &d->costs[c];
	pc->period = sat_add(pc->period, period);
	pc->samples = sat_add(pc->samples, samples);
}

void perf_data_prefetch_costs(const struct perf_data *d, uint32_t node,
			      int stage)
{
	if (node >= d->nnodes)
		return;
	if (stage == 0) {
		__builtin_prefetch(&d->nodes[node]);
	} else {
		uint32_t c = d->nodes[node].cost;

		if (c != NO_ID)
			__builtin_prefetch(&d->costs[c]);
	}
}

uint32_t perf_data_add_thread_sample(struct perf_data *d, uint32_t pid,
				     uint32_t tid, uint32_t e, uint64_t period)
{
	bool added;
	uint32_t t, c;
	struct perf_cost *pc;

	if (e >= d->nevents)
		BUG("perf thread sample of event %u", e);
	if (d->last_thread_cost != NO_ID &&
	    d->last_thread_key == ((uint64_t)pid << 32 | tid) &&
	    d->last_thread_event == e) {
		pc = &d->thread_costs[d->last_thread_cost];
		pc->period = sat_add(pc->period, period);
		pc->samples = sat_add(pc->samples, 1);
		return d->last_thread;
	}
	if (d->nthreads >= UINT32_MAX - 1 || d->nthread_costs >= UINT32_MAX - 1)
		BUG("more than 2^32 perf threads");
	t = u64map_get_or_put(&d->thread_index, (uint64_t)pid << 32 | tid,
			      (uint32_t)d->nthreads, &added);
	if (added) {
		ARRAY_GROW(d->threads, d->nthreads + 1, d->threads_alloc);
		d->threads[t] = (struct perf_thread){ pid, tid, NO_NAME,
						      NO_ID };
		d->nthreads++;
	}
	c = u64map_get_or_put(&d->thread_cost_index, (uint64_t)t << 32 | e,
			      (uint32_t)d->nthread_costs, &added);
	if (added) {
		ARRAY_GROW(d->thread_costs, d->nthread_costs + 1,
			   d->thread_costs_alloc);
		d->thread_costs[c] = (struct perf_cost){ e, d->threads[t].cost,
							 0, 0 };
		d->threads[t].cost = c;
		d->nthread_costs++;
	}
	pc = &d->thread_costs[c];
	pc->period = sat_add(pc->period, period);
	pc->samples = sat_add(pc->samples, 1);
	d->last_thread_key = (uint64_t)pid << 32 | tid;
	d->last_thread_event = e;
	d->last_thread = t;
	d->last_thread_cost = c;
	return t;
}

void perf_data_log_sample(struct perf_data *d, uint32_t node, uint32_t thread,
			  uint32_t e, uint64_t period, bool has_time,
			  uint64_t time)
{
	ARRAY_GROW(d->log, d->nlog + 1, d->log_alloc);
	d->log[d->nlog++] = (struct perf_logged_sample){
		.time = has_time ? time : 0, .period = period,
		.node = node, .thread = thread, .event = e };
	d->untimed |= !has_time;
}

void perf_data_cut_stacks(const struct perf_data *d, bool lone_leaf,
			  uint64_t *cut, uint64_t *all)
{
	/* 0: not known yet, 1: under a whole stack's root, 2: under a cut
	 * one; a node's callers are found up its parents, each once */
	uint8_t *root = xcalloc(d->nnodes ? d->nnodes : 1, 1);
	uint32_t *up = NULL;
	size_t nup = 0, up_alloc = 0;

	*cut = *all = 0;
	for (size_t i = 0; i < d->nnodes; i++) {
		uint32_t n = (uint32_t)i;
		uint8_t r;

		nup = 0;
		while (!root[n] && d->nodes[n].parent != NO_ID) {
			ARRAY_GROW(up, nup + 1, up_alloc);
			up[nup++] = n;
			n = d->nodes[n].parent;
		}
		if (!root[n]) {
			const struct perf_frame *f = &d->frames[d->nodes[n].frame];

			enum perf_object_kind k = d->objects[f->object].kind;

			root[n] = k == PERF_OBJ_UNKNOWN ||
						  (lone_leaf &&
						   d->nodes[n].exact &&
						   k != PERF_OBJ_KERNEL)
					  ? 2
					  : 1;
		}
		r = root[n];
		while (nup)
			root[up[--nup]] = r;
		for (uint32_t c = d->nodes[i].cost; c != NO_ID;
		     c = d->costs[c].next) {
			*all += d->costs[c].samples;
			if (r == 2)
				*cut += d->costs[c].samples;
		}
	}
	free(up);
	free(root);
}
