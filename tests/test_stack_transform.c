/*
 * The transforms on whole stacks (select/stack_transform.c) against
 * totals worked out by hand on a small profile of stacks:
 *
 *   stack                    value  samples
 *   main > a > f               10     1
 *   main > a > f > g           20     2
 *   main > b > g               30     3
 *   main > b > f > f > g       40     4
 *   main                        5     5
 *   f > g  (another thread)     7     6      total 112
 *
 * Inclusive: main 105, a 30, b 70, f 10+20+40+7 = 77 (the recursive
 * stack once), g 20+30+40+7 = 97. f lives in libf.so.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "select/stack_transform.h"

static uint32_t func(struct profile *p, const char *name)
{
	name_id obj = strcmp(name, "f") ? NO_NAME
					: names_intern(&p->names, "/lib/libf.so", 12);

	return profile_func(p, obj, NO_NAME,
			    names_intern(&p->names, name, strlen(name)));
}

/* A stack "main;a;f" with its value and samples. */
static void stack(struct profile *p, const char *path, uint64_t value,
		  uint64_t samples)
{
	uint32_t s = NO_ID;
	char name[32];

	while (*path) {
		size_t len = strcspn(path, ";");

		memcpy(name, path, len);
		name[len] = '\0';
		s = profile_stack(p, func(p, name), s);
		path += len + (path[len] == ';');
	}
	profile_add_stack_value(p, s, 0, value, samples);
}

static void make(struct profile *p)
{
	profile_init(p);
	profile_event(p, names_intern(&p->names, "T", 1));
	stack(p, "main;a;f", 10, 1);
	stack(p, "main;a;f;g", 20, 2);
	stack(p, "main;b;g", 30, 3);
	stack(p, "main;b;f;f;g", 40, 4);
	stack(p, "main", 5, 5);
	stack(p, "f;g", 7, 6);
	profile_want_func_extras(p);
	/* as a reader of whole stacks keeps it: recount() makes it anew */
	profile_want_call_self(p);
	profile_finish(p);
}

/* An arc's self part (profile.call_self), or -1 when the arc is gone. */
static long long arc_self(const struct profile *p, const char *from,
			  const char *to)
{
	uint32_t c = find_call(p, from, to);

	return c == NO_ID ? -1 : (long long)profile_call_self(p, c)[0];
}

static uint64_t self_of(const struct profile *p, const char *name)
{
	uint32_t f = find_func(p, name);

	return f == NO_ID ? 0 : profile_self(p, f)[0];
}

static uint64_t incl_of(const struct profile *p, const char *name)
{
	uint32_t f = find_func(p, name);

	return f == NO_ID ? 0 : profile_func_row(p, p->func_incl, f)[0];
}

/* An arc's inclusive cost, or -1 when the arc is gone. */
static long long arc_incl(const struct profile *p, const char *from,
			  const char *to)
{
	uint32_t c = find_call(p, from, to);

	return c == NO_ID ? -1 : (long long)profile_call_incl_at(p, c, 0);
}

static uint64_t arc_count(const struct profile *p, const char *from,
			  const char *to)
{
	uint32_t c = find_call(p, from, to);

	return c == NO_ID ? 0 : profile_call_count(p, c);
}

static void run(struct profile *p, const struct transform *t, size_t n)
{
	make(p);
	diag_capture_begin();
	assert_int_equal(stack_transform(p, t, n), 0);
	free(diag_capture_end());
}

/* No transform: the costs made from the stacks are the hand's. */
static void test_none(void **state)
{
	struct profile p;

	(void)state;
	run(&p, NULL, 0);
	assert_int_equal(p.totals[0], 112);
	assert_int_equal(incl_of(&p, "main"), 105);
	assert_int_equal(incl_of(&p, "a"), 30);
	assert_int_equal(incl_of(&p, "b"), 70);
	assert_int_equal(incl_of(&p, "f"), 77);
	assert_int_equal(incl_of(&p, "g"), 97);
	assert_int_equal(self_of(&p, "g"), 97);
	assert_int_equal(self_of(&p, "f"), 10);
	/* f -> g in S2, S4 (once), S6; f -> f in S4 */
	assert_int_equal(arc_incl(&p, "f", "g"), 67);
	assert_int_equal(arc_count(&p, "f", "g"), 2 + 4 + 6);
	assert_int_equal(arc_incl(&p, "f", "f"), 40);
	/* the self parts: the stacks ending in g with f next, S2, S4 and
	 * S6; in f from a, S1; none to the self-call f -> f */
	assert_int_equal(arc_self(&p, "f", "g"), 20 + 40 + 7);
	assert_int_equal(arc_self(&p, "b", "g"), 30);
	assert_int_equal(arc_self(&p, "a", "f"), 10);
	assert_int_equal(arc_self(&p, "f", "f"), 0);
	assert_int_equal(arc_self(&p, "b", "f"), 0);
	assert_int_equal(stack_matched_cost(&p, "f", 0), 77);
	profile_release(&p);
}

/* focus=f: the total is f's inclusive cost; stacks start at f. */
static void test_focus(void **state)
{
	static const struct transform t[] = { { TRANSFORM_FOCUS, "f" } };
	struct profile p;

	(void)state;
	run(&p, t, 1);
	assert_int_equal(p.totals[0], 77);
	assert_int_equal(incl_of(&p, "f"), 77);
	assert_int_equal(self_of(&p, "f"), 10);
	assert_int_equal(self_of(&p, "g"), 67);
	assert_int_equal(incl_of(&p, "main"), 0);
	assert_int_equal(arc_incl(&p, "main", "a"), -1);
	assert_int_equal(arc_incl(&p, "f", "g"), 67);
	assert_int_equal(arc_incl(&p, "f", "f"), 40);
	/* the samples of the stacks kept */
	assert_int_equal(arc_count(&p, "f", "g"), 12);
	assert_int_equal(profile_func_row(&p, p.func_count,
					  find_func(&p, "g"))[0], 2 + 4 + 6);
	profile_release(&p);
}

/* ignore=f: the total drops by exactly f's inclusive cost. */
static void test_ignore(void **state)
{
	static const struct transform t[] = { { TRANSFORM_IGNORE, "f" } };
	struct profile p;

	(void)state;
	run(&p, t, 1);
	assert_int_equal(p.totals[0], 112 - 77);
	assert_int_equal(incl_of(&p, "f"), 0);
	assert_int_equal(incl_of(&p, "main"), 35);
	assert_int_equal(incl_of(&p, "b"), 30);
	assert_int_equal(self_of(&p, "g"), 30);
	assert_int_equal(arc_incl(&p, "a", "f"), -1);
	assert_int_equal(arc_incl(&p, "main", "a"), -1);	/* a had f only */
	assert_int_equal(arc_incl(&p, "b", "g"), 30);
	profile_release(&p);
}

/* hide=f: f's self goes to its caller, its callees become the caller's;
 * the total stays, and a stack of f alone keeps f. */
static void test_hide(void **state)
{
	static const struct transform t[] = { { TRANSFORM_HIDE, "f" } };
	struct profile p;

	(void)state;
	run(&p, t, 1);
	assert_int_equal(p.totals[0], 112);
	assert_int_equal(self_of(&p, "a"), 10);
	assert_int_equal(self_of(&p, "g"), 97);
	assert_int_equal(incl_of(&p, "f"), 0);
	assert_int_equal(incl_of(&p, "b"), 70);
	assert_int_equal(arc_incl(&p, "a", "g"), 20);
	assert_int_equal(arc_incl(&p, "b", "g"), 70);
	assert_int_equal(arc_incl(&p, "f", "g"), -1);
	/* f hidden, g's callers are f's: S4's 40 now b -> g's own */
	assert_int_equal(arc_self(&p, "b", "g"), 30 + 40);
	assert_int_equal(arc_self(&p, "a", "g"), 20);
	assert_int_equal(arc_self(&p, "main", "a"), 10);
	profile_release(&p);

	/* every frame hidden: the outermost stays */
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "T", 1));
	stack(&p, "f;f", 3, 1);
	stack(&p, "f;f;g", 4, 1);
	profile_want_func_extras(&p);
	profile_finish(&p);
	assert_int_equal(stack_transform(&p, t, 1), 0);
	assert_int_equal(p.totals[0], 7);
	assert_int_equal(self_of(&p, "f"), 3);
	assert_int_equal(self_of(&p, "g"), 4);
	assert_int_equal(incl_of(&p, "f"), 3);
	assert_int_equal(arc_incl(&p, "f", "g"), -1);
	profile_release(&p);
}

/* fold: f > f is one f; totals and inclusive costs unchanged, the
 * recursive arc gone. */
static void test_fold(void **state)
{
	static const struct transform t[] = { { TRANSFORM_FOLD, NULL } };
	struct profile p;

	(void)state;
	run(&p, t, 1);
	assert_int_equal(p.totals[0], 112);
	assert_int_equal(incl_of(&p, "f"), 77);
	assert_int_equal(incl_of(&p, "g"), 97);
	assert_int_equal(arc_incl(&p, "f", "f"), -1);
	assert_int_equal(arc_incl(&p, "b", "f"), 40);
	assert_int_equal(arc_incl(&p, "f", "g"), 67);
	profile_release(&p);
}

/* In order: focus=b then hide=f leaves b > g of 70; ignore=g then
 * focus=f leaves f's own 10; focus=f then hide=f keeps a stack of f
 * alone as f. */
static void test_order(void **state)
{
	static const struct transform t1[] = { { TRANSFORM_FOCUS, "b" },
					       { TRANSFORM_HIDE, "f" } };
	static const struct transform t2[] = { { TRANSFORM_IGNORE, "g" },
					       { TRANSFORM_FOCUS, "f" } };
	static const struct transform t3[] = { { TRANSFORM_FOCUS, "f" },
					       { TRANSFORM_HIDE, "f" } };
	struct profile p;

	(void)state;
	run(&p, t1, 2);
	assert_int_equal(p.totals[0], 70);
	assert_int_equal(arc_incl(&p, "b", "g"), 70);
	assert_int_equal(incl_of(&p, "f"), 0);
	profile_release(&p);
	run(&p, t2, 2);
	assert_int_equal(p.totals[0], 10);
	assert_int_equal(self_of(&p, "f"), 10);
	profile_release(&p);
	run(&p, t3, 2);
	assert_int_equal(p.totals[0], 77);
	assert_int_equal(self_of(&p, "f"), 10);
	assert_int_equal(self_of(&p, "g"), 67);
	assert_int_equal(arc_incl(&p, "f", "g"), -1);
	profile_release(&p);
}

/* obj:GLOB names the functions of an object; a glob that names nothing
 * is said, and focus on it leaves nothing. */
static void test_patterns(void **state)
{
	static const struct transform obj[] = { { TRANSFORM_FOCUS, "obj:libf*" } };
	static const struct transform none[] = { { TRANSFORM_FOCUS, "nosuch*" } };
	struct profile p;
	char *diag;

	(void)state;
	run(&p, obj, 1);
	assert_int_equal(p.totals[0], 77);
	profile_release(&p);
	make(&p);
	diag_capture_begin();
	assert_int_equal(stack_transform(&p, none, 1), 0);
	diag = diag_capture_end();
	assert_non_null(strstr(diag, "--focus=nosuch* names no function"));
	assert_int_equal(p.totals[0], 0);
	free(diag);
	profile_release(&p);
}

/* A leak goes with its stack; a position's cost is its function's self
 * cost left, shared over its lines, which still add up to it. */
static void test_leaks_and_lines(void **state)
{
	static const struct transform t[] = { { TRANSFORM_FOCUS, "b" } };
	struct profile p;
	uint32_t g, lo, hi;
	struct pleak *lk;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "T", 1));
	stack(&p, "main;a;f;g", 27, 1);
	stack(&p, "main;b;g", 70, 1);
	profile_want_func_extras(&p);
	g = find_func(&p, "g");
	lo = profile_pos(&p, g, NO_NAME, 0, 0x1000);
	hi = profile_pos(&p, g, NO_NAME, 0, 0x1010);
	profile_pos_cost(&p, lo)[0] = 60;
	profile_pos_cost(&p, hi)[0] = 37;
	profile_self(&p, g)[0] = 97;
	ARRAY_GROW(p.leaks, 2, p.leaks_alloc);
	p.nleaks = 2;
	lk = p.leaks;
	lk[0] = (struct pleak){ .addr = 1, .size = 8, .stack = 3 };	/* a;f;g */
	lk[1] = (struct pleak){ .addr = 2, .size = 16, .stack = 6 };	/* b;g */
	profile_finish(&p);
	assert_int_equal(stack_transform(&p, t, 1), 0);
	assert_int_equal(p.totals[0], 70);
	assert_int_equal(p.nleaks, 1);
	assert_int_equal(p.leaks[0].size, 16);
	assert_int_equal(p.stacks[p.leaks[0].stack].func, g);
	assert_int_equal(p.stacks[p.stacks[p.leaks[0].stack].caller].func,
			 find_func(&p, "b"));
	/* 60 * 70 / 97 = 43.3 and 37 * 70 / 97 = 26.7: 43 and 27 */
	assert_int_equal(profile_pos_cost(&p, lo)[0], 43);
	assert_int_equal(profile_pos_cost(&p, hi)[0], 27);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_focus),
		cmocka_unit_test(test_ignore),
		cmocka_unit_test(test_hide),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_leaks_and_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
