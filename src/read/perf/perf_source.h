/*
 * Where perf_records.c takes the records' bytes from: the mapped data
 * of a copy, or a plain file's pread() into a window that moves along,
 * or pieces read ahead on a second thread (perf_ahead.h). A caller
 * reading in one pass also keeps the bytes of the samples it holds
 * (perf_pending.h) from an offset on, and asks for them again later.
 */
#ifndef CGA_PERF_SOURCE_H
#define CGA_PERF_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "perf_ahead.h"

struct perf_reader;

struct perf_source {
	const struct perf_reader *r;
	struct perf_ahead *ahead;	/* NULL: none, or stopped */
	unsigned char *buf;		/* the window */
	size_t off, len, cap;		/* the file's [off, off + len) */
	/* times the bytes answered before may have moved: the window
	 * read again, or the reading ahead stopped */
	unsigned moves;
	unsigned window_moves;	/* the window's own (WINDOW_BIG) */
	/* no processor was free to read ahead at the start: asked again
	 * (perf_source_ask_again()) up to end */
	bool declined;
	size_t end;
	/* the piece read ahead that answered last, which answers the next
	 * records of it inline (lo == hi: none) */
	struct perf_ahead_span span;
};

/* For the records in [start, end) of r's file; reads ahead when a
 * processor is free for it (spare_cpu(); CGANALYZE_READER_THREAD=1
 * always, 0 never). */
void perf_source_init(struct perf_source *s, const struct perf_reader *r,
		      size_t start, size_t end);
void perf_source_release(struct perf_source *s);

/* Where no processor was free to read ahead at the start, asks again
 * (spare_cpu_beside_own()), and if one is now, reads ahead from the
 * window's start on: the bytes answered before may move. */
void perf_source_ask_again(struct perf_source *s);

/*
 * The n bytes at file offset at (which the file holds), valid until
 * the next call; keep (at most at) is the lowest offset the caller
 * will ask for again: the bytes from it on stay to be had. NULL after
 * perf_fail() (a read error; or more than PERF_SOURCE_KEEP_MAX bytes
 * to keep).
 */
const unsigned char *perf_source_bytes_at(struct perf_source *s, size_t at,
					  size_t n, size_t keep);

/* perf_source_bytes_at() inline where the last piece read ahead holds
 * the bytes: 650,000 records of the 1 GB bench recording each took a
 * call into perf_ahead_bytes_kept()'s checks, 96 instructions. */
static inline const unsigned char *perf_source_bytes(struct perf_source *s,
						     size_t at, size_t n,
						     size_t keep)
{
	const struct perf_ahead_span *sp = &s->span;

	if (at >= sp->lo && at < sp->hi && n - 1 < sp->hi - at &&
	    n <= PERF_AHEAD_RECORD_MAX && keep >= sp->keep_lo &&
	    keep < sp->keep_hi && keep <= at)
		return sp->base + (at - sp->lo);
	return perf_source_bytes_at(s, at, n, keep);
}

/*
 * Whether p, perf_source_bytes()'s last answer, is in a buffer the
 * next answer may take over (a record across two pieces read ahead);
 * else it stays valid, while s->moves stays the same, as long as its
 * offset is kept: a caller holding several records' bytes at once
 * copies such an answer.
 */
bool perf_source_transient(const struct perf_source *s,
			   const unsigned char *p);

#define PERF_SOURCE_KEEP_MAX ((size_t)64 << 20)

#endif
