/*
 * A cursor over a section's bytes whose every read checks the bounds,
 * for the formats symtab/ reads by hand (dwarf_check.c's headers,
 * cfi_funcs.c's .eh_frame): a read past the end returns false and moves
 * nothing.
 */
#ifndef CGA_SYMTAB_BYTES_CUR_H
#define CGA_SYMTAB_BYTES_CUR_H

#include <stdbool.h>
#include <stdint.h>

struct cur {
	const unsigned char *p, *end;
	bool big;
};

/* Little-endian or big-endian integer of n bytes at p. */
static inline uint64_t get(const unsigned char *p, unsigned n, bool big)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[big ? i : n - 1 - i];
	return v;
}

static inline bool cur_skip(struct cur *c, uint64_t n)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	c->p += n;
	return true;
}

/* An integer of n bytes (1 to 8) in the cursor's byte order. */
static inline bool cur_int(struct cur *c, unsigned n, uint64_t *v)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	*v = get(c->p, n, c->big);
	c->p += n;
	return true;
}

static inline bool cur_uleb(struct cur *c, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

static inline bool cur_sleb(struct cur *c, int64_t *v)
{
	uint64_t u = 0;
	unsigned shift = 0;

	while (c->p < c->end) {
		unsigned char b = *c->p++;

		if (shift < 64)
			u |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				u |= ~(uint64_t)0 << shift;
			*v = (int64_t)u;
			return true;
		}
	}
	return false;
}

/*
 * A DWARF unit's initial length (32-bit, or 0xffffffff and 64-bit):
 * the cursor then ends where the unit does, and *off_size is its
 * offsets' size (4 or 8). False for a reserved length or one past the
 * cursor's end.
 */
static inline bool cur_unit(struct cur *c, unsigned *off_size)
{
	uint64_t len;

	*off_size = 4;
	if (!cur_int(c, 4, &len))
		return false;
	if (len == 0xffffffffu) {
		*off_size = 8;
		if (!cur_int(c, 8, &len))
			return false;
	} else if (len >= 0xfffffff0u) {
		return false;
	}
	if (len > (uint64_t)(c->end - c->p))
		return false;
	c->end = c->p + len;
	return true;
}

#endif
