/*
 * --diff of two builds of one program at two paths (tests/diff/builds/,
 * made by its make.sh: fib.c at -O0 in build-O0/fib and at -O2 in
 * build-O2/fib-O2, under callgrind and perf record): the main programs
 * are one object, so the program's functions compare one by one.
 *
 * The numbers are the peers', read off each profile on its own:
 * callgrind_annotate (valgrind 3.19) --inclusive=no: mix 1,800,013 and
 * 1,000,008, fib'2 350,232 and 276,148, totals 2,278,007 and 1,403,959;
 * --inclusive=yes: main 2,154,166 and 1,280,132, fib 350,252 and
 * 276,228. perf report (6.1) --no-children -F sample: mix 283 and 112
 * samples, fib 48 and 24 (1,001,001 ns each); --children: main 100% of
 * 331 and 17.65% of 136 (24 samples): at -O2 mix is a leaf that sets up
 * no frame, so its caller is lost to frame pointers, for perf as here.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cli/diff.h"
#include "cli/options.h"

#define B "tests/diff/builds/"

/* diff_run's output; its stderr in *diag (malloc'd) */
static char *run_diff(int argc, const char **args, char **diag)
{
	char *argv[16] = { (char *)"cganalyze" };
	struct options o;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int status;

	for (int i = 0; i < argc; i++)
		argv[i + 1] = (char *)args[i];
	assert_int_equal(options_parse(&o, argc + 1, argv, out), OPTIONS_OK);
	diag_capture_begin();
	status = diff_run(&o, out);
	*diag = diag_capture_end();
	if (status)
		fail_msg("status %d: %s", status, *diag);
	options_release(&o);
	fclose(out);
	return buf;
}

static void want(const char *text, const char *line)
{
	if (!strstr(text, line))
		fail_msg("no line\n%s\nin:\n%s", line, text);
}

static void test_callgrind_builds(void **state)
{
	const char *args[] = { "--diff", B "fib.cg", B "fib-O2.cg" };
	char *diag, *text = run_diff(3, args, &diag);

	(void)state;
	assert_non_null(strstr(diag, "the main programs '/tmp/cganalyze-builds/build-O0/fib' (base) and '/tmp/cganalyze-builds/build-O2/fib-O2' (new) are compared as one object: 4 functions in both by name and source file"));
	want(text, "(base, 2,278,007 in all) to " B "fib-O2.cg (new, 1,403,959 in all): -874,048 (-38.37%)\n");
	want(text, "    -800,005  -35.12%     -800,005  -35.12%    1,800,013    1,000,008   -44.44%  mix (/tmp/cganalyze-builds/src/fib.c)\n");
	want(text, "     -74,084   -3.25%      -74,084   -3.25%      350,232      276,148   -21.15%  fib'2 (/tmp/cganalyze-builds/src/fib.c)\n");
	want(text, "         +60   +0.00%      -74,024   -3.25%           20           80  +300.00%  fib (/tmp/cganalyze-builds/src/fib.c)\n");
	want(text, "          -5   -0.00%     -874,034  -38.37%           36           31   -13.89%  main (/tmp/cganalyze-builds/src/fib.c)\n");
	/* none of the program's own functions on one side only; valgrind
	 * names the PLT stubs by address, which moved: those stay apart */
	assert_null(strstr(text, "fib.c) (only in"));
	want(text, "  0x0000000000001100 (only in base)\n");
	free(diag);
	free(text);
}

static void test_perf_builds(void **state)
{
	const char *args[] = { "--diff", "-b", B "fib", "-b", B "fib-O2",
			       B "fib.data", B "fib-O2.data" };
	char *diag, *text = run_diff(7, args, &diag);

	(void)state;
	assert_non_null(strstr(diag, "are compared as one object: 3 functions in both by name and source file"));
	want(text, "-171,171,171  -51.66% -171,171,171  -51.66%  283,283,283  112,112,112   -60.42%  mix (/tmp/cganalyze-builds/src/fib.c)\n");
	want(text, " -24,024,024   -7.25%  -24,024,024   -7.25%   48,048,048   24,024,024   -50.00%  fib (/tmp/cganalyze-builds/src/fib.c)\n");
	want(text, "          +0   +0.00% -307,307,307  -92.75%            0            0            main (/tmp/cganalyze-builds/src/fib.c)\n");
	/* every function on both sides: user time alone was recorded */
	assert_null(strstr(text, "(only in base)\n"));
	assert_null(strstr(text, "(only in new)\n"));
	free(diag);
	free(text);
}

/* --strip-path-prefix still joins what else differs: two build
 * directories' paths taken off leave "fib" and "fib-O2", still two
 * names, still matched as the main programs */
static void test_with_strip(void **state)
{
	const char *args[] = { "--diff", "--json",
			       "--strip-path-prefix=/tmp/cganalyze-builds/build-O0/",
			       "--strip-path-prefix=/tmp/cganalyze-builds/build-O2/",
			       B "fib.cg", B "fib-O2.cg" };
	char *diag, *text = run_diff(6, args, &diag);

	(void)state;
	want(text, "\"main_programs\": {\"base\": \"fib\", \"new\": \"fib-O2\", \"matched\": true, \"by\": \"name and file\", \"functions_in_both\": 4}");
	want(text, "{\"name\": \"mix\", \"file\": \"/tmp/cganalyze-builds/src/fib.c\", \"object\": \"fib\", \"in\": \"both\",\n"
		   "   \"self\": [1800013, 1000008]");
	free(diag);
	free(text);
}

/* two programs: main in two files, nothing else by name and file in
 * common; their functions stay apart, and the note says so */
static void test_two_programs(void **state)
{
	const char *args[] = { "--diff", "tests/diff/base.cg", B "fib-O2.cg" };
	char *diag, *text = run_diff(3, args, &diag);

	(void)state;
	assert_non_null(strstr(diag, "have no function in both by name and source file: not compared as one object"));
	want(text, "  main (/tmp/cganalyze-builds/src/fib.c) (only in new)\n");
	want(text, "  main (/tmp/cganalyze-diff-base/prog.c) (only in base)\n");
	free(diag);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callgrind_builds),
		cmocka_unit_test(test_perf_builds),
		cmocka_unit_test(test_with_strip),
		cmocka_unit_test(test_two_programs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
