/*
 * Our numbers against the peers', on the real profiles under samples/
 * (made with valgrind 3.19 on this machine; samples/HOWTO.md says how).
 *
 * Self cost: callgrind_annotate --inclusive=no, as TSV (*.self.tsv).
 * callgrind_annotate keys its rows by file:function: it merges same-
 * named functions of different objects (fstat of ld.so and of libc) and
 * splits a function whose inlined code comes from another file (fi=)
 * into one row per file ("work.h:work" beside "prog.c:work"). We key by
 * (object, file, function) and charge inlined code to the function, so
 * the comparison is per function name: both sides summed by name.
 *
 * Inclusive cost: callgrind's own --toggle-collect=FN measurement
 * (inclusive.tsv), the true cost while FN runs, recursion counted once.
 * callgrind_annotate --inclusive=yes is not a reference: it adds a
 * recursive function's calls to itself again (fib'2 at 168% of the run).
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "cg/cg.h"

struct peer_row {
	char *name;
	uint64_t cost[16];
};

struct peer {
	char *events[16];
	size_t nevents;
	struct peer_row *rows;
	size_t nrows;
};

static void peer_load(struct peer *pr, const char *path)
{
	char *text = slurp(path, NULL), *save = NULL, *line;

	assert_non_null(text);
	memset(pr, 0, sizeof(*pr));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[20], *s2 = NULL, *tok;
		size_t n = 0;

		for (tok = strtok_r(line, "\t", &s2); tok && n < 20;
		     tok = strtok_r(NULL, "\t", &s2))
			f[n++] = tok;
		if (!n)
			continue;
		if (!strcmp(f[0], "# events")) {
			for (size_t i = 1; i < n; i++)
				pr->events[pr->nevents++] = strdup(f[i]);
			continue;
		}
		if (f[0][0] == '#')
			continue;
		assert_true(n >= 3);
		pr->rows = realloc(pr->rows, (pr->nrows + 1) * sizeof(*pr->rows));
		memset(&pr->rows[pr->nrows], 0, sizeof(*pr->rows));
		pr->rows[pr->nrows].name = strdup(f[1]);
		for (size_t i = 2; i < n; i++)
			pr->rows[pr->nrows].cost[i - 2] = strtoull(f[i], NULL, 10);
		pr->nrows++;
	}
	free(text);
}

static void peer_free(struct peer *pr)
{
	for (size_t i = 0; i < pr->nrows; i++)
		free(pr->rows[i].name);
	for (size_t i = 0; i < pr->nevents; i++)
		free(pr->events[i]);
	free(pr->rows);
}

/* Self cost of every function called `name`, summed, for event e. */
static uint64_t our_self_by_name(const struct profile *p, const char *name,
				 uint32_t e)
{
	uint64_t sum = 0;

	for (size_t f = 0; f < p->nfuncs; f++)
		if (!strcmp(profile_str(p, p->funcs[f].name), name))
			sum += profile_self(p, (uint32_t)f)[e];
	return sum;
}

static void load(struct profile *p, const char *path, bool fold)
{
	struct read_opts o = { .fold_recursion = fold };
	char *diag;

	profile_init(p);
	assert_int_equal(read_path(p, path, &o, &diag), 0);
	/* real callgrind output: no warnings, totals: agree with the lines */
	if (diag[0])
		fail_msg("%s: unexpected diagnostics: %s", path, diag);
	free(diag);
}

static void compare_self(const char *profile_path)
{
	char tsv[512];
	struct peer pr;
	struct profile p;
	uint64_t peer_sum[16] = { 0 };

	snprintf(tsv, sizeof(tsv), "%s.self.tsv", profile_path);
	peer_load(&pr, tsv);
	load(&p, profile_path, false);
	for (size_t e = 0; e < pr.nevents; e++) {
		uint32_t ev = profile_find_event(&p, pr.events[e]);
		struct u64map seen;

		assert_int_not_equal(ev, NO_ID);
		u64map_init(&seen);
		for (size_t r = 0; r < pr.nrows; r++) {
			name_id id = names_find(&p.names, pr.rows[r].name,
						strlen(pr.rows[r].name));
			uint64_t want = 0;

			peer_sum[e] += pr.rows[r].cost[e];
			assert_int_not_equal(id, NO_NAME);
			if (u64map_get(&seen, id) != U64MAP_NONE)
				continue;
			u64map_put(&seen, id, 1);
			for (size_t k = 0; k < pr.nrows; k++)
				if (!strcmp(pr.rows[k].name, pr.rows[r].name))
					want += pr.rows[k].cost[e];
			if (our_self_by_name(&p, pr.rows[r].name, ev) != want)
				fail_msg("%s: %s self %s: ours %llu, callgrind_annotate %llu",
					 profile_path, pr.rows[r].name, pr.events[e],
					 (unsigned long long)our_self_by_name(&p, pr.rows[r].name, ev),
					 (unsigned long long)want);
		}
		/* every function of ours with cost is one of the peer's rows */
		for (size_t f = 0; f < p.nfuncs; f++)
			if (profile_self(&p, (uint32_t)f)[ev])
				assert_int_not_equal(u64map_get(&seen, p.funcs[f].name),
						     U64MAP_NONE);
		assert_int_equal(p.totals[ev], peer_sum[e]);
		u64map_release(&seen);
	}
	profile_release(&p);
	peer_free(&pr);
}

static const char *const self_cases[] = {
	"samples/hello/callgrind.out",
	"samples/recursion/callgrind.out",
	"samples/recursion/callgrind.instr.out",
	"samples/recursion/callgrind.instr.out.gz",
	"samples/recursion/callgrind.cache.out",
	"samples/recursion/callgrind.callers.out",
	"samples/recursion/callgrind.raw.out",
	"samples/recursion/callgrind.systime.out",
	"samples/recursion/callgrind.threads.out-01",
	"samples/recursion/callgrind.threads.out-02",
	"samples/recursion/cachegrind.out",
	"samples/cxx/callgrind.out",
	"samples/cxx/callgrind.instr.out",
};

static void test_self_matches_callgrind_annotate(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(self_cases) / sizeof(self_cases[0]); i++)
		compare_self(self_cases[i]);
}

/*
 * The 4-part file (2 dumps x 2 threads, --combine-dumps) against the
 * single-part profile of the same deterministic run. callgrind_annotate
 * is wrong here: it adds the inclusive cost of calls=0 lines (calls
 * still running at a dump, Q27) to the caller's self cost, so its rows
 * sum to 564,618 for a 246,671 run (callgrind.parts.out.annotate).
 */
static void test_multipart_equals_single_run(void **state)
{
	struct profile a, b;

	(void)state;
	load(&a, "samples/recursion/callgrind.parts.out", false);
	load(&b, "samples/recursion/callgrind.out", false);
	assert_int_equal(a.totals[0], 246671);
	assert_int_equal(b.totals[0], 246671);
	assert_int_equal(a.inputs[0].nparts, 4);
	for (size_t f = 0; f < b.nfuncs; f++) {
		const char *name = profile_str(&b, b.funcs[f].name);

		assert_int_equal(our_self_by_name(&a, name, 0),
				 our_self_by_name(&b, name, 0));
	}
	/* callgrind_annotate's sum for main, for the record: 177 vs 48 */
	assert_int_equal(our_self_by_name(&a, "main", 0), 48);
	profile_release(&a);
	profile_release(&b);
}

static void compare_inclusive(const char *profile_path, const char *tsv_path,
			      bool fold)
{
	char *text = slurp(tsv_path, NULL), *save = NULL, *line;
	struct profile p;
	struct cg cg;
	size_t checked = 0;

	assert_non_null(text);
	load(&p, profile_path, fold);
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab1 = strchr(line, '\t'), *tab2;
		uint32_t f;
		uint64_t row[16];

		if (line[0] == '#')
			continue;
		assert_non_null(tab1);
		tab2 = strchr(tab1 + 1, '\t');
		assert_non_null(tab2);
		*tab1 = '\0';
		f = find_func(&p, line);
		assert_int_not_equal(f, NO_ID);
		cg_inclusive_row(&cg, f, row);
		if (row[0] != strtoull(tab2 + 1, NULL, 10))
			fail_msg("%s: inclusive %s: ours %llu, --toggle-collect %s",
				 profile_path, line, (unsigned long long)row[0],
				 tab2 + 1);
		checked++;
	}
	assert_true(checked >= 5);
	cg_release(&cg);
	profile_release(&p);
	free(text);
}

/* Recursive (fib), mutually recursive (even/odd, a cycle here because
 * work calls both), a 3-cycle (ring_a), a thread's function: all equal
 * to the toggle measurement. */
static void test_inclusive_matches_toggle_collect(void **state)
{
	(void)state;
	compare_inclusive("samples/recursion/callgrind.out",
			  "samples/recursion/inclusive.tsv", false);
	compare_inclusive("samples/recursion/callgrind.instr.out",
			  "samples/recursion/inclusive.tsv", false);
	compare_inclusive("samples/cxx/callgrind.out",
			  "samples/cxx/inclusive.tsv", false);
}

/* With recursion levels folded, fib is one self-recursive function and
 * still costs what the toggle run measured. */
static void test_folded_recursion_inclusive(void **state)
{
	struct profile p;
	struct cg cg;
	uint64_t row[1];
	uint32_t fib;

	(void)state;
	load(&p, "samples/recursion/callgrind.out", true);
	assert_int_equal(find_func(&p, "fib'2"), NO_ID);
	fib = find_func(&p, "fib");
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	assert_int_equal(cg.nodes[fib].cycle, NO_ID);
	assert_int_equal(cg_node_self_calls(&cg, fib), 2780 + 8);
	cg_inclusive_row(&cg, fib, row);
	assert_int_equal(row[0], 29290);
	/* the 3-cycle as a whole costs what entering it from work costs */
	assert_int_equal(cg.nodes[find_func(&p, "ring_a")].cycle,
			 cg.nodes[find_func(&p, "ring_c")].cycle);
	cg_inclusive_row(&cg, find_func(&p, "ring_a"), row);
	assert_int_equal(row[0], 341);
	cg_release(&cg);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_matches_callgrind_annotate),
		cmocka_unit_test(test_multipart_equals_single_run),
		cmocka_unit_test(test_inclusive_matches_toggle_collect),
		cmocka_unit_test(test_folded_recursion_inclusive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
