/*
 * The seek design's block starts (read/callgrind/callgrind_blocks.h),
 * kept as differences in variable-length numbers: what is decoded is
 * what was added, block by block, whatever the differences (a function
 * id going back, counts that do not move, offsets more than 4 GiB
 * apart, the largest numbers each field holds).
 */
#include "helpers.h"

#include <string.h>

#include "read/callgrind/callgrind_blocks.h"

static void check_round_trip(const struct pos_block *in, size_t n)
{
	struct callgrind_blocks bs = { 0 };
	struct pos_block b = { 0 };
	size_t at = 0, i = 0;

	for (size_t k = 0; k < n; k++)
		callgrind_blocks_add(&bs, &in[k]);
	assert_int_equal(bs.n, n);
	while (callgrind_blocks_next(&bs, &at, &b)) {
		assert_true(i < n);
		assert_int_equal(b.func, in[i].func);
		assert_int_equal(b.npos, in[i].npos);
		assert_int_equal(b.ncs, in[i].ncs);
		assert_true(b.off == in[i].off);
		i++;
	}
	assert_int_equal(i, n);
	assert_int_equal(at, bs.len);
	callgrind_blocks_release(&bs);
}

static void test_edges(void **state)
{
	const struct pos_block in[] = {
		{ .func = 0, .npos = 0, .ncs = 0, .off = 0 },
		{ .func = 5, .npos = 1, .ncs = 0, .off = 120 },
		/* a function read before, its second block */
		{ .func = 2, .npos = 1, .ncs = 0, .off = 200 },
		{ .func = UINT32_MAX - 1, .npos = 7, .ncs = 3,
		  .off = (uint64_t)5 << 32 },
		{ .func = 0, .npos = UINT32_MAX, .ncs = UINT32_MAX,
		  .off = UINT64_MAX },
	};

	(void)state;
	check_round_trip(in, sizeof(in) / sizeof(*in));
	check_round_trip(in, 0);
}

static void test_many(void **state)
{
	struct pos_block in[5000];
	uint64_t seed = 1;
	struct pos_block b = { 0 };

	(void)state;
	for (size_t k = 0; k < 5000; k++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		b.func = (uint32_t)(seed >> 40) % 100000;
		b.npos += (uint32_t)(seed >> 20) % 4;
		b.ncs += (uint32_t)(seed >> 10) % 2;
		b.off += (seed >> 50) + 1;
		in[k] = b;
	}
	check_round_trip(in, 5000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
