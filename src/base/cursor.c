/*
 * The bounds-checked byte cursor's reads that are not inline (see
 * cursor.h).
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

bool cursor_addr(struct cursor *c, unsigned size, uint64_t *v)
{
	if (size != 4 && size != 8)
		BUG("address size %u", size);
	return cursor_uint(c, size, v);
}
