/*
 * Reading ahead (callgrind_ahead.c) against reading in order: the same
 * profile (names, functions and arcs in the same order, the same
 * costs, positions, call sites and jumps), the same messages, the same
 * result, wherever the stretches start and stop. Forced
 * (READ_THREAD_AHEAD), the reader halves the rest of the file again and
 * again and stops each stretch half as far on as it started, so small
 * files get many stretches, stopped anywhere; each case is swept across
 * them by padding it with function blocks before and after.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/spare_cpu.h"
#include "profile/pos_select.h"
#include "read/line_reader.h"

struct res {
	struct profile p;
	char *diag;
	int ret;
};

/* Over every read ahead so far. */
static struct read_stats stats;
/* What inputs read before the file left in the profile, or NULL. */
static void (*read_before)(struct profile *p);

static void read_with(struct res *r, const char *path,
		      const struct read_opts *o, enum read_thread thread)
{
	struct read_opts ro = *o;
	struct line_reader lr;

	ro.thread = thread;
	ro.stats = &stats;
	profile_init(&r->p);
	if (read_before)
		read_before(&r->p);
	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, path), 0);
	r->ret = read_callgrind(&r->p, &lr, &ro);
	line_reader_close(&lr);
	r->diag = diag_capture_end();
}

/* Function f's address range (profile.func_addrs), 0 and 0 if none. */
static struct paddr_range range_of(const struct profile *p, uint32_t f)
{
	struct paddr_range none = { 0, 0 };

	return f < p->func_addrs_alloc ? p->func_addrs[f] : none;
}

/* Stricter than assert_same_profile(): every name in the same order,
 * and every function's identity. */
static void assert_identical(const struct profile *a, const struct profile *b)
{
	assert_same_profile(a, b);
	assert_int_equal(a->names.nr, b->names.nr);
	for (size_t i = 0; i < a->names.nr; i++)
		assert_string_equal(profile_str(a, (name_id)i),
				    profile_str(b, (name_id)i));
	for (size_t f = 0; f < a->nfuncs; f++) {
		assert_int_equal(a->funcs[f].name, b->funcs[f].name);
		assert_int_equal(a->funcs[f].file, b->funcs[f].file);
		assert_int_equal(a->funcs[f].object, b->funcs[f].object);
	}
	assert_int_equal(a->calls_have_incl, b->calls_have_incl);
	for (uint32_t f = 0; f < a->nfuncs; f++) {
		struct paddr_range ra = range_of(a, f), rb = range_of(b, f);

		assert_int_equal(ra.lo, rb.lo);
		assert_int_equal(ra.hi, rb.hi);
	}
	assert_int_equal(a->has_instr, b->has_instr);
}

/* What -b reads without positions must be what the positions give:
 * each function's lowest and highest instruction address. */
static void assert_ranges_of_positions(const struct profile *pos,
				       const struct profile *ranges)
{
	assert_int_equal(pos->nfuncs, ranges->nfuncs);
	for (uint32_t f = 0; f < pos->nfuncs; f++) {
		struct paddr_range want = { 0, 0 }, got = range_of(ranges, f);

		for (size_t i = 0; i < pos->npos; i++) {
			uint64_t addr = pos->pos[i].addr;

			if (pos->pos[i].func != f || !addr)
				continue;
			if (!want.lo || addr < want.lo)
				want.lo = addr;
			if (addr > want.hi)
				want.hi = addr;
		}
		assert_int_equal(got.lo, want.lo);
		assert_int_equal(got.hi, want.hi);
	}
	assert_int_equal(pos->has_instr, ranges->has_instr);
}

static const struct read_opts plain_opts = { 0 };
static const struct read_opts lenient_opts = { .lenient = true };
static const struct read_opts fold_opts = { .fold_recursion = true };
static const struct read_opts small_opts = { .max_costs = 120 };
/* positions, call sites and jumps kept (-b, listings) */
static const struct read_opts pos_opts = { .want_positions = true };
static const struct read_opts pos_lenient_opts = { .want_positions = true,
						   .lenient = true };
static const struct read_opts pos_fold_opts = { .want_positions = true,
						.fold_recursion = true };
static const struct read_opts pos_small_opts = { .want_positions = true,
						 .max_costs = 240 };
/* each function's address range instead (-b for the flat profile) */
static const struct read_opts addr_opts = { .want_func_addrs = true };
static const struct read_opts addr_fold_opts = { .want_func_addrs = true,
						 .fold_recursion = true };

/* The text read both ways, with each of the options above. */
static void both_ways(const char *text)
{
	const struct read_opts *opts[] = {
		&plain_opts, &lenient_opts, &fold_opts, &small_opts,
		&pos_opts, &pos_lenient_opts, &pos_fold_opts, &pos_small_opts,
		&addr_opts, &addr_fold_opts,
	};
	char *path = write_temp(text, strlen(text));
	struct res pos, ranges;

	for (size_t o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
		struct res a, b;

		read_with(&a, path, opts[o], READ_THREAD_OFF);
		read_with(&b, path, opts[o], READ_THREAD_AHEAD);
		if (a.ret != b.ret || strcmp(a.diag, b.diag))
			fail_msg("in order: %d\n%s\nahead: %d\n%s\nfile:\n%s",
				 a.ret, a.diag, b.ret, b.diag, text);
		if (a.ret == 0)
			assert_identical(&a.p, &b.p);
		free(a.diag);
		free(b.diag);
		profile_release(&a.p);
		profile_release(&b.p);
	}
	read_with(&pos, path, &pos_opts, READ_THREAD_OFF);
	read_with(&ranges, path, &addr_opts, READ_THREAD_AHEAD);
	if (pos.ret == 0 && ranges.ret == 0)
		assert_ranges_of_positions(&pos.p, &ranges.p);
	free(pos.diag);
	free(ranges.diag);
	profile_release(&pos.p);
	profile_release(&ranges.p);
	remove_temp(path);
}

static const char header[] =
	"# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
	"positions: instr line\nevents: Ir Dr\n\nob=(1) /bin/x\nfl=(1) x.c\n";

/* A function block as valgrind writes them: after a blank line, the
 * function, costs, a call to a function defined before. */
static void pad(char **s, size_t *n, size_t *cap, unsigned i)
{
	if (*n + 256 > *cap) {
		*cap = *cap * 2 + 256;
		*s = realloc(*s, *cap);
	}
	*n += (size_t)snprintf(*s + *n, *cap - *n,
		"\nfn=(%u) pad%u\n0x%x 10 1 1\n+2 11 2\ncfn=(%u)\ncalls=%u 0x%x 5\n+1 12 3 1\n",
		100 + i, i, 0x1000 + 16 * i, i ? 100 + i - 1 : 100, i + 1,
		0x1000 + 16 * (i ? i - 1 : 0));
}

/* case, swept across the stretches: before blocks before it, after
 * blocks after it, then tail (if any). */
static void sweep(const char *text, const char *tail)
{
	for (unsigned before = 0; before < 10; before++) {
		for (unsigned after = 0; after < 6; after++) {
			size_t cap = 4096, n = 0;
			char *s = malloc(cap);

			n += (size_t)snprintf(s, cap, "%s", header);
			for (unsigned i = 0; i < before; i++)
				pad(&s, &n, &cap, i);
			s = realloc(s, n + strlen(text) + 1);
			memcpy(s + n, text, strlen(text) + 1);
			n += strlen(text);
			cap = n + 1;
			for (unsigned i = 0; i < after; i++)
				pad(&s, &n, &cap, before + i);
			if (tail) {
				s = realloc(s, n + strlen(tail) + 1);
				memcpy(s + n, tail, strlen(tail) + 1);
			}
			both_ways(s);
			free(s);
		}
	}
}

/*
 * A function whose costs run for far longer than the window a stretch
 * start is searched in (a compiler's largest functions): the stretch
 * starts after it, and is still read ahead and added in.
 */
static void test_long_function(void **state)
{
	size_t cap = (size_t)1 << 20, n = 0;
	char *s = malloc(cap);
	uint64_t added = stats.stretches_added;

	(void)state;
	n += (size_t)snprintf(s, cap, "%s", header);
	for (unsigned i = 0; i < 4; i++)
		pad(&s, &n, &cap, i);
	n += (size_t)snprintf(s + n, cap - n, "\nfn=(1) long\n0x10000 1 1 1\n");
	for (unsigned i = 0; i < 40000; i++)
		n += (size_t)snprintf(s + n, cap - n, i % 1000 ? "+1 * %u\n"
						: "cfn=(100)\ncalls=1 0x1000 10\n+1 * %u\n",
				      i % 7);
	for (unsigned i = 4; i < 12; i++)
		pad(&s, &n, &cap, i);
	assert_true(n > 4 * 65536);
	both_ways(s);
	assert_true(stats.stretches_added > added);
	free(s);
}

/*
 * A file large enough to be read ahead unforced (READ_THREAD_AUTO), in
 * several stretches: this thread tells the second one to stop when it
 * gets to its start, wherever the second one has got to, and its own
 * share changes with which of the two was quicker. With no processor
 * free, this thread reads it stretch by stretch, asking again before
 * each, and alone.
 */
static void test_auto(void **state)
{
	const struct read_opts *opts[] = { &plain_opts, &pos_opts };
	size_t cap = (size_t)16 << 20, n = 0;
	char *s = malloc(cap), *path;
	uint64_t added = stats.stretches_added;

	(void)state;
	n += (size_t)snprintf(s, cap, "%s", header);
	for (unsigned i = 0; n < cap - 4096; i++) {
		n += (size_t)snprintf(s + n, cap - n,
				      "\nfn=(%u) f%u\n0x%x 4 1 1\n"
				      "jcnd=1/2 +4 *\n+3 5 2 1\ncfn=(%u)\n"
				      "calls=2 0x%x 1\n* * 9 9\n+2 * 1 1\n",
				      i % 5000 + 1, i % 5000, 0x1000 + 64 * (i % 5000),
				      i % 4999 + 1, 0x1000 + 64 * (i % 4999));
	}
	path = write_temp(s, n);
	spare_cpu_assume(1);	/* whatever else runs on the machine */
	for (size_t o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
		struct res a, b;

		read_with(&a, path, opts[o], READ_THREAD_OFF);
		read_with(&b, path, opts[o], READ_THREAD_AUTO);
		assert_int_equal(a.ret, 0);
		assert_int_equal(b.ret, 0);
		assert_string_equal(a.diag, b.diag);
		assert_identical(&a.p, &b.p);
		free(a.diag);
		free(b.diag);
		profile_release(&a.p);
		profile_release(&b.p);
	}
	assert_true(stats.stretches_added > added);
	/* no processor free: one thread reads it all */
	spare_cpu_assume(0);
	added = stats.stretches_added;
	{
		struct res a, b;

		read_with(&a, path, &plain_opts, READ_THREAD_OFF);
		read_with(&b, path, &plain_opts, READ_THREAD_AUTO);
		assert_int_equal(b.ret, 0);
		assert_string_equal(a.diag, b.diag);
		assert_identical(&a.p, &b.p);
		free(a.diag);
		free(b.diag);
		profile_release(&a.p);
		profile_release(&b.p);
	}
	assert_true(stats.stretches_added == added);
	spare_cpu_assume(-1);
	remove_temp(path);
	free(s);
}

/* Compressed ids defined before a stretch and used in it, and defined
 * again in it: the same name, and another (a warning, in order). */
static void test_ids(void **state)
{
	(void)state;
	sweep("\nfn=(7) seven\n0x10 1 5 5\n\nfn=(8) eight\n0x20 1 1\n"
	      "cfn=(7)\ncalls=2 0x10 1\n+1 2 9 9\n\nfn=(7) seven\n+4 3 1\n"
	      "\nfn=(8)\n0x30 2 2\n", NULL);
	sweep("\nfn=(7) seven\n0x10 1 5 5\n\nfn=(7) sieben\n0x20 1 1\n"
	      "\nfl=(1) x.c\nfn=(7)\n0x30 2 2\n", NULL);
	/* never defined: an error, or with --lenient a warning */
	sweep("\nfn=(9)\n0x10 1 5 5\n", NULL);
	sweep("\nfn=(8) eight\n0x20 1 1\ncfn=(55)\ncalls=1 0x10 1\n+1 2 9 9\n",
	      NULL);
}

/* Positions relative to the last one before the stretch; targets too;
 * one going below zero. */
static void test_positions(void **state)
{
	(void)state;
	sweep("\nfn=(7) seven\n+16 +1 5 5\n-2 * 1\njump=3 +4 -1\n+1 2 1\n"
	      "jcnd=1/3 -8 *\n* * 2\n", NULL);
	sweep("\nfn=(7) seven\n0x10 4 5 5\n\nfn=(8) eight\n-1000 2 1\n", NULL);
	sweep("\nfn=(7) seven\n0x10 4 5 5\ncfn=(7)\ncalls=1 -0x100 0\n+1 1 1\n",
	      NULL);
	/* "*": the position before, which a stretch does not know */
	sweep("\nfn=(7) seven\n0x10 4 5 5\n\nfn=(8) eight\n* * 1\n+1 * 1\n",
	      NULL);
	sweep("\nfn=(7) seven\n0x10 4 5 5\n\nfn=(8) eight\njcnd=1/2 * *\n"
	      "0x20 1 1\n", NULL);
}

/* Jumps, each with its source on the next line, in functions a stretch
 * may start at: wherever one stops, some stop between the two. */
static void test_jump_sources(void **state)
{
	char text[8192];
	size_t n = 0;

	(void)state;
	for (unsigned i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\nfn=(%u) f%u\n0x%x 4 1 1\n"
				      "jcnd=%u/9 -%u 2\n+1 +1 2 1\n"
				      "jump=%u +%u *\n+1 * 1\n",
				      200 + i, i, 0x100 + 16 * i, i + 1, i % 5 + 1,
				      i + 2, i % 3 + 1);
	assert_true(n < sizeof(text));
	sweep(text, NULL);
}

/* A calls= line whose cost line is in the next stretch; a call whose
 * cob=/cfi=/cfn= came before the stretch; one without any cfn=. */
static void test_calls(void **state)
{
	(void)state;
	sweep("\nfn=(7) seven\n0x10 1 1\ncfn=(100)\ncalls=3 0x1000 10\n\n\n"
	      "+1 2 7 7\n", NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\ncob=(2) /lib/y.so\ncfi=(2) y.c\n"
	      "\nfn=(8) eight\n0x20 1 1\ncfn=(9) nine\ncalls=1 0x30 1\n+1 1 4\n",
	      NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\ncfn=(9) nine\n\n"
	      "\nfn=(8) eight\n0x20 1 1\ncalls=1 0x30 1\n+1 1 4\n", NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\ncfn=(100)\ncalls=3 0x1000 10\n", NULL);
}

/* Files, objects and inlined code from before the stretch; cost lines
 * before any fn= in it; no fl= at all. */
static void test_names(void **state)
{
	(void)state;
	sweep("\nfl=(3) z.c\nfn=(7) seven\n0x10 1 1\nfi=(4) h.h\n+1 2 3\n"
	      "\nfn=(8) eight\n0x20 1 1\ncfn=(7)\ncalls=1 0x10 1\n+1 1 4\n"
	      "\nob=(5) /lib/w.so\nfn=(9) nine\n0x30 1 1\nfe=(3)\n+1 1 1\n",
	      NULL);
	sweep("\nfl=(3) z.c\n0x10 1 1\n+3 1 7\n\nfl=(1)\nfn=(7) seven\n0x5 1 1\n",
	      NULL);
	sweep("\nfn=(7) fib'2\n0x10 1 1\ncfn=(8) fib'3\ncalls=1 0x10 1\n+1 1 1\n"
	      "\nfn=(8)\n0x10 2 2\n\nfn=(10) fib\n0x10 3 3\n", NULL);
	/* fn= goes back to fl='s file (a --dump-every-bb part: inlined
	 * code's call site, then fn= with no fe=): also when the stretch
	 * saw fn= and no file line */
	sweep("\nfl=(3) z.c\nfn=(7) seven\nfi=(4) h.h\ncfi=(4)\n"
	      "cfn=(9) nine\ncalls=0 0x30 1\n0x12 2 8\n"
	      "\nfn=(8) eight\ncfn=(7)\ncalls=0 0x10 1\n0x20 3 17\n"
	      "+1 4 2\n\nfn=(10) ten\n0x40 5 1\n", NULL);
}

/* Header lines after the stretch started: new parts, other events,
 * totals and summary checks, unknown lines. */
static void test_headers(void **state)
{
	(void)state;
	sweep("\nfn=(7) seven\n0x10 1 1\ntotals: 3 3\npart: 2\n"
	      "\nob=(1)\nfl=(1)\nfn=(7)\n0x10 1 1\n", "totals: 7 7\n");
	sweep("\nfn=(7) seven\n0x10 1 1\n\nevents: Dr Ir\n\nfn=(7)\n0x10 1 2\n",
	      NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\n\nevents: Ir Bc\n\nfn=(7)\n0x10 1 2\n",
	      NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\n\npositions: line\n\nfn=(7)\n+3 2\n",
	      NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\nbogus line\n", NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\nunknown=3\n\nfn=(8) eight\n+1 1 1\n",
	      NULL);
	sweep("", "totals: 999 999\n");
	sweep("", "\nfn=(7) seven\n0x10 1 1");	/* no final newline */
}

/* Sums past 2^64 - 1 made of costs on both sides of a stretch start. */
static void test_overflow(void **state)
{
	uint64_t added, small;

	(void)state;
	sweep("\nfn=(7) seven\n0x10 1 18446744073709551000\n"
	      "\nfn=(8) eight\n0x20 1 1000\n\nfn=(7)\n0x30 1 1000\n", NULL);
	sweep("\nfn=(7) seven\n0x10 1 1\ncfn=(8) eight\n"
	      "calls=18446744073709551000 0x10 1\n+1 1 1\n\nfn=(7)\n0x10 1 1\n"
	      "cfn=(8)\ncalls=1000 0x10 1\n+1 1 1\n", NULL);
	/* and across parts */
	sweep("\nfn=(7) seven\n0x10 1 18446744073709551000\n\npart: 2\n"
	      "\nob=(1)\nfl=(1)\n",
	      "\nfn=(7) seven\n0x10 1 1000\n");
	/* all the numbers together pass it, no column does: the one-sum
	 * bound fails, the columns are added up, and every stretch goes in
	 * that goes in with smaller numbers, as long */
	added = stats.stretches_added;
	sweep("\nfn=(7) seven\n0x10 1 12000000000000000000 1\n"
	      "\nfn=(8) eight\n0x20 1 1 12000000000000000000\n"
	      "\nfn=(7)\n0x30 1 1000 1000\n", NULL);
	added = stats.stretches_added - added;
	small = stats.stretches_added;
	sweep("\nfn=(7) seven\n0x10 1 1200000000000000000  1\n"
	      "\nfn=(8) eight\n0x20 1 1  1200000000000000000\n"
	      "\nfn=(7)\n0x30 1 1000 1000\n", NULL);
	assert_int_equal(added, stats.stretches_added - small);
}

/* An input before the file: positions and a call site of "seven" and
 * "eight" (as the header below names them) with costs near 2^64 and
 * no self cost, as another format's reader may leave them. */
static void costly_positions(struct profile *p)
{
	name_id ob = names_intern(&p->names, "/bin/x", 6),
		fl = names_intern(&p->names, "x.c", 3);
	uint32_t seven = profile_func(p, ob, fl, names_intern(&p->names, "seven", 5)),
		 eight = profile_func(p, ob, fl, names_intern(&p->names, "eight", 5));
	uint32_t pos, cs;

	profile_event(p, names_intern(&p->names, "Ir", 2));
	profile_event(p, names_intern(&p->names, "Dr", 2));
	pos = profile_pos(p, seven, fl, 4, 0x10);
	profile_pos_cost(p, pos)[1] = UINT64_MAX - 3;
	pos = profile_pos(p, eight, fl, 1, 0x20);
	cs = profile_callsite(p, pos, profile_call(p, eight, seven));
	p->callsites[cs].count = UINT64_MAX - 3;
}

/* Sums past 2^64 - 1 with what an earlier input left. */
static void test_overflow_before(void **state)
{
	(void)state;
	read_before = costly_positions;
	sweep("\nfn=(7) seven\n0x10 4 5 5\n", NULL);
	sweep("\nfn=(8) eight\n0x20 1 1\ncfn=(7) seven\ncalls=5 0x10 4\n"
	      "0x20 1 3 3\n", NULL);
	read_before = NULL;
}

/* Real profiles: the samples, split everywhere the sweep can. */
/*
 * The choosing read (code_positions.c: POS_SELECT with no_counts,
 * nothing kept whole), whose stretches gather the lines that go to one
 * coarse row (callgrind_collapse_run()): the same rows in the same
 * order, the same costs, and each function's flags and address range,
 * with the binary's regions and without. The bounds fall inside 32
 * bytes of code and between lines of one function, the lines change
 * and come back, addresses go down and up, one function has code in
 * two objects and another none at all.
 */
static const uint64_t choose_bounds[] = { 0x1008, 0x1030, 0x1044, 0x10a0 };
static const uint8_t choose_in_seg[] = { 1, 1, 0 };
static bool choose_regions;

static void choosing(struct profile *p)
{
	p->pos_detail = POS_SELECT;
	p->pos_select = pos_select_new();
	p->pos_select->no_counts = true;
	if (choose_regions) {
		pos_select_regions(p->pos_select, "/bin/x", choose_bounds,
				   choose_in_seg, 4);
		pos_select_object_base(p->pos_select, "x");
	}
}

static void assert_same_choice(const struct profile *a, const struct profile *b)
{
	const struct pos_select *x = a->pos_select, *y = b->pos_select;

	assert_identical(a, b);
	for (size_t i = 0; i < a->npos; i++)
		assert_int_equal(a->pos[i].region, b->pos[i].region);
	for (uint32_t f = 0; f < a->nfuncs; f++) {
		assert_int_equal(pos_select_state(x, f), pos_select_state(y, f));
		if (pos_select_state(x, f)) {
			assert_int_equal(x->lo[f], y->lo[f]);
			assert_int_equal(x->hi[f], y->hi[f]);
		}
	}
}

static void choose_both_ways(const char *text)
{
	static const struct read_opts choose_opts = {
		.want_positions = true, .no_callsites = true,
		.no_calls = true, .no_jumps = true };
	char *path = write_temp(text, strlen(text));

	read_before = choosing;
	for (int r = 0; r < 2; r++) {
		struct res a, b;

		choose_regions = r;
		read_with(&a, path, &choose_opts, READ_THREAD_OFF);
		read_with(&b, path, &choose_opts, READ_THREAD_AHEAD);
		if (a.ret != b.ret || strcmp(a.diag, b.diag))
			fail_msg("in order: %d\n%s\nahead: %d\n%s\nfile:\n%s",
				 a.ret, a.diag, b.ret, b.diag, text);
		pos_select_finish(a.p.pos_select);
		pos_select_finish(b.p.pos_select);
		if (a.ret == 0)
			assert_same_choice(&a.p, &b.p);
		free(a.diag);
		free(b.diag);
		profile_release(&a.p);
		profile_release(&b.p);
	}
	read_before = NULL;
	remove_temp(path);
}

static void test_choosing(void **state)
{
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	const char *blocks =
		/* lines changing within a cell, then back */
		"\nfn=(7) seven\n0x1000 4 5 5\n+2 4 1\n+2 5 1\n+2 5 1\n"
		"+2 4 1\n+4 4 2\n+8 4 3\n+8 4 1\n+16 4 1\n-40 4 1\n"
		"+100 0 1\n+1 0 1\n+1 0 2\n"
		/* down across a bound inside 32 bytes, then up across one */
		"0x100a 6 1\n-4 6 1\n0x1042 6 1\n+4 6 1\n"
		/* code in another object, the same addresses */
		"ob=(2) /lib/y\nfn=(8) eight\n0x1000 1 1\n+4 1 1\n+32 1 1\n"
		"+1 1 1\nob=(1)\n"
		/* no address, also after one at the same line */
		"\nfn=(9) nine\n0 7 1\n0 7 1\n0 0 1\n0 0 2\n0x1010 7 1\n"
		"0 7 1\n"
		/* a second block of seven, past the last bound */
		"\nfn=(7)\n0x10a0 3 1\n+2 3 1\n+60 3 1\n-1 3 4\n";

	(void)state;
	n += (size_t)snprintf(s, cap, "%s", header);
	for (unsigned i = 0; i < 12; i++) {
		/* each function's lines climb across bounds and 32 bytes */
		n += (size_t)snprintf(s + n, cap - n, "\nfn=(%u) f%u\n0x%x 1 1\n",
				      200 + i, i, 0xff0 + 3 * i);
		for (unsigned k = 0; k < 40; k++)
			n += (size_t)snprintf(s + n, cap - n, "+%u %u %u\n",
					      1 + (k * 7 + i) % 9,
					      k % 11 == 5 ? 2u : 1u, k + 1);
		n += (size_t)snprintf(s + n, cap - n, "%s", blocks);
		/* the lowest and highest addresses not a row's first, in a
		 * function of its own (another block of it would widen its
		 * range as well) */
		n += (size_t)snprintf(s + n, cap - n, "\nfn=(%u) ten%u\n"
				      "0x1058 1 1\n-8 1 1\n+12 1 1\n",
				      300 + i, i);
	}
	choose_both_ways(s);
	free(s);
	choose_both_ways(header);
}

static void test_samples(void **state)
{
	static const char *files[] = {
		"samples/recursion/callgrind.out",
		"samples/recursion/callgrind.instr.out",
		"samples/cxx/callgrind.out",
		"samples/recursion/callgrind.parts.out",
		"samples/recursion/callgrind.threads.out-01",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f = fopen(files[i], "r");
		char *text;
		long n;

		if (!f)
			fail_msg("cannot open %s", files[i]);
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = malloc((size_t)n + 1);
		assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
		text[n] = '\0';
		fclose(f);
		both_ways(text);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_jump_sources),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_overflow_before),
		cmocka_unit_test(test_long_function),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_choosing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
