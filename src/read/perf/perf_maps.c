/*
 * The processes of a perf recording and their mappings over time (see
 * perf_maps.h).
 *
 * Records reach the file from per-CPU buffers, so file order is not
 * time order. perf report sorts them by time before it takes them in;
 * so do we, for MMAP and FORK: noted as read, sorted and taken in at
 * the first look-up. A mapping is not removed while its process lives:
 * an exec or an mmap over an old range adds one, and a look-up takes,
 * of the mappings holding the address, the newest at the sample's
 * time. In one pass, the mappings of processes that ended (EXIT) long
 * enough before the samples being read are dropped once they are many
 * (perf_maps_compact()).
 *
 * A look-up must cost the same whatever the mappings' lengths (one of
 * 2^63 bytes holds every address): a process's mappings are a treap by
 * start (a binary search tree kept balanced by random priorities the
 * file cannot choose), each node with the largest end in its subtree.
 * A subtree whose largest end is at or below addr holds nothing for
 * it, and the right subtree of a map starting above addr neither: the
 * search visits the mappings holding addr and the paths to them.
 *
 *    maps by start   [a---------)        max_end under b: a.end
 *                       [b--)            (b the root, a and c
 *                            [c-----)    its subtrees)
 *    addr                      ^         visits b; a (holds), c (holds)
 *
 * A FORK must cost the same whatever the parent holds (8,000 mappings
 * times 8,000 forks fit in a few KB of file): the child takes the
 * parent's tree as it is, its root, and both are given new stamps. A
 * node changes in place only for the process whose stamp it has; an
 * insert into a tree shared copies the nodes on its path (a treap's
 * depth, about 2 ln n) and changes the copies. So a mapping costs one
 * node, and one more per level of its path in a tree shared since the
 * last FORK out of it; a FORK costs an epoch.
 *
 * A FORK into a pid that had a process before starts a new epoch
 * there: samples before it still find the old process's mappings.
 */
#include "perf_maps.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"

#define NONE UINT32_MAX

void perf_maps_init(struct perf_maps *m)
{
	memset(m, 0, sizeof(*m));
	u64map_init(&m->by_pid);
	u64map_init(&m->comm_by_tid);
	u64map_init(&m->absent_by_pid);
	/* the comms' priorities from the run's secret (hashmap.c), never
	 * 0 (xorshift32's fixed point): with a fixed seed, a file that
	 * knew the priorities to come could give its records the order
	 * that makes a treap a chain (test_maps_chosen_order, when the
	 * mappings' treaps took theirs from here too) */
	m->rand = (uint32_t)(hash_secret ^ hash_secret >> 32) | 1;
	m->take_until = UINT64_MAX;
}

void perf_maps_release(struct perf_maps *m)
{
	for (size_t i = 0; i < m->nprocs; i++)
		free(m->procs[i].epochs);
	free(m->procs);
	free(m->maps);
	free(m->nodes);
	free(m->ops);
	free(m->queue);
	free(m->comms);
	free(m->threads);
	u64map_release(&m->by_pid);
	u64map_release(&m->comm_by_tid);
	u64map_release(&m->absent_by_pid);
	free(m->absent_times);
	memset(m, 0, sizeof(*m));
}

/* xorshift32 from a secret seed: priorities the file cannot choose */
static uint32_t next_rand(struct perf_maps *m)
{
	m->rand ^= m->rand << 13;
	m->rand ^= m->rand >> 17;
	m->rand ^= m->rand << 5;
	return m->rand;
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
		struct perf_proc *pr;

		ARRAY_GROW(m->procs, m->nprocs + 1, m->procs_alloc);
		pr = &m->procs[m->nprocs++];
		memset(pr, 0, sizeof(*pr));
		ARRAY_GROW(pr->epochs, 1, pr->epochs_alloc);
		pr->epochs[0] = (struct perf_epoch){ 0, NONE };
		pr->nepochs = 1;
		pr->stamp = ++m->nstamps;
		pr->gen = ++m->ngens;
		pr->changes_from = pr->gen;
		if (m->nabsent) {
			uint32_t a = u64map_get(&m->absent_by_pid, pid);

			if (a != U64MAP_NONE) {
				pr->sampled = true;
				pr->last_sample = m->absent_times[a];
			}
		}
	}
	return i;
}

/*
 * One pass (perf_maps_sample()): an op of proc pi at time t taken in
 * now, after those taken before. Taking every op first orders the ops
 * of a process by time (then file order, which taking in batches
 * keeps); and a look-up of a sample of it at or after t would have
 * seen it. changes: whether the op changes pi's answers (not a FORK
 * out of it).
 */
static void check_op(struct perf_maps *m, uint32_t pi, uint64_t t,
		     bool changes, const struct perf_change *what)
{
	struct perf_proc *pr = &m->procs[pi];

	if (t < pr->last_op || (changes && pr->sampled &&
				t <= pr->last_sample))
		m->disordered = true;
	if (t > pr->last_op)
		pr->last_op = t;
	if (changes) {
		struct perf_change *c =
			&pr->changes[pr->nchanges % PERF_PROC_CHANGES];

		pr->gen = ++m->ngens;
		/* the change it overwrites is no longer known */
		if (pr->nchanges >= PERF_PROC_CHANGES)
			pr->changes_from = c->gen;
		*c = *what;
		c->gen = pr->gen;
		pr->nchanges++;
	}
	/* the gens would come round again: a cache could answer from an
	 * old one */
	if (m->ngens == UINT32_MAX)
		m->disordered = true;
}

/* ops wait by time, then file order: a file whose ops all come after
 * its samples' times keeps them waiting, and a sort of all of them at
 * every look-up would be quadratic */
static bool op_before(const struct perf_maps_op *x, const struct perf_maps_op *y)
{
	if (x->time != y->time)
		return x->time < y->time;
	return x->order < y->order;
}

/*
 * An op into the heap: one that came out of time order. The others,
 * in order after the queue's last (the 1 GB bench recording's ops: all
 * but 288 of 102,461), are appended to the queue; the heap of them all
 * (157 ops waiting on average) took 420 instructions an op to pop.
 */
static void heap_push(struct perf_maps *m, const struct perf_maps_op *op)
{
	size_t i;

	ARRAY_GROW(m->ops, m->nops + 1, m->ops_alloc);
	i = m->nops++;
	m->ops[i] = *op;
	while (i > 0 && op_before(&m->ops[i], &m->ops[(i - 1) / 2])) {
		struct perf_maps_op t = m->ops[i];

		m->ops[i] = m->ops[(i - 1) / 2];
		m->ops[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void note_op(struct perf_maps *m, const struct perf_maps_op *op)
{
	struct perf_maps_op o = *op;

	/* file order: nnoted stays below 2^32, one op to a record of at
	 * least 8 bytes of a file's 2^32 records */
	o.order = m->nnoted++;
	if (m->queue_head < m->nqueue &&
	    op_before(&o, &m->queue[m->nqueue - 1])) {
		heap_push(m, &o);
		return;
	}
	if (m->queue_head == m->nqueue) {
		m->queue_head = m->nqueue = 0;
	} else if (m->queue_head > m->nqueue / 2 && m->queue_head >= 256) {
		/* the taken half dropped: the queue holds what waits */
		m->nqueue -= m->queue_head;
		memmove(m->queue, m->queue + m->queue_head,
			m->nqueue * sizeof(*m->queue));
		m->queue_head = 0;
	}
	ARRAY_GROW(m->queue, m->nqueue + 1, m->queue_alloc);
	m->queue[m->nqueue++] = o;
}

/* the heap's earliest op, out of it */
static struct perf_maps_op heap_pop(struct perf_maps *m)
{
	struct perf_maps_op top = m->ops[0];
	size_t i = 0;

	m->ops[0] = m->ops[--m->nops];
	for (;;) {
		size_t l = 2 * i + 1, least = i;

		if (l < m->nops && op_before(&m->ops[l], &m->ops[least]))
			least = l;
		if (l + 1 < m->nops && op_before(&m->ops[l + 1], &m->ops[least]))
			least = l + 1;
		if (least == i)
			break;
		struct perf_maps_op t = m->ops[i];
		m->ops[i] = m->ops[least];
		m->ops[least] = t;
		i = least;
	}
	return top;
}

/* The earliest op waiting, NULL: none. */
static const struct perf_maps_op *first_op(const struct perf_maps *m)
{
	const struct perf_maps_op *q = m->queue_head < m->nqueue
					       ? &m->queue[m->queue_head]
					       : NULL;

	if (m->nops && (!q || op_before(&m->ops[0], q)))
		return &m->ops[0];
	return q;
}

/* the earliest op waiting (there is one), out of the queue or heap */
static struct perf_maps_op pop_op(struct perf_maps *m)
{
	/* the heap asked first: it may not be there (ops NULL) */
	if (m->nops && first_op(m) == &m->ops[0])
		return heap_pop(m);
	return m->queue[m->queue_head++];
}

void perf_maps_add(struct perf_maps *m, uint32_t pid,
		   const struct perf_map *map)
{
	ARRAY_GROW(m->maps, m->nmaps + 1, m->maps_alloc);
	m->maps[m->nmaps] = *map;
	note_op(m, &(struct perf_maps_op){ .time = map->time, .pid = pid,
					   .parent = NONE,
					   .map = (uint32_t)m->nmaps });
	m->nmaps++;
}

void perf_maps_fork(struct perf_maps *m, uint32_t parent, uint32_t child,
		    uint64_t time)
{
	if (parent == child)
		return;
	note_op(m, &(struct perf_maps_op){ .time = time, .pid = child,
					   .parent = parent });
}

/*
 * A mapping's priority in the treaps: a hash of its place in the order
 * taken in (seq, not its index, which perf_maps_compact() changes)
 * under the run's secret (hash_u64()), which the file cannot choose
 * either. The
 * nodes held xorshift32 numbers: 4 bytes of each node's 32, which the
 * read's peak holds (the bench recording's 157,759 nodes, 5 MB), and
 * every MiB a run touches first costs 2.5 ms on the VM we measure on.
 * A copy of a node (own()) has its map's, as it had its number.
 */
static uint32_t map_prio(const struct perf_maps *m, uint32_t map)
{
	return (uint32_t)(hash_u64(m->maps[map].seq) >> 32);
}

static uint64_t subtree_end(const struct perf_maps *m, uint32_t i)
{
	return i == NONE ? 0 : m->nodes[i].max_end;
}

static void fix_end(struct perf_maps *m, uint32_t i)
{
	struct perf_mnode *n = &m->nodes[i];
	uint64_t end = m->maps[n->map].end, sub;

	sub = subtree_end(m, n->left);
	if (sub > end)
		end = sub;
	sub = subtree_end(m, n->right);
	if (sub > end)
		end = sub;
	n->max_end = end;
}

/* Node i, or a copy of it that stamp owns (nodes[] may move). */
static uint32_t own(struct perf_maps *m, uint32_t i, uint32_t stamp)
{
	if (m->nodes[i].stamp == stamp)
		return i;
	ARRAY_GROW(m->nodes, m->nnodes + 1, m->nodes_alloc);
	m->nodes[m->nnodes] = m->nodes[i];
	m->nodes[m->nnodes].stamp = stamp;
	return (uint32_t)m->nnodes++;
}

/* by start, then the order taken in: every key distinct */
static bool before(const struct perf_map *a, const struct perf_map *b)
{
	return a->start != b->start ? a->start < b->start : a->seq < b->seq;
}

/* Node nn into the treap at root, changing only nodes stamp owns
 * (copying the others); the new root. */
static uint32_t insert(struct perf_maps *m, uint32_t root, uint32_t nn,
		       uint32_t stamp)
{
	uint32_t sub, top;
	bool left;

	if (root == NONE)
		return nn;
	root = own(m, root, stamp);
	left = before(&m->maps[m->nodes[nn].map],
		      &m->maps[m->nodes[root].map]);
	sub = insert(m, left ? m->nodes[root].left : m->nodes[root].right, nn,
		     stamp);
	if (left)
		m->nodes[root].left = sub;
	else
		m->nodes[root].right = sub;
	/*
	 * sub is nn, or root's child as it was (or its copy): only nn can
	 * be out of heap order there, and the priorities are computed
	 * for it alone (once it stops, the levels above keep theirs)
	 */
	if (sub != nn ||
	    map_prio(m, m->nodes[nn].map) <= map_prio(m, m->nodes[root].map)) {
		/* root's subtree is what it was and nn (rotations below
		 * only rearrange it): its largest end without reading its
		 * children's (fix_end()'s three loads a level were a fifth
		 * of the 1 GB bench recording's 100,000 inserts) */
		uint64_t end = m->maps[m->nodes[nn].map].end;

		if (m->nodes[root].max_end < end)
			m->nodes[root].max_end = end;
		return root;
	}
	/* rotate sub up: both are stamp's (sub came back from insert) */
	top = sub;
	if (left) {
		m->nodes[root].left = m->nodes[top].right;
		m->nodes[top].right = root;
	} else {
		m->nodes[root].right = m->nodes[top].left;
		m->nodes[top].left = root;
	}
	fix_end(m, root);
	fix_end(m, top);
	return top;
}

static struct perf_epoch *newest(struct perf_proc *pr)
{
	return &pr->epochs[pr->nepochs - 1];
}

_Static_assert(sizeof(struct perf_map) == 40, "a mapping in 40 bytes");

static void take_map(struct perf_maps *m, const struct perf_maps_op *op,
		     uint32_t seq)
{
	uint32_t pi = proc_index(m, op->pid, true), nn;
	struct perf_map *map = &m->maps[op->map];

	/* 2^31 mappings would be 80 GiB: the memory runs out first */
	if (seq >= (uint32_t)1 << 31)
		BUG("perf mapping %u taken: more than 2^31", seq);
	map->seq = seq;
	check_op(m, pi, op->time, true,
		 &(struct perf_change){ map->start, map->end, 0, false });
	/* mapping after its EXIT: it lives on (a thread other than the
	 * first exec'd, which ends the first) */
	if (m->procs[pi].exited) {
		m->procs[pi].exited = false;
		m->nexited--;
	}
	ARRAY_GROW(m->nodes, m->nnodes + 1, m->nodes_alloc);
	nn = (uint32_t)m->nnodes++;
	m->nodes[nn] = (struct perf_mnode){ map->end, op->map, NONE, NONE,
					    m->procs[pi].stamp };
	newest(&m->procs[pi])->root =
		insert(m, newest(&m->procs[pi])->root, nn, m->procs[pi].stamp);
}

static void take_fork(struct perf_maps *m, const struct perf_maps_op *op)
{
	uint32_t pi = proc_index(m, op->parent, true);
	uint32_t ci = proc_index(m, op->pid, true);	/* may move procs[] */
	uint32_t root = newest(&m->procs[pi])->root;
	struct perf_proc *to = &m->procs[ci];

	/* the child takes the parent's tree as it is now: an op of the
	 * parent's from before the FORK taken after it would be missed */
	check_op(m, pi, op->time, false, NULL);
	check_op(m, ci, op->time, true,
		 &(struct perf_change){ 0, 0, 0, true });
	/* a new process in the pid of one that ended */
	if (to->exited) {
		to->exited = false;
		m->nexited--;
	}
	/* and whose mappings were dropped: from now on it is this one */
	if (to->gone_before)
		to->gone_before = op->time;
	/* a first tree for a process whose samples found nothing: they
	 * would have found it (the first epoch is from time 0) */
	if (newest(to)->root == NONE && to->sampled)
		m->disordered = true;
	if (root != NONE) {
		/* the tree is shared: neither may change it in place */
		m->procs[pi].stamp = ++m->nstamps;
		to->stamp = ++m->nstamps;
	}
	if (newest(to)->root == NONE) {
		/* it held nothing: the epoch can start earlier */
		newest(to)->root = root;
		return;
	}
	ARRAY_GROW(to->epochs, to->nepochs + 1, to->epochs_alloc);
	/* epochs by time, whatever was noted after a look-up */
	to->epochs[to->nepochs] = (struct perf_epoch){
		op->time > newest(to)->time ? op->time : newest(to)->time,
		root };
	to->nepochs++;
}

void perf_maps_exit(struct perf_maps *m, uint32_t pid, uint64_t time)
{
	note_op(m, &(struct perf_maps_op){ .time = time, .pid = pid,
					   .parent = pid });
}

/* An EXIT: the process may go once no sample of it can come. It
 * changes no answer (a sample before it still finds what it found). */
static void take_exit(struct perf_maps *m, const struct perf_maps_op *op)
{
	uint32_t pi = proc_index(m, op->pid, false);
	struct perf_proc *pr;

	if (pi == NONE)
		return;
	pr = &m->procs[pi];
	if (!pr->exited && !m->nexited++)
		m->first_exit = op->time;
	else if (op->time < m->first_exit)
		m->first_exit = op->time;
	pr->exited = true;
	pr->exit_time = op->time;
}

/*
 * Take in what was noted, in time order (see perf_maps.h for what is
 * noted after a look-up), up to take_until: in one pass, an op later
 * than every sample looked up waits. Records come from per-CPU buffers,
 * so a process's ops come out of time order in the file (a child's
 * exec mmaps from one CPU's buffer before its FORK from another's);
 * taken in as they were noted, a FORK into a child whose later mmaps
 * were taken already set m->disordered, and GCC's build recorded at
 * -F 4999 was read three times (the one pass given up at a fifth of
 * its CPU, then two passes). Waiting for the samples' time takes them
 * in time order wherever perf's rounds hold (nothing comes older than
 * the samples they let through). With nothing to take in, nothing is
 * written: the second unwinder's look-ups call this too.
 */
static void take_noted(struct perf_maps *m)
{
	const struct perf_maps_op *first;

	while ((first = first_op(m)) && first->time <= m->take_until) {
		struct perf_maps_op op = pop_op(m);

		if (op.parent == NONE)
			take_map(m, &op, m->ntaken++);
		else if (op.parent == op.pid)
			take_exit(m, &op);
		else
			take_fork(m, &op);
	}
}

uint32_t perf_maps_sample(struct perf_maps *m, uint32_t pid, uint64_t time)
{
	struct perf_proc *pr;
	uint32_t pi;

	if (m->take_until == UINT64_MAX || time > m->take_until)
		m->take_until = time;
	take_noted(m);
	pi = proc_index(m, pid, false);
	if (pi == NONE) {
		/* nothing found, gen 0: a proc made later has another */
		bool added = false;
		uint32_t a = u64map_get_or_put(&m->absent_by_pid, pid,
					       (uint32_t)m->nabsent, &added);

		if (added) {
			ARRAY_GROW(m->absent_times, m->nabsent + 1,
				   m->absent_alloc);
			m->absent_times[m->nabsent++] = time;
		} else if (time > m->absent_times[a]) {
			m->absent_times[a] = time;
		}
		return 0;
	}
	pr = &m->procs[pi];
	/* its mappings were dropped: it would have found them */
	if (pr->gone_before && time < pr->gone_before)
		m->disordered = true;
	if (!pr->sampled || time > pr->last_sample)
		pr->last_sample = time;
	pr->sampled = true;
	return pr->gen;
}

bool perf_maps_same(const struct perf_maps *m, uint32_t pid, uint32_t gen,
		    uint64_t addr)
{
	return addr < UINT64_MAX &&
	       perf_maps_same_run(m, pid, gen, addr, addr + 1);
}

bool perf_maps_same_run(const struct perf_maps *m, uint32_t pid,
			uint32_t gen, uint64_t lo, uint64_t hi)
{
	uint32_t pi = u64map_get(&m->by_pid, pid), n;
	const struct perf_proc *pr;

	if (pi == U64MAP_NONE)
		return false;
	pr = &m->procs[pi];
	if (gen < pr->changes_from || gen > pr->gen)
		return false;
	n = pr->nchanges < PERF_PROC_CHANGES ? pr->nchanges
					     : PERF_PROC_CHANGES;
	for (uint32_t i = 0; i < n; i++) {
		const struct perf_change *c = &pr->changes[i];

		if (c->gen > gen &&
		    (c->all || (c->start < hi && lo < c->end)))
			return false;
	}
	return true;
}

void perf_maps_settle(struct perf_maps *m)
{
	m->take_until = UINT64_MAX;
	take_noted(m);
}

/* --- dropping the mappings of the processes that ended --- */

/* Not compacted before the mappings are this many (nor twice those
 * kept by the last compaction): a small recording never is. */
#define COMPACT_MIN 65536

struct compact {
	struct perf_maps *m;
	uint32_t *map_to, *node_to;	/* old index -> new; NONE: none yet */
	struct perf_map *maps;
	size_t nmaps, maps_alloc;
	struct perf_mnode *nodes;
	size_t nnodes, nodes_alloc;
};

static uint32_t keep_map(struct compact *c, uint32_t i)
{
	if (c->map_to[i] == NONE) {
		ARRAY_GROW(c->maps, c->nmaps + 1, c->maps_alloc);
		c->maps[c->nmaps] = c->m->maps[i];
		c->map_to[i] = (uint32_t)c->nmaps++;
	}
	return c->map_to[i];
}

/* The subtree at i, in the new arrays: once, however many trees share
 * it, so that they still do. The depth is the treap's. */
static uint32_t keep_tree(struct compact *c, uint32_t i)
{
	uint32_t j, left, right;

	if (i == NONE || c->node_to[i] != NONE)
		return i == NONE ? NONE : c->node_to[i];
	left = keep_tree(c, c->m->nodes[i].left);
	right = keep_tree(c, c->m->nodes[i].right);
	ARRAY_GROW(c->nodes, c->nnodes + 1, c->nodes_alloc);
	j = (uint32_t)c->nnodes++;
	c->nodes[j] = c->m->nodes[i];
	c->nodes[j].map = keep_map(c, c->m->nodes[i].map);
	c->nodes[j].left = left;
	c->nodes[j].right = right;
	c->node_to[i] = j;
	return j;
}

static bool gone(const struct perf_proc *pr, uint64_t until)
{
	return pr->exited && until >= PERF_MAPS_GONE_NS &&
	       pr->exit_time <= until - PERF_MAPS_GONE_NS;
}

bool perf_maps_compact(struct perf_maps *m)
{
	uint64_t until = m->take_until;
	struct compact c = { .m = m };
	size_t ngone = 0;

	if (!m->nexited || until == UINT64_MAX || m->disordered ||
	    m->nmaps < COMPACT_MIN || m->nmaps < 2 * m->maps_kept ||
	    until < PERF_MAPS_GONE_NS ||
	    m->first_exit > until - PERF_MAPS_GONE_NS)
		return false;
	/* those going now, and the earliest EXIT of those left */
	m->first_exit = UINT64_MAX;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct perf_proc *pr = &m->procs[i];

		if (gone(pr, until))
			ngone++;
		else if (pr->exited && pr->exit_time < m->first_exit)
			m->first_exit = pr->exit_time;
	}
	if (!ngone)
		return false;
	c.map_to = xmalloc((m->nmaps + 1) * sizeof(*c.map_to));
	c.node_to = xmalloc((m->nnodes + 1) * sizeof(*c.node_to));
	memset(c.map_to, 0xff, (m->nmaps + 1) * sizeof(*c.map_to));
	memset(c.node_to, 0xff, (m->nnodes + 1) * sizeof(*c.node_to));
	/* the mappings waiting to be taken in, whoever's */
	for (size_t i = 0; i < m->nops; i++)
		if (m->ops[i].parent == NONE)
			m->ops[i].map = keep_map(&c, m->ops[i].map);
	for (size_t i = m->queue_head; i < m->nqueue; i++)
		if (m->queue[i].parent == NONE)
			m->queue[i].map = keep_map(&c, m->queue[i].map);
	for (size_t i = 0; i < m->nprocs; i++) {
		struct perf_proc *pr = &m->procs[i];

		if (gone(pr, until)) {
			/* one epoch of nothing: a look-up that would have
			 * found its mappings says so (perf_maps_sample()),
			 * and a FORK into its pid starts afresh */
			pr->epochs[0] = (struct perf_epoch){ 0, NONE };
			pr->nepochs = 1;
			pr->exited = false;
			pr->gone_before = UINT64_MAX;
			pr->sampled = false;
			m->nexited--;
		} else {
			for (size_t e = 0; e < pr->nepochs; e++)
				pr->epochs[e].root =
					keep_tree(&c, pr->epochs[e].root);
		}
		/* every cached answer asks again: indexes have moved. The
		 * ring of changes starts empty, or a change from before,
		 * dropped from it later, would move changes_from back */
		pr->gen = ++m->ngens;
		pr->changes_from = pr->gen;
		pr->nchanges = 0;
	}
	if (m->ngens == UINT32_MAX)
		m->disordered = true;
	free(m->maps);
	free(m->nodes);
	m->maps = c.maps;
	m->nmaps = c.nmaps;
	m->maps_alloc = c.maps_alloc;
	m->nodes = c.nodes;
	m->nnodes = c.nnodes;
	m->nodes_alloc = c.nodes_alloc;
	m->maps_kept = m->nmaps;
	free(c.map_to);
	free(c.node_to);
	return true;
}

/* a mapping at least as new: a later time, or the same and taken
 * later */
static bool newer(const struct perf_map *a, const struct perf_map *b)
{
	return a->time != b->time ? a->time > b->time : a->seq > b->seq;
}

struct query {
	uint64_t addr, time;
	const struct perf_map *best;
	uint64_t later;		/* the earliest time past q.time of a
				 * mapping holding addr; UINT64_MAX: none */
};

/* The newest mapping of the subtree at i holding q->addr at q->time
 * into q->best (see the top of the file). The depth is the treap's. */
static void search(const struct perf_maps *m, uint32_t i, struct query *q)
{
	while (i != NONE) {
		const struct perf_mnode *n = &m->nodes[i];
		const struct perf_map *map = &m->maps[n->map];

		if (n->max_end <= q->addr)
			return;
		if (map->start > q->addr) {
			i = n->left;	/* the right ones start later */
			continue;
		}
		if (q->addr < map->end) {
			if (map->time > q->time) {
				if (map->time < q->later)
					q->later = map->time;
			} else if (!q->best || newer(map, q->best)) {
				q->best = map;
			}
		}
		search(m, n->left, q);
		i = n->right;
	}
}

/* Whether no mapping of the subtree at i but `map` overlaps [s, e).
 * The search visits those that do and the paths to them. */
static bool alone(const struct perf_maps *m, uint32_t i, uint64_t s,
		  uint64_t e, const struct perf_map *map)
{
	while (i != NONE) {
		const struct perf_mnode *n = &m->nodes[i];
		const struct perf_map *o = &m->maps[n->map];

		if (n->max_end <= s)
			return true;
		if (o->start >= e) {
			i = n->left;	/* the right ones start later */
			continue;
		}
		if (o != map && s < o->end && o->start < o->end)
			return false;
		if (!alone(m, n->left, s, e, map))
			return false;
		i = n->right;
	}
	return true;
}

/* perf_maps_find_run(), or perf_maps_find_span() with run_lo NULL */
static const struct perf_map *find(struct perf_maps *m, uint32_t pid,
				   uint64_t addr, uint64_t time,
				   uint64_t *from, uint64_t *until,
				   uint64_t *run_lo, uint64_t *run_hi)
{
	struct query q = { addr, time, NULL, UINT64_MAX };
	const struct perf_proc *pr;
	uint32_t pi;
	size_t lo = 0, hi;

	take_noted(m);
	*from = 0;
	*until = UINT64_MAX;
	if (run_lo) {
		*run_lo = addr;
		*run_hi = addr + 1;	/* addr's alone (0: none at all) */
	}
	pi = proc_index(m, pid, false);
	if (pi == NONE)
		return NULL;	/* no record will come to change that */
	pr = &m->procs[pi];
	/* the last epoch begun at or before time (the first begins at 0) */
	hi = pr->nepochs;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (pr->epochs[mid].time <= time)
			lo = mid;
		else
			hi = mid;
	}
	search(m, pr->epochs[lo].root, &q);
	/* the same answer from the best's time (or the epoch's start)
	 * until a newer mapping holding addr, or the next epoch */
	*from = pr->epochs[lo].time;
	if (q.best && q.best->time > *from)
		*from = q.best->time;
	*until = q.later;
	if (lo + 1 < pr->nepochs && pr->epochs[lo + 1].time < *until)
		*until = pr->epochs[lo + 1].time;
	/* alone in its range: every address of it has the best alone
	 * among those holding it, so the same span (no later one holds
	 * any: q.later is none) */
	if (run_lo && q.best && q.later == UINT64_MAX &&
	    q.best->start < q.best->end &&
	    alone(m, pr->epochs[lo].root, q.best->start, q.best->end,
		  q.best)) {
		*run_lo = q.best->start;
		*run_hi = q.best->end;
	}
	return q.best;
}

const struct perf_map *perf_maps_find_span(struct perf_maps *m, uint32_t pid,
					   uint64_t addr, uint64_t time,
					   uint64_t *from, uint64_t *until)
{
	return find(m, pid, addr, time, from, until, NULL, NULL);
}

const struct perf_map *perf_maps_find_run(struct perf_maps *m, uint32_t pid,
					  uint64_t addr, uint64_t time,
					  uint64_t *from, uint64_t *until,
					  uint64_t *lo, uint64_t *hi)
{
	return find(m, pid, addr, time, from, until, lo, hi);
}

const struct perf_map *perf_maps_find(struct perf_maps *m, uint32_t pid,
				      uint64_t addr, uint64_t time)
{
	uint64_t from, until;

	return perf_maps_find_span(m, pid, addr, time, &from, &until);
}

/* --- command names: a treap per thread, by time, then by seq (so
 * that the largest key at or below a time is the last set of those at
 * the latest time, as perf, which reads records of one time in file
 * order, has it: perf record -a writes each running process's FORK,
 * which names it as its parent, and then its COMM, both at time 0) --- */

static bool comm_before(const struct perf_comm *a, const struct perf_comm *b)
{
	return a->time != b->time ? a->time < b->time : a->seq < b->seq;
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
	c = &m->comms[m->ncomms];
	*c = (struct perf_comm){ time, name, m->threads[t].n++, NONE, NONE,
				 next_rand(m) };
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
		/* before its first: the last set at the earliest time */
		for (first = m->threads[t].root; m->comms[first].left != NONE;)
			first = m->comms[first].left;
		i = comm_at(m->comms, m->threads[t].root,
			    m->comms[first].time);
	}
	return m->comms[i].name;
}
