/*
 * A bounds-checked cursor over a binary buffer (see cursor.h).
 */
#include "cursor.h"

#include <string.h>

#include "base/diag.h"

void cursor_init(struct cursor *c, const void *data, size_t len)
{
	c->start = c->p = data;
	c->end = c->p + len;
	c->big_endian = false;
}

int cursor_bytes(struct cursor *c, void *out, size_t n)
{
	if (cursor_left(c) < n)
		return -1;
	memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

static int cursor_uint(struct cursor *c, unsigned size, uint64_t *v)
{
	uint64_t x = 0;

	if (cursor_left(c) < size)
		return -1;
	for (unsigned i = 0; i < size; i++) {
		unsigned shift = c->big_endian ? 8 * (size - 1 - i) : 8 * i;

		x |= (uint64_t)c->p[i] << shift;
	}
	c->p += size;
	*v = x;
	return 0;
}

int cursor_u8(struct cursor *c, uint8_t *v)
{
	uint64_t x;

	if (cursor_uint(c, 1, &x) < 0)
		return -1;
	*v = (uint8_t)x;
	return 0;
}

int cursor_u16(struct cursor *c, uint16_t *v)
{
	uint64_t x;

	if (cursor_uint(c, 2, &x) < 0)
		return -1;
	*v = (uint16_t)x;
	return 0;
}

/*
 * The 32- and 64-bit words whole, not a byte at a time: perf.data's
 * samples read several each (ids, times, registers), and putting them
 * together byte by byte was 3% of reading a --call-graph dwarf
 * recording (issue 33).
 */
static const bool host_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

int cursor_u32(struct cursor *c, uint32_t *v)
{
	uint32_t x;

	if (cursor_left(c) < 4)
		return -1;
	memcpy(&x, c->p, 4);
	if (c->big_endian != host_big_endian)
		x = __builtin_bswap32(x);
	c->p += 4;
	*v = x;
	return 0;
}

int cursor_u64(struct cursor *c, uint64_t *v)
{
	uint64_t x;

	if (cursor_left(c) < 8)
		return -1;
	memcpy(&x, c->p, 8);
	if (c->big_endian != host_big_endian)
		x = __builtin_bswap64(x);
	c->p += 8;
	*v = x;
	return 0;
}

int cursor_addr(struct cursor *c, unsigned size, uint64_t *v)
{
	if (size != 4 && size != 8)
		BUG("address size %u", size);
	return cursor_uint(c, size, v);
}
