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
	uint32_t seq;		/* its place in its process's entries, in
				 * file order (set by perf_maps_add) */
	uint32_t id;		/* the record's, kept by copies (set by
				 * perf_maps_add) */
	bool file_offsets;	/* offsets are file offsets (pgoff counts);
				 * else from the mapping's start */
};

/*
 * A child's mappings inherited at a FORK, not copied: those of process
 * procs[parent] among its first n entries (in file order) whose time is
 * at most time, in the child's order as its entry pos. A process gets
 * one link at most, at its first FORK (see perf_maps.c).
 */
struct perf_link {
	uint32_t parent;	/* into procs[] */
	uint32_t n;
	uint64_t time;
	uint32_t pos;
};

struct perf_proc {
	struct perf_map *maps;	/* its own, in the order recorded; by
				 * start once looked up (sorted) */
	size_t nmaps, maps_alloc;
	uint64_t *max_end;	/* sorted: the largest end of the subtree
				 * under each map (see perf_maps.c) */
	uint32_t nentries;	/* own mappings, and the link if any */
	bool has_link, sorted;
	struct perf_link link;
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
	struct perf_comm *comms;
	size_t ncomms, comms_alloc;
	struct perf_comms *threads;
	size_t nthreads, threads_alloc;
	struct u64map comm_by_tid;	/* tid -> threads[] */
	uint32_t nadded;	/* mappings added: the next id */
	uint32_t rand;		/* the comms' priorities */
};

void perf_maps_init(struct perf_maps *m);
void perf_maps_release(struct perf_maps *m);

/* A mapping of process pid (copied). */
void perf_maps_add(struct perf_maps *m, uint32_t pid,
		   const struct perf_map *map);

/*
 * Process child forked from parent at time: it starts with what parent
 * had mapped then (its mappings so far in file order, of a time at most
 * time). The child shares them with its parent (a link, through
 * parents without mappings of their own to the one that has them); one
 * forked into before, or that holds one of them already, gets a copy of
 * those it does not hold yet (see perf_maps.c).
 */
void perf_maps_fork(struct perf_maps *m, uint32_t parent, uint32_t child,
		    uint64_t time);

/*
 * The mapping of process pid holding addr at time: of those holding it,
 * the one mapped last at or before time (a later one maps over it;
 * between equal times the later in the file, and a process's own over
 * an inherited one). NULL when none does. The first look-up after
 * mappings were added sorts the process's mappings by start; a look-up
 * visits the mappings that hold addr and a binary search's worth of
 * others, in the process and each it inherits from. The result lives
 * until the next perf_maps_add() or perf_maps_fork().
 */
const struct perf_map *perf_maps_find(struct perf_maps *m, uint32_t pid,
				      uint64_t addr, uint64_t time);

/* Thread tid is called name (a name_id) from time on. */
void perf_maps_set_comm(struct perf_maps *m, uint32_t tid, uint64_t time,
			uint32_t name);

/* Thread tid's name at time (the newest set at or before it, else its
 * first; between equal times the first set), or UINT32_MAX when it was
 * never named. O(log of the thread's names). */
uint32_t perf_maps_comm(const struct perf_maps *m, uint32_t tid,
			uint64_t time);

#endif
