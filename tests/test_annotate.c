/*
 * The annotated source listing's data (src/print/annotate_data.c): every unit of
 * cost is accounted for, each file's lines add up to its share, and the
 * per-line costs and call lines agree with callgrind_annotate's
 * auto-annotated sources for the same profiles (committed next to them
 * as PROFILE.annotate by samples/make-samples.sh).
 */
#include "helpers.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "cg/cg.h"
#include "print/annotate_data.h"
#include "select/selection.h"

struct run {
	struct profile p;
	struct cg cg;
	struct sources sources;
	struct print_opts po;
	struct annotation a;
	uint32_t *show;
};

static void run_open(struct run *r, const char *path, const char *what,
		     const struct source_opts *so)
{
	struct read_opts ro = { .want_positions = true };
	char *diag;

	memset(r, 0, sizeof(*r));
	profile_init(&r->p);
	if (read_path(&r->p, path, &ro, &diag) != 0)
		fail_msg("%s: %s", path, diag);
	free(diag);
	profile_finish(&r->p);
	cg_build(&r->cg, &r->p, 0);
	cg_find_cycles(&r->cg);
	cg_propagate_measured(&r->cg);
	cg_rank(&r->cg);
	sources_init(&r->sources, so);
	r->show = calloc(r->p.nevents + 1, sizeof(*r->show));
	for (size_t e = 0; e < r->p.nevents; e++)
		r->show[e] = (uint32_t)e;
	r->po.show = r->show;
	r->po.nshow = r->p.nevents;
	r->po.sources = &r->sources;
	r->po.annotate = true;
	r->po.annotate_what = what;
	r->po.context = 8;
	assert_int_equal(annotation_build(&r->a, &r->cg, &r->po), 0);
}

static void run_close(struct run *r)
{
	annotation_release(&r->a);
	sources_release(&r->sources);
	cg_release(&r->cg);
	profile_release(&r->p);
	free(r->show);
}

static const char *const profiles[] = {
	"samples/hello/callgrind.out",
	"samples/recursion/callgrind.out",
	"samples/recursion/callgrind.instr.out",
	"samples/recursion/callgrind.cache.out",
	"samples/recursion/callgrind.parts.out",
	"samples/recursion/callgrind.callers.out",
	"samples/recursion/cachegrind.out",
	"samples/cxx/callgrind.out",
	"samples/cxx/callgrind.instr.out",
};

/* Every file's lines sum to the file's cost; the fates sum to the total,
 * which is the profile's total; nothing is lost or counted twice. */
static void check_sums(const struct run *r, const char *path)
{
	const struct annotation *a = &r->a;
	size_t ne = a->stride;
	uint64_t *sum = calloc(ne, sizeof(*sum)), *fates = calloc(ne, sizeof(*fates));

	for (size_t e = 0; e < ne; e++)
		if (a->total[e] != r->p.totals[e])
			fail_msg("%s: event %zu: positions sum to %llu, the profile to %llu",
				 path, e, (unsigned long long)a->total[e],
				 (unsigned long long)r->p.totals[e]);
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		memset(sum, 0, ne * sizeof(*sum));
		for (size_t l = 0; l < f->nlines; l++)
			for (size_t e = 0; e < ne; e++)
				sum[e] += ann_row(a->line_cost, a, f->lines[l])[e];
		for (size_t e = 0; e < ne; e++)
			if (sum[e] != ann_row(a->file_cost, a, i)[e])
				fail_msg("%s: %s: lines sum to %llu, the file has %llu",
					 path, profile_str(&r->p, f->name),
					 (unsigned long long)sum[e],
					 (unsigned long long)ann_row(a->file_cost, a, i)[e]);
	}
	for (int f = 0; f < ANN_FATES; f++)
		for (size_t e = 0; e < ne; e++)
			fates[e] += ann_row(a->fate_cost, a, (size_t)f)[e];
	for (size_t e = 0; e < ne; e++)
		assert_int_equal(fates[e], a->total[e]);
	free(sum);
	free(fates);
}

static void test_sums(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct run r;

		run_open(&r, profiles[i], NULL, NULL);
		check_sums(&r, profiles[i]);
		run_close(&r);
		/* one function chosen */
		run_open(&r, profiles[i], "*main*", NULL);
		check_sums(&r, profiles[i]);
		assert_string_equal(r.a.selected_by, "function");
		run_close(&r);
	}
}

/*
 * -p/-P SPEC choose the functions whose lines are annotated: what they
 * leave out is "not chosen", and the listed lines hold exactly the self
 * cost of the functions they list (a function's positions are all on
 * lines in these profiles).
 */
static void test_symspecs(void **state)
{
	static const struct {
		enum symspec_use use;
		const char *spec, *what;
	} cases[] = {
		{ SPEC_FLAT_ONLY, "fib*", NULL },
		{ SPEC_FLAT_NOT, "fib*", NULL },
		{ SPEC_FLAT_ONLY, "fib*", "*i*" },	/* with WHAT: both */
		{ SPEC_FLAT_ONLY, "fib*", "prog.c" },
	};
	const char *path = "samples/recursion/callgrind.out";

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct symspec_opt so = { .use = cases[i].use };
		struct selection sel;
		struct run r;
		const char *why;
		uint64_t want = 0, listed;
		uint32_t ev = 0;

		run_open(&r, path, cases[i].what, NULL);
		assert_int_equal(symspec_parse(cases[i].spec, &so.spec, &why), 0);
		selection_init(&sel, &r.p, &so, 1);
		annotation_release(&r.a);
		r.po.flat_listed = sel.flat;
		assert_int_equal(annotation_build(&r.a, &r.cg, &r.po), 0);
		assert_true(r.a.by_symspecs);
		check_sums(&r, path);
		for (uint32_t f = 0; f < r.p.nfuncs; f++) {
			const char *name = profile_str(&r.p, r.p.funcs[f].name);

			if (sel.flat[f] && (!cases[i].what ||
					    strchr(cases[i].what, '.') ||
					    strchr(name, 'i')))
				want += profile_self(&r.p, f)[ev];
		}
		listed = ann_row(r.a.fate_cost, &r.a, ANN_LISTED)[ev] +
			 ann_row(r.a.fate_cost, &r.a, ANN_NOT_FOUND)[ev] +
			 ann_row(r.a.fate_cost, &r.a, ANN_BELOW)[ev] +
			 ann_row(r.a.fate_cost, &r.a, ANN_NO_LINE)[ev];
		if (listed != want)
			fail_msg("case %zu: lines of the chosen functions hold "
				 "%llu, their self cost is %llu", i,
				 (unsigned long long)listed,
				 (unsigned long long)want);
		assert_int_equal(ann_row(r.a.fate_cost, &r.a, ANN_NOT_CHOSEN)[ev],
				 r.p.totals[ev] - want);
		r.po.flat_listed = NULL;
		selection_release(&sel);
		symspec_opt_release(&so);
		run_close(&r);
	}
}

/*
 * A line with no cost, no call and no inlined code (IgProf's frame at a
 * function's first instruction, whose cost is all in its callees) is not
 * listed, and a file of only such lines is no file of the listing; a
 * line with a call and no cost of its own is.
 */
static void test_empty_lines(void **state)
{
	static const char text[] =
		"events: Ir Dr\n"
		"fl=/src/a.c\nfn=f\n3 0 0\n4 5 1\n"
		"cfn=g\ncalls=1 0\n6 0 0\n"
		"7 0 2\n"
		"fl=/src/b.c\nfn=g\n1 0 0\n";
	struct annotation a;
	struct profile p;
	struct cg cg;
	struct print_opts po = { 0 };
	struct sources sources;
	struct read_opts ro = { .want_positions = true };
	char *diag;
	uint32_t want[] = { 4, 6, 7 };

	(void)state;
	profile_init(&p);
	assert_int_equal(read_text(&p, text, -1, &ro, &diag), 0);
	free(diag);
	profile_finish(&p);
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);
	sources_init(&sources, NULL);
	po.sources = &sources;
	po.annotate = true;
	po.listing_threshold = 1;
	assert_int_equal(annotation_build(&a, &cg, &po), 0);
	assert_int_equal(a.nfiles, 1);
	assert_string_equal(profile_str(&p, a.files[0].name), "/src/a.c");
	assert_int_equal(a.files[0].nlines, 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(a.lines[a.files[0].lines[i]].line, want[i]);
	assert_int_equal(ann_row(a.fate_cost, &a, ANN_NOT_FOUND)[0], 5);
	assert_int_equal(ann_row(a.fate_cost, &a, ANN_NOT_FOUND)[1], 3);
	annotation_release(&a);
	sources_release(&sources);
	cg_release(&cg);
	profile_release(&p);
}

/* ---- callgrind_annotate's auto-annotated sources ---- */

/* One column of callgrind_annotate: "1,234", "1,234 ( 0.50%)", "0" or
 * "."; *s moves past it. Returns false when there is none. */
static bool peer_number(const char **s, uint64_t *v)
{
	const char *p = *s;

	while (*p == ' ')
		p++;
	if (*p == '.') {
		*v = 0;
		*s = p + 1;
		return true;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	*v = 0;
	while (isdigit((unsigned char)*p) || *p == ',') {
		if (*p != ',')
			*v = *v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	if (p[0] == ' ' && p[1] == '(') {
		const char *close = strchr(p, ')');

		if (close)
			p = close + 1;
	}
	*s = p;
	return true;
}

static uint32_t line_index_of(const struct annotation *a, name_id file,
			      uint32_t line)
{
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		if (f->name != file)
			continue;
		for (size_t l = 0; l < f->nlines; l++)
			if (a->lines[f->lines[l]].line == line)
				return f->lines[l];
	}
	return NO_ID;
}

/*
 * callgrind_annotate lists a line's calls from the first function it saw
 * calling from that line only (its %func_of_line), so where two functions
 * call from one line (two instances of an inlined template: 9 + 9 calls
 * to memcpy at stl_uninitialized.h:1117 in the C++ sample) it shows one
 * function's 9 and drops the other's. We show all 18; the peer's numbers
 * must be exactly one calling function's share.
 */
static bool one_callers_calls(const struct run *r, name_id file, uint32_t line,
			      uint32_t callee, uint64_t count,
			      const uint64_t *theirs, const uint32_t *col_event,
			      size_t ncols)
{
	const struct profile *p = &r->p;

	for (size_t f = 0; f < p->nfuncs; f++) {
		uint64_t n = 0, incl[64] = { 0 };
		bool same = true;

		for (size_t i = 0; i < p->ncallsites; i++) {
			const struct pcallsite *cs = &p->callsites[i];
			const struct ppos *q = &p->pos[cs->pos];

			if (q->file != file || q->line != line || q->func != f ||
			    p->calls[cs->call].callee != callee)
				continue;
			n += cs->count;
			for (size_t k = 0; k < ncols; k++)
				incl[k] += profile_callsite_incl(p, (uint32_t)i)[col_event[k]];
		}
		for (size_t k = 0; k < ncols; k++)
			same &= incl[k] == theirs[k];
		if (n == count && same)
			return true;
	}
	return false;
}

static void compare_call(const struct run *r, const char *path, name_id file,
			 uint32_t line, const char *text, const uint64_t *theirs,
			 const uint32_t *col_event, size_t ncols)
{
	const struct annotation *a = &r->a;
	const char *arrow = strstr(text, "=> "), *colon, *open;
	uint32_t li = line_index_of(a, file, line);
	char callee[8192];
	unsigned long long count;

	assert_non_null(arrow);
	colon = strchr(arrow + 3, ':');	/* "=> FILE:NAME (Nx)"; C++ names
					 * have colons, paths here do not */
	open = strrchr(arrow, '(');
	assert_true(colon && open && open > colon);
	snprintf(callee, sizeof(callee), "%.*s", (int)(open - colon - 2), colon + 1);
	count = strtoull(open + 1, NULL, 10);	/* commas: counts here are small */
	if (li == NO_ID)
		fail_msg("%s: %s:%u: no calls, callgrind_annotate has => %s",
			 path, profile_str(&r->p, file), line, callee);
	for (uint32_t c = a->lines[li].first_call; c != NO_ID; c = a->calls[c].next) {
		const struct ann_call *call = &a->calls[c];

		if (strcmp(profile_str(&r->p, r->p.funcs[call->callee].name), callee))
			continue;
		if (call->count == count) {
			for (size_t k = 0; k < ncols; k++)
				if (ann_row(a->call_incl, a, c)[col_event[k]] != theirs[k])
					fail_msg("%s: %s:%u => %s: column %zu: %llu, callgrind_annotate %llu",
						 path, profile_str(&r->p, file), line, callee, k,
						 (unsigned long long)ann_row(a->call_incl, a, c)[col_event[k]],
						 (unsigned long long)theirs[k]);
		} else if (!one_callers_calls(r, file, line, call->callee, count,
					      theirs, col_event, ncols)) {
			fail_msg("%s: %s:%u => %s: %llu calls, callgrind_annotate %llu",
				 path, profile_str(&r->p, file), line, callee,
				 (unsigned long long)call->count, count);
		}
		return;
	}
	fail_msg("%s: %s:%u: no call to %s", path, profile_str(&r->p, file), line,
		 callee);
}

/*
 * Each costed line callgrind_annotate shows has our cost, every event;
 * each line we have with cost in such a file is one it shows; each of
 * its call lines is ours, count and inclusive cost.
 */
static void compare_with_peer(const char *profile, const char *annotate)
{
	struct run r;
	size_t len, nsections = 0, nlines = 0, ncalls = 0;
	char *text = slurp(annotate, &len), *save = NULL;
	name_id file = NO_NAME;
	uint32_t line = 0, col_event[64];
	size_t ncols = 0;
	bool header = false;
	uint64_t *seen_cost = NULL;
	name_id sections[64];

	assert_non_null(text);
	run_open(&r, profile, NULL, NULL);
	seen_cost = calloc(r.a.nlines + 1, sizeof(*seen_cost));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *s = l;
		uint64_t v[64];
		size_t k;

		if (!strncmp(l, "-- Auto-annotated source: ", 26)) {
			file = names_find(&r.p.names, l + 26, strlen(l + 26));
			header = file != NO_NAME;
			if (header)
				sections[nsections++ % 64] = file;
			line = 1;	/* no "-- line" marker at a file's start */
			continue;
		}
		if (!strncmp(l, "-- Auto-annotated", 17) || !strncmp(l, "----", 4) ||
		    !strncmp(l, "-- User-annotated", 17)) {
			if (strncmp(l, "----", 4))
				file = NO_NAME;
			continue;
		}
		if (file == NO_NAME || strstr(l, "events annotated"))
			continue;	/* the closing summary is not a line */
		if (header) {	/* "Ir  Dr ..." names the columns */
			char *tok, *save2 = NULL, *copy = strdup(l);

			ncols = 0;
			for (tok = strtok_r(copy, " ", &save2); tok && ncols < 64;
			     tok = strtok_r(NULL, " ", &save2))
				col_event[ncols++] = profile_find_event(&r.p, tok);
			free(copy);
			for (k = 0; k < ncols; k++)
				assert_int_not_equal(col_event[k], NO_ID);
			header = false;
			continue;
		}
		if (!strncmp(l, "-- line ", 8)) {
			line = (uint32_t)strtoul(l + 8, NULL, 10);
			continue;
		}
		for (k = 0; k < ncols; k++)
			if (!peer_number(&s, &v[k]))
				break;
		if (k < ncols)
			continue;	/* not a listing line */
		if (strstr(s, " => ") == s + strspn(s, " ") - 1 ||
		    !strncmp(s + strspn(s, " "), "=> ", 3)) {
			compare_call(&r, profile, file, line - 1, s, v, col_event,
				     ncols);
			ncalls++;
			continue;
		}
		{
			uint32_t li = line_index_of(&r.a, file, line);

			for (k = 0; k < ncols; k++) {
				uint64_t ours = li == NO_ID ? 0
					: ann_row(r.a.line_cost, &r.a, li)[col_event[k]];

				if (ours != v[k])
					fail_msg("%s: %s:%u: column %zu: %llu, callgrind_annotate %llu",
						 profile, profile_str(&r.p, file), line, k,
						 (unsigned long long)ours,
						 (unsigned long long)v[k]);
			}
			if (li != NO_ID)
				seen_cost[li] = 1;
			nlines++;
		}
		line++;
	}
	/* every costed line of the compared files was shown by the peer */
	assert_true(nsections > 0 && nsections <= 64);
	for (size_t i = 0; i < r.a.nlines; i++) {
		const struct ann_line *al = &r.a.lines[i];
		name_id fname = r.a.files[al->file].name;
		bool compared = false;

		for (size_t k = 0; k < nsections; k++)
			compared |= sections[k] == fname;
		if (compared && !seen_cost[i] &&
		    ann_row(r.a.line_cost, &r.a, i)[0])
			fail_msg("%s: %s:%u has cost the peer does not show", profile,
				 profile_str(&r.p, fname), al->line);
	}
	assert_true(nlines > 20);
	print_message("%s: %zu sources, %zu lines, %zu call lines agree\n",
		      profile, nsections, nlines, ncalls);
	free(seen_cost);
	free(text);
	run_close(&r);
}

static void test_peer_annotate(void **state)
{
	(void)state;
	compare_with_peer("samples/recursion/callgrind.out",
			  "samples/recursion/callgrind.out.annotate");
	compare_with_peer("samples/recursion/callgrind.cache.out",
			  "samples/recursion/callgrind.cache.out.annotate");
	compare_with_peer("samples/recursion/callgrind.instr.out",
			  "samples/recursion/callgrind.instr.out.annotate");
	compare_with_peer("samples/cxx/callgrind.out",
			  "samples/cxx/callgrind.out.annotate");
	compare_with_peer("samples/cxx/callgrind.instr.out",
			  "samples/cxx/callgrind.instr.out.annotate");
}

/* ---- finding sources (src/print/source_files.c) ---- */

static void test_sources(void **state)
{
	char dir[] = "/tmp/cga-src-XXXXXX", path[256], name[256];
	struct source_map map;
	const char *dirs[1];
	struct source_opts so = { 0 };
	struct sources s;
	const struct source_file *f;
	struct utimbuf ut = { 2000000000, 2000000000 };
	size_t len;
	const char *l;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sub/a.c", dir);
	fp = fopen(path, "w");
	fputs("one\r\n\ttwo\nthree", fp);	/* CRLF, no final newline */
	fclose(fp);

	/* as given */
	sources_init(&s, NULL);
	f = sources_get(&s, path);
	assert_non_null(f->found);
	assert_false(f->stale);
	assert_int_equal(f->nlines, 3);
	l = source_line(f, 1, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(l, "one", 3);
	l = source_line(f, 3, &len);
	assert_memory_equal(l, "three", 5);
	assert_null(source_line(f, 4, &len));
	assert_null(source_line(f, 0, &len));
	assert_ptr_equal(sources_get(&s, path), f);	/* read once */
	/* not found: remembered, with why */
	f = sources_get(&s, "/nonexistent/a.c");
	assert_null(f->found);
	assert_int_equal(f->err, ENOENT);
	assert_null(source_line(f, 1, &len));
	sources_release(&s);

	/* --source-map: a prefix replaced */
	snprintf(name, sizeof(name), "/build/x=%s", dir);
	assert_int_equal(source_map_parse(name, &map), 0);
	assert_int_equal(source_map_parse("=x", &map) , -1);
	assert_int_equal(source_map_parse(name, &map), 0);
	so.maps = &map;
	so.nmaps = 1;
	sources_init(&s, &so);
	f = sources_get(&s, "/build/x/sub/a.c");
	assert_string_equal(f->found, path);
	sources_release(&s);

	/* -I: the longest tail of the name that exists under DIR */
	dirs[0] = dir;
	memset(&so, 0, sizeof(so));
	so.dirs = dirs;
	so.ndirs = 1;
	sources_init(&s, &so);
	f = sources_get(&s, "/home/alice/proj/sub/a.c");
	assert_string_equal(f->found, path);
	f = sources_get(&s, "/home/alice/proj/other/b.c");
	assert_null(f->found);
	/* a directory is not a source */
	f = sources_get(&s, "sub");
	assert_null(f->found);
	sources_release(&s);

	/* stale: modified after the profile */
	assert_int_equal(utime(path, &ut), 0);
	so.profile_mtime = 1900000000;
	sources_init(&s, &so);
	assert_true(sources_get(&s, path)->stale);
	sources_release(&s);
	so.profile_mtime = 2100000000;
	sources_init(&s, &so);
	assert_false(sources_get(&s, path)->stale);
	sources_release(&s);

	unlink(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_symspecs),
		cmocka_unit_test(test_empty_lines),
		cmocka_unit_test(test_peer_annotate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
