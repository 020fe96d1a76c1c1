/*
 * A bounds-checked cursor over a binary buffer (see cursor.h).
 */
#include "cursor.h"

#include <string.h>

#include "diag.h"

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

int cursor_addr(struct cursor *c, unsigned size, uint64_t *v)
{
	if (size != 4 && size != 8)
		BUG("address size %u", size);
	return cursor_uint(c, size, v);
}
