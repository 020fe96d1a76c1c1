/*
 * The second unwinder's thread (see perf_par.h).
 *
 * A batch is published by one word, `claim`: the batch's number in the
 * high bits, then two parts of the jobs not taken, each its next and
 * its end: the reading thread's from the batch's start, the second
 * thread's after it (see perf_par_run()). Each thread takes the next of
 * its own part, and once that is empty the last of the other's, each by
 * compare and swap on the whole word, so that a thread still looking
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

_Static_assert(PERF_PAR_JOBS < 0x200, "a job's index in 9 bits");

/* How many times the thread looks at the word before it sleeps: a few
 * microseconds. It spun for 50 us once (about what reading the records
 * of the next batch takes), but the next batch came during the spin in
 * 0 to 5 of 515 to 576 batches of the 1 GB recording: the reading
 * thread, after the last job, still adds the batch's frames and reads
 * the next samples' records, a millisecond or so. Those spins were 26
 * to 29 ms of CPU a run, on the processor the reading ahead and the
 * symbol tables share with this thread. */
#define SPIN_LOOKS 64

/* the claim word's fields: 9 bits each, the batch's number above */
#define FIELD(w, i) ((uint32_t)((w) >> (9 * (i))) & 0x1ffu)
#define MINE_NEXT 0	/* the reading thread's part: the next to take */
#define MINE_END 1	/* and its end (the other thread takes below) */
#define ITS_NEXT 2	/* the second thread's part: the next to take */
#define ITS_END 3	/* and its end (the reading thread takes below) */
#define BATCH_SHIFT 36

struct perf_par {
	struct perf_reader *r;
	struct perf_unwind *u;		/* the second thread's */
	perf_par_fn *fn;		/* the tests': runs a job instead */
	void *fn_ctx;
	struct perf_par_job *jobs;	/* PERF_PAR_JOBS */
	atomic_uint_fast64_t claim;	/* batch, then the fields above */
	size_t n;			/* the batch's jobs (reading thread) */
	uint32_t batch;			/* the reading thread's */
	bool both;			/* the reading thread unwinds too */
	/* the reading thread's share of the jobs it unwinds, in 1/256ths
	 * times 8 (a running mean over batches) */
	uint32_t share8;
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

/*
 * A job not taken, for the reading thread (reading) or the second: from
 * the start of its own part, else from the end of the other's; its
 * index, or -1 when every job of the batch is taken; *seen the word
 * looked at.
 */
static long take(struct perf_par *p, bool reading, uint64_t *seen)
{
	uint64_t w = atomic_load_explicit(&p->claim, memory_order_acquire);
	int next = reading ? MINE_NEXT : ITS_NEXT;
	int other_end = reading ? ITS_END : MINE_END;

	for (;;) {
		uint64_t to;
		long k;

		*seen = w;
		if (FIELD(w, next) < FIELD(w, next + 1)) {
			k = FIELD(w, next);
			to = w + ((uint64_t)1 << (9 * next));
		} else if (FIELD(w, other_end - 1) < FIELD(w, other_end)) {
			k = (long)FIELD(w, other_end) - 1;
			to = w - ((uint64_t)1 << (9 * other_end));
		} else {
			return -1;
		}
		if (atomic_compare_exchange_weak_explicit(
			    &p->claim, &w, to, memory_order_acq_rel,
			    memory_order_acquire))
			return k;
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
	p->share8 = 90 * 8;	/* 35%: about what it took before */
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

/*
 * The reading thread takes its jobs from the batch's start, the second
 * thread from where the reading thread's part ends, each in order, so
 * that each unwinds runs of consecutive samples (a process's, mostly)
 * and the reading thread, adding every job's frames in order, needs
 * the second thread's last job about when that one finishes it: then
 * neither waits on the other, and the second thread is not left idle
 * while the reading thread adds the frames of the jobs it took from
 * the end (the split before this one: 65 ms a run of the 1 GB
 * recording). Each takes from the other's end when its own part is
 * done, so neither waits while a job is left (a busy machine's second
 * thread not running). The reading thread's part is its share of the
 * last batches' jobs (a running mean over about 8): what it unwound
 * beside adding every frame.
 */
void perf_par_run(struct perf_par *p, size_t n)
{
	uint64_t w = atomic_load_explicit(&p->claim, memory_order_relaxed);
	size_t mine;

	/* the last batch's share: its part, and what it took of the
	 * other's, of its jobs */
	if (p->n && p->both) {
		size_t took = FIELD(w, MINE_NEXT) + p->n - FIELD(w, ITS_END);

		p->share8 = p->share8 - p->share8 / 8 +
			    (uint32_t)(took * 256 / p->n);
	}
	mine = p->both ? (n * p->share8 / 8 + 128) / 256 : 0;
	if (mine > n)
		mine = n;
	p->n = n;
	p->batch++;
	atomic_store_explicit(&p->claim,
			      (uint64_t)p->batch << BATCH_SHIFT |
				      (uint64_t)n << (9 * ITS_END) |
				      (uint64_t)mine << (9 * ITS_NEXT) |
				      (uint64_t)mine << (9 * MINE_END),
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
