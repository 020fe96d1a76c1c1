/*
 * The IgProf reader (src/read/read_igprof.c): every record kind, the HEX
 * variant, definitions where references stand, exact inclusive costs
 * (a recursive stack counts a function once), and errors that name the
 * file and line. The expected sums are worked out by hand in the
 * comments next to them.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "cg/cg.h"
#include "cli/analyze.h"
#include "cli/options.h"
#include "resolve/demangle_names.h"

struct res {
	struct profile p;
	char *diag;
	int ret;
};

static void rd_opts(struct res *r, const char *text, const struct read_opts *o)
{
	profile_init(&r->p);
	r->ret = read_text(&r->p, text, -1, o, &r->diag);
}

static void rd_done(struct res *r)
{
	profile_release(&r->p);
	free(r->diag);
}

/* Read text that must be accepted without any diagnostic. */
static void rd_clean_opts(struct res *r, const char *text,
			  const struct read_opts *o)
{
	rd_opts(r, text, o);
	if (r->ret != 0 || r->diag[0])
		fail_msg("expected a clean read, got %d and:\n%s\nfor:\n%s",
			 r->ret, r->diag, text);
}

static void rd_clean(struct res *r, const char *text)
{
	rd_clean_opts(r, text, NULL);
}

static uint32_t ev(const struct profile *p, const char *name)
{
	uint32_t e = profile_find_event(p, name);

	if (e == NO_ID)
		fail_msg("no event '%s'", name);
	return e;
}

static uint32_t fn(const struct profile *p, const char *name)
{
	uint32_t f = find_func(p, name);

	if (f == NO_ID)
		fail_msg("no function '%s'", name);
	return f;
}

static uint64_t self_of(const struct profile *p, const char *f, const char *e)
{
	return profile_self(p, fn(p, f))[ev(p, e)];
}

static uint64_t incl_of(const struct profile *p, const char *f, const char *e)
{
	return profile_func_row(p, p->func_incl, fn(p, f))[ev(p, e)];
}

static uint32_t call(const struct profile *p, const char *a, const char *b)
{
	uint32_t c = find_call(p, a, b);

	if (c == NO_ID)
		fail_msg("no call %s -> %s", a, b);
	return c;
}

static uint64_t arc_incl(const struct profile *p, const char *a, const char *b,
			 const char *e)
{
	return profile_call_incl_at(p, call(p, a, b), ev(p, e));
}

static uint64_t arc_count(const struct profile *p, const char *a, const char *b)
{
	return profile_call_count(p, call(p, a, b));
}

/* ---- the header ---- */

static void test_header(void **state)
{
	struct res r;

	(void)state;
	rd_clean(&r, "P=(ID=32365 N=(ls -l (x)) T=0.010000)\n"
		 "C1 FN0=(F0=(/lib/libc.so.6)+87962 N=(__libc_start_main))+218"
		 " V0=(PERF_TICKS):(1,1,1)\n");
	assert_string_equal(profile_str(&r.p, r.p.inputs[0].cmd), "ls -l (x)");
	assert_string_equal(profile_str(&r.p, r.p.inputs[0].format), "igprof");
	/* T= is the length of a PERF_TICKS tick */
	assert_true(r.p.events[ev(&r.p, "PERF_TICKS")].unit_seconds == 0.01);
	rd_done(&r);

	/* only PERF_TICKS are ticks */
	rd_clean(&r, "P=(ID=1 N=(a) T=0.5)\n"
		 "C1 FN0=(F0=(a)+1 N=(m))+0 V0=(MEM_TOTAL):(1,64,64)\n");
	assert_true(r.p.events[0].unit_seconds == 0);
	rd_done(&r);
}

/* ---- every record kind, in a small profile ---- */

static void test_record_kinds(void **state)
{
	struct res r;

	(void)state;
	/*
	 * FN, F and V definitions, then references to each; a second
	 * counter; a frame without counters; an F definition inside a
	 * later FN definition (a definition stands where a reference may).
	 */
	rd_clean(&r, "P=(ID=7 N=(prog) T=0.01)\n"
		 "C1 FN0=(F0=(prog)+100 N=(main))+10\n"
		 "C2 FN1=(F0+200 N=(f))+4 V0=(PERF_TICKS):(2,2,2) V1=(MEM_TOTAL):(3,96,64)\n"
		 "C2 FN2=(F1=(/lib/libm.so)+300 N=(sin))+8 V0:(5,5,5)\n"
		 "C3 FN1+4 V1:(1,10,10)\n"
		 "C1 FN0+10 V0:(1,1,1)\n");
	assert_int_equal(r.p.nevents, 2);
	assert_int_equal(r.p.nfuncs, 3);
	/* objects are the F names; the file is unknown */
	assert_string_equal(profile_str(&r.p, r.p.funcs[fn(&r.p, "sin")].object),
			    "/lib/libm.so");
	assert_int_equal(r.p.funcs[fn(&r.p, "sin")].file, NO_NAME);
	/* self: the total field of stacks ending in the function */
	assert_int_equal(self_of(&r.p, "main", "PERF_TICKS"), 1);
	assert_int_equal(self_of(&r.p, "f", "PERF_TICKS"), 2);
	assert_int_equal(self_of(&r.p, "f", "MEM_TOTAL"), 96 + 10);
	assert_int_equal(self_of(&r.p, "sin", "PERF_TICKS"), 5);
	/* count and peak: summed, and the largest */
	assert_int_equal(profile_func_row(&r.p, r.p.func_count, fn(&r.p, "f"))
			 [ev(&r.p, "MEM_TOTAL")], 3 + 1);
	assert_int_equal(profile_func_row(&r.p, r.p.func_peak, fn(&r.p, "f"))
			 [ev(&r.p, "MEM_TOTAL")], 64);
	/* inclusive: main 2+5 ticks under it and 1 of its own (the last
	 * line is another stack, main alone); 96+10 bytes */
	assert_int_equal(incl_of(&r.p, "main", "PERF_TICKS"), 8);
	assert_int_equal(incl_of(&r.p, "main", "MEM_TOTAL"), 106);
	assert_int_equal(incl_of(&r.p, "sin", "PERF_TICKS"), 5);
	assert_int_equal(incl_of(&r.p, "sin", "MEM_TOTAL"), 10);
	/* arcs: main->f, main->sin, sin->f */
	assert_int_equal(r.p.ncalls, 3);
	assert_true(r.p.calls_have_incl);
	assert_int_equal(arc_incl(&r.p, "main", "sin", "PERF_TICKS"), 5);
	assert_int_equal(arc_incl(&r.p, "main", "sin", "MEM_TOTAL"), 10);
	assert_int_equal(arc_incl(&r.p, "sin", "f", "MEM_TOTAL"), 10);
	/* calls: the first counter's count field through the arc */
	assert_int_equal(arc_count(&r.p, "main", "f"), 2);
	assert_int_equal(arc_count(&r.p, "main", "sin"), 5);
	assert_int_equal(arc_count(&r.p, "sin", "f"), 0);
	assert_int_equal(r.p.totals[ev(&r.p, "PERF_TICKS")], 8);
	rd_done(&r);
}

static void test_counter_option(void **state)
{
	struct read_opts o = { .counter = "MEM_TOTAL" };
	struct res r;

	(void)state;
	rd_clean_opts(&r, "P=(ID=7 N=(prog) T=0.01)\n"
		      "C1 FN0=(F0=(prog)+100 N=(main))+10\n"
		      "C2 FN1=(F0+200 N=(f))+4 V0=(PERF_TICKS):(2,2,2) V1=(MEM_TOTAL):(3,96,64)\n",
		      &o);
	/* the calls are MEM_TOTAL's count: 3 allocations under main->f */
	assert_int_equal(arc_count(&r.p, "main", "f"), 3);
	rd_done(&r);
}

/* igprof numbers counters again for each thread's part of the dump */
static void test_counter_per_thread(void **state)
{
	struct res r;

	(void)state;
	rd_clean(&r, "P=(ID=7 N=(prog) T=0.01)\n"
		 "C1 FN0=(F0=(prog)+100 N=(main))+10 V0=(PERF_TICKS):(2,2,2)\n"
		 "C1 FN1=(F0+300 N=(worker))+10 V1=(PERF_TICKS):(3,3,3)\n"
		 "C2 FN0+10 V1:(4,4,4)\n");
	assert_int_equal(r.p.nevents, 1);
	assert_int_equal(self_of(&r.p, "main", "PERF_TICKS"), 6);
	assert_int_equal(incl_of(&r.p, "worker", "PERF_TICKS"), 7);
	rd_done(&r);
}

static void test_hex(void **state)
{
	struct res r;
	struct read_opts o = { .want_leaks = true };

	(void)state;
	/* every number hexadecimal: depth 0x10 needs 16 frames first */
	rd_clean_opts(&r, "P=(HEX ID=7e6d N=(ls) T=0.010000)\n"
		      "C1 FNa=(F1f=(ls)+2000 N=(main))+1a V0=(MEM_LIVE):(a,ff,100);LK=(0xdeadbeef,ff)\n"
		      "C2 FNb=(F1f+3000 N=(f))+0 V0:(1,10,10)\n"
		      "C3 FNb+0\nC4 FNb+0\nC5 FNb+0\nC6 FNb+0\nC7 FNb+0\nC8 FNb+0\n"
		      "C9 FNb+0\nCa FNb+0\nCb FNb+0\nCc FNb+0\nCd FNb+0\nCe FNb+0\n"
		      "Cf FNb+0\nC10 FNb+0 V0:(2,2,2)\n", &o);
	assert_int_equal(self_of(&r.p, "main", "MEM_LIVE"), 0xff);
	assert_int_equal(self_of(&r.p, "f", "MEM_LIVE"), 0x10 + 2);
	assert_int_equal(profile_func_row(&r.p, r.p.func_count, fn(&r.p, "main"))[0], 10);
	assert_int_equal(profile_func_row(&r.p, r.p.func_peak, fn(&r.p, "main"))[0], 256);
	/* 14 frames of f nested: counted once */
	assert_int_equal(incl_of(&r.p, "f", "MEM_LIVE"), 0x12);
	assert_int_equal(arc_incl(&r.p, "f", "f", "MEM_LIVE"), 2);
	assert_int_equal(r.p.nleaks, 1);
	assert_int_equal(r.p.leaks[0].addr, 0xdeadbeef);
	assert_int_equal(r.p.leaks[0].size, 0xff);
	rd_done(&r);

	/* a decimal file does not take hex digits */
	rd_opts(&r, "P=(ID=7 N=(ls) T=0.01)\nC1 FN1a=(F0=(ls)+1 N=(m))+0\n", NULL);
	assert_int_equal(r.ret, -1);
	assert_non_null(strstr(r.diag, "/profile:2: expected a function id after "
			       "'FN' (decimal digits), found '1a=(F0=(ls)+1"));
	rd_done(&r);
}

/* ---- exact inclusive cost ---- */

static void test_recursion_counted_once(void **state)
{
	struct res r;

	(void)state;
	/* main -> f -> f -> f (5 ticks at the bottom), main -> f (1) */
	rd_clean(&r, "P=(ID=1 N=(p) T=0.01)\n"
		 "C1 FN0=(F0=(p)+10 N=(main))+0\n"
		 "C2 FN1=(F0+20 N=(f))+0\n"
		 "C3 FN1+0\n"
		 "C4 FN1+0 V0=(PERF_TICKS):(5,5,5)\n"
		 "C2 FN1+0 V0:(1,1,1)\n");
	/* f's inclusive is 6, not 5 + 5 + 5 + 1 */
	assert_int_equal(incl_of(&r.p, "f", "PERF_TICKS"), 6);
	assert_int_equal(incl_of(&r.p, "main", "PERF_TICKS"), 6);
	assert_int_equal(self_of(&r.p, "f", "PERF_TICKS"), 6);
	/* the arc f->f is in one stack, which counts once */
	assert_int_equal(arc_incl(&r.p, "f", "f", "PERF_TICKS"), 5);
	assert_int_equal(arc_count(&r.p, "f", "f"), 5);
	assert_int_equal(arc_incl(&r.p, "main", "f", "PERF_TICKS"), 6);
	/* the self parts (profile.call_self): f's own ticks, each stack's
	 * to the arc from the nearest other function, main -> f, all 6;
	 * none to the self-call */
	assert_int_equal(profile_call_self(&r.p, call(&r.p, "main", "f"))
			 [ev(&r.p, "PERF_TICKS")], 6);
	assert_int_equal(profile_call_self(&r.p, call(&r.p, "f", "f"))
			 [ev(&r.p, "PERF_TICKS")], 0);
	rd_done(&r);

	/* mutual recursion: a -> b -> a -> b (3), a -> b (4) */
	rd_clean(&r, "P=(ID=1 N=(p) T=0.01)\n"
		 "C1 FN0=(F0=(p)+10 N=(a))+0\n"
		 "C2 FN1=(F0+20 N=(b))+0 V0=(T):(4,4,4)\n"
		 "C3 FN0+0\n"
		 "C4 FN1+0 V0:(3,3,3)\n");
	assert_int_equal(incl_of(&r.p, "a", "T"), 7);
	assert_int_equal(incl_of(&r.p, "b", "T"), 7);
	assert_int_equal(arc_incl(&r.p, "a", "b", "T"), 7);
	assert_int_equal(arc_incl(&r.p, "b", "a", "T"), 3);
	/* both stacks end in b called from a: a -> b's self 7, once each
	 * though the first stack has a -> b twice; b -> a's none (its 3
	 * are children) */
	assert_int_equal(profile_call_self(&r.p, call(&r.p, "a", "b"))
			 [ev(&r.p, "T")], 7);
	assert_int_equal(profile_call_self(&r.p, call(&r.p, "b", "a"))
			 [ev(&r.p, "T")], 0);
	rd_done(&r);
}

/* The perf profile of tests/inputs/igprof, through the call graph. */
static void test_perf_file_by_hand(void **state)
{
	struct res r;
	struct cg cg;
	uint64_t row[1];
	uint32_t t;

	(void)state;
	profile_init(&r.p);
	r.ret = read_path(&r.p, "tests/inputs/igprof/perf.txt", NULL, &r.diag);
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	t = ev(&r.p, "PERF_TICKS");
	cg_build(&cg, &r.p, t);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);
	/*
	 * By hand from the file (ticks per stack in make-inputs.py):
	 *   work, thread 1: 3 own + qsort 4+2+5+1 + fib 1+2+3+4+1
	 *     + even 1+2 + odd 1 + ring 1+2 = 33; thread 2: 2 + fib 3 = 5
	 *   main: work's 33 + fib 2 = 35
	 *   fib: 1+2+3+4+1 + 2 + 3 + 1 = 17, all of it self
	 *   even and odd (cycle 1): the stacks w-e-o (1), w-e-o-e-o (2),
	 *     w-o-e (1) hold both: 4 each; ring_a, b, c: 1 + 2 = 3 each
	 */
	cg_inclusive_row(&cg, fn(&r.p, "work"), row);
	assert_int_equal(row[0], 38);
	cg_inclusive_row(&cg, fn(&r.p, "main"), row);
	assert_int_equal(row[0], 35);
	cg_inclusive_row(&cg, fn(&r.p, "fib"), row);
	assert_int_equal(row[0], 17);
	cg_inclusive_row(&cg, fn(&r.p, "even"), row);
	assert_int_equal(row[0], 4);
	cg_inclusive_row(&cg, fn(&r.p, "odd"), row);
	assert_int_equal(row[0], 4);
	for (const char *const *n = (const char *const[]){ "ring_a", "ring_b",
			"ring_c", NULL }; *n; n++) {
		cg_inclusive_row(&cg, fn(&r.p, *n), row);
		assert_int_equal(row[0], 3);
	}
	/* the printers' children of a member: the rest of it */
	assert_true(cg_node_child(&cg, fn(&r.p, "odd"), t) == 1.0);
	/* outside cycles, self + child (from the arcs) is the reader's
	 * exact per-function number */
	for (uint32_t f = 0; f < r.p.nfuncs; f++) {
		if (cg.nodes[f].cycle != NO_ID)
			continue;
		cg_inclusive_row(&cg, f, row);
		assert_int_equal(row[0], profile_func_row(&r.p, r.p.func_incl, f)[0]);
	}
	/* fib: 17 calls from others (14 from work, 2 from main, 1 from
	 * worker) and 13 ticks under fib -> fib */
	assert_int_equal(cg.nodes[fn(&r.p, "fib")].calls, 17);
	assert_int_equal(cg_node_self_calls(&cg, fn(&r.p, "fib")), 13);
	assert_int_equal(r.p.totals[t], 41);
	cg_release(&cg);
	rd_done(&r);
}

/* ---- names ---- */

static void test_names(void **state)
{
	struct res r;

	(void)state;
	rd_clean(&r, "P=(ID=1 N=(p) T=0.01)\n"
		 "C1 FN0=(F0=(/opt/my lib (x).so)+10 N=(@?(nil)))+0\n"
		 "C2 FN1=(F0+20 N=(operator()(int) const))+4\n"
		 "C3 FN2=(F0+30 N=(@?0x7f0012345678))+0 V0=(T):(1,1,1)\n"
		 "C3 FN3=(F1=()+30 N=(main))+0 V0:(1,1,1)\n");
	assert_int_not_equal(find_func(&r.p, "@?(nil)"), NO_ID);
	assert_int_not_equal(find_func(&r.p, "operator()(int) const"), NO_ID);
	assert_int_not_equal(find_func(&r.p, "@?0x7f0012345678"), NO_ID);
	assert_string_equal(profile_str(&r.p, r.p.funcs[0].object),
			    "/opt/my lib (x).so");
	/* an empty object name is the program's (glibc's argv[0]) */
	assert_string_equal(profile_str(&r.p, r.p.funcs[fn(&r.p, "main")].object),
			    "p");
	rd_done(&r);

	/* one FN per call address: two FNs of one name are one function */
	rd_clean(&r, "P=(ID=1 N=(p) T=0.01)\n"
		 "C1 FN0=(F0=(p)+10 N=(main))+0\n"
		 "C2 FN1=(F0+24 N=(f))+4 V0=(T):(1,1,1)\n"
		 "C2 FN2=(F0+28 N=(f))+8 V0:(2,2,2)\n");
	assert_int_equal(r.p.nfuncs, 2);
	assert_int_equal(self_of(&r.p, "f", "T"), 3);
	rd_done(&r);
}

/* -b needs addresses: F offset - own offset is where a function starts */
static void test_positions(void **state)
{
	struct read_opts o = { .want_positions = true };
	struct res r;
	uint32_t f;
	bool start = false, frame = false, other = false, site = false;

	(void)state;
	rd_clean_opts(&r, "P=(ID=1 N=(p) T=0.01)\n"
		      "C1 FN0=(F0=(p)+4529 N=(fib))+18 V0=(T):(3,3,3)\n"
		      "C2 FN0+33 V0:(1,1,1)\n", &o);
	f = fn(&r.p, "fib");
	assert_true(r.p.has_instr);
	for (size_t i = 0; i < r.p.npos; i++) {
		const struct ppos *q = &r.p.pos[i];

		assert_int_equal(q->func, f);
		if (q->addr == 4511)		/* 4529 - 18 */
			start = profile_pos_cost(&r.p, (uint32_t)i)[0] == 0;
		else if (q->addr == 4529)
			frame = profile_pos_cost(&r.p, (uint32_t)i)[0] == 3;
		else if (q->addr == 4511 + 33)
			other = profile_pos_cost(&r.p, (uint32_t)i)[0] == 1;
		else if (q->addr == 4529 - 1)	/* a return address - 1 */
			site = profile_pos_cost(&r.p, (uint32_t)i)[0] == 0;
		else
			fail_msg("position at %llu", (unsigned long long)q->addr);
	}
	assert_true(start && frame && other && site);
	/* the caller frame's call: one call site, the callee's stack value */
	assert_int_equal(r.p.ncallsites, 1);
	assert_int_equal(r.p.pos[r.p.callsites[0].pos].addr, 4528);
	assert_int_equal(r.p.callsites[0].count, 1);
	assert_int_equal(profile_callsite_incl(&r.p, 0)[0], 1);
	rd_done(&r);
}

static void test_leaks(void **state)
{
	/* the raw frames (folding is test_folding's) */
	struct read_opts o = { .want_leaks = true, .no_filter = true };
	struct res r;
	const struct pstack *s;

	(void)state;
	rd_clean_opts(&r, "P=(ID=1 N=(p) T=0)\n"
		      "C1 FN0=(F0=(p)+10 N=(main))+0\n"
		      "C2 FN1=(F0+20 N=(f))+0\n"
		      "C3 FN2=(F1=(libc)+30 N=(malloc))+0 V0=(MEM_TOTAL):(2,722,0)"
		      " V1=(MEM_LIVE):(2,722,722);LK=(0x91441c8,615);LK=(0x91633c0,107)\n"
		      "C2 FN2+0 V1:(1,9,9);LK=(0x10,9)\n", &o);
	assert_int_equal(r.p.nleaks, 3);
	assert_int_equal(r.p.leaks[0].addr, 0x91441c8);
	assert_int_equal(r.p.leaks[0].size, 615);
	assert_int_equal(r.p.leaks[0].event, ev(&r.p, "MEM_LIVE"));
	/* the stack: malloc <- f <- main, shared by the first two */
	assert_int_equal(r.p.leaks[0].stack, r.p.leaks[1].stack);
	s = &r.p.stacks[r.p.leaks[0].stack];
	assert_int_equal(s->func, fn(&r.p, "malloc"));
	s = &r.p.stacks[s->caller];
	assert_int_equal(s->func, fn(&r.p, "f"));
	s = &r.p.stacks[s->caller];
	assert_int_equal(s->func, fn(&r.p, "main"));
	assert_int_equal(s->caller, NO_ID);
	/* malloc <- main reuses main's node */
	s = &r.p.stacks[r.p.leaks[2].stack];
	assert_int_equal(s->func, fn(&r.p, "malloc"));
	assert_int_equal(r.p.stacks[s->caller].func, fn(&r.p, "main"));
	assert_int_equal(r.p.nstacks, 4);
	rd_done(&r);

	/* not asked for: not kept */
	rd_clean(&r, "P=(ID=1 N=(p) T=0)\n"
		 "C1 FN0=(F0=(p)+10 N=(main))+0 V0=(MEM_LIVE):(1,9,9);LK=(0x10,9)\n");
	assert_int_equal(r.p.nleaks, 0);
	rd_done(&r);
}

/*
 * Frames folded into their callers by default, as igprof-analyse folds
 * them: allocators in a memory profile (MallocFilter), IgProf's own in
 * any (objects named libigprof., IgProf., IgHook.); --no-filter keeps
 * them as the file has them.
 */
static void test_folding(void **state)
{
	static const char mem[] =
		"P=(ID=1 N=(p) T=0)\n"
		"C1 FN0=(F0=(p)+10 N=(main))+0\n"
		"C2 FN1=(F0+20 N=(f))+0\n"
		"C3 FN2=(F1=(libc)+30 N=(malloc))+0 V0=(MEM_TOTAL):(2,722,0)"
		" V1=(MEM_LIVE):(2,722,722);LK=(0x91441c8,615)\n"
		"C3 FN3=(F1+90 N=(_Znwm))+0 V0:(1,8,0)\n"
		"C2 FN2+0 V0:(1,9,0) V1:(1,9,9);LK=(0x10,9)\n"
		"C1 FN2+0 V0:(1,5,0)\n";
	static const char perf[] =
		"P=(ID=1 N=(p) T=0.01)\n"
		"C1 FN0=(F0=(p)+10 N=(main))+0\n"
		"C2 FN1=(F0+20 N=(f))+0 V0=(PERF_TICKS):(1,1,1)\n"
		"C3 FN2=(F1=(libc)+30 N=(malloc))+0 V0:(4,4,4)\n"
		"C3 FN3=(F2=(/opt/lib/libigprof.so)+40 N=(hook))+0 V0:(2,2,2)\n"
		"C4 FN4=(F0+50 N=(g))+0 V0:(3,3,3)\n";
	struct read_opts o = { .want_leaks = true };
	struct read_opts raw = { .want_leaks = true, .no_filter = true };
	struct res r;
	const struct pstack *st;

	(void)state;
	/* a memory profile: malloc's and operator new's allocations are
	 * f's and main's; the stacks of leaks end at f */
	rd_clean_opts(&r, mem, &o);
	assert_int_equal(self_of(&r.p, "f", "MEM_TOTAL"), 722 + 8);
	assert_int_equal(self_of(&r.p, "main", "MEM_TOTAL"), 9);
	assert_int_equal(self_of(&r.p, "f", "MEM_LIVE"), 722);
	assert_int_equal(self_of(&r.p, "malloc", "MEM_TOTAL"), 0 + 5);
	assert_int_equal(find_call(&r.p, "f", "malloc"), NO_ID);
	assert_int_equal(find_call(&r.p, "f", "_Znwm"), NO_ID);
	assert_int_equal(arc_incl(&r.p, "main", "f", "MEM_TOTAL"), 730);
	st = &r.p.stacks[r.p.leaks[0].stack];
	assert_int_equal(st->func, fn(&r.p, "f"));
	assert_int_equal(r.p.stacks[r.p.leaks[1].stack].func, fn(&r.p, "main"));
	/* a root frame has no caller to fold into: kept */
	assert_int_equal(r.p.inputs[0].folded_alloc, 3);
	assert_int_equal(r.p.inputs[0].folded_own, 0);
	rd_done(&r);

	/* --no-filter: as the file has them */
	rd_clean_opts(&r, mem, &raw);
	assert_int_equal(self_of(&r.p, "f", "MEM_TOTAL"), 0);
	assert_int_equal(self_of(&r.p, "malloc", "MEM_TOTAL"), 722 + 9 + 5);
	assert_int_equal(self_of(&r.p, "_Znwm", "MEM_TOTAL"), 8);
	assert_int_equal(arc_count(&r.p, "f", "malloc"), 2);
	assert_int_equal(r.p.inputs[0].folded_alloc, 0);
	rd_done(&r);

	/* a time profile: malloc's ticks are its own; IgProf's hook is
	 * folded, and g, which it "called", is f's callee */
	rd_clean_opts(&r, perf, &o);
	assert_int_equal(self_of(&r.p, "malloc", "PERF_TICKS"), 4);
	assert_int_equal(self_of(&r.p, "f", "PERF_TICKS"), 1 + 2);
	assert_int_equal(self_of(&r.p, "g", "PERF_TICKS"), 3);
	assert_int_equal(arc_incl(&r.p, "f", "g", "PERF_TICKS"), 3);
	assert_int_equal(find_call(&r.p, "f", "hook"), NO_ID);
	assert_int_equal(incl_of(&r.p, "f", "PERF_TICKS"), 10);
	assert_int_equal(r.p.inputs[0].folded_alloc, 0);
	assert_int_equal(r.p.inputs[0].folded_own, 1);
	rd_done(&r);

	rd_clean_opts(&r, perf, &raw);
	assert_int_equal(self_of(&r.p, "hook", "PERF_TICKS"), 2);
	assert_int_equal(arc_incl(&r.p, "hook", "g", "PERF_TICKS"), 3);
	rd_done(&r);
}

/* ---- errors: each names the file and the line ---- */

static const struct bad_case {
	const char *name, *text;
	unsigned line;
	const char *phrase;
} bad_cases[] = {
	{ "no ID", "P=(N=(a) T=0.01)\n", 1, "expected 'ID='" },
	{ "bad tick", "P=(ID=1 N=(a) T=fast)\n", 1,
	  "the tick period 'T=fast' is not a number of seconds" },
	{ "negative tick", "P=(ID=1 N=(a) T=-1)\n", 1, "T=-1" },
	{ "no counters", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0\n", 0,
	  "no counter values in the profile" },
	{ "undefined FN", "P=(ID=1 N=(a) T=0.01)\nC1 FN4+0\n", 2,
	  "function FN4 is used before it is defined" },
	{ "undefined F", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F2+1 N=(m))+0\n", 2,
	  "object F2 is used before it is defined" },
	{ "undefined V", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0 V3:(1,1,1)\n",
	  2, "counter V3 is used before it is defined" },
	{ "FN twice", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0\n"
	  "C1 FN0=(F0+1 N=(m))+0\n", 3, "function FN0 is defined twice (first on line 2)" },
	{ "F twice", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0\n"
	  "C1 FN1=(F0=(b)+1 N=(m))+0\n", 3, "object F0 is defined twice" },
	{ "V twice", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(1,1,1)"
	  " V0=(Y):(1,1,1)\n", 2, "counter V0 is defined twice" },
	{ "depth jump", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0\nC3 FN0+0\n",
	  3, "stack depth 3 after depth 1" },
	{ "first line deep", "P=(ID=1 N=(a) T=0.01)\nC2 FN0=(F0=(a)+1 N=(m))+0\n",
	  2, "stack depth 2 after depth 0" },
	{ "depth 0", "P=(ID=1 N=(a) T=0.01)\nC0 FN0=(F0=(a)+1 N=(m))+0\n", 2,
	  "stack depth 0" },
	{ "bad number", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(1,x,1)\n",
	  2, "expected the counter's total (decimal digits), found 'x,1)'" },
	{ "number past 2^64", "P=(ID=1 N=(a) T=0.01)\n"
	  "C1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(1,18446744073709551616,1)\n", 2,
	  "the counter's total does not fit in 64 bits" },
	{ "totals past 2^64", "P=(ID=1 N=(a) T=0.01)\n"
	  "C1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(1,18446744073709551615,1)\n"
	  "C2 FN0+0 V0:(1,1,1)\n", 3, "counter totals add up past 2^64" },
	{ "truncated line", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(1,1\n",
	  2, "expected ',', found the end of the line" },
	{ "truncated name", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(ma\n", 2,
	  "expected the function name ended by '))+'" },
	{ "leak without counter", "P=(ID=1 N=(a) T=0.01)\n"
	  "C1 FN0=(F0=(a)+1 N=(m))+0;LK=(0x1,2)\n", 2, "must follow a counter" },
	{ "leak address not hex", "P=(ID=1 N=(a) T=0.01)\n"
	  "C1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(1,1,1);LK=(12,2)\n", 2, "expected ';LK=(0x'" },
	{ "garbage after frame", "P=(ID=1 N=(a) T=0.01)\nC1 FN0=(F0=(a)+1 N=(m))+0 junk\n",
	  2, "expected a counter ' V<id>:(count,total,peak)' or a leak" },
	{ "second header", "P=(ID=1 N=(a) T=0.01)\nP=(ID=1 N=(a) T=0.01)\n", 2,
	  "expected 'C'" },
	{ "counter with empty name", "P=(ID=1 N=(a) T=0.01)\n"
	  "C1 FN0=(F0=(a)+1 N=(m))+0 V0=():(1,1,1)\n", 2, "empty name" },
	{ "negative count", "P=(ID=1 N=(a) T=0.01)\n"
	  "C1 FN0=(F0=(a)+1 N=(m))+0 V0=(X):(-1,1,1)\n", 2, "expected the counter's count" },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct res r;
		char tag[32];

		rd_opts(&r, c->text, NULL);
		if (c->line)
			snprintf(tag, sizeof(tag), "/profile:%u: ", c->line);
		else
			snprintf(tag, sizeof(tag), "/profile: ");
		if (r.ret != -1 || !strstr(r.diag, tag) || !strstr(r.diag, c->phrase))
			fail_msg("%s: expected an error with '%s%s', got %d and:\n%s",
				 c->name, tag, c->phrase, r.ret, r.diag);
		rd_done(&r);
	}
}

/* A stack 100,000 deep: no recursion of ours follows it, the costs are
 * right, and a bad line after it is still found by number. */
static void test_deep_stack(void **state)
{
	enum { DEPTH = 100000 };
	size_t cap = (size_t)DEPTH * 32 + 256, len = 0;
	char *text = malloc(cap);
	struct res r;

	(void)state;
	assert_non_null(text);
	len += (size_t)sprintf(text + len, "P=(ID=1 N=(p) T=0.01)\n"
			       "C1 FN0=(F0=(p)+16 N=(f))+0 V0=(T):(1,1,1)\n"
			       "C2 FN1=(F0+32 N=(g))+0\n");
	for (int d = 3; d <= DEPTH; d++)
		len += (size_t)sprintf(text + len, "C%d FN%d+0\n", d, (d + 1) % 2);
	len += (size_t)sprintf(text + len, "C%d FN0+0 V0:(2,2,2)\n", DEPTH + 1);
	rd_clean(&r, text);
	/* f and g alternate 100,001 frames deep: each counts the deepest
	 * stack once (2) and f its own at depth 1 (1) */
	assert_int_equal(incl_of(&r.p, "f", "T"), 3);
	assert_int_equal(incl_of(&r.p, "g", "T"), 2);
	assert_int_equal(arc_incl(&r.p, "f", "g", "T"), 2);
	assert_int_equal(arc_incl(&r.p, "g", "f", "T"), 2);
	rd_done(&r);

	sprintf(text + len, "C%d FN0+0 V0:(2,2\n", DEPTH + 2);
	rd_opts(&r, text, NULL);
	assert_int_equal(r.ret, -1);
	assert_non_null(strstr(r.diag, "/profile:100003: expected ','"));
	rd_done(&r);
	free(text);
}

/*
 * The whole program (listings and JSON) on a 100,000-deep stack made
 * here, not committed: exit 0 and f's numbers; with a bad last line,
 * exit 1 and a message naming the file and line 100,003.
 */
static int run_main(const char *args0, const char *path, char **out,
		    char **diag)
{
	char a0[] = "cganalyze", a1[64], *argv[4];
	struct options o;
	size_t n;
	FILE *f = open_memstream(out, &n);
	int status;

	assert_non_null(f);
	snprintf(a1, sizeof(a1), "%s", args0);
	argv[0] = a0;
	argv[1] = a1;
	argv[2] = (char *)path;
	argv[3] = NULL;
	diag_capture_begin();
	assert_int_equal(options_parse(&o, 3, argv, f), OPTIONS_OK);
	status = analyze_run(&o, f);
	*diag = diag_capture_end();
	options_release(&o);
	fclose(f);
	return status;
}

/* write_temp()'s file, its directory and the path itself */
static void drop_temp(char *path)
{
	char *slash = strrchr(path, '/');

	unlink(path);
	*slash = '\0';
	rmdir(path);
	free(path);
}

static void test_deep_stack_pipeline(void **state)
{
	enum { DEPTH = 100000 };
	size_t cap = (size_t)DEPTH * 32 + 256, len = 0;
	char *text = malloc(cap), *path, *out, *diag, tag[300];

	(void)state;
	assert_non_null(text);
	len += (size_t)sprintf(text + len, "P=(ID=1 N=(p) T=0.01)\n"
			       "C1 FN0=(F0=(p)+16 N=(f))+0 V0=(PERF_TICKS):(1,1,1)\n"
			       "C2 FN1=(F0+32 N=(g))+0\n");
	for (int d = 3; d <= DEPTH; d++)
		len += (size_t)sprintf(text + len, "C%d FN%d+0\n", d, (d + 1) % 2);
	len += (size_t)sprintf(text + len, "C%d FN0+0 V0:(2,2,2)\n", DEPTH + 1);
	path = write_temp(text, len);
	assert_int_equal(run_main("--brief", path, &out, &diag), 0);
	assert_string_equal(diag, "");
	/* f and g alternate, one cycle: f has 3 ticks of its own and all
	 * of them (100%), 2 under the calls from g, each counted once */
	assert_non_null(strstr(out, "[2]     100.0        3        0        2          "
			       "f <cycle 1> [2]"));
	free(out);
	free(diag);
	assert_int_equal(run_main("--json", path, &out, &diag), 0);
	assert_non_null(strstr(out, "\"name\": \"f\", \"file\": null, \"object\": \"p\", "
			       "\"line\": null, \"self\": [3], \"inclusive\": [3]"));
	free(out);
	free(diag);
	drop_temp(path);

	len += (size_t)sprintf(text + len, "C%d FN0+0 V0:(2,2\n", DEPTH + 2);
	path = write_temp(text, len);
	assert_int_equal(run_main("--brief", path, &out, &diag), 1);
	snprintf(tag, sizeof(tag), "cganalyze: %s:100003: expected ','", path);
	assert_non_null(strstr(diag, tag));
	free(out);
	free(diag);
	drop_temp(path);
	free(text);
}

static void test_compressed(void **state)
{
	static const char text[] = "P=(ID=1 N=(p) T=0.01)\n"
				   "C1 FN0=(F0=(p)+16 N=(f))+0 V0=(PERF_TICKS):(4,4,4)\n";
	size_t n;
	unsigned char *z;
	struct res r;

	(void)state;
	z = gzip_bytes(text, sizeof(text) - 1, &n);
	profile_init(&r.p);
	r.ret = read_text(&r.p, (const char *)z, (long)n, NULL, &r.diag);
	assert_int_equal(r.ret, 0);
	assert_int_equal(self_of(&r.p, "f", "PERF_TICKS"), 4);
	rd_done(&r);
	free(z);
	z = bzip2_bytes(text, sizeof(text) - 1, &n);
	profile_init(&r.p);
	r.ret = read_text(&r.p, (const char *)z, (long)n, NULL, &r.diag);
	assert_int_equal(r.ret, 0);
	assert_int_equal(self_of(&r.p, "f", "PERF_TICKS"), 4);
	rd_done(&r);
	free(z);
}

/* Profiles of one format add up; Callgrind and IgProf do not mix. */
static void test_mixing_formats(void **state)
{
	struct read_opts o = { 0 };
	struct profile p;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_path(&p, "tests/inputs/igprof/perf.txt", &o, &diag), 0);
	free(diag);
	assert_int_equal(read_path(&p, "tests/inputs/igprof/perf.txt.gz", &o, &diag), 0);
	free(diag);
	assert_int_equal(p.totals[0], 82);
	assert_int_equal(read_path(&p, "tests/inputs/spec-example.cg", &o, &diag), -1);
	assert_non_null(strstr(diag, "tests/inputs/spec-example.cg: this is a Callgrind "
			       "profile and 'tests/inputs/igprof/perf.txt' is an IgProf one"));
	free(diag);
	profile_release(&p);
}

/* Renaming that merges functions (-b) adds their rows. */
static void test_rekey_merges(void **state)
{
	struct res r;
	struct pfunc *ident;
	uint32_t a, b;

	(void)state;
	rd_clean(&r, "P=(ID=1 N=(p) T=0.01)\n"
		 "C1 FN0=(F0=(p)+16 N=(main))+0\n"
		 "C2 FN1=(F0+32 N=(@?0x1))+0 V0=(T):(1,1,7)\n"
		 "C2 FN2=(F0+48 N=(@?0x2))+0 V0:(2,2,5)\n");
	a = fn(&r.p, "@?0x1");
	b = fn(&r.p, "@?0x2");
	ident = malloc(r.p.nfuncs * sizeof(*ident));
	assert_non_null(ident);
	memcpy(ident, r.p.funcs, r.p.nfuncs * sizeof(*ident));
	ident[b].name = ident[a].name;
	profile_rekey(&r.p, ident, NULL, NULL, NULL);
	assert_int_equal(r.p.nfuncs, 2);
	assert_int_equal(incl_of(&r.p, "@?0x1", "T"), 3);
	assert_int_equal(profile_func_row(&r.p, r.p.func_count, fn(&r.p, "@?0x1"))[0], 3);
	assert_int_equal(profile_func_row(&r.p, r.p.func_peak, fn(&r.p, "@?0x1"))[0], 7);
	free(ident);
	rd_done(&r);
}

/*
 * A C++ constructor's two symbols (C1 calling C2, as where the two are
 * not aliased), one name once demangled: main > C1 (3 ticks) > C2 (5).
 * The 5 were spent in Foo::Foo() called from main, but the arc that
 * held them as its self part became a self-call: the exact split is
 * dropped for the ratio (all 8 are Foo::Foo()'s own), not printed as
 * main -> Foo::Foo() spending 3 itself and 5 in children it has none of.
 */
static void test_merged_constructor_split(void **state)
{
	struct res r;
	struct cg cg;
	double self, child;
	uint32_t main_id, foo, a;

	(void)state;
	rd_clean(&r, "P=(ID=1 N=(p) T=0.01)\n"
		 "C1 FN0=(F0=(p)+16 N=(main))+0\n"
		 "C2 FN1=(F0+32 N=(_ZN3FooC1Ev))+0 V0=(T):(3,3,3)\n"
		 "C3 FN2=(F0+48 N=(_ZN3FooC2Ev))+0 V0:(5,5,5)\n");
	assert_int_equal(demangle_names(&r.p), 2);
	main_id = fn(&r.p, "main");
	foo = fn(&r.p, "Foo::Foo()");
	cg_build(&cg, &r.p, 0);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);
	a = call(&r.p, "main", "Foo::Foo()");
	assert_int_equal(r.p.calls[a].caller, main_id);
	assert_int_equal(r.p.calls[a].callee, foo);
	cg_arc_share(&cg, a, 0, &self, &child);
	assert_true(self == 8 && child == 0);
	cg_release(&cg);
	rd_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_record_kinds),
		cmocka_unit_test(test_counter_option),
		cmocka_unit_test(test_counter_per_thread),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_recursion_counted_once),
		cmocka_unit_test(test_perf_file_by_hand),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_leaks),
		cmocka_unit_test(test_folding),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_deep_stack),
		cmocka_unit_test(test_deep_stack_pipeline),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_mixing_formats),
		cmocka_unit_test(test_rekey_merges),
		cmocka_unit_test(test_merged_constructor_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
