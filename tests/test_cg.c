/*
 * The call graph: cycle detection, topological numbering, measured and
 * estimated (gprof) propagation, ranking. Graphs are written as specs
 * (tests/helpers.h): "main:5 a:10 main>a:2:40" is main with self 5
 * calling a twice, those calls costing 40 inclusive.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cg/cg.h"

struct fixture {
	struct profile p;
	struct cg cg;
};

static void analyse(struct fixture *fx, const char *spec)
{
	profile_init(&fx->p);
	profile_from_spec(&fx->p, spec);
	cg_build(&fx->cg, &fx->p, 0);
	cg_find_cycles(&fx->cg);
	cg_propagate_measured(&fx->cg);
	cg_rank(&fx->cg);
}

static void release(struct fixture *fx)
{
	cg_release(&fx->cg);
	profile_release(&fx->p);
}

/* A profile of one event, "Ir", for functions added by the caller. */
static void start_ir_profile(struct profile *p)
{
	profile_init(p);
	profile_event(p, names_intern(&p->names, "Ir", 2));
}

/* The graph of a profile filled in by hand, analysed and ranked. */
static void rank_profile(struct cg *cg, struct profile *p)
{
	profile_finish(p);
	cg_build(cg, p, 0);
	cg_find_cycles(cg);
	cg_propagate_measured(cg);
	cg_rank(cg);
}

static uint32_t node(struct fixture *fx, const char *name)
{
	uint32_t f = find_func(&fx->p, name);

	assert_int_not_equal(f, NO_ID);
	return f;
}

static uint64_t incl(struct fixture *fx, const char *name)
{
	uint64_t row[1];

	cg_inclusive_row(&fx->cg, node(fx, name), row);
	return row[0];
}

static uint32_t cycle_of(struct fixture *fx, const char *name)
{
	return fx->cg.nodes[node(fx, name)].cycle;
}

/* fib calls itself: a self-arc is not a cycle, and is not propagated. */
static void test_self_recursion(void **state)
{
	struct fixture fx;

	(void)state;
	analyse(&fx, "main:1 fib:100 main>fib:1:100 fib>fib:176:99");
	assert_int_equal(fx.cg.ncycles, 0);
	assert_int_equal(fx.cg.narcs, 1);
	assert_int_equal(cg_node_self_calls(&fx.cg, node(&fx, "fib")), 176);
	assert_int_equal(cg_node_self_calls(&fx.cg, node(&fx, "main")), 0);
	assert_int_equal(fx.cg.nodes[node(&fx, "fib")].calls, 1);
	assert_int_equal(incl(&fx, "fib"), 100);
	assert_int_equal(incl(&fx, "main"), 101);
	/* -k deleting the self-call: no recursive calls left */
	{
		struct cg without;
		bool *deleted = xcalloc(fx.p.ncalls, sizeof(*deleted));

		deleted[find_call(&fx.p, "fib", "fib")] = true;
		cg_build_without(&without, &fx.p, 0, deleted);
		assert_int_equal(cg_node_self_calls(&without,
						    node(&fx, "fib")), 0);
		assert_int_equal(without.nodes[node(&fx, "fib")].calls, 1);
		cg_release(&without);
		free(deleted);
	}
	release(&fx);
}

/* even <-> odd: one cycle of two, costed as a whole exactly once. */
static void test_mutual_recursion(void **state)
{
	struct fixture fx;
	uint32_t c;

	(void)state;
	analyse(&fx, "main:1 even:30 odd:20 leaf:7 "
		     "main>even:1:57 even>odd:5:50 odd>even:4:40 odd>leaf:1:7");
	assert_int_equal(fx.cg.ncycles, 1);
	c = cycle_of(&fx, "even");
	assert_int_not_equal(c, NO_ID);
	assert_int_equal(cycle_of(&fx, "odd"), c);
	assert_int_equal(cycle_of(&fx, "main"), NO_ID);
	assert_int_equal(fx.cg.cycles[c].nmembers, 2);
	assert_int_equal(fx.cg.cycles[c].calls, 1);
	assert_int_equal(fx.cg.cycles[c].internal_calls, 9);
	/* members' self + the only call that leaves the cycle */
	assert_int_equal(fx.cg.cycle_self[c], 50);
	assert_int_equal(fx.cg.cycle_child[c], 7);
	/* odd's calls to even are inside the cycle: not its children */
	assert_int_equal(fx.cg.child[node(&fx, "odd")], 7);
	assert_int_equal(fx.cg.child[node(&fx, "even")], 0);
	/* the caller of the cycle gets the measured arc, no double count */
	assert_int_equal(incl(&fx, "main"), 58);
	/* a member's inclusive is bounded by its cycle */
	assert_true(incl(&fx, "even") <= 57);
	release(&fx);
}

static void test_three_cycle(void **state)
{
	struct fixture fx;
	struct cg unranked;
	uint32_t c;

	(void)state;
	analyse(&fx, "main:0 a:1 b:2 c:3 main>a:1:6 a>b:1:5 b>c:1:3 c>a:1:1");
	assert_int_equal(fx.cg.ncycles, 1);
	c = cycle_of(&fx, "a");
	assert_int_equal(cycle_of(&fx, "b"), c);
	assert_int_equal(cycle_of(&fx, "c"), c);
	assert_int_equal(fx.cg.cycles[c].nmembers, 3);
	assert_int_equal(fx.cg.cycle_self[c] + fx.cg.cycle_child[c], 6);
	/* members share one topological number, below their caller's;
	 * cg_rank() frees the numbers, so they are looked at before it */
	assert_null(fx.cg.topo);
	cg_build(&unranked, &fx.p, 0);
	cg_find_cycles(&unranked);
	assert_int_equal(unranked.topo[node(&fx, "a")],
			 unranked.topo[node(&fx, "c")]);
	assert_true(unranked.topo[node(&fx, "a")] <
		    unranked.topo[node(&fx, "main")]);
	cg_release(&unranked);
	assert_int_equal(fx.cg.cycles[c].number, 1);
	release(&fx);
}

/* Two cycles, the first calling into the second: the second's cost
 * reaches the first through the arc between them, once. */
static void test_two_cycles_joined(void **state)
{
	struct fixture fx;
	uint32_t c1, c2;

	(void)state;
	analyse(&fx, "main:0 a:10 b:10 x:5 y:5 "
		     "main>a:1:40 a>b:2:30 b>a:1:20 b>x:1:20 x>y:3:15 y>x:2:10");
	assert_int_equal(fx.cg.ncycles, 2);
	c1 = cycle_of(&fx, "a");
	c2 = cycle_of(&fx, "x");
	assert_int_not_equal(c1, c2);
	assert_int_equal(cycle_of(&fx, "b"), c1);
	assert_int_equal(cycle_of(&fx, "y"), c2);
	assert_int_equal(fx.cg.cycle_self[c2] + fx.cg.cycle_child[c2], 10);
	assert_int_equal(fx.cg.cycle_self[c1], 20);
	assert_int_equal(fx.cg.cycle_child[c1], 20);
	assert_true(fx.cg.cycles[c2].topo < fx.cg.cycles[c1].topo);
	/* the bigger cycle is listed first and numbered 1 */
	assert_int_equal(fx.cg.cycles[c1].number, 1);
	assert_int_equal(fx.cg.cycles[c2].number, 2);
	assert_int_equal(incl(&fx, "main"), 40);
	release(&fx);
}

static void test_disconnected_and_only_called(void **state)
{
	struct fixture fx;
	uint32_t lonely, leaf;

	(void)state;
	analyse(&fx, "main:3 lonely:9 main>leaf:2:0");
	lonely = node(&fx, "lonely");
	leaf = node(&fx, "leaf");
	assert_int_equal(fx.cg.ncycles, 0);
	assert_int_equal(incl(&fx, "lonely"), 9);
	assert_int_equal(fx.cg.nodes[lonely].calls, 0);
	/* a function that is only called, with no cost, is still listed */
	assert_int_equal(fx.cg.nodes[leaf].calls, 2);
	assert_int_not_equal(fx.cg.nodes[leaf].index, 0);
	assert_int_equal(incl(&fx, "leaf"), 0);
	/* lonely (9) outranks main (3) */
	assert_true(fx.cg.nodes[lonely].index < fx.cg.nodes[node(&fx, "main")].index);
	release(&fx);
}

/* A chain deeper than any C stack would take recursively. */
static void test_deep_chain(void **state)
{
	enum { DEPTH = 200000 };
	struct profile p;
	struct cg cg;
	uint32_t prev = NO_ID;
	uint64_t row[1];

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	for (uint32_t i = 0; i < DEPTH; i++) {
		char name[32];
		uint32_t f;

		snprintf(name, sizeof(name), "f%u", i);
		f = profile_func(&p, NO_NAME, NO_NAME,
				 names_intern(&p.names, name, strlen(name)));
		profile_self(&p, f)[0] = 1;
		if (prev != NO_ID) {
			uint32_t c = profile_call(&p, prev, f);

			profile_call_set_count(&p, c, 1);
			profile_call_incl(&p, c)[0] = DEPTH - i;
		}
		prev = f;
	}
	/* and close it into one huge cycle */
	profile_call_incl(&p, profile_call(&p, prev, 0))[0] = 1;
	profile_call_set_count(&p, p.ncalls - 1, 1);
	p.calls_have_incl = true;
	profile_finish(&p);
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);
	assert_int_equal(cg.ncycles, 1);
	assert_int_equal(cg.cycles[0].nmembers, DEPTH);
	assert_int_equal(cg.cycle_self[0], DEPTH);
	cg_inclusive_row(&cg, 0, row);
	assert_true(row[0] <= DEPTH);
	cg_release(&cg);
	profile_release(&p);
}

/*
 * Two-function cycles spread over several 64-node words, some across a
 * word's edge, among functions in no cycle: each member's inclusive cost
 * is its own (member rows are kept for members only, found by rank).
 * Cycle k <-> k+1: root calls k (1000 + k inclusive), k calls k + 1
 * (500 + k), k + 1 calls k back (10) and a leaf of self 10000 + k. The
 * whole cycle is 10002 + k; k's calls in 1010 + k, k + 1's 500 + k.
 */
static void test_member_rows(void **state)
{
	static const uint32_t first[] = { 2, 62, 64, 126, 190, 254, 296 };
	enum { NFUNCS = 300, NCYC = sizeof(first) / sizeof(first[0]) };
	struct profile p;
	struct cg cg;
	uint32_t f[NFUNCS + NCYC];
	uint64_t row[1];

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	for (uint32_t i = 0; i < NFUNCS + NCYC; i++) {
		char name[32];
		int len = snprintf(name, sizeof(name), "f%u", i);

		f[i] = profile_func(&p, NO_NAME, NO_NAME,
				    names_intern(&p.names, name, (size_t)len));
		profile_self(&p, f[i])[0] =
			i < NFUNCS ? 1 : 10000 + first[i - NFUNCS];
	}
	for (uint32_t c = 0; c < NCYC; c++) {
		/* from -1: the root; to 2: the cycle's leaf; plus_k:
		 * inclusive incl + k, else incl */
		static const struct {
			int from, to, incl;
			bool plus_k;
		} arcs[] = {
			{ -1, 0, 1000, true }, { 0, 1, 500, true },
			{ 1, 0, 10, false }, { 1, 2, 10000, true },
		};
		uint32_t k = first[c];

		for (size_t a = 0; a < sizeof(arcs) / sizeof(arcs[0]); a++) {
			uint32_t from = arcs[a].from < 0
					? 0 : k + (uint32_t)arcs[a].from;
			uint32_t to = arcs[a].to == 2
					? NFUNCS + c : k + (uint32_t)arcs[a].to;
			uint32_t call = profile_call(&p, f[from], f[to]);

			profile_call_set_count(&p, call, 1);
			profile_call_incl(&p, call)[0] =
				(uint64_t)arcs[a].incl + (arcs[a].plus_k ? k : 0);
		}
	}
	p.calls_have_incl = true;
	profile_finish(&p);
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	assert_int_equal(cg_propagate_measured(&cg), 0);
	assert_int_equal(cg.ncycles, NCYC);
	for (uint32_t c = 0; c < NCYC; c++) {
		uint32_t k = first[c];

		assert_int_not_equal(cg.nodes[f[k]].cycle, NO_ID);
		cg_inclusive_row(&cg, f[k], row);
		assert_int_equal(row[0], 1010 + k);
		cg_inclusive_row(&cg, f[k + 1], row);
		assert_int_equal(row[0], 500 + k);
		assert_int_equal(cg_cycle_self(&cg, cg.nodes[f[k]].cycle, 0) +
				 cg_cycle_child(&cg, cg.nodes[f[k]].cycle, 0),
				 10002 + k);
	}
	/* a function in no cycle: self + children */
	cg_inclusive_row(&cg, f[NFUNCS], row);
	assert_int_equal(row[0], 10000 + first[0]);
	cg_release(&cg);
	profile_release(&p);
}

/*
 * Ranking many entries (cg_rank sorts in place with its own introsort):
 * self costs in patterns that trouble quicksorts (sorted, reversed, all
 * equal, organ pipe, random with many ties); every listed function once,
 * each entry before the next by total, then by name where totals tie.
 */
static void check_rank(unsigned pattern, uint32_t n)
{
	struct profile p;
	struct cg cg;
	uint64_t seed = 12345;
	bool *seen = xcalloc(n, sizeof(*seen));

	start_ir_profile(&p);
	for (uint32_t i = 0; i < n; i++) {
		char name[32];
		uint32_t f;
		uint64_t v;

		snprintf(name, sizeof(name), "f%u", i);
		f = profile_func(&p, NO_NAME, NO_NAME,
				 names_intern(&p.names, name, strlen(name)));
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		v = pattern == 0 ? i + 1 : pattern == 1 ? n - i
		  : pattern == 2 ? 7 : pattern == 3 ? (i < n / 2 ? i : n - i) + 1
		  : (seed >> 33) % 50 + 1;
		profile_self(&p, f)[0] = v;
	}
	rank_profile(&cg, &p);
	assert_int_equal(cg.norder, n);
	for (size_t i = 0; i < cg.norder; i++) {
		uint32_t f = cg_order_entry(&cg, i).id;

		assert_false(cg_order_entry(&cg, i).is_cycle);
		assert_false(seen[f]);
		seen[f] = true;
		assert_int_equal(cg.nodes[f].index, i + 1);
		if (i) {
			uint32_t g = cg_order_entry(&cg, i - 1).id;
			uint64_t a = profile_self(&p, g)[0];
			uint64_t b = profile_self(&p, f)[0];

			assert_true(a >= b);
			if (a == b)
				assert_true(strcmp(profile_str(&p, p.funcs[g].name),
						   profile_str(&p, p.funcs[f].name)) < 0);
		}
	}
	free(seen);
	cg_release(&cg);
	profile_release(&p);
}

static void test_rank_many(void **state)
{
	(void)state;
	for (unsigned pattern = 0; pattern < 5; pattern++) {
		check_rank(pattern, 30000);
		for (uint32_t n = 1; n < 40; n++)
			check_rank(pattern, n);
	}
}

/*
 * Ties broken by name as strcmp() orders names: names sharing long
 * prefixes, names that are prefixes of others, the same name in other
 * files (then by function index), bytes past 0x7f (which strcmp()
 * orders above ASCII), in runs of equal cost small and large.
 */
static void check_rank_names(uint32_t n, unsigned costs, uint64_t seed)
{
	static const char *const prefixes[] = {
		"", "std::vector<int, std::allocator<int> >::_M_realloc_insert",
		"std::vector<int, std::allocator<int> >::_M_realloc",
		"\xc3\xa9t\xc3\xa9", "a", "ab",
	};
	static const char alphabet[] = "ab#c\x7f\x80\xff";
	struct profile p;
	struct cg cg;

	start_ir_profile(&p);
	for (uint32_t i = 0; i < n; i++) {
		char name[160];
		size_t len;
		uint32_t f;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		len = (size_t)snprintf(name, sizeof(name), "%s",
				       prefixes[(seed >> 33) % 6]);
		for (unsigned k = (unsigned)(seed >> 40) % 6; k > 0; k--) {
			seed = seed * 6364136223846793005ULL + 1;
			name[len++] = alphabet[(seed >> 35) % (sizeof(alphabet) - 1)];
		}
		name[len] = '\0';
		/* the same name again in another file: another function */
		f = profile_func(&p, NO_NAME,
				 names_intern(&p.names, "x.c", (size_t)(i % 3)),
				 names_intern(&p.names, name, len));
		profile_self(&p, f)[0] = (seed >> 20) % costs + 1;
	}
	rank_profile(&cg, &p);
	for (size_t i = 1; i < cg.norder; i++) {
		uint32_t g = cg_order_entry(&cg, i - 1).id;
		uint32_t f = cg_order_entry(&cg, i).id;
		uint64_t a = profile_self(&p, g)[0], b = profile_self(&p, f)[0];
		int r;

		assert_true(a >= b);
		if (a != b)
			continue;
		r = strcmp(profile_str(&p, p.funcs[g].name),
			   profile_str(&p, p.funcs[f].name));
		assert_true(r < 0 || (r == 0 && g < f));
	}
	cg_release(&cg);
	profile_release(&p);
}

static void test_rank_names(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed < 40; seed++)
		check_rank_names((uint32_t)(seed * 7), 3, seed);
	check_rank_names(20000, 1, 99);
	check_rank_names(20000, 40, 7);
}

/*
 * gprof's propagation for count-only data: a callee's time is shared
 * among callers in proportion to their calls.
 *   main -> a (3 calls), b -> a (1 call), main -> b; a has 8 s.
 */
static void test_estimated_proportional(void **state)
{
	struct profile p;
	struct cg cg;
	double self[3];
	uint32_t m, a, b;

	(void)state;
	profile_init(&p);
	profile_from_spec(&p, "main:0 a:0 b:0 main>a:3 b>a:1 main>b:1");
	m = find_func(&p, "main");
	a = find_func(&p, "a");
	b = find_func(&p, "b");
	self[m] = 1;
	self[a] = 8;
	self[b] = 2;
	cg_build(&cg, &p, 0);
	assert_false(cg.measured);
	cg_find_cycles(&cg);
	cg_propagate_estimated(&cg, self);
	assert_float_equal(cg.est_child[b], 2.0, 1e-9);	/* 8 * 1/4 */
	assert_float_equal(cg.est_child[m], 6.0 + 4.0, 1e-9); /* 8*3/4 + (2+2) */
	assert_float_equal(cg.est_child[a], 0.0, 1e-9);
	cg_release(&cg);
	profile_release(&p);
}

/* Estimated, with a cycle: the cycle's time goes to its outside
 * callers by their share of the calls that enter the cycle. */
static void test_estimated_cycle(void **state)
{
	struct profile p;
	struct cg cg;
	double self[4];
	uint32_t m, x, y, z;

	(void)state;
	profile_init(&p);
	profile_from_spec(&p, "main:0 x:0 y:0 z:0 main>x:2 x>y:5 y>x:4 y>z:10");
	m = find_func(&p, "main");
	x = find_func(&p, "x");
	y = find_func(&p, "y");
	z = find_func(&p, "z");
	self[m] = 0;
	self[x] = 1;
	self[y] = 2;
	self[z] = 3;
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	cg_propagate_estimated(&cg, self);
	assert_int_equal(cg.ncycles, 1);
	assert_float_equal(cg.est_cycle_self[0], 3.0, 1e-9);
	assert_float_equal(cg.est_cycle_child[0], 3.0, 1e-9);
	assert_float_equal(cg.est_child[m], 6.0, 1e-9);
	/* x -> y is inside the cycle: nothing propagates along it */
	assert_float_equal(cg.est_child[x], 0.0, 1e-9);
	cg_release(&cg);
	profile_release(&p);
}

/* The display share of an arc adds up to its measured inclusive cost. */
static void test_arc_share_adds_up(void **state)
{
	struct fixture fx;

	(void)state;
	analyse(&fx, "main:0 a:30 b:10 main>a:3:33 x:0 x>a:1:7 a>b:2:10");
	assert_int_equal(fx.cg.narcs, 3);
	for (uint32_t i = 0; i < fx.cg.narcs; i++) {
		double s, c;
		uint32_t a = fx.cg.out[i];
		uint64_t want = profile_call_incl_at(&fx.p, a, 0);

		cg_arc_share(&fx.cg, a, 0, &s, &c);
		assert_float_equal(s + c, (double)want, 1e-6);
	}
	release(&fx);
}

/* cg_callers against a scan of the calls: every node's, and a random
 * half's (the others asked for by nobody), in the profile's order. */
static void check_callers(const struct cg *cg, unsigned seed)
{
	uint64_t chosen[2] = { 0, 0 };
	struct cg_callers all, some;

	for (uint32_t n = 0; n < cg->nnodes; n++)
		if ((n * 7 + seed) % 3 != 0)
			chosen[n / 64] |= (uint64_t)1 << (n % 64);
	cg_callers_build(&all, cg, NULL);
	cg_callers_build(&some, cg, chosen);
	for (uint32_t n = 0; n < cg->nnodes; n++) {
		const uint32_t *in, *in_some;
		size_t k = cg_callers_of(&all, n, &in), j = 0;

		for (size_t c = 0; c < cg->p->ncalls; c++) {
			if (cg->p->calls[c].callee != n || !cg_is_arc(cg, c))
				continue;
			assert_true(j < k);
			assert_int_equal(in[j++], c);
		}
		assert_int_equal(j, k);
		if (chosen[n / 64] >> (n % 64) & 1) {
			assert_int_equal(cg_callers_of(&some, n, &in_some), k);
			if (k)
				assert_memory_equal(in_some, in, k * sizeof(*in));
		}
	}
	cg_callers_release(&all);
	cg_callers_release(&some);
}

/*
 * Random graphs against the definition: two functions share a cycle
 * exactly when each reaches the other (a Warshall closure), members
 * share a topological number, every other arc goes from a higher
 * number to a lower one, and each cycle's member list is its members;
 * and the callers of each node.
 */
static void test_cycles_random(void **state)
{
	enum { MAXN = 24 };

	(void)state;
	srand(7);
	for (int round = 0; round < 300; round++) {
		size_t n = 1 + (size_t)rand() % MAXN, narcs = (size_t)rand() % (3 * n);
		bool reach[MAXN][MAXN] = { { false } };
		struct profile p;
		struct cg cg;
		uint32_t f[MAXN];

		profile_init(&p);
		profile_event(&p, names_intern(&p.names, "Ir", 2));
		for (size_t i = 0; i < n; i++) {
			char name[8];

			snprintf(name, sizeof(name), "f%zu", i);
			f[i] = profile_func(&p, NO_NAME, NO_NAME,
					    names_intern(&p.names, name,
							 strlen(name)));
		}
		for (size_t a = 0; a < narcs; a++) {
			size_t u = (size_t)rand() % n, v = (size_t)rand() % n;

			profile_call_add_count(&p, profile_call(&p, f[u], f[v]), 1);
			reach[u][v] = true;
		}
		for (size_t k = 0; k < n; k++)
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++)
					reach[i][j] |= reach[i][k] && reach[k][j];
		cg_build(&cg, &p, 0);
		cg_find_cycles(&cg);
		for (size_t i = 0; i < n; i++) {
			size_t in_cycle = 0;

			assert_int_equal(cg.nodes[f[i]].index, 0);
			for (size_t j = 0; j < n; j++) {
				bool same = i == j || (reach[i][j] && reach[j][i]);

				in_cycle += same && i != j;
				if (same)
					assert_int_equal(cg.topo[f[i]], cg.topo[f[j]]);
				if (i != j && cg.nodes[f[i]].cycle != NO_ID)
					assert_int_equal(cg.nodes[f[i]].cycle ==
								 cg.nodes[f[j]].cycle,
							 same);
			}
			if (!in_cycle)
				assert_int_equal(cg.nodes[f[i]].cycle, NO_ID);
			else
				assert_int_equal(cg.cycles[cg.nodes[f[i]].cycle].nmembers,
						 in_cycle + 1);
		}
		for (size_t c = 0; c < p.ncalls; c++) {
			uint32_t u = p.calls[c].caller, v = p.calls[c].callee;

			if (cg.topo[u] != cg.topo[v])
				assert_true(cg.topo[v] < cg.topo[u]);
		}
		check_callers(&cg, (unsigned)round);
		for (size_t c = 0; c < cg.ncycles; c++) {
			uint32_t k = 0;

			for (uint32_t m = cg.cycles[c].first_member; m != NO_ID;
			     m = cg.nodes[m].next_member, k++)
				assert_int_equal(cg.nodes[m].cycle, c);
			assert_int_equal(k, cg.cycles[c].nmembers);
		}
		cg_release(&cg);
		profile_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_recursion),
		cmocka_unit_test(test_mutual_recursion),
		cmocka_unit_test(test_three_cycle),
		cmocka_unit_test(test_two_cycles_joined),
		cmocka_unit_test(test_disconnected_and_only_called),
		cmocka_unit_test(test_deep_chain),
		cmocka_unit_test(test_member_rows),
		cmocka_unit_test(test_rank_many),
		cmocka_unit_test(test_rank_names),
		cmocka_unit_test(test_estimated_proportional),
		cmocka_unit_test(test_estimated_cycle),
		cmocka_unit_test(test_arc_share_adds_up),
		cmocka_unit_test(test_cycles_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
