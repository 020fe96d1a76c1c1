/*
 * The index of a perf_data's stack nodes: (frame, exact, parent) ->
 * node, open-addressed, each node's slot chosen by a hash of its whole
 * path from the root rather than of its key (issue 33).
 *
 * Why the path: a sample's stack is found a node at a time from the
 * outermost frame, each key holding the node found before it, so with
 * the key's hash every probe waits for the one before (a cache miss
 * each: the index of a big recording is megabytes). A path's hash is
 * known from its frames alone, so the slots of all its levels are
 * fetched at once (perf_node_index_prefetch()) and the misses overlap.
 * The key is still compared whole: the hash only says where to look.
 */
#ifndef CGA_PERF_NODE_INDEX_H
#define CGA_PERF_NODE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"

struct perf_node_slot {
	uint32_t fx;		/* frame | exact << 31 */
	uint32_t parent;	/* NO_ID outermost */
	uint32_t node;		/* NO_ID: empty */
};

struct perf_node_index {
	struct perf_node_slot *slots;
	size_t mask;		/* capacity - 1; 0 while slots is NULL */
	size_t nr;
	uint32_t *path_hash;	/* by node: its slot's hash, for growing */
	size_t path_hash_alloc;
};

/* The hash of the path to parent (NO_ID: the root's) and one frame more,
 * fx as in struct perf_node_slot; parent_hash is parent's (any value
 * for NO_ID: the root's is fixed). */
static inline uint32_t perf_node_path_hash(uint32_t parent,
					   uint32_t parent_hash, uint32_t fx)
{
	uint64_t up = parent == UINT32_MAX ? 0x5bd1e995u : parent_hash;

	return (uint32_t)(hash_u64(up << 32 | fx) >> 32);
}

void perf_node_index_init(struct perf_node_index *ix);
void perf_node_index_release(struct perf_node_index *ix);

/* Node's path hash (it must be in the index). */
static inline uint32_t perf_node_index_hash(const struct perf_node_index *ix,
					    uint32_t node)
{
	return ix->path_hash[node];
}

/* Node node's key: fx | (uint64_t)parent << 32. */
typedef uint64_t perf_node_key_fn(const void *ctx, uint32_t node);

/* Make room for n more nodes without growing, so that the slots of
 * hashes computed now stay where they are until then. Growing, the
 * index is made again from its nodes' keys, key(ctx, node). */
void perf_node_index_reserve(struct perf_node_index *ix, size_t n,
			     perf_node_key_fn *key, const void *ctx);

/* Start fetching the slots a key of path hash h is looked for from. */
static inline void perf_node_index_prefetch(const struct perf_node_index *ix,
					    uint32_t h)
{
	__builtin_prefetch(&ix->slots[h & ix->mask]);
}

/*
 * The node of (fx, parent), whose path hash is h; when absent, node
 * (the next node id, which must be nr) is stored and *added set.
 * Room for it must have been reserved.
 */
uint32_t perf_node_index_get_or_put(struct perf_node_index *ix, uint32_t fx,
				    uint32_t parent, uint32_t h,
				    uint32_t node, bool *added);

#endif
