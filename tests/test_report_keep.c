/*
 * What the HTML report embeds (print/report_keep.c): the functions of
 * the threshold with their callers and callees, and the flame graph's
 * nodes merged where they are narrower than a pixel or of a function
 * left out. Graphs written as specs (tests/helpers.h).
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cg/cg.h"
#include "print/flame_data.h"
#include "print/report_keep.h"

struct fixture {
	struct profile p;
	struct cg cg;
	struct print_opts po;
	struct report_keep k;
};

static void setup(struct fixture *fx, const char *spec, double threshold)
{
	memset(fx, 0, sizeof(*fx));
	profile_init(&fx->p);
	profile_from_spec(&fx->p, spec);
	cg_build(&fx->cg, &fx->p, 0);
	cg_find_cycles(&fx->cg);
	cg_propagate_measured(&fx->cg);
	cg_rank(&fx->cg);
	fx->po.threshold = threshold;
	report_keep_init(&fx->k, &fx->cg, &fx->po);
}

static void release(struct fixture *fx)
{
	report_keep_release(&fx->k);
	cg_release(&fx->cg);
	profile_release(&fx->p);
}

static bool kept(const struct fixture *fx, const char *name)
{
	return report_page_id(&fx->k, find_func(&fx->p, name)) != NO_ID;
}

/*
 * main calls a (1000 of 1003) and m, m calls n, n calls o. At 1%
 * (10.03): main and a reach it, m is main's callee, n and o neither
 * reach it nor touch a function that does.
 */
#define CHAIN "main:0 a:1000 m:1 n:1 o:1 main>a:1:1000 main>m:1:3 " \
	      "m>n:1:2 n>o:1:1"

static void test_hot_and_neighbours(void **state)
{
	struct fixture fx;

	(void)state;
	setup(&fx, CHAIN, 1.0);
	assert_false(report_keeps_all(&fx.k));
	assert_int_equal(fx.k.nfuncs, 5);
	assert_int_equal(fx.k.nkept, 3);
	assert_true(kept(&fx, "main"));
	assert_true(kept(&fx, "a"));
	assert_true(kept(&fx, "m"));
	assert_false(kept(&fx, "n"));
	assert_false(kept(&fx, "o"));
	/* page ids in the profile's order, and back */
	for (size_t i = 0; i < fx.k.nkept; i++) {
		assert_int_equal(report_page_id(&fx.k, report_func(&fx.k, i)), i);
		if (i)
			assert_true(report_func(&fx.k, i) > report_func(&fx.k, i - 1));
	}
	release(&fx);
}

/* A lower threshold: n's inclusive 2 reaches 0.15% (1.5), and so its
 * callee o is kept; --threshold=0 keeps every function. */
static void test_threshold(void **state)
{
	struct fixture fx;

	(void)state;
	setup(&fx, CHAIN, 0.15);
	assert_true(report_keeps_all(&fx.k));
	assert_int_equal(fx.k.nkept, 5);
	release(&fx);
	setup(&fx, CHAIN, 0.0);
	assert_true(report_keeps_all(&fx.k));
	assert_int_equal(report_page_id(&fx.k, 3), 3);
	release(&fx);
}

/* Nothing to be a share of: the flat profile leaves nothing out. */
static void test_no_cost(void **state)
{
	struct fixture fx;

	(void)state;
	setup(&fx, "main:0 f:0 g:0 main>f:1:0", 0.5);
	assert_true(report_keeps_all(&fx.k));
	release(&fx);
}

/* The flame tree's nodes: n's merged under m with its subtree (one
 * frame of 2), o not counted again; main;a and main;m kept. */
static void test_nodes_of_functions_left_out(void **state)
{
	struct fixture fx;
	struct flame fl;
	uint32_t *at;
	uint32_t *more_n;
	double *more_value;
	size_t nk, m = NO_ID;

	(void)state;
	setup(&fx, CHAIN, 1.0);
	flame_build(&fl, &fx.cg, 0, 0, 1000);
	at = calloc(fl.nnodes + 1, sizeof(*at));
	more_n = calloc(fl.nnodes + 1, sizeof(*more_n));
	more_value = calloc(fl.nnodes + 1, sizeof(*more_value));
	nk = report_keep_nodes(&fx.k, &fl, at, more_n, more_value);
	assert_int_equal(nk, 3);
	for (size_t i = 0; i < fl.nnodes; i++) {
		uint32_t f = fl.nodes[i].func;

		if (f == find_func(&fx.p, "m"))
			m = at[i];
		if (f == find_func(&fx.p, "n") || f == find_func(&fx.p, "o"))
			assert_int_equal(at[i], NO_ID);
		else
			assert_int_not_equal(at[i], NO_ID);
	}
	assert_int_not_equal(m, NO_ID);
	assert_int_equal(more_n[m + 1], 1);
	assert_true(more_value[m + 1] == 2);
	for (size_t s = 0; s <= nk; s++)
		if (s != m + 1)
			assert_int_equal(more_n[s], 0);
	free(at);
	free(more_n);
	free(more_value);
	flame_release(&fl);
	release(&fx);
}

/* A function kept (b reaches 0.005%), its node narrower than a pixel of
 * 1200 (1 of 10001): merged under main, whose total stays. */
static void test_narrow_nodes(void **state)
{
	struct fixture fx;
	struct flame fl;
	uint32_t at[8], more_n[8];
	double more_value[8];
	size_t nk;

	(void)state;
	setup(&fx, "main:0 a:10000 b:1 main>a:1:10000 main>b:1:1", 0.005);
	assert_true(kept(&fx, "b"));
	flame_build(&fl, &fx.cg, 0, 0, 1000);
	assert_true(fl.nnodes < 8);
	memset(more_n, 0, sizeof(more_n));
	memset(more_value, 0, sizeof(more_value));
	nk = report_keep_nodes(&fx.k, &fl, at, more_n, more_value);
	assert_int_equal(nk, fl.nnodes - 1);
	for (size_t i = 0; i < fl.nnodes; i++)
		if (fl.nodes[i].func == find_func(&fx.p, "b")) {
			uint32_t up = at[fl.nodes[i].parent];

			assert_int_equal(at[i], NO_ID);
			assert_int_equal(more_n[up + 1], 1);
			assert_true(more_value[up + 1] == 1);
			assert_true(fl.nodes[fl.nodes[i].parent].total == 10001);
		}
	flame_release(&fl);
	release(&fx);
}

/*
 * The merged nodes kept for the figures (report_keep_hidden()): over
 * the page's nodes and them, each function the page has has its self
 * cost of the whole tree, and the functions left out theirs as one
 * unit. A node's self is its total less its children's. fx's tree is
 * cut at 1%; returns the number of hidden nodes.
 */
static size_t check_hidden(struct fixture *fx, size_t max, int want_ret)
{
	struct flame fl;
	struct report_hidden h;
	uint32_t *at, *more_n;
	double *more_value, *node_self, *whole, *page;
	size_t nk, n, nf = fx->k.nkept + 1;
	int ret;

	flame_build(&fl, &fx->cg, 0, 0, 1000);
	at = calloc(fl.nnodes + 1, sizeof(*at));
	more_n = calloc(fl.nnodes + 1, sizeof(*more_n));
	more_value = calloc(fl.nnodes + 1, sizeof(*more_value));
	nk = report_keep_nodes(&fx->k, &fl, at, more_n, more_value);
	ret = report_keep_hidden(&fx->k, &fl, at, nk, max, &h);
	assert_int_equal(ret, want_ret);
	n = h.n;
	if (ret < 0) {
		assert_int_equal(h.n, 0);
		goto out;
	}
	/* a unit's self: per page function, the last entry "other" */
	whole = calloc(nf, sizeof(*whole));
	page = calloc(nf, sizeof(*page));
	node_self = calloc(nk + h.n + 1, sizeof(*node_self));
	for (size_t i = 0; i < fl.nnodes; i++) {
		const struct flame_node *x = &fl.nodes[i];
		uint32_t pid = report_page_id(&fx->k, x->func);
		double self = x->total;

		for (uint32_t c = x->first_child; c != NO_ID;
		     c = fl.nodes[c].next_sibling)
			self -= fl.nodes[c].total;
		whole[pid == NO_ID ? nf - 1 : pid] += self;
		/* every node has a page node; kept ones their own */
		assert_int_not_equal(h.node[i], NO_ID);
		if (at[i] != NO_ID) {
			assert_int_equal(h.node[i], at[i]);
			node_self[at[i]] += x->total;
			if (x->parent != NO_ID)
				node_self[at[x->parent]] -= x->total;
		}
	}
	for (size_t x = 0; x < h.n; x++) {
		const struct flame_node *f = &fl.nodes[h.first[x]];
		uint32_t pid = report_page_id(&fx->k, f->func);

		assert_int_equal(h.other[x], pid == NO_ID);
		/* parents before their children */
		assert_true(h.parent[x] == NO_ID || h.parent[x] < nk + x);
		node_self[nk + x] += h.value[x];
		if (h.parent[x] != NO_ID)
			node_self[h.parent[x]] -= h.value[x];
	}
	for (size_t i = 0; i < fl.nnodes; i++)
		if (at[i] != NO_ID)
			page[report_page_id(&fx->k, fl.nodes[i].func)] +=
				node_self[at[i]];
	for (size_t x = 0; x < h.n; x++)
		page[h.other[x] ? nf - 1 : report_page_id(&fx->k,
			fl.nodes[h.first[x]].func)] += node_self[nk + x];
	for (size_t f = 0; f < nf; f++)
		assert_float_equal(page[f], whole[f], 1e-9);
	free(whole);
	free(page);
	free(node_self);
out:
	report_hidden_release(&h);
	free(at);
	free(more_n);
	free(more_value);
	flame_release(&fl);
	return n;
}

/* CHAIN: n and o, left out, are one "other" node under m */
static void test_hidden_run_of_functions_left_out(void **state)
{
	struct fixture fx;

	(void)state;
	setup(&fx, CHAIN, 1.0);
	assert_int_equal(check_hidden(&fx, 100, 0), 1);
	release(&fx);
}

/*
 * x and y, left out (m, which calls them, is kept as main's callee but
 * is under 1%), both call b (a's callee, kept): one "other" node under
 * m with one b under it; a > b, narrower than a pixel, a b node of its
 * own; and a node budget of 2 too small for the three.
 */
#define SIBLINGS "main:0 a:2000 b:2 m:0 x:1 y:1 main>a:1:2001 " \
		 "a>b:1:1 main>m:1:4 m>x:1:2 m>y:1:2 x>b:1:1 y>b:1:1"

static void test_hidden_siblings_and_budget(void **state)
{
	struct fixture fx;

	(void)state;
	setup(&fx, SIBLINGS, 1.0);
	assert_true(kept(&fx, "b"));
	assert_false(kept(&fx, "x"));
	assert_false(kept(&fx, "y"));
	assert_true(kept(&fx, "m"));
	assert_int_equal(check_hidden(&fx, 100, 0), 3);
	assert_int_equal(check_hidden(&fx, 2, -1), 0);
	release(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hot_and_neighbours),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_no_cost),
		cmocka_unit_test(test_nodes_of_functions_left_out),
		cmocka_unit_test(test_narrow_nodes),
		cmocka_unit_test(test_hidden_run_of_functions_left_out),
		cmocka_unit_test(test_hidden_siblings_and_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
