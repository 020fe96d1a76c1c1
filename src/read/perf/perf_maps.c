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
 * A look-up must cost the same whatever the mappings' lengths (one of
 * 2^63 bytes holds every address): a process's mappings, sorted by
 * start, are read as a balanced tree (the middle one the root, each
 * half a subtree), each with the largest end in its subtree. A subtree
 * whose largest end is at or below addr holds nothing for it, and the
 * right subtree of a map starting above addr neither: the search visits
 * the mappings holding addr and the paths to them.
 *
 *    maps by start   [a---------)        max_end under b: a.end
 *                       [b--)            (b the root, a and c
 *                            [c-----)    its subtrees)
 *    addr                      ^         visits b; a (holds), c (holds)
 *
 * A child forked from a parent shares the parent's mappings instead of
 * a copy of them (8,000 mappings times 8,000 forks fit in a few KB of
 * file): it links to the parent with the parent's count of entries at
 * the fork and the fork's time, as its next entry (after mappings it
 * had already: pid reuse, or records out of order), and a look-up
 * follows the link. A parent without mappings of its own passes its
 * own link on, so a chain of forks is one link deep. A process gets
 * one link: forked into again, or holding one of the parent's
 * mappings already (the same record's, come back through forks the
 * other way), it gets a copy; but not of a mapping it holds already:
 * two processes forking into each other would double their
 * mappings at each FORK. The mapping then keeps its first place in the
 * file order, where a second copy would have come later: the look-ups
 * differ only where that mapping and another of the same time hold an
 * address, the later in the file winning, and that other came between
 * the copies.
 */
#include "perf_maps.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"

#define NONE UINT32_MAX

void perf_maps_init(struct perf_maps *m)
{
	memset(m, 0, sizeof(*m));
	u64map_init(&m->by_pid);
	u64map_init(&m->comm_by_tid);
	m->rand = 0x9e3779b9u;
}

void perf_maps_release(struct perf_maps *m)
{
	for (size_t i = 0; i < m->nprocs; i++) {
		free(m->procs[i].maps);
		free(m->procs[i].max_end);
	}
	free(m->procs);
	free(m->comms);
	free(m->threads);
	u64map_release(&m->by_pid);
	u64map_release(&m->comm_by_tid);
	memset(m, 0, sizeof(*m));
}

static uint32_t proc_index(struct perf_maps *m, uint32_t pid, bool create)
{
	bool added = false;
	uint32_t i;

	if (!create) {
		i = u64map_get(&m->by_pid, pid);
		return i == U64MAP_NONE ? NONE : i;
	}
	i = u64map_get_or_put(&m->by_pid, pid, (uint32_t)m->nprocs, &added);
	if (added) {
		ARRAY_GROW(m->procs, m->nprocs + 1, m->procs_alloc);
		memset(&m->procs[m->nprocs], 0, sizeof(m->procs[0]));
		m->nprocs++;
	}
	return i;
}

static void add_to(struct perf_proc *pr, const struct perf_map *map)
{
	ARRAY_GROW(pr->maps, pr->nmaps + 1, pr->maps_alloc);
	pr->maps[pr->nmaps] = *map;
	pr->maps[pr->nmaps].seq = pr->nentries++;
	pr->nmaps++;
	pr->sorted = false;
}

void perf_maps_add(struct perf_maps *m, uint32_t pid,
		   const struct perf_map *map)
{
	uint32_t i = proc_index(m, pid, true);	/* may move procs[] */
	struct perf_map own = *map;

	own.id = m->nadded++;
	add_to(&m->procs[i], &own);
}

static int by_seq(const void *a, const void *b)
{
	const struct perf_map *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The maps of level lv (see collect()) whose seq is in [lo, hi) and
 * time at most its time, in file order, onto *out. */
struct level { uint32_t pi, n, split; uint64_t time; };

static void emit(const struct perf_maps *m, const struct level *lv,
		 uint32_t lo, uint32_t hi, struct perf_map **out,
		 size_t *nout, size_t *alloc)
{
	const struct perf_proc *pr = &m->procs[lv->pi];
	size_t from = *nout;

	for (size_t i = 0; i < pr->nmaps; i++) {
		if (pr->maps[i].seq < lo || pr->maps[i].seq >= hi ||
		    pr->maps[i].time > lv->time)
			continue;
		ARRAY_GROW(*out, *nout + 1, *alloc);
		(*out)[(*nout)++] = pr->maps[i];
	}
	/* sorted by start after a look-up: back to file order */
	if (*nout > from)
		qsort(*out + from, *nout - from, sizeof(**out), by_seq);
}

/*
 * What process pi shows among its first n entries with a time at most
 * time, in its order, onto *out: its own before its link, what the link
 * shows, its own after it.
 */
static void collect(const struct perf_maps *m, uint32_t pi, uint32_t n,
		    uint64_t time, struct perf_map **out, size_t *nout,
		    size_t *alloc)
{
	/* the chain of links, nearest first, and the n and time each
	 * level is seen with, and where its link followed is (split;
	 * UINT32_MAX: none) */
	struct level *chain = NULL;
	size_t depth = 0, chain_alloc = 0;

	while (pi != NONE && n > 0) {
		const struct perf_proc *pr = &m->procs[pi];
		bool follow = pr->has_link && pr->link.pos < n;

		ARRAY_GROW(chain, depth + 1, chain_alloc);
		chain[depth++] = (struct level){ pi, n,
						 follow ? pr->link.pos : NONE,
						 time };
		if (!follow)
			break;
		if (pr->link.time < time)
			time = pr->link.time;
		n = pr->link.n;
		pi = pr->link.parent;
	}
	for (size_t i = 0; i < depth; i++)
		emit(m, &chain[i], 0, chain[i].split < chain[i].n
					      ? chain[i].split : chain[i].n,
		     out, nout, alloc);
	for (size_t i = depth; i-- > 0;)
		if (chain[i].split != NONE)
			emit(m, &chain[i], chain[i].split + 1, chain[i].n, out,
			     nout, alloc);
	free(chain);
}

/*
 * The ids of what process pi shows (its own mappings, and what its link
 * shows) into held: what a copy into it must leave out. Built for each
 * copy rather than kept: an index kept per process took as much memory
 * as the mappings.
 */
static void held_ids(const struct perf_maps *m, uint32_t pi,
		     struct u64map *held)
{
	const struct perf_proc *pr = &m->procs[pi];
	struct perf_map *seen = NULL;
	size_t n = 0, alloc = 0;
	bool added;

	for (size_t i = 0; i < pr->nmaps; i++)
		u64map_get_or_put(held, pr->maps[i].id, 0, &added);
	if (!pr->has_link)
		return;
	collect(m, pr->link.parent, pr->link.n, pr->link.time, &seen, &n,
		&alloc);
	for (size_t i = 0; i < n; i++)
		u64map_get_or_put(held, seen[i].id, 0, &added);
	free(seen);
}

void perf_maps_fork(struct perf_maps *m, uint32_t parent, uint32_t child,
		    uint64_t time)
{
	uint32_t pi = proc_index(m, parent, false), ci;
	const struct perf_proc *from;
	struct perf_proc *to;
	struct perf_link link;

	if (pi == NONE || parent == child || !m->procs[pi].nentries)
		return;
	ci = proc_index(m, child, true);
	from = &m->procs[pi];
	to = &m->procs[ci];
	if (to->nentries) {
		struct perf_map *copy = NULL;
		size_t n = 0, alloc = 0;
		bool holds_one = to->has_link, added;
		struct u64map held;

		u64map_init(&held);
		held_ids(m, ci, &held);
		collect(m, pi, from->nentries, time, &copy, &n, &alloc);
		for (size_t i = 0; i < n && !holds_one; i++)
			holds_one = u64map_get(&held, copy[i].id) !=
				    U64MAP_NONE;
		if (holds_one) {
			for (size_t i = 0; i < n; i++) {
				u64map_get_or_put(&held, copy[i].id, 0, &added);
				if (added)
					add_to(&m->procs[ci], &copy[i]);
			}
		}
		u64map_release(&held);
		free(copy);
		if (holds_one)
			return;
		/* none of them: a link after its own does what the
		 * copies would */
	}
	link = (struct perf_link){ pi, from->nentries, time, to->nentries };
	if (!from->nmaps && from->has_link) {
		/* its only entry is its link: share what that shares */
		link.parent = from->link.parent;
		link.n = from->link.n;
		if (from->link.time < time)
			link.time = from->link.time;
	}
	to->link = link;
	to->has_link = true;
	to->nentries++;
}

static int by_start(const void *a, const void *b)
{
	const struct perf_map *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The largest end in the subtree of maps[lo, hi), kept at its root
 * (the middle). */
static uint64_t fill_max_end(struct perf_proc *pr, size_t lo, size_t hi)
{
	size_t mid;
	uint64_t end, sub;

	if (lo >= hi)
		return 0;
	mid = lo + (hi - lo) / 2;
	end = pr->maps[mid].end;
	sub = fill_max_end(pr, lo, mid);
	if (sub > end)
		end = sub;
	sub = fill_max_end(pr, mid + 1, hi);
	if (sub > end)
		end = sub;
	pr->max_end[mid] = end;
	return end;
}

static void sort_maps(struct perf_proc *pr)
{
	if (pr->nmaps)	/* a process that only inherits has none */
		qsort(pr->maps, pr->nmaps, sizeof(*pr->maps), by_start);
	pr->max_end = xreallocarray(pr->max_end, pr->nmaps + 1,
				    sizeof(*pr->max_end));
	fill_max_end(pr, 0, pr->nmaps);
	pr->sorted = true;
}

/* a mapping at least as new: a later time, or the same and later in
 * the file */
static bool newer(const struct perf_map *a, const struct perf_map *b)
{
	return a->time != b->time ? a->time > b->time : a->seq > b->seq;
}

struct query {
	uint64_t addr, time;
	uint32_t n;		/* entries before the n-th only */
	const struct perf_map *best;
};

/* The newest of maps[lo, hi) holding q->addr into q->best (see the top
 * of the file). The depth is the tree's, log2 of the count. */
static void search(const struct perf_proc *pr, size_t lo, size_t hi,
		   struct query *q)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct perf_map *map = &pr->maps[mid];

		if (pr->max_end[mid] <= q->addr)
			return;
		if (map->start > q->addr) {
			hi = mid;	/* the right ones start later */
			continue;
		}
		if (q->addr < map->end && map->time <= q->time &&
		    map->seq < q->n && (!q->best || newer(map, q->best)))
			q->best = map;
		search(pr, lo, mid, q);
		lo = mid + 1;
	}
}

const struct perf_map *perf_maps_find(struct perf_maps *m, uint32_t pid,
				      uint64_t addr, uint64_t time)
{
	uint32_t pi = proc_index(m, pid, false);
	const struct perf_map *best = NULL;
	uint32_t n = UINT32_MAX, best_link = 0;

	/* the process, then what it inherits. Between equal times the
	 * later entry wins: a deeper level's mapping comes, in the order
	 * of the level best is from, at that level's link (best_link) */
	while (pi != NONE && n > 0) {
		struct perf_proc *pr = &m->procs[pi];
		struct query q = { addr, time, n, NULL };
		bool here = false;

		if (!pr->sorted)
			sort_maps(pr);
		search(pr, 0, pr->nmaps, &q);
		if (q.best && (!best || q.best->time > best->time ||
			       (q.best->time == best->time &&
				best_link > best->seq))) {
			best = q.best;
			here = true;
		}
		if (!pr->has_link || pr->link.pos >= n)
			break;
		if (here)
			best_link = pr->link.pos;
		if (pr->link.time < time)
			time = pr->link.time;
		n = pr->link.n;
		pi = pr->link.parent;
	}
	return best;
}

/* --- command names: a treap per thread, by time, then by seq from
 * the newest (so that the largest key at or below a time is the first
 * set of those at the latest time) --- */

static bool comm_before(const struct perf_comm *a, const struct perf_comm *b)
{
	return a->time != b->time ? a->time < b->time : a->seq > b->seq;
}

static uint32_t comm_insert(struct perf_comm *c, uint32_t root, uint32_t i)
{
	uint32_t *side;

	if (root == NONE)
		return i;
	side = comm_before(&c[i], &c[root]) ? &c[root].left : &c[root].right;
	*side = comm_insert(c, *side, i);
	if (c[*side].prio > c[root].prio) {	/* rotate it up */
		uint32_t top = *side;

		if (side == &c[root].left) {
			c[root].left = c[top].right;
			c[top].right = root;
		} else {
			c[root].right = c[top].left;
			c[top].left = root;
		}
		return top;
	}
	return root;
}

void perf_maps_set_comm(struct perf_maps *m, uint32_t tid, uint64_t time,
			uint32_t name)
{
	bool added = false;
	uint32_t t = u64map_get_or_put(&m->comm_by_tid, tid,
				       (uint32_t)m->nthreads, &added);
	struct perf_comm *c;

	if (added) {
		ARRAY_GROW(m->threads, m->nthreads + 1, m->threads_alloc);
		m->threads[m->nthreads++] = (struct perf_comms){ NONE, 0 };
	}
	ARRAY_GROW(m->comms, m->ncomms + 1, m->comms_alloc);
	/* xorshift32: priorities the file cannot choose */
	m->rand ^= m->rand << 13;
	m->rand ^= m->rand >> 17;
	m->rand ^= m->rand << 5;
	c = &m->comms[m->ncomms];
	*c = (struct perf_comm){ time, name, m->threads[t].n++, NONE, NONE,
				 m->rand };
	m->threads[t].root = comm_insert(m->comms, m->threads[t].root,
					 (uint32_t)m->ncomms);
	m->ncomms++;
}

/* The largest entry with a time at most time, or NONE. */
static uint32_t comm_at(const struct perf_comm *c, uint32_t i, uint64_t time)
{
	uint32_t best = NONE;

	while (i != NONE) {
		if (c[i].time <= time) {
			best = i;
			i = c[i].right;
		} else {
			i = c[i].left;
		}
	}
	return best;
}

uint32_t perf_maps_comm(const struct perf_maps *m, uint32_t tid,
			uint64_t time)
{
	uint32_t t = u64map_get(&m->comm_by_tid, tid), i, first;

	if (t == U64MAP_NONE)
		return UINT32_MAX;
	i = comm_at(m->comms, m->threads[t].root, time);
	if (i == NONE) {
		/* before its first: the first set at the earliest time */
		for (first = m->threads[t].root; m->comms[first].left != NONE;)
			first = m->comms[first].left;
		i = comm_at(m->comms, m->threads[t].root,
			    m->comms[first].time);
	}
	return m->comms[i].name;
}
