/*
 * read/perf/perf_ahead.c: a file read ahead on a second thread gives
 * the bytes the file has, across its pieces (1 MiB) and where a range
 * crosses from one into the next; and NULL, for the caller to read
 * itself, where they cannot be had (past the file's end, asked for out
 * of order).
 */
#include "helpers.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/perf/perf_ahead.h"

#define MIB ((size_t)1 << 20)

static unsigned char *pattern(size_t n)
{
	unsigned char *b = malloc(n);

	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 2654435761u >> 13);
	return b;
}

/* A temporary file of len bytes of pattern(), open: each test's
 * prologue and epilogue (ahead_file_open(), ahead_file_close()) */
struct ahead_file {
	unsigned char *data;
	char *path;
	int fd;
};

static struct ahead_file ahead_file_open(size_t len)
{
	struct ahead_file f;

	f.data = pattern(len);
	f.path = write_temp(f.data, len);
	f.fd = open(f.path, O_RDONLY);
	assert_true(f.fd >= 0);
	return f;
}

static void ahead_file_close(struct ahead_file *f)
{
	close(f->fd);
	remove_temp(f->path);
	free(f->data);
}

/* Records of n bytes from start to len asked for in turn, each with
 * the bytes from lag behind it kept, as a reader in one pass keeps its
 * held samples: each answer the file's bytes. */
static void read_kept(struct perf_ahead *a, const unsigned char *data,
		      size_t start, size_t len, size_t n, size_t lag)
{
	for (size_t at = start; at + n <= len; at += n) {
		size_t keep = at - start > lag ? at - lag : start;

		assert_memory_equal(perf_ahead_bytes_kept(a, at, n, keep),
				    data + at, n);
	}
}

/* ranges like a walk over records: rising, some crossing a piece's end */
static void test_ahead_bytes(void **state)
{
	size_t len = 3 * MIB + 12345, start = 100;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;
	size_t at = start;
	unsigned seed = 7;
	int crossed = 0;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	while (at < len) {
		size_t n = 8 + (seed = seed * 1103515245u + 12345u) % 9000;
		const unsigned char *p;

		if (n > len - at)
			n = len - at;
		p = perf_ahead_bytes(a, at, n);
		assert_non_null(p);
		assert_memory_equal(p, data + at, n);
		/* the header, then the whole record, as the reader asks */
		assert_memory_equal(perf_ahead_bytes(a, at, 8 < n ? 8 : n),
				    data + at, 8 < n ? 8 : n);
		if ((at - start) / MIB != (at + n - 1 - start) / MIB)
			crossed++;
		at += n;
	}
	assert_true(crossed >= 3);
	/* back to an earlier piece: not kept */
	assert_null(perf_ahead_bytes(a, start, 8));
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/* a file shorter than the range asked for (cut while read): the bytes
 * that are there, then NULL */
static void test_ahead_short_file(void **state)
{
	size_t len = MIB + 500;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;

	(void)state;
	a = perf_ahead_start(f.fd, 0, 2 * MIB);
	assert_non_null(a);
	assert_memory_equal(perf_ahead_bytes(a, 10, 100), data + 10, 100);
	assert_null(perf_ahead_bytes(a, MIB + 400, 200));
	perf_ahead_stop(a);
	/* stopped before anything was asked */
	perf_ahead_stop(perf_ahead_start(f.fd, 0, len));
	ahead_file_close(&f);
}

/*
 * A reader in one pass keeps the records it holds (a round or two of
 * perf's) and asks for them again later: the bytes from keep on are
 * still there however far on it has read, within what the pieces hold
 * (PERF_AHEAD_PIECES - 1 MiB past keep's); past that NULL, for the
 * caller to read itself.
 */
static void test_ahead_kept(void **state)
{
	size_t len = (PERF_AHEAD_PIECES + 12) * MIB, start = 64;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;
	size_t keep = start;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	/* read on 8 KB at a time, keeping what is 1.5 MiB behind */
	for (size_t at = start; at + 8192 <= 10 * MIB; at += 8192) {
		if (at - keep > 3 * MIB / 2)
			keep += 8192;
		assert_memory_equal(perf_ahead_bytes_kept(a, at, 8192, keep),
				    data + at, 8192);
		/* the kept record, asked for again */
		assert_memory_equal(perf_ahead_bytes_kept(a, keep, 8192, keep),
				    data + keep, 8192);
	}
	/* kept further back than before: not kept */
	assert_null(perf_ahead_bytes_kept(a, keep, 8, keep - MIB));
	/* more kept than the pieces hold */
	assert_null(perf_ahead_bytes_kept(a, keep + (PERF_AHEAD_PIECES + 1) * MIB,
					  8, keep));
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * The span of a single-piece answer (perf_ahead_span(), what
 * perf_source_bytes() answers from inline): its piece whole, at the
 * file's bytes, its keep range the piece held first; never for a joined
 * answer.
 */
static void test_ahead_span(void **state)
{
	size_t len = 5 * MIB + 777, start = 40;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;
	size_t keep = start, spans = 0;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	for (size_t at = start; at + 9000 <= len; at += 9000) {
		const unsigned char *p;
		struct perf_ahead_span sp;

		if (at - keep > MIB)
			keep += 9000;
		p = perf_ahead_bytes_kept(a, at, 9000, keep);
		assert_non_null(p);
		assert_memory_equal(p, data + at, 9000);
		if (perf_ahead_joined(a, p))
			continue;
		perf_ahead_span(a, at, &sp);
		spans++;
		assert_true(sp.lo <= at && at + 9000 <= sp.hi);
		assert_true(sp.hi - sp.lo <= MIB && sp.hi <= len);
		assert_true((sp.lo - start) % MIB == 0);
		assert_true(sp.keep_lo <= keep && keep < sp.keep_hi);
		assert_int_equal(sp.keep_hi - sp.keep_lo, MIB);
		assert_memory_equal(sp.base, data + sp.lo, sp.hi - sp.lo);
		assert_ptr_equal(sp.base + (at - sp.lo), p);
	}
	assert_true(spans > 400);
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * What a batch of held samples takes (perf_records.c's read_held()):
 * with keep where the batch starts, the answers for its records stay
 * valid together, all but those joined across two pieces, which
 * perf_ahead_joined() tells and the next joined answer takes over.
 */
static void test_ahead_held_together(void **state)
{
	size_t len = 8 * MIB, start = 64, keep = start + MIB / 2;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	const unsigned char *got[600];
	size_t offs[600], n = 0, joined = 0;
	struct perf_ahead *a;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	for (size_t at = keep; at + 8200 <= keep + 4 * MIB; at += 8200) {
		const unsigned char *p = perf_ahead_bytes_kept(a, at, 8200, keep);
		bool crosses = (at - start) / MIB != (at + 8199 - start) / MIB;

		assert_non_null(p);
		assert_int_equal(perf_ahead_joined(a, p), crosses);
		joined += crosses;
		offs[n] = at;
		got[n++] = crosses ? NULL : p;
	}
	assert_true(joined >= 3);
	/* every answer not joined still holds its bytes */
	for (size_t i = 0; i < n; i++)
		if (got[i])
			assert_memory_equal(got[i], data + offs[i], 8200);
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * Every piece read with O_DIRECT where the file system takes it (the
 * device's blocks, from before the range's start; its end inside a
 * block, and the file's): the same bytes. Elsewhere (tmpfs) read as
 * always.
 */
static void test_ahead_direct(void **state)
{
	size_t len = 3 * MIB + 777, start = 4096 + 100;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;
	int direct;

	(void)state;
	setenv("CGANALYZE_READ_DIRECT", "all", 1);
	a = perf_ahead_start(f.fd, start, len - 500);
	unsetenv("CGANALYZE_READ_DIRECT");
	assert_non_null(a);
	for (size_t at = start; at < len - 500; at += 5000) {
		size_t n = len - 500 - at < 5000 ? len - 500 - at : 5000;

		assert_memory_equal(perf_ahead_bytes(a, at, n), data + at, n);
	}
	assert_null(perf_ahead_bytes(a, len - 500, 1));
	/* every piece direct where the file system takes O_DIRECT: the
	 * guard must not have stopped them (3 pieces here) */
	direct = open(f.path, O_RDONLY | O_DIRECT);
	if (direct >= 0) {
		assert_int_equal(perf_ahead_direct_reads(a), 3);
		close(direct);
	}
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * Both threads reading (the direct reads from DIRECT_AHEAD pieces past
 * the one asked for, the copying thread the nearer ones): 20 pieces and
 * a bit, taken in records of 5,000 bytes, each kept until the next; the
 * bytes are the file's whichever thread read them, and the direct
 * reads are no more than the pieces.
 */
static void test_ahead_two_readers(void **state)
{
	size_t len = 20 * MIB + 777, start = 300;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	for (size_t at = start; at < len; at += 5000) {
		size_t n = len - at < 5000 ? len - at : 5000;

		assert_memory_equal(perf_ahead_bytes(a, at, n), data + at, n);
	}
	assert_true(perf_ahead_direct_reads(a) <= 21);
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * The memory the reading touches: with little kept (records asked for
 * in order, each kept until the next), the pieces are read at most
 * PERF_AHEAD_LIGHT from the first held on, and the buffers given back
 * are taken again, so that 24 pieces go through no more than that and
 * one more buffer; with 12 MiB kept, as many more as that holds.
 */
static void test_ahead_buffers_used(void **state)
{
	size_t len = 24 * MIB + 99, start = 10, used;
	struct ahead_file f = ahead_file_open(len);
	const unsigned char *data = f.data;
	struct perf_ahead *a;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	for (size_t at = start; at + 7000 <= len; at += 7000) {
		assert_memory_equal(perf_ahead_bytes(a, at, 7000), data + at,
				    7000);
		/* a slow reader of the records: the threads get as far
		 * ahead as they may */
		if ((at - start) / MIB != (at + 7000 - start) / MIB)
			usleep(20000);
	}
	used = perf_ahead_buffers_used(a);
	assert_true(used >= 2);
	assert_true(used <= PERF_AHEAD_LIGHT + 1);
	perf_ahead_stop(a);

	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	read_kept(a, data, start, len, 7000, 12 * MIB);
	used = perf_ahead_buffers_used(a);
	assert_true(used >= 13);
	assert_true(used <= PERF_AHEAD_PIECES);
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * A reader that keeps all but a few of the pieces (its records 13.5
 * MiB behind the one it asks for): the reading threads, woken for room
 * only once PERF_AHEAD_PIECES - 12 pieces are free (perf_ahead.c's
 * WAKE_ROOM), must still be woken for the pieces it asks for next, or
 * it would wait for them for ever.
 */
static void test_ahead_little_room(void **state)
{
	size_t len = (PERF_AHEAD_PIECES + 16) * MIB, start = 200;
	size_t lag = (PERF_AHEAD_PIECES - 3) * MIB + MIB / 2;
	struct ahead_file f = ahead_file_open(len);
	struct perf_ahead *a;

	(void)state;
	a = perf_ahead_start(f.fd, start, len);
	assert_non_null(a);
	read_kept(a, f.data, start, len, 6000, lag);
	perf_ahead_stop(a);
	ahead_file_close(&f);
}

/*
 * A read's time on the device is its wall time less the thread's wait
 * for a processor meanwhile; a wait that went back or passed the wall
 * time (a counter that cannot be trusted) leaves the wall time.
 */
static void test_ahead_device_time(void **state)
{
	(void)state;
	assert_int_equal(perf_ahead_device_ns(1000, 1000 + 9000000, 50,
					      50 + 8500000),
			 500000);
	assert_int_equal(perf_ahead_device_ns(1000, 601000, 7, 7), 600000);
	assert_int_equal(perf_ahead_device_ns(1000, 601000, 7, 3), 600000);
	assert_int_equal(perf_ahead_device_ns(1000, 601000, 0, 700000),
			 600000);
	assert_int_equal(perf_ahead_device_ns(0, 0, 0, 0), 0);
}

/*
 * The guard: one slow read among the first 8 (9 ms among reads of 0.6,
 * as this machine's device gives at times) leaves the direct reads on;
 * a device slow on every read, or one stalled read, stops them.
 */
static void test_ahead_direct_guard(void **state)
{
	uint64_t counted = 0;
	size_t reads = 0;

	(void)state;
	for (int i = 0; i < 7; i++)
		assert_false(perf_ahead_direct_slow(++reads, &counted, 600000));
	assert_false(perf_ahead_direct_slow(++reads, &counted, 9000000));
	for (int i = 0; i < 100; i++)
		assert_false(perf_ahead_direct_slow(++reads, &counted, 600000));

	counted = 0;
	reads = 0;
	for (int i = 0; i < 7; i++)
		assert_false(perf_ahead_direct_slow(++reads, &counted, 2000000));
	assert_true(perf_ahead_direct_slow(++reads, &counted, 2000000));

	counted = 0;
	assert_true(perf_ahead_direct_slow(1, &counted, 60000000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ahead_bytes),
		cmocka_unit_test(test_ahead_short_file),
		cmocka_unit_test(test_ahead_kept),
		cmocka_unit_test(test_ahead_span),
		cmocka_unit_test(test_ahead_held_together),
		cmocka_unit_test(test_ahead_direct),
		cmocka_unit_test(test_ahead_direct_guard),
		cmocka_unit_test(test_ahead_two_readers),
		cmocka_unit_test(test_ahead_little_room),
		cmocka_unit_test(test_ahead_buffers_used),
		cmocka_unit_test(test_ahead_device_time),
	};

	return cmocka_run_group_tests(tests, 0, NULL);
}
