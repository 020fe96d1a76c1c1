/* POS_SELECT (profile/pos_select.c): the functions chosen keep their
 * positions whole; the others' distinct addressed positions are counted
 * per block (a call's line again, an address out of order, the same
 * address on another line), those outside the segments apart, their
 * costs kept by region, and a function read in two blocks is marked. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "profile/pos_select.h"
#include "profile/profile.h"

static uint32_t func(struct profile *p, const char *ob, const char *name)
{
	return profile_func(p, names_intern(&p->names, ob, strlen(ob)),
			    NO_NAME, names_intern(&p->names, name, strlen(name)));
}

/* bounds 0x1000 0x1100 0x1200 0x2000: regions 0 and 1 in a segment,
 * region 2 not */
static void setup(struct profile *p, bool keep_b)
{
	static const uint64_t bounds[] = { 0x1000, 0x1100, 0x1200, 0x2000 };
	static const uint8_t in_seg[] = { 1, 1, 0 };
	struct pos_select *ps = pos_select_new();

	profile_init(p);
	profile_event(p, names_intern(&p->names, "Ir", 2));
	pos_select_regions(ps, "prog", bounds, in_seg, 4);
	if (keep_b)
		pos_select_keep(ps, "prog", 4, "b", 1);
	p->pos_select = ps;
	p->pos_detail = POS_SELECT;
}

static void add(struct profile *p, uint32_t f, uint32_t line, uint64_t addr,
		uint64_t cost)
{
	profile_pos_cost(p, profile_pos(p, f, NO_NAME, line, addr))[0] += cost;
}

static void test_counts_distinct_per_block(void **state)
{
	struct profile p;
	uint32_t a, b;
	const struct pos_select *ps;

	(void)state;
	setup(&p, true);
	a = func(&p, "prog", "a");
	b = func(&p, "prog", "b");
	add(&p, a, 0, 0x1010, 1);
	add(&p, a, 0, 0x1014, 1);
	add(&p, a, 0, 0x1014, 0);	/* a call's line: the same again */
	add(&p, a, 0, 0x1018, 1);
	add(&p, a, 0, 0x1010, 1);	/* out of order, seen */
	add(&p, a, 0, 0x100c, 1);	/* out of order, new */
	add(&p, a, 7, 0x1018, 1);	/* the same address, another line */
	add(&p, a, 0, 0x1300, 1);	/* outside the segments */
	add(&p, a, 0, 0x3000, 1);	/* past every bound */
	add(&p, b, 0, 0x1110, 5);
	add(&p, b, 0, 0x1110, 5);
	pos_select_finish(p.pos_select);
	ps = p.pos_select;
	assert_int_equal(ps->count[a], 7);
	assert_int_equal(ps->outside[a], 2);
	assert_int_equal(ps->lo[a], 0x100c);
	assert_int_equal(ps->hi[a], 0x3000);
	assert_false(pos_select_state(ps, a) & PS_KEEP);
	assert_true(pos_select_state(ps, b) & PS_KEEP);
	assert_false(pos_select_state(ps, a) & PS_REOPENED);
	/* b's positions whole (one, its costs added), a's by region:
	 * 0x1000-0x1100 (6), 0x1200-0x2000 (1), none (1) */
	{
		uint64_t r0 = 0, r2 = 0, none = 0, whole = 0;

		for (size_t i = 0; i < p.npos; i++) {
			uint64_t c = profile_pos_cost(&p, (uint32_t)i)[0];

			if (!p.pos[i].region) {
				assert_int_equal(p.pos[i].func, b);
				assert_int_equal(p.pos[i].addr, 0x1110);
				whole += c;
			} else if (p.pos[i].region == 2) {
				r0 += c;
			} else if (p.pos[i].region == 4) {
				r2 += c;
			} else {
				assert_int_equal(p.pos[i].region, 1);
				none += c;
			}
		}
		assert_int_equal(whole, 10);
		assert_int_equal(r0, 6);
		assert_int_equal(r2, 1);
		assert_int_equal(none, 1);
		assert_int_equal(pos_select_region_addr(ps, 4), 0x1200);
	}
	profile_release(&p);
}

static void test_second_block_marks_reopened(void **state)
{
	struct profile p;
	uint32_t a, c;

	(void)state;
	setup(&p, false);
	a = func(&p, "prog", "a");
	c = func(&p, "lib", "c");
	add(&p, a, 0, 0x1010, 1);
	add(&p, c, 0, 0x1010, 1);
	add(&p, a, 0, 0x1010, 1);	/* counted again: it cannot tell */
	pos_select_finish(p.pos_select);
	assert_true(pos_select_state(p.pos_select, a) & PS_REOPENED);
	assert_false(pos_select_state(p.pos_select, c) & PS_REOPENED);
	assert_true(pos_select_state(p.pos_select, a) & PS_IN_OBJECT);
	assert_false(pos_select_state(p.pos_select, c) & PS_IN_OBJECT);
	assert_int_equal(p.pos_select->count[a], 2);
	profile_release(&p);
}

/* A function's second block with its addresses apart from the first's
 * adds its count (the one read of code_positions.c takes it); one with
 * an address in the range before is marked PS_OVERLAP, also when it
 * came out of order (hashed). */
static void test_reopened_apart_or_overlapping(void **state)
{
	struct profile p;
	uint32_t a, b, c, d;
	const struct pos_select *ps;

	(void)state;
	setup(&p, false);
	p.pos_select->stop_when_refused = true;
	a = func(&p, "prog", "a");
	b = func(&p, "prog", "b");
	c = func(&p, "prog", "c");
	d = func(&p, "prog", "d");
	add(&p, a, 0, 0x1010, 1);
	add(&p, a, 0, 0x1020, 1);
	add(&p, b, 0, 0x1110, 1);
	add(&p, b, 0, 0x1120, 1);
	add(&p, c, 0, 0x1500, 1);
	add(&p, a, 0, 0x1030, 1);	/* apart: past the range before */
	add(&p, a, 0, 0x1008, 1);
	assert_false(p.pos_select->gave_up);
	add(&p, b, 0, 0x1130, 1);
	add(&p, b, 0, 0x1100, 1);	/* out of order: hashed */
	add(&p, b, 0, 0x1118, 1);	/* within 0x1110-0x1120 */
	/* b's block, overlapping, ends here: the one read gives up */
	assert_false(p.pos_select->gave_up);
	add(&p, c, 0, 0x1500, 1);	/* the same position again */
	assert_true(p.pos_select->gave_up);
	add(&p, d, 0, 0, 1);		/* no address: apart from all */
	add(&p, a, 0, 0x1040, 1);	/* a third block, past 0x1008-0x1030 */
	add(&p, d, 0, 0x1700, 1);
	pos_select_finish(p.pos_select);
	ps = p.pos_select;
	assert_true(pos_select_state(ps, a) & PS_REOPENED);
	assert_false(pos_select_state(ps, a) & PS_OVERLAP);
	assert_int_equal(ps->count[a], 5);
	assert_true(pos_select_state(ps, b) & PS_OVERLAP);
	assert_true(pos_select_state(ps, c) & PS_OVERLAP);
	assert_true(pos_select_state(ps, d) & PS_REOPENED);
	assert_false(pos_select_state(ps, d) & PS_OVERLAP);
	assert_int_equal(ps->count[d], 1);
	profile_release(&p);
}

/* The one read's guesses: the object by its file name, found on the
 * first function of it (a function of no object before it taken for
 * it, and said), and keep_first asked once per function, at its first
 * position, with its address and whether it is of the object. */
struct asked {
	uint32_t n, f[8];
	uint64_t addr[8];
	bool in[8];
};

static bool keep_odd_addr(void *ctx, const struct profile *p, uint32_t f,
			  uint64_t addr, bool in_object)
{
	struct asked *a = ctx;

	(void)p;
	a->f[a->n] = f;
	a->addr[a->n] = addr;
	a->in[a->n++] = in_object;
	return addr & 1;
}

static void test_object_and_keep_guessed(void **state)
{
	struct profile p;
	uint32_t none, lib, a, b, other;
	struct asked asked = { 0 };
	struct pos_select *ps;

	(void)state;
	setup(&p, false);
	ps = p.pos_select;
	free(ps->object);
	ps->object = NULL;
	pos_select_object_base(ps, "prog");
	ps->stop_when_refused = true;
	ps->keep_first = keep_odd_addr;
	ps->keep_ctx = &asked;
	none = profile_func(&p, NO_NAME, NO_NAME,
			    names_intern(&p.names, "n", 1));
	lib = func(&p, "/lib/libprog.so", "l");
	a = func(&p, "/usr/bin/prog", "a");
	b = func(&p, "/usr/bin/prog", "b");
	other = func(&p, "/opt/prog", "o");	/* the same file name */
	add(&p, none, 0, 0x1010, 1);
	add(&p, lib, 0, 0x1010, 1);
	add(&p, a, 0, 0x1011, 1);
	add(&p, a, 0, 0x1012, 1);
	add(&p, b, 0, 0x1020, 1);
	add(&p, other, 0, 0x1031, 1);
	pos_select_finish(ps);
	assert_string_equal(ps->object, "/usr/bin/prog");
	assert_true(ps->noname_in);
	assert_true(ps->gave_up);	/* "n" was taken for prog's */
	assert_true(pos_select_state(ps, none) & PS_IN_OBJECT);
	assert_false(pos_select_state(ps, lib) & PS_IN_OBJECT);
	assert_true(pos_select_state(ps, a) & PS_IN_OBJECT);
	assert_true(pos_select_state(ps, b) & PS_IN_OBJECT);
	assert_false(pos_select_state(ps, other) & PS_IN_OBJECT);
	assert_int_equal(asked.n, 5);
	assert_int_equal(asked.f[2], a);
	assert_int_equal(asked.addr[2], 0x1011);
	assert_true(asked.in[2]);
	assert_false(asked.in[1]);
	assert_false(asked.in[4]);
	assert_true(pos_select_state(ps, a) & PS_KEEP);
	assert_false(pos_select_state(ps, b) & PS_KEEP);
	assert_true(pos_select_state(ps, other) & PS_KEEP);
	/* a's whole, b's coarse and counted */
	assert_int_equal(ps->count[b], 1);
	profile_release(&p);
}

/* A block past the size of the first tables: in order, then hashed
 * once an address comes back, every position counted once. */
static void test_big_block(void **state)
{
	struct profile p;
	uint32_t a;

	(void)state;
	setup(&p, false);
	a = func(&p, "prog", "a");
	for (uint64_t i = 0; i < 5000; i++)
		add(&p, a, 0, 0x1000 + i, 1);
	add(&p, a, 0, 0xfff, 1);	/* new, out of order: hashed */
	for (uint64_t i = 0; i < 5000; i += 3)
		add(&p, a, 0, 0x1000 + i, 1);
	for (uint64_t i = 5000; i < 6000; i++)
		add(&p, a, 0, 0x1000 + i, 1);
	pos_select_finish(p.pos_select);
	assert_int_equal(p.pos_select->count[a], 6001);
	profile_release(&p);
}

/* The spans the reader's fast path takes lines into at once
 * (pos_select_span()): the region's bounds, the space past the last
 * bound, every address of another object's function, none for a
 * function kept whole; and lines counted there as profile_pos() would
 * count them. */
/* The choosing read by region (no_counts with regions, code_positions.c):
 * each function's cost of the binary's object apart by region, its range
 * kept, nothing counted; another object's by 32 bytes of code, as
 * without regions (the binary's object may turn out to be that one). */
static void test_choosing_by_region(void **state)
{
	struct profile p;
	uint32_t a, b, c;
	uint64_t cost[2][5] = { { 0 } };	/* by function, by region 0..4 */

	(void)state;
	setup(&p, false);
	p.pos_select->no_counts = true;
	a = func(&p, "prog", "a");
	b = func(&p, "prog", "b");
	c = func(&p, "lib", "c");
	add(&p, a, 0, 0x1010, 1);
	add(&p, a, 0, 0x1014, 2);
	add(&p, a, 0, 0x1300, 4);
	add(&p, b, 0, 0x1018, 8);	/* a's region, b's own row */
	add(&p, c, 0, 0x1010, 16);	/* another object: no region */
	add(&p, c, 0, 0x1014, 32);	/* ... its 32 bytes */
	add(&p, b, 0, 0, 64);		/* no address: the object's row */
	pos_select_finish(p.pos_select);
	for (size_t i = 0; i < p.npos; i++) {
		const struct ppos *q = &p.pos[i];

		assert_int_equal(q->addr, q->func == c ? 0x1001 : 0);
		assert_true(q->func == a || q->func == b || q->func == c);
		assert_true(q->region <= 4);
		if (q->func != c && q->region == 1) {
			/* one row of the object's, by its first function
			 * to need one */
			assert_int_equal(profile_pos_cost(&p, (uint32_t)i)[0],
					 64);
			continue;
		}
		cost[q->func == b][q->region] +=
			profile_pos_cost(&p, (uint32_t)i)[0];
	}
	assert_int_equal(cost[0][2], 3);	/* a in region 0 */
	assert_int_equal(cost[0][4], 4);	/* a in region 2 */
	assert_int_equal(cost[1][2], 8);	/* b in region 0 */
	assert_int_equal(cost[0][1], 48);	/* c: one row, no region */
	assert_int_equal(p.pos_select->count[a], 0);
	assert_int_equal(p.pos_select->lo[a], 0x1010);
	assert_int_equal(p.pos_select->hi[a], 0x1300);
	profile_release(&p);
}

static void test_spans(void **state)
{
	struct profile p, q;
	uint32_t a, b, c, qa;
	struct ps_span sp;
	uint32_t pos;
	static const uint64_t run[] = { 0x1014, 0x1018, 0x1018, 0x1020 };

	(void)state;
	setup(&p, true);
	a = func(&p, "prog", "a");
	b = func(&p, "prog", "b");
	c = func(&p, "lib", "c");
	pos = profile_pos(&p, a, NO_NAME, 0, 0x1010);
	pos_select_span(p.pos_select, a, p.pos[pos].region, 0x1010, &sp);
	assert_int_equal(sp.lo, 0x1000);
	assert_int_equal(sp.hi, 0x1100);
	assert_true(sp.count && sp.in_seg);
	pos = profile_pos(&p, a, NO_NAME, 0, 0x1300);
	pos_select_span(p.pos_select, a, p.pos[pos].region, 0x1300, &sp);
	assert_int_equal(sp.lo, 0x1200);
	assert_int_equal(sp.hi, 0x2000);
	assert_false(sp.in_seg);
	pos = profile_pos(&p, a, NO_NAME, 0, 0x3000);
	pos_select_span(p.pos_select, a, p.pos[pos].region, 0x3000, &sp);
	assert_int_equal(sp.lo, 0x2000);
	assert_int_equal(sp.hi, UINT64_MAX);
	pos = profile_pos(&p, c, NO_NAME, 0, 0x1010);
	pos_select_span(p.pos_select, c, p.pos[pos].region, 0x1010, &sp);
	assert_int_equal(sp.lo, 1);
	assert_int_equal(sp.hi, UINT64_MAX);
	assert_false(sp.in_seg);
	pos = profile_pos(&p, b, NO_NAME, 0, 0x1110);
	pos_select_span(p.pos_select, b, p.pos[pos].region, 0x1110, &sp);
	assert_true(sp.lo > sp.hi);	/* whole: no span */
	/* choosing with regions: the region, nothing counted */
	p.pos_select->no_counts = true;
	pos_select_span(p.pos_select, a, 2 + 2, 0x1234, &sp);
	assert_int_equal(sp.lo, 0x1200);
	assert_int_equal(sp.hi, 0x2000);
	assert_false(sp.count);
	profile_release(&p);
	/* choosing without: 32 bytes of code */
	{
		struct pos_select *bare = pos_select_new();

		bare->no_counts = true;
		pos_select_span(bare, a, 1, 0x1234, &sp);
		assert_int_equal(sp.lo, 0x1220);
		assert_int_equal(sp.hi, 0x1240);
		assert_false(sp.count);
		pos_select_free(bare);
	}

	/* a run taken at once counts as the lines one by one */
	setup(&p, false);
	setup(&q, false);
	a = func(&p, "prog", "a");
	qa = func(&q, "prog", "a");
	add(&p, a, 0, 0x1010, 1);
	pos = profile_pos(&q, qa, NO_NAME, 0, 0x1010);
	pos_select_span(q.pos_select, qa, q.pos[pos].region, 0x1010, &sp);
	for (size_t i = 0; i < sizeof(run) / sizeof(*run); i++) {
		add(&p, a, 0, run[i], 1);
		assert_true(run[i] >= sp.lo && run[i] < sp.hi);
		pos_select_count_next(q.pos_select, NO_NAME, 0, run[i],
				      sp.in_seg);
	}
	pos_select_widen(q.pos_select, qa, 0x1014, 0x1020);
	pos_select_finish(p.pos_select);
	pos_select_finish(q.pos_select);
	assert_int_equal(q.pos_select->count[qa], 4);
	assert_int_equal(p.pos_select->count[a], q.pos_select->count[qa]);
	assert_int_equal(p.pos_select->outside[a], q.pos_select->outside[qa]);
	assert_int_equal(p.pos_select->lo[a], q.pos_select->lo[qa]);
	assert_int_equal(p.pos_select->hi[a], q.pos_select->hi[qa]);
	profile_release(&p);
	profile_release(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_distinct_per_block),
		cmocka_unit_test(test_second_block_marks_reopened),
		cmocka_unit_test(test_reopened_apart_or_overlapping),
		cmocka_unit_test(test_object_and_keep_guessed),
		cmocka_unit_test(test_big_block),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_choosing_by_region),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
