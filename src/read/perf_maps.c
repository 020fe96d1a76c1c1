/*
 * The processes of a perf recording and their mappings over time (see
 * perf_maps.h).
 *
 * A mapping is never removed: an exec or an mmap over an old range adds
 * one, and a look-up takes, of the mappings holding the address, the
 * newest at the sample's time. Records reach the file from per-CPU
 * buffers, so file order is not time order; times decide, file order
 * only between equal times.
 *
 * A look-up is a binary search: the mappings sorted by start, each with
 * the largest end up to it, the candidates for addr are those before
 * the first that starts above it, back to where no earlier one reaches
 * it (a process has a few overlaps at most: an exec, a library mapped
 * where another was).
 *
 *    maps by start   [a---------)        max_end: a.end
 *                       [b--)            a.end
 *                            [c-----)    c.end
 *    addr                      ^         candidates c, then b, a
 */
#include "perf_maps.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"

void perf_maps_init(struct perf_maps *m)
{
	memset(m, 0, sizeof(*m));
	u64map_init(&m->by_pid);
	u64map_init(&m->comm_by_tid);
}

void perf_maps_release(struct perf_maps *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		free(m->procs[i].maps);
		free(m->procs[i].max_end);
	}
	free(m->procs);
	free(m->comms);
	u64map_release(&m->by_pid);
	u64map_release(&m->comm_by_tid);
	memset(m, 0, sizeof(*m));
}

static struct perf_proc *proc(struct perf_maps *m, uint32_t pid, bool create)
{
	bool added = false;
	uint32_t i;

	if (!create) {
		i = u64map_get(&m->by_pid, pid);
		return i == U64MAP_NONE ? NULL : &m->procs[i];
	}
	i = u64map_get_or_put(&m->by_pid, pid, (uint32_t)m->nprocs, &added);
	if (added) {
		ARRAY_GROW(m->procs, m->nprocs + 1, m->procs_alloc);
		memset(&m->procs[m->nprocs], 0, sizeof(m->procs[0]));
		m->nprocs++;
	}
	return &m->procs[i];
}

void perf_maps_add(struct perf_maps *m, uint32_t pid,
		   const struct perf_map *map)
{
	struct perf_proc *pr = proc(m, pid, true);

	ARRAY_GROW(pr->maps, pr->nmaps + 1, pr->maps_alloc);
	pr->maps[pr->nmaps] = *map;
	pr->maps[pr->nmaps].seq = (uint32_t)pr->nmaps;
	pr->nmaps++;
	pr->sorted = false;
}

void perf_maps_fork(struct perf_maps *m, uint32_t parent, uint32_t child,
		    uint64_t time)
{
	struct perf_proc *from = proc(m, parent, false);
	size_t n;

	if (!from || parent == child)
		return;
	n = from->nmaps;
	for (size_t i = 0; i < n; i++) {
		/* proc() may move procs[]: index it again each time */
		struct perf_map map = proc(m, parent, false)->maps[i];

		if (map.time <= time)
			perf_maps_add(m, child, &map);
	}
}

static bool holds(const struct perf_map *map, uint64_t addr)
{
	return map->start <= addr && addr < map->end;
}

static int by_start(const void *a, const void *b)
{
	const struct perf_map *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort_maps(struct perf_proc *pr)
{
	uint64_t end = 0;

	qsort(pr->maps, pr->nmaps, sizeof(*pr->maps), by_start);
	pr->max_end = xreallocarray(pr->max_end, pr->nmaps + 1,
				    sizeof(*pr->max_end));
	for (size_t i = 0; i < pr->nmaps; i++) {
		if (pr->maps[i].end > end)
			end = pr->maps[i].end;
		pr->max_end[i] = end;
	}
	pr->sorted = true;
}

/* a mapping at least as new: a later time, or the same and later in
 * the file */
static bool newer(const struct perf_map *a, const struct perf_map *b)
{
	return a->time != b->time ? a->time > b->time : a->seq > b->seq;
}

const struct perf_map *perf_maps_find(struct perf_maps *m, uint32_t pid,
				      uint64_t addr, uint64_t time)
{
	struct perf_proc *pr = proc(m, pid, false);
	const struct perf_map *best = NULL;
	size_t lo = 0, hi;

	if (!pr)
		return NULL;
	if (!pr->sorted)
		sort_maps(pr);
	hi = pr->nmaps;
	while (lo < hi) {	/* the first that starts above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (pr->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && pr->max_end[i] > addr;) {
		const struct perf_map *map = &pr->maps[i];

		if (!holds(map, addr) || map->time > time)
			continue;
		if (!best || newer(map, best))
			best = map;
	}
	return best;
}

void perf_maps_set_comm(struct perf_maps *m, uint32_t tid, uint64_t time,
			uint32_t name)
{
	uint32_t prev = u64map_get(&m->comm_by_tid, tid);

	ARRAY_GROW(m->comms, m->ncomms + 1, m->comms_alloc);
	m->comms[m->ncomms].time = time;
	m->comms[m->ncomms].name = name;
	m->comms[m->ncomms].prev = prev == U64MAP_NONE ? UINT32_MAX : prev;
	u64map_put(&m->comm_by_tid, tid, (uint32_t)m->ncomms);
	m->ncomms++;
}

uint32_t perf_maps_comm(const struct perf_maps *m, uint32_t tid,
			uint64_t time)
{
	uint32_t i = u64map_get(&m->comm_by_tid, tid);
	const struct perf_comm *best = NULL, *first = NULL;

	/* a thread is named a few times at most (fork, exec) */
	for (; i != U64MAP_NONE && i != UINT32_MAX; i = m->comms[i].prev) {
		const struct perf_comm *c = &m->comms[i];

		if (!first || c->time <= first->time)
			first = c;
		if (c->time <= time && (!best || c->time >= best->time))
			best = c;
	}
	if (!best)
		best = first;
	return best ? best->name : UINT32_MAX;
}
