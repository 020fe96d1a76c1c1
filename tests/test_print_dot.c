/*
 * The Graphviz call graph (src/print/print_dot.c): escaping, the shortened
 * names, pruning, cycles as clusters, --svg through dot; and every DOT
 * file the end-to-end tests expect must be one Graphviz reads. The
 * tests that run dot skip, saying so, only when it is not installed.
 */
#include "helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "cg/cg.h"
#include "cli/options.h"
#include "print/print.h"

struct fixture {
	struct profile p;
	struct cg cg;
	struct print_opts po;
};

static void analyse(struct fixture *fx)
{
	cg_build(&fx->cg, &fx->p, 0);
	cg_find_cycles(&fx->cg);
	cg_propagate_measured(&fx->cg);
	cg_rank(&fx->cg);
	memset(&fx->po, 0, sizeof(fx->po));
	fx->po.node_threshold = 0.5;
	fx->po.edge_threshold = 0.1;
}

static void from_spec(struct fixture *fx, const char *spec)
{
	profile_init(&fx->p);
	profile_from_spec(&fx->p, spec);
	analyse(fx);
}

static void release(struct fixture *fx)
{
	cg_release(&fx->cg);
	profile_release(&fx->p);
}

static char *dot_of(struct fixture *fx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print_dot(f, &fx->cg, &fx->po);
	fclose(f);
	return buf;
}

static bool have_dot(void)
{
	return system("command -v dot >/dev/null 2>&1") == 0;
}

/* Graphviz reads `text` (dot -Tsvg exits 0); the SVG, when svg. */
static int dot_reads(const char *text, char **svg)
{
	char in[] = "/tmp/cga-dot-XXXXXX";
	char cmd[256];
	int fd = mkstemp(in), status;
	size_t len = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "dot -Tsvg -o %s.svg %s", in, in);
	status = system(cmd);
	if (svg) {
		snprintf(cmd, sizeof(cmd), "%s.svg", in);
		*svg = slurp(cmd, NULL);
	}
	unlink(in);
	snprintf(cmd, sizeof(cmd), "%s.svg", in);
	unlink(cmd);
	return status;
}

/* The node statement of the function called name: "fN [label=...". */
static const char *node_line(struct fixture *fx, const char *dot,
			     const char *name)
{
	char id[32];
	uint32_t f = find_func(&fx->p, name);
	const char *s;

	assert_int_not_equal(f, NO_ID);
	snprintf(id, sizeof(id), "\tf%u [", f);
	s = strstr(dot, id);
	return s ? s + 1 : NULL;
}

/* A function with a name of len bytes, self cost self, called by
 * caller (NO_ID: none) count times at inclusive cost incl. */
static uint32_t add_func(struct profile *p, const char *name, size_t len,
			 uint64_t self, uint32_t caller, uint64_t count,
			 uint64_t incl)
{
	uint32_t f = profile_func(p, NO_NAME, NO_NAME,
				  names_intern(&p->names, name, len));

	profile_self(p, f)[0] += self;
	if (caller != NO_ID) {
		uint32_t c = profile_call(p, caller, f);

		profile_call_add_count(p, c, count);
		profile_call_incl(p, c)[0] += incl;
		p->calls_have_incl = true;
	}
	return f;
}

/* The picture of main calling each of names once (10 Ir each), fx
 * loaded and analysed. */
static char *dot_of_callees(struct fixture *fx, const char *const *names,
			    size_t n)
{
	uint32_t main_f;

	profile_init(&fx->p);
	profile_event(&fx->p, names_intern(&fx->p.names, "Ir", 2));
	main_f = add_func(&fx->p, "main", 4, 1, NO_ID, 0, 0);
	for (size_t i = 0; i < n; i++)
		add_func(&fx->p, names[i], strlen(names[i]), 10, main_f, 1, 10);
	profile_finish(&fx->p);
	analyse(fx);
	return dot_of(fx);
}

/*
 * Quotes, backslashes, '&' before what Graphviz takes for an entity,
 * control characters and bytes that are not UTF-8 are escaped; <>{}|
 * need nothing in a quoted label of a box. Graphviz reads the result
 * and shows each name as it is.
 */
static void test_escaping(void **state)
{
	static const char *const names[] = {
		"say \"hi\"", "back\\slash", "a &lt; b", "tab\there",
		"std::ostream& operator<<(std::ostream&, int)",
		"f<{}|>", "x\\", "latin\xff",
	};
	struct fixture fx;
	char *dot, *svg = NULL;

	(void)state;
	dot = dot_of_callees(&fx, names, sizeof(names) / sizeof(names[0]));

	assert_non_null(strstr(dot, "label=\"say \\\"hi\\\"\\n"));
	assert_non_null(strstr(dot, "label=\"back\\\\slash\\n"));
	assert_non_null(strstr(dot, "label=\"a &amp;lt; b\\n"));
	/* a control character comes as the text listings write it (a C
	 * escape, labels.c), its backslash escaped for DOT */
	assert_non_null(strstr(dot, "label=\"tab\\\\there\\n"));
	assert_non_null(strstr(dot, "label=\"x\\\\\\n"));
	assert_non_null(strstr(dot, "label=\"latin\xc3\xbf\\n"));
	assert_non_null(strstr(dot, "label=\"f<{}|>\\n"));
	/* a name with operator<< keeps it, and '&' before ',' is left */
	assert_non_null(strstr(dot, "operator<<(...)\\n"));
	assert_non_null(strstr(dot, "tooltip=\"std::ostream& operator<<(std::ostream&, int)\\n"));

	if (!have_dot()) {
		print_message("dot is not installed (apt-get install graphviz): "
			      "not checking that Graphviz reads it\n");
	} else {
		assert_int_equal(dot_reads(dot, &svg), 0);
		assert_non_null(svg);
		/* SVG escapes <>&" its own way; the text is the name */
		assert_non_null(strstr(svg, ">say &quot;hi&quot;</text>"));
		assert_non_null(strstr(svg, ">back\\slash</text>"));
		assert_non_null(strstr(svg, ">a &amp;lt; b</text>"));
		assert_non_null(strstr(svg, ">f&lt;{}|&gt;</text>"));
		assert_non_null(strstr(svg, ">latin\xc3\xbf</text>"));
		free(svg);
	}
	free(dot);
	release(&fx);
}

/*
 * Long C++ names are shortened, but two functions never get one label:
 * the two vector<...>::push_back(...) keep their template arguments,
 * the lone one does not; "(anonymous namespace)" is no parameter list.
 */
static void test_short_names(void **state)
{
	static const char *const names[] = {
		"std::vector<int, std::allocator<int> >::push_back(int const&)",
		"std::vector<long, std::allocator<long> >::push_back(long const&)",
		"std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >::find(int const&)",
		"(anonymous namespace)::parse_something_long_enough(char const*, unsigned long)",
		"bool operator< <sample::Point>(sample::Point const&, sample::Point const&)",
		"broken<unbalanced(bracket, pairs, which, are, shown, whole",
	};
	struct fixture fx;
	char *dot;

	(void)state;
	dot = dot_of_callees(&fx, names, sizeof(names) / sizeof(names[0]));

	/* at the first level both would be std::vector<...>::push_back(...);
	 * the nested level tells them apart ("<int>" is no longer than
	 * "<...>", so it stays) */
	assert_non_null(strstr(dot, "label=\"std::vector<int, std::allocator<int> >::push_back(...)\\n"));
	assert_non_null(strstr(dot, "label=\"std::vector<long, std::allocator<...> >::push_back(...)\\n"));
	assert_non_null(strstr(dot, "label=\"std::map<...>::find(...)\\n"));
	assert_non_null(strstr(dot, "label=\"(anonymous namespace)::parse_something_long_enough(...)\\n"));
	assert_non_null(strstr(dot, "label=\"bool operator< <...>(...)\\n"));
	assert_non_null(strstr(dot, "label=\"broken<unbalanced(bracket, pairs, which, are, shown, whole\\n"));
	/* the tooltip has the whole name */
	assert_non_null(strstr(dot, "tooltip=\"std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >::find(int const&)\\n"));
	if (have_dot())
		assert_int_equal(dot_reads(dot, NULL), 0);
	free(dot);
	release(&fx);
}

/* Names alike up to the cut (160 bytes) get their function's id. */
static void test_cut_names_stay_apart(void **state)
{
	struct fixture fx;
	char name[300];
	uint32_t main_f, a, b;
	char *dot;
	char want[64];

	(void)state;
	profile_init(&fx.p);
	profile_event(&fx.p, names_intern(&fx.p.names, "Ir", 2));
	main_f = add_func(&fx.p, "main", 4, 1, NO_ID, 0, 0);
	memset(name, 'n', sizeof(name));
	name[298] = 'a';
	a = add_func(&fx.p, name, 299, 10, main_f, 1, 10);
	name[298] = 'b';
	b = add_func(&fx.p, name, 299, 10, main_f, 1, 10);
	profile_finish(&fx.p);
	analyse(&fx);
	dot = dot_of(&fx);
	snprintf(want, sizeof(want), "... #%u\\n", a);
	assert_non_null(strstr(dot, want));
	snprintf(want, sizeof(want), "... #%u\\n", b);
	assert_non_null(strstr(dot, want));
	free(dot);
	release(&fx);
}

/*
 * Pruning: functions below the node threshold and arcs below the edge
 * threshold are left out, and so is every arc to or from a function
 * left out, whatever its own cost; the caption counts them.
 */
static void test_pruning(void **state)
{
	struct fixture fx;
	char *dot, *line;

	(void)state;
	/* total 1000: small 0.4% (below 0.5), thin 0.6% but called by
	 * main along an arc of 0% and by big along one of 0.5% */
	from_spec(&fx, "main:10 big:580 mid:400 small:4 thin:6 "
		       "main>big:1:585 main>mid:1:400 main>small:1:4 "
		       "big>thin:2:5 main>thin:1:0");
	dot = dot_of(&fx);
	assert_null(node_line(&fx, dot, "small"));
	assert_non_null(node_line(&fx, dot, "thin"));
	assert_non_null(node_line(&fx, dot, "big"));
	/* main>small joins a left-out node; main>thin is under 0.1% */
	assert_non_null(strstr(dot, "left out: 1 function below 0.5% inclusive, "
				    "2 call arcs below 0.1% or to or from a "
				    "function left out"));
	free(dot);
	release(&fx);

	from_spec(&fx, "main:10 big:580 mid:400 small:4 thin:6 "
		       "main>big:1:585 main>mid:1:400 main>small:1:4 "
		       "big>thin:2:5 main>thin:1:1");
	fx.po.node_threshold = 0;
	fx.po.edge_threshold = 0.2;
	dot = dot_of(&fx);
	assert_non_null(node_line(&fx, dot, "small"));
	/* main>thin is 0.1%, below 0.2 */
	assert_non_null(strstr(dot, "left out: 0 functions below 0% inclusive, "
				    "1 call arc below 0.2%"));
	/* every edge joins two declared nodes */
	for (line = strstr(dot, " -> "); line; line = strstr(line + 1, " -> ")) {
		const char *start = line;
		unsigned u, v;
		char id[32];

		while (start > dot && start[-1] != '\t')
			start--;
		assert_int_equal(sscanf(start, "f%u -> f%u", &u, &v), 2);
		snprintf(id, sizeof(id), "\tf%u [", u);
		assert_non_null(strstr(dot, id));
		snprintf(id, sizeof(id), "\tf%u [", v);
		assert_non_null(strstr(dot, id));
	}
	free(dot);
	release(&fx);
}

/* A cycle is a cluster of its members, labelled as the listing names
 * it, with its total; calls inside it are dashed, without a share. */
static void test_cycle_cluster(void **state)
{
	struct fixture fx;
	char *dot, *cluster, *end;
	char want[64];

	(void)state;
	from_spec(&fx, "main:10 even:30 odd:20 leaf:40 "
		       "main>even:1:90 even>odd:3:60 odd>even:2:45 "
		       "odd>leaf:1:40");
	dot = dot_of(&fx);
	cluster = strstr(dot, "subgraph cluster_1 {");
	assert_non_null(cluster);
	end = strstr(cluster, "\t}\n");
	assert_non_null(end);
	*end = '\0';
	/* the cycle costs 30 + 20 + 40 of 100 */
	assert_non_null(strstr(cluster, "label=\"<cycle 1 as a whole>\\nincl 90.00%  self 50.00%\\n1 + 5 calls\""));
	snprintf(want, sizeof(want), "\tf%u [label=\"even <cycle 1>\\n",
		 find_func(&fx.p, "even"));
	assert_non_null(strstr(cluster, want));
	snprintf(want, sizeof(want), "\tf%u [label=\"odd <cycle 1>\\n",
		 find_func(&fx.p, "odd"));
	assert_non_null(strstr(cluster, want));
	assert_null(strstr(cluster, "leaf"));
	assert_null(strstr(cluster, "main"));
	*end = '\t';
	snprintf(want, sizeof(want), "\tf%u -> f%u [label=\"3 calls\", style=dashed];",
		 find_func(&fx.p, "even"), find_func(&fx.p, "odd"));
	assert_non_null(strstr(dot, want));
	/* main is the entry (double border); leaf has the most self cost */
	assert_non_null(strstr(node_line(&fx, dot, "main"), "peripheries=2];"));
	assert_non_null(strstr(node_line(&fx, dot, "leaf"), "penwidth=4];"));
	if (have_dot())
		assert_int_equal(dot_reads(dot, NULL), 0);
	free(dot);
	release(&fx);
}

/* Every DOT output the end-to-end tests expect is read by Graphviz. */
static void test_e2e_outputs_parse(void **state)
{
	DIR *dir = opendir("tests/e2e");
	struct dirent *de;
	int checked = 0;

	(void)state;
	assert_non_null(dir);
	if (!have_dot()) {
		closedir(dir);
		print_message("dot is not installed (apt-get install graphviz): "
			      "skipping the check of tests/e2e/*.out\n");
		skip();
	}
	while ((de = readdir(dir)) != NULL) {
		size_t n = strlen(de->d_name);
		char path[512], *args, *out;

		if (n < 5 || strcmp(de->d_name + n - 5, ".args"))
			continue;
		snprintf(path, sizeof(path), "tests/e2e/%s", de->d_name);
		args = slurp(path, NULL);
		assert_non_null(args);
		if (strstr(args, "--dot")) {
			snprintf(path, sizeof(path), "tests/e2e/%.*s.out",
				 (int)(n - 5), de->d_name);
			out = slurp(path, NULL);
			assert_non_null(out);
			if (*out) {	/* usage errors print nothing */
				if (dot_reads(out, NULL) != 0)
					fail_msg("dot cannot read %s", path);
				checked++;
			}
			free(out);
		}
		free(args);
	}
	closedir(dir);
	assert_true(checked >= 3);
}

/* --svg without dot in PATH: an error saying what to install. */
static void test_svg_without_dot(void **state)
{
	struct fixture fx;
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char *msg;

	(void)state;
	from_spec(&fx, "main:10 f:90 main>f:1:90");
	setenv("PATH", "/nonexistent-cga", 1);
	diag_capture_begin();
	assert_int_equal(print_svg("/tmp/never.svg", &fx.cg, &fx.po), -1);
	msg = diag_capture_end();
	if (old)
		setenv("PATH", old, 1);
	free(old);
	assert_string_equal(msg, "cganalyze: --svg '/tmp/never.svg': cannot run "
			    "'dot': it is not installed; install graphviz "
			    "(apt-get install graphviz)\n");
	free(msg);
	release(&fx);
}

/* A file name with spaces and quotes reaches dot as it is (no shell);
 * dot's own failure is reported with its exit status. */
static void test_svg_file(void **state)
{
	struct fixture fx;
	char dir[] = "/tmp/cga-svg-XXXXXX";
	char path[128], *svg, *msg;

	(void)state;
	if (!have_dot()) {
		print_message("dot is not installed (apt-get install graphviz): "
			      "skipping --svg\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	from_spec(&fx, "main:10 f:90 main>f:1:90");
	snprintf(path, sizeof(path), "%s/-a b'\"c $(x).svg", dir);
	assert_int_equal(print_svg(path, &fx.cg, &fx.po), 0);
	svg = slurp(path, NULL);
	assert_non_null(svg);
	assert_non_null(strstr(svg, "<svg"));
	assert_non_null(strstr(svg, ">main</text>"));
	free(svg);
	unlink(path);
	rmdir(dir);

	snprintf(path, sizeof(path), "%s/no/such/dir.svg", dir);
	diag_capture_begin();
	assert_int_equal(print_svg(path, &fx.cg, &fx.po), -1);
	msg = diag_capture_end();
	assert_non_null(strstr(msg, "': 'dot' failed with exit status "));
	free(msg);
	release(&fx);
}

/*
 * --threshold with --dot or --svg: functions below PCT inclusive are
 * left out (the call graph listing leaves out entries below PCT total),
 * arcs by no higher bar; --node-threshold and --edge-threshold win.
 */
static void test_threshold_options(void **state)
{
	static const struct {
		const char *args[4];
		double node, edge;
	} cases[] = {
		{ { "--dot" }, 0.5, 0.1 },
		{ { "--dot", "--threshold=5" }, 5, 0.1 },
		{ { "--dot", "--threshold=0.05" }, 0.05, 0.05 },
		{ { "--dot", "--threshold=0" }, 0, 0 },
		{ { "--svg=x.svg", "--threshold=2" }, 2, 0.1 },
		{ { "--dot", "--threshold=5", "--node-threshold=1" }, 1, 0.1 },
		{ { "--dot", "--threshold=0", "--edge-threshold=1" }, 0, 1 },
		/* without a picture, the listings' threshold alone */
		{ { "-q", "--threshold=5" }, 0.5, 0.1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *argv[8] = { (char *)"cganalyze" };
		int argc = 1;
		struct options o;

		for (size_t k = 0; k < 4 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		argv[argc++] = (char *)"profile";
		assert_int_equal(options_parse(&o, argc, argv, stdout), OPTIONS_OK);
		if (o.node_threshold != cases[i].node ||
		    o.edge_threshold != cases[i].edge)
			fail_msg("case %zu: node %g, edge %g; expected %g, %g", i,
				 o.node_threshold, o.edge_threshold,
				 cases[i].node, cases[i].edge);
		options_release(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_cut_names_stay_apart),
		cmocka_unit_test(test_pruning),
		cmocka_unit_test(test_cycle_cluster),
		cmocka_unit_test(test_e2e_outputs_parse),
		cmocka_unit_test(test_svg_without_dot),
		cmocka_unit_test(test_svg_file),
		cmocka_unit_test(test_threshold_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
