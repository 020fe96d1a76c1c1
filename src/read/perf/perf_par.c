/*
 * The second unwinder's thread (see perf_par.h).
 *
 * A batch is published by one word, `claim`: the batch's number in the
 * high 32 bits, then the end of the jobs not taken and their start.
 * The second thread takes jobs from the start, the reading thread from
 * the end (it needs the first ones first: those it unwinds itself it
 * needs last), each by compare and swap, so that a thread still looking
 * at the batch before cannot take a job of the next. The jobs are
 * written before the word that publishes them (release) and read after
 * it (acquire); a job's `done` is set after its frames (release), which
 * the reading thread reads after it (acquire), and the next batch's
 * jobs are filled only once every job of this one is done: the second
 * thread touches no job it has not taken. Between batches (the
 * records of the next samples being read) the thread spins a little,
 * then sleeps on a condition variable until the word changes.
 */
#include "perf_par.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "perf_reader.h"

_Static_assert(PERF_PAR_JOBS < 0x10000, "a job's index in 16 bits");

/* How many times the thread looks at the word before it sleeps: a few
 * microseconds. It spun for 50 us once (about what reading the records
 * of the next batch takes), but the next batch came during the spin in
 * 0 to 5 of 515 to 576 batches of the 1 GB recording: the reading
 * thread, after the last job, still adds the batch's frames and reads
 * the next samples' records, a millisecond or so. Those spins were 26
 * to 29 ms of CPU a run, on the processor the reading ahead and the
 * symbol tables share with this thread. */
#define SPIN_LOOKS 64

#define FRONT(w) ((uint32_t)(w) & 0xffffu)
#define BACK(w) ((uint32_t)(w) >> 16 & 0xffffu)

struct perf_par {
	struct perf_reader *r;
	struct perf_unwind *u;		/* the second thread's */
	perf_par_fn *fn;		/* the tests': runs a job instead */
	void *fn_ctx;
	struct perf_par_job *jobs;	/* PERF_PAR_JOBS */
	atomic_uint_fast64_t claim;	/* batch << 32 | back << 16 | front */
	size_t n;			/* the batch's jobs (reading thread) */
	uint32_t batch;			/* the reading thread's */
	bool both;			/* the reading thread unwinds too */
	atomic_bool stop;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;		/* claim or stop did */
};

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* A job not taken, taken from the start (or, back, the end): its index,
 * or -1 when every job of the batch is taken; *seen the word looked
 * at. */
static long take(struct perf_par *p, bool back, uint64_t *seen)
{
	uint64_t w = atomic_load_explicit(&p->claim, memory_order_acquire);

	for (;;) {
		*seen = w;
		if (FRONT(w) >= BACK(w))
			return -1;
		if (atomic_compare_exchange_weak_explicit(
			    &p->claim, &w, back ? w - 0x10000u : w + 1,
			    memory_order_acq_rel, memory_order_acquire))
			return back ? (long)BACK(w) - 1 : (long)FRONT(w);
	}
}

/* Job j, taken, done: its frames, none for a job without a stack to
 * unwind (that too is done only by the thread that took it: the
 * reading thread could otherwise fill it for the next batch while the
 * other looks at it). */
static void run(struct perf_par *p, struct perf_unwind *u,
		struct perf_par_job *j)
{
	if (p->fn)
		p->fn(p->fn_ctx, j);
	else
		j->n = !j->unwind ? 0
				  : perf_unwind_sample(u, j->a, &j->s, j->gen,
						       j->pcs, j->exact,
						       j->where,
						       PERF_UNWIND_MAX);
	atomic_store_explicit(&j->done, true, memory_order_release);
}

/* Until claim is no longer seen, or stop: false for stop. */
static bool idle(struct perf_par *p, uint64_t seen)
{
	for (int i = 0; i < SPIN_LOOKS; i++) {
		if (atomic_load_explicit(&p->claim, memory_order_acquire) !=
		    seen)
			return true;
		cpu_relax();
	}
	pthread_mutex_lock(&p->lock);
	while (!atomic_load(&p->stop) && atomic_load(&p->claim) == seen)
		pthread_cond_wait(&p->changed, &p->lock);
	pthread_mutex_unlock(&p->lock);
	return !atomic_load(&p->stop);
}

static void *worker(void *arg)
{
	struct perf_par *p = arg;
	uint64_t seen;

	for (;;) {
		long i = take(p, false, &seen);

		if (i >= 0)
			run(p, p->u, &p->jobs[i]);
		else if (!idle(p, seen))
			return NULL;
	}
}

/* Whether a second unwinder is wanted; *both whether this thread
 * unwinds too. */
static bool wanted(const struct perf_reader *r, bool *both)
{
	const char *env = getenv("CGANALYZE_UNWIND_THREAD");

	*both = true;
	if (env && *env) {
		/* the tests': the second thread unwinds every sample */
		if (!strcmp(env, "alone"))
			*both = false;
		return !strcmp(env, "1") || !*both;
	}
	switch (r->opts->thread) {
	case READ_THREAD_OFF:
		return false;
	case READ_THREAD_AUTO:
		return spare_cpu_beside_own();
	default:
		return true;
	}
}

/* The thread started for r with unwinder u (or, the tests', neither
 * and fn with ctx), or NULL (u freed). */
static struct perf_par *start(struct perf_reader *r, struct perf_unwind *u,
			      bool both, perf_par_fn *fn, void *ctx)
{
	struct perf_par *p = xcalloc(1, sizeof(*p));

	p->both = both;
	p->r = r;
	p->u = u;
	p->fn = fn;
	p->fn_ctx = ctx;
	p->jobs = xcalloc(PERF_PAR_JOBS, sizeof(*p->jobs));
	atomic_init(&p->claim, 0);
	atomic_init(&p->stop, false);
	for (size_t i = 0; i < PERF_PAR_JOBS; i++)
		atomic_init(&p->jobs[i].done, true);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	if (pthread_create(&p->thread, NULL, worker, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->changed);
		perf_unwind_free(p->u);
		free(p->jobs);
		free(p);
		return NULL;
	}
	return p;
}

struct perf_par *perf_par_start(struct perf_reader *r)
{
	struct perf_unwind *u;
	bool both;

	if (!r->unwind || !wanted(r, &both))
		return NULL;
	u = perf_unwind_new(r);
	return u ? start(r, u, both, NULL, NULL) : NULL;
}

struct perf_par *perf_par_start_fn(perf_par_fn *fn, void *ctx, bool both)
{
	return start(NULL, NULL, both, fn, ctx);
}

struct perf_par_job *perf_par_job(struct perf_par *p, size_t i)
{
	struct perf_par_job *j = &p->jobs[i];

	/* the last batch's are all done (perf_par_wait(), drain) */
	atomic_store_explicit(&j->done, false, memory_order_relaxed);
	return j;
}

void perf_par_run(struct perf_par *p, size_t n)
{
	p->n = n;
	p->batch++;
	atomic_store_explicit(&p->claim,
			      (uint64_t)p->batch << 32 | (uint64_t)n << 16,
			      memory_order_release);
	pthread_mutex_lock(&p->lock);
	pthread_cond_signal(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

const struct perf_par_job *perf_par_wait(struct perf_par *p, size_t i)
{
	struct perf_par_job *j = &p->jobs[i];
	uint64_t seen;

	unsigned spins = 0;

	while (!atomic_load_explicit(&j->done, memory_order_acquire)) {
		long k = p->both ? take(p, true, &seen) : -1;

		if (k >= 0) {
			run(p, p->r ? p->r->unwind : NULL, &p->jobs[k]);
		} else if (++spins < 1024) {
			cpu_relax();
		} else {
			/* the other thread is not running (a busy machine):
			 * let it */
			sched_yield();
		}
	}
	return j;
}

void perf_par_drain(struct perf_par *p)
{
	for (size_t i = 0; i < p->n; i++)
		perf_par_wait(p, i);
}

void perf_par_stop(struct perf_par *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->stop, true);
	pthread_cond_signal(&p->changed);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->changed);
	if (p->u) {
		perf_unwind_absorb(p->r->unwind, p->u);
		perf_unwind_free(p->u);
	}
	free(p->jobs);
	free(p);
}
