/*
 * A profile of arcs given the flame graph's estimated paths as stacks
 * (print/arc_stacks.c), then transformed (select/stack_transform.c), on
 * a graph worked out by hand:
 *
 *          main (self 10)               total 100
 *         /            \
 *   run (2 calls, 60)   init (1 call, 30)
 *        |                |
 *   fib (2 calls, 60)   fib (1 call, 30)    fib's self 90
 *
 * The estimate shares fib's 90 as 60 under run and 30 under init, and
 * each path's calls are its arc's calls in its share of the arc's cost.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cg/cg.h"
#include "print/arc_stacks.h"
#include "select/stack_transform.h"

#define GRAPH "main:10 fib:90 main>run:2:60 main>init:1:30 " \
	      "run>fib:2:60 init>fib:1:30"

static void estimate(struct profile *p, const char *spec)
{
	struct cg cg;

	profile_init(p);
	profile_from_spec(p, spec);
	cg_build(&cg, p, 0);
	cg_find_cycles(&cg);
	assert_int_equal(cg_propagate_measured(&cg), 0);
	cg_rank(&cg);
	arc_stacks_make(p, &cg, NO_ID);
	cg_release(&cg);
}

static void transform(struct profile *p, enum transform_kind kind,
		      const char *glob)
{
	struct transform t = { kind, glob };

	estimate(p, GRAPH);
	diag_capture_begin();
	assert_int_equal(stack_transform(p, &t, 1), 0);
	free(diag_capture_end());
}

static uint64_t incl_of(const struct profile *p, const char *name)
{
	return profile_func_row(p, p->func_incl, find_func(p, name))[0];
}

/* (incl, count) of an arc, or -1 when it is gone */
static long long arc(const struct profile *p, const char *from, const char *to,
		     uint64_t *count)
{
	uint32_t c = find_call(p, from, to);

	if (c == NO_ID)
		return -1;
	*count = profile_call_count(p, c);
	return (long long)profile_call_incl_at(p, c, 0);
}

/* The estimated paths, made again into costs unchanged: the graph's. */
static void test_paths(void **state)
{
	struct profile p;
	uint64_t n = 0;

	(void)state;
	transform(&p, TRANSFORM_FOLD, NULL);
	assert_true(p.stacks_estimated);
	assert_int_equal(p.totals[0], 100);
	assert_int_equal(incl_of(&p, "main"), 100);
	assert_int_equal(incl_of(&p, "fib"), 90);
	assert_int_equal(arc(&p, "run", "fib", &n), 60);
	assert_int_equal(n, 2);
	assert_int_equal(arc(&p, "init", "fib", &n), 30);
	assert_int_equal(n, 1);
	assert_int_equal(arc(&p, "main", "run", &n), 60);
	assert_int_equal(n, 2);
	profile_release(&p);
}

/* focus=run: run's path alone, its calls from main gone with main */
static void test_focus(void **state)
{
	struct profile p;
	uint64_t n = 0;

	(void)state;
	transform(&p, TRANSFORM_FOCUS, "run");
	assert_int_equal(p.totals[0], 60);
	assert_int_equal(incl_of(&p, "fib"), 60);
	assert_int_equal(arc(&p, "run", "fib", &n), 60);
	assert_int_equal(n, 2);
	assert_int_equal(arc(&p, "main", "run", &n), -1);
	profile_release(&p);
}

/* hide=run: main calls fib itself, the 2 calls run made */
static void test_hide(void **state)
{
	struct profile p;
	uint64_t n = 0;

	(void)state;
	transform(&p, TRANSFORM_HIDE, "run");
	assert_int_equal(p.totals[0], 100);
	assert_int_equal(arc(&p, "main", "fib", &n), 60);
	assert_int_equal(n, 2);
	assert_int_equal(arc(&p, "init", "fib", &n), 30);
	assert_int_equal(n, 1);
	assert_int_equal(arc(&p, "main", "run", &n), -1);
	profile_release(&p);
}

/* ignore=init: 30 less, fib's share under init gone */
static void test_ignore(void **state)
{
	struct profile p;

	(void)state;
	transform(&p, TRANSFORM_IGNORE, "init");
	assert_int_equal(p.totals[0], 70);
	assert_int_equal(incl_of(&p, "fib"), 60);
	assert_int_equal(profile_self(&p, find_func(&p, "fib"))[0], 60);
	profile_release(&p);
}

/* A cycle as a whole is a function of its own, its members under it;
 * the paths still add up to the total. */
static void test_cycle(void **state)
{
	struct profile p;
	uint64_t sum = 0;

	(void)state;
	estimate(&p, "main:2 a:5 b:5 main>a:1:12 a>b:3:10 b>a:2:8");
	assert_int_not_equal(find_func(&p, "<cycle 1 as a whole>"), NO_ID);
	for (size_t i = 0; i < p.nstack_values; i++)
		sum += p.stack_values[i].value;
	assert_int_equal(sum, p.totals[0]);
	assert_int_equal(stack_transform(&p, NULL, 0), 0);
	assert_int_not_equal(find_call(&p, "<cycle 1 as a whole>", "a"), NO_ID);
	assert_int_not_equal(find_call(&p, "main", "<cycle 1 as a whole>"), NO_ID);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_focus),
		cmocka_unit_test(test_hide),
		cmocka_unit_test(test_ignore),
		cmocka_unit_test(test_cycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
