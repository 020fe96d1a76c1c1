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

/* ranges like a walk over records: rising, some crossing a piece's end */
static void test_ahead_bytes(void **state)
{
	size_t len = 3 * MIB + 12345, start = 100;
	unsigned char *data = pattern(len);
	char *path = write_temp(data, len);
	int fd = open(path, O_RDONLY);
	struct perf_ahead *a;
	size_t at = start;
	unsigned seed = 7;
	int crossed = 0;

	(void)state;
	assert_true(fd >= 0);
	a = perf_ahead_start(fd, start, len);
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
	close(fd);
	remove_temp(path);
	free(data);
}

/* a file shorter than the range asked for (cut while read): the bytes
 * that are there, then NULL */
static void test_ahead_short_file(void **state)
{
	size_t len = MIB + 500;
	unsigned char *data = pattern(len);
	char *path = write_temp(data, len);
	int fd = open(path, O_RDONLY);
	struct perf_ahead *a;

	(void)state;
	assert_true(fd >= 0);
	a = perf_ahead_start(fd, 0, 2 * MIB);
	assert_non_null(a);
	assert_memory_equal(perf_ahead_bytes(a, 10, 100), data + 10, 100);
	assert_null(perf_ahead_bytes(a, MIB + 400, 200));
	perf_ahead_stop(a);
	/* stopped before anything was asked */
	perf_ahead_stop(perf_ahead_start(fd, 0, len));
	close(fd);
	remove_temp(path);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ahead_bytes),
		cmocka_unit_test(test_ahead_short_file),
	};

	return cmocka_run_group_tests(tests, 0, NULL);
}
