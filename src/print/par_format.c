/*
 * A listing formatted by two threads and written in order (see
 * par_format.h).
 */
#include "par_format.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "linebuf.h"

/*
 * The second thread takes the odd chunks, 1, 3, 5, ..., the k-th of
 * them into buffer k % 2; this thread writes buffer k % 2 after its own
 * chunk 2k, and gives it back.
 */
struct par_state {
	const struct par_format *pf;
	size_t n;
	const size_t *bounds;	/* chunk c is units [bounds[c], bounds[c + 1]) */
	size_t nchunks;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct linebuf buf[2];
	bool ready[2];		/* buffer holds text not yet written */
};

static void format_chunk(const struct par_state *st, void *ctx, size_t c,
			 struct linebuf *lb)
{
	for (size_t i = st->bounds[c]; i < st->bounds[c + 1]; i++)
		st->pf->format(ctx, st->pf->shared, i, lb);
}

/* Where each chunk starts, and n at the end; returns how many chunks. */
static size_t cut_chunks(const struct par_format *pf, size_t n,
			 size_t **bounds)
{
	size_t nb = 0, alloc = n / pf->chunk + 2, i = 0;

	*bounds = xreallocarray(NULL, alloc, sizeof(**bounds));
	while (i < n) {
		size_t end = n - i > pf->chunk ? i + pf->chunk : n;

		if (pf->weight) {
			size_t w = 0, j = i;

			do	/* a unit at least, however heavy */
				w += pf->weight(pf->ctx[0], pf->shared, j++);
			while (j < end && w < pf->max_weight);
			end = j;
		}
		ARRAY_GROW(*bounds, nb + 2, alloc);
		(*bounds)[nb++] = i;
		i = end;
	}
	ARRAY_GROW(*bounds, nb + 1, alloc);
	(*bounds)[nb] = n;
	return nb;
}

static void *odd_chunks(void *arg)
{
	struct par_state *st = arg;

	for (size_t c = 1, k = 0; c < st->nchunks; c += 2, k++) {
		struct linebuf *lb = &st->buf[k % 2];

		pthread_mutex_lock(&st->lock);
		while (st->ready[k % 2])
			pthread_cond_wait(&st->cond, &st->lock);
		pthread_mutex_unlock(&st->lock);
		format_chunk(st, st->pf->ctx[1], c, lb);
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
	size_t *bounds;
	pthread_t thread;

	if (n < pf->min_units || n <= pf->chunk) {
		run_alone(pf, out, n);
		return;
	}
	st.nchunks = cut_chunks(pf, n, &bounds);
	st.bounds = bounds;
	pthread_mutex_init(&st.lock, NULL);
	pthread_cond_init(&st.cond, NULL);
	if (pthread_create(&thread, NULL, odd_chunks, &st)) {
		/* no thread to be had: the same text from this one */
		pthread_cond_destroy(&st.cond);
		pthread_mutex_destroy(&st.lock);
		free(bounds);
		run_alone(pf, out, n);
		return;
	}
	for (size_t c = 0, k = 0; c < st.nchunks; c += 2, k++) {
		struct linebuf *lb = &st.buf[k % 2];

		format_chunk(&st, pf->ctx[0], c, &own);
		write_out(&own, out);
		if (c + 1 == st.nchunks)
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
	free(bounds);
}
