/*
 * --diff on the two real profiles of tests/diff/ (tests/diff/make.sh:
 * prog.c built in two checkouts, the second with three passes of
 * checksum() instead of one, each run under valgrind 3.19's callgrind).
 *
 * The numbers are callgrind_annotate's, read off each profile on its
 * own (--inclusive=no, and --auto=yes for the lines):
 *   base: PROGRAM TOTALS 183,363; checksum 16,006; strcspn 251;
 *         prog.c:26 "sum = sum * 31 + v[i];" 10,000, prog.c:25 6,006
 *   new:  PROGRAM TOTALS 215,362; checksum 48,019; strcspn 237;
 *         prog.c:26 30,000, prog.c:25 18,010
 * so checksum +32,013 (+17.46% of the base's total), line 26 +20,000,
 * line 25 +12,004, strcspn -14 (ld.so's search for a longer path).
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cli/diff.h"
#include "cli/options.h"

static char *run_diff(int argc, const char **args, int want_status)
{
	char *argv[16] = { (char *)"cganalyze" };
	struct options o;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	char *diag;
	int status;

	for (int i = 0; i < argc; i++)
		argv[i + 1] = (char *)args[i];
	assert_int_equal(options_parse(&o, argc + 1, argv, out), OPTIONS_OK);
	diag_capture_begin();
	status = diff_run(&o, out);
	diag = diag_capture_end();
	if (status != want_status)
		fail_msg("status %d: %s", status, diag);
	free(diag);
	options_release(&o);
	fclose(out);
	return buf;
}

#define STRIP_A "--strip-path-prefix=/tmp/cganalyze-diff-base/"
#define STRIP_B "--strip-path-prefix=/tmp/cganalyze-diff-new/"

static void test_checksum_got_slower(void **state)
{
	const char *args[] = { "--diff", "--diff-lines", STRIP_A, STRIP_B,
			       "tests/diff/base.cg", "tests/diff/new.cg" };
	char *text = run_diff(6, args, 0);
	char *first;

	(void)state;
	assert_non_null(strstr(text, "(base, 183,363 in all) to tests/diff/new.cg (new, 215,362 in all): +31,999 (+17.45%)"));
	/* the largest change first, with both sides matched */
	first = strstr(text, "function\n");
	assert_non_null(first);
	{
		const char *want =
		"     +32,013  +17.46%      +32,013  +17.46%       16,006       48,019  +200.01%  checksum (prog.c)\n"
		"     +20,000  +10.91%                             10,000       30,000  +200.00%    prog.c:26\n"
		"     +12,004   +6.55%                              6,006       18,010  +199.87%    prog.c:25\n";

		if (strncmp(first + 9, want, strlen(want)))
			fail_msg("got:\n%s", first + 9);
	}
	/* "% own": 237 of 251 is 5.58% less */
	assert_non_null(strstr(text, "         -14   -0.01%          -14   -0.01%          251          237    -5.58%  strcspn (./string/../string/strcspn.c)\n"));
	/* the program's own functions matched; valgrind names its PLT
	 * stubs by absolute address (0x109248 and 0x109250, FORMAT-NOTES
	 * Q6), so those two stay apart */
	assert_null(strstr(text, "prog.c) (only in"));
	assert_non_null(strstr(text, "  0x0000000000109250 (only in new)\n"));
	free(text);
}

/* Without the prefixes taken off, the program's functions are two each:
 * the checkouts' paths differ. */
static void test_paths_keep_functions_apart(void **state)
{
	const char *args[] = { "--diff", "tests/diff/base.cg",
			       "tests/diff/new.cg" };
	char *text = run_diff(3, args, 0);

	(void)state;
	assert_non_null(strstr(text, "  checksum (/tmp/cganalyze-diff-new/prog.c) (only in new)\n"));
	assert_non_null(strstr(text, "  checksum (/tmp/cganalyze-diff-base/prog.c) (only in base)\n"));
	free(text);
}

/* --fold-recursion: valgrind's fib'2 (its second recursion level) is
 * fib on both sides, and fib did not change. */
static void test_fold_recursion(void **state)
{
	const char *args[] = { "--diff", "--fold-recursion", STRIP_A, STRIP_B,
			       "tests/diff/base.cg", "tests/diff/new.cg" };
	char *text = run_diff(6, args, 0);

	(void)state;
	assert_null(strstr(text, "fib"));
	free(text);
}

static void test_json(void **state)
{
	const char *args[] = { "--diff", "--json", "--threshold=10", STRIP_A,
			       STRIP_B, "tests/diff/base.cg", "tests/diff/new.cg" };
	char *text = run_diff(7, args, 0);

	(void)state;
	assert_non_null(strstr(text, "\"delta\": 31999"));
	assert_non_null(strstr(text, "{\"name\": \"checksum\", \"file\": \"prog.c\", \"object\": \"prog\", \"in\": \"both\",\n"
				     "   \"self\": [16006, 48019], \"self_delta\": 32013"));
	/* --threshold=10: only changes of 10% of the base's total; the
	 * callers of checksum changed inclusively by as much */
	assert_null(strstr(text, "strcspn"));
	free(text);
}

static void test_needs_common_event(void **state)
{
	const char *args[] = { "--diff", "--sort=D1mr", "tests/diff/base.cg",
			       "tests/diff/new.cg" };
	char *text = run_diff(4, args, 2);

	(void)state;
	assert_string_equal(text, "");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_got_slower),
		cmocka_unit_test(test_paths_keep_functions_apart),
		cmocka_unit_test(test_fold_recursion),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_needs_common_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
