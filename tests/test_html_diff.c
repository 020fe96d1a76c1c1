/*
 * The diff report's documents (src/print/html_diff.c) as --diff
 * --output=html writes them, against --diff --json's for the same pair:
 * the rows --json lists come first, in its order, marked with the side
 * they are on as --json marks them; each side's total is --json's;
 * every flame graph node is of a row (or a cycle listed beside it); a
 * tree from stacks (perf.data) adds up to NEW's total; a maximum
 * (IgProf's MEM_MAX) has no tree.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cli/diff.h"
#include "cli/options.h"

static char *run_diff(int argc, const char **args)
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
	if (status)
		fail_msg("status %d: %s", status, diag);
	free(diag);
	options_release(&o);
	fclose(out);
	return buf;
}

/* The page and --json of one pair: args after "--diff" and "--json"
 * or "--output=html" */
struct pair {
	char *page, *json;
	const char *data, *diff;	/* the page's two documents */
};

static void pair_make(struct pair *pr, int argc, const char **args)
{
	const char *a[16] = { "--diff", "--output=html" };

	for (int i = 0; i < argc; i++)
		a[i + 2] = args[i];
	pr->page = run_diff(argc + 2, a);
	a[1] = "--json";
	pr->json = run_diff(argc + 2, a);
	pr->data = strstr(pr->page, "id=\"cga-data\">");
	pr->diff = strstr(pr->page, "id=\"cga-diff\">");
	assert_non_null(pr->data);
	assert_non_null(pr->diff);
}

static void pair_free(struct pair *pr)
{
	free(pr->page);
	free(pr->json);
}

/* The number after "key": in s (the first), and where it ends */
static long long number_after(const char *s, const char *key, const char **end)
{
	char pat[64];
	const char *at;
	char *e;
	long long v;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	at = strstr(s, pat);
	if (!at)
		fail_msg("no \"%s\"", key);
	v = strtoll(at + strlen(pat), &e, 10);
	if (end)
		*end = e;
	return v;
}

/* The integers of the array after "key": in s, into v (at most max);
 * how many */
static size_t array_after(const char *s, const char *key, long long *v,
			  size_t max)
{
	char pat[64];
	const char *at;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\": [", key);
	at = strstr(s, pat);
	if (!at)
		fail_msg("no \"%s\"", key);
	at += strlen(pat);
	while (*at != ']') {
		char *e;

		if (n == max)
			fail_msg("\"%s\" has more than %zu values", key, max);
		v[n++] = strtoll(at, &e, 10);
		if (e == at)
			fail_msg("\"%s\": not a number at '%.10s'", key, at);
		at = *e == ',' ? e + 1 : e;
	}
	return n;
}

#define MAX_ROWS 4096

static const char *const builds_cg[] = { "tests/diff/builds/fib.cg",
					 "tests/diff/builds/fib-O2.cg" };
static const char *const builds_perf[] = {
	"-b", "tests/diff/builds/fib", "-b", "tests/diff/builds/fib-O2",
	"tests/diff/builds/fib.data", "tests/diff/builds/fib-O2.data" };
static const char *const gmon[] = {
	"-b", "tests/gmon/prog-pie", "-b", "tests/gmon/prog-nopie",
	"tests/gmon/pie.gmon", "tests/gmon/nopie.gmon" };

/* --json's rows: the listed ones, in order, with their sides */
static void test_rows_are_jsons(void **state)
{
	static const struct { const char *const *args; int n; } cases[] = {
		{ builds_cg, 2 }, { builds_perf, 6 }, { gmon, 6 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
		struct pair pr;
		long long *in = xcalloc(MAX_ROWS, sizeof(*in));
		size_t nrows, listed = 0;
		const char *at;

		pair_make(&pr, cases[c].n, (const char **)cases[c].args);
		nrows = array_after(pr.diff, "in", in, MAX_ROWS);
		/* the functions' "in", not their callers' and callees'
		 * (indented further: "\n    {") */
		for (at = pr.json; (at = strstr(at, "\n  {\"name\": ")) &&
		     (at = strstr(at, "\"in\": \"")); at++) {
			const char *side = at + 7;
			long long want = !strncmp(side, "both", 4) ? 3
				: !strncmp(side, "base", 4) ? 1 : 2;

			if (listed >= nrows || in[listed] != want)
				fail_msg("%s: row %zu is %lld, --json's %.4s",
					 cases[c].args[cases[c].n - 1], listed,
					 listed < nrows ? in[listed] : -1, side);
			listed++;
		}
		assert_int_equal(number_after(pr.diff, "listed", NULL), listed);
		assert_true(listed > 0 && listed <= nrows);
		/* each side's total, and NEW's as the report's "totals" */
		assert_int_equal(number_after(strstr(pr.diff, "\"base\""), "total", NULL),
				 number_after(strstr(pr.json, "\"base\""), "total", NULL));
		assert_int_equal(number_after(strstr(pr.diff, "\"new\""), "total", NULL),
				 number_after(strstr(pr.json, "\"new\""), "total", NULL));
		{
			long long t[2];

			assert_int_equal(array_after(pr.data, "totals", t, 2), 1);
			assert_int_equal(t[0], number_after(strstr(pr.json, "\"new\""),
							    "total", NULL));
		}
		free(in);
		pair_free(&pr);
	}
}

/* every node's unit is a row, or a cycle of the tree's "cycles" */
static void test_tree_units_are_rows(void **state)
{
	static const struct { const char *const *args; int n; } cases[] = {
		{ builds_cg, 2 }, { builds_perf, 6 }, { gmon, 6 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
		struct pair pr;
		long long *v = xcalloc(MAX_ROWS * 16, sizeof(*v));
		size_t nrows;
		const char *tree;

		pair_make(&pr, cases[c].n, (const char **)cases[c].args);
		nrows = array_after(pr.diff, "in", v, MAX_ROWS * 16);
		tree = strstr(pr.diff, "\"trees\": [");
		assert_non_null(tree);
		for (int k = 0; k < 2; k++) {
			size_t n = array_after(tree, "unit", v, MAX_ROWS * 16);
			const char *cycles = strstr(tree, "\"cycles\": [");
			long long ncycles = 0;

			assert_non_null(cycles);
			assert_true(n > 0);
			/* "[[2,1],[...]]": count the inner arrays */
			for (const char *p = cycles + 11, *q; *p != ']'; p = q + 1) {
				assert_int_equal(*p == ',' ? p[1] : *p, '[');
				q = strchr(p, ']');
				assert_non_null(q);
				ncycles++;
			}
			for (size_t i = 0; i < n; i++)
				if (v[i] >= (long long)nrows || v[i] < -ncycles)
					fail_msg("%s: tree %d node %zu: unit %lld "
						 "of %zu rows, %lld cycles",
						 cases[c].args[cases[c].n - 1], k, i,
						 v[i], nrows, ncycles);
			tree = cycles + 1;
		}
		free(v);
		pair_free(&pr);
	}
}

/* perf.data's stacks: NEW's tree adds up to NEW's total, exactly */
static void test_exact_tree_total(void **state)
{
	struct pair pr;
	const char *trees;
	long long total;

	(void)state;
	pair_make(&pr, 6, (const char **)builds_perf);
	trees = strstr(pr.diff, "\"trees\": [");
	assert_non_null(trees);
	assert_null(strstr(trees, "\"estimated\": true"));
	/* the second tree's */
	total = number_after(strstr(trees, "\"total\": ") + 1, "total", NULL);
	assert_int_equal(total, number_after(strstr(pr.json, "\"new\""), "total",
					     NULL));
	pair_free(&pr);
}

/* IgProf's MEM_MAX: paths add up, a maximum does not: no tree */
static void test_maximum_has_no_tree(void **state)
{
	static const char *const args[] = { "--sort=MEM_MAX",
		"tests/inputs/igprof/mem.txt", "tests/inputs/igprof/mem.txt.gz" };
	struct pair pr;

	(void)state;
	pair_make(&pr, 3, (const char **)args);
	assert_non_null(strstr(pr.diff, "\"trees\": null"));
	pair_free(&pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_are_jsons),
		cmocka_unit_test(test_tree_units_are_rows),
		cmocka_unit_test(test_exact_tree_total),
		cmocka_unit_test(test_maximum_has_no_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
