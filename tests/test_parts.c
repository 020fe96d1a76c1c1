/*
 * The profile's parts (profile/parts.h): what the Callgrind reader keeps
 * of each part's headers (callgrind_parts.c) and which parts --part,
 * --pid and --tid read; IgProf's one part per file; part_groups().
 * The texts are cut down from valgrind 3.19's files of
 * tests/callgrind-threads/ (make.sh there), with their header lines as
 * valgrind writes them.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/parts.h"
#include "read/read.h"

/* --combine-dumps=yes --separate-threads=yes: pid: once, then each
 * part's "part:" and "thread:"; the last part of thread 2 has no cost
 * line (a thread idle since the last dump) and ends at its totals: */
static const char combined[] =
	"# callgrind format\n"
	"version: 1\n"
	"creator: callgrind-3.19.0\n"
	"pid: 11241\n"
	"cmd:  /tmp/x/threads dumps\n"
	"part: 1\n"
	"thread: 1\n"
	"\n"
	"desc: I1 cache: \n"
	"desc: Timerange: Basic block 0 - 48094\n"
	"desc: Trigger: Client Request: phase one\n"
	"\n"
	"positions: line\n"
	"events: Ir\n"
	"summary: 30\n"
	"\n"
	"fl=(1) t.c\n"
	"fn=(1) main\n"
	"5 30\n"
	"\n"
	"totals: 30\n"
	"\n"
	"part: 2\n"
	"thread: 2\n"
	"\n"
	"desc: Timerange: Basic block 48094 - 113870\n"
	"desc: Trigger: --dump-every-bb=100000\n"
	"\n"
	"positions: line\n"
	"events: Ir\n"
	"summary: 0\n"
	"\n"
	"\n"
	"totals: 0\n"
	"\n"
	"part: 2\n"
	"thread: 3\n"
	"\n"
	"desc: Timerange: Basic block 48094 - 113870\n"
	"desc: Trigger: --dump-every-bb=100000\n"
	"\n"
	"positions: line\n"
	"events: Ir\n"
	"summary: 700\n"
	"\n"
	"fl=(1)\n"
	"fn=(2) worker\n"
	"9 700\n"
	"\n"
	"totals: 700\n";

struct res {
	struct profile p;
	char *diag;
	int ret;
};

static void rd(struct res *r, const char *text, const struct read_opts *o)
{
	profile_init(&r->p);
	r->ret = read_text(&r->p, text, -1, o, &r->diag);
}

static void rd_done(struct res *r)
{
	profile_release(&r->p);
	free(r->diag);
}

static void test_callgrind_headers(void **state)
{
	struct res r;
	const struct ppart *pt;

	(void)state;
	rd(&r, combined, NULL);
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	/* three parts, though the second has no cost line */
	assert_int_equal(r.p.nparts, 3);
	assert_int_equal(r.p.inputs[0].nparts, 3);
	pt = &r.p.parts[0];
	assert_int_equal(pt->ordinal, 1);
	assert_int_equal(pt->number, 1);
	assert_int_equal(pt->pid, 11241);
	assert_int_equal(pt->tid, 1);
	assert_string_equal(profile_str(&r.p, pt->name), "threads");
	assert_string_equal(profile_str(&r.p, pt->trigger),
			    "Client Request: phase one");
	assert_true(pt->has_range);
	assert_int_equal(pt->bb_from, 0);
	assert_int_equal(pt->bb_to, 48094);
	assert_true(pt->selected && pt->from_totals);
	assert_int_equal(ppart_cost(pt, 0), 30);
	/* pid: is said once for the file: the later parts keep it */
	pt = &r.p.parts[1];
	assert_int_equal(pt->pid, 11241);
	assert_int_equal(pt->tid, 2);
	assert_int_equal(pt->number, 2);
	assert_int_equal(ppart_cost(pt, 0), 0);
	assert_string_equal(profile_str(&r.p, pt->trigger),
			    "--dump-every-bb=100000");
	pt = &r.p.parts[2];
	assert_int_equal(pt->tid, 3);
	assert_int_equal(pt->ordinal, 3);
	assert_int_equal(ppart_cost(pt, 0), 700);
	assert_int_equal(pt->bb_from, 48094);
	assert_true(parts_have_threads(&r.p));
	rd_done(&r);
}

/* --pid and --tid choose parts by their headers; --part with them */
static void test_callgrind_select(void **state)
{
	static const uint32_t t3[] = { 3 }, t13[] = { 1, 3 };
	static const uint32_t p_other[] = { 7 }, p_this[] = { 11241 };
	static const struct {
		const uint32_t *pids, *tids;
		size_t npids, ntids;
		uint64_t part;
		bool sel[3];
		uint64_t total;		/* main + worker self */
	} cases[] = {
		{ NULL, t3, 0, 1, 0, { false, false, true }, 700 },
		{ NULL, t13, 0, 2, 0, { true, false, true }, 730 },
		{ p_other, NULL, 1, 0, 0, { false, false, false }, 0 },
		{ p_this, NULL, 1, 0, 0, { true, true, true }, 730 },
		{ p_this, t13, 1, 2, 2, { false, false, true }, 700 },
		{ NULL, t13, 0, 2, 1, { true, false, false }, 30 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_select sel = { .pids = cases[i].pids,
					   .npids = cases[i].npids,
					   .tids = cases[i].tids,
					   .ntids = cases[i].ntids };
		struct read_opts o = { .part = cases[i].part,
				       .perf_select = &sel };
		struct res r;
		uint64_t total = 0;
		unsigned nsel = 0;

		rd(&r, combined, &o);
		assert_int_equal(r.ret, 0);
		assert_int_equal(r.p.nparts, 3);
		for (size_t k = 0; k < 3; k++) {
			if (r.p.parts[k].selected != cases[i].sel[k])
				fail_msg("case %zu: part %zu selected %d", i,
					 k, r.p.parts[k].selected);
			nsel += cases[i].sel[k];
		}
		assert_int_equal(r.p.inputs[0].nselected, nsel);
		/* the parts left out add nothing to the functions */
		for (size_t f = 0; f < r.p.nfuncs; f++)
			total += profile_self(&r.p, (uint32_t)f)[0];
		if (total != cases[i].total)
			fail_msg("case %zu: self costs add up to %llu, not %llu",
				 i, (unsigned long long)total,
				 (unsigned long long)cases[i].total);
		rd_done(&r);
	}
}

/* Another writer's part without totals: (pprof's, Q22): the sum of its
 * cost lines; no pid:, thread:, trigger or range */
static void test_callgrind_no_totals(void **state)
{
	struct res r;
	const struct ppart *pt;

	(void)state;
	rd(&r, "events: Ir Dr\nfn=a\n1 5 2\nfn=b\n2 7\n", NULL);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.nparts, 1);
	pt = &r.p.parts[0];
	assert_false(pt->from_totals);
	assert_int_equal(ppart_cost(pt, 0), 12);
	assert_int_equal(ppart_cost(pt, 1), 2);
	assert_int_equal(pt->pid, 0);
	assert_int_equal(pt->tid, 0);
	assert_int_equal(pt->name, NO_NAME);
	assert_int_equal(pt->trigger, NO_NAME);
	assert_false(pt->has_range);
	assert_false(parts_have_threads(&r.p));
	rd_done(&r);
}

/* Header values that are not what valgrind writes */
static void test_callgrind_bad_headers(void **state)
{
	static const struct {
		const char *text;
		int ret;
		const char *diag;	/* in the message, or NULL */
		bool has_range;
	} cases[] = {
		{ "pid: 4294967296\nevents: Ir\n", -1, "past the largest", false },
		{ "thread: x\nevents: Ir\n", -1, "expected a number after 'thread:'", false },
		/* a range that is not one is no range, not an error */
		{ "desc: Timerange: Basic block 9 - 3\nevents: Ir\nfn=a\n1 1\n", 0, NULL, false },
		{ "desc: Timerange: Instructions 1 - 3\nevents: Ir\nfn=a\n1 1\n", 0, NULL, false },
		{ "desc: Timerange: Basic block 1 - 3\nevents: Ir\nfn=a\n1 1\n", 0, NULL, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct res r;

		rd(&r, cases[i].text, NULL);
		if (r.ret != cases[i].ret)
			fail_msg("case %zu: returned %d", i, r.ret);
		if (cases[i].diag && !strstr(r.diag, cases[i].diag))
			fail_msg("case %zu: message '%s'", i, r.diag);
		if (!r.ret && r.p.parts[0].has_range != cases[i].has_range)
			fail_msg("case %zu: has_range %d", i,
				 r.p.parts[0].has_range);
		rd_done(&r);
	}
}

/* IgProf: a file of one buffer is one part, its process from P=(ID=),
 * totals per counter; --pid leaves a file of another process unread */
static void test_igprof(void **state)
{
	static const char text[] =
		"P=(ID=4242 N=(./prog) T=0.010000)\n"
		"C1 FN0=(F0=(prog)+16 N=(main))+0 V0=(PERF_TICKS):(3,3,3)\n"
		"C2 FN1=(F0+32 N=(f))+0 V0:(5,5,5)\n";
	static const uint32_t other[] = { 9 };
	struct perf_select sel = { .pids = other, .npids = 1 };
	struct read_opts o = { .perf_select = &sel };
	struct res r;

	(void)state;
	rd(&r, text, NULL);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.nparts, 1);
	assert_int_equal(r.p.parts[0].pid, 4242);
	assert_int_equal(r.p.parts[0].tid, 0);
	assert_string_equal(profile_str(&r.p, r.p.parts[0].name), "prog");
	assert_int_equal(ppart_cost(&r.p.parts[0], 0), 8);
	assert_true(r.p.parts[0].selected);
	rd_done(&r);

	rd(&r, text, &o);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.nparts, 1);
	assert_false(r.p.parts[0].selected);
	assert_int_equal(r.p.nfuncs, 0);
	assert_int_equal(r.p.inputs[0].nselected, 0);
	rd_done(&r);
}

/* igprof's buffers (one per live thread, then the master's) number the
 * counters again from the start: a counter defined a second time in a
 * buffer begins the next one, whatever counter comes first in it */
static void test_igprof_buffers(void **state)
{
	static const char text[] =
		"P=(ID=7 N=(/bin/prog) T=0.000000)\n"
		"C1 FN0=(F0=(prog)+16 N=(main))+0 V0=(MEM_TOTAL):(1,10,10) V1=(MEM_MAX):(1,10,10)\n"
		"C2 FN1=(F0+32 N=(f))+0 V0:(2,20,15) V1:(2,15,15)\n"
		/* the second buffer: MEM_MAX first, then MEM_TOTAL again */
		"C1 FN0+0 V2=(MEM_MAX):(1,40,40) V3=(MEM_TOTAL):(1,40,40)\n"
		"C2 FN1+0\n"
		"C3 FN2=(F0+48 N=(g))+0 V3:(1,5,5)\n"
		/* the third: MEM_TOTAL alone */
		"C1 FN1+0 V4=(MEM_TOTAL):(1,7,7)\n";
	struct res r;
	static const uint64_t total[3] = { 30, 45, 7 }, max[3] = { 15, 40, 0 };

	(void)state;
	rd(&r, text, NULL);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.nparts, 3);
	assert_int_equal(r.p.inputs[0].nparts, 3);
	assert_int_equal(r.p.inputs[0].nselected, 3);
	for (size_t k = 0; k < 3; k++) {
		const struct ppart *pt = &r.p.parts[k];

		assert_int_equal(pt->ordinal, k + 1);
		assert_int_equal(pt->pid, 7);
		assert_string_equal(profile_str(&r.p, pt->name), "prog");
		if (ppart_cost(pt, 0) != total[k] ||
		    ppart_cost(pt, 1) != max[k])
			fail_msg("buffer %zu: %llu, %llu", k + 1,
				 (unsigned long long)ppart_cost(pt, 0),
				 (unsigned long long)ppart_cost(pt, 1));
	}
	rd_done(&r);
}

/* part_groups(): by thread and by process, parts left out skipped, sums
 * stopping at 2^64 - 1 */
static void test_groups(void **state)
{
	static const struct {
		uint32_t pid, tid;
		bool selected;
		uint64_t cost;
	} parts[] = {
		{ 10, 1, true, 5 }, { 10, 2, true, 7 }, { 10, 1, true, 1 },
		{ 11, 1, true, UINT64_MAX - 1 }, { 11, 2, true, 9 },
		{ 12, 1, false, 100 },
	};
	struct profile p;
	struct part_group *g;
	size_t n;

	(void)state;
	profile_init(&p);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct ppart pt = { .pid = parts[i].pid, .tid = parts[i].tid,
				    .selected = parts[i].selected,
				    .name = NO_NAME, .trigger = NO_NAME };

		profile_add_part(&p, &pt, &parts[i].cost, 1);
	}
	n = part_groups(&p, true, 1, &g);
	assert_int_equal(n, 4);
	assert_int_equal(g[0].pid, 10);
	assert_int_equal(g[0].tid, 1);
	assert_int_equal(g[0].nparts, 2);
	assert_int_equal(g[0].cost[0], 6);
	assert_int_equal(g[1].cost[0], 7);
	assert_int_equal(g[2].cost[0], UINT64_MAX - 1);
	part_groups_free(g, n);
	n = part_groups(&p, false, 1, &g);
	assert_int_equal(n, 2);
	assert_int_equal(g[0].tid, 0);
	assert_int_equal(g[0].nparts, 3);
	assert_int_equal(g[0].cost[0], 13);
	assert_int_equal(g[1].cost[0], UINT64_MAX);
	part_groups_free(g, n);
	/* an event past a part's costs is 0 in it */
	n = part_groups(&p, false, 2, &g);
	assert_int_equal(g[0].cost[1], 0);
	part_groups_free(g, n);
	profile_release(&p);
}

/* A file of many events and many parts holds no more than its size: a
 * part keeps its costs up to its last non-zero one, and a part of
 * another thread each is grouped in one pass (10,000 threads here) */
static void test_many_parts(void **state)
{
	enum { NPARTS = 10000, NEVENTS = 1000 };
	size_t alloc = 16 * NEVENTS + 40 * NPARTS, len = 0;
	char *text = malloc(alloc);
	struct part_group *g;
	struct res r;
	size_t n;

	(void)state;
	len += (size_t)sprintf(text + len, "events:");
	for (int e = 0; e < NEVENTS; e++)
		len += (size_t)sprintf(text + len, " E%d", e);
	len += (size_t)sprintf(text + len, "\nfn=a\n1 3\ntotals: 3\n");
	for (int i = 2; i <= NPARTS; i++)
		len += (size_t)sprintf(text + len, "part: %d\nthread: %d\n"
				       "totals: 0 %d\n", i, i, i);
	assert_true(len < alloc);
	rd(&r, text, NULL);
	free(text);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.nparts, NPARTS);
	assert_int_equal(r.p.parts[0].ncost, 1);
	assert_int_equal(r.p.parts[NPARTS - 1].ncost, 2);
	assert_int_equal(ppart_cost(&r.p.parts[NPARTS - 1], 1), NPARTS);
	assert_int_equal(ppart_cost(&r.p.parts[NPARTS - 1], NEVENTS - 1), 0);
	n = part_groups(&r.p, true, NEVENTS, &g);
	assert_int_equal(n, NPARTS);
	assert_int_equal(g[NPARTS - 1].tid, NPARTS);
	assert_int_equal(g[NPARTS - 1].cost[1], NPARTS);
	part_groups_free(g, n);
	rd_done(&r);
}

/* Two parts with a derived event and calls whose inclusive costs pass
 * 2^31 (kept apart in the profile), names compressed in the first and
 * used in the second: each handed on as read alone */
static const char derived_parts[] =
	"version: 1\n"
	"creator: test\n"
	"events: Ir Dr\n"
	"event: Sum = Ir + 2 Dr\n"
	"part: 1\n"
	"fl=(1) a.c\n"
	"fn=(1) main\n"
	"1 5 1\n"
	"cfn=(2) work\n"
	"calls=3000000000 1\n"
	"2 4000000000 7\n"
	"fn=(2)\n"
	"3 4000000000 7\n"
	"totals: 4000000005 8\n"
	"part: 2\n"
	"fn=(2)\n"
	"3 9 2\n"
	"fn=(3) idle\n"
	"4 1 0\n"
	"totals: 10 2\n";

struct handed {
	const char *path;
	size_t n;
};

/* p and q alike: events, functions, self costs, arcs and their costs */
static void same_profile(const struct profile *p, const struct profile *q)
{
	assert_int_equal(p->nevents, q->nevents);
	for (size_t e = 0; e < p->nevents; e++) {
		assert_string_equal(profile_str(p, p->events[e].name),
				    profile_str(q, q->events[e].name));
		assert_int_equal(p->events[e].derived, q->events[e].derived);
		assert_int_equal(p->totals[e], q->totals[e]);
	}
	assert_int_equal(p->nfuncs, q->nfuncs);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		assert_string_equal(profile_str(p, p->funcs[f].name),
				    profile_str(q, q->funcs[f].name));
		assert_string_equal(profile_str(p, p->funcs[f].file),
				    profile_str(q, q->funcs[f].file));
		assert_string_equal(profile_str(p, p->funcs[f].object),
				    profile_str(q, q->funcs[f].object));
		assert_memory_equal(profile_self(p, f), profile_self(q, f),
				    p->nevents * sizeof(uint64_t));
	}
	assert_int_equal(p->ncalls, q->ncalls);
	assert_int_equal(p->calls_have_incl, q->calls_have_incl);
	for (uint32_t c = 0; c < p->ncalls; c++) {
		assert_int_equal(p->calls[c].caller, q->calls[c].caller);
		assert_int_equal(p->calls[c].callee, q->calls[c].callee);
		assert_int_equal(profile_call_count(p, c),
				 profile_call_count(q, c));
		for (size_t e = 0; e < p->nevents; e++)
			assert_int_equal(profile_call_incl_at(p, c, e),
					 profile_call_incl_at(q, c, e));
	}
}

static void check_handed(void *ctx, struct profile *part,
			 const struct ppart *pt)
{
	struct handed *h = ctx;
	uint32_t pid = pt->pid, tid = pt->tid;
	struct perf_select sel = { .pids = &pid, .npids = 1,
				   .tids = &tid, .ntids = 1 };
	struct read_opts ro = { .part = pt->number ? pt->number : pt->ordinal,
				.perf_select = &sel };
	struct profile alone;

	h->n++;
	assert_int_equal(pt->ordinal, h->n);
	profile_init(&alone);
	/* not read_path(): its capture of messages is the outer read's */
	assert_int_equal(read_profile(&alone, h->path, &ro), 0);
	assert_int_equal(profile_finish(&alone), 0);
	assert_int_equal(profile_finish(part), 0);
	same_profile(part, &alone);
	profile_release(&alone);
}

/* read_opts.part_done: each part of a file handed on at its end, in
 * one read, as reading it alone (--part=N --pid=P --tid=T) gives it:
 * valgrind's 17 parts of 2 threads and names compressed across parts,
 * and a derived event with costs past 2^31 */
static void test_part_done(void **state)
{
	static const char *const threads = "tests/callgrind-threads/"
					   "combined.out";
	struct handed h = { 0 };
	struct read_opts ro = { .part_done = check_handed, .part_ctx = &h,
				.thread = READ_THREAD_OFF };
	struct profile p;
	char *diag, *path;

	(void)state;
	for (int way = 0; way < 2; way++) {
		h.path = threads;
		h.n = 0;
		/* the splitting thread hands them on the same */
		ro.thread = way ? READ_THREAD_ON : READ_THREAD_OFF;
		profile_init(&p);
		assert_int_equal(read_path(&p, threads, &ro, &diag), 0);
		free(diag);
		assert_int_equal(h.n, p.nparts);
		assert_true(h.n >= 17);
		/* what is left is the last part's functions: none */
		assert_int_equal(p.nfuncs, 0);
		assert_int_equal(p.ncalls, 0);
		profile_release(&p);
	}
	path = write_temp(derived_parts, sizeof(derived_parts) - 1);
	h.path = path;
	h.n = 0;
	ro.thread = READ_THREAD_OFF;
	profile_init(&p);
	assert_int_equal(read_path(&p, path, &ro, &diag), 0);
	free(diag);
	assert_int_equal(h.n, 2);
	profile_release(&p);
	remove_temp(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callgrind_headers),
		cmocka_unit_test(test_callgrind_select),
		cmocka_unit_test(test_callgrind_no_totals),
		cmocka_unit_test(test_callgrind_bad_headers),
		cmocka_unit_test(test_igprof),
		cmocka_unit_test(test_igprof_buffers),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_many_parts),
		cmocka_unit_test(test_part_done),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
