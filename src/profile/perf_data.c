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

	u64map_init(&d->node_index);
	u64map_init(&d->cost_index);
	u64map_init(&d->object_index);
	u64map_init(&d->thread_index);
	u64map_init(&d->thread_cost_index);
	d->last_thread_cost = NO_ID;
	d->hostname = d->osrelease = d->arch = d->version = d->cmdline =
		NO_NAME;
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
	u64map_release(&d->node_index);
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
	f = u64map_get_or_put(&d->objects[object].frames, offset,
			      (uint32_t)d->nframes, &added);
	if (!added)
		return f;
	ARRAY_GROW(d->frames, d->nframes + 1, d->frames_alloc);
	d->frames[d->nframes].object = object;
	d->frames[d->nframes].offset = offset;
	return (uint32_t)d->nframes++;
}

uint32_t perf_data_node(struct perf_data *d, uint32_t frame, uint32_t parent,
			bool exact)
{
	uint64_t key, top = (uint64_t)1 << 31;
	bool added;
	uint32_t n;

	/* frame, its exact bit, parent: 31 + 1 + 32 bits */
	if (frame >= top)
		BUG("more than 2^31 perf frames");
	key = ((uint64_t)frame | (exact ? top : 0)) << 32 | parent;
	n = u64map_get_or_put(&d->node_index, key, (uint32_t)d->nnodes,
			      &added);
	if (!added)
		return n;
	if (d->nnodes >= UINT32_MAX - 1)
		BUG("more than 2^32 perf stack nodes");
	ARRAY_GROW(d->nodes, d->nnodes + 1, d->nodes_alloc);
	d->nodes[d->nnodes].frame = frame;
	d->nodes[d->nnodes].parent = parent;
	d->nodes[d->nnodes].exact = exact;
	d->nodes[d->nnodes].cost = NO_ID;
	return (uint32_t)d->nnodes++;
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

void perf_data_add_samples(struct perf_data *d, uint32_t node, uint32_t e,
			   uint64_t period, uint64_t samples)
{
	bool added;
	uint32_t c;
	struct perf_cost *pc;

	if (node >= d->nnodes || e >= d->nevents)
		BUG("perf sample at node %u event %u", node, e);
	if (d->ncosts >= UINT32_MAX - 1)
		BUG("more than 2^32 perf stack costs");
	c = u64map_get_or_put(&d->cost_index, (uint64_t)node << 32 | e,
			      (uint32_t)d->ncosts, &added);
	if (added) {
		ARRAY_GROW(d->costs, d->ncosts + 1, d->costs_alloc);
		d->costs[c] = (struct perf_cost){ e, d->nodes[node].cost, 0, 0 };
		d->nodes[node].cost = c;
		d->ncosts++;
	}
	pc = &d->costs[c];
	pc->period = sat_add(pc->period, period);
	pc->samples = sat_add(pc->samples, samples);
	d->events[e].period = sat_add(d->events[e].period, period);
	d->events[e].samples = sat_add(d->events[e].samples, samples);
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
