/*
 * The map from ids to values of idmap.h: open addressing with linear
 * probing in 64 shards, each doubled on its own when it passes 3/4.
 */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "xalloc.h"

/*
 * A shard's slots: from SHARD_MAP_BYTES on mapped apart, not from the
 * heap. A big program's 64 shards each double to 128 KiB and more, and
 * the halves they left in the heap, too small for the blocks names are
 * stored in, were 4 MB of holes at its peak.
 */
#define SHARD_MAP_BYTES ((size_t)64 << 10)

static void free_slots(struct idmap_shard *sh)
{
	if (sh->slots)
		xfree_table_from(sh->slots, ((size_t)sh->mask + 1) *
				 sizeof(*sh->slots), SHARD_MAP_BYTES);
}

void idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void idmap_release(struct idmap *m)
{
	for (int s = 0; s < IDMAP_SHARDS; s++)
		free_slots(&m->shard[s]);
	u64map_release(&m->big);
	idmap_init(m);
}

/* The top bits choose the shard, the low ones the slot in it. */
static unsigned shard_of(uint64_t h)
{
	return (unsigned)(h >> 58);
}

uint32_t idmap_get(const struct idmap *m, uint64_t id)
{
	const struct idmap_shard *sh;
	uint64_t h;
	uint32_t j;

	if (id > UINT32_MAX)
		return u64map_get(&m->big, id);
	h = hash_u64(id);
	sh = &m->shard[shard_of(h)];
	if (!sh->slots)
		return U64MAP_NONE;
	for (j = (uint32_t)h & sh->mask;; j = (j + 1) & sh->mask) {
		const struct idmap_slot *s = &sh->slots[j];

		if (s->value == U64MAP_NONE || s->key == id)
			return s->value;
	}
}

/* Shard sh at twice its size (64 slots at first): the old slots are
 * freed once moved, and are 1/64 of the table. */
static void grow(struct idmap_shard *sh)
{
	uint32_t old_cap = sh->slots ? sh->mask + 1 : 0;
	uint32_t cap = old_cap ? old_cap * 2 : 64;
	struct idmap_slot *old = sh->slots, *now;

	if (!cap)
		BUG("idmap shard of 2^32 slots");
	now = xcalloc_table_from((size_t)cap * sizeof(*now),
				 SHARD_MAP_BYTES);
	for (uint32_t i = 0; i < cap; i++)
		now[i].value = U64MAP_NONE;
	for (uint32_t i = 0; i < old_cap; i++) {
		uint32_t j;

		if (old[i].value == U64MAP_NONE)
			continue;
		j = (uint32_t)hash_u64(old[i].key) & (cap - 1);
		while (now[j].value != U64MAP_NONE)
			j = (j + 1) & (cap - 1);
		now[j] = old[i];
	}
	free_slots(sh);
	sh->slots = now;
	sh->mask = cap - 1;
}

void idmap_put(struct idmap *m, uint64_t id, uint32_t value)
{
	struct idmap_shard *sh;
	uint64_t h;
	uint32_t j;

	if (value == U64MAP_NONE)
		BUG("idmap value U64MAP_NONE is reserved");
	if (id > UINT32_MAX) {
		u64map_put(&m->big, id, value);
		return;
	}
	h = hash_u64(id);
	sh = &m->shard[shard_of(h)];
	if (!sh->slots || ((uint64_t)sh->nr + 1) * 4 > ((uint64_t)sh->mask + 1) * 3)
		grow(sh);
	for (j = (uint32_t)h & sh->mask;; j = (j + 1) & sh->mask) {
		struct idmap_slot *slot = &sh->slots[j];

		if (slot->value == U64MAP_NONE) {
			slot->key = (uint32_t)id;
			slot->value = value;
			sh->nr++;
			return;
		}
		if (slot->key == id) {
			slot->value = value;
			return;
		}
	}
}
