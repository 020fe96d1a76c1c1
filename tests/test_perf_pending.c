/*
 * The queue of held samples (src/read/perf/perf_pending.c): entries
 * come out in the order they went in, whole, with their offsets and
 * times, while the buffer moves the live ones to its front and grows;
 * and it holds what is live, not all that went through it.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "read/perf/perf_pending.h"

/* Entry i's record: size and bytes from i. */
static uint16_t size_of(size_t i)
{
	return (uint16_t)(8 + (i * 7919) % 9000);
}

static void fill(unsigned char *p, size_t i, size_t n)
{
	for (size_t k = 0; k < n; k++)
		p[k] = (unsigned char)(i * 31 + k);
}

static void push(struct perf_pending *q, size_t i, unsigned char *scratch)
{
	struct perf_held h = { i * 16, i, i * 1000, i % 2 == 1, size_of(i),
			       scratch };

	fill(scratch, i, h.size);
	perf_pending_push(q, &h);
}

static void pop_check(struct perf_pending *q, size_t i)
{
	unsigned char want[65536];
	struct perf_held h;

	assert_true(perf_pending_front(q, &h));
	assert_int_equal(h.off, i * 16);
	assert_int_equal(h.inflated_from, i);
	assert_int_equal(h.time, i * 1000);
	assert_int_equal(h.inflated, i % 2 == 1);
	assert_int_equal(h.size, size_of(i));
	fill(want, i, h.size);
	assert_memory_equal(h.bytes, want, h.size);
	perf_pending_pop(q);
}

/* A window of 300 entries live (a round or two of samples) while
 * 20,000 pass through: every one comes out as it went in, and the
 * buffer stays near the live entries' size. */
static void test_fifo_through(void **state)
{
	static unsigned char scratch[65536];
	struct perf_pending q;
	size_t in = 0, out = 0, most = 0;

	(void)state;
	perf_pending_init(&q);
	assert_false(perf_pending_front(&q, &(struct perf_held){ 0 }));
	while (out < 20000) {
		while (in < 20000 && in - out < 300)
			push(&q, in++, scratch);
		if (perf_pending_bytes(&q) > most)
			most = perf_pending_bytes(&q);
		for (size_t k = 0; k < 100 && out < in; k++)
			pop_check(&q, out++);
	}
	assert_int_equal(q.n, 0);
	assert_int_equal(perf_pending_bytes(&q), 0);
	assert_false(perf_pending_front(&q, &(struct perf_held){ 0 }));
	/* 300 entries of 4.5 KB on average: 1.4 MB live; the buffer at
	 * most 4 times what was live, not the 90 MB that went through */
	assert_true(q.alloc <= 4 * most);
	perf_pending_release(&q);
}

/* Emptied, it starts again from its front. */
static void test_empties(void **state)
{
	static unsigned char scratch[65536];
	struct perf_pending q;

	(void)state;
	perf_pending_init(&q);
	for (size_t round = 0; round < 3; round++) {
		for (size_t i = 0; i < 50; i++)
			push(&q, round * 50 + i, scratch);
		for (size_t i = 0; i < 50; i++)
			pop_check(&q, round * 50 + i);
		assert_int_equal(q.head, 0);
		assert_int_equal(q.tail, 0);
	}
	perf_pending_release(&q);
}

/* The largest record (a u16 size) fits from the first push. */
/* perf_pending_at() walks the entries front to back without dropping
 * them (perf_records.c's batches of held samples): copied ones with
 * their bytes, the others with none, and stops at the back; after pops
 * it starts at the new front. */
static void test_walk(void **state)
{
	static unsigned char scratch[65536];
	struct perf_pending q;
	struct perf_held h;
	size_t pos = 0, i = 0;

	(void)state;
	perf_pending_init(&q);
	assert_false(perf_pending_at(&q, &pos, &h));
	for (size_t k = 0; k < 50; k++) {
		if (k % 3) {
			push(&q, k, scratch);
		} else {
			struct perf_held u = { k * 16, k, k * 1000, false,
					       size_of(k), NULL };

			perf_pending_push(&q, &u);
		}
	}
	while (perf_pending_at(&q, &pos, &h)) {
		unsigned char want[65536];

		assert_int_equal(h.off, i * 16);
		assert_int_equal(h.time, i * 1000);
		assert_int_equal(h.size, size_of(i));
		if (i % 3) {
			fill(want, i, h.size);
			assert_non_null(h.bytes);
			assert_memory_equal(h.bytes, want, h.size);
		} else {
			assert_null(h.bytes);
		}
		i++;
	}
	assert_int_equal(i, 50);
	assert_int_equal(q.n, 50);
	for (size_t k = 0; k < 7; k++)
		perf_pending_pop(&q);
	pos = 0;
	assert_true(perf_pending_at(&q, &pos, &h));
	assert_int_equal(h.off, 7 * 16);
	perf_pending_release(&q);
}

static void test_largest_record(void **state)
{
	static unsigned char big[65535];
	struct perf_pending q;
	struct perf_held h = { 1, 0, 2, false, 65535, big }, got;

	(void)state;
	memset(big, 0xab, sizeof(big));
	perf_pending_init(&q);
	perf_pending_push(&q, &h);
	perf_pending_push(&q, &h);
	assert_true(perf_pending_front(&q, &got));
	assert_int_equal(got.size, 65535);
	assert_memory_equal(got.bytes, big, sizeof(big));
	perf_pending_pop(&q);
	assert_true(perf_pending_front(&q, &got));
	assert_memory_equal(got.bytes, big, sizeof(big));
	perf_pending_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_through),
		cmocka_unit_test(test_empties),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_largest_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
