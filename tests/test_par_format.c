/*
 * par_format.h: the text of units formatted by two threads comes out
 * in order and whole, for every chunk size against every count, on the
 * one-thread path and the two-thread one.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/linebuf.h"
#include "print/par_format.h"

/* unit i: its number and a tail as long as i % 7 (units differ in
 * length, as entries do); counts the units each context formatted */
static void format_unit(void *ctx, const void *shared, size_t i,
			struct linebuf *lb)
{
	char num[20];

	(*(size_t *)ctx)++;
	lb_puts(lb, shared);
	lb_putn(lb, num, fmt_u64(num, i));
	lb_spaces(lb, i % 7);
	lb_putc(lb, '\n');
}

static char *expected(size_t n)
{
	struct linebuf lb = { 0 };
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		format_unit(&count, "unit ", i, &lb);
	lb_putc(&lb, '\0');
	return lb.s;
}

static void check(size_t n, size_t chunk, size_t min_units)
{
	size_t counts[2] = { 0, 0 };
	struct par_format pf = {
		.format = format_unit, .shared = "unit ",
		.ctx = { &counts[0], &counts[1] }, .chunk = chunk,
		.min_units = min_units,
	};
	char *got = NULL, *want = expected(n);
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);

	assert_non_null(out);
	par_format_run(&pf, out, n);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(got, want);
	assert_int_equal(counts[0] + counts[1], n);
	/* the second thread had every other chunk, when it ran */
	if (n >= min_units && n > chunk)
		assert_int_equal(counts[1], (n / (2 * chunk)) * chunk +
				 (n % (2 * chunk) > chunk ? n % (2 * chunk) - chunk : 0));
	else
		assert_int_equal(counts[1], 0);
	free(got);
	free(want);
}

static void test_orders(void **state)
{
	(void)state;
	for (size_t n = 0; n <= 40; n++)
		for (size_t chunk = 1; chunk <= 9; chunk++)
			check(n, chunk, 0);
	check(100000, 64, 256);
	check(100000, 1, 0);
	check(100001, 3, 0);
}

/* unit i weighs 1 + i % 5, or 1000 when i % 97 == 3 (a huge entry) */
static size_t weigh_unit(void *ctx, const void *shared, size_t i)
{
	(void)ctx;
	(void)shared;
	return i % 97 == 3 ? 1000 : 1 + i % 5;
}

/* Chunks cut at `chunk` units or `max` weight: the same text, and the
 * second thread formatted exactly the odd chunks of that cut. */
static void check_weighted(size_t n, size_t chunk, size_t max)
{
	size_t counts[2] = { 0, 0 }, odd = 0, c = 0, len = 0;
	struct par_format pf = {
		.format = format_unit, .shared = "unit ",
		.ctx = { &counts[0], &counts[1] }, .chunk = chunk,
		.weight = weigh_unit, .max_weight = max,
	};
	char *got = NULL, *want = expected(n);
	FILE *out = open_memstream(&got, &len);

	assert_non_null(out);
	par_format_run(&pf, out, n);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(got, want);
	assert_int_equal(counts[0] + counts[1], n);
	for (size_t i = 0; i < n; c++) {
		size_t start = i, w = 0;

		while (i < n && i - start < chunk && (i == start || w < max))
			w += weigh_unit(NULL, NULL, i++);
		if (c % 2)
			odd += i - start;
	}
	assert_int_equal(counts[1], n > chunk ? odd : 0);
	free(got);
	free(want);
}

static void test_weighted(void **state)
{
	(void)state;
	for (size_t n = 0; n <= 40; n++)
		for (size_t chunk = 1; chunk <= 9; chunk++)
			for (size_t max = 1; max <= 12; max += 3)
				check_weighted(n, chunk, max);
	check_weighted(100000, 64, 4096);
	check_weighted(100000, 64, 50);
}

static void test_small_alone(void **state)
{
	(void)state;
	check(10, 2, 11);	/* under min_units: one thread */
	check(255, 64, 256);
	check(5, 5, 0);		/* one chunk: nothing to share */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_weighted),
		cmocka_unit_test(test_small_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
