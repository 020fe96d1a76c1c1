/*
 * perf.data's samples (see perf_reader.h): a SAMPLE record's fields,
 * the frames of its stack (its call chain, and the user stack unwound
 * from its dump, perf_unwind.h), each looked up in its process's
 * mappings at its time, and its cost added to the stack's node of the
 * profile. perf_records.c reads the records and says when.
 */
#ifndef CGA_PERF_SAMPLES_H
#define CGA_PERF_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf_format.h"

struct perf_par_job;
struct perf_reader;
struct perf_unwind_where;

#define PERF_RECORD_HEADER_SIZE 8
#define PERF_CPUMODE_MASK 7u

/* A record: its header's fields and where its body is. */
struct perf_record {
	uint32_t type;
	uint16_t misc, size;
	size_t off;			/* of the header, in the file */
	const unsigned char *body;	/* after the header */
	size_t len;			/* of the body */
};

/* A sample's stack, leaf first: frames and whether each is exact;
 * and the unwinder's addresses (PERF_UNWIND_MAX). Zeroed to start. */
struct perf_stack {
	uint32_t *frames;
	bool *exact;
	size_t alloc;
	uint64_t *pcs;
	bool *pcs_exact;
	struct perf_unwind_where *pcs_where;
};

void perf_stack_free(struct perf_stack *st);

/* A sample parsed and taken (not filtered out), before its frames. */
struct perf_parsed {
	const struct perf_attr *a;	/* NULL: nothing more to do */
	struct perf_sample s;
	uint32_t gen;			/* r->maps_gen for it */
	bool unwind;			/* perf_sample_unwinds() */
};

/* The attr of a record with id (has_id: it has one), or the first
 * one; NULL when no attr has that id. */
const struct perf_attr *perf_attr_by_id(const struct perf_reader *r,
					uint64_t id, bool has_id);

/* The event attr of sample rec, by its id (*a NULL when no attr has
 * it): 0, or -1 after perf_fail(). */
int perf_sample_attr(struct perf_reader *r, const struct perf_record *rec,
		     const struct perf_attr **a);

/* Sample rec's fields, counted, filtered and, in one pass, its
 * process's mappings brought up to its time: 0 or -1. */
int perf_sample_parse(struct perf_reader *r, const struct perf_record *rec,
		      struct perf_parsed *ps);

/* Whether parsed sample ps has a user stack to unwind (a dump, no user
 * frames in its chain, an unwinder for the recording, made now if
 * not yet). */
bool perf_sample_unwinds(struct perf_reader *r, const struct perf_record *rec,
			 const struct perf_parsed *ps);

/*
 * Parsed sample ps's frames and its cost added to the profile: its
 * user stack unwound here, or by job (perf_par.h, which unwound it if
 * perf_sample_unwinds()). 0 or -1.
 */
int perf_sample_add(struct perf_reader *r, const struct perf_record *rec,
		    const struct perf_parsed *ps, struct perf_stack *st,
		    const struct perf_par_job *job);

/* The nodes' costs perf_sample_add() left for later added, in the
 * samples' order: before anything reads the nodes' costs. */
void perf_samples_add_costs(struct perf_reader *r);

/* Both: sample rec read, unwound here. 0 or -1. */
int perf_read_sample(struct perf_reader *r, const struct perf_record *rec,
		     struct perf_stack *st);

#endif
