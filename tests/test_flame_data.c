/*
 * The flame graph's tree (print/flame_data.c): the estimate from arcs on
 * graphs written as specs (tests/helpers.h), the exact tree from IgProf
 * stacks read from text, and the limits that cut paths.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/cg.h"
#include "print/flame_data.h"

struct fixture {
	struct profile p;
	struct cg cg;
	struct flame fl;
};

static void analyse(struct fixture *fx)
{
	cg_build(&fx->cg, &fx->p, 0);
	cg_find_cycles(&fx->cg);
	cg_propagate_measured(&fx->cg);
	cg_rank(&fx->cg);
}

static void from_spec(struct fixture *fx, const char *spec, double min,
		      size_t max)
{
	profile_init(&fx->p);
	profile_from_spec(&fx->p, spec);
	analyse(fx);
	flame_build(&fx->fl, &fx->cg, 0, min, max);
}

static void release(struct fixture *fx)
{
	flame_release(&fx->fl);
	cg_release(&fx->cg);
	profile_release(&fx->p);
}

static const char *node_name(const struct fixture *fx, uint32_t n)
{
	uint32_t f = fx->fl.nodes[n].func;

	return f == NO_ID ? "<cycle>" : profile_str(&fx->p, fx->p.funcs[f].name);
}

/* The node of the path "a;b;c", or NO_ID. */
static uint32_t path_node(const struct fixture *fx, const char *path)
{
	uint32_t level = fx->fl.first_root, n = NO_ID;

	while (*path) {
		size_t len = strcspn(path, ";");

		for (n = level; n != NO_ID; n = fx->fl.nodes[n].next_sibling)
			if (strlen(node_name(fx, n)) == len &&
			    !memcmp(node_name(fx, n), path, len))
				break;
		if (n == NO_ID)
			return NO_ID;
		level = fx->fl.nodes[n].first_child;
		path += len + (path[len] == ';');
	}
	return n;
}

static double path_total(const struct fixture *fx, const char *path)
{
	uint32_t n = path_node(fx, path);

	assert_int_not_equal(n, NO_ID);
	return fx->fl.nodes[n].total;
}

/* Every node's self and children add up to its total; the roots to the
 * tree's. */
static void assert_adds_up(const struct fixture *fx)
{
	double roots = 0;

	for (size_t i = 0; i < fx->fl.nnodes; i++) {
		const struct flame_node *n = &fx->fl.nodes[i];
		double sum = n->self;

		for (uint32_t c = n->first_child; c != NO_ID;
		     c = fx->fl.nodes[c].next_sibling)
			sum += fx->fl.nodes[c].total;
		assert_float_equal(sum, n->total, 1e-6 * (1 + n->total));
		if (n->parent == NO_ID)
			roots += n->total;
	}
	assert_float_equal(roots, fx->fl.total, 1e-6 * (1 + roots));
}

/*
 * main (self 10) calls run (60) and init (30); both call fib, whose 60
 * is shared 40:20 by the calls' inclusive costs: the picture in
 * flame_data.c.
 */
static void test_shared_by_arc_cost(void **state)
{
	struct fixture fx;

	(void)state;
	from_spec(&fx, "main:10 run:20 init:10 fib:60 main>run:1:60 "
		  "main>init:1:30 run>fib:3:40 init>fib:1:20", 0, 0);
	assert_true(fx.fl.estimated);
	assert_float_equal(fx.fl.total, 100, 1e-9);
	assert_float_equal(path_total(&fx, "main"), 100, 1e-9);
	assert_float_equal(path_total(&fx, "main;run"), 60, 1e-9);
	assert_float_equal(path_total(&fx, "main;run;fib"), 40, 1e-9);
	assert_float_equal(path_total(&fx, "main;init;fib"), 20, 1e-9);
	assert_adds_up(&fx);
	release(&fx);
}

/* A cycle is one frame with its members under it; what it calls
 * outside is under it too; the total holds. */
static void test_cycle_as_whole(void **state)
{
	struct fixture fx;
	uint32_t c;

	(void)state;
	from_spec(&fx, "main:4 even:10 odd:6 leaf:20 main>even:1:36 "
		  "even>odd:5:30 odd>even:4:28 odd>leaf:2:20", 0, 0);
	assert_float_equal(fx.fl.total, 40, 1e-9);
	c = fx.fl.nodes[path_node(&fx, "main")].first_child;
	assert_int_not_equal(c, NO_ID);
	assert_int_equal(fx.fl.nodes[c].func, NO_ID);
	assert_float_equal(fx.fl.nodes[c].total, 36, 1e-9);
	assert_float_equal(path_total(&fx, "main;<cycle>;even"), 10, 1e-9);
	assert_float_equal(path_total(&fx, "main;<cycle>;odd"), 6, 1e-9);
	assert_float_equal(path_total(&fx, "main;<cycle>;leaf"), 20, 1e-9);
	assert_adds_up(&fx);
	release(&fx);
}

/* Paths under the smallest cost kept, or past the node limit, stay
 * with their caller: the totals do not change. */
static void test_cut_paths_keep_cost(void **state)
{
	static const struct { double min; size_t max; } cases[] = {
		{ 25, 0 }, { 0, 2 }, { 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture fx;

		from_spec(&fx, "main:10 run:20 init:10 fib:60 main>run:1:60 "
			  "main>init:1:30 run>fib:3:40 init>fib:1:20",
			  cases[i].min, cases[i].max);
		assert_true(fx.fl.cut > 0);
		assert_float_equal(fx.fl.total, 100, 1e-9);
		assert_float_equal(path_total(&fx, "main"), 100, 1e-9);
		assert_adds_up(&fx);
		release(&fx);
	}
}

/* Each function's self over its nodes, by name */
static double self_in_tree(const struct fixture *fx, const char *name)
{
	double sum = 0;

	for (size_t i = 0; i < fx->fl.nnodes; i++)
		if (!strcmp(node_name(fx, (uint32_t)i), name))
			sum += fx->fl.nodes[i].self;
	return sum;
}

/*
 * flame_exact_self(): whatever was cut, every function's self is its
 * own again. fib's paths cut at 25 (its 40 and 20 under run and init)
 * left their cost to run and init; fib comes back under run, its
 * heaviest caller, with all its 60, and main's total is still 100.
 */
static void test_exact_self_after_cuts(void **state)
{
	static const char *const names[] = { "main", "run", "init", "fib" };
	static const double selves[] = { 10, 20, 10, 60 };
	static const struct { double min; size_t max; } cases[] = {
		{ 25, 0 }, { 0, 2 }, { 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture fx;

		from_spec(&fx, "main:10 run:20 init:10 fib:60 main>run:1:60 "
			  "main>init:1:30 run>fib:3:40 init>fib:1:20",
			  cases[i].min, cases[i].max);
		flame_exact_self(&fx.fl, &fx.cg);
		for (size_t k = 0; k < 4; k++)
			assert_float_equal(self_in_tree(&fx, names[k]),
					   selves[k], 1e-9);
		assert_float_equal(fx.fl.total, 100, 1e-9);
		assert_float_equal(path_total(&fx, "main"), 100, 1e-9);
		assert_adds_up(&fx);
		if (cases[i].min == 25)
			assert_float_equal(path_total(&fx, "main;run;fib"),
					   60, 1e-9);
		if (!cases[i].min && !cases[i].max)	/* nothing cut: as built */
			assert_float_equal(path_total(&fx, "main;init;fib"),
					   20, 1e-9);
		release(&fx);
	}
}

/* IgProf: each stack's value along its path, equal paths merged. */
static void test_exact_from_stacks(void **state)
{
	static const char text[] =
		"P=(ID=1 N=(p) T=0.01)\n"
		"C1 FN0=(F0=(p)+16 N=(main))+0\n"
		"C2 FN1=(F0+32 N=(fib))+0 V0=(PERF_TICKS):(3,3,3)\n"
		"C3 FN1+0 V0:(2,2,2)\n"
		"C4 FN1+0 V0:(1,1,1)\n"
		"C2 FN2=(F0+48 N=(work))+0 V0:(4,4,4)\n"
		"C3 FN1+0 V0:(5,5,5)\n";
	struct read_opts ro = { .want_stacks = true };
	struct fixture fx;
	char *diag = NULL;

	(void)state;
	profile_init(&fx.p);
	assert_int_equal(read_text(&fx.p, text, -1, &ro, &diag), 0);
	free(diag);
	profile_finish(&fx.p);
	analyse(&fx);
	flame_build(&fx.fl, &fx.cg, 0, 1e9, 1);	/* no limits for stacks */
	assert_false(fx.fl.estimated);
	assert_int_equal(fx.fl.cut, 0);
	assert_float_equal(fx.fl.total, 15, 0);
	assert_float_equal(path_total(&fx, "main"), 15, 0);
	assert_float_equal(path_total(&fx, "main;fib"), 6, 0);
	assert_float_equal(path_total(&fx, "main;fib;fib"), 3, 0);
	assert_float_equal(path_total(&fx, "main;fib;fib;fib"), 1, 0);
	assert_float_equal(path_total(&fx, "main;work"), 9, 0);
	assert_float_equal(path_total(&fx, "main;work;fib"), 5, 0);
	assert_adds_up(&fx);
	release(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_by_arc_cost),
		cmocka_unit_test(test_cycle_as_whole),
		cmocka_unit_test(test_cut_paths_keep_cost),
		cmocka_unit_test(test_exact_self_after_cuts),
		cmocka_unit_test(test_exact_from_stacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
