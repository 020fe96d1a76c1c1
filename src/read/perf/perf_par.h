/*
 * --call-graph dwarf on two processors (issue 33): a sample's stack is
 * unwound from its own registers and stack dump, with the mappings of
 * its process at its time, so the samples a one-pass read takes in at
 * the end of a round (perf_records.c's read_held()), whose mappings are
 * all known then and do not change until the next record is read, can
 * be unwound in any order. A second thread with an unwinder of its own
 * (perf_unwind.h) takes them one at a time, in order, from a point in
 * the batch on; the reading thread adds each sample's frames in file
 * order, as one thread does, so that every frame, node and message is
 * the same whatever thread unwound it, and while the next one it needs
 * is not done it unwinds those before that point itself, then those
 * left at the batch's end.
 */
#ifndef CGA_PERF_PAR_H
#define CGA_PERF_PAR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf_format.h"
#include "perf_unwind.h"

struct perf_reader;
struct perf_unwind;

/* A batch's samples at most: what is in flight (about 290 KiB of
 * frames), whatever a round holds. */
#define PERF_PAR_JOBS 256

/* One sample to unwind, and its frames. */
struct perf_par_job {
	/* in: the sample (its bytes valid until the batch is done), its
	 * process's mappings' gen; unwind false: nothing to do */
	const struct perf_attr *a;
	struct perf_sample s;
	uint32_t gen;
	bool unwind;
	/* out: perf_unwind_sample()'s answer */
	size_t n;
	uint64_t pcs[PERF_UNWIND_MAX];
	bool exact[PERF_UNWIND_MAX];
	struct perf_unwind_where where[PERF_UNWIND_MAX];
	atomic_bool done;
};

struct perf_par;

/*
 * A second unwinder on a thread of its own for r's samples, r->unwind
 * the first (made); NULL when a second thread is not wanted or cannot
 * start: CGANALYZE_UNWIND_THREAD=1 (or 0) says ("alone": the second
 * thread unwinds every sample, for the tests), else the reader's
 * thread setting (CGANALYZE_READER_THREAD: 0 none, 1 or "ahead" one)
 * or, by default, whether a processor is free (spare_cpu_beside_own():
 * the reading-ahead thread, if on, not counted against it).
 */
struct perf_par *perf_par_start(struct perf_reader *r);

/*
 * For the tests (tests/test_perf_par.c): the thread without a reader or
 * unwinder, fn(ctx, job) doing a job's work on whichever thread takes
 * it (this one too if both; else the second thread does every job).
 */
typedef void perf_par_fn(void *ctx, struct perf_par_job *j);
struct perf_par *perf_par_start_fn(perf_par_fn *fn, void *ctx, bool both);

/* Job i of the next batch (i < PERF_PAR_JOBS), to fill in. */
struct perf_par_job *perf_par_job(struct perf_par *p, size_t i);

/* Jobs 0 to n - 1 filled in: the second thread may take them. */
void perf_par_run(struct perf_par *p, size_t n);

/*
 * Job i of the batch run, done: unwound by the second thread, or by
 * r->unwind here (this one unwinds the batch's samples not yet taken
 * while it waits: its own part's first, then the other's last). Asked for in rising order; the batch is over once
 * its last is asked for (or perf_par_drain()).
 */
const struct perf_par_job *perf_par_wait(struct perf_par *p, size_t i);

/* The batch run ended early (an error): every job taken is done. */
void perf_par_drain(struct perf_par *p);

/* Ends the thread, adds its unwinder's counts to r->unwind's, frees
 * everything (NULL: nothing). */
void perf_par_stop(struct perf_par *p);

#endif
