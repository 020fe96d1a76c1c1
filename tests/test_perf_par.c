/*
 * The hand-over of a batch's jobs between the reading thread and the
 * second unwinder's (src/read/perf/perf_par.c), without a recording:
 * jobs whose work is a test function's. Thousands of batches of every
 * size, some ended early (perf_par_drain()), some after a pause that
 * lets the second thread sleep: every job of a batch must be run once,
 * by one thread, and only while its batch runs; each perf_par_wait()
 * must answer with its own job, done (one never done: the alarm). Run under TSan (make
 * SANITIZE=thread) as well: a job read before it is published or done
 * is a race there.
 */
#include "helpers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "read/perf/perf_par.h"

#define BATCHES 4000

struct ctx {
	pthread_t reading;		/* the thread calling perf_par_wait() */
	atomic_uint batch;		/* the batch running */
	atomic_uint runs[PERF_PAR_JOBS];	/* of this batch's jobs */
	atomic_uint wrong;		/* jobs run twice, or of another batch */
	atomic_uint by_reading, by_other;
};

/* A job's answer: what its work leaves in n. */
static size_t answer(uint32_t gen)
{
	return (size_t)gen * 2654435761u + 1;
}

static void job(void *vc, struct perf_par_job *j)
{
	struct ctx *c = vc;
	uint32_t b = j->gen >> 16, i = j->gen & 0xffffu;
	volatile unsigned sink = 0;

	/* a job not yet run holds SIZE_MAX: one run twice does not */
	if (b != atomic_load(&c->batch) || i >= PERF_PAR_JOBS ||
	    j->n != SIZE_MAX)
		atomic_fetch_add(&c->wrong, 1);
	else
		atomic_fetch_add(&c->runs[i], 1);
	if (pthread_equal(pthread_self(), c->reading))
		atomic_fetch_add(&c->by_reading, 1);
	else
		atomic_fetch_add(&c->by_other, 1);
	/* work of uneven lengths, as samples' unwinding is */
	for (unsigned k = 0; k < (i * 7 + b) % 97 * 8; k++)
		sink += k;
	j->n = answer(j->gen);
}

static void batches(bool both)
{
	static struct ctx c;
	struct perf_par *p;

	memset(&c, 0, sizeof(c));
	c.reading = pthread_self();
	p = perf_par_start_fn(job, &c, both);
	assert_non_null(p);
	for (uint32_t b = 1; b <= BATCHES; b++) {
		/* every size from 1 to PERF_PAR_JOBS */
		size_t n = 1 + (size_t)b * 37 % PERF_PAR_JOBS;
		bool early = b % 7 == 0;

		atomic_store(&c.batch, b);
		for (size_t i = 0; i < n; i++) {
			struct perf_par_job *j = perf_par_job(p, i);

			j->gen = b << 16 | (uint32_t)i;
			j->n = SIZE_MAX;
			j->unwind = true;
		}
		perf_par_run(p, n);
		for (size_t i = 0; i < (early ? n / 2 : n); i++) {
			const struct perf_par_job *j = perf_par_wait(p, i);

			assert_int_equal(j->gen, b << 16 | (uint32_t)i);
			assert_true(j->n == answer(j->gen));
		}
		if (early)
			perf_par_drain(p);
		for (size_t i = 0; i < PERF_PAR_JOBS; i++) {
			assert_int_equal(atomic_load(&c.runs[i]), i < n);
			atomic_store(&c.runs[i], 0);
		}
		assert_int_equal(atomic_load(&c.wrong), 0);
		/* now and then, long enough for the other thread to sleep */
		if (b % 100 == 0)
			usleep(300);
	}
	perf_par_stop(p);
	assert_int_equal(atomic_load(&c.wrong), 0);
	if (!both)
		assert_int_equal(atomic_load(&c.by_reading), 0);
	assert_true(atomic_load(&c.by_reading) + atomic_load(&c.by_other) > 0);
}

/* Both threads take jobs (the default). */
static void test_both(void **state)
{
	(void)state;
	batches(true);
}

/* The second thread alone (CGANALYZE_UNWIND_THREAD=alone). */
static void test_alone(void **state)
{
	(void)state;
	batches(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both),
		cmocka_unit_test(test_alone),
	};

	/* a job lost would leave perf_par_wait() waiting: fail instead */
	alarm(120);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
