/*
 * What the perf.data reader's files share: the parts of an event's attr
 * the records' layout depends on, a sample's fields, and the parsers of
 * a sample and of the sample_id trailer other records carry.
 *
 * The kernel's record layouts and flag values come from
 * <linux/perf_event.h>; the records and feature sections perf itself
 * adds (ids 64 and up) are described in the kernel tree's
 * tools/perf/Documentation/perf.data-file-format.txt and are defined
 * here.
 */
#ifndef CGA_PERF_FORMAT_H
#define CGA_PERF_FORMAT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cursor.h"

/* Records perf adds to the kernel's (tools/perf/util/event.h). */
enum {
	PERF_REC_HEADER_ATTR = 64,
	PERF_REC_HEADER_EVENT_TYPE = 65,
	PERF_REC_HEADER_TRACING_DATA = 66,
	PERF_REC_HEADER_BUILD_ID = 67,
	PERF_REC_FINISHED_ROUND = 68,
	PERF_REC_ID_INDEX = 69,
	PERF_REC_AUXTRACE_INFO = 70,
	PERF_REC_AUXTRACE = 71,
	PERF_REC_AUXTRACE_ERROR = 72,
	PERF_REC_THREAD_MAP = 73,
	PERF_REC_CPU_MAP = 74,
	PERF_REC_STAT_CONFIG = 75,
	PERF_REC_STAT = 76,
	PERF_REC_STAT_ROUND = 77,
	PERF_REC_EVENT_UPDATE = 78,
	PERF_REC_TIME_CONV = 79,
	PERF_REC_HEADER_FEATURE = 80,
	PERF_REC_COMPRESSED = 81,
	PERF_REC_FINISHED_INIT = 82,
	/* COMPRESSED with the data's size after the header, the record
	 * padded to 8 bytes (perf 6.15 and later) */
	PERF_REC_COMPRESSED2 = 83,
};

/* Feature sections (tools/perf/util/header.h), by bit number; bit 0
 * is reserved. */
enum {
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_HOSTNAME = 3,
	PERF_FEAT_OSRELEASE = 4,
	PERF_FEAT_VERSION = 5,
	PERF_FEAT_ARCH = 6,
	PERF_FEAT_NRCPUS = 7,
	PERF_FEAT_CMDLINE = 11,
	PERF_FEAT_EVENT_DESC = 12,
	PERF_FEAT_COMPRESSED = 27,
	PERF_FEAT_BITS = 256,
};

/* branch_sample_type's bit for a count per branch entry after the
 * entries (kernel 6.8; PERF_SAMPLE_BRANCH_COUNTERS, not in older
 * headers) */
#define PERF_BRANCH_COUNTERS_BIT (1ull << 19)

/* HEADER_COMPRESSED's method: zstd, the only one perf has. */
#define PERF_COMP_ZSTD 1

/* The attr's flag bits the reader needs (the u64 after read_format). */
#define PERF_ATTR_FLAG_FREQ (1ull << 10)
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL (1ull << 18)

/* A perf_event_attr as far as the layout of records depends on it. */
struct perf_attr {
	uint32_t type, size;
	uint64_t config;
	uint64_t sample_period;		/* or frequency, with FLAG_FREQ */
	uint64_t sample_type, read_format, flags;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	unsigned precise;		/* precise_ip, 0-3 */
	uint32_t event;			/* into perf_data's events */
};

/* The fields of one sample the reader uses. */
struct perf_sample {
	uint64_t id;			/* IDENTIFIER or ID; 0 if neither */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t period;		/* 1 when not sampled */
	const unsigned char *chain;	/* nchain u64 in the file's order */
	uint64_t nchain;
	bool has_ip, has_chain;
	bool has_stack_user;		/* a non-empty user stack dump */
	/* REGS_USER: the registers of sample_regs_user's mask, in its
	 * bit order (nregs u64 in the file's order), and their ABI
	 * (PERF_SAMPLE_REGS_ABI_*; NONE: no registers, a kernel thread) */
	const unsigned char *regs;
	uint64_t regs_abi, nregs;
	/* STACK_USER: the bytes copied from the user stack pointer up,
	 * as many as were there (dyn_size) */
	const unsigned char *stack;
	uint64_t stack_size;
	uint64_t nbranches;		/* BRANCH_STACK's entries */
	bool dyn_over_size;		/* dyn_size said more than the dump */
	size_t trailing;		/* bytes after the last field */
};

/* The sample_type bits perf_parse_sample() knows the fields of (up to
 * PERF_SAMPLE_WEIGHT_STRUCT, bit 24); a newer kernel's fields come
 * after them and are left unread. */
#define PERF_SAMPLE_KNOWN ((1ull << 25) - 1)

/* The sample_id trailer of a non-sample record (sample_id_all). */
struct perf_trailer {
	uint32_t pid, tid;
	uint64_t time, id;
	bool has_time, has_id;
};

/*
 * Parse a SAMPLE record's body (after the 8-byte header, `len` bytes at
 * c) with attr a: every field sample_type holds, read or skipped by its
 * size. Returns 0, or -1 with *why saying what did not fit and *at the
 * offset of that field from the body's start.
 */
int perf_parse_sample(const struct perf_attr *a, struct cursor *c,
		      struct perf_sample *s, const char **why, size_t *at);

/* The size of the sample_id trailer attr a puts after other records. */
size_t perf_trailer_size(const struct perf_attr *a);

/* Parse the trailer from the last perf_trailer_size(a) bytes of body
 * (len bytes). Returns 0, or -1 when the body is shorter than it. */
int perf_parse_trailer(const struct perf_attr *a, const unsigned char *body,
		       size_t len, bool big_endian, struct perf_trailer *t);

/* Where the id is in a sample's body (its byte offset), or -1 when
 * sample_type has neither IDENTIFIER nor ID. */
long perf_sample_id_offset(uint64_t sample_type);
/* Where a sample of sample_type has its time, or -1 when none. */
long perf_sample_time_offset(uint64_t sample_type);

#endif
