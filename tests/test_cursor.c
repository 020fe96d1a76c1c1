/*
 * base/cursor.h and base/cursor.c: the bounds-checked byte cursor's
 * reads, in both byte orders, and what a read that does not fit leaves.
 */
#include "helpers.h"

#include <string.h>

#include "base/cursor.h"

static const unsigned char bytes[] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09
};

static const struct cursor_case {
	unsigned size;		/* 1, 2, 4, 8; 40 and 80: cursor_addr */
	bool big_endian;
	uint64_t want;
} cursor_cases[] = {
	{ 1, false, 0x01 },
	{ 1, true, 0x01 },
	{ 2, false, 0x0201 },
	{ 2, true, 0x0102 },
	{ 4, false, 0x04030201 },
	{ 4, true, 0x01020304 },
	{ 8, false, 0x0807060504030201ULL },
	{ 8, true, 0x0102030405060708ULL },
	{ 40, false, 0x04030201 },
	{ 40, true, 0x01020304 },
	{ 80, false, 0x0807060504030201ULL },
	{ 80, true, 0x0102030405060708ULL },
};

/* The read of cc->size; *v is 0xee... where a narrower one left its
 * value untouched. */
static bool cursor_read(struct cursor *c, unsigned size, uint64_t *v)
{
	uint8_t v8 = 0xee;
	uint16_t v16 = 0xeeee;
	uint32_t v32 = 0xeeeeeeee;
	bool r;

	switch (size) {
	case 1:
		r = cursor_u8(c, &v8);
		*v = v8;
		return r;
	case 2:
		r = cursor_u16(c, &v16);
		*v = v16;
		return r;
	case 4:
		r = cursor_u32(c, &v32);
		*v = v32;
		return r;
	case 8:
		return cursor_u64(c, v);
	case 40:
		return cursor_addr(c, 4, v);
	case 80:
		return cursor_addr(c, 8, v);
	default:
		fail_msg("size %u", size);
		return false;
	}
}

static void test_cursor_readers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cursor_cases) / sizeof(cursor_cases[0]); i++) {
		const struct cursor_case *cc = &cursor_cases[i];
		unsigned width = cc->size >= 40 ? cc->size / 10 : cc->size;
		struct cursor c;
		uint64_t v = 0xdeadbeef;

		c = cursor_over(bytes, bytes + sizeof(bytes), cc->big_endian);
		assert_true(cursor_read(&c, cc->size, &v));
		if (v != cc->want)
			fail_msg("size %u %s: got 0x%llx, expected 0x%llx",
				 cc->size, cc->big_endian ? "BE" : "LE",
				 (unsigned long long)v,
				 (unsigned long long)cc->want);
		assert_int_equal(cursor_offset(&c), width);
		assert_int_equal(cursor_left(&c), sizeof(bytes) - width);

		/* one byte short: false, nothing consumed, value untouched */
		c = cursor_over(bytes, bytes + width - 1, cc->big_endian);
		v = 0xdeadbeef;
		assert_false(cursor_read(&c, cc->size, &v));
		assert_int_equal(cursor_offset(&c), 0);
		assert_int_equal(cursor_left(&c), width - 1);
		if (cc->size == 8 || cc->size >= 40)
			assert_int_equal(v, 0xdeadbeef);
	}
}

static void test_cursor_sequence(void **state)
{
	struct cursor c;
	unsigned char buf[4];
	uint32_t v32;
	uint16_t v16;
	uint8_t v8;

	(void)state;
	c = cursor_over(bytes, bytes + sizeof(bytes), false);
	assert_true(cursor_u8(&c, &v8));
	assert_int_equal(v8, 0x01);
	assert_true(cursor_u16(&c, &v16));
	assert_int_equal(v16, 0x0302);
	c.big_endian = true;
	assert_true(cursor_u32(&c, &v32));
	assert_int_equal(v32, 0x04050607);
	assert_int_equal(cursor_offset(&c), 7);
	/* 2 left: a u32 fails, the bytes are still there */
	assert_false(cursor_u32(&c, &v32));
	assert_false(cursor_bytes(&c, buf, 3));
	assert_int_equal(cursor_offset(&c), 7);
	assert_true(cursor_bytes(&c, buf, 2));
	assert_memory_equal(buf, bytes + 7, 2);
	assert_int_equal(cursor_left(&c), 0);
	assert_false(cursor_u8(&c, &v8));
	assert_true(cursor_bytes(&c, buf, 0));

	/* an empty buffer */
	c = cursor_over(bytes, bytes, false);
	assert_false(cursor_u8(&c, &v8));
	assert_int_equal(cursor_left(&c), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor_readers),
		cmocka_unit_test(test_cursor_sequence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
