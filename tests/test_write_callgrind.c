/*
 * --output=callgrind: what we write reads back as the same profile, and
 * callgrind_annotate (valgrind 3.19; the test is skipped where it is not
 * installed) loads it with the same totals and per-function self costs.
 *
 * "The same": for Callgrind input, the flat profile and the call graph
 * printed from the written file are byte for byte those of the input
 * (the writer keeps the order in which functions and arcs first appear,
 * so ties break alike). For IgProf and gmon.out input, the model is
 * compared: self costs, call counts, arcs' inclusive costs. Two things
 * the Callgrind format cannot carry are left out, on purpose:
 *  - IgProf knows each function's inclusive cost from whole stacks; the
 *    format has only calls, so a cycle member's inclusive cost read back
 *    is the call-based bound (cg.h, member_incl), not the exact value;
 *  - gmon.out's self time is shared out in fractions of a tick; written
 *    as whole ticks (profile_self() already holds them rounded), and a
 *    call's inclusive cost is gprof's estimate, rounded.
 */
#include "helpers.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hashmap.h"
#include "cli/analyze.h"
#include "cli/options.h"

/* Run cganalyze with argv (NULL-terminated, without argv[0]); its
 * output, malloc'd. The status must be 0. */
static char *run(const char *const *args)
{
	char *argv[32] = { (char *)"cganalyze" };
	int argc = 1;
	struct options o;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	for (; *args; args++)
		argv[argc++] = (char *)*args;
	assert_int_equal(options_parse(&o, argc, argv, out), OPTIONS_OK);
	assert_int_equal(analyze_run(&o, out), 0);
	options_release(&o);
	fclose(out);
	return buf;
}

/* As run(), but the status is returned and diagnostics are dropped. */
static int try_run(const char *const *args, char **text)
{
	char *argv[32] = { (char *)"cganalyze" };
	int argc = 1, status;
	struct options o;
	size_t len = 0;
	FILE *out = open_memstream(text, &len);

	for (; *args; args++)
		argv[argc++] = (char *)*args;
	assert_int_equal(options_parse(&o, argc, argv, out), OPTIONS_OK);
	diag_capture_begin();
	status = analyze_run(&o, out);
	free(diag_capture_end());
	options_release(&o);
	fclose(out);
	return status;
}

/* The inputs written as one Callgrind file; its malloc'd path. */
static char *export(const char *const *inputs)
{
	const char *args[32] = { "--output=callgrind" };
	size_t n = 1;
	char *text, *path;

	for (; *inputs; inputs++)
		args[n++] = *inputs;
	args[n] = NULL;
	text = run(args);
	path = write_temp(text, strlen(text));
	free(text);
	/* the listings note a source newer than its profile (run-e2e dates
	 * the samples in the future): the copy is as old as the original */
	for (size_t i = n; i-- > 1;) {
		struct stat sb;

		if (stat(args[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
			struct timespec t[2] = { sb.st_atim, sb.st_mtim };

			assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
			break;
		}
	}
	return path;
}

/* Up to five arguments (NULL ends them early), in a static list. */
static const char *const *list5(const char *a, const char *b, const char *c,
				const char *d, const char *e)
{
	static const char *l[6];

	l[0] = a;
	l[1] = b;
	l[2] = c;
	l[3] = d;
	l[4] = e;
	l[5] = NULL;
	return l;
}

#define list(a, b, c, d) list5(a, b, c, d, NULL)

/* Every real Callgrind profile of the samples, and a merge. */
static const char *const callgrind_cases[][3] = {
	{ "samples/hello/callgrind.out" },
	{ "samples/recursion/callgrind.out" },
	{ "samples/recursion/callgrind.instr.out" },
	{ "samples/recursion/callgrind.instr.out.gz" },
	{ "samples/recursion/callgrind.cache.out" },
	{ "samples/recursion/callgrind.callers.out" },
	{ "samples/recursion/callgrind.raw.out" },
	{ "samples/recursion/callgrind.systime.out" },
	{ "samples/recursion/callgrind.parts.out" },
	{ "samples/recursion/cachegrind.out" },
	{ "samples/recursion/callgrind.threads.out-01",
	  "samples/recursion/callgrind.threads.out-02" },
	{ "samples/cxx/callgrind.out" },
	{ "samples/cxx/callgrind.instr.out" },
	{ "tests/resolve/c-nopie/callgrind.out" },
};

static void test_callgrind_round_trip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(callgrind_cases) / sizeof(callgrind_cases[0]); i++) {
		const char *const *in = callgrind_cases[i];
		char *path = export(list(in[0], in[1], NULL, NULL));
		char *want = run(list(in[0], in[1], NULL, NULL));
		char *got = run(list(path, NULL, NULL, NULL));

		if (strcmp(want, got))
			fail_msg("%s: the listings of the written file differ", in[0]);
		free(want);
		free(got);
		/* instruction-level: the disassembly with its jumps too */
		if (strstr(in[0], "instr.out") && strstr(in[0], "recursion")) {
			const char *b = "-b", *prog = "samples/recursion/prog";

			want = run(list("--disasm=work", b, prog, in[0]));
			got = run(list("--disasm=work", b, prog, path));
			assert_non_null(strstr(want, "jump executed"));
			if (strcmp(want, got))
				fail_msg("%s: the disassembly differs", in[0]);
			free(want);
			free(got);
		}
		unlink(path);
		free(path);
	}
}

/*
 * Other writers' files (../shared/thirdparty-profiles, when there:
 * gprof2dot's callgrind 0.10 to 3.19 and lsprofcalltree files, pprof,
 * Xdebug): each that loads round-trips like valgrind's. The malformed
 * ones (KCachegrind's tests) are refused on reading and skipped here.
 */
static void test_thirdparty_round_trip(void **state)
{
	FILE *find = popen("find ../shared/thirdparty-profiles -type f "
			   "! -name '*.md' ! -name SHA256SUMS 2>/dev/null | sort",
			   "r");
	char *line = NULL;
	size_t cap = 0, n = 0;

	(void)state;
	assert_non_null(find);
	while (getline(&line, &cap, find) > 0) {
		char *want = NULL, *got, *path;

		line[strcspn(line, "\n")] = '\0';
		if (try_run(list(line, NULL, NULL, NULL), &want) != 0) {
			free(want);
			continue;
		}
		path = export(list(line, NULL, NULL, NULL));
		got = run(list(path, NULL, NULL, NULL));
		if (strcmp(want, got))
			fail_msg("%s: the listings of the written file differ", line);
		n++;
		free(want);
		free(got);
		unlink(path);
		free(path);
	}
	free(line);
	pclose(find);
	if (!n)
		skip();
}

/* -b: the resolved names, files and lines are what is written. */
static void test_resolved_round_trip(void **state)
{
	const char *in = "tests/resolve/c-nopie/callgrind.out";
	const char *prog = "tests/resolve/c-nopie/prog";
	char *path = export(list("-b", prog, in, NULL));
	char *text = slurp(path, NULL);
	char *want = run(list5("-p", "-b", prog, in, NULL));
	char *got = run(list("-p", path, NULL, NULL));

	(void)state;
	/* valgrind's "0x..." names of code without symbols are gone */
	assert_non_null(strstr(text, " frame_dummy\n"));
	/* the same listing (-b's notes are on standard error) */
	if (strcmp(want, got))
		fail_msg("resolved: the flat profiles differ:\n%s\n---\n%s", want, got);
	free(text);
	free(want);
	free(got);
	unlink(path);
	free(path);
}

static uint32_t same_func(const struct profile *a, uint32_t f,
			  const struct profile *b)
{
	for (size_t g = 0; g < b->nfuncs; g++)
		if (!strcmp(profile_str(a, a->funcs[f].name),
			    profile_str(b, b->funcs[g].name)) &&
		    !strcmp(profile_str(a, a->funcs[f].object),
			    profile_str(b, b->funcs[g].object)))
			return (uint32_t)g;
	return NO_ID;
}

/* a's functions and arcs, in b: self, counts, inclusive costs (if
 * `incl`), event for event, by name. A maximum event of a (MEM_MAX) is
 * not in b: the Callgrind format cannot hold one (write_callgrind.c). */
static void compare_models(const struct profile *a, const struct profile *b,
			   bool incl)
{
	uint32_t in_b[64];
	size_t nmax = 0;

	assert_true(a->nevents <= 64);
	for (size_t e = 0; e < a->nevents; e++) {
		in_b[e] = profile_find_event(b, profile_str(a,
							    a->events[e].name));
		if (a->events[e].max) {
			assert_int_equal(in_b[e], NO_ID);
			nmax++;
		} else {
			assert_int_not_equal(in_b[e], NO_ID);
		}
	}
	assert_int_equal(a->nevents - nmax, b->nevents);
	for (size_t f = 0; f < a->nfuncs; f++) {
		uint32_t g = same_func(a, (uint32_t)f, b);

		assert_int_not_equal(g, NO_ID);
		for (size_t e = 0; e < a->nevents; e++)
			if (!a->events[e].max)
				assert_int_equal(profile_self(a, (uint32_t)f)[e],
						 profile_self(b, g)[in_b[e]]);
	}
	for (size_t c = 0; c < a->ncalls; c++) {
		uint32_t x = same_func(a, a->calls[c].caller, b);
		uint32_t y = same_func(a, a->calls[c].callee, b);
		uint32_t d = NO_ID;

		for (size_t k = 0; k < b->ncalls; k++)
			if (b->calls[k].caller == x && b->calls[k].callee == y)
				d = (uint32_t)k;
		assert_int_not_equal(d, NO_ID);
		assert_int_equal(profile_call_count(a, c),
				 profile_call_count(b, d));
		for (size_t e = 0; incl && e < a->nevents; e++)
			if (!a->events[e].max)
				assert_int_equal(
					profile_call_incl_at(a, (uint32_t)c, e),
					profile_call_incl_at(b, d, in_b[e]));
	}
	assert_int_equal(a->ncalls, b->ncalls);
	for (size_t e = 0; e < a->nevents; e++)
		if (!a->events[e].max)
			assert_int_equal(a->totals[e], b->totals[in_b[e]]);
}

static void load(struct profile *p, const char *path, const char *binary)
{
	struct read_opts ro = { 0 };
	char *diag;

	(void)binary;
	profile_init(p);
	assert_int_equal(read_path(p, path, &ro, &diag), 0);
	if (diag[0])
		fail_msg("%s: %s", path, diag);
	free(diag);
	profile_finish(p);
}

static void test_igprof(void **state)
{
	static const char *const inputs[] = {
		"tests/inputs/igprof/perf.txt", "tests/inputs/igprof/mem.txt",
		"tests/inputs/igprof/hex.txt",
	};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct profile a, b;
		char *path = export(list(inputs[i], NULL, NULL, NULL));

		load(&a, inputs[i], NULL);
		load(&b, path, NULL);
		compare_models(&a, &b, true);
		/* PERF_TICKS keep their length */
		for (size_t e = 0; e < a.nevents; e++)
			if (!a.events[e].max)
				assert_true(a.events[e].unit_seconds ==
					    b.events[e].unit_seconds);
		profile_release(&a);
		profile_release(&b);
		unlink(path);
		free(path);
	}
}

/* gmon.out: ticks, call counts, and gprof's estimates as call costs. */
static void test_gmon(void **state)
{
	const char *prog = "tests/gmon/prog-nopie";
	char *path = export(list("-b", prog, "tests/gmon/nopie.gmon", NULL));
	char *text = slurp(path, NULL);
	struct profile b;

	(void)state;
	load(&b, path, NULL);
	/* gprof -b prints spin 0.60 s, work 0.17, ping 0.08, 92 ticks in
	 * all (tests/gmon/nopie.gprof): in 0.01 s ticks */
	assert_int_equal(b.totals[0], 92);
	assert_int_equal(profile_self(&b, find_func(&b, "spin"))[0], 60);
	assert_int_equal(profile_self(&b, find_func(&b, "work"))[0], 17);
	assert_true(b.events[0].unit_seconds == 0.01);
	/* the numbers are ticks, and the file says so: callgrind_annotate
	 * and KCachegrind show an event's numbers as they are, and took
	 * "events: seconds" for 92 s (it was "seconds", gmon.out's
	 * histogram dimension, until issue 18) */
	assert_string_equal(profile_str(&b, b.events[0].name), "ticks");
	assert_non_null(strstr(text, "\nevent: ticks : clock ticks of 0.01 s\n"
				     "events: ticks\n"));
	assert_null(strstr(text, "seconds\n"));
	/* gprof: fib called 1 time and 7049154 times by itself */
	assert_int_equal(profile_call_count(&b, find_call(&b, "fib", "fib")),
			 7049154);
	assert_int_equal(profile_call_count(&b, find_call(&b, "work", "spin")),
			 20000);
	/* gprof's estimate of work -> spin: 20000/110000 of spin's 0.60 s
	 * (nopie.gprof: 0.11 s) */
	assert_int_equal(profile_call_incl_at(&b, find_call(&b, "work", "spin"), 0), 11);
	assert_non_null(strstr(text, "desc: Calls: the inclusive cost of a call is gprof's estimate"));
	profile_release(&b);
	free(text);
	unlink(path);
	free(path);
}

/* ---- callgrind_annotate ---- */

struct annotated {
	uint64_t totals[16];
	size_t nevents;
	char **names;		/* function names, object suffix dropped */
	uint64_t (*cost)[16];
	size_t nrows;
};

/* callgrind_annotate's flat list of path as TSV (annotate2tsv); false
 * when callgrind_annotate is not installed. */
static bool annotate(const char *path, struct annotated *an)
{
	char cmd[1024], *line = NULL;
	size_t cap = 0;
	FILE *f;

	memset(an, 0, sizeof(*an));
	if (system("command -v callgrind_annotate >/dev/null 2>&1") != 0)
		return false;
	/* its auto-annotation says "Use of uninitialized value" on some
	 * valgrind files as on ours (callgrind.raw.out.annotate.stderr):
	 * stderr is not looked at, its exit status is */
	snprintf(cmd, sizeof(cmd), "set -e; callgrind_annotate --inclusive=no "
		 "--threshold=100 %s 2>/dev/null >%s.annotate; "
		 "perl samples/tools/annotate2tsv %s.annotate; rm -f %s.annotate",
		 path, path, path, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok;
		size_t n = 0;
		char *fields[20];

		line[strcspn(line, "\n")] = '\0';
		for (tok = strtok_r(line, "\t", &save); tok && n < 20;
		     tok = strtok_r(NULL, "\t", &save))
			fields[n++] = tok;
		if (n && !strcmp(fields[0], "# events")) {
			an->nevents = n - 1;
		} else if (n && !strcmp(fields[0], "# totals")) {
			for (size_t i = 1; i < n; i++)
				an->totals[i - 1] = strtoull(fields[i], NULL, 10);
		} else if (n >= 2) {
			/* "file<TAB>name": a row without a file has no
			 * tab before it, and keeps its " [object]" */
			size_t k = line[0] == '\t' ? 0 : 1;
			char *name = fields[k], *obj = strrchr(name, '[');

			/* " [./prog]", not " [clone .isra.0]" */
			if (obj && obj > name && obj[-1] == ' ' &&
			    !strchr(obj, ' ') && name[strlen(name) - 1] == ']')
				obj[-1] = '\0';
			an->names = realloc(an->names, (an->nrows + 1) * sizeof(*an->names));
			an->cost = realloc(an->cost, (an->nrows + 1) * sizeof(*an->cost));
			an->names[an->nrows] = strdup(name);
			memset(an->cost[an->nrows], 0, sizeof(an->cost[0]));
			for (size_t i = k + 1; i < n && i - k - 1 < 16; i++)
				an->cost[an->nrows][i - k - 1] = strtoull(fields[i], NULL, 10);
			an->nrows++;
		}
	}
	free(line);
	assert_int_equal(pclose(f), 0);
	return true;
}

static void annotated_free(struct annotated *an)
{
	for (size_t i = 0; i < an->nrows; i++)
		free(an->names[i]);
	free(an->names);
	free(an->cost);
}

/*
 * callgrind_annotate keys rows by file:function, splitting a function
 * whose inlined code is in another file (fi=) into rows per file, and
 * merging same-named functions of different objects; so both sides are
 * summed by name, as in test_peers.c.
 */
static void compare_with_annotate(const char *const *inputs)
{
	char *path = export(inputs);
	struct annotated an;
	struct profile p;

	load(&p, path, NULL);
	if (!annotate(path, &an)) {
		profile_release(&p);
		unlink(path);
		free(path);
		skip();
	}
	assert_int_equal(an.nevents, p.nevents);
	for (size_t e = 0; e < p.nevents; e++) {
		/* its PROGRAM TOTALS are the summary: line, which with
		 * --cache-sim=yes is above the sum of the cost lines (Q3);
		 * we write the inputs' summary: as it was */
		uint64_t total = p.summary ? p.summary[e] : p.totals[e];

		if (an.totals[e] != total)
			fail_msg("%s: total %zu: callgrind_annotate %llu, ours %llu",
				 inputs[0], e, (unsigned long long)an.totals[e],
				 (unsigned long long)total);
		for (size_t r = 0; r < an.nrows; r++) {
			uint64_t theirs = 0, ours = 0;

			for (size_t k = 0; k < an.nrows; k++)
				if (!strcmp(an.names[k], an.names[r]))
					theirs += an.cost[k][e];
			for (size_t f = 0; f < p.nfuncs; f++)
				if (!strcmp(profile_str(&p, p.funcs[f].name),
					    an.names[r]))
					ours += profile_self(&p, (uint32_t)f)[e];
			if (theirs != ours)
				fail_msg("%s: %s: callgrind_annotate %llu, ours %llu",
					 inputs[0], an.names[r],
					 (unsigned long long)theirs,
					 (unsigned long long)ours);
		}
	}
	assert_true(an.nrows > 0);
	annotated_free(&an);
	profile_release(&p);
	unlink(path);
	free(path);
}

static void test_callgrind_annotate_loads_it(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(callgrind_cases) / sizeof(callgrind_cases[0]); i++)
		compare_with_annotate(list(callgrind_cases[i][0],
					   callgrind_cases[i][1], NULL, NULL));
	compare_with_annotate(list("tests/inputs/igprof/perf.txt", NULL, NULL, NULL));
	compare_with_annotate(list("tests/inputs/igprof/mem.txt", NULL, NULL, NULL));
	compare_with_annotate(list("-b", "tests/gmon/prog-nopie",
				   "tests/gmon/nopie.gmon", NULL));
	compare_with_annotate(list("-b", "samples/cxx/prog",
				   "samples/cxx/callgrind.instr.out", NULL));
}

/*
 * A perf.data's cpu-clock counts ns: an "events:" name does not say so
 * (and callgrind_annotate ignores "event:" lines), so a "desc: Unit:"
 * line does, which callgrind_annotate prints and our reader takes back.
 */
static void test_perf_unit(void **state)
{
	char *path = export(list5("--kallsyms=tests/perf/kallsyms",
				  "--sysroot=tests/perf", "-b",
				  "tests/perf/prog", "tests/perf/fp.data"));
	char *text = slurp(path, NULL), cmd[600], line[512];
	struct profile p;
	bool shown = false;
	FILE *f;

	(void)state;
	assert_non_null(strstr(text, "\ndesc: Unit: cpu-clock:ppp is counted "
				     "in ns\n"));
	load(&p, path, NULL);
	assert_string_equal(profile_str(&p, p.events[0].unit), "ns");
	profile_release(&p);
	snprintf(cmd, sizeof(cmd), "callgrind_annotate %s 2>/dev/null", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, "Unit: cpu-clock:ppp is counted in ns\n"))
			shown = true;
	if (pclose(f) == 0)	/* else not installed */
		assert_true(shown);
	free(text);
	unlink(path);
	free(path);
}

/*
 * valgrind --separate-threads=yes writes one file per thread, and
 * callgrind_annotate reads one file: its numbers for the two files,
 * added by hand (the committed *.self.tsv), are what we get reading
 * both at once.
 */
static void test_threads_sum(void **state)
{
	static const char *const tsv[] = {
		"samples/recursion/callgrind.threads.out-01.self.tsv",
		"samples/recursion/callgrind.threads.out-02.self.tsv",
	};
	struct profile p;
	struct read_opts ro = { 0 };
	char *diag;
	uint64_t peer_total = 0;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_path(&p, "samples/recursion/callgrind.threads.out-01", &ro, &diag), 0);
	free(diag);
	assert_int_equal(read_path(&p, "samples/recursion/callgrind.threads.out-02", &ro, &diag), 0);
	free(diag);
	profile_finish(&p);
	for (size_t i = 0; i < 2; i++) {
		char *text = slurp(tsv[i], NULL), *save = NULL, *line;

		assert_non_null(text);
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *t1 = strchr(line, '\t'), *t2;

			if (line[0] == '#' || !t1 || !(t2 = strchr(t1 + 1, '\t')))
				continue;
			peer_total += strtoull(t2 + 1, NULL, 10);
		}
		free(text);
	}
	/* thread 1 (main, 246,671 - 2,183) + thread 2 (the worker) */
	assert_int_equal(p.totals[0], peer_total);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callgrind_round_trip),
		cmocka_unit_test(test_thirdparty_round_trip),
		cmocka_unit_test(test_resolved_round_trip),
		cmocka_unit_test(test_igprof),
		cmocka_unit_test(test_gmon),
		cmocka_unit_test(test_callgrind_annotate_loads_it),
		cmocka_unit_test(test_threads_sum),
		cmocka_unit_test(test_perf_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
