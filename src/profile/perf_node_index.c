/*
 * The index of a perf_data's stack nodes, by path hash (see
 * perf_node_index.h). Linear probing, power-of-two capacity, load kept
 * to 3/4.
 */
#include "perf_node_index.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"

#define EMPTY UINT32_MAX

void perf_node_index_init(struct perf_node_index *ix)
{
	memset(ix, 0, sizeof(*ix));
}

void perf_node_index_release(struct perf_node_index *ix)
{
	free(ix->slots);
	free(ix->path_hash);
	perf_node_index_init(ix);
}

/*
 * The slots grown to cap in their own memory (realloc()) and made again
 * from the nodes' keys: a new table beside the old one and the old one
 * freed touched twice the memory, every page of the new one fresh (on
 * this VM, clear_page at 2.5 ms a MiB: the bench recording's index
 * grows to 6 MiB). realloc() grows the block in place when it can;
 * mapped apart it would grow by mremap(), but glibc keeps megabytes
 * free at the heap's top (heap_tune.c), so a block of this size is
 * mostly carved from the heap, and moved by a copy when it cannot grow
 * there (doc/PERFORMANCE.md, session 30, mem30).
 */
static void grow(struct perf_node_index *ix, size_t cap,
		 perf_node_key_fn *key, const void *ctx)
{
	ix->slots = xreallocarray(ix->slots, cap, sizeof(*ix->slots));
	for (size_t i = 0; i < cap; i++)
		ix->slots[i].node = EMPTY;
	ix->mask = cap - 1;
	for (size_t n = 0; n < ix->nr; n++) {
		uint64_t k = key(ctx, (uint32_t)n);
		size_t j = ix->path_hash[n] & ix->mask;

		while (ix->slots[j].node != EMPTY)
			j = (j + 1) & ix->mask;
		ix->slots[j] = (struct perf_node_slot){ (uint32_t)k,
							(uint32_t)(k >> 32),
							(uint32_t)n };
	}
}

void perf_node_index_reserve(struct perf_node_index *ix, size_t n,
			     perf_node_key_fn *key, const void *ctx)
{
	size_t cap = ix->slots ? ix->mask + 1 : 64;

	while ((ix->nr + n) * 4 > cap * 3)
		cap *= 2;
	if (!ix->slots || cap != ix->mask + 1)
		grow(ix, cap, key, ctx);
	ARRAY_GROW(ix->path_hash, ix->nr + n, ix->path_hash_alloc);
}

uint32_t perf_node_index_get_or_put(struct perf_node_index *ix, uint32_t fx,
				    uint32_t parent, uint32_t h,
				    uint32_t node, bool *added)
{
	size_t j = h & ix->mask;

	if (node != ix->nr || (ix->nr + 1) * 4 > (ix->mask + 1) * 3 ||
	    ix->nr + 1 > ix->path_hash_alloc)
		BUG("perf node %u put into an index of %zu without room", node,
		    ix->nr);
	for (;; j = (j + 1) & ix->mask) {
		struct perf_node_slot *s = &ix->slots[j];

		if (s->node == EMPTY)
			break;
		if (s->fx == fx && s->parent == parent) {
			*added = false;
			return s->node;
		}
	}
	ix->slots[j] = (struct perf_node_slot){ fx, parent, node };
	ix->path_hash[node] = h;
	ix->nr++;
	*added = true;
	return node;
}
