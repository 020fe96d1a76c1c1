/*
 * The perf.data reader's state, shared by its files: read_perf.c (the
 * file's layout, both modes), perf_header.c (attrs and feature
 * sections), perf_records.c (the records). See read_perf.c.
 */
#ifndef CGA_PERF_READER_H
#define CGA_PERF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "perf_format.h"
#include "perf_maps.h"
#include "perf_pending.h"
#include "profile/perf_data.h"
#include "profile/profile.h"
#include "read/read.h"

/* Attrs a recording may have: perf records one per event. */
#define PERF_MAX_ATTRS 4096

/*
 * What the reader can read on past but must not pass over in silence:
 * counted, with the first's offset, and said once each at the end
 * (read_perf.c's report()).
 */
enum perf_quirk {
	PERF_Q_DYN_SIZE,	/* a stack dump's dyn_size over its size */
	PERF_Q_SAMPLE_TRAILING,	/* bytes after a sample's fields */
	PERF_Q_RECORD_LONG,	/* a record longer than its fields */
	PERF_Q_SAMPLE_TYPE,	/* an attr with sample_type bits unknown */
	PERF_Q_MAP_EMPTY,	/* a mapping of length 0 */
	PERF_Q_MAP_PGOFF,	/* a page offset past 2^64 at its end */
	PERF_Q_NO_REGS,		/* a stack dump without the registers to
				 * unwind it (ABI, no sp or ip) */
	PERF_Q_LOST_WRAP,	/* lost counts past 2^64 */
	PERF_Q_DEEP_STACK,	/* a stack at the recording's limit */
	PERF_QUIRKS
};

/* An address's frame in a process, the same from time `from` up to
 * `until` (perf_maps_find_span()); kernel addresses in any process. */
struct perf_frame_slot {
	uint64_t addr, from, until;
	uint32_t pid, frame;
	uint32_t gen;		/* the process's (perf_maps_sample()) */
	bool kernel;
};

struct perf_offset_slot {
	uint64_t offset;
	uint32_t object, frame1;
};

/* A thread's last sample's stack, outermost first: its frames, their
 * exact bits and the stack node each ends. */
#define PERF_PATHS 64
struct perf_path {
	uint32_t tid;
	uint32_t *frames, *nodes;
	bool *exact;
	size_t n, alloc;
};

struct perf_source;

#define PERF_EXE_AFTER_EXEC (UINT32_MAX - 1)

struct perf_reader {
	const char *path;
	struct profile *p;
	struct perf_data *d;
	const unsigned char *data;	/* the whole file */
	size_t len;
	bool big_endian;
	bool pipe;			/* perf record -o - */
	int fd;				/* the mapped file's, for reading its
					 * records (perf_records.c); -1 when
					 * data is a copy */

	struct perf_attr *attrs;
	size_t nattrs, attrs_alloc;
	name_id *desc_names;		/* EVENT_DESC's, by attr index */
	size_t ndesc;
	struct u64map id_attr;		/* sample id -> attr index */

	struct perf_maps maps;
	/* pid -> the perf_data object of the program the process ran: its
	 * first executable file mapping (after its last exec), which a
	 * recording of running processes (perf record -p) is of whatever
	 * the process calls itself; PERF_EXE_AFTER_EXEC until the
	 * mapping after an exec */
	struct u64map exe_by_pid;
	/* frame_of()'s answers, by (process, address): a sample's frames
	 * are mostly the last ones' (perf_records.c); NULL until a sample */
	struct perf_frame_slot *frame_cache;
	/* frame_of()'s frames by (object, offset), after frame_cache: a
	 * process's first samples find the frames of the processes that
	 * ran the same code before (frame + 1; 0 empty); NULL until a
	 * sample */
	struct perf_offset_slot *offset_cache;
	/* the nodes' costs of the last samples added, for
	 * perf_samples_add_costs() to add in their order, a few hundred
	 * at a time and at the read's end */
	struct perf_cost_later {
		uint32_t node, event;
		uint64_t period;
	} *later;
	size_t nlater, later_alloc;
	/* the last sample's stack of a few threads (by tid, direct
	 * mapped: the CPUs' buffers interleave them), read_sample() */
	struct perf_path paths[PERF_PATHS];
	uint32_t kernel_obj, unknown_obj;	/* perf_data objects */
	uint32_t first_object;	/* objects before it are of recordings
				 * read before this one (added up) */

	uint64_t unknown_records;	/* of types we do not know */
	uint32_t first_unknown_type;
	size_t first_unknown_off;
	uint64_t samples_no_attr;	/* whose id names no attr */
	size_t first_no_attr_off;	/* the first of them */
	uint64_t samples_filtered;	/* not of the pids asked for */
	/* --time: the first and last samples' times (pass 1), the ranges
	 * they make of its spec, the samples of the threads asked for and
	 * those of them in the ranges (pass 2) */
	bool timing, time_seen;
	uint64_t time_first, time_last, time_all, time_kept;
	struct time_range ranges[TIME_SLICES_MAX];
	name_id *cmdline;		/* CMDLINE's words */
	size_t ncmdline;
	const struct read_opts *opts;

	/* --call-graph dwarf: made at the first sample with a user stack
	 * dump (perf_unwind.h); NULL when the recording's registers are
	 * not ones we know */
	struct perf_unwind *unwind;
	bool unwind_made;
	uint64_t dwarf_samples;		/* with a user stack dump */
	uint64_t chain_samples;		/* with a call chain and no dump:
					 * perf record -g's frame pointers */
	uint64_t cut_before, all_before; /* perf_data_cut_stacks() of the
					 * recordings read before this one */

	/* perf record -z: the COMPRESSED feature's method and ring buffer
	 * size (perf_inflate.c); and while the records decompressed from
	 * a compressed record are read, that record's file offset, which
	 * messages name (their own offsets are in the decompressed
	 * stream) */
	uint32_t comp_type, comp_mmap_len;
	bool comp_known;
	bool in_inflated;
	size_t inflated_from;
	/* samples with LBR call stacks (perf record --call-graph lbr),
	 * which are not read: said once */
	uint64_t lbr_samples;
	/* the header's data size was 0: perf record did not finish */
	bool unfinished;
	/* the records read in one pass (read_perf.c's read_all()): the
	 * samples looked up with the mappings known so far; perf_fail()
	 * says nothing, as a failure then is read again in two passes;
	 * maps_gen the sample's process's (perf_maps_sample()) */
	bool one_pass;
	uint32_t maps_gen;
	/* one pass: the samples read, held until the rounds after them
	 * (perf_records.c); the latest sample time read, and the latest
	 * when the last round ended, which those held up to are read at
	 * the end of the next */
	struct perf_pending held;
	uint64_t max_time, round_limit;
	struct perf_source *source;	/* the records' bytes, while read */
	/* one pass, --call-graph dwarf: the second unwinder (perf_par.h),
	 * made at the first batch with a stack to unwind if wanted
	 * (par_tried), and the batch's records (perf_records.c) */
	struct perf_par *par;
	bool par_tried;
	uint64_t asked_ns;		/* when threads were last asked for
					 * (perf_records.c's ask_again()) */
	struct perf_batch *batch;
	/* what was read on past, with a word each (perf_quirk()) */
	struct { uint64_t n; size_t first; } quirks[PERF_QUIRKS];
};

/* One more of quirk q, at offset off of the file (the compressed
 * record's, while in_inflated). */
void perf_quirk(struct perf_reader *r, enum perf_quirk q, size_t off);

/* Report an error at offset off of the file (of the decompressed
 * stream, while in_inflated); returns -1. */
int perf_fail(const struct perf_reader *r, size_t off, const char *fmt, ...)
	CGA_PRINTF(3, 4);

/* Object obj's build-id is id (n bytes, at most PERF_BUILD_ID_MAX), as
 * the record at file offset off says: 0, or -1 after reporting that an
 * earlier recording's object of that path had another. */
int perf_set_build_id(struct perf_reader *r, uint32_t obj, const uint8_t *id,
		      size_t n, size_t off);

/* A cursor over len bytes at p, in the file's byte order: inline, as
 * every record's header and sample take one. */
static inline void perf_cursor(const struct perf_reader *r, struct cursor *c,
			       const unsigned char *p, size_t len)
{
	cursor_init(c, p, p + len, r->big_endian);
}

/* perf_header.c */

/*
 * The attr at data (len bytes available, at file offset off) into a,
 * its own size field saying how far it goes (which must be at most
 * len). *used gets that size. Returns 0, or -1 after reporting.
 */
int perf_parse_attr(const struct perf_reader *r, const unsigned char *data,
		    size_t len, size_t off, struct perf_attr *a, size_t *used);
/* Add attr a, and its ids (n u64 at ids, file offset off): 0 or -1. */
int perf_add_attr(struct perf_reader *r, const struct perf_attr *a,
		  const unsigned char *ids, uint64_t n, size_t off);
/* Feature section feat's data (len bytes at file offset off): 0 or -1.
 * Features the reader does not use are skipped. */
int perf_read_feature(struct perf_reader *r, unsigned feat, size_t off,
		      size_t len);
/* One build-id record (a HEADER_BUILD_ID, or an entry of the BUILD_ID
 * section) of size bytes at file offset off: 0 or -1. */
int perf_read_build_id(struct perf_reader *r, size_t off, size_t size);

/* perf_records.c */

/*
 * The records in [start, end) of the file. Pass 1 reads everything but
 * the samples (attrs and features in pipe mode, mappings, processes,
 * losses); pass 2 only the samples, with every mapping known. Pass 0
 * (r->one_pass) reads both at once, and fails without a word where
 * its answers could differ from two passes' (perf_maps_sample()), or
 * where a record needs what the samples before it were read without
 * (attrs, features, a build-id of an object with frames).
 * Returns 0, or -1 after reporting (in one pass, without).
 */
int perf_read_records(struct perf_reader *r, size_t start, size_t end,
		      int pass);

#endif
