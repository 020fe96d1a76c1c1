/*
 * A bump allocator: everything a loaded profile needs for its lifetime
 * (interned names, hash-table-free data) comes from one arena and goes
 * away in one arena_release(). Individual allocations are never freed.
 */
#ifndef CGA_ARENA_H
#define CGA_ARENA_H

#include <stddef.h>

struct arena_block;

/*
 * What a block holds. Blocks are large so a name costs a pointer bump,
 * not a malloc, and just under glibc's mmap threshold (128 KiB, which
 * heap_tune() keeps fixed), so they are carved from the heap and its
 * huge pages: a block mapped apart is faulted in 4 KiB at a time, a
 * quarter of the page faults on a profile of long names (see
 * base/heap_tune.h). arena_alloc() of this much takes a block whole.
 */
#define ARENA_BLOCK_BYTES ((size_t)127 * 1024)

struct arena {
	struct arena_block *head;	/* newest block first */
	char *cur, *end;		/* free space in head */
	size_t total;			/* bytes handed out, for reports */
};

void arena_init(struct arena *a);
void arena_release(struct arena *a);

/* Memory for `size` bytes aligned for any type; never NULL. */
void *arena_alloc(struct arena *a, size_t size);

/* A NUL-terminated copy of s[0..len) that lives as long as the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t len);

#endif
