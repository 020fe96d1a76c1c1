/*
 * The seek design's block starts, as differences (callgrind_blocks.h).
 */
#include "callgrind_blocks.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"

static void put(struct callgrind_blocks *bs, uint64_t v)
{
	ARRAY_GROW(bs->buf, bs->len + 10, bs->alloc);
	while (v >= 0x80) {
		bs->buf[bs->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	bs->buf[bs->len++] = (uint8_t)v;
}

static uint64_t get(const struct callgrind_blocks *bs, size_t *at)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (*at < bs->len && shift < 64) {
		uint8_t c = bs->buf[(*at)++];

		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			break;
		shift += 7;
	}
	return v;
}

void callgrind_blocks_add(struct callgrind_blocks *bs,
			  const struct pos_block *b)
{
	/* functions come mostly new, one past the last: zigzag */
	int64_t df = (int64_t)b->func - (int64_t)bs->last.func;

	put(bs, ((uint64_t)df << 1) ^ (uint64_t)(df >> 63));
	put(bs, b->npos - bs->last.npos);
	put(bs, b->ncs - bs->last.ncs);
	put(bs, b->off - bs->last.off);
	bs->last = *b;
	bs->n++;
}

bool callgrind_blocks_next(const struct callgrind_blocks *bs, size_t *at,
			   struct pos_block *b)
{
	uint64_t z;

	if (*at >= bs->len)
		return false;
	z = get(bs, at);
	b->func = (uint32_t)((int64_t)b->func +
			     ((int64_t)(z >> 1) ^ -(int64_t)(z & 1)));
	b->npos += (uint32_t)get(bs, at);
	b->ncs += (uint32_t)get(bs, at);
	b->off += get(bs, at);
	return true;
}

void callgrind_blocks_release(struct callgrind_blocks *bs)
{
	free(bs->buf);
	memset(bs, 0, sizeof(*bs));
}
