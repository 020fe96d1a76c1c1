/*
 * The bump allocator (see arena.h): large blocks, a pointer bump per
 * allocation, one release for all.
 */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct arena_block {
	struct arena_block *next;
	alignas(max_align_t) char data[];
};

void arena_init(struct arena *a)
{
	memset(a, 0, sizeof(*a));
}

void arena_release(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
	arena_init(a);
}

/*
 * size bytes at a multiple of align (a power of two, at most
 * max_align_t's, which every block's data has).
 */
static void *carve(struct arena *a, size_t size, size_t align)
{
	uintptr_t at = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
	char *p;

	if (size > SIZE_MAX / 2)
		return xmalloc(SIZE_MAX); /* aborts with a clear message */
	if (!a->cur || at > (uintptr_t)a->end ||
	    (uintptr_t)a->end - at < size) {
		size_t step = a->step ? a->step : ARENA_FIRST_BYTES;
		size_t data = size > step ? size : step;
		struct arena_block *b =
			xmalloc(sizeof(struct arena_block) + data);

		if (size > ARENA_BLOCK_BYTES && a->head) {
			/* A huge object gets its own block behind the head,
			 * so the head's free space is not wasted. */
			b->next = a->head->next;
			a->head->next = b;
			a->total += size;
			return b->data;
		}
		a->step = step < ARENA_BLOCK_BYTES / 2 ? 2 * step
						       : ARENA_BLOCK_BYTES;
		b->next = a->head;
		a->head = b;
		a->end = b->data + data;
		at = (uintptr_t)b->data;
	}
	p = (char *)at;
	a->cur = p + size;
	a->total += size;
	return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
	return carve(a, size, alignof(max_align_t));
}

/*
 * Byte after byte, not at multiples of 16: a big program's 700,000
 * names average 44 bytes with their NULs, and rounding each up wasted
 * 5 MB of its peak.
 */
char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = carve(a, len + 1, 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
