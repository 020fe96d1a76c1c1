/*
 * The records' bytes (perf_source.h).
 *
 * A plain file is mapped (the feature sections and pipe mode's feature
 * and build-id records are read there, by offset), but its records are
 * read with pread() into a window that moves along: touching the
 * mapping page by page cost a fault for each stretch of pages, which
 * on a virtual machine is a trap to the hypervisor (a third of a
 * --call-graph dwarf recording's reading time, with two passes over GBs
 * of stack dumps), and its pages stayed in the reader's memory. The
 * window holds the largest record (its size is a u16) and what is kept
 * behind it (a round or two of perf record's, in one pass); when it
 * moves, the bytes from the kept offset stay, moved to its front.
 */
#include "perf_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "perf_ahead.h"
#include "perf_reader.h"

/* The window: 1 MiB, and 4 once it has moved WINDOW_GROW_AFTER times
 * (the records read on one thread: no reading ahead, or not yet). With
 * 1 MiB, the window moved every 680 KB of the 1 GB bench recording read
 * on one thread, each time moving the 340 KB kept to its front: 585 MB
 * of memmove() a run (callgrind), 26-31 ms of 860-940 (perf record, one
 * thread); with 4 MiB, 14 ms. 4 MiB at once touched 3 MiB more in the
 * runs that start to read ahead a few ms in (perf_source_ask_again(): a
 * run right after another program), peak RSS 105 -> 108 MiB. */
#define WINDOW_SIZE ((size_t)1 << 20)
#define WINDOW_BIG ((size_t)4 << 20)
#define WINDOW_GROW_AFTER 64

/* Read ahead only in a file of some size. */
#define AHEAD_MIN_BYTES ((size_t)16 << 20)

void perf_source_init(struct perf_source *s, const struct perf_reader *r,
		      size_t start, size_t end)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	if (r->fd < 0)
		return;
	switch (r->opts->thread) {
	case READ_THREAD_OFF:
		return;
	case READ_THREAD_AUTO:
		if (end - start < AHEAD_MIN_BYTES)
			return;
		if (!spare_cpu()) {
			s->declined = true;	/* perf_source_ask_again() */
			s->end = end;
			return;
		}
		break;
	default:
		break;
	}
	s->ahead = perf_ahead_start(r->fd, start, end);
}

void perf_source_ask_again(struct perf_source *s)
{
	/* from the window's start on: what the caller keeps */
	if (!s->declined || s->ahead || !s->buf || s->end - s->off <
	    AHEAD_MIN_BYTES || !spare_cpu_beside_own())
		return;
	s->declined = false;
	s->ahead = perf_ahead_start(s->r->fd, s->off, s->end);
	s->moves++;
}

void perf_source_release(struct perf_source *s)
{
	perf_ahead_stop(s->ahead);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* The window moved to start at keep, holding [at, at + n). */
static const unsigned char *window_at(struct perf_source *s, size_t at,
				      size_t n, size_t keep)
{
	const struct perf_reader *r = s->r;
	size_t need = at + n - keep, want;

	if (need > PERF_SOURCE_KEEP_MAX) {
		perf_fail(r, keep, "more than %zu bytes of records to keep",
			  PERF_SOURCE_KEEP_MAX);
		return NULL;
	}
	s->moves++;
	s->window_moves++;
	if (need > s->cap || !s->buf ||
	    (s->window_moves >= WINDOW_GROW_AFTER && s->cap < WINDOW_BIG)) {
		size_t cap = s->cap ? s->cap : WINDOW_SIZE;

		if (s->window_moves >= WINDOW_GROW_AFTER && cap < WINDOW_BIG)
			cap = WINDOW_BIG;
		while (cap < need)
			cap *= 2;
		s->buf = xreallocarray(s->buf, cap, 1);
		s->cap = cap;
	}
	/* what the window has from keep on stays */
	if (keep >= s->off && keep < s->off + s->len) {
		s->len -= keep - s->off;
		memmove(s->buf, s->buf + (keep - s->off), s->len);
	} else {
		s->len = 0;
	}
	s->off = keep;
	want = r->len - keep < s->cap ? r->len - keep : s->cap;
	while (s->len < want) {
		ssize_t got = pread(r->fd, s->buf + s->len, want - s->len,
				    (off_t)(keep + s->len));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			perf_fail(r, keep + s->len, "cannot read the file: %s",
				  got < 0 ? strerror(errno)
					  : "it is shorter than when opened");
			return NULL;
		}
		s->len += (size_t)got;
	}
	return s->buf + (at - keep);
}

const unsigned char *perf_source_bytes_at(struct perf_source *s, size_t at,
					  size_t n, size_t keep)
{
	const unsigned char *p;

	s->span = (struct perf_ahead_span){ 0 };
	if (s->r->fd < 0)
		return s->r->data + at;
	if (s->ahead) {
		p = perf_ahead_bytes_kept(s->ahead, at, n, keep);
		if (p && !perf_ahead_joined(s->ahead, p))
			perf_ahead_span(s->ahead, at, &s->span);
		if (p)
			return p;
		/* a read failed, or more is kept than the pieces hold: on
		 * from the window, which reads the file again from keep
		 * (and says why, if it fails) */
		perf_ahead_stop(s->ahead);
		s->ahead = NULL;
		s->moves++;
	}
	if (at >= s->off && n <= s->len && at - s->off <= s->len - n)
		return s->buf + (at - s->off);
	return window_at(s, at, n, keep);
}

bool perf_source_transient(const struct perf_source *s,
			   const unsigned char *p)
{
	return s->ahead && perf_ahead_joined(s->ahead, p);
}
