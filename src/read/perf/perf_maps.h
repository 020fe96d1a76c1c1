/*
 * The processes of a perf recording and what each had mapped when: the
 * MMAP/MMAP2 records, inherited by a child at FORK, so that a sampled
 * address can be taken to an object and an offset in its file as the
 * process saw it at the sample's time.
 */
#ifndef CGA_PERF_MAPS_H
#define CGA_PERF_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"

struct perf_map {
	uint64_t start, end;	/* [start, end) in the process */
	uint64_t pgoff;		/* file offset mapped at start */
	uint64_t time;		/* when it was mapped (0: before the
				 * recording, or no times recorded) */
	uint32_t object;	/* perf_data object */
	/* its place in the order records are taken in (by time, then
	 * file order; set by perf_maps.c): below 2^31, the mappings of a
	 * file of PERF_MAX_BYTES (2 GiB) of records of 41 bytes or more */
	uint32_t seq : 31;
	/* a bool: offsets are file offsets (pgoff counts), else from the
	 * mapping's start. Beside seq, a mapping is 40 bytes, not 48
	 * (the bench recording's 100,174: 4.8 MB at the read's peak) */
	uint32_t file_offsets : 1;
};

/* A node of a process's tree of mappings (see perf_maps.c); its
 * priority in the treap's heap order is its map's (map_prio()). */
struct perf_mnode {
	uint64_t max_end;	/* the largest end in its subtree */
	uint32_t map;		/* into perf_maps.maps[] */
	uint32_t left, right;	/* UINT32_MAX: none */
	uint32_t stamp;		/* the owner that may change it in place */
};

/* An op that changed a process's answers (perf_proc's gen): those for
 * the addresses [start, end), or (all) every address. */
struct perf_change {
	uint64_t start, end;
	uint32_t gen;		/* the gen it gave the process */
	bool all;		/* a FORK into it */
};

/* The last changes kept of a process (perf_maps_same()). */
#define PERF_PROC_CHANGES 4

/* What a process had mapped from a time on: from a FORK into its pid
 * (a new process there) to the next; the first from the start. */
struct perf_epoch {
	uint64_t time;
	uint32_t root;		/* into nodes[]; UINT32_MAX: none */
};

struct perf_proc {
	struct perf_epoch *epochs;	/* by time */
	size_t nepochs, epochs_alloc;
	uint32_t stamp;		/* its newest epoch's nodes of this stamp
				 * are its own, to change in place */
	uint32_t gen;		/* changes when its answers may (a
				 * mapping or FORK into it taken in) */
	/* its last changes, a ring (nchanges of them made), and the gen
	 * from which on it holds every change: the process's first gen,
	 * or the last one's dropped from the ring */
	struct perf_change changes[PERF_PROC_CHANGES];
	uint32_t nchanges, changes_from;
	/* one pass (perf_maps_sample()): the latest time of the ops
	 * taken on it (into it, or a FORK out of it), and of its samples
	 * looked up (sampled: any) */
	uint64_t last_op, last_sample;
	bool sampled;
	/* one pass: its EXIT taken in (exited, at exit_time); and, once
	 * perf_maps_compact() dropped its mappings, the time before which
	 * a look-up of it would have found them (UINT64_MAX: any time; a
	 * FORK into its pid after makes it that FORK's) */
	bool exited;
	uint64_t exit_time, gone_before;
};

/* A MMAP, FORK or EXIT waiting to be taken in time order. */
struct perf_maps_op {
	uint64_t time;
	uint32_t order;		/* file order */
	uint32_t pid;
	uint32_t parent;	/* a FORK's; UINT32_MAX: a mapping; pid
				 * itself: an EXIT (no FORK is noted into
				 * its own parent) */
	uint32_t map;		/* a mapping's, into maps[] */
};

/* A thread's command name from a time on (COMM, or its parent's at
 * FORK), a node of the thread's tree of them by (time, seq). */
struct perf_comm {
	uint64_t time;
	uint32_t name;		/* a name_id */
	uint32_t seq;		/* the thread's n-th, in file order */
	uint32_t left, right;	/* UINT32_MAX: none */
	uint32_t prio;		/* a heap order that keeps it balanced */
};

struct perf_comms {		/* one thread's */
	uint32_t root, n;
};

struct perf_maps {
	struct perf_proc *procs;
	size_t nprocs, procs_alloc;
	struct u64map by_pid;	/* pid -> procs[] */
	struct perf_map *maps;	/* every mapping, once */
	size_t nmaps, maps_alloc;
	struct perf_mnode *nodes;
	size_t nnodes, nodes_alloc;
	/* not yet taken in: those noted in time order in a queue
	 * (queue[queue_head .. nqueue)), the others in a heap by time */
	struct perf_maps_op *ops;	/* the heap */
	size_t nops, ops_alloc;
	struct perf_maps_op *queue;
	size_t queue_head, nqueue, queue_alloc;
	uint32_t nnoted;	/* ops noted: the next one's file order */
	/* one pass: ops are taken in up to the latest sample time looked
	 * up (perf_maps_sample()); UINT64_MAX: all of them */
	uint64_t take_until;
	uint32_t nstamps;	/* stamps handed out */
	uint32_t ntaken;	/* mappings taken in: the next seq */
	struct perf_comm *comms;
	size_t ncomms, comms_alloc;
	struct perf_comms *threads;
	size_t nthreads, threads_alloc;
	struct u64map comm_by_tid;	/* tid -> threads[] */
	uint32_t rand;		/* the priorities of the comms' trees */
	uint32_t ngens;		/* procs' gens handed out */
	/* one pass: the latest sample time of each process sampled before
	 * it had a mapping or FORK (a proc is made at its first: a sample
	 * costs 8 bytes here, not a proc's hundreds) */
	struct u64map absent_by_pid;	/* pid -> absent_times[] */
	uint64_t *absent_times;
	size_t nabsent, absent_alloc;
	/* one pass: processes whose EXIT was taken in and whose
	 * mappings are still kept, and the mappings kept after the last
	 * perf_maps_compact() */
	uint32_t nexited;
	uint64_t first_exit;	/* the earliest of their EXITs, or before */
	size_t maps_kept;
	/* one pass: an op was taken in that a look-up already made, or
	 * the order ops were taken in, would have seen otherwise than
	 * if every op had been taken before the first look-up */
	bool disordered;
};

void perf_maps_init(struct perf_maps *m);
void perf_maps_release(struct perf_maps *m);

/*
 * MMAP and FORK records are taken in time order, as perf report takes
 * them (it sorts the records by time first), and between equal times in
 * file order: perf_maps_add() and perf_maps_fork() note them, the first
 * perf_maps_find() after them sorts and takes them. One noted after a
 * look-up is taken at its own time if that is not before those taken
 * already, else at theirs.
 */

/* A mapping of process pid (copied) from map->time on. */
void perf_maps_add(struct perf_maps *m, uint32_t pid,
		   const struct perf_map *map);

/*
 * Process child forked from parent at time: from then on it holds what
 * parent held, and nothing of a process that had its pid before (as
 * perf's machine__process_fork_event() removes the thread of that id
 * and clones the parent's maps). Shared, not copied: either changes its
 * tree by copying the nodes on the path it changes (see perf_maps.c).
 */
void perf_maps_fork(struct perf_maps *m, uint32_t parent, uint32_t child,
		    uint64_t time);

/*
 * The mapping of process pid holding addr at time: of those it held
 * then (from the FORK into its pid before time, else its first), the
 * newest mapped at or before time (between equal times the later
 * taken). NULL when none does. A look-up visits the mappings that hold
 * addr and a binary search's worth of others. The result lives until
 * the next perf_maps_add(), perf_maps_fork() or perf_maps_compact().
 */
const struct perf_map *perf_maps_find(struct perf_maps *m, uint32_t pid,
				      uint64_t addr, uint64_t time);

/* The same, and the times [*from, *until) for which the answer is the
 * same (for a cache of look-ups: a sample's frames are mostly the last
 * one's). */
const struct perf_map *perf_maps_find_span(struct perf_maps *m, uint32_t pid,
					   uint64_t addr, uint64_t time,
					   uint64_t *from, uint64_t *until);

/*
 * Read in one pass (samples looked up as they come, the mappings known
 * so far): call this before each sample's look-ups, of process pid at
 * time. It takes in what was noted; if an op then taken could change
 * an answer given before (a mapping or FORK of pid's at or before a
 * sample of it looked up already), or comes in an order between ops of
 * one process that taking all first would not have, m->disordered is
 * set and stays: the answers are no longer those of two passes. Else
 * every look-up since the last call gives what it would with every
 * record taken in first. Returns pid's gen, which changes whenever an
 * answer for pid may: a cache of look-ups keyed by it stays right.
 */
uint32_t perf_maps_sample(struct perf_maps *m, uint32_t pid, uint64_t time);

/*
 * Whether an answer of process pid for addr found at its gen `gen` (or
 * later) is still its answer, the same mapping for the same times,
 * where the process's gen is now later: no mapping holding addr, and
 * no FORK into it, was taken in since gen. False when not known (more
 * changes since than are kept). In one pass, the caches of look-ups
 * keyed by a gen keep their answers across the changes elsewhere in
 * the process (a compiler's heap mmaps, about a third of their misses
 * on the bench recording).
 */
bool perf_maps_same(const struct perf_maps *m, uint32_t pid, uint32_t gen,
		    uint64_t addr);

/* The same for every address of [lo, hi). */
bool perf_maps_same_run(const struct perf_maps *m, uint32_t pid,
			uint32_t gen, uint64_t lo, uint64_t hi);

/*
 * perf_maps_find_span(), and [*lo, *hi), the addresses around addr of
 * which the same holds (the same mapping for the same times): the
 * mapping's own when no other of the process's at that time overlaps
 * it, else addr's alone. For a cache of look-ups of a sample's frames,
 * most of them in one object's code.
 */
const struct perf_map *perf_maps_find_run(struct perf_maps *m, uint32_t pid,
					  uint64_t addr, uint64_t time,
					  uint64_t *from, uint64_t *until,
					  uint64_t *lo, uint64_t *hi);

/* One pass, at the end: takes in what is left, for the last check of
 * m->disordered. */
void perf_maps_settle(struct perf_maps *m);

/*
 * Process pid ended at time (an EXIT of its first thread): noted, and
 * taken in time order as the mappings and FORKs are. One pass only.
 */
void perf_maps_exit(struct perf_maps *m, uint32_t pid, uint64_t time);

/*
 * One pass, where nothing found by a look-up is held (no mapping, no
 * index of one): once the mappings have doubled since the last time,
 * the mappings of the processes that ended PERF_MAPS_GONE_NS or more
 * before the latest sample looked up are dropped, and the others'
 * moved into arrays of their own (a process's mappings stay for the
 * whole read otherwise: 4.8 KB a process in a build's recording). The
 * processes kept get new gens, so the caches keyed by gen ask again. A
 * look-up of a dropped process at a time it would have found them
 * sets m->disordered: the file is then read in two passes. Whether it
 * dropped any.
 */
bool perf_maps_compact(struct perf_maps *m);

/* How long after its EXIT a process's samples may still come: perf's
 * rounds hold the records of a few milliseconds, and a process's
 * other threads end within that of its first (exit_group()). */
#define PERF_MAPS_GONE_NS 1000000000ull

/* Thread tid is called name (a name_id) from time on. */
void perf_maps_set_comm(struct perf_maps *m, uint32_t tid, uint64_t time,
			uint32_t name);

/* Thread tid's name at time (the newest set at or before it, else its
 * earliest; between equal times the last set, as perf reads them), or
 * UINT32_MAX when it was never named. O(log of the thread's names). */
uint32_t perf_maps_comm(const struct perf_maps *m, uint32_t tid,
			uint64_t time);

#endif
