/*
 * Reading binary formats (gmon.out): a cursor whose every read checks
 * the bounds, so a truncated record is caught in one place.
 */
#ifndef CGA_CURSOR_H
#define CGA_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cursor {
	const unsigned char *p, *end;
	const unsigned char *start;	/* where cursor_offset() counts from */
	bool big_endian;	/* the words' byte order */
};

/* A cursor over the bytes [p, end), in byte order big_endian. */
static inline struct cursor cursor_over(const void *p, const void *end,
					bool big_endian)
{
	return (struct cursor){ .p = p, .end = end, .start = p,
				.big_endian = big_endian };
}

static inline size_t cursor_offset(const struct cursor *c)
{
	return (size_t)(c->p - c->start);
}
static inline size_t cursor_left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}
/* Each returns true, or false (nothing consumed, *v as it was) if the
 * input is too short. */
bool cursor_bytes(struct cursor *c, void *out, size_t n);
bool cursor_u8(struct cursor *c, uint8_t *v);

/*
 * The reads a perf.data's every record and sample make (a header's u32
 * and two u16s, a sample's ids, times and lengths: 7 million calls on
 * the 1 GB bench recording) are inline: called, they were 13-22
 * instructions each, half of them the call's (issue 33).
 */
/* The words whole, not a byte at a time, swapped when the input's
 * order is not the host's. */
#define CURSOR_HOST_BIG (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

static inline bool cursor_u16(struct cursor *c, uint16_t *v)
{
	uint16_t x;

	if (cursor_left(c) < 2)
		return false;
	memcpy(&x, c->p, 2);
	if (c->big_endian != CURSOR_HOST_BIG)
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
	if (c->big_endian != CURSOR_HOST_BIG)
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
	if (c->big_endian != CURSOR_HOST_BIG)
		x = __builtin_bswap64(x);
	c->p += 8;
	*v = x;
	return true;
}

/* An address of `size` bytes (4 or 8). */
bool cursor_addr(struct cursor *c, unsigned size, uint64_t *v);

#endif
