/*
 * diff_main.c: which object is each --diff side's main program, and
 * when two main programs under two paths are one program's builds.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cli/diff_main.h"

/* The main object of a Callgrind text, with each function's inclusive
 * cost its self cost (enough to pick between two mains). */
static const char *main_of(struct profile *p, const char *text)
{
	char *diag;
	uint64_t *incl;
	name_id ob;

	profile_init(p);
	assert_int_equal(read_text(p, text, -1, NULL, &diag), 0);
	free(diag);
	incl = calloc(p->nfuncs + 1, sizeof(*incl));
	for (uint32_t f = 0; f < p->nfuncs; f++)
		incl[f] = profile_self(p, f)[0];
	ob = diff_main_object(p, incl);
	free(incl);
	return ob == NO_NAME ? NULL : profile_str(p, ob);
}

static void test_main_object(void **state)
{
	struct profile p;

	(void)state;
	/* main's object, not the loader's nor libc's, whatever costs most */
	assert_string_equal(main_of(&p, "cmd: ./fib\nevents: Ir\n"
		"ob=/lib/ld-linux.so.2\nfn=_dl_start\n0 900\n"
		"ob=/b/fib-O2\nfn=main\n0 5\nfn=fib\n0 50\n"
		"ob=/lib/libc.so.6\nfn=main\n0 1\n"), "/b/fib-O2");
	profile_release(&p);
	/* two processes' mains (perf.data of a shell and its child): the
	 * heavier one's */
	assert_string_equal(main_of(&p, "events: Ir\n"
		"ob=/bin/sh\nfn=main\n0 3\n"
		"ob=/b/prog\nfn=main\n0 40\n"), "/b/prog");
	profile_release(&p);
	/* Go names its main main.main */
	assert_string_equal(main_of(&p, "events: Ir\n"
		"ob=/b/server\nfn=main.main\n0 3\nfn=runtime.mallocgc\n0 9\n"),
		"/b/server");
	profile_release(&p);
	/* no main (no symbols for it): the command's program, any word of
	 * it as perf record's line is perf's own first */
	assert_string_equal(main_of(&p, "cmd: perf record -g ./build/prog 5\n"
		"events: Ir\nob=/lib/libc.so.6\nfn=qsort\n0 1\n"
		"ob=/src/build/prog\nfn=0x1040\n0 1\n"), "/src/build/prog");
	profile_release(&p);
	/* neither: unknown */
	assert_null(main_of(&p, "cmd: ./gone\nevents: Ir\n"
		"ob=/lib/libc.so.6\nfn=qsort\n0 1\n"));
	profile_release(&p);
}

#define N(v) (sizeof(v) / sizeof(*(v)))

static void test_match_by_name_and_file(void **state)
{
	/* -O0 and -O2 of one source: fib and main in both, mix inlined
	 * away in the second, _start without a file in both */
	struct main_fn o0[] = { { "main", "/s/fib.c" }, { "fib", "/s/fib.c" },
				{ "mix", "/s/fib.c" }, { "_start", "???" } };
	struct main_fn o2[] = { { "_start", "???" }, { "fib", "/s/fib.c" },
				{ "main", "/s/fib.c" } };
	/* two programs: only main's name and the C runtime in common */
	struct main_fn a[] = { { "main", "/a/prog.c" }, { "_start", "???" } };
	struct main_fn b[] = { { "main", "/b/other.c" }, { "_start", "???" },
			       { "frame_dummy", "???" } };
	struct mains_match m;

	(void)state;
	assert_true(diff_mains_match(o0, N(o0), o2, N(o2), &m));
	assert_true(m.by_file);
	assert_int_equal(m.shared, 2);	/* _start has no file: not counted */
	assert_false(diff_mains_match(a, N(a), b, N(b), &m));
	assert_true(m.by_file);
	assert_int_equal(m.shared, 0);
}

static void test_match_without_files(void **state)
{
	/* built without -g: names alone */
	struct main_fn a[] = { { "main", "" }, { "fib", "" }, { "fib", "" } };
	struct main_fn b[] = { { "fib", "" }, { "main", "" }, { "mix", "" } };
	struct main_fn c[] = { { "run", "" } };
	/* two programs without -g: what every program has, or has by
	 * chance (a PLT stub at one address), is no evidence */
	struct main_fn p1[] = { { "main", "???" }, { "_start", "???" },
				{ "0x0000000000001030", "???" }, { "parse", "???" } };
	struct main_fn p2[] = { { "main", "???" }, { "_start", "???" },
				{ "0x0000000000001030", "???" }, { "render", "???" } };
	/* one side with -g, the other without: their keys differ, so
	 * nothing would join */
	struct main_fn g[] = { { "main", "/s/fib.c" }, { "fib", "/s/fib.c" } };
	struct mains_match m;

	(void)state;
	assert_true(diff_mains_match(a, N(a), b, N(b), &m));
	assert_false(m.by_file);
	/* fib (twice in a: one function); main does not count */
	assert_int_equal(m.shared, 1);
	assert_false(diff_mains_match(a, N(a), c, N(c), &m));
	assert_false(diff_mains_match(p1, N(p1), p2, N(p2), &m));
	assert_false(m.by_file);
	assert_int_equal(m.shared, 0);
	assert_false(diff_mains_match(g, N(g), b, N(b), &m));
	assert_true(m.by_file);
	assert_false(diff_mains_match(g, 0, b, N(b), &m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_main_object),
		cmocka_unit_test(test_match_by_name_and_file),
		cmocka_unit_test(test_match_without_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
