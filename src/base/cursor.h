/*
 * A cursor over bytes whose every read checks the bounds, so a
 * truncated record is caught in one place: for the binary formats read
 * by hand, gmon.out (read_gmon.c), perf.data (read/perf/), .eh_frame
 * (eh_frame.h, symtab's cfi_funcs.c, perf_fde.c) and DWARF's headers,
 * line tables and range lists (symtab/).
 *
 * Every read returns true, or false when the bytes end inside what it
 * reads. A read of a fixed size (cursor_u8() to cursor_u64(),
 * cursor_uint(), cursor_le(), cursor_addr(), cursor_bytes(),
 * cursor_skip()) then moves nothing and leaves *v as it was; a LEB128
 * read leaves the cursor anywhere in the number (its caller gives the
 * entry up).
 */
#ifndef CGA_BASE_CURSOR_H
#define CGA_BASE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* (No start: an offset in the input is its reader's to count, from
 * where it began the cursor. Stored in every cursor, it cost the
 * .eh_frame rows' run_ins() and perf_fde_row() 0.4% more instructions.) */
struct cursor {
	const unsigned char *p, *end;
	bool big_endian;	/* the words' and cursor_uint()'s byte order */
};

/* c, a cursor over the bytes [p, end) in byte order big_endian. (Filled
 * through a pointer: an inline function that returned the struct made
 * gcc lay cfi_funcs_read()'s walk out otherwise, 1.5% more
 * instructions.) */
static inline void cursor_init(struct cursor *c, const void *p,
			       const void *end, bool big_endian)
{
	c->p = p;
	c->end = end;
	c->big_endian = big_endian;
}

static inline size_t cursor_left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}

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

static inline bool cursor_skip(struct cursor *c, uint64_t n)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	c->p += n;
	return true;
}

/* The n bytes copied to out. */
bool cursor_bytes(struct cursor *c, void *out, size_t n);

static inline bool cursor_u8(struct cursor *c, uint8_t *v)
{
	if (c->p >= c->end)
		return false;
	*v = *c->p++;
	return true;
}

/*
 * The words whole, not a byte at a time, swapped when the input's order
 * is not the host's (the rarer case: the branch of the host's order is
 * the one laid out straight). Inline: perf.data's every record and
 * sample reads them (a header's u32 and two u16s, a sample's ids, times
 * and lengths: 7 million calls on the 1 GB bench recording), and
 * called, they were 13-22 instructions each, half of them the call's
 * (issue 33).
 */
#define CURSOR_HOST_BIG (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define CURSOR_SWAP(c) __builtin_expect((c)->big_endian != CURSOR_HOST_BIG, 0)

static inline bool cursor_u16(struct cursor *c, uint16_t *v)
{
	uint16_t x;

	if (cursor_left(c) < 2)
		return false;
	memcpy(&x, c->p, 2);
	if (CURSOR_SWAP(c))
		x = __builtin_bswap16(x);
	c->p += 2;
	*v = x;
	return true;
}

static inline bool cursor_u32(struct cursor *c, uint32_t *v)
{
	uint32_t x;

	if (cursor_left(c) < 4)
		return false;
	memcpy(&x, c->p, 4);
	if (CURSOR_SWAP(c))
		x = __builtin_bswap32(x);
	c->p += 4;
	*v = x;
	return true;
}

static inline bool cursor_u64(struct cursor *c, uint64_t *v)
{
	uint64_t x;

	if (cursor_left(c) < 8)
		return false;
	memcpy(&x, c->p, 8);
	if (CURSOR_SWAP(c))
		x = __builtin_bswap64(x);
	c->p += 8;
	*v = x;
	return true;
}

/* An integer of n bytes (1 to 8) in the cursor's byte order: for sizes
 * known only from the input (an address's, a DWARF offset's, a pointer
 * encoding's). */
static inline bool cursor_uint(struct cursor *c, unsigned n, uint64_t *v)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	*v = bytes_get(c->p, n, c->big_endian);
	c->p += n;
	return true;
}

/* An address of `size` bytes (4 or 8; another size is our bug). */
bool cursor_addr(struct cursor *c, unsigned size, uint64_t *v);

/* An integer of n bytes (1 to 8), little-endian whatever c->big_endian
 * says: for a reader of little-endian files alone (perf_fde.c). */
static inline bool cursor_le(struct cursor *c, unsigned n, uint64_t *v)
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

/*
 * A DWARF unit's initial length (32-bit, or 0xffffffff and 64-bit): the
 * cursor then ends where the unit does, and *off_size is its offsets'
 * size (4 or 8). False for a reserved length or one past the cursor's
 * end.
 */
static inline bool cursor_dwarf_unit(struct cursor *c, unsigned *off_size)
{
	uint64_t len;

	*off_size = 4;
	if (!cursor_uint(c, 4, &len))
		return false;
	if (len == 0xffffffffu) {
		*off_size = 8;
		if (!cursor_uint(c, 8, &len))
			return false;
	} else if (len >= 0xfffffff0u) {
		return false;
	}
	if (len > (uint64_t)(c->end - c->p))
		return false;
	c->end = c->p + len;
	return true;
}

/* cursor_leb()'s how, or-ed */
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
static inline bool cursor_leb(struct cursor *c, unsigned how, uint64_t *v)
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
 * cursor_leb() as a function of its own, for an inline fast path's rare
 * case: inline it would grow the caller's loop. Static, a copy in each
 * file that calls it: the compiler then sees that it writes only the
 * cursor's p and *v, and keeps the caller's cursor and state in
 * registers across the call, which a function of another file would
 * not let it (perf_fde.c's run_ins(): 2% more instructions).
 */
static __attribute__((noinline, unused)) bool
cursor_leb_call(struct cursor *c, unsigned how, uint64_t *v)
{
	return cursor_leb(c, how, v);
}

/* An unsigned number with one of a byte inline (most of call frame
 * instructions' operands), longer ones by cursor_leb_call(). */
static inline bool cursor_uleb_fast(struct cursor *c, unsigned how,
				    uint64_t *v)
{
	if (c->p < c->end && !(*c->p & 0x80)) {
		*v = *c->p++;
		return true;
	}
	return cursor_leb_call(c, how, v);
}

/* Tolerant LEB128s: the bits past the 64th dropped. */
static inline bool cursor_uleb(struct cursor *c, uint64_t *v)
{
	return cursor_leb(c, 0, v);
}

static inline bool cursor_sleb(struct cursor *c, int64_t *v)
{
	uint64_t x;

	if (!cursor_leb(c, LEB_SIGNED, &x))
		return false;
	*v = (int64_t)x;
	return true;
}

#endif
