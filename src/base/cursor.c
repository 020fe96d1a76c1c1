/*
 * A bounds-checked cursor over a binary buffer (see cursor.h).
 */
#include "cursor.h"

#include <string.h>

#include "diag.h"

bool cursor_bytes(struct cursor *c, void *out, size_t n)
{
	if (cursor_left(c) < n)
		return false;
	memcpy(out, c->p, n);
	c->p += n;
	return true;
}

static bool cursor_uint(struct cursor *c, unsigned size, uint64_t *v)
{
	uint64_t x = 0;

	if (cursor_left(c) < size)
		return false;
	for (unsigned i = 0; i < size; i++) {
		unsigned shift = c->big_endian ? 8 * (size - 1 - i) : 8 * i;

		x |= (uint64_t)c->p[i] << shift;
	}
	c->p += size;
	*v = x;
	return true;
}

bool cursor_u8(struct cursor *c, uint8_t *v)
{
	uint64_t x;

	if (!cursor_uint(c, 1, &x))
		return false;
	*v = (uint8_t)x;
	return true;
}

bool cursor_addr(struct cursor *c, unsigned size, uint64_t *v)
{
	if (size != 4 && size != 8)
		BUG("address size %u", size);
	return cursor_uint(c, size, v);
}
