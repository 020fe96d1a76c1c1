/*
 * option_guess(): what a misspelt or ambiguous long option most likely
 * was. getopt_long says "unknown" for both; a wrong guess sends the user
 * to the wrong option, so a tie or a far word gets none.
 */
#include "helpers.h"

#include <string.h>

#include "cli/option_guess.h"

static const struct option opts[] = {
	{ "threshold", required_argument, NULL, 1 },
	{ "threads", no_argument, NULL, 2 },
	{ "json", no_argument, NULL, 3 },
	{ "annotate", optional_argument, NULL, 4 },
	{ "disasm", optional_argument, NULL, 5 },
	{ "tid", required_argument, NULL, 6 },
	{ "pid", required_argument, NULL, 7 },
	{ NULL, 0, NULL, 0 },
};

static void check(const char *arg, const char *want)
{
	char buf[128];
	const char *got = option_guess(opts, arg, buf, sizeof(buf));

	if (!want) {
		if (got || buf[0])
			fail_msg("'%s': '%s', not none", arg, buf);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("'%s': '%s', not '%s'", arg, got ? got : "none", want);
}

static void test_near(void **state)
{
	(void)state;
	check("--treshold=2", "did you mean '--threshold'?");
	check("--anotate", "did you mean '--annotate'?");
	check("--jsno", "did you mean '--json'?");	/* two swapped */
	check("--disams", "did you mean '--disasm'?");
}

static void test_ambiguous(void **state)
{
	(void)state;
	check("--thr", "is ambiguous: --threshold, --threads");
	check("--thre=1", "is ambiguous: --threshold, --threads");
}

static void test_none(void **state)
{
	(void)state;
	check("--xyzzy", NULL);
	/* one edit from both --tid and --pid: no guess */
	check("--sid", NULL);
	/* two edits of a short word reach too much */
	check("--js", NULL);
	check("-x", NULL);
	check("--", NULL);
}

/* a cut list still says enough, and the buffer stays terminated */
static void test_small_buffer(void **state)
{
	char buf[24];

	(void)state;
	assert_non_null(option_guess(opts, "--th", buf, sizeof(buf)));
	assert_true(strlen(buf) < sizeof(buf));
	assert_int_equal(strncmp(buf, "is ambiguous: --thr", 19), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_near),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
