/*
 * The processes of a perf recording and what each had mapped when: the
 * MMAP/MMAP2 records, copied to a child at FORK, so that a sampled
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
	uint32_t seq;		/* its process's n-th, in file order */
	bool file_offsets;	/* offsets are file offsets (pgoff counts);
				 * else from the mapping's start */
};

struct perf_proc {
	struct perf_map *maps;	/* in the order recorded; by start once
				 * looked up (sorted) */
	size_t nmaps, maps_alloc;
	uint64_t *max_end;	/* sorted: the largest end of maps[0..i] */
	bool sorted;
};

/* A thread's command name from a time on (COMM, or its parent's at
 * FORK). */
struct perf_comm {
	uint64_t time;
	uint32_t name;		/* a name_id */
	uint32_t prev;		/* the thread's entry before, or UINT32_MAX */
};

struct perf_maps {
	struct perf_proc *procs;
	size_t nprocs, procs_alloc;
	struct u64map by_pid;	/* pid -> procs[] */
	struct perf_comm *comms;
	size_t ncomms, comms_alloc;
	struct u64map comm_by_tid;	/* tid -> its last comms[] entry */
};

void perf_maps_init(struct perf_maps *m);
void perf_maps_release(struct perf_maps *m);

/* A mapping of process pid (copied). */
void perf_maps_add(struct perf_maps *m, uint32_t pid,
		   const struct perf_map *map);

/* Process child forked from parent at time: it starts with what parent
 * had mapped then. */
void perf_maps_fork(struct perf_maps *m, uint32_t parent, uint32_t child,
		    uint64_t time);

/*
 * The mapping of process pid holding addr at time: of those holding it,
 * the one mapped last at or before time (a later one maps over it).
 * NULL when none does. The first look-up after mappings were added
 * sorts the process's mappings by start (a binary search then finds
 * the candidates); the result lives until the next perf_maps_add().
 */
const struct perf_map *perf_maps_find(struct perf_maps *m, uint32_t pid,
				      uint64_t addr, uint64_t time);

/* Thread tid is called name (a name_id) from time on. */
void perf_maps_set_comm(struct perf_maps *m, uint32_t tid, uint64_t time,
			uint32_t name);

/* Thread tid's name at time (the newest set at or before it, else its
 * first), or UINT32_MAX when it was never named. */
uint32_t perf_maps_comm(const struct perf_maps *m, uint32_t tid,
			uint64_t time);

#endif
