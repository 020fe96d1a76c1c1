/*
 * A perf.data recording while it is still objects and offsets: what
 * read_perf() found in the file, kept in the profile (p->perf) until
 * resolve_perf() names the code with the objects' symbol tables.
 *
 * The reader has already done what needs only the file: each sampled
 * address went through its process's mappings at the sample's time to
 * an object and an offset in that object's file (a frame), and each
 * sample's call chain, leaf first, became a path in a tree of stacks
 * (one node per distinct (frame, caller node)). A node holds the period
 * and the number of the samples whose stack ends there, for each event
 * that has such samples (a list of costs, not a row of every event: 4,096
 * events by 200,000 nodes were 13 GB of zeros). Memory so grows with the
 * distinct frames and stacks and the events that end on them, not the
 * samples.
 *
 *      node 0: main              a sample main > hot > leaf is
 *        node 1: hot             charged to node 2, a sample
 *          node 2: leaf          main > hot to node 1
 *
 * Kernel frames are in the object "[kernel.kallsyms]" with the address
 * itself as offset; an address outside every mapping is in the object
 * "[unknown]", likewise.
 */
#ifndef CGA_PERF_DATA_H
#define CGA_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "base/names.h"
#include "perf_node_index.h"

#define PERF_KERNEL_OBJECT "[kernel.kallsyms]"
#define PERF_UNKNOWN_OBJECT "[unknown]"
#define PERF_BUILD_ID_MAX 20

enum perf_object_kind {
	PERF_OBJ_FILE,		/* a mapped file: offsets are file offsets */
	PERF_OBJ_KERNEL,	/* offsets are kernel addresses */
	PERF_OBJ_ANON,		/* [vdso], //anon, [heap], ...: not a file we
				 * can read; offsets from the mapping's start */
	PERF_OBJ_UNKNOWN,	/* outside every mapping: raw addresses */
};

struct perf_object {
	name_id path;			/* as recorded */
	enum perf_object_kind kind;
	uint8_t build_id[PERF_BUILD_ID_MAX];
	uint8_t build_id_len;		/* 0: the recording gives none */
	name_id build_id_from;		/* the recording that gave it */
	uint64_t build_id_off;		/* and its record's offset */
	struct u64map frames;		/* offset -> frame */
};

struct perf_frame {
	uint32_t object;		/* into objects[] */
	uint64_t offset;
};

/* The exact bit beside a frame in struct perf_node_slot's fx. */
#define PERF_NODE_EXACT ((uint32_t)1 << 31)

struct perf_node {
	uint32_t frame;
	uint32_t parent;		/* the caller's node; NO_ID outermost */
	/* The frame's address is where the code was (the sampled ip, or
	 * the user ip a kernel entry interrupted), not a return address:
	 * resolution looks a return address up one byte before */
	bool exact;
	uint32_t cost;			/* its first in costs[]; NO_ID:
					 * no sample ends here */
};

/* The samples of one event whose stack ends at a node. */
struct perf_cost {
	uint32_t event;
	uint32_t next;			/* the node's next; NO_ID ends */
	uint64_t period, samples;
};

/* One event: one attr of the recording. */
struct perf_event_info {
	name_id name;			/* "cpu-clock:ppp", as perf names it */
	uint64_t period;		/* summed: perf report's Event count */
	uint64_t samples;
	name_id unit;			/* of a period: "ns", "events" */
};

/* A thread's samples (--threads): its costs are listed from cost, as
 * a node's are, in thread_costs[]. */
struct perf_thread {
	uint32_t pid, tid;
	name_id comm;			/* its last command name, as perf
					 * report's pid column; NO_NAME */
	uint32_t cost;			/* NO_ID: none yet */
};

/* One sample as read (the report's threads and timeline, when the
 * reader is asked: perf_data.logging): its stack's node, its thread
 * (threads[]), its event and period, and its time (0 without one). */
struct perf_logged_sample {
	uint64_t time, period;
	uint32_t node, thread, event;
};

struct perf_data {
	struct perf_event_info *events;
	size_t nevents, events_alloc;

	struct perf_object *objects;
	size_t nobjects, objects_alloc;
	struct perf_frame *frames;
	size_t nframes, frames_alloc;

	struct perf_node *nodes;
	size_t nnodes, nodes_alloc;
	struct perf_cost *costs;	/* listed from their nodes */
	size_t ncosts, costs_alloc;
	/* (node, event) -> costs[], for nodes of more costs than
	 * perf_data_add_samples() walks */
	struct u64map cost_index;
	struct perf_node_index node_index; /* (frame, parent) -> node */
	struct u64map object_index;	/* path -> object */

	struct perf_thread *threads;	/* in the order first sampled */
	size_t nthreads, threads_alloc;
	struct perf_cost *thread_costs;
	size_t nthread_costs, thread_costs_alloc;
	struct u64map thread_index;	/* pid << 32 | tid -> threads[] */
	struct u64map thread_cost_index; /* (thread, event) -> its cost */
	/* the last sample's thread, event and cost: a CPU's buffer holds
	 * runs of one thread's samples */
	uint64_t last_thread_key;
	uint32_t last_thread_event, last_thread, last_thread_cost;

	/* From the feature sections (NO_NAME when absent). */
	name_id hostname, osrelease, arch, version, cmdline;
	uint32_t nrcpus_online, nrcpus_avail;

	/* From the kernel's own mapping record (pid -1): perf names it
	 * "[kernel.kallsyms]" and a symbol (_text), whose address in that
	 * boot is the record's pgoff, for checking that a kallsyms is of
	 * that boot; NO_NAME: none recorded. And how many of the kernel
	 * modules' mappings the recording has. */
	name_id kernel_ref;
	uint64_t kernel_ref_addr;
	uint32_t kernel_modules;

	uint64_t lost_events, lost_records;	/* LOST */
	uint64_t lost_samples;			/* LOST_SAMPLES */
	uint64_t samples_no_chain;		/* with neither ip nor chain */
	bool dwarf_stacks;	/* REGS_USER and STACK_USER were sampled
				 * (--call-graph dwarf): not unwound */
	/* Each sample is counted in every event it has a value of (an
	 * unsymbolized pprof profile's Sample: its "samples" and "cpu"
	 * types): a stack's samples are the most of one event's, not their
	 * sum as perf.data's (a sample of one event each) */
	bool samples_every_event;

	/* Every sample kept, in the order read, when logging (set before
	 * reading); untimed: some had no time (PERF_SAMPLE_TIME unset). */
	bool logging, untimed;
	struct perf_logged_sample *log;
	size_t nlog, log_alloc;
	/* Set by resolve_perf(): each node's profile stack (NULL unless
	 * the stacks are kept) and each event's profile event (NO_ID:
	 * none), so that the logged samples can be found in the profile. */
	uint32_t *node_stack;
	uint32_t *event_profile;
};

/*
 * The samples (of every event) whose stack looks cut: its outermost
 * frame is an address in no mapping (an object of kind
 * PERF_OBJ_UNKNOWN), or, with lone_leaf, the stack's only user frame
 * is the sampled one (an exact root outside the kernel). A call chain
 * walked by frame pointers through code built without them ends at
 * whatever the frame pointer register held, or at once. lone_leaf only
 * for call chains: an unwinder marks its outermost frame exact, and a
 * recording without -g has the leaf alone. *all: every sample.
 */
void perf_data_cut_stacks(const struct perf_data *d, bool lone_leaf,
			  uint64_t *cut, uint64_t *all);

/* A new, empty recording, without events yet. */
struct perf_data *perf_data_new(void);
void perf_data_free(struct perf_data *d);

/* Make room for nevents events (their names set by the caller in
 * events[]), before the first node. */
void perf_data_set_events(struct perf_data *d, size_t nevents);

/* The object recorded at path (interned in names), created if new. */
uint32_t perf_data_object(struct perf_data *d, struct names *names,
			  const char *path, size_t len,
			  enum perf_object_kind kind);

/* The frame (object, offset), created if new. */
uint32_t perf_data_frame(struct perf_data *d, uint32_t object,
			 uint64_t offset);

/* The node of frame called from the node parent (NO_ID: outermost),
 * created with zero cost if new; exact as in struct perf_node. */
uint32_t perf_data_node(struct perf_data *d, uint32_t frame, uint32_t parent,
			bool exact);

/*
 * The nodes of a path below parent (NO_ID: from the root): frames[i]
 * called from frames[i - 1], frames[0] from parent, each with its exact
 * bit, created if new, into nodes[i]. Returns the last (parent when n
 * is 0). As perf_data_node() a frame at a time, with the index's slots
 * of all of them fetched at once.
 */
uint32_t perf_data_path(struct perf_data *d, const uint32_t *frames,
			const bool *exact, size_t n, uint32_t parent,
			uint32_t *nodes);

/* One sample of event e with this period, its stack ending at node. */
void perf_data_add_sample(struct perf_data *d, uint32_t node, uint32_t e,
			  uint64_t period);
/* As many samples at once, their periods summed (a gperftools record
 * counts the samples of one stack); sums stop at UINT64_MAX. */
void perf_data_add_samples(struct perf_data *d, uint32_t node, uint32_t e,
			   uint64_t period, uint64_t samples);

/*
 * perf_data_add_samples() in its two parts: the event's totals, and the
 * node's cost. A reader may add the nodes' costs later than the events'
 * totals, in the samples' order (the same costs, made in the same
 * order), with perf_data_prefetch_costs() asking ahead for a node's
 * first cost (stage 0) and then for its cost (stage 1, once the node is
 * in the cache): added at once, each was two cache misses.
 */
void perf_data_add_event_samples(struct perf_data *d, uint32_t e,
				 uint64_t period, uint64_t samples);
void perf_data_add_node_samples(struct perf_data *d, uint32_t node,
				uint32_t e, uint64_t period, uint64_t samples);
void perf_data_prefetch_costs(const struct perf_data *d, uint32_t node,
			      int stage);

/* One sample of thread tid of process pid, of event e (its period):
 * its thread's index in threads[]. */
uint32_t perf_data_add_thread_sample(struct perf_data *d, uint32_t pid,
				     uint32_t tid, uint32_t e,
				     uint64_t period);

/* Log one sample (d->logging); has_time false: the sample had no time. */
void perf_data_log_sample(struct perf_data *d, uint32_t node, uint32_t thread,
			  uint32_t e, uint64_t period, bool has_time,
			  uint64_t time);

#endif
