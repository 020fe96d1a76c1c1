/*
 * Reading binary formats (gmon.out): a cursor whose every read checks
 * the bounds, so a truncated record is caught in one place.
 */
#ifndef CGA_CURSOR_H
#define CGA_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cursor {
	const unsigned char *start, *p, *end;
	bool big_endian;
};

void cursor_init(struct cursor *c, const void *data, size_t len);
static inline size_t cursor_offset(const struct cursor *c)
{
	return (size_t)(c->p - c->start);
}
static inline size_t cursor_left(const struct cursor *c)
{
	return (size_t)(c->end - c->p);
}
/* Each returns 0, or -1 (nothing consumed) if the input is too short. */
int cursor_bytes(struct cursor *c, void *out, size_t n);
int cursor_u8(struct cursor *c, uint8_t *v);
int cursor_u16(struct cursor *c, uint16_t *v);
int cursor_u32(struct cursor *c, uint32_t *v);
int cursor_u64(struct cursor *c, uint64_t *v);
/* An address of `size` bytes (4 or 8). */
int cursor_addr(struct cursor *c, unsigned size, uint64_t *v);

#endif
