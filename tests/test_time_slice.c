/*
 * --time's forms (base/time_slice.h): what each form means in recorded
 * nanoseconds, perf report's rules where they are perf's (percentage
 * ranges rounded as perf rounds them, ending a nanosecond short of the
 * next one), and every bad form refused with what was wrong.
 */
#include "helpers.h"

#include <string.h>

#include "base/time_slice.h"

/* A recording whose samples run from 1000 s to 1010 s. */
#define FIRST 1000000000000ull
#define LAST 1010000000000ull

static void resolve(const char *arg, struct time_range *r, size_t n)
{
	struct time_spec ts;
	char why[600];

	if (time_spec_parse(arg, &ts, why, sizeof(why)))
		fail_msg("'%s' refused: %s", arg, why);
	assert_int_equal(ts.n, n);
	time_spec_resolve(&ts, FIRST, LAST, r);
}

static void test_timestamps(void **state)
{
	struct time_range r[TIME_SLICES_MAX];

	(void)state;
	/* perf's form: seconds.fraction, the fraction's digits padded
	 * to nanoseconds */
	resolve("1002.5,1003.000000001", r, 1);
	assert_true(r[0].start == 1002500000000ull);
	assert_true(r[0].end == 1003000000001ull);
	/* an empty end: the first or the last sample */
	resolve(",1003", r, 1);
	assert_true(r[0].start == 0 && r[0].end == 1003000000000ull);
	resolve("1003,", r, 1);
	assert_true(r[0].end == UINT64_MAX);
	/* +SECONDS: after the first sample */
	resolve("+2.5,+3", r, 1);
	assert_true(r[0].start == FIRST + 2500000000ull);
	assert_true(r[0].end == FIRST + 3000000000ull);
	/* past 2^64 ns: the end of time, not a wrapped small number */
	resolve("+18446744069.7,", r, 1);
	assert_true(r[0].start == UINT64_MAX);
	/* several, separated by spaces (perf's "1234.567,1234.789 1235,") */
	resolve("1001,1002  +5,", r, 2);
	assert_true(r[1].start == FIRST + 5000000000ull);
	/* both ends inclusive, as perf's */
	assert_true(time_ranges_have(r, 2, 1002000000000ull));
	assert_true(time_ranges_have(r, 2, 1001000000000ull));
	assert_false(time_ranges_have(r, 2, 1002000000001ull));
	assert_false(time_ranges_have(r, 2, 1000999999999ull));
}

static void test_percentages(void **state)
{
	struct time_range r[TIME_SLICES_MAX];
	uint64_t mid = FIRST + 5000000000ull;

	(void)state;
	resolve("0%-50%", r, 1);
	assert_true(r[0].start == FIRST && r[0].end == mid - 1);
	resolve("50%-100%", r, 1);
	/* the last slice ends at the last sample itself */
	assert_true(r[0].start == mid && r[0].end == LAST);
	/* the halves: a sample at the middle in the second alone */
	resolve("0%-50%", r, 1);
	assert_false(time_ranges_have(r, 1, mid));
	resolve("50%-100%", r, 1);
	assert_true(time_ranges_have(r, 1, mid));
	/* P%/N: the Nth slice of P% */
	resolve("10%/2", r, 1);
	assert_true(r[0].start == FIRST + 1000000000ull);
	assert_true(r[0].end == FIRST + 2000000000ull - 1);
	resolve("10%/1,10%/10,20%-25.5%", r, 3);
	assert_true(r[1].end == LAST);
	assert_true(r[2].start == FIRST + 2000000000ull);
	assert_true(r[2].end == FIRST + 2550000000ull - 1);
	/* a range of no length keeps its one instant */
	resolve("30%-30%", r, 1);
	assert_true(r[0].start == r[0].end);
}

static void refused(const char *arg, const char *what)
{
	struct time_spec ts;
	char why[600] = "";

	if (!time_spec_parse(arg, &ts, why, sizeof(why)))
		fail_msg("'%s' was taken", arg);
	if (!strstr(why, what) || !strstr(why, arg) ||
	    !strstr(why, "the forms are"))
		fail_msg("'%s': \"%s\" does not say \"%s\"", arg, why, what);
}

static void test_bad_forms(void **state)
{
	(void)state;
	refused("", "names no range");
	refused("   ", "names no range");
	refused("1002", "one comma");
	refused("1,2,3", "one comma");
	refused("1.5.2,3", "SECONDS[.FRACTION]");
	refused("1.0000000001,2", "at most 9 digits");
	refused("-1,2", "SECONDS[.FRACTION]");
	refused("1s,2s", "SECONDS[.FRACTION]");
	refused("+,2", "SECONDS[.FRACTION]");
	refused("++1,2", "SECONDS[.FRACTION]");
	refused("99999999999999999999,", "SECONDS[.FRACTION]");
	refused("3,2", "ending before it starts");
	refused("+3,+2", "ending before it starts");
	refused("10%", "percentage range");
	refused("10%-", "percentage range");
	refused("20%-10%", "A at most B");
	refused("10%-120%", "percentage range");
	refused("10%-20", "percentage range");
	refused("10%/0", "percentage range");
	refused("30%/4", "fitting in 100%");
	refused("0%/1", "percentage range");
	refused("a%-b%", "percentage range");
	refused(".5%-1%", "percentage range");
	refused("1,2 10%-20%", "percentage range");
	refused("1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,"
		"1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%,1%-2%",
		"more than 16");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_percentages),
		cmocka_unit_test(test_bad_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
