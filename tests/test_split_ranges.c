/*
 * symtab/split_ranges.c: a split unit's addresses (.debug_addr by index)
 * and range lists (DWARF 5 .debug_rnglists.dwo by DW_FORM_rnglistx or
 * offset, DWARF 4 .debug_ranges + DW_AT_GNU_ranges_base), byte layouts
 * written here by hand as DWARF 5 sections 7.25 and 7.27 lay them out;
 * every read past a section or table is refused.
 */
#include "helpers.h"

#include <string.h>

#include "symtab/split_ranges.h"

/* .debug_addr: a header of 8 bytes (DWARF 5 7.27), then 3 addresses */
static const unsigned char addr_sec[] = {
	0x1c, 0, 0, 0, 5, 0, 8, 0,
	0x00, 0x10, 0, 0, 0, 0, 0, 0,	/* 0: 0x1000 */
	0x40, 0x10, 0, 0, 0, 0, 0, 0,	/* 1: 0x1040 */
	0x00, 0x20, 0, 0, 0, 0, 0, 0,	/* 2: 0x2000 */
};

/* one range list table: header, 2 offsets, 2 lists */
static const unsigned char rnglists[] = {
	0x1d, 0, 0, 0,		/* unit_length: the bytes after it */
	5, 0, 8, 0,		/* version 5, address size 8, no segment */
	2, 0, 0, 0,		/* offset_entry_count */
	8, 0, 0, 0,		/* list 0 at +8 */
	17, 0, 0, 0,		/* list 1 at +17 */
	/* list 0: startx_length 0 +0x20, then base_addressx 2,
	 * offset_pair 4..8, end */
	3, 0, 0x20, 1, 2, 4, 4, 8, 0,
	/* list 1: startx_endx 0 1, end */
	2, 0, 1, 0,
};

struct got {
	uint64_t v[8][2];
	size_t n;
};

static void add(void *arg, uint64_t low, uint64_t high)
{
	struct got *g = arg;

	assert_true(g->n < 8);
	g->v[g->n][0] = low;
	g->v[g->n][1] = high;
	g->n++;
}

static struct split_ranges sr_init(void)
{
	struct split_ranges sr;

	memset(&sr, 0, sizeof(sr));
	sr.addr_size = 8;
	sr.addr = addr_sec;
	sr.addr_len = sizeof(addr_sec);
	sr.addr_base = 8;	/* DW_AT_addr_base: after the header */
	sr.rnglists = rnglists;
	sr.rnglists_len = sizeof(rnglists);
	return sr;
}

static void test_addrx(void **state)
{
	struct split_ranges sr = sr_init();
	uint64_t a = 0;

	(void)state;
	assert_true(split_addrx(&sr, 0, &a));
	assert_int_equal(a, 0x1000);
	assert_true(split_addrx(&sr, 2, &a));
	assert_int_equal(a, 0x2000);
	assert_false(split_addrx(&sr, 3, &a));
	assert_false(split_addrx(&sr, UINT64_MAX / 4, &a));
	assert_false(split_addrx(&sr, UINT64_MAX, &a));
	sr.addr_base = UINT64_MAX - 4;	/* wraps */
	assert_false(split_addrx(&sr, 1, &a));
	sr.addr_base = 8;
	sr.addr_size = 3;
	assert_false(split_addrx(&sr, 0, &a));
	sr.addr_size = 8;
	sr.addr = NULL;
	assert_false(split_addrx(&sr, 0, &a));
}

static void test_rnglistx(void **state)
{
	struct split_ranges sr = sr_init();
	struct got g = { .n = 0 };

	(void)state;
	assert_int_equal(split_rnglist(&sr, true, 0, 0, add, &g), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.v[0][0], 0x1000);
	assert_int_equal(g.v[0][1], 0x1020);
	assert_int_equal(g.v[1][0], 0x2004);	/* base addressx 2 */
	assert_int_equal(g.v[1][1], 0x2008);
	g.n = 0;
	assert_int_equal(split_rnglist(&sr, true, 1, 0, add, &g), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.v[0][0], 0x1000);
	assert_int_equal(g.v[0][1], 0x1040);
	/* the same list by offset (DW_FORM_sec_offset) */
	g.n = 0;
	assert_int_equal(split_rnglist(&sr, false, 12 + 17, 0, add, &g), 0);
	assert_int_equal(g.n, 1);
	/* no index 2; offsets past the section; no table */
	assert_int_equal(split_rnglist(&sr, true, 2, 0, add, &g), -1);
	assert_int_equal(split_rnglist(&sr, true, UINT64_MAX, 0, add, &g), -1);
	assert_int_equal(split_rnglist(&sr, false, sizeof(rnglists), 0, add,
				       &g), -1);
	sr.rnglists = NULL;
	assert_int_equal(split_rnglist(&sr, true, 0, 0, add, &g), -1);
}

/* Every cut of the table before a list's end refuses the list. */
static void test_rnglist_cut(void **state)
{
	struct split_ranges sr = sr_init();

	(void)state;
	for (size_t len = 0; len < sizeof(rnglists); len++) {
		struct got g = { .n = 0 };

		sr.rnglists_len = len;
		/* list 0 ends at byte 28, list 1 at 32 */
		assert_int_equal(split_rnglist(&sr, true, 0, 0, add, &g),
				 len > 28 ? 0 : -1);
		g.n = 0;
		assert_int_equal(split_rnglist(&sr, true, 1, 0, add, &g), -1);
	}
	/* no table at all, whatever its length says */
	sr.rnglists = NULL;
	assert_int_equal(split_rnglist(&sr, true, 0, 0, NULL, NULL), -1);
	assert_int_equal(split_rnglist(&sr, false, 0, 0, NULL, NULL), -1);
}

static void test_unknown_kind(void **state)
{
	static const unsigned char bad[] = {
		0x0a, 0, 0, 0, 5, 0, 8, 0, 1, 0, 0, 0, 4, 0, 0, 0, 9, 0,
	};
	struct split_ranges sr = sr_init();
	struct got g = { .n = 0 };

	(void)state;
	sr.rnglists = bad;
	sr.rnglists_len = sizeof(bad);
	assert_int_equal(split_rnglist(&sr, true, 0, 0, add, &g), -1);
	/* an offset count the table cannot hold */
	sr.rnglists_len = 14;
	assert_int_equal(split_rnglist(&sr, true, 0, 0, add, &g), -1);
}

/* DWARF 4: pairs from the unit's base, a base selection, the end. */
static void test_ranges4(void **state)
{
	static const unsigned char ranges[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* junk */
		0x10, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0x30, 0, 0, 0, 0, 0, 0,	/* base 0x3000 */
		1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct split_ranges sr = sr_init();
	struct got g = { .n = 0 };

	(void)state;
	sr.ranges = ranges;
	sr.ranges_len = sizeof(ranges);
	sr.ranges_base = 8;
	assert_int_equal(split_ranges4(&sr, 0, 0x1000, add, &g), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.v[0][0], 0x1010);
	assert_int_equal(g.v[0][1], 0x1020);
	assert_int_equal(g.v[1][0], 0x3001);
	assert_int_equal(g.v[1][1], 0x3002);
	/* no end before the section ends; past it; base wrapping */
	sr.ranges_len = sizeof(ranges) - 1;
	assert_int_equal(split_ranges4(&sr, 0, 0, add, &g), -1);
	sr.ranges_len = sizeof(ranges);
	assert_int_equal(split_ranges4(&sr, sizeof(ranges), 0, add, &g), -1);
	assert_int_equal(split_ranges4(&sr, UINT64_MAX - 2, 0, add, &g), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addrx),
		cmocka_unit_test(test_rnglistx),
		cmocka_unit_test(test_rnglist_cut),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_ranges4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
