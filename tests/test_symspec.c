/*
 * gprof's symspecs (src/select/symspec.c): the parser, matching by name, file,
 * object, line, glob, parameter list and mangled name, -k's FROM/TO,
 * and the call graph's listed entries (cg_listed) on small graphs.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cg/cg.h"
#include "select/selection.h"
#include "select/symspec.h"

static void test_parse(void **state)
{
	struct symspec s;
	const char *why = NULL;

	(void)state;
	assert_int_equal(symspec_parse("main", &s, &why), 0);
	assert_true(s.either);
	assert_string_equal(s.func, "main");
	assert_null(s.file);
	symspec_release(&s);

	assert_int_equal(symspec_parse("prog.c:work", &s, &why), 0);
	assert_false(s.either);
	assert_string_equal(s.file, "prog.c");
	assert_string_equal(s.func, "work");
	symspec_release(&s);

	assert_int_equal(symspec_parse("src/prog.c:80", &s, &why), 0);
	assert_string_equal(s.file, "src/prog.c");
	assert_null(s.func);
	assert_int_equal(s.line, 80);
	symspec_release(&s);

	/* "::" belongs to the name */
	assert_int_equal(symspec_parse("std::vector<int>::push_back", &s, &why), 0);
	assert_true(s.either);
	assert_string_equal(s.func, "std::vector<int>::push_back");
	symspec_release(&s);
	assert_int_equal(symspec_parse("a.cc:ns::f", &s, &why), 0);
	assert_string_equal(s.file, "a.cc");
	assert_string_equal(s.func, "ns::f");
	symspec_release(&s);

	/* a mangled name is also kept demangled */
	assert_int_equal(symspec_parse("_Z4workv", &s, &why), 0);
	assert_string_equal(s.func_demangled, "work()");
	symspec_release(&s);

	assert_int_equal(symspec_parse("", &s, &why), -1);
	assert_string_equal(why, "an empty name");
	assert_int_equal(symspec_parse(":f", &s, &why), -1);
	assert_string_equal(why, "no file before ':'");
	assert_int_equal(symspec_parse("a.c:", &s, &why), -1);
	assert_int_equal(symspec_parse("a.c:f:g", &s, &why), -1);
	assert_non_null(strstr(why, "more than one ':'"));
	assert_int_equal(symspec_parse("a.c:0", &s, &why), -1);
	assert_int_equal(symspec_parse("a.c:99999999999", &s, &why), -1);
	assert_non_null(strstr(why, "line number"));
}

static void test_parse_arc(void **state)
{
	struct symspec a, b;
	const char *why = NULL;

	(void)state;
	assert_int_equal(symspec_parse_arc("main/work", &a, &b, &why), 0);
	assert_string_equal(a.func, "main");
	assert_string_equal(b.func, "work");
	symspec_release(&a);
	symspec_release(&b);
	/* the first split that parses: TO may be a path */
	assert_int_equal(symspec_parse_arc("*/lib/x.c:f", &a, &b, &why), 0);
	assert_string_equal(a.func, "*");
	assert_string_equal(b.file, "lib/x.c");
	symspec_release(&a);
	symspec_release(&b);
	/* "x.c:" / "g/h" has nothing after ':'; the next split parses */
	assert_int_equal(symspec_parse_arc("x.c:/g/h", &a, &b, &why), 0);
	assert_string_equal(a.file, "x.c");
	assert_string_equal(a.func, "/g");
	assert_string_equal(b.func, "h");
	symspec_release(&a);
	symspec_release(&b);
	assert_int_equal(symspec_parse_arc("main", &a, &b, &why), -1);
	assert_int_equal(symspec_parse_arc("/work", &a, &b, &why), -1);
	assert_int_equal(symspec_parse_arc("main/", &a, &b, &why), -1);
	assert_int_equal(symspec_parse_arc("main/a:b:c", &a, &b, &why), -1);
}

/*
 * -k with paths: f (src/a.c) calls g (src/b.c) and h (f/src, a directory
 * named like a function) calls g too. The text is split at each '/' that
 * leaves two symspecs, and the first split with calls in the profile is
 * taken.
 */
static const char arc_profile[] =
	"events: Ir\n"
	"fl=/p/src/a.c\nfn=f\n1 10\ncfl=/p/src/b.c\ncfn=g\ncalls=1 0\n2 5\n"
	"fl=/p/src/b.c\nfn=g\n1 5\n"
	"fl=/q/f/src\nfn=h\n1 3\ncfl=/p/src/b.c\ncfn=g\ncalls=2 0\n2 10\n";

/* The calls -k text deletes, as "caller>callee" in call order; the
 * warning said in *warned (malloc'd). */
static char *deleted_by(const char *text, char **warned)
{
	struct profile p;
	struct symspec_opt so = { .use = SPEC_ARC };
	struct selection sel;
	const char *why;
	char *diag;
	static char buf[256];
	size_t n = 0;

	profile_init(&p);
	assert_int_equal(read_text(&p, arc_profile, -1, &(struct read_opts){ 0 },
				   &diag), 0);
	free(diag);
	profile_finish(&p);
	assert_int_equal(symspec_parse_arcs(text, &so, &why), 0);
	diag_capture_begin();
	selection_init(&sel, &p, &so, 1);
	*warned = diag_capture_end();
	buf[0] = '\0';
	for (size_t c = 0; c < p.ncalls; c++)
		if (sel.deleted[c])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s>%s",
					      n ? " " : "",
					      profile_str(&p, p.funcs[p.calls[c].caller].name),
					      profile_str(&p, p.funcs[p.calls[c].callee].name));
	selection_release(&sel);
	symspec_opt_release(&so);
	profile_release(&p);
	return buf;
}

static void test_arc_paths(void **state)
{
	static const struct {
		const char *text, *deleted, *warning;
	} cases[] = {
		/* gprof's spelling */
		{ "f/g", "f>g", "" },
		{ "*/g", "f>g h>g", "" },
		/* a path in FROM, in TO, in both; whole or its last parts */
		{ "src/a.c:f/g", "f>g", "" },
		{ "/p/src/a.c:f/g", "f>g", "" },
		{ "f//p/src/b.c:g", "f>g", "" },
		{ "f/src/b.c:g", "f>g",
		  "it could also be FROM 'f/src' and TO 'b.c:g'" },
		{ "src/a.c:f/src/b.c:g", "f>g", "" },
		{ "src/a.c/g", "f>g", "" },
		{ "/p/src/a.c//p/src/b.c", "f>g", "" },
		/* "f" / "src/b.c" and "f/src" / "b.c" both have calls: the
		 * first is taken, with a warning naming the other */
		{ "f/src/b.c", "f>g",
		  "it could also be FROM 'f/src' and TO 'b.c'" },
		{ "/q/f/src/b.c", "h>g", "" },
		/* nothing: the first split is named */
		{ "g/f", "", "-k 'g/f': no call" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *warned;
		const char *got = deleted_by(cases[i].text, &warned);

		if (strcmp(got, cases[i].deleted) ||
		    (*cases[i].warning ? !strstr(warned, cases[i].warning)
				       : *warned != '\0'))
			fail_msg("-k '%s': deleted '%s' (expected '%s'), "
				 "warned '%s'", cases[i].text, got,
				 cases[i].deleted, warned);
		free(warned);
	}
}

/* A profile of functions named (object, file, name, line). */
static void make(struct profile *p)
{
	static const char *const f[][4] = {
		{ "/bin/prog", "/src/prog.c", "main", "70" },
		{ "/bin/prog", "/src/prog.c", "work", "80" },
		{ "/bin/prog", "/src/prog.c", "fib", "20" },
		{ "/bin/prog", "/src/util/prog.c", "helper.part.0", "5" },
		{ "/lib/libc.so.6", "???", "qsort", "0" },
		{ "/bin/prog", "/src/a.cc", "ns::sort<int>(int*, int) const", "9" },
		{ "/bin/prog", "/src/a.cc", "_ZN2ns3popEv", "30" },
		{ "/bin/prog", "/src/a.cc", "(below main)", "0" },
		/* valgrind --separate-recs: recursion levels of fib and of
		 * a C++ function */
		{ "/bin/prog", "/src/prog.c", "fib'2", "20" },
		{ "/bin/prog", "/src/prog.c", "fib'13", "20" },
		{ "/bin/prog", "/src/a.cc", "ns::walk(int)'2", "40" },
		/* a quote that is no recursion level */
		{ "/bin/prog", "/src/a.cc", "fib'x", "50" },
	};

	profile_init(p);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct names *n = &p->names;
		uint32_t id = profile_func(p, names_intern(n, f[i][0], strlen(f[i][0])),
					   names_intern(n, f[i][1], strlen(f[i][1])),
					   names_intern(n, f[i][2], strlen(f[i][2])));

		profile_set_func_line(p, id, (uint32_t)atoi(f[i][3]));
	}
}

/* The names spec selects, space-separated, in function order. */
static char *selected(struct profile *p, const char *spec)
{
	struct symspec s;
	struct symspec_names sn;
	const char *why;
	bool out[16] = { false };
	static char buf[512];
	size_t n = 0;

	assert_int_equal(symspec_parse(spec, &s, &why), 0);
	symspec_names_init(&sn, p);
	symspec_select(&s, &sn, out);
	buf[0] = '\0';
	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (out[f])
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
					      n ? " " : "",
					      profile_str(p, p->funcs[f].name));
	symspec_names_release(&sn);
	symspec_release(&s);
	return buf;
}

/*
 * One rule for every option that names functions (name_match.h): the
 * cases of tests/name-match.cases, which the report's browser test runs
 * through match.js too.
 */
static void test_name_matches(void **state)
{
	size_t len, n = 0;
	char *text = slurp("tests/name-match.cases", &len), *save = NULL;

	(void)state;
	assert_non_null(text);
	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *pattern, *name;
		bool want;

		if (*line == '#')
			continue;
		pattern = strchr(line, '\t');
		name = pattern ? strchr(pattern + 1, '\t') : NULL;
		if (!name)
			fail_msg("tests/name-match.cases: no two tabs in '%s'", line);
		*pattern++ = '\0';
		*name++ = '\0';
		want = !strcmp(line, "yes");
		if (!want && strcmp(line, "no"))
			fail_msg("tests/name-match.cases: '%s' is not yes or no", line);
		if (symspec_name_matches(pattern, name) != want)
			fail_msg("'%s' %s '%s'", pattern,
				 want ? "does not name" : "names", name);
		n++;
	}
	assert_true(n > 50);
	free(text);
}

/* The parts as name_match.h draws them */
static void test_name_parts(void **state)
{
	static const struct {
		const char *name, *ret, *last, *targs, *params;
	} cases[] = {
		{ "void std::vector<int>::push_back<int>(int const&) const [clone .cold]",
		  "std::vector<int>::push_back<int>(int const&) const [clone .cold]",
		  "push_back<int>(int const&) const [clone .cold]",
		  "<int>(int const&) const [clone .cold]",
		  "(int const&) const [clone .cold]" },
		{ "main", "main", "main", "", "" },
		{ "(below main)", "(below main)", "(below main)", "", "" },
		{ "unsigned long ns::f(int)", "ns::f(int)", "f(int)", "(int)", "(int)" },
		{ "void* operator new(unsigned long)", "operator new(unsigned long)",
		  "operator new(unsigned long)", "(unsigned long)", "(unsigned long)" },
		{ "std::unique_ptr<int>::operator->() const", "std::unique_ptr<int>::operator->() const",
		  "operator->() const", "() const", "() const" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct name_parts np;
		const char *s = cases[i].name;

		name_parts_of(s, &np);
		assert_int_equal(np.len, strlen(s));
		assert_string_equal(s + np.ret, cases[i].ret);
		assert_string_equal(s + np.last, cases[i].last);
		assert_string_equal(s + np.targs, cases[i].targs);
		assert_string_equal(s + np.params, cases[i].params);
	}
}

static void test_match(void **state)
{
	struct profile p;

	(void)state;
	make(&p);
	assert_string_equal(selected(&p, "work"), "work");
	/* a name with dots is a function too (gprof takes it for a file) */
	assert_string_equal(selected(&p, "helper.part.0"), "helper.part.0");
	/* a file by base name: both prog.c; by path: one */
	assert_string_equal(selected(&p, "prog.c"),
			    "main work fib helper.part.0 fib'2 fib'13");
	assert_string_equal(selected(&p, "/src/util/prog.c"), "helper.part.0");
	assert_string_equal(selected(&p, "/src/prog.c:fib"), "fib fib'2 fib'13");
	/* an object */
	assert_string_equal(selected(&p, "libc.so.6"), "qsort");
	/* globs */
	assert_string_equal(selected(&p, "f*"), "fib fib'2 fib'13 fib'x");
	/* _ZN2ns3popEv is ns::pop() */
	assert_string_equal(selected(&p, "ns::*"),
			    "ns::sort<int>(int*, int) const _ZN2ns3popEv "
			    "ns::walk(int)'2");
	assert_string_equal(selected(&p, "*/util/*"), "helper.part.0");
	/* without the parameter list; not for "(below main)" */
	assert_string_equal(selected(&p, "ns::sort<int>"), "ns::sort<int>(int*, int) const");
	assert_string_equal(selected(&p, "(below main)"), "(below main)");
	assert_string_equal(selected(&p, "below"), "");
	/* a mangled name shown is matched demangled too, and a mangled
	 * name given is demangled */
	assert_string_equal(selected(&p, "ns::pop"), "_ZN2ns3popEv");
	assert_string_equal(selected(&p, "_ZN2ns4sortIiEEvPii"), "");
	assert_string_equal(selected(&p, "_ZNK2ns4sortIiEEPiiv"), "");
	/* FILE:LINE: the function the line is in, per file */
	/* per file: both prog.c have a function starting before 85 */
	assert_string_equal(selected(&p, "prog.c:85"), "work helper.part.0");
	assert_string_equal(selected(&p, "prog.c:79"), "main helper.part.0");
	assert_string_equal(selected(&p, "/src/prog.c:20"), "fib fib'2 fib'13");
	assert_string_equal(selected(&p, "/src/prog.c:19"), "");
	assert_string_equal(selected(&p, "nothing"), "");
	/* a bare name matches every recursion level, one with a level
	 * only that level; a glob sees both forms */
	assert_string_equal(selected(&p, "fib"), "fib fib'2 fib'13");
	assert_string_equal(selected(&p, "fib'2"), "fib'2");
	assert_string_equal(selected(&p, "fib'1"), "");
	assert_string_equal(selected(&p, "fib'x"), "fib'x");
	assert_string_equal(selected(&p, "fi?"), "fib fib'2 fib'13");
	assert_string_equal(selected(&p, "ns::walk"), "ns::walk(int)'2");
	assert_string_equal(selected(&p, "ns::walk(int)"), "ns::walk(int)'2");
	assert_string_equal(selected(&p, "a.cc:ns::walk"), "ns::walk(int)'2");
	profile_release(&p);
}

/*
 * A cycle nothing outside it calls (main <-> f, spontaneous: a program
 * whose main is called back, or a mutual recursion only libc calls into)
 * has its "<cycle N as a whole>" entry, though gprof 2.40 leaves it out:
 * a cycle head's print flag is only the OR of its outside callers'
 * (inherit_flags() in gprof's cg_arcs.c), and the default that turns
 * every function's flag on is applied to functions, not to cycle heads,
 * so a root cycle's entry is never printed (gprof -b -q on such a
 * program, built here: no [1], "(1) <cycle 1>" in the index). That is
 * an accident of its flag propagation, not a choice: the cycle's total,
 * 100% of the run there, is listed nowhere else. We list it.
 */
static void test_listed_root_cycle(void **state)
{
	struct profile p;
	struct cg cg;
	bool node[4], cyc[1];

	(void)state;
	profile_init(&p);
	profile_from_spec(&p, "main:1 f:1 spin:9 main>f:8:10 f>main:8:10 "
			  "main>spin:9:5 f>spin:8:4");
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	assert_int_equal(cg.ncycles, 1);
	cg_listed(&cg, NULL, NULL, node, cyc);
	assert_true(cyc[0]);
	assert_true(node[find_func(&p, "main")] && node[find_func(&p, "f")] &&
		    node[find_func(&p, "spin")]);
	cg_release(&cg);
	profile_release(&p);
}

/* cg_listed on "main -> a -> b -> c, main -> d, a <-> e (a cycle)". */
static void test_listed(void **state)
{
	struct profile p;
	struct cg cg;
	bool only[8], not[8], node[8], cyc[2];
	uint32_t main_, a, b, c, d, e;

	(void)state;
	profile_init(&p);
	profile_from_spec(&p, "main:1 a:1 b:1 c:1 d:1 e:1 main>a:1:4 a>b:1:2 "
			  "b>c:1:1 main>d:1:1 a>e:1:1 e>a:1:1");
	main_ = find_func(&p, "main");
	a = find_func(&p, "a");
	b = find_func(&p, "b");
	c = find_func(&p, "c");
	d = find_func(&p, "d");
	e = find_func(&p, "e");
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	assert_int_equal(cg.ncycles, 1);

	/* -q b: b and what it calls */
	memset(only, 0, sizeof(only));
	only[b] = true;
	cg_listed(&cg, only, NULL, node, cyc);
	assert_true(node[b] && node[c]);
	assert_false(node[main_] || node[a] || node[d] || node[e] || cyc[0]);

	/* -q main -Q b: b left out, and c with it (only b calls it) */
	memset(only, 0, sizeof(only));
	memset(not, 0, sizeof(not));
	only[main_] = true;
	not[b] = true;
	cg_listed(&cg, only, not, node, cyc);
	assert_true(node[main_] && node[a] && node[e] && node[d] && cyc[0]);
	assert_false(node[b] || node[c]);

	/* -Q a alone: only a; its cycle is left out with it, as nothing
	 * listed calls into the cycle (main calls a only) */
	memset(not, 0, sizeof(not));
	not[main_] = true;
	cg_listed(&cg, NULL, not, node, cyc);
	assert_false(node[main_] || cyc[0]);
	assert_true(node[a] && node[b] && node[c] && node[d] && node[e]);

	/* -q of nothing that matched: nothing */
	memset(only, 0, sizeof(only));
	cg_listed(&cg, only, NULL, node, cyc);
	for (uint32_t f = 0; f < p.nfuncs; f++)
		assert_false(node[f]);
	cg_release(&cg);

	/* -k main/a: main no longer pays for a's 4 */
	{
		bool deleted[8] = { false };
		uint32_t call = find_call(&p, "main", "a");

		deleted[call] = true;
		cg_build_without(&cg, &p, 0, deleted);
		cg_find_cycles(&cg);
		cg_propagate_measured(&cg);
		assert_int_equal(cg.ndeleted, 1);
		assert_int_equal(cg_node_child(&cg, main_, 0), 1);
		assert_int_equal(cg.nodes[a].calls, 1);	/* from e */
		cg_release(&cg);
	}
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_name_matches),
		cmocka_unit_test(test_name_parts),
		cmocka_unit_test(test_parse_arc),
		cmocka_unit_test(test_arc_paths),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_listed_root_cycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
