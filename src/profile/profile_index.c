/*
 * The readers' find-or-add tables of functions and call arcs. A table
 * holds only ids and finds an entry by hashing and comparing the fields
 * of funcs[] or calls[] themselves: 4 bytes a slot, where a map from a
 * 64-bit key to an id takes 12 or 16. A slot is id + 1 in its low
 * id_bits (0: empty) and, above them, the top bits of the entry's hash
 * (the tag): a probe that passes another entry compares tags and looks
 * into funcs[] or calls[] (a cache miss) only when they match, about
 * once in 2^tag_bits, so the load can go to 3/4 where untagged it was
 * kept under 1/2. On a program of 700,000 functions and 2.6 million
 * arcs that is 20 MB of tables instead of 40. A table grows by building
 * the next size from the array after freeing the last, so the two never
 * coexist; a full one is rebuilt at twice its size (load 3/8 after).
 * The hash has the run's secret in it (hashmap.h), so input cannot
 * choose collisions.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile.h"
#include "profile_index.h"

static uint64_t func_hash(name_id object, name_id file, name_id name)
{
	return hash_u64(hash_u64((uint64_t)object << 32 | file) ^ name);
}

static uint64_t call_hash(uint32_t caller, uint32_t callee)
{
	return hash_u64((uint64_t)caller << 32 | callee);
}

/* The low bits of h choose the slot, the top ones make the tag. */
static uint32_t tag_of(const struct pindex *ix, uint64_t h)
{
	return ix->id_bits < 32 ? (uint32_t)(h >> 32) << ix->id_bits : 0;
}

/* The bits of a slot that hold id + 1 (the rest: the tag). */
static uint32_t id_mask(const struct pindex *ix)
{
	return ix->id_bits < 32 ? (UINT32_C(1) << ix->id_bits) - 1 : UINT32_MAX;
}

static void free_slots(struct pindex *ix)
{
	if (ix->slots)
		xfree_table(ix->slots, (ix->mask + 1) * sizeof(uint32_t));
	ix->slots = NULL;
}

/* An empty table with room for `want` entries at up to 3/8 load: ids
 * below the capacity, so id + 1 fits in log2(capacity) + 1 bits. */
static void new_table(struct pindex *ix, size_t want)
{
	size_t cap = 64;
	unsigned bits = 7;

	free_slots(ix);
	while (cap * 3 < want * 8) {
		cap *= 2;
		bits++;
	}
	ix->slots = xcalloc_table(cap * sizeof(uint32_t));
	ix->mask = cap - 1;
	ix->id_bits = bits < 32 ? bits : 32;
}

/* Put id (hash h) in a table that does not hold it. */
static void put(struct pindex *ix, uint64_t h, uint32_t id)
{
	size_t j = h & ix->mask;

	while (ix->slots[j])
		j = (j + 1) & ix->mask;
	ix->slots[j] = tag_of(ix, h) | (id + 1);
}

/* Room for one more entry than n: else the next size, built from the
 * array (the old table freed first: building reads only the array). */
static bool full(const struct pindex *ix, size_t n)
{
	return !ix->slots || (n + 1) * 4 > (ix->mask + 1) * 3;
}

uint32_t func_index_find(struct profile *p, name_id object, name_id file,
			 name_id name)
{
	struct pindex *ix = &p->func_index;
	uint64_t h = func_hash(object, file, name);
	uint32_t tag, idm;
	size_t j;

	if (full(ix, p->nfuncs)) {
		new_table(ix, p->nfuncs + 1);
		for (size_t f = 0; f < p->nfuncs; f++) {
			const struct pfunc *pf = &p->funcs[f];

			put(ix, func_hash(pf->object, pf->file, pf->name),
			    (uint32_t)f);
		}
	}
	tag = tag_of(ix, h);
	idm = id_mask(ix);
	for (j = h & ix->mask;; j = (j + 1) & ix->mask) {
		uint32_t s = ix->slots[j];
		const struct pfunc *pf;

		if (!s)
			break;
		if ((s ^ tag) & ~idm)
			continue;	/* another hash: not this one */
		pf = &p->funcs[(s & idm) - 1];
		if (pf->name == name && pf->file == file && pf->object == object)
			return (s & idm) - 1;
	}
	ix->pending = j;
	ix->pending_tag = tag;
	return NO_ID;
}

uint32_t call_index_find(struct profile *p, uint32_t caller, uint32_t callee)
{
	struct pindex *ix = &p->call_index;
	uint64_t h = call_hash(caller, callee);
	uint32_t tag, idm;
	size_t j;

	if (full(ix, p->ncalls)) {
		new_table(ix, p->ncalls + 1);
		for (size_t c = 0; c < p->ncalls; c++)
			put(ix, call_hash(p->calls[c].caller, p->calls[c].callee),
			    (uint32_t)c);
	}
	tag = tag_of(ix, h);
	idm = id_mask(ix);
	for (j = h & ix->mask;; j = (j + 1) & ix->mask) {
		uint32_t s = ix->slots[j];
		const struct pcall *pc;

		if (!s)
			break;
		if ((s ^ tag) & ~idm)
			continue;
		pc = &p->calls[(s & idm) - 1];
		if (pc->caller == caller && pc->callee == callee)
			return (s & idm) - 1;
	}
	ix->pending = j;
	ix->pending_tag = tag;
	return NO_ID;
}

static void prefetch_slot(const struct pindex *ix, uint64_t h)
{
	if (ix->slots)
		__builtin_prefetch(&ix->slots[h & ix->mask], 1);
}

void func_index_prefetch(const struct profile *p, name_id object,
			 name_id file, name_id name)
{
	prefetch_slot(&p->func_index, func_hash(object, file, name));
}

void call_index_prefetch(const struct profile *p, uint32_t caller,
			 uint32_t callee)
{
	prefetch_slot(&p->call_index, call_hash(caller, callee));
}

void pindex_add(struct pindex *ix, uint32_t id)
{
	ix->slots[ix->pending] = ix->pending_tag | (id + 1);
}

void pindex_release(struct pindex *ix)
{
	free_slots(ix);
	memset(ix, 0, sizeof(*ix));
}

void profile_drop_indexes(struct profile *p)
{
	pindex_release(&p->func_index);
	pindex_release(&p->call_index);
	memset(p->func_cache, 0, sizeof(p->func_cache));
	memset(p->call_cache, 0, sizeof(p->call_cache));
}
