/*
 * IgProf's MEM_MAX, a maximum (pevent.max): every cost is the largest
 * value under it, as igprof-analyse takes a counter whose name ends in
 * "_MAX" (src/analyse.cc: Counter::add() and accumulate() with isMax,
 * TreeMapBuilderFilter's accumulateCounts(), GProfMainRowBuilder::
 * build(isMax), whose KIDS is the largest callee value, and percentages
 * of the root's cumulative value, the largest of all). Each expected
 * number is worked out by hand next to it, and beside it the sum this
 * program printed before (and would print for MEM_TOTAL).
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "cg/cg.h"
#include "cli/analyze.h"
#include "cli/diff.h"
#include "cli/options.h"

/*
 *   main  own 100          MEM_MAX     self  inclusive   largest call
 *   |- a  own 300          main         100        500            500
 *   |  `- c  own 50        a            300        300             50
 *   `- b  own 200          b            200        500            500
 *      `- c  own 500       c            500        500              0
 *
 * The total is the largest of all, 500 (a sum: 1,150). The arcs:
 * main->a 300, main->b 500, a->c 50, b->c 500. MEM_TOTAL (the same
 * allocations' bytes, a sum) is there to show that it still adds up.
 */
static const char tree[] =
	"P=(ID=1 N=(p) T=0.0)\n"
	"C1 FN0=(F0=(p)+16 N=(main))+0 V0=(MEM_MAX):(1,100,100) "
	"V1=(MEM_TOTAL):(1,100,0)\n"
	"C2 FN1=(F0+32 N=(a))+0 V0:(2,300,300) V1:(2,400,0)\n"
	"C3 FN2=(F0+48 N=(c))+0 V0:(1,50,50) V1:(1,50,0)\n"
	"C2 FN3=(F0+64 N=(b))+0 V0:(3,200,200) V1:(3,450,0)\n"
	"C3 FN2+0 V0:(1,500,500) V1:(1,500,0)\n";

struct run {
	struct profile p;
	struct cg cg;
	uint32_t max, total;	/* the events */
};

static void load(struct run *r, const char *text)
{
	char *diag;

	memset(r, 0, sizeof(*r));
	profile_init(&r->p);
	if (read_text(&r->p, text, -1, NULL, &diag) != 0)
		fail_msg("%s", diag);
	free(diag);
	profile_finish(&r->p);
	r->max = profile_find_event(&r->p, "MEM_MAX");
	r->total = profile_find_event(&r->p, "MEM_TOTAL");
	assert_int_not_equal(r->max, NO_ID);
	cg_build(&r->cg, &r->p, r->max);
	cg_find_cycles(&r->cg);
	assert_int_equal(cg_propagate_measured(&r->cg), 0);
	cg_rank(&r->cg);
}

static void done(struct run *r)
{
	cg_release(&r->cg);
	profile_release(&r->p);
}

static uint64_t self_of(const struct run *r, const char *f, uint32_t e)
{
	uint32_t id = find_func(&r->p, f);

	assert_int_not_equal(id, NO_ID);
	return profile_self(&r->p, id)[e];
}

static uint64_t incl_of(const struct run *r, const char *f, uint32_t e)
{
	uint32_t id = find_func(&r->p, f);
	uint64_t row[8];

	assert_true(r->p.nevents <= 8);
	cg_inclusive_row(&r->cg, id, row);
	/* the reader's exact inclusive cost agrees */
	assert_int_equal(profile_func_row(&r->p, r->p.func_incl, id)[e],
			 row[e]);
	return row[e];
}

static uint64_t arc_of(const struct run *r, const char *from, const char *to,
		       uint32_t e)
{
	uint32_t c = find_call(&r->p, from, to);

	assert_int_not_equal(c, NO_ID);
	return profile_call_incl_at(&r->p, c, e);
}

/* The model and the graph: self, inclusive, arcs and the total are the
 * largest, and MEM_TOTAL's still the sums. */
static void test_max_costs(void **state)
{
	struct run r;
	uint32_t main_id, a_id, b_id, c_id;
	double self, child;

	(void)state;
	load(&r, tree);
	assert_true(r.p.events[r.max].max);
	assert_false(r.p.events[r.total].max);
	assert_int_equal(r.p.totals[r.max], 500);	/* summed: 1,150 */
	assert_int_equal(r.p.totals[r.total], 1500);
	assert_int_equal(self_of(&r, "c", r.max), 500);	/* summed: 550 */
	assert_int_equal(self_of(&r, "c", r.total), 550);
	assert_int_equal(self_of(&r, "a", r.max), 300);
	assert_int_equal(incl_of(&r, "main", r.max), 500); /* summed: 1,150 */
	assert_int_equal(incl_of(&r, "main", r.total), 1500);
	assert_int_equal(incl_of(&r, "a", r.max), 300);	/* summed: 350 */
	assert_int_equal(incl_of(&r, "b", r.max), 500);	/* summed: 700 */
	assert_int_equal(incl_of(&r, "c", r.max), 500);
	assert_int_equal(arc_of(&r, "main", "a", r.max), 300);
	assert_int_equal(arc_of(&r, "main", "b", r.max), 500);
	assert_int_equal(arc_of(&r, "a", "c", r.max), 50);
	assert_int_equal(arc_of(&r, "b", "c", r.max), 500);
	/* counts add up whatever the event: c was called twice, with
	 * one allocation under each call */
	c_id = find_func(&r.p, "c");
	assert_int_equal(profile_func_row(&r.p, r.p.func_count, c_id)[r.max],
			 2);
	/* children: the largest of the calls (igprof-analyse's KIDS);
	 * self + cg's child is the inclusive, the larger of the two */
	main_id = find_func(&r.p, "main");
	a_id = find_func(&r.p, "a");
	b_id = find_func(&r.p, "b");
	assert_int_equal(cg_node_largest_call(&r.cg, main_id, r.max), 500);
	assert_int_equal(cg_node_largest_call(&r.cg, a_id, r.max), 50);
	assert_int_equal(cg_node_largest_call(&r.cg, b_id, r.max), 500);
	assert_int_equal(cg_node_largest_call(&r.cg, c_id, r.max), 0);
	assert_true(cg_node_self(&r.cg, a_id, r.max) +
		    cg_node_child(&r.cg, a_id, r.max) == 300);
	assert_true(cg_node_child(&r.cg, b_id, r.max) == 300);
	/* a call line: the largest under the call, no share */
	cg_arc_share(&r.cg, find_call(&r.p, "main", "b"), r.max, &self,
		     &child);
	assert_true(self == 500 && child == 0);
	done(&r);
}

/* One stack's values in two records (a second thread's tree): the
 * larger, where MEM_TOTAL adds them. */
static void test_max_two_records(void **state)
{
	char text[1024];
	struct run r;

	(void)state;
	snprintf(text, sizeof(text), "%sC1 FN0+0 V0:(1,700,700) "
		 "V1:(1,700,0)\n", tree);
	load(&r, text);
	assert_int_equal(self_of(&r, "main", r.max), 700);	/* 800 */
	assert_int_equal(self_of(&r, "main", r.total), 800);
	assert_int_equal(r.p.totals[r.max], 700);
	assert_int_equal(incl_of(&r, "main", r.max), 700);
	/* main's largest call is 500, below its own 700 */
	assert_int_equal(cg_node_largest_call(&r.cg, find_func(&r.p, "main"),
					      r.max), 500);
	assert_true(cg_node_child(&r.cg, find_func(&r.p, "main"), r.max) == 0);
	done(&r);
}

/*
 * A cycle: a calls b, which calls a again. A member's children are the
 * largest of its calls, those inside the cycle too (its inclusive is
 * exact: igprof-analyse names the inner a "a'2" and shows b's 500 as
 * a's KIDS); the cycle as a whole has no call leaving it.
 *
 *   main 100 -> a 300 -> b 50 -> a 500;  main -> b 200
 */
static void test_max_cycle(void **state)
{
	struct run r;
	uint32_t a, b, cyc;

	(void)state;
	load(&r, "P=(ID=1 N=(p) T=0.0)\n"
		 "C1 FN0=(F0=(p)+16 N=(main))+0 V0=(MEM_MAX):(1,100,100) "
		 "V1=(MEM_TOTAL):(1,100,0)\n"
		 "C2 FN1=(F0+32 N=(a))+0 V0:(2,300,300) V1:(2,300,0)\n"
		 "C3 FN2=(F0+48 N=(b))+0 V0:(1,50,50) V1:(1,50,0)\n"
		 "C4 FN1+0 V0:(1,500,500) V1:(1,500,0)\n"
		 "C2 FN2+0 V0:(3,200,200) V1:(3,200,0)\n");
	a = find_func(&r.p, "a");
	b = find_func(&r.p, "b");
	cyc = r.cg.nodes[a].cycle;
	assert_int_not_equal(cyc, NO_ID);
	assert_int_equal(r.cg.nodes[b].cycle, cyc);
	assert_int_equal(self_of(&r, "a", r.max), 500);	/* summed: 800 */
	assert_int_equal(self_of(&r, "b", r.max), 200);	/* summed: 250 */
	assert_int_equal(incl_of(&r, "b", r.max), 500);	/* summed: 750 */
	assert_int_equal(cg_node_largest_call(&r.cg, a, r.max), 500);
	assert_int_equal(cg_node_largest_call(&r.cg, b, r.max), 500);
	assert_true(cg_cycle_self(&r.cg, cyc, r.max) == 500);
	assert_true(cg_cycle_child(&r.cg, cyc, r.max) == 0);
	assert_int_equal(cg_cycle_largest_call(&r.cg, cyc, r.max), 0);
	assert_true(cg_node_self(&r.cg, b, r.max) +
		    cg_node_child(&r.cg, b, r.max) == 500);
	done(&r);
}

/* Merged functions (symbol resolution giving two the same name) hold
 * the larger: a and b as one "ab", as igprof-analyse's mergeToNode()
 * with isMax. */
static void test_max_merged(void **state)
{
	struct run r;
	struct pfunc *ident;
	uint32_t ab;

	(void)state;
	load(&r, tree);
	cg_release(&r.cg);
	ident = calloc(r.p.nfuncs, sizeof(*ident));
	assert_non_null(ident);
	for (uint32_t f = 0; f < r.p.nfuncs; f++) {
		const char *n = profile_str(&r.p, r.p.funcs[f].name);

		ident[f] = r.p.funcs[f];
		if (!strcmp(n, "a") || !strcmp(n, "b"))
			ident[f].name = names_intern(&r.p.names, "ab", 2);
	}
	profile_rekey(&r.p, ident, NULL, NULL, NULL);
	free(ident);
	ab = find_func(&r.p, "ab");
	assert_int_equal(profile_self(&r.p, ab)[r.max], 300);	/* 500 */
	assert_int_equal(profile_self(&r.p, ab)[r.total], 850);
	assert_int_equal(profile_func_row(&r.p, r.p.func_incl, ab)[r.max],
			 500);
	assert_int_equal(profile_call_incl_at(&r.p, find_call(&r.p, "main",
							      "ab"), r.max),
			 500);
	assert_int_equal(profile_call_incl_at(&r.p, find_call(&r.p, "ab",
							      "c"), r.max),
			 500);
	assert_int_equal(profile_func_row(&r.p, r.p.func_count, ab)[r.max], 5);
	profile_release(&r.p);
}

/* igprof-analyse's rule is the name's end: "_MAX" is a maximum,
 * MEM_LIVE_PEAK (the peak of a sum) is not */
static void test_max_by_name(void **state)
{
	struct profile p;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_text(&p, "P=(ID=1 N=(p) T=0.0)\n"
				   "C1 FN0=(F0=(p)+16 N=(main))+0 "
				   "V0=(MEM_LIVE_PEAK):(1,10,10) "
				   "V1=(X_MAX):(1,10,10) V2=(MAXIMUM):(1,10,10)\n"
				   "C1 FN0+0 V0:(1,20,20) V1:(1,20,20) "
				   "V2:(1,20,20)\n",
				   -1, NULL, &diag), 0);
	free(diag);
	profile_finish(&p);
	assert_false(p.events[profile_find_event(&p, "MEM_LIVE_PEAK")].max);
	assert_true(p.events[profile_find_event(&p, "X_MAX")].max);
	assert_false(p.events[profile_find_event(&p, "MAXIMUM")].max);
	assert_int_equal(p.totals[profile_find_event(&p, "X_MAX")], 20);
	assert_int_equal(p.totals[profile_find_event(&p, "MAXIMUM")], 30);
	profile_release(&p);
}

/* The whole program on the tree: its output and messages, and its
 * status. */
static int run_main(const char *const *args, size_t nargs, char **out,
		    char **diag)
{
	char *argv[16], *path = write_temp(tree, sizeof(tree) - 1);
	struct options o;
	size_t n, argc = 0;
	FILE *f = open_memstream(out, &n);
	int status;

	assert_non_null(f);
	assert_true(nargs + 2 < 16);
	argv[argc++] = (char *)"cganalyze";
	for (size_t i = 0; i < nargs; i++)
		argv[argc++] = (char *)args[i];
	argv[argc++] = path;
	argv[argc] = NULL;
	diag_capture_begin();
	status = options_parse(&o, (int)argc, argv, f);
	assert_int_equal(status, OPTIONS_OK);
	status = analyze_run(&o, f);
	*diag = diag_capture_end();
	options_release(&o);
	fclose(f);
	remove_temp(path);
	return status;
}

static void expect_line(const char *out, const char *line)
{
	if (!strstr(out, line))
		fail_msg("expected the line\n%s\nin:\n%s", line, out);
}

/*
 * The text listings: the title says "the largest", percentages are of
 * it (igprof-analyse's "% total" for MEM_MAX: 300 of 500 is 60%), the
 * flat profile's cumulative is the largest so far and its per-call
 * columns blank; the call graph's children the largest call.
 *
 * Where we differ from igprof-analyse on purpose: its caller and callee
 * rows show the call's value and then the other function's whole
 * cumulative value (GProfMainRowBuilder::addCaller(): CHILDREN_COUNTS is
 * origin->CUM_KEY); ours keep gprof's columns, self and children of the
 * call, and a maximum's call is not shared between the two: all of it
 * is self, 0 children, which is the same number igprof-analyse puts
 * first. Its flat profile has no cumulative column; ours is the running
 * maximum, as a running sum would add largest values up.
 */
static void test_max_listings(void **state)
{
	static const char *const args[] = { "--sort=MEM_MAX",
					     "--threshold=0" };
	char *out, *diag;

	(void)state;
	assert_int_equal(run_main(args, 2, &out, &diag), 0);
	expect_line(out, "Flat profile of MEM_MAX, the largest 500:");
	/* the calls column: the allocations under the calls, as
	 * igprof-analyse's Calls; the per-call columns blank */
	expect_line(out, "100.00        500        500     2"
			 "                                       550  c [1]");
	expect_line(out, " 60.00        500        300     3"
			 "                                       400  a [4]");
	expect_line(out, " 20.00        500        100      "
			 "                                       100  main [3]");
	expect_line(out, "Call graph of MEM_MAX, the largest 500:");
	/* main: self 100, children 500 (its largest call), %total of
	 * its inclusive 500 */
	expect_line(out, "[3]     100.0      100      500"
			 "                   main [3]");
	/* b: self 200, children 500; its line from main 500, 0 */
	expect_line(out, "[2]     100.0      200      500        4"
			 "          b [2]");
	expect_line(out, "                   500        0               4/4"
			 "     main [3]");
	/* a: 300 of 500, children 50; c under a: 50 of c's 500 */
	expect_line(out, "[4]      60.0      300       50        3"
			 "          a [4]");
	expect_line(out, "                    50        0               1/2"
			 "     a [4]");
	expect_line(out, "For a maximum (IgProf's MEM_MAX");
	free(out);
	free(diag);
}

/* Where a maximum cannot go: a flame graph's folded stacks (refused,
 * nothing on standard output) and the Callgrind format (left out, with
 * a warning; MEM_TOTAL written) */
static void test_max_refused(void **state)
{
	static const char *const folded[] = { "--sort=MEM_MAX",
					      "--output=folded" };
	static const char *const cgout[] = { "--output=callgrind" };
	char *out, *diag;

	(void)state;
	assert_int_equal(run_main(folded, 2, &out, &diag), 1);
	assert_string_equal(out, "");
	assert_non_null(strstr(diag, "MEM_MAX is a maximum"));
	free(out);
	free(diag);
	assert_int_equal(run_main(cgout, 1, &out, &diag), 0);
	assert_non_null(strstr(diag, "MEM_MAX is a maximum"));
	assert_non_null(strstr(out, "\nevents: MEM_TOTAL\n"));
	assert_null(strstr(out, "MEM_MAX"));
	free(out);
	free(diag);
}

/* --dot: the title says the largest, not "in all" */
static void test_max_dot(void **state)
{
	static const char *const args[] = { "--dot", "--sort=MEM_MAX" };
	char *out, *diag;

	(void)state;
	assert_int_equal(run_main(args, 2, &out, &diag), 0);
	assert_non_null(strstr(out, "label=\"Call graph of MEM_MAX, the "
				    "largest 500\\l"));
	free(out);
	free(diag);
}

/* --json: "maximum" on the event, and the largest everywhere */
static void test_max_json(void **state)
{
	static const char *const args[] = { "--json" };
	char *out, *diag;

	(void)state;
	assert_int_equal(run_main(args, 1, &out, &diag), 0);
	assert_non_null(strstr(out, "{\"name\": \"MEM_MAX\", \"long_name\": "
				    "null, \"derived\": false, \"maximum\": "
				    "true}"));
	assert_non_null(strstr(out, "\"totals\": [500, 1500]"));
	assert_non_null(strstr(out, "\"name\": \"b\", \"file\": null, "
				    "\"object\": \"p\", \"line\": null, "
				    "\"self\": [200, 450], \"inclusive\": "
				    "[500, 950]"));
	free(out);
	free(diag);
}

/* --diff of a maximum: the largest on each side */
static void test_max_diff(void **state)
{
	char *base = write_temp(tree, sizeof(tree) - 1), *newer, *out, *diag;
	char text[1024], a0[] = "cganalyze", a1[] = "--diff",
	     a2[] = "--sort=MEM_MAX";
	char *argv[6];
	struct options o;
	size_t n;
	FILE *f;
	const char *at;

	(void)state;
	/* c's allocation of 500 grows to 600 */
	snprintf(text, sizeof(text), "%s", tree);
	at = strstr(text, "V0:(1,500,500)");
	assert_non_null(at);
	memcpy(text + (at - text), "V0:(1,600,600)", 14);
	newer = write_temp(text, strlen(text));
	argv[0] = a0;
	argv[1] = a1;
	argv[2] = a2;
	argv[3] = base;
	argv[4] = newer;
	argv[5] = NULL;
	f = open_memstream(&out, &n);
	assert_non_null(f);
	diag_capture_begin();
	assert_int_equal(options_parse(&o, 5, argv, f), OPTIONS_OK);
	assert_int_equal(diff_run(&o, f), 0);
	diag = diag_capture_end();
	options_release(&o);
	fclose(f);
	/* the totals are the largest, 500 and 600 (sums: 1,150, 1,250) */
	assert_non_null(strstr(out, "(base, the largest 500)"));
	assert_non_null(strstr(out, "(new, the largest 600)"));
	assert_non_null(strstr(out, "+100 (+20.00%)"));
	free(out);
	free(diag);
	remove_temp(base);
	remove_temp(newer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_costs),
		cmocka_unit_test(test_max_two_records),
		cmocka_unit_test(test_max_cycle),
		cmocka_unit_test(test_max_merged),
		cmocka_unit_test(test_max_by_name),
		cmocka_unit_test(test_max_listings),
		cmocka_unit_test(test_max_refused),
		cmocka_unit_test(test_max_json),
		cmocka_unit_test(test_max_dot),
		cmocka_unit_test(test_max_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
