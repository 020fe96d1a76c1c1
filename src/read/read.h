/*
 * Reading profiles. read_profile() detects the format from the content
 * (never the file name) and hands the file to that format's reader,
 * which adds what it reads to the profile. Several files may be read
 * into one profile; their costs add up.
 */
#ifndef CGA_READ_H
#define CGA_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "base/time_slice.h"
#include "line_reader.h"
#include "profile/profile.h"

struct ppart;

/*
 * How the Callgrind reader uses a second thread: AUTO, where it pays,
 * reads a large plain file in stretches, one read ahead (callgrind_ahead.c),
 * and other large input (compressed, positions kept) with a thread
 * that splits and tokenizes it (callgrind_split.h). The others force one way,
 * for the tests: the output is the same every way.
 */
enum read_thread {
	READ_THREAD_AUTO,
	READ_THREAD_ON,	   /* the splitting thread (callgrind_split.h) */
	READ_THREAD_OFF,   /* one thread */
	READ_THREAD_AHEAD, /* reading ahead (callgrind_ahead.c), however
			    * small the file and the stretches */
};

/* How perf.data's --call-graph dwarf stacks are unwound (tests). */
enum perf_unwinder {
	PERF_UNWIND_AUTO,	/* cached CFI rows, libdwfl for the rest */
	PERF_UNWIND_LIBDWFL,	/* libdwfl for every sample */
	PERF_UNWIND_CHECK,	/* both, and a warning if they differ */
};

/* What gmon.out needs of the binary: its address size and byte order. */
struct read_target {
	const char *binary;	/* its path, for messages */
	uint8_t addr_size;	/* 4 or 8 */
	bool big_endian;
};

/* perf.data: the samples kept (--pid, --tid, --comm); a list of 0
 * entries (or NULL names) keeps all. */
struct perf_select {
	const uint32_t *pids, *tids;
	size_t npids, ntids;
	const char *comms;	/* command names separated by commas */
	const struct time_spec *time;	/* --time; NULL: all */
};

/*
 * perf.data: where the recorded objects' files are, for unwinding
 * --call-graph dwarf stacks from their CFI. They are looked for as
 * resolve_perf() looks for them (profile/perf_files.h): a -b binary
 * (named by -b OBJECT=FILE, else by its build-id or file name), the
 * recorded path under sysroot, perf's build-id cache.
 */
struct perf_files {
	const char *const *binaries;	/* -b FILE */
	const char *const *objects;	/* -b OBJECT=FILE's OBJECT, per
					 * binary (NULL entries); or NULL */
	size_t nbinaries;
	const char *sysroot;		/* NULL: / */
	const char *debug_dir;		/* NULL: /usr/lib/debug */
};

struct read_opts {
	uint64_t part;		/* read only this part (1-based); 0: all */
	bool fold_recursion;	/* fib'2 is counted as fib */
	bool lenient;		/* an undefined compressed id or extra costs
				 * on a cost line are warnings, not errors */
	bool want_positions;	/* keep costs per (function, file, line,
				 * address): struct ppos */
	bool no_callsites;	/* with want_positions: keep no call
				 * sites (struct pcallsite) */
	bool no_calls;		/* Callgrind: keep no call arcs (their
				 * lines are read and checked): for the
				 * costs of functions and positions alone */
	bool no_jumps;		/* Callgrind: keep no jumps (their lines
				 * are read and checked), nor give their
				 * sources positions */
	bool want_func_addrs;	/* without want_positions: keep each
				 * function's address range instead
				 * (profile.func_addrs; Callgrind; the
				 * other readers keep positions for it) */
	const char *counter;	/* IgProf: the counter whose count field
				 * becomes the call counts; NULL: the
				 * first counter of each file */
	bool want_leaks;	/* IgProf: keep LK records (struct pleak) */
	bool want_stacks;	/* IgProf: keep every stack with its values
				 * (struct pstack_value), for flame graphs */
	bool no_filter;		/* IgProf: fold no frame into its caller
				 * (allocators, IgProf's own) */
	/* IgProf: a function's name demangled as it is defined (malloc'd,
	 * or NULL to keep it), so that names demangling to one are one
	 * function when the stacks are charged; NULL: the names as
	 * recorded */
	char *(*demangle)(const char *name);
	const struct read_target *target;	/* the -b binary, for
						 * gmon.out; NULL: none */
	uint64_t max_costs;	/* cost numbers the profile may hold (one
				 * per event per function, arc, position);
				 * 0: the reader's own limit. For tests */
	enum read_thread thread;	/* Callgrind: the second thread */
	const struct perf_select *perf_select;	/* NULL: every sample */
	const struct perf_files *perf_files;	/* NULL: the recorded
						 * paths only */
	enum perf_unwinder perf_unwinder;
	bool perf_log_samples;	/* keep each sample (perf_data.log): the
				 * report's threads and timeline */
	uint32_t perf_max_stack;	/* frames kept of a sample's stack,
					 * the innermost; 0: all */
	/* perf.data: called on the reading thread when an object (an
	 * index into d->objects, the kernel's too) gets its first frame,
	 * with the profile's names, so that its symbols can load on
	 * another thread while the samples are read
	 * (resolve/perf_preload.h); NULL: nothing is */
	void (*perf_object_seen)(void *ctx, const struct names *names,
				 const struct perf_data *d, uint32_t obj);
	/* perf.data: called on the reading thread, before the first
	 * record, for each user-space file of the file header's build-id
	 * table (the objects perf record found samples in), which may get
	 * its first frame only at the recording's end; NULL: nothing is */
	void (*perf_object_listed)(void *ctx, const struct names *names,
				   const struct perf_data *d, uint32_t obj);
	/* perf.data: called on the reading thread every few milliseconds
	 * while the records are read, with the same ctx, when threads
	 * are chosen by whether a processor is free: a thread declined
	 * at the start can be asked for again; NULL: nothing is */
	void (*perf_reading)(void *ctx);
	void *perf_object_ctx;
	struct read_stats *stats;	/* NULL, or counted into: for tests
					 * and benchmarks */
	/*
	 * Callgrind and IgProf: called at the end of each part read
	 * (chosen by part and perf_select), with a profile of that part
	 * alone (profile_part_copy(), IgProf's profile_part_copy_some():
	 * as --part=N --pid=P --tid=T reads it) to finish, analyse and
	 * leave (the reader releases it), and the part's record; the
	 * reader then forgets the part's arcs and costs (Callgrind's
	 * functions too), so that the report reads every part of a file
	 * in one pass (cli/part_reads.c). Reading ahead is off with it.
	 * NULL: none.
	 */
	void (*part_done)(void *ctx, struct profile *part,
			  const struct ppart *pt);
	void *part_ctx;
	/* IgProf: set by the caller (part_done) when it wants no more
	 * parts: the reader stops with an error at the next buffer's
	 * end. NULL: never. */
	const bool *part_stop;
	/* Callgrind, the seek design's one read (cli/code_seek.c): where
	 * each function's block starts and the reader's state at the end,
	 * kept there for its blocks to be read again by offset
	 * (callgrind/callgrind_seek.h); NULL: none */
	struct callgrind_seek *seek;
};

/* How a Callgrind file was read on two threads (reading ahead). */
struct callgrind_seek;
struct read_stats {
	uint64_t stretches_added;	/* read ahead, then added in */
	uint64_t stretches_dropped;	/* read ahead, then read again */
	/* IgProf with part_done: the stack levels under the buffers'
	 * ends, each walked to hand a buffer on with its stack */
	uint64_t part_levels;
};

/* Returns 0, or -1 after reporting an error that names the file. */
int read_profile(struct profile *p, const char *path,
		 const struct read_opts *opts);

/* Whether path holds a Callgrind profile (as read_profile() would
 * take it); false also when it cannot be read (reported). */
bool read_is_callgrind(const char *path);

/*
 * The program a Callgrind profile's header names ("cmd: PROGRAM args"),
 * from the first bytes of its text: malloc'd, or NULL when the header
 * has no cmd: line before its body or it is not in those bytes. And the
 * same from a file (NULL also when it cannot be read: nothing said).
 */
char *callgrind_cmd_program(const char *data, size_t len);
char *callgrind_file_program(const char *path);

/* The format readers, called with an open line reader. */
bool callgrind_sniff(const char *data, size_t len);
int read_callgrind(struct profile *p, struct line_reader *lr,
		   const struct read_opts *opts);

bool igprof_sniff(const char *data, size_t len);
int read_igprof(struct profile *p, struct line_reader *lr,
		const struct read_opts *opts);

/*
 * gmon.out (GNU or BSD). The GNU format starts with "gmon"; the BSD one
 * has no magic and is taken for one only when its header fits the size
 * of the data exactly (see read_gmon.c). Without opts->target the data
 * is recognised and refused: gmon.out needs the binary.
 */
bool gmon_sniff(const char *data, size_t len);
int read_gmon(struct profile *p, struct line_reader *lr,
	      const struct read_opts *opts);
/* 1 when the input (not yet consumed) is a BSD gmon.out, read into p
 * (or refused with an error: then -1); 0 when it is not one. */
int read_gmon_bsd_maybe(struct profile *p, struct line_reader *lr,
			const struct read_opts *opts);

/*
 * Linux perf's perf.data ("PERFILE2", either byte order; a file or
 * perf record -o -'s pipe layout), read into p->perf: events, objects
 * and offsets, stacks, until resolve_perf() names them.
 */
bool perf_sniff(const char *data, size_t len);
int read_perf(struct profile *p, struct line_reader *lr,
	      const struct read_opts *opts);

/*
 * gperftools: libprofiler's binary CPU profile (either word size and
 * byte order) and the heap profiler's text, read into p->perf as
 * perf.data is (objects from the mappings they carry, offsets, stacks).
 * gperf_format() names the one the data starts as: "gperftools-cpu" or
 * "gperftools-heap".
 */
bool gperf_sniff(const char *data, size_t len);
const char *gperf_format(const char *data, size_t len);
int read_gperf(struct profile *p, struct line_reader *lr, bool heap);

/*
 * pprof's profile.proto (read/pprof/), gzip'd or not. No magic: the
 * first bytes must parse as its fields (whole: they are all the input).
 */
bool pprof_sniff(const char *data, size_t len, bool whole);
int read_pprof(struct profile *p, struct line_reader *lr,
	       const struct read_opts *opts);

#endif
