/*
 * A Callgrind profile's parts on the report's trees (print/html_parts.c,
 * with cli/part_reads.c reading every part of a file in one pass), on
 * the valgrind files
 * of tests/callgrind-threads: dumps/ (three dumps, three threads, 13
 * events), combined.out (17 parts in one file) and procs/ (two
 * processes), and IgProf's buffers (two, of whole stacks). On a page of every function: each part's records at the
 * nodes of a function add up to that function's self cost in the part
 * read alone (exact, in whole numbers), for every event; every record is
 * on a node of the page's tree or one added to it, an added node's
 * parent before it; the records of all parts add up to the whole
 * profile's totals; each part is its track's (pid, thread) and its
 * dump's; each part's inclusive costs are its graph's. On the default page (cut at 0.5%) the records still add up
 * to each part's total, less what lands at no node (counted).
 */
#include "helpers.h"

#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cg/cg.h"
#include "cli/options.h"
#include "cli/part_reads.h"
#include "print/flame_data.h"
#include "print/html_data.h"
#include "print/html_parts.h"
#include "print/html_samples.h"
#include "print/report_keep.h"
#include "read/read.h"
#include "resolve/demangle_names.h"

#define DIR "tests/callgrind-threads/"

struct run {
	struct profile p;
	struct cg cg;
	struct part_reads pr;
	struct options o;
};

static void load(struct run *r, const char *pattern)
{
	struct read_opts ro = { .want_stacks = true };	/* IgProf's */
	glob_t g;
	char *diag;

	memset(r, 0, sizeof(*r));
	profile_init(&r->p);
	assert_int_equal(glob(pattern, 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		assert_int_equal(read_path(&r->p, g.gl_pathv[i], &ro, &diag), 0);
		free(diag);
	}
	globfree(&g);
	assert_int_equal(profile_finish(&r->p), 0);
	cg_build(&r->cg, &r->p, 0);
	cg_find_cycles(&r->cg);
	assert_int_equal(cg_propagate_measured(&r->cg), 0);
	cg_rank(&r->cg);
	part_reads_load(&r->pr, &r->o, &r->cg, 0);
	assert_null(r->pr.why);
	assert_true(r->pr.parts.nparts >= 2);
}

/* Part i of the run read alone, as --part=N --pid=P --tid=T reads it
 * (IgProf's buffer as --part=N): what the one pass must equal */
static void alone(const struct run *r, size_t i, struct profile *pp,
		  struct cg *pcg)
{
	const struct ppart *pt = r->pr.parts.parts[i].part;
	uint32_t pid = pt->pid, tid = pt->tid;
	struct perf_select sel = { .pids = &pid, .npids = 1,
				   .tids = &tid, .ntids = 1 };
	bool igprof = !strcmp(profile_str(&r->p, r->p.inputs[pt->input]
					  .format), "igprof");
	struct read_opts ro = { .part = igprof || !pt->number ? pt->ordinal
							      : pt->number,
				.want_stacks = true,
				.perf_select = igprof ? NULL : &sel };
	char *diag;

	profile_init(pp);
	assert_int_equal(read_path(pp, profile_str(&r->p, r->p.inputs[
					   pt->input].path), &ro, &diag), 0);
	free(diag);
	if (igprof)
		demangle_names(pp);
	assert_int_equal(profile_finish(pp), 0);
	cg_build(pcg, pp, 0);
	cg_find_cycles(pcg);
	assert_int_equal(cg_propagate_measured(pcg), 0);
	cg_rank(pcg);
}

static void unload(struct run *r)
{
	part_reads_release(&r->pr);
	cg_release(&r->cg);
	profile_release(&r->p);
}

static uint32_t part_event(const struct profile *pp, const struct profile *p,
			   uint32_t e)
{
	for (uint32_t f = 0; f < pp->nevents; f++)
		if (!strcmp(profile_str(pp, pp->events[f].name),
			    profile_str(p, p->events[e].name)))
			return f;
	fail();
	return 0;
}

/* A function of the part by its names in the whole profile, or NO_ID */
static uint32_t part_func(const struct profile *pp, const struct profile *p,
			  uint32_t f)
{
	for (uint32_t g = 0; g < pp->nfuncs; g++)
		if (!strcmp(profile_str(pp, pp->funcs[g].name),
			    profile_str(p, p->funcs[f].name)) &&
		    !strcmp(profile_str(pp, pp->funcs[g].file),
			    profile_str(p, p->funcs[f].file)) &&
		    !strcmp(profile_str(pp, pp->funcs[g].object),
			    profile_str(p, p->funcs[f].object)))
			return g;
	return NO_ID;
}

/* Every function's self in every part and event, from the records */
static void check_exact(const char *pattern)
{
	struct run r;
	struct print_opts po = { 0 };	/* threshold 0: every function */
	struct report_keep k;
	struct html_part_axes ax;
	struct html_part_added *added;
	size_t nrec, moved, lost, nparts;
	struct html_record *rec;
	struct profile *pp;
	struct cg *pcg;

	load(&r, pattern);
	report_keep_init(&k, &r.cg, &po);
	assert_true(report_keeps_all(&k));
	html_part_axes_init(&ax, &r.p, &r.pr.parts);
	added = calloc(r.p.nevents + 1, sizeof(*added));
	rec = html_parts_records(&r.cg, &r.pr.parts, &ax, &k, added, &nrec,
				 &moved, &lost);
	assert_int_equal(moved, 0);
	assert_int_equal(lost, 0);
	nparts = r.pr.parts.nparts;
	pp = calloc(nparts, sizeof(*pp));
	pcg = calloc(nparts, sizeof(*pcg));
	for (size_t i = 0; i < nparts; i++)
		alone(&r, i, &pp[i], &pcg[i]);
	for (size_t i = 0; i < nparts; i++) {
		const struct ppart *pt = r.pr.parts.parts[i].part;
		const struct part_group *g = &ax.groups[ax.track[i]];

		/* its track is its thread, its bucket its dump */
		assert_int_equal(g->pid, pt->pid);
		assert_int_equal(g->tid, pt->tid);
		assert_int_equal(ax.dumps[ax.bucket[i]],
				 pt->number ? pt->number : pt->ordinal);
	}
	for (uint32_t e = 0; e < r.p.nevents; e++) {
		struct flame fl;
		uint64_t all = 0;
		uint64_t *self;

		/* a maximum's tree is not drawn (html_parts.c, drawn()):
		 * IgProf's MEM_MAX, buffers.txt's X_MAX */
		if (r.p.events[e].max)
			continue;
		self = calloc(nparts * r.p.nfuncs + 1, sizeof(*self));
		flame_build(&fl, &r.cg, e,
			    (double)r.p.totals[e] * HTML_FLAME_MIN_SHARE,
			    HTML_FLAME_MAX_NODES);
		for (size_t j = 0; j < added[e].n; j++) {
			uint32_t up = added[e].parent[j];

			assert_true(up == NO_ID || up < fl.nnodes + j);
			assert_true(added[e].unit[j] < r.p.nfuncs);
		}
		for (size_t i = 0; i < nrec; i++) {
			const struct html_record *x = &rec[i];
			uint32_t f;
			size_t part;

			if (x->event != e)
				continue;
			assert_true(x->node < fl.nnodes + added[e].n);
			f = x->node < fl.nnodes ? fl.nodes[x->node].func
				: added[e].unit[x->node - fl.nnodes];
			assert_true(f != NO_ID);	/* never a cycle's */
			for (part = 0; part < nparts; part++)
				if (ax.track[part] == x->track &&
				    ax.bucket[part] == x->bucket)
					break;
			assert_true(part < nparts);
			self[part * r.p.nfuncs + f] += x->period;
			all += x->period;
		}
		/* the parts' sum: the whole profile's total */
		assert_int_equal(all, r.p.totals[e]);
		for (size_t part = 0; part < nparts; part++) {
			uint32_t pe = part_event(&pp[part], &r.p, e);

			for (uint32_t f = 0; f < r.p.nfuncs; f++) {
				uint32_t g = part_func(&pp[part], &r.p, f);
				uint64_t want = g == NO_ID ? 0
					: (uint64_t)llround(cg_node_self(
						&pcg[part], g, pe));

				assert_int_equal(self[part * r.p.nfuncs + f],
						 want);
			}
		}
		free(self);
		flame_release(&fl);
	}
	free(rec);
	/* each part's inclusive costs: the part's own measured ones */
	rec = html_parts_inclusive(&r.pr.parts, &ax, &k, &nrec);
	assert_true(nrec > 0);
	for (size_t i = 0; i < nrec; i++) {
		const struct html_record *x = &rec[i];
		size_t part;
		uint32_t g;
		uint64_t *row;

		for (part = 0; part < nparts; part++)
			if (ax.track[part] == x->track &&
			    ax.bucket[part] == x->bucket)
				break;
		assert_true(part < nparts);
		g = part_func(&pp[part], &r.p, x->node);
		assert_true(g != NO_ID);
		row = calloc(pp[part].nevents + 1, sizeof(*row));
		cg_inclusive_row(&pcg[part], g, row);
		assert_int_equal(x->period,
				 row[part_event(&pp[part], &r.p, x->event)]);
		assert_true(x->period > 0);
		/* sorted by (event, bucket, track, function), one each */
		if (i)
			assert_true(x->event > x[-1].event ||
				    (x->event == x[-1].event &&
				     (x->bucket > x[-1].bucket ||
				      (x->bucket == x[-1].bucket &&
				       (x->track > x[-1].track ||
					(x->track == x[-1].track &&
					 x->node > x[-1].node))))));
		free(row);
	}
	free(rec);
	for (size_t i = 0; i < nparts; i++) {
		cg_release(&pcg[i]);
		profile_release(&pp[i]);
	}
	free(pcg);
	free(pp);
	html_part_added_release(added, r.p.nevents);
	html_part_axes_release(&ax);
	report_keep_release(&k);
	unload(&r);
}

static void test_dumps(void **state)
{
	(void)state;
	check_exact(DIR "dumps/callgrind.out.*-0*");
}

static void test_combined(void **state)
{
	(void)state;
	check_exact(DIR "combined.out");
}

static void test_procs(void **state)
{
	(void)state;
	check_exact(DIR "procs/callgrind.out.*-0*");
}

/* The default page, cut at 0.5%: every record lands on a node, adding
 * up to the parts' totals; a function the page leaves out has its cost
 * on a node of the unit of those (one past the page's functions), as
 * the page's merged nodes do, not at its caller's (which would count
 * as the caller's self: test_report_parts.py checks the figures) */
static void test_cut_page(void **state)
{
	struct run r;
	struct print_opts po = { .threshold = 0.5 };
	struct report_keep k;
	struct html_part_axes ax;
	struct html_part_added *added;
	size_t nrec, moved, lost, others = 0;
	struct html_record *rec;
	uint64_t sum = 0, want = 0;

	(void)state;
	load(&r, DIR "combined.out");
	report_keep_init(&k, &r.cg, &po);
	assert_false(report_keeps_all(&k));
	html_part_axes_init(&ax, &r.p, &r.pr.parts);
	added = calloc(r.p.nevents + 1, sizeof(*added));
	rec = html_parts_records(&r.cg, &r.pr.parts, &ax, &k, added, &nrec,
				 &moved, &lost);
	assert_int_equal(moved, 0);
	for (size_t i = 0; i < nrec; i++)
		sum += rec[i].period;
	for (size_t j = 0; j < added[0].n; j++) {
		uint32_t u = added[0].unit[j];

		if (u == k.nkept)
			others++;
		else
			assert_true(report_func(&k, u) != NO_ID);
	}
	for (size_t i = 0; i < r.pr.parts.nparts; i++)
		want += ppart_cost(r.pr.parts.parts[i].part, 0);
	/* combined.out's parts call functions under the threshold on
	 * paths the whole tree has not */
	assert_true(others > 0);
	assert_int_equal(lost, 0);
	assert_true(sum == want);
	free(rec);
	html_part_added_release(added, r.p.nevents);
	html_part_axes_release(&ax);
	report_keep_release(&k);
	unload(&r);
}

/* IgProf's buffers, of whole stacks: every path the whole tree's */
static void test_igprof(void **state)
{
	(void)state;
	check_exact("tests/inputs/igprof/perf.txt");
}

/* 40 buffers handed on in one pass, 25 beginning below the stack the
 * one before left (bench/igprof-buffers.py 40 12 7), a sum and a
 * maximum counter: each buffer's self and inclusive costs its own */
static void test_igprof_buffers(void **state)
{
	(void)state;
	check_exact("tests/inputs/igprof/buffers.txt");
}

/* The parts of p (read, not finished) for a report of its graph */
static void parts_of(struct part_reads *pr, const struct options *o,
		     struct profile *p)
{
	struct cg cg;

	assert_int_equal(profile_finish(p), 0);
	cg_build(&cg, p, 0);
	cg_find_cycles(&cg);
	assert_int_equal(cg_propagate_measured(&cg), 0);
	cg_rank(&cg);
	part_reads_load(pr, o, &cg, 0);
	cg_release(&cg);
}

/* One part: nothing read again, and nothing said */
static void test_none(void **state)
{
	struct part_reads pr;
	struct options o = { 0 };
	struct read_opts ro = { 0 };
	struct profile p;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_path(&p, DIR "dumps/callgrind.out.11037.1-01",
				   &ro, &diag), 0);
	free(diag);
	parts_of(&pr, &o, &p);
	assert_string_equal(pr.why, "");
	profile_release(&p);
	/* transforms: the parts are of the profile before them */
	profile_init(&p);
	assert_int_equal(read_path(&p, DIR "combined.out", &ro, &diag), 0);
	free(diag);
	o.ntransforms = 1;
	parts_of(&pr, &o, &p);
	assert_non_null(strstr(pr.why, "transforms"));
	profile_release(&p);
	/* IgProf with -b: the binary's names, not a buffer's */
	profile_init(&p);
	assert_int_equal(read_path(&p, "tests/inputs/igprof/perf.txt", &ro,
				   &diag), 0);
	free(diag);
	o.ntransforms = 0;
	o.nbinaries = 1;
	parts_of(&pr, &o, &p);
	assert_non_null(strstr(pr.why, "-b"));
	assert_int_equal(pr.parts.nparts, 0);
	profile_release(&p);
	/* two parts numbered 1 (Xdebug's): --part reads both at once, and
	 * the page's dump 1 is both; read in one pass, each is its own
	 * part (the page used to leave them out: --part could not read
	 * them apart) */
	o.nbinaries = 0;
	profile_init(&p);
	assert_int_equal(read_path(&p, "tests/inputs/same-part-number.cg",
				   &ro, &diag), 0);
	free(diag);
	assert_int_equal(p.nparts, 2);
	parts_of(&pr, &o, &p);
	assert_null(pr.why);
	assert_int_equal(pr.parts.nparts, 2);
	part_reads_release(&pr);
	profile_release(&p);
}

/* A named pipe: its second open would wait for a writer forever (the
 * report hung on one), so the parts are not read again, and the page
 * says why */
static void test_pipe(void **state)
{
	char dir[] = "/tmp/cga-parts-XXXXXX", fifo[64];
	struct part_reads pr;
	struct options o = { 0 };
	struct read_opts ro = { 0 };
	struct profile p;
	char *diag;
	pid_t child;
	int status;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		/* the writer: combined.out's bytes, then the end */
		FILE *in = fopen(DIR "combined.out", "rb");
		FILE *out = fopen(fifo, "wb");
		char buf[4096];
		size_t n;

		if (!in || !out)
			_exit(1);
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		_exit(fclose(out) ? 1 : 0);
	}
	profile_init(&p);
	assert_int_equal(read_path(&p, fifo, &ro, &diag), 0);
	free(diag);
	assert_true(waitpid(child, &status, 0) == child);
	assert_int_equal(status, 0);
	assert_true(p.nparts >= 2);
	parts_of(&pr, &o, &p);
	assert_non_null(strstr(pr.why, "standard input or a pipe"));
	assert_int_equal(pr.parts.nparts, 0);
	profile_release(&p);
	unlink(fifo);
	rmdir(dir);
}

/* A gzip'd file of many dumps (a 148 KB file of 100 dumps held 100 MB
 * of text): each part read again alone went through all of it, and the
 * report read 10 GB in 78 s before a limit left the panel out. Read in
 * one pass, the file is gone through once more for all its parts, and
 * the page has them: each dump's cost its own */
static void test_compressed(void **state)
{
	char dir[] = "/tmp/cga-parts-XXXXXX", path[64];
	struct part_reads pr;
	struct options o = { 0 };
	struct read_opts ro = { 0 };
	struct profile p;
	char *diag;
	gzFile gz;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dumps.cg.gz", dir);
	gz = gzopen(path, "wb9");
	assert_non_null(gz);
	/* 20 dumps of 1 MB: 400 MB read again, 20 times the text */
	gzprintf(gz, "version: 1\ncreator: test\nevents: Ir\n");
	for (int d = 1; d <= 20; d++) {
		gzprintf(gz, "part: %d\nfn=f\n1 3\n", d);
		for (int l = 0; l < 200000; l++)
			gzputs(gz, "+1 3\n");
		gzprintf(gz, "totals: 600003\n");
	}
	assert_int_equal(gzclose(gz), Z_OK);
	profile_init(&p);
	assert_int_equal(read_path(&p, path, &ro, &diag), 0);
	free(diag);
	assert_int_equal(p.nparts, 20);
	parts_of(&pr, &o, &p);
	assert_null(pr.why);
	assert_int_equal(pr.parts.nparts, 20);
	for (size_t i = 0; i < 20; i++) {
		const struct html_part *hp = &pr.parts.parts[i];
		uint64_t sum = 0;

		assert_int_equal(hp->part->ordinal, i + 1);
		for (size_t j = hp->share_at[0]; j < hp->share_at[1]; j++)
			sum += pr.parts.shares[j].cost;
		assert_int_equal(sum, 600003);
	}
	part_reads_release(&pr);
	profile_release(&p);
	unlink(path);
	rmdir(dir);
}

/*
 * IgProf, hostile: a stack 50000 frames deep (a recursion of 1000
 * functions) under 19000 one-line buffers of no cost. Each buffer is
 * handed on with the stack under it, which its end walks, and what the
 * page keeps of it is nothing (no stack of a cost, arcs of none): a
 * walk of 50000 levels 19000 times took 94 s. The levels walked are
 * bounded (PART_READS_LEVELS), the reader stops, and the page says why.
 */
static void test_igprof_deep_stack(void **state)
{
	char dir[] = "/tmp/cga-parts-XXXXXX", path[64];
	struct part_reads pr;
	struct options o = { 0 };
	struct read_opts ro = { .want_stacks = true };
	struct timespec a, b;
	struct profile p;
	char *diag;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/deep.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "P=(ID=1 N=(./x) T=0.01)\n");
	for (int d = 1; d <= 50000; d++)
		if (d <= 1000)
			fprintf(f, "C%d FN%d=(F0%s+%d N=(f%d))+0\n", d, d % 1000,
				d == 1 ? "=(x)" : "", d % 1000 + 1, d % 1000);
		else
			fprintf(f, "C%d FN%d+0\n", d, d % 1000);
	for (int i = 0; i < 19000; i++)
		fprintf(f, "C50001 FN0+0 V%d=(T):(1,%d,%d)\n", i, i == 18999,
			i == 18999);
	assert_int_equal(fclose(f), 0);
	profile_init(&p);
	assert_int_equal(read_path(&p, path, &ro, &diag), 0);
	free(diag);
	assert_int_equal(p.nparts, 19000);
	clock_gettime(CLOCK_MONOTONIC, &a);
	parts_of(&pr, &o, &p);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_non_null(pr.why);
	assert_non_null(strstr(pr.why, "stacks too deep"));
	assert_int_equal(pr.parts.nparts, 0);
	/* 0.8 s here */
	assert_true((double)(b.tv_sec - a.tv_sec) +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 20.0);
	profile_release(&p);
	unlink(path);
	rmdir(dir);
}

/* Part numbers past 2^53 are strings on the page, which prints them in
 * --part=N: as numbers JavaScript rounded 18446744073709551615 to
 * 18446744073709552000 */
static void test_huge_part_numbers(void **state)
{
	struct print_opts po = { 0 };
	struct report_keep k;
	struct run r;
	char *doc = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	load(&r, "tests/inputs/huge-part-numbers.cg");
	po.parts = &r.pr.parts;
	po.nparts = r.pr.parts.nparts;
	report_keep_init(&k, &r.cg, &po);
	out = open_memstream(&doc, &len);
	assert_non_null(out);
	html_samples(out, &r.cg, &po, &k);
	assert_int_equal(fclose(out), 0);
	assert_non_null(strstr(doc, "\"dumps\": [1,\"9007199254740993\","
				    "\"18446744073709551615\"]"));
	free(doc);
	report_keep_release(&k);
	unload(&r);
}

/* Parts of one number, one of no thread (or process): each read again
 * is its own part's cost, not both's */
static void test_part_of_no_thread(void **state)
{
	struct run r;

	(void)state;
	load(&r, "tests/inputs/part-no-thread.cg");
	assert_int_equal(r.pr.parts.nparts, 2);
	for (size_t i = 0; i < r.pr.parts.nparts; i++) {
		const struct html_part *hp = &r.pr.parts.parts[i];
		struct profile pp;
		struct cg pcg;
		uint64_t sum = 0;

		alone(&r, i, &pp, &pcg);
		assert_int_equal(pp.totals[0], hp->part->cost[0]);
		for (size_t j = hp->share_at[0]; j < hp->share_at[1]; j++)
			sum += r.pr.parts.shares[j].cost;
		assert_int_equal(sum, hp->part->cost[0]);
		cg_release(&pcg);
		profile_release(&pp);
	}
	unload(&r);
}

/* A file of more parts than a panel takes, each a line or two (a
 * hostile or damaged file: 30,000 parts in 600 KB): the panel is left
 * out with the reason, before anything is read again */
static void test_many_tiny_parts(void **state)
{
	char path[] = "/tmp/cga-parts-XXXXXX";
	struct part_reads pr;
	struct options o = { 0 };
	struct read_opts ro = { 0 };
	struct profile p;
	char *diag;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "events: Ir\n");
	for (int d = 1; d <= PART_READS_MAX + 10000; d++)
		fprintf(f, "part: %d\nfn=f%d\n1 1\n", d, d % 7);
	assert_int_equal(fclose(f), 0);
	profile_init(&p);
	assert_int_equal(read_path(&p, path, &ro, &diag), 0);
	free(diag);
	assert_int_equal(p.nparts, PART_READS_MAX + 10000);
	parts_of(&pr, &o, &p);
	assert_non_null(strstr(pr.why, "more than 20000 parts"));
	assert_int_equal(pr.parts.nparts, 0);
	part_reads_release(&pr);
	profile_release(&p);
	unlink(path);
}

/* Parts whose trees are far bigger than they are: each a ladder of two
 * functions a level calling both of the next, 2^15 paths in 34 lines.
 * The pass stops keeping them once they pass the file's bytes (1 MiB at
 * least), in a second and tens of MB, and says so (without the bound:
 * 6 s and 144 MB for this 1.1 MB file) */
static void test_trees_past_budget(void **state)
{
	char path[] = "/tmp/cga-parts-XXXXXX";
	struct part_reads pr;
	struct options o = { 0 };
	struct read_opts ro = { 0 };
	struct profile p;
	char *diag;
	FILE *f;
	int fd, nparts = 0;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "events: Ir\n");
	/* enough parts to pass the budget, as their trees go */
	for (int d = 1; d <= 600; d++, nparts++) {
		fprintf(f, "part: %d\n", d);
		for (int l = 0; l < 16; l++)
			for (int s = 0; s < 2; s++) {
				fprintf(f, "fn=l%d%c\n1 1\n", l,
					"ab"[s]);
				if (l == 15)
					continue;
				for (int t = 0; t < 2; t++)
					fprintf(f, "cfn=l%d%c\ncalls=1 1\n"
						"1 %d\n", l + 1, "ab"[t],
						1 << (15 - l));
			}
	}
	assert_int_equal(fclose(f), 0);
	profile_init(&p);
	assert_int_equal(read_path(&p, path, &ro, &diag), 0);
	free(diag);
	assert_int_equal(p.nparts, nparts);
	parts_of(&pr, &o, &p);
	assert_non_null(pr.why);
	assert_non_null(strstr(pr.why, "more entries than the file has "
				    "bytes"));
	assert_int_equal(pr.parts.nparts, 0);
	part_reads_release(&pr);
	profile_release(&p);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dumps),
		cmocka_unit_test(test_combined),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_igprof),
		cmocka_unit_test(test_igprof_buffers),
		cmocka_unit_test(test_igprof_deep_stack),
		cmocka_unit_test(test_cut_page),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_huge_part_numbers),
		cmocka_unit_test(test_part_of_no_thread),
		cmocka_unit_test(test_many_tiny_parts),
		cmocka_unit_test(test_trees_past_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
