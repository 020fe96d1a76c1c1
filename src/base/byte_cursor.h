/*
 * A cursor over bytes whose every read checks the bounds, for the
 * binary formats read by hand: .eh_frame (base/eh_frame.h, symtab's
 * cfi_funcs.c, perf_fde.c) and DWARF's headers (symtab/bytes_cur.h).
 * A fixed-size read past the end returns false and moves nothing; a
 * LEB128 read that fails leaves the cursor anywhere in the number (its
 * caller gives the entry up).
 */
#ifndef CGA_BASE_BYTE_CURSOR_H
#define CGA_BASE_BYTE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cur {
	const unsigned char *p, *end;
	bool big;		/* cur_int()'s byte order */
};

/* The integer of n bytes (0 to 8) at p, big- or little-endian. (A loop
 * for each order: a read of a known size then unrolls, where one loop
 * of p[big ? i : n - 1 - i] took five instructions a byte.) */
static inline uint64_t bytes_get(const unsigned char *p, unsigned n, bool big)
{
	uint64_t v = 0;

	if (big) {
		for (unsigned i = 0; i < n; i++)
			v = v << 8 | p[i];
	} else {
		for (unsigned i = n; i-- > 0;)
			v = v << 8 | p[i];
	}
	return v;
}

/* The little-endian 4 bytes at p, whatever the host's order. */
static inline uint32_t bytes_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline bool cur_skip(struct cur *c, uint64_t n)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	c->p += n;
	return true;
}

static inline bool cur_u8(struct cur *c, uint8_t *v)
{
	if (c->p >= c->end)
		return false;
	*v = *c->p++;
	return true;
}

/* An integer of n bytes (1 to 8) in the cursor's byte order. */
static inline bool cur_int(struct cur *c, unsigned n, uint64_t *v)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	*v = bytes_get(c->p, n, c->big);
	c->p += n;
	return true;
}

/* An integer of n bytes (1 to 8), little-endian whatever c->big says:
 * for a reader of little-endian files alone (perf_fde.c). */
static inline bool cur_le(struct cur *c, unsigned n, uint64_t *v)
{
	uint64_t x = 0;

	if ((size_t)(c->end - c->p) < n)
		return false;
	for (unsigned i = 0; i < n; i++)
		x |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	*v = x;
	return true;
}

/* cur_leb()'s how, or-ed */
enum {
	LEB_SIGNED = 1,	/* sign-extended from the last byte's bit 6 */
	/* false for a number of more than 10 bytes (64 bits); without it
	 * the bits past the 64th are dropped and the number read on */
	LEB_64 = 2,
};

/*
 * A LEB128 number (DWARF 5 section 7.6) in *v: false when the bytes end
 * inside it (or with LEB_64, at its 11th byte). Which of the two a
 * reader wants on a number too long is its policy: libdw gives up on
 * one, so perf_fde.c's rows, compared with libdw's, must too.
 */
static inline bool cur_leb(struct cur *c, unsigned how, uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (c->p >= c->end)
			return false;
		b = *c->p++;
		if (shift < 64)
			x |= (uint64_t)(b & 0x7f) << shift;
		else if (how & LEB_64)
			return false;
		shift += 7;
	} while (b & 0x80);
	if ((how & LEB_SIGNED) && shift < 64 && (b & 0x40))
		x |= ~(uint64_t)0 << shift;
	*v = x;
	return true;
}

/*
 * cur_leb() as a function of its own, for an inline fast path's rare
 * case: inline it would grow the caller's loop. Static, a copy in each
 * file that calls it: the compiler then sees that it writes only the
 * cursor's p and *v, and keeps the caller's cursor and state in
 * registers across the call, which a function of another file would
 * not let it (perf_fde.c's run_ins(): 2% more instructions).
 */
static __attribute__((noinline, unused)) bool
cur_leb_call(struct cur *c, unsigned how, uint64_t *v)
{
	return cur_leb(c, how, v);
}

/* An unsigned number with one of a byte inline (most of call frame
 * instructions' operands), longer ones by cur_leb_call(). */
static inline bool cur_uleb_fast(struct cur *c, unsigned how, uint64_t *v)
{
	if (c->p < c->end && !(*c->p & 0x80)) {
		*v = *c->p++;
		return true;
	}
	return cur_leb_call(c, how, v);
}

/* Tolerant LEB128s: the bits past the 64th dropped. */
static inline bool cur_uleb(struct cur *c, uint64_t *v)
{
	return cur_leb(c, 0, v);
}

static inline bool cur_sleb(struct cur *c, int64_t *v)
{
	uint64_t x;

	if (!cur_leb(c, LEB_SIGNED, &x))
		return false;
	*v = (int64_t)x;
	return true;
}

#endif
