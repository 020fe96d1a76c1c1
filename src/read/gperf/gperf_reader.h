/*
 * What the two gperftools readers share: the profile being read into
 * (its objects, frames and stacks in p->perf, as a perf.data's are, for
 * resolve_perf()), the mappings, and turning one stack of addresses
 * into a node of the tree of stacks.
 *
 *   gperf_cpu.c    libprofiler's binary CPU profile (CPUPROFILE=)
 *   gperf_heap.c   the heap profiler's text (HEAPPROFILE=, tcmalloc)
 *   read_gperf.c   telling them apart; read_gperf()
 */
#ifndef CGA_GPERF_READER_H
#define CGA_GPERF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gperf_maps.h"
#include "profile/perf_data.h"
#include "profile/profile.h"
#include "read/line_reader.h"

/* A CPU profile at most this large is read (a day of samples of a big
 * program is tens of megabytes); a heap profile is read by lines. */
#define GPERF_MAX_BYTES ((size_t)1 << 32)

struct gperf_reader {
	const char *path;
	struct profile *p;
	struct perf_data *d;		/* p->perf, or new until read whole */
	struct gperf_maps maps;
	uint32_t unknown;		/* the object of unmapped addresses */
	uint64_t *pcs;			/* one stack, reused */
	size_t pcs_alloc;
	uint64_t empty_stacks;		/* records without an address */
	uint64_t first_empty;		/* the first one's offset or line */
	uint64_t unmapped;		/* stacks with an address in no
					 * mapping (gperf_stack_node()) */
	uint64_t first_unmapped;	/* the first one's address */
	uint64_t deep;			/* stacks at the profiler's depth
					 * limit: maybe cut */
	uint64_t first_deep;		/* the first one's offset or line */
};

/*
 * The most addresses gperftools keeps of a stack, the outermost callers
 * past it dropped: the CPU profiler's kMaxStackDepth (profiledata.h,
 * 254, of which 253 reached the file with gperftools 2.10 on Debian 12)
 * and the heap profiler's (HeapProfileBucket::kMaxStackDepth, 32).
 */
#define GPERF_CPU_MAX_DEPTH 253
#define GPERF_HEAP_MAX_DEPTH 32

/*
 * The events every stack's costs are of, with their units. The first
 * file sets them; a file added to it must have the same ones (a heap
 * profile cannot add to a CPU profile: read.c says so before).
 */
void gperf_set_events(struct gperf_reader *r, const char *const *names,
		      const char *const *units, size_t n);

/*
 * The node for a stack of addresses, the sampled one first (r->pcs, n
 * of them), each through the mappings to a frame. leaf_exact: the first
 * is where the code was (a CPU sample's PC), not a return address; the
 * others always are, and resolve_perf() looks them up one byte before,
 * in the call, as pprof does. n is at least 1. A stack with an address
 * in no mapping is counted in r->unmapped.
 */
uint32_t gperf_stack_node(struct gperf_reader *r, size_t n, bool leaf_exact);

/*
 * After the stacks: when the file lists mappings and some stacks have
 * addresses in none of them, say how many, as [unknown] would otherwise
 * pass for code of no object (a file cut inside its mappings loses the
 * objects listed after the cut).
 */
void gperf_warn_unmapped(const struct gperf_reader *r);

/* Room for n addresses in r->pcs. */
void gperf_reserve_pcs(struct gperf_reader *r, size_t n);

/* The input's entry in p->inputs. */
void gperf_add_input(struct gperf_reader *r, const char *format);

/* Whether the data starts as a CPU profile (its first two words, 0 and
 * 3, in one of the four layouts) or as a heap profile does. */
bool gperf_cpu_sniff(const char *data, size_t len);
bool gperf_heap_sniff(const char *data, size_t len);

/* The readers, called by read_gperf() on the file's data. */
int gperf_read_cpu(struct gperf_reader *r, const unsigned char *data,
		   size_t len);
int gperf_read_heap(struct gperf_reader *r, struct line_reader *lr);

#endif
