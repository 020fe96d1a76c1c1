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

/*
 * An arena's first block: 4 KiB, each next one twice the last, up to
 * ARENA_BLOCK_BYTES. A perf recording's symbol tables are loaded with
 * names of their own (resolve/perf_preload.c), most of them a few KiB
 * of names: whole blocks, the bench recording's 42 tables took 10.4 MB
 * of which 4.8 were never written, and in a heap on huge pages a
 * block's unwritten end is faulted in with its neighbours all the
 * same (2.5 ms a MiB on the VM we measure on).
 */
#define ARENA_FIRST_BYTES ((size_t)4 * 1024)

struct arena {
	struct arena_block *head;	/* newest block first */
	char *cur, *end;		/* free space in head */
	size_t total;			/* bytes handed out, for reports */
	size_t step;			/* the next block's size (0: the
					 * first's) */
};

void arena_init(struct arena *a);
void arena_release(struct arena *a);

/* Memory for `size` bytes aligned for any type; never NULL. */
void *arena_alloc(struct arena *a, size_t size);

/* A NUL-terminated copy of s[0..len) that lives as long as the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t len);

#endif
