/*
 * The readers' find-or-add tables of functions and call arcs. A table
 * holds only ids (id + 1; 0 is an empty slot) and finds an entry by
 * hashing and comparing the fields of funcs[] or calls[] themselves:
 * 4 bytes a slot, where a map from a 64-bit key to an id takes 16. On a
 * program of 700,000 functions and 2.6 million arcs that is 32 MB of
 * tables instead of 160, and a table grows by building the next size
 * from the array after freeing the last, so the two never coexist.
 * Load is kept under 1/2, with linear probing, and a full table is
 * rebuilt at twice its size (load 1/4 after): a probe that lands on
 * another entry costs a cache miss in funcs[] or calls[], and growing
 * by more would leave 2.6 million arcs in a table of 16 million slots
 * (64 MB, the reading's peak) where 8 million do. The hash has the
 * run's secret in it (hashmap.h), so input cannot choose collisions.
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

/* A table with room for `want` entries at under 1/2 load. */
static uint32_t *new_table(size_t want, size_t *mask)
{
	size_t cap = 64;

	while (cap < 2 * want + 2)
		cap *= 2;
	*mask = cap - 1;
	return xcalloc(cap, sizeof(uint32_t));
}

static void build_funcs(struct profile *p, size_t want)
{
	free(p->func_slots);
	p->func_slots = new_table(want, &p->func_mask);
	for (size_t f = 0; f < p->nfuncs; f++) {
		const struct pfunc *pf = &p->funcs[f];
		size_t j = func_hash(pf->object, pf->file, pf->name) & p->func_mask;

		while (p->func_slots[j])
			j = (j + 1) & p->func_mask;
		p->func_slots[j] = (uint32_t)f + 1;
	}
}

static void build_calls(struct profile *p, size_t want)
{
	free(p->call_slots);
	p->call_slots = new_table(want, &p->call_mask);
	for (size_t c = 0; c < p->ncalls; c++) {
		size_t j = call_hash(p->calls[c].caller, p->calls[c].callee) &
			   p->call_mask;

		while (p->call_slots[j])
			j = (j + 1) & p->call_mask;
		p->call_slots[j] = (uint32_t)c + 1;
	}
}

uint32_t *func_index_slot(struct profile *p, name_id object, name_id file,
			  name_id name)
{
	size_t j;

	/* free the old table first: build_funcs reads only funcs[] */
	if (!p->func_slots || (p->nfuncs + 1) * 2 > p->func_mask + 1) {
		free(p->func_slots);
		p->func_slots = NULL;
		build_funcs(p, p->nfuncs + 1);
	}
	j = func_hash(object, file, name) & p->func_mask;
	for (;; j = (j + 1) & p->func_mask) {
		uint32_t s = p->func_slots[j];
		const struct pfunc *pf;

		if (!s)
			return &p->func_slots[j];
		pf = &p->funcs[s - 1];
		if (pf->name == name && pf->file == file && pf->object == object)
			return &p->func_slots[j];
	}
}

uint32_t *call_index_slot(struct profile *p, uint32_t caller, uint32_t callee)
{
	size_t j;

	if (!p->call_slots || (p->ncalls + 1) * 2 > p->call_mask + 1) {
		free(p->call_slots);
		p->call_slots = NULL;
		build_calls(p, p->ncalls + 1);
	}
	j = call_hash(caller, callee) & p->call_mask;
	for (;; j = (j + 1) & p->call_mask) {
		uint32_t s = p->call_slots[j];

		if (!s || (p->calls[s - 1].caller == caller &&
			   p->calls[s - 1].callee == callee))
			return &p->call_slots[j];
	}
}

void profile_drop_indexes(struct profile *p)
{
	free(p->func_slots);
	free(p->call_slots);
	p->func_slots = p->call_slots = NULL;
	p->func_mask = p->call_mask = 0;
	memset(p->func_cache, 0, sizeof(p->func_cache));
	memset(p->call_cache, 0, sizeof(p->call_cache));
	free(p->func_by_name);
	free(p->call_by_callee);
	p->func_by_name = p->call_by_callee = NULL;
	p->func_by_name_alloc = p->call_by_callee_alloc = 0;
}
