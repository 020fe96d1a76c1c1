/*
 * A map from ids to 32-bit values for the tables of a file's own ids
 * (Callgrind's compressed names: a big program's file declares a
 * million, numbered up to 20 times that). Ids below 2^32, all a file
 * of this world has, take 8 bytes a slot where struct u64map takes 12,
 * at up to 3/4 load where it keeps under 1/2; larger ones go to a
 * u64map. The slots are in 64 shards chosen by hash, each grown on its
 * own, so growing never holds the whole table twice: 25 MB of u64map on
 * a 700,000-function profile, with old and new side by side as it grew,
 * become 8 MB.
 */
#ifndef CGA_IDMAP_H
#define CGA_IDMAP_H

#include <stdint.h>

#include "hashmap.h"

#define IDMAP_SHARDS 64

struct idmap_slot {
	uint32_t key;
	uint32_t value;		/* U64MAP_NONE: empty */
};

struct idmap_shard {
	struct idmap_slot *slots;	/* NULL: none yet */
	uint32_t mask, nr;		/* capacity - 1, entries */
};

struct idmap {
	struct idmap_shard shard[IDMAP_SHARDS];
	struct u64map big;		/* ids of 2^32 and more */
};

/* All zero is an empty map, as idmap_init() makes it. */
void idmap_init(struct idmap *m);
void idmap_release(struct idmap *m);

/* The value stored for id, or U64MAP_NONE. */
uint32_t idmap_get(const struct idmap *m, uint64_t id);

/* Store value (not U64MAP_NONE) for id, replacing any before. */
void idmap_put(struct idmap *m, uint64_t id, uint32_t value);

#endif
