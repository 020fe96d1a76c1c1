/*
 * fmt.h against its peer, glibc's printf: every value here must come
 * out of fmt_fixed() exactly as snprintf("%.*f") writes it, ties
 * (0.125, 2.5) and values one ulp either side of a tie included.
 */
#include "helpers.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/fmt.h"
#include "print/linebuf.h"

static unsigned checked;

static void check_fixed(double v, int decimals)
{
	char want[FMT_NUM_MAX], got[FMT_NUM_MAX];
	size_t n;

	snprintf(want, sizeof(want), "%.*f", decimals, v);
	n = fmt_fixed(got, v, decimals);
	got[n] = '\0';
	if (strcmp(want, got))
		fail_msg("fmt_fixed(%a, %d) = \"%s\", printf says \"%s\"", v,
			 decimals, got, want);
	checked++;
}

static void check_all(double v)
{
	for (int d = 0; d <= 3; d++) {
		check_fixed(v, d);
		check_fixed(-v, d);
		check_fixed(nextafter(v, 0), d);
		check_fixed(nextafter(v, INFINITY), d);
	}
}

static void test_ties(void **state)
{
	(void)state;
	/* exact binary ties go to even, as glibc rounds */
	check_all(0.5);
	check_all(1.5);
	check_all(2.5);
	check_all(0.125);
	check_all(0.375);
	check_all(0.0625);
	check_all(1234567.5);
	check_all(4503599627370495.5);	/* 2^52 - 0.5 */
	for (int i = 0; i < 4096; i++)
		check_all(i / 16.0);
	/* decimal "ties" that are not binary ones: 0.145 is below */
	check_all(0.145);
	check_all(0.005);
	check_all(1.005);
	check_all(99.995);
}

static void test_edges(void **state)
{
	(void)state;
	check_all(0.0);
	check_all(DBL_MIN);
	check_all(DBL_TRUE_MIN);
	check_all(1e-300);
	check_all(0.0049999999999999);
	check_all(9.9999999999999999e15);
	check_all(18446744073709551615.0);	/* 2^64: past the fast path */
	check_all(9223372036854775808.0);	/* 2^63 */
	check_all(1.8446744073709552e16);	/* 2^64 / 1000 */
	check_all(1e17);
	check_all(1e19);
	check_all(1e300);
	check_all(DBL_MAX);
	check_all(INFINITY);
	check_all(NAN);
}

/* What the listings print: percentages and shares of integer costs. */
static void test_random(void **state)
{
	unsigned long long seed = 88172645463325252ull;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t a, b;
		double v;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		a = seed >> (seed & 63);
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		b = (seed >> (seed & 63)) | 1;
		v = (double)a * 100 / (double)b;
		check_fixed(v, 2);
		check_fixed((double)a / (double)b, 1 + (int)(seed % 3));
		check_fixed((double)a * ((double)(b % 1000) / 1000.0), 0);
		/* any bit pattern that is a finite double */
		memcpy(&v, &seed, sizeof(v));
		if (isfinite(v))
			check_fixed(v, (int)(a % 4));
	}
	assert_true(checked > 800000);
}

static void test_u64_and_lines(void **state)
{
	struct linebuf lb = { 0 };
	char buf[32], want[64];
	uint64_t vals[] = { 0, 9, 10, 99, 100, 12345678901234567890ull,
			    UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		buf[fmt_u64(buf, vals[i])] = '\0';
		snprintf(want, sizeof(want), "%llu", (unsigned long long)vals[i]);
		assert_string_equal(buf, want);
	}
	lb_right(&lb, "ab", 2, 5);
	lb_left(&lb, "cd", 2, 4);
	lb_u64(&lb, 42, 4);
	lb_fixed(&lb, 2.5, 0, 3);
	lb_fixed(&lb, 12.345, 2, 0);
	lb_right(&lb, "toolong", 7, 3);
	lb_putc(&lb, '\0');
	snprintf(want, sizeof(want), "%5s%-4s%4llu%3.0f%.2f%3s", "ab", "cd",
		 42ull, 2.5, 12.345, "toolong");
	assert_string_equal(lb.s, want);
	lb_free(&lb);
}

/* v grouped the long way: its thousands, then its last three digits */
static void grouped_ref(uint64_t v, char *out, size_t size)
{
	char head[32];

	if (v < 1000) {
		snprintf(out, size, "%llu", (unsigned long long)v);
		return;
	}
	grouped_ref(v / 1000, head, sizeof(head));
	snprintf(out, size, "%s,%03llu", head, (unsigned long long)(v % 1000));
}

static void test_groups(void **state)
{
	static const struct {
		double v;
		int decimals;
		const char *want;
	} fixed[] = {
		{ 0, 0, "0" }, { 999, 0, "999" }, { 1000, 0, "1,000" },
		{ 8800280, 0, "8,800,280" }, { -1234.5, 1, "-1,234.5" },
		{ 123456.789, 2, "123,456.79" }, { 100, 2, "100.00" },
		{ -999999, 0, "-999,999" }, { 1e6, 3, "1,000,000.000" },
	};
	static const struct {
		double v;
		const char *want;
	} per_call[] = {
		{ 8, "8" }, { 23.08, "23.08" }, { 3917791, "3,917,791" },
		{ 22142.3, "22,142.30" }, { 0.004, "0" }, { 0.005, "0.01" },
		{ 1999.999, "2,000" }, { 0.1, "0.10" },
	};
	char buf[FMT_NUM_MAX], want[64];
	uint64_t seed = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		buf[fmt_number(buf, fixed[i].v, fixed[i].decimals, true)] = 0;
		assert_string_equal(buf, fixed[i].want);
	}
	for (size_t i = 0; i < sizeof(per_call) / sizeof(per_call[0]); i++) {
		buf[fmt_per_call(buf, per_call[i].v, true)] = 0;
		assert_string_equal(buf, per_call[i].want);
	}
	buf[fmt_per_call(buf, 3917791, false)] = 0;
	assert_string_equal(buf, "3917791");
	buf[fmt_number(buf, 8800280, 0, false)] = 0;
	assert_string_equal(buf, "8800280");
	assert_string_equal(fmt_count(buf, UINT64_MAX, true),
			    "18,446,744,073,709,551,615");
	for (int i = 0; i < 100000; i++) {
		uint64_t v;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v = seed >> (seed % 64);
		grouped_ref(v, want, sizeof(want));
		assert_string_equal(fmt_count(buf, v, true), want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_u64_and_lines),
		cmocka_unit_test(test_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
