/* The report's Disassembly lists every function past the threshold,
 * then the hottest others up to REPORT_DISASM_MAX functions and
 * REPORT_DISASM_CODE bytes of code, at least one (report_disasm.c). */
#include "helpers.h"

#include <stdlib.h>

#include "print/report_disasm.h"

static void test_counts(void **state)
{
	enum { N = 400 };
	uint64_t cost[N], size[N];

	(void)state;
	for (size_t i = 0; i < N; i++) {
		cost[i] = N - i;	/* hottest first */
		size[i] = 16;
	}
	/* none past the threshold: 300 of the small ones */
	assert_int_equal(report_disasm_count(cost, size, N, 1000000, 1.0),
			 REPORT_DISASM_MAX);
	/* every one past a threshold of 0 */
	assert_int_equal(report_disasm_count(cost, size, N, 1000000, 0.0), N);
	/* the first ten past 1% of 39,100 (391 and more): then 290 more,
	 * and the 301st is where it stops */
	assert_int_equal(report_disasm_count(cost, size, N, 39100, 1.0), 300);
	/* big functions: the code runs out first */
	for (size_t i = 0; i < N; i++)
		size[i] = 10000;
	assert_int_equal(report_disasm_count(cost, size, N, 1000000, 1.0), 6);
	/* one at least, however big */
	size[0] = 1000000;
	assert_int_equal(report_disasm_count(cost, size, N, 1000000, 1.0), 1);
	assert_int_equal(report_disasm_count(cost, size, 0, 1000000, 1.0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
