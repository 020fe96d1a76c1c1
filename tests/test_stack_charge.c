/*
 * One sampled stack charged to functions and arcs
 * (profile/stack_charge.c), against costs worked out by hand:
 *
 *   stack (outermost first)   cost  samples
 *   main > f > f > g            40     4     f recursive: charged once
 *   main > f                    10     1
 *   main > g                     5     2
 *
 * self: main 0, f 10, g 45; inclusive: main 55, f 50, g 45;
 * arcs: main>f 50 (5 samples), f>f 40 (4), f>g 40 (4), main>g 5 (2).
 */
#include "helpers.h"

#include <string.h>

#include "cg/cg.h"
#include "profile/stack_charge.h"

static uint32_t func(struct profile *p, const char *name)
{
	return profile_func(p, NO_NAME, NO_NAME,
			    names_intern(&p->names, name, strlen(name)));
}

/* Charge the stack of names (outermost first) with cost and samples. */
static void charge(struct stack_charge *sc, const char *const *names,
		   size_t n, uint64_t cost, uint64_t samples)
{
	struct profile *p = sc->p;
	uint32_t callee = func(p, names[n - 1]);

	stack_charge_clear(sc);
	sc->cost[0] = cost;
	sc->count[0] = samples;
	stack_charge_leaf(sc, callee);
	for (size_t k = n - 1; k-- > 0;) {
		uint32_t caller = func(p, names[k]);

		stack_charge_arc(sc, caller, callee, samples);
		callee = caller;
	}
}

static uint64_t incl(const struct profile *p, const char *name)
{
	return profile_func_row(p, p->func_incl, find_func(p, name))[0];
}

static void test_by_hand(void **state)
{
	static const char *const s1[] = { "main", "f", "f", "g" };
	static const char *const s2[] = { "main", "f" };
	static const char *const s3[] = { "main", "g" };
	struct stack_charge sc;
	struct profile p;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "T", 1));
	profile_want_func_extras(&p);
	p.calls_have_incl = true;
	stack_charge_init(&sc, &p);
	charge(&sc, s1, 4, 40, 4);
	charge(&sc, s2, 2, 10, 1);
	charge(&sc, s3, 2, 5, 2);
	stack_charge_release(&sc);
	profile_finish(&p);

	assert_int_equal(profile_self(&p, find_func(&p, "main"))[0], 0);
	assert_int_equal(profile_self(&p, find_func(&p, "f"))[0], 10);
	assert_int_equal(profile_self(&p, find_func(&p, "g"))[0], 45);
	assert_int_equal(incl(&p, "main"), 55);
	assert_int_equal(incl(&p, "f"), 50);	/* not 90: once a stack */
	assert_int_equal(incl(&p, "g"), 45);
	assert_int_equal(profile_call_incl_at(&p, find_call(&p, "main", "f"), 0), 50);
	assert_int_equal(profile_call_count(&p, find_call(&p, "main", "f")), 5);
	assert_int_equal(profile_call_incl_at(&p, find_call(&p, "f", "f"), 0), 40);
	assert_int_equal(profile_call_count(&p, find_call(&p, "f", "f")), 4);
	assert_int_equal(profile_call_incl_at(&p, find_call(&p, "f", "g"), 0), 40);
	assert_int_equal(profile_call_incl_at(&p, find_call(&p, "main", "g"), 0), 5);
	assert_int_equal(profile_call_count(&p, find_call(&p, "main", "g")), 2);
	/* the samples that ended in each function */
	assert_int_equal(profile_func_row(&p, p.func_count, find_func(&p, "g"))[0], 6);
	profile_release(&p);
}

static uint64_t arc_self(const struct profile *p, const char *from,
			 const char *to)
{
	return profile_call_self(p, find_call(p, from, to))[0];
}

static uint64_t arc_incl(const struct profile *p, const char *from,
			 const char *to)
{
	return profile_call_incl_at(p, find_call(p, from, to), 0);
}

/*
 * An arc's self part (profile.call_self), with recursion, by hand:
 *
 *   stack (outermost first)   cost
 *   main > A > B > A > B        8   B's own cost, called from A
 *   main > A > B                4
 *   main > C > B                2
 *   main > A > A                3   A's own, called from main (A > A
 *                                   is no arc of the graph)
 *   main > A                    1
 *   main > B > A               16
 *
 * self: A -> B 12 (the first stack once, though A -> B is in it twice),
 * B -> A 16 (not 8 more: in the first stack B -> A is no innermost
 * arc), main -> A 4, C -> B 2, the others 0. Inclusive, each arc once
 * a stack: A -> B 12, B -> A 24, main -> A 16, main -> B 16. Then the
 * graph finds A and B a cycle, one unit: calls into it are split by its
 * ratio, here all self (no call leaves it), so main -> A is 16 + 0,
 * though A itself spent 4 of it (B 12), and the lines of the cycle as a
 * whole add up to its self cost.
 */
static void test_split_recursion(void **state)
{
	static const char *const s1[] = { "main", "A", "B", "A", "B" };
	static const char *const s2[] = { "main", "A", "B" };
	static const char *const s3[] = { "main", "C", "B" };
	static const char *const s4[] = { "main", "A", "A" };
	static const char *const s5[] = { "main", "A" };
	static const char *const s6[] = { "main", "B", "A" };
	struct stack_charge sc;
	struct profile p;
	struct cg cg;
	double s, c;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "T", 1));
	profile_want_func_extras(&p);
	p.calls_have_incl = true;
	stack_charge_init(&sc, &p);
	charge(&sc, s1, 5, 8, 1);
	charge(&sc, s2, 3, 4, 1);
	charge(&sc, s3, 3, 2, 1);
	charge(&sc, s4, 3, 3, 1);
	charge(&sc, s5, 2, 1, 1);
	charge(&sc, s6, 3, 16, 1);
	stack_charge_release(&sc);
	profile_finish(&p);

	assert_non_null(p.call_self);
	assert_int_equal(arc_self(&p, "A", "B"), 12);
	assert_int_equal(arc_self(&p, "B", "A"), 16);
	assert_int_equal(arc_self(&p, "main", "A"), 4);
	assert_int_equal(arc_self(&p, "C", "B"), 2);
	assert_int_equal(arc_self(&p, "A", "A"), 0);
	assert_int_equal(arc_self(&p, "main", "B"), 0);
	assert_int_equal(arc_self(&p, "main", "C"), 0);
	assert_int_equal(arc_incl(&p, "A", "B"), 12);
	assert_int_equal(arc_incl(&p, "B", "A"), 24);
	assert_int_equal(arc_incl(&p, "main", "A"), 16);
	assert_int_equal(arc_incl(&p, "main", "B"), 16);
	/* every stack's cost is some arc's self, or its leaf's at a root:
	 * the selfs add up to the functions' self costs here */
	assert_int_equal(profile_self(&p, find_func(&p, "A"))[0], 3 + 1 + 16);
	assert_int_equal(profile_self(&p, find_func(&p, "B"))[0], 8 + 4 + 2);

	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	assert_int_equal(cg_propagate_measured(&cg), 0);
	cg_rank(&cg);
	cg_arc_share(&cg, find_call(&p, "main", "A"), 0, &s, &c);
	assert_float_equal(s, 16, 0);
	assert_float_equal(c, 0, 0);
	cg_arc_share(&cg, find_call(&p, "C", "B"), 0, &s, &c);
	assert_float_equal(s, 2, 0);
	assert_float_equal(c, 0, 0);
	cg_arc_share(&cg, find_call(&p, "main", "B"), 0, &s, &c);
	assert_float_equal(s, 16, 0);
	assert_float_equal(c, 0, 0);
	/* outside the cycle: exact (C spent nothing itself) */
	cg_arc_share(&cg, find_call(&p, "main", "C"), 0, &s, &c);
	assert_float_equal(s, 0, 0);
	assert_float_equal(c, 2, 0);
	/* inside the cycle: no share, as ever */
	cg_arc_share(&cg, find_call(&p, "A", "B"), 0, &s, &c);
	assert_float_equal(s + c, 0, 0);
	cg_release(&cg);
	profile_release(&p);
}

/* A sum past 2^64 is held at the largest value, not wrapped. */
static void test_saturates(void **state)
{
	static const char *const s[] = { "main", "f" };
	struct stack_charge sc;
	struct profile p;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "T", 1));
	profile_want_func_extras(&p);
	p.calls_have_incl = true;
	stack_charge_init(&sc, &p);
	charge(&sc, s, 2, UINT64_MAX - 1, 1);
	charge(&sc, s, 2, 5, 1);
	stack_charge_release(&sc);
	assert_true(incl(&p, "f") == UINT64_MAX);
	profile_release(&p);
}

/*
 * stack_charge_tree() against stack_charge_leaf() and stack_charge_arc()
 * stack by stack, on random trees: few functions, so that recursion
 * (a function again further out, an arc again) is common, a leaf's
 * function now and then another than its node's as a caller (a
 * sample's own address and a return address in one frame), stacks
 * ending above others, and costs near 2^64 in one tree (the sums held
 * at the largest value). The functions and arcs are made in the order
 * the stacks' walks make them, in both profiles, so the rows are
 * compared by id.
 */
#define TREE_NODES 400

struct rnd_tree {
	uint32_t parent[TREE_NODES], func[TREE_NODES], leaf[TREE_NODES];
	uint64_t cost[TREE_NODES], samples[TREE_NODES];
};

static uint32_t rnd(uint64_t *seed, uint32_t n)
{
	*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*seed >> 33) % n;
}

static void rnd_tree(struct rnd_tree *t, uint64_t seed, bool huge)
{
	for (uint32_t i = 0; i < TREE_NODES; i++) {
		t->parent[i] = i == 0 || rnd(&seed, 16) == 0 ? NO_ID
							   : rnd(&seed, i);
		t->func[i] = rnd(&seed, 7);
		t->leaf[i] = rnd(&seed, 3) ? NO_ID
			     : rnd(&seed, 8) ? t->func[i] : rnd(&seed, 7);
		t->cost[i] = huge ? UINT64_MAX / 4 + rnd(&seed, 1000)
				  : rnd(&seed, 1000);
		t->samples[i] = rnd(&seed, 5) + 1;
	}
}

static void profile_for_tree(struct profile *p)
{
	profile_init(p);
	profile_event(p, names_intern(&p->names, "T", 1));
	profile_want_func_extras(p);
	p->calls_have_incl = true;
	for (int f = 0; f < 7; f++) {
		char name[2] = { (char)('a' + f), 0 };

		profile_func(p, NO_NAME, NO_NAME,
			     names_intern(&p->names, name, 1));
	}
}

/* every stack charged alone, up to its root */
static void charge_each(struct profile *p, const struct rnd_tree *t)
{
	struct stack_charge sc;

	stack_charge_init(&sc, p);
	for (uint32_t n = 0; n < TREE_NODES; n++) {
		uint32_t callee = t->leaf[n];

		if (callee == NO_ID)
			continue;
		stack_charge_clear(&sc);
		sc.cost[0] = t->cost[n];
		sc.count[0] = t->samples[n];
		stack_charge_leaf(&sc, callee);
		for (uint32_t up = t->parent[n]; up != NO_ID;
		     up = t->parent[up]) {
			stack_charge_arc(&sc, t->func[up], callee,
					 t->samples[n]);
			callee = t->func[up];
		}
	}
	stack_charge_release(&sc);
}

/* the tree charged at once, its nodes in the walk's order, its arcs
 * made as charge_each() makes them (each walk up to the first node an
 * earlier one passed) */
static void charge_at_once(struct profile *p, const struct rnd_tree *t)
{
	uint32_t order[TREE_NODES], pos[TREE_NODES], parent[TREE_NODES];
	uint32_t func[TREE_NODES], call[TREE_NODES], leaf[TREE_NODES];
	uint32_t leaf_ids[2 * TREE_NODES];
	uint64_t rows[3 * TREE_NODES];
	uint8_t ends[TREE_NODES];
	struct stack_tree st = { .parent = parent, .func = func,
				 .call = call, .leaf = leaf,
				 .leaf_ids = leaf_ids, .rows = rows };
	uint32_t k = 0;

	for (uint32_t n = 0; n < TREE_NODES; n++)
		ends[n] = t->leaf[n] != NO_ID;
	st.n = stack_tree_order(TREE_NODES, t->parent, ends, order);
	memset(func, 0xff, sizeof(func));
	memset(call, 0xff, sizeof(call));
	memset(leaf, 0xff, sizeof(leaf));
	memset(pos, 0xff, sizeof(pos));
	for (uint32_t i = 0; i < st.n; i++) {
		uint32_t n = order[i];

		pos[n] = i;
		parent[i] = t->parent[n] == NO_ID ? NO_ID : pos[t->parent[n]];
		if (!ends[n])
			continue;
		leaf[i] = k;
		rows[3 * k] = t->cost[n];
		rows[3 * k + 1] = rows[3 * k + 2] = t->samples[n];
		k++;
	}
	for (uint32_t n = 0; n < TREE_NODES; n++) {
		uint32_t callee = t->leaf[n], *slot;

		if (callee == NO_ID)
			continue;
		k = leaf[pos[n]];
		leaf_ids[2 * k] = callee;
		slot = &leaf_ids[2 * k + 1];
		for (uint32_t up = t->parent[n]; up != NO_ID;
		     up = t->parent[up]) {
			uint32_t u = pos[up];

			*slot = profile_call(p, t->func[up], callee);
			if (func[u] != NO_ID)
				break;
			func[u] = callee = t->func[up];
			slot = &call[u];
		}
	}
	stack_charge_tree(p, &st);
}

static void test_tree_as_each_stack(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct profile a, b;
		struct rnd_tree t;

		rnd_tree(&t, seed, seed == 40);
		profile_for_tree(&a);
		profile_for_tree(&b);
		charge_each(&a, &t);
		charge_at_once(&b, &t);
		assert_int_equal(a.nfuncs, b.nfuncs);
		assert_int_equal(a.ncalls, b.ncalls);
		for (uint32_t f = 0; f < a.nfuncs; f++) {
			assert_true(profile_self(&a, f)[0] ==
				    profile_self(&b, f)[0]);
			assert_true(profile_func_row(&a, a.func_incl, f)[0] ==
				    profile_func_row(&b, b.func_incl, f)[0]);
			assert_true(profile_func_row(&a, a.func_count, f)[0] ==
				    profile_func_row(&b, b.func_count, f)[0]);
		}
		for (uint32_t c = 0; c < a.ncalls; c++) {
			assert_int_equal(a.calls[c].caller, b.calls[c].caller);
			assert_int_equal(a.calls[c].callee, b.calls[c].callee);
			assert_true(profile_call_incl(&a, c)[0] ==
				    profile_call_incl(&b, c)[0]);
			assert_true(profile_call_self(&a, c)[0] ==
				    profile_call_self(&b, c)[0]);
			assert_true(profile_call_count(&a, c) ==
				    profile_call_count(&b, c));
		}
		profile_release(&a);
		profile_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_split_recursion),
		cmocka_unit_test(test_saturates),
		cmocka_unit_test(test_tree_as_each_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
