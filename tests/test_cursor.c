/*
 * base/cursor.h and base/cursor.c: the bounds-checked byte cursor's
 * reads, every width in both byte orders, what a read that does not fit
 * leaves (cut at each width), the LEB128s (longest, overlong, cut at
 * each byte, both ways of taking a number too long) and DWARF's unit
 * lengths.
 */
#include "helpers.h"

#include <string.h>

#include "base/cursor.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

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
	for (size_t i = 0; i < ARRAY_LEN(cursor_cases); i++) {
		const struct cursor_case *cc = &cursor_cases[i];
		unsigned width = cc->size >= 40 ? cc->size / 10 : cc->size;
		struct cursor c;
		uint64_t v = 0xdeadbeef;

		cursor_init(&c, bytes, bytes + sizeof(bytes), cc->big_endian);
		assert_true(cursor_read(&c, cc->size, &v));
		if (v != cc->want)
			fail_msg("size %u %s: got 0x%llx, expected 0x%llx",
				 cc->size, cc->big_endian ? "BE" : "LE",
				 (unsigned long long)v,
				 (unsigned long long)cc->want);
		assert_int_equal((size_t)(c.p - bytes), width);
		assert_int_equal(cursor_left(&c), sizeof(bytes) - width);

		/* one byte short: false, nothing consumed, value untouched */
		cursor_init(&c, bytes, bytes + width - 1, cc->big_endian);
		v = 0xdeadbeef;
		assert_false(cursor_read(&c, cc->size, &v));
		assert_int_equal((size_t)(c.p - bytes), 0);
		assert_int_equal(cursor_left(&c), width - 1);
		if (cc->size == 8 || cc->size >= 40)
			assert_int_equal(v, 0xdeadbeef);
	}
}

/* The integer of the first n of bytes[], as the order says. */
static uint64_t expect(unsigned n, bool big_endian)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)bytes[i] << (8 * (big_endian ? n - 1 - i : i));
	return v;
}

/* cursor_uint() and cursor_le() of every width, both orders, and each
 * cut one byte short; cursor_skip() likewise. */
static void test_uint_widths(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 8; n++) {
		for (int big = 0; big <= 1; big++) {
			struct cursor c;
			uint64_t v = 0xdeadbeef;

			cursor_init(&c, bytes, bytes + n + 1, big);
			assert_true(cursor_uint(&c, n, &v));
			if (v != expect(n, big))
				fail_msg("%u bytes %s: got 0x%llx", n,
					 big ? "BE" : "LE",
					 (unsigned long long)v);
			assert_int_equal((size_t)(c.p - bytes), n);
			assert_int_equal(cursor_left(&c), 1);
			/* little-endian whatever the cursor says */
			cursor_init(&c, bytes, bytes + n, big);
			assert_true(cursor_le(&c, n, &v));
			assert_int_equal(v, expect(n, false));
			assert_int_equal(cursor_left(&c), 0);

			/* a byte short: false, nothing moved, v as it was */
			cursor_init(&c, bytes, bytes + n - 1, big);
			v = 0xdeadbeef;
			assert_false(cursor_uint(&c, n, &v));
			assert_false(cursor_le(&c, n, &v));
			assert_false(cursor_skip(&c, n));
			assert_int_equal(v, 0xdeadbeef);
			assert_int_equal((size_t)(c.p - bytes), 0);
			assert_true(cursor_skip(&c, n - 1));
			assert_int_equal(cursor_left(&c), 0);
		}
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
	cursor_init(&c, bytes, bytes + sizeof(bytes), false);
	assert_true(cursor_u8(&c, &v8));
	assert_int_equal(v8, 0x01);
	assert_true(cursor_u16(&c, &v16));
	assert_int_equal(v16, 0x0302);
	c.big_endian = true;
	assert_true(cursor_u32(&c, &v32));
	assert_int_equal(v32, 0x04050607);
	assert_int_equal((size_t)(c.p - bytes), 7);
	/* 2 left: a u32 fails, the bytes are still there */
	assert_false(cursor_u32(&c, &v32));
	assert_false(cursor_bytes(&c, buf, 3));
	assert_int_equal((size_t)(c.p - bytes), 7);
	assert_true(cursor_bytes(&c, buf, 2));
	assert_memory_equal(buf, bytes + 7, 2);
	assert_int_equal(cursor_left(&c), 0);
	assert_false(cursor_u8(&c, &v8));
	assert_true(cursor_bytes(&c, buf, 0));

	/* an empty buffer */
	cursor_init(&c, bytes, bytes, false);
	assert_false(cursor_u8(&c, &v8));
	assert_int_equal(cursor_left(&c), 0);
}

/* bytes_get() and bytes_le32(): the integers at a pointer */
static void test_fixed(void **state)
{
	static const unsigned char b[] = { 0x01, 0x02, 0x03, 0x04, 0x05 };

	(void)state;
	assert_int_equal(bytes_le32(b + 1), 0x05040302);
	assert_int_equal(bytes_get(b, 3, true), 0x010203);
	assert_int_equal(bytes_get(b, 3, false), 0x030201);
	assert_int_equal(bytes_get(b, 0, false), 0);
	assert_int_equal(bytes_get(b, 0, true), 0);
}

static const struct {
	const char *name;
	unsigned char b[12];
	unsigned len, how;
	bool ok;
	uint64_t v;
	unsigned used;
} leb_cases[] = {
	{ "0", { 0x00 }, 1, 0, true, 0, 1 },
	{ "127", { 0x7f }, 1, 0, true, 127, 1 },
	{ "-1", { 0x7f }, 1, LEB_SIGNED, true, UINT64_MAX, 1 },
	{ "-64", { 0x40 }, 1, LEB_SIGNED, true, (uint64_t)-64, 1 },
	{ "63, signed", { 0x3f }, 1, LEB_SIGNED, true, 63, 1 },
	{ "624485", { 0xe5, 0x8e, 0x26 }, 3, 0, true, 624485, 3 },
	{ "-123456", { 0xc0, 0xbb, 0x78 }, 3, LEB_SIGNED, true,
	  (uint64_t)-123456, 3 },
	{ "128, then more", { 0x80, 0x01, 0x55 }, 3, 0, true, 128, 2 },
	{ "cut", { 0x80, 0x80 }, 2, 0, false, 0, 0 },
	{ "empty", { 0 }, 0, LEB_64, false, 0, 0 },
	/* overlong: padded with 0x80s, as an assembler's fixed-size
	 * fields are; the value is the same */
	{ "0 in 3 bytes", { 0x80, 0x80, 0x00 }, 3, LEB_64, true, 0, 3 },
	{ "127 in 4 bytes", { 0xff, 0x80, 0x80, 0x00 }, 4, 0, true, 127, 4 },
	{ "-1 in 3 bytes", { 0xff, 0xff, 0x7f }, 3, LEB_SIGNED | LEB_64, true,
	  UINT64_MAX, 3 },
	{ "1 in 10 bytes",
	  { 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 },
	  10, LEB_64, true, 1, 10 },
	/* the sign's extension into bit 63 alone */
	{ "-1 in 9 bytes",
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f }, 9,
	  LEB_SIGNED | LEB_64, true, UINT64_MAX, 9 },
	/* the longest: 10 bytes, the last one's bit 0 the 64th bit */
	{ "UINT64_MAX in 10 bytes",
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 },
	  10, LEB_64, true, UINT64_MAX, 10 },
	{ "2^63 in 10 bytes",
	  { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 },
	  10, LEB_64, true, (uint64_t)1 << 63, 10 },
	{ "INT64_MIN in 10 bytes",
	  { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f },
	  10, LEB_SIGNED | LEB_64, true, (uint64_t)1 << 63, 10 },
	/* the 10th byte's bits past the 64th dropped, either way */
	{ "10th byte 0x7f",
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f },
	  10, LEB_64, true, UINT64_MAX, 10 },
	/* 11 bytes: the 64 bits' number with a zero byte after, dropped
	 * by the tolerant reading, an error for LEB_64 */
	{ "11 bytes, tolerant",
	  { 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x00 }, 11, 0, true, 1, 11 },
	{ "11 bytes, LEB_64",
	  { 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x00 }, 11, LEB_64, false, 0, 0 },
	{ "signed, 11 bytes, tolerant",
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x7f }, 11, LEB_SIGNED, true, UINT64_MAX, 11 },
	{ "signed, 11 bytes, LEB_64",
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x7f }, 11, LEB_SIGNED | LEB_64, false, 0, 0 },
	{ "12 bytes, tolerant, cut",
	  { 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	    0x80, 0x80 }, 12, 0, false, 0, 0 },
};

static void test_leb(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(leb_cases); i++) {
		const unsigned char *b = leb_cases[i].b;
		unsigned how = leb_cases[i].how;
		struct cursor c, f, call, t;
		uint64_t v = 0, fv = 0, cv = 0, tv = 0;
		int64_t sv = 0;
		bool ok;

		cursor_init(&c, b, b + leb_cases[i].len, false);
		f = call = t = c;
		ok = cursor_leb(&c, how, &v);
		if (ok != leb_cases[i].ok)
			fail_msg("%s: %d", leb_cases[i].name, ok);
		assert_int_equal(cursor_leb_call(&call, how, &cv), ok);
		/* the tolerant pair, where the case is tolerant */
		if (!(how & LEB_64)) {
			assert_int_equal((how & LEB_SIGNED) ?
					 cursor_sleb(&t, &sv) :
					 cursor_uleb(&t, &tv), ok);
			if (how & LEB_SIGNED)
				tv = (uint64_t)sv;
		}
		if (!ok)
			continue;
		if (v != leb_cases[i].v)
			fail_msg("%s: got 0x%llx", leb_cases[i].name,
				 (unsigned long long)v);
		assert_ptr_equal(c.p, b + leb_cases[i].used);
		assert_int_equal(cv, v);
		assert_ptr_equal(call.p, c.p);
		if (!(how & LEB_64)) {
			assert_int_equal(tv, v);
			assert_ptr_equal(t.p, c.p);
		}
		if (how & LEB_SIGNED)
			continue;
		/* the fast path: inline for a byte, the same answer */
		assert_true(cursor_uleb_fast(&f, how, &fv));
		assert_int_equal(fv, v);
		assert_ptr_equal(f.p, c.p);
	}
}

/* Every number cut short at each of its bytes: false from every LEB128
 * read, however the number would have been taken. */
static void test_leb_cut(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(leb_cases); i++) {
		const unsigned char *b = leb_cases[i].b;
		unsigned how = leb_cases[i].how;

		if (!leb_cases[i].ok)
			continue;
		for (unsigned len = 0; len < leb_cases[i].used; len++) {
			struct cursor c, k, f, t;
			uint64_t v;
			int64_t sv;

			cursor_init(&c, b, b + len, false);
			k = f = t = c;
			if (cursor_leb(&c, how, &v) ||
			    cursor_leb_call(&k, how, &v) ||
			    cursor_uleb_fast(&f, how, &v) ||
			    cursor_uleb(&t, &v) || cursor_sleb(&t, &sv))
				fail_msg("%s cut at %u: read",
					 leb_cases[i].name, len);
		}
	}
}

/* the tolerant pair symtab/ reads with */
static void test_leb_tolerant(void **state)
{
	static const unsigned char b[] = { 0xc0, 0xbb, 0x78, 0x80 };
	struct cursor c;
	uint64_t u;
	int64_t s;

	(void)state;
	cursor_init(&c, b, b + 4, false);
	assert_true(cursor_sleb(&c, &s));
	assert_int_equal(s, -123456);
	assert_false(cursor_uleb(&c, &u));
	cursor_init(&c, b, b + 3, false);
	assert_true(cursor_uleb(&c, &u));
	assert_int_equal(u, 0x1e1dc0);
}

static const struct {
	const char *name;
	unsigned char b[16];
	unsigned len;
	bool big_endian, ok;
	unsigned off_size, unit;	/* the unit's bytes after the length */
} unit_cases[] = {
	{ "32-bit", { 3, 0, 0, 0, 1, 2, 3, 4 }, 8, false, true, 4, 3 },
	{ "32-bit, big", { 0, 0, 0, 4, 1, 2, 3, 4 }, 8, true, true, 4, 4 },
	{ "empty unit", { 0, 0, 0, 0, 1 }, 5, false, true, 4, 0 },
	{ "64-bit", { 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 0, 0, 0, 1, 2,
		      3 }, 15, false, true, 8, 2 },
	{ "64-bit, big", { 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 3,
			   1, 2, 3 }, 15, true, true, 8, 3 },
	{ "past the end", { 5, 0, 0, 0, 1, 2, 3, 4 }, 8, false, false, 4, 0 },
	{ "reserved", { 0xf0, 0xff, 0xff, 0xff, 1 }, 5, false, false, 4, 0 },
	{ "reserved, big", { 0xff, 0xff, 0xff, 0xfe }, 4, true, false, 4, 0 },
	{ "length cut", { 3, 0, 0 }, 3, false, false, 4, 0 },
	{ "64-bit length cut", { 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0 }, 8,
	  false, false, 8, 0 },
	{ "64-bit past the end", { 0xff, 0xff, 0xff, 0xff, 9, 0, 0, 0, 0, 0,
				   0, 0, 1 }, 13, false, false, 8, 0 },
};

static void test_dwarf_unit(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(unit_cases); i++) {
		const unsigned char *b = unit_cases[i].b;
		struct cursor c;
		unsigned off_size = 0;
		bool ok;

		cursor_init(&c, b, b + unit_cases[i].len,
			    unit_cases[i].big_endian);
		ok = cursor_dwarf_unit(&c, &off_size);
		if (ok != unit_cases[i].ok)
			fail_msg("%s: %d", unit_cases[i].name, ok);
		assert_int_equal(off_size, unit_cases[i].off_size);
		if (!ok)
			continue;
		assert_ptr_equal(c.p, b + (off_size == 8 ? 12 : 4));
		assert_int_equal(cursor_left(&c), unit_cases[i].unit);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cursor_readers),
		cmocka_unit_test(test_uint_widths),
		cmocka_unit_test(test_cursor_sequence),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_leb),
		cmocka_unit_test(test_leb_cut),
		cmocka_unit_test(test_leb_tolerant),
		cmocka_unit_test(test_dwarf_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
