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

/*
 * Blocks are large so a name costs a pointer bump, not a malloc, and
 * just under glibc's mmap threshold (128 KiB, which heap_tune() keeps
 * fixed), so they are carved from the heap and its huge pages: a block
 * mapped apart is faulted in 4 KiB at a time, a quarter of the page
 * faults on a profile of long names (see base/heap_tune.h).
 */
#define ARENA_BLOCK_SIZE (127 * 1024)

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

void *arena_alloc(struct arena *a, size_t size)
{
	const size_t align = alignof(max_align_t);
	size_t rounded;
	char *p;

	if (size > SIZE_MAX - align)
		return xmalloc(SIZE_MAX); /* aborts with a clear message */
	rounded = (size + align - 1) & ~(align - 1);
	if ((size_t)(a->end - a->cur) < rounded || !a->cur) {
		size_t data = rounded > ARENA_BLOCK_SIZE ? rounded
							 : ARENA_BLOCK_SIZE;
		struct arena_block *b =
			xmalloc(sizeof(struct arena_block) + data);

		if (rounded > ARENA_BLOCK_SIZE && a->head) {
			/* A huge object gets its own block behind the head,
			 * so the head's free space is not wasted. */
			b->next = a->head->next;
			a->head->next = b;
			a->total += rounded;
			return b->data;
		}
		b->next = a->head;
		a->head = b;
		a->cur = b->data;
		a->end = b->data + data;
	}
	p = a->cur;
	a->cur += rounded;
	a->total += rounded;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p = arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
