/*
 * A perf.data read ahead on a second thread (see perf_ahead.h).
 *
 * The file's [start, end) is read in pieces of PIECE bytes, piece k
 * into buffer k % PIECES, by one thread, while the main thread takes
 * the records out of the pieces read before. The main thread holds the
 * piece of the offset it last asked to keep (perf_ahead_bytes_kept();
 * else of the offset asked for) and those after it up to the one asked
 * for and the next (a record may cross into it: the two parts are
 * joined in a buffer of its own); the thread reads at most PIECES - 1
 * pieces past the first one held.
 */
#include "perf_ahead.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"

#define PIECE ((size_t)1 << 20)
/* Up to 5 MiB kept behind a record: a reader in one pass keeps the
 * samples of a round or two of perf record's (a few hundred KB). */
#define PIECES 6
/* A record's size is a u16: one crosses at most into the next piece. */
#define RECORD_MAX 65536
_Static_assert(RECORD_MAX <= PIECE, "a record spans at most two pieces");

struct piece {
	size_t index;		/* SIZE_MAX: none yet */
	size_t len;
	bool failed;		/* a read error, or the file ended early */
};

struct perf_ahead {
	int fd;
	size_t start, end;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned char *buf[PIECES];
	struct piece pieces[PIECES];	/* under lock */
	size_t held;		/* the first piece the main thread holds */
	/* the main thread's own: pieces [held, seen) were read, and stay
	 * (the thread reads over only pieces before held), so they are
	 * taken without the lock, whose line would go back and forth
	 * between the processors twice a record */
	size_t seen;
	bool started;		/* the thread was made */
	bool stop, done;	/* asked to stop; the thread has ended */
	unsigned char *joined;	/* a record across two pieces */
};

/* Piece k's bytes into buf: how many, and whether all came. */
static size_t read_piece(const struct perf_ahead *a, size_t k,
			 unsigned char *buf, bool *failed)
{
	size_t off = a->start + k * PIECE, len = 0;
	size_t want = a->end - off < PIECE ? a->end - off : PIECE;

	*failed = false;
	while (len < want) {
		ssize_t got = pread(a->fd, buf + len, want - len,
				    (off_t)(off + len));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			*failed = true;
			break;
		}
		len += (size_t)got;
	}
	return len;
}

static void *reader(void *arg)
{
	struct perf_ahead *a = arg;

	pthread_mutex_lock(&a->lock);
	for (size_t k = 0; a->start + k * PIECE < a->end; k++) {
		struct piece p = { k, 0, false };

		while (!a->stop && k >= a->held + PIECES)
			pthread_cond_wait(&a->changed, &a->lock);
		if (a->stop)
			break;
		pthread_mutex_unlock(&a->lock);
		p.len = read_piece(a, k, a->buf[k % PIECES], &p.failed);
		pthread_mutex_lock(&a->lock);
		a->pieces[k % PIECES] = p;
		pthread_cond_broadcast(&a->changed);
		if (p.failed)
			break;
	}
	a->done = true;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

struct perf_ahead *perf_ahead_start(int fd, size_t start, size_t end)
{
	struct perf_ahead *a = xcalloc(1, sizeof(*a));

	a->fd = fd;
	a->start = start;
	a->end = end;
	for (size_t i = 0; i < PIECES; i++) {
		a->buf[i] = xmalloc(PIECE);
		a->pieces[i].index = SIZE_MAX;
	}
	a->joined = xmalloc(RECORD_MAX);
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->changed, NULL);
	if (pthread_create(&a->thread, NULL, reader, a) != 0) {
		perf_ahead_stop(a);
		return NULL;
	}
	a->started = true;
	return a;
}

/* Piece k once read (under lock): NULL when it never will be. */
static const struct piece *wait_piece(struct perf_ahead *a, size_t k)
{
	const struct piece *p = &a->pieces[k % PIECES];

	while (p->index != k) {
		if (a->done)
			return NULL;
		pthread_cond_wait(&a->changed, &a->lock);
	}
	return p->failed ? NULL : p;
}

const unsigned char *perf_ahead_bytes(struct perf_ahead *a, size_t at,
				      size_t n)
{
	return perf_ahead_bytes_kept(a, at, n, at);
}

const unsigned char *perf_ahead_bytes_kept(struct perf_ahead *a, size_t at,
					   size_t n, size_t keep)
{
	size_t k, last, in, kept;
	const struct piece *p, *q = NULL;

	if (keep < a->start || keep > at || n > RECORD_MAX ||
	    at + n > a->end || !n)
		return NULL;
	k = (at - a->start) / PIECE;
	last = (at + n - 1 - a->start) / PIECE;
	kept = (keep - a->start) / PIECE;
	in = at - (a->start + k * PIECE);
	if (kept == a->held && last < a->seen) {
		p = &a->pieces[k % PIECES];
		q = &a->pieces[last % PIECES];
		goto got;
	}
	pthread_mutex_lock(&a->lock);
	if (kept < a->held || last >= kept + PIECES) {
		pthread_mutex_unlock(&a->lock);
		return NULL;		/* not asked in rising order, or
					 * more kept than the pieces hold */
	}
	if (kept > a->held) {
		a->held = kept;
		pthread_cond_broadcast(&a->changed);
	}
	p = wait_piece(a, k);
	if (p && last != k)
		q = wait_piece(a, last);
	/* the pieces are read in order: up to last, all were */
	if (p && (last == k || q) && last + 1 > a->seen)
		a->seen = last + 1;
	pthread_mutex_unlock(&a->lock);
	if (!p || (last != k && !q))
		return NULL;
got:
	if (last == k)
		return in + n <= p->len ? a->buf[k % PIECES] + in : NULL;
	if (p->len != PIECE || n - (PIECE - in) > q->len)
		return NULL;
	memcpy(a->joined, a->buf[k % PIECES] + in, PIECE - in);
	memcpy(a->joined + (PIECE - in), a->buf[last % PIECES],
	       n - (PIECE - in));
	return a->joined;
}

bool perf_ahead_joined(const struct perf_ahead *a, const unsigned char *p)
{
	return p == a->joined;
}

void perf_ahead_stop(struct perf_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	if (a->started)
		pthread_join(a->thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->changed);
	for (size_t i = 0; i < PIECES; i++)
		free(a->buf[i]);
	free(a->joined);
	free(a);
}
