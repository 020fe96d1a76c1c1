/*
 * A perf.data's records read ahead on other threads (issue 33): the
 * kernel's copy of the file into our buffers (pread(), a sixth of the
 * reading's time on a --call-graph dwarf recording, both passes) is
 * done there while the main thread takes the records of the piece
 * before; and with O_DIRECT, by a second reading thread, there is no
 * copy (the device's DMA) for the pieces far enough ahead of the main
 * thread. The main thread asks for bytes at rising offsets, as
 * perf_read_records() walks the records.
 */
#ifndef CGA_PERF_AHEAD_H
#define CGA_PERF_AHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perf_ahead;

/* How many pieces of 1 MiB may be held at once (each piece's buffer
 * from a pool of as many, perf_ahead.c). */
#define PERF_AHEAD_PIECES 16
/* How many pieces the threads read: up to PERF_AHEAD_LIGHT from the
 * first held on, or PERF_AHEAD_READ_AHEAD past the one last asked for
 * where more is kept. */
#define PERF_AHEAD_LIGHT 8
#define PERF_AHEAD_READ_AHEAD 5

/*
 * Threads reading [start, end) of the file fd in pieces, a few ahead
 * of the one asked for (one more for O_DIRECT where the file system
 * takes it); NULL when they cannot start (the caller reads the file
 * itself).
 */
struct perf_ahead *perf_ahead_start(int fd, size_t start, size_t end);

/*
 * The n bytes at offset at (at least the last call's at, and within
 * [start, end)), valid until the next call; NULL when they could not
 * be read (a read error, a file shorter than it was): the caller reads
 * them itself, and says why.
 */
const unsigned char *perf_ahead_bytes(struct perf_ahead *a, size_t at,
				      size_t n);

/*
 * The same, and the bytes from keep on (keep at most at, and at least
 * the last call's keep) stay to be asked for again: the pieces from
 * keep's are not read over. NULL too when [keep, at + n) spans more
 * pieces than there are.
 */
const unsigned char *perf_ahead_bytes_kept(struct perf_ahead *a, size_t at,
					   size_t n, size_t keep);

/*
 * The piece a single-piece answer of perf_ahead_bytes_kept() came from:
 * the file's [lo, hi) at base, which answers the same call for every
 * at, n within it (n at most PERF_AHEAD_RECORD_MAX) while keep stays in
 * [keep_lo, keep_hi), the piece held first, with no call (the reading
 * threads read over neither while it is held). Good until the next
 * call that is not so answered.
 */
struct perf_ahead_span {
	size_t lo, hi, keep_lo, keep_hi;
	const unsigned char *base;
};

#define PERF_AHEAD_RECORD_MAX 65536

/* The span of the piece at is in, right after an answer for at that
 * was not joined (perf_ahead_joined()). */
void perf_ahead_span(const struct perf_ahead *a, size_t at,
		     struct perf_ahead_span *span);

/* Whether p, an answer of the last call, is the buffer a record
 * crossing two pieces is joined in, which the next such record takes
 * over: the bytes of the pieces themselves stay while they are kept. */
bool perf_ahead_joined(const struct perf_ahead *a, const unsigned char *p);

/* How many pieces the thread has read with O_DIRECT (the tests';
 * asked once the reading is done). */
size_t perf_ahead_direct_reads(const struct perf_ahead *a);

/* How many of the pool's buffers have been read into (the memory the
 * reading has touched: a MiB each). */
size_t perf_ahead_buffers_used(struct perf_ahead *a);

/*
 * A read's time on the device, from its wall time t0 to t1 (ns) and
 * the thread's time waiting for a processor before (delay0) and after
 * (delay1): the wall time less that wait, or the wall time when the
 * waits make no sense.
 */
uint64_t perf_ahead_device_ns(uint64_t t0, uint64_t t1, uint64_t delay0,
			      uint64_t delay1);

/*
 * Whether the direct reads stop, as the thread asks after each: the
 * reads-th read took ns on the device, and *counted (the reads' time
 * so far, each counted up to a limit, so that one slow read among fast
 * ones does not stop them) is added to.
 */
bool perf_ahead_direct_slow(size_t reads, uint64_t *counted, uint64_t took);

/* Stops the thread and frees everything (NULL: nothing). */
void perf_ahead_stop(struct perf_ahead *a);

#endif
