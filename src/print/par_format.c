/*
 * A listing formatted by two threads and written in order (see
 * par_format.h).
 */
#include "par_format.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "linebuf.h"

/*
 * The second thread takes the odd chunks, 1, 3, 5, ..., the k-th of
 * them into buffer k % 2; this thread writes buffer k % 2 after its own
 * chunk 2k, and gives it back.
 */
struct par_state {
	const struct par_format *pf;
	size_t n;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct linebuf buf[2];
	bool ready[2];		/* buffer holds text not yet written */
};

static void format_chunk(const struct par_format *pf, void *ctx, size_t c,
			 size_t n, struct linebuf *lb)
{
	size_t end = (c + 1) * pf->chunk < n ? (c + 1) * pf->chunk : n;

	for (size_t i = c * pf->chunk; i < end; i++)
		pf->format(ctx, pf->shared, i, lb);
}

static void *odd_chunks(void *arg)
{
	struct par_state *st = arg;
	size_t nchunks = (st->n + st->pf->chunk - 1) / st->pf->chunk;

	for (size_t c = 1, k = 0; c < nchunks; c += 2, k++) {
		struct linebuf *lb = &st->buf[k % 2];

		pthread_mutex_lock(&st->lock);
		while (st->ready[k % 2])
			pthread_cond_wait(&st->cond, &st->lock);
		pthread_mutex_unlock(&st->lock);
		format_chunk(st->pf, st->pf->ctx[1], c, st->n, lb);
		pthread_mutex_lock(&st->lock);
		st->ready[k % 2] = true;
		pthread_cond_broadcast(&st->cond);
		pthread_mutex_unlock(&st->lock);
	}
	return NULL;
}

/*
 * Write out a chunk's text and empty the buffer; one that an entry made
 * large (a cycle of thousands of members lists them all) is freed, not
 * kept at that size for every chunk after it in both threads.
 */
static void write_out(struct linebuf *lb, FILE *out)
{
	lb_flush(lb, out);
	if (lb->alloc > (size_t)1 << 20)
		lb_free(lb);
}

static void run_alone(const struct par_format *pf, FILE *out, size_t n)
{
	struct linebuf lb = { 0 };

	for (size_t i = 0; i < n; i++) {
		pf->format(pf->ctx[0], pf->shared, i, &lb);
		if (lb.len >= 1 << 16)
			write_out(&lb, out);
	}
	lb_flush(&lb, out);
	lb_free(&lb);
}

void par_format_run(const struct par_format *pf, FILE *out, size_t n)
{
	struct par_state st = { .pf = pf, .n = n };
	struct linebuf own = { 0 };
	pthread_t thread;
	size_t nchunks;

	if (n < pf->min_units || n <= pf->chunk) {
		run_alone(pf, out, n);
		return;
	}
	pthread_mutex_init(&st.lock, NULL);
	pthread_cond_init(&st.cond, NULL);
	if (pthread_create(&thread, NULL, odd_chunks, &st)) {
		/* no thread to be had: the same text from this one */
		pthread_cond_destroy(&st.cond);
		pthread_mutex_destroy(&st.lock);
		run_alone(pf, out, n);
		return;
	}
	nchunks = (n + pf->chunk - 1) / pf->chunk;
	for (size_t c = 0, k = 0; c < nchunks; c += 2, k++) {
		struct linebuf *lb = &st.buf[k % 2];

		format_chunk(pf, pf->ctx[0], c, n, &own);
		write_out(&own, out);
		if (c + 1 == nchunks)
			break;
		pthread_mutex_lock(&st.lock);
		while (!st.ready[k % 2])
			pthread_cond_wait(&st.cond, &st.lock);
		pthread_mutex_unlock(&st.lock);
		/* the thread does not touch a ready buffer */
		write_out(lb, out);
		pthread_mutex_lock(&st.lock);
		st.ready[k % 2] = false;
		pthread_cond_broadcast(&st.cond);
		pthread_mutex_unlock(&st.lock);
	}
	pthread_join(thread, NULL);
	pthread_cond_destroy(&st.cond);
	pthread_mutex_destroy(&st.lock);
	lb_free(&own);
	lb_free(&st.buf[0]);
	lb_free(&st.buf[1]);
}
