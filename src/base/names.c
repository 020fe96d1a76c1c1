/*
 * Interned strings (see names.h): each name stored once in the arena,
 * found again through a hash map, compared as its name_id.
 *
 * A name's bytes are stored after its length and before a NUL, in
 * blocks taken whole from the arena: the length in one byte below 255,
 * else in four before a byte 255. at[id] holds the block's index in the
 * top bits and the bytes' offset in it in the low AT_OFFSET_BITS, so
 * that the name is found from 4 bytes where a pointer and a length took
 * 12 (5 MB of a big program's peak, its 700,000 names of 42 bytes).
 *
 * The map's slots hold id + 1 and, above it, the top bits of the name's
 * hash (the tag), as the profile's tables do (profile_index.c): a probe
 * passing another name compares tags, and reads that name's entry and
 * bytes (two cache misses) only when they match. So the table can fill
 * to 3/4 where it was kept under 1/2: a big program's 670,000 names take
 * 4 MB of it instead of 8 until the profile is read.
 */
#include "names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diag.h"
#include "hashmap.h"
#include "xalloc.h"

void names_init(struct names *n, struct arena *arena)
{
	memset(n, 0, sizeof(*n));
	n->arena = arena;
}

static void free_table(struct names *n)
{
	if (n->table)
		xfree_table(n->table, (n->mask + 1) * sizeof(*n->table));
	n->table = NULL;
}

void names_release(struct names *n)
{
	free(n->at);
	free(n->blocks);
	free_table(n);
	memset(n, 0, sizeof(*n));
}

#define AT_OFFSET_BITS 17
#define MAX_BLOCKS ((size_t)1 << (32 - AT_OFFSET_BITS))
_Static_assert(ARENA_BLOCK_BYTES < (size_t)1 << AT_OFFSET_BITS,
	       "every offset in a block fits below the block's index");

/* The bytes of the name at `at`. */
static const char *bytes_at(const struct names *n, uint32_t at)
{
	return n->blocks[at >> AT_OFFSET_BITS] +
	       (at & (((uint32_t)1 << AT_OFFSET_BITS) - 1));
}

/* The length stored before a name's bytes s. */
static size_t len_before(const char *s)
{
	unsigned char b = (unsigned char)s[-1];
	uint32_t len;

	if (b < 255)
		return b;
	memcpy(&len, s - 5, sizeof(len));
	return len;
}

/* A new block of at least `size` bytes, its index. */
static size_t new_block(struct names *n, size_t size)
{
	/* as running out of memory (xalloc.h): past what a 32-bit id
	 * holds, 4 GiB of names, more than any profile file has */
	if (n->nblocks >= MAX_BLOCKS) {
		fprintf(stderr, "cganalyze: more than %zu MiB of distinct "
			"names\n", MAX_BLOCKS * ARENA_BLOCK_BYTES >> 20);
		abort();
	}
	ARRAY_GROW(n->blocks, n->nblocks + 1, n->blocks_alloc);
	n->blocks[n->nblocks] = arena_alloc(n->arena, size);
	return n->nblocks++;
}

/* s[0..len) stored with its length before and a NUL after: its at. */
static uint32_t store(struct names *n, const char *s, size_t len)
{
	size_t head = len < 255 ? 1 : 5, need = head + len + 1, block;
	char *p;

	if (need > ARENA_BLOCK_BYTES) {
		/* a block of its own; the one being filled goes on */
		block = new_block(n, need);
		p = n->blocks[block];
	} else {
		if (n->block_bytes - n->used < need) {
			/* from ARENA_FIRST_BYTES, doubling (arena.h): a few
			 * names take a small block */
			size_t size = n->block_bytes ? 2 * n->block_bytes
						     : ARENA_FIRST_BYTES;

			if (size > ARENA_BLOCK_BYTES || size < need)
				size = ARENA_BLOCK_BYTES;
			n->cur_block = new_block(n, size);
			n->block_bytes = size;
			n->used = 0;
		}
		block = n->cur_block;
		p = n->blocks[block] + n->used;
		n->used += need;
	}
	if (head == 1) {
		p[0] = (char)len;
	} else {
		uint32_t l = (uint32_t)len;

		memcpy(p, &l, sizeof(l));
		p[4] = (char)255;
	}
	memcpy(p + head, s, len);
	p[head + len] = '\0';
	return (uint32_t)(block << AT_OFFSET_BITS) |
	       (uint32_t)(p + head - n->blocks[block]);
}

/* Is name i s[0..len)? */
static bool is_name(const struct names *n, size_t i, const char *s,
		    size_t len)
{
	const char *b = bytes_at(n, n->at[i]);

	return len_before(b) == len && !memcmp(b, s, len);
}

/* Is the table too full for one more name (over 3/4)? */
static bool full(const struct names *n)
{
	return !n->table || (n->nr + 1) * 4 > (n->mask + 1) * 3;
}

/* The tag of hash h: its top bits, above the id's. */
static uint32_t tag_of(const struct names *n, uint64_t h)
{
	return n->id_bits < 32 ? (uint32_t)(h >> 32) << n->id_bits : 0;
}

static uint32_t id_mask(const struct names *n)
{
	return n->id_bits < 32 ? (UINT32_C(1) << n->id_bits) - 1 : UINT32_MAX;
}

/* The table built again with cap slots (a power of 2, 1024 or more,
 * more than n->nr). */
static void rehash_to(struct names *n, size_t cap)
{
	unsigned bits = 11;	/* id + 1 <= cap: log2(cap) + 1 bits */

	for (size_t c = 1024; c < cap; c *= 2)
		bits++;

	free_table(n);
	n->table = xcalloc_table(cap * sizeof(*n->table));
	n->mask = cap - 1;
	n->id_bits = bits < 32 ? bits : 32;
	for (size_t i = 0; i < n->nr; i++) {
		const char *b = bytes_at(n, n->at[i]);
		uint64_t h = hash_bytes(b, len_before(b));
		size_t j = h & n->mask;

		while (n->table[j])
			j = (j + 1) & n->mask;
		n->table[j] = tag_of(n, h) | ((uint32_t)i + 1);
	}
}

static void rehash(struct names *n)
{
	size_t cap = n->table ? (n->mask + 1) * 2 : 1024;

	/* built again after names_drop_table(): room for what is there */
	while ((n->nr + 1) * 8 > cap * 3)
		cap *= 2;
	rehash_to(n, cap);
}

void names_reserve(struct names *n, size_t more)
{
	size_t cap = 1024;

	/* a table holding more names already is left to grow as it
	 * does: many of these may be there, and growing it early to a
	 * size it would never have needed builds it again (the run's
	 * own table on one thread, where the symbol tables' names go,
	 * took 9.5M instructions more) */
	if (n->nr >= more)
		return;
	/* the table full() would grow to by then: no larger */
	while ((n->nr + more + 1) * 4 > cap * 3)
		cap *= 2;
	if (n->table && cap <= n->mask + 1)
		return;
	rehash_to(n, cap);
}

static size_t probe(const struct names *n, const char *s, size_t len,
		    uint64_t h)
{
	uint32_t tag = tag_of(n, h), idm = id_mask(n);
	size_t j = h & n->mask;

	for (;;) {
		uint32_t v = n->table[j];

		if (!v)
			return j;
		if (!((v ^ tag) & ~idm) && is_name(n, (v & idm) - 1, s, len))
			return j;
		j = (j + 1) & n->mask;
	}
}

/* The name in slot j, which holds one. */
static name_id slot_id(const struct names *n, size_t j)
{
	return (n->table[j] & id_mask(n)) - 1;
}

void names_drop_table(struct names *n)
{
	free_table(n);
	n->mask = 0;
}

name_id names_find(const struct names *n, const char *s, size_t len)
{
	size_t j;

	if (!n->table) {
		for (size_t i = 0; i < n->nr; i++)
			if (is_name(n, i, s, len))
				return (name_id)i;
		return NO_NAME;
	}
	j = probe(n, s, len, hash_bytes(s, len));
	return n->table[j] ? slot_id(n, j) : NO_NAME;
}

static name_id intern_hashed(struct names *n, const char *s, size_t len,
			     uint64_t h)
{
	size_t j;

	if (len > UINT32_MAX)
		BUG("name of %zu bytes", len);
	if (full(n))
		rehash(n);
	j = probe(n, s, len, h);
	if (n->table[j])
		return slot_id(n, j);
	if (n->nr >= NO_NAME - 1)
		BUG("too many names");
	BIG_ARRAY_GROW(n->at, n->nr + 1, n->alloc);
	n->at[n->nr] = store(n, s, len);
	n->table[j] = tag_of(n, h) | ((uint32_t)n->nr + 1);
	return (name_id)n->nr++;
}

name_id names_intern(struct names *n, const char *s, size_t len)
{
	return intern_hashed(n, s, len, hash_bytes(s, len));
}

name_id names_intern_path(struct names *n, const char *dir,
			  const char *subdir, const char *name)
{
	size_t len;
	char *joined;
	name_id id;

	if (!dir) {
		dir = subdir;
		subdir = NULL;
	}
	if (!dir)
		return names_intern(n, name, strlen(name));
	len = strlen(dir) + strlen(name) + (subdir ? strlen(subdir) : 0) + 3;
	joined = xmalloc(len);
	if (subdir)
		snprintf(joined, len, "%s/%s/%s", dir, subdir, name);
	else
		snprintf(joined, len, "%s/%s", dir, name);
	id = names_intern(n, joined, strlen(joined));
	free(joined);
	return id;
}

/* How many names ahead a slot is loaded: enough misses in flight to
 * hide one's latency behind the others' work. */
#define PREFETCH_AHEAD 8

void names_intern_many(struct names *n, const char *buf, const size_t *off,
		       const size_t *len, size_t count, name_id *ids)
{
	uint64_t h[PREFETCH_AHEAD];

	for (size_t i = 0; i < count + PREFETCH_AHEAD; i++) {
		size_t k = i - PREFETCH_AHEAD;
		uint64_t *hi = &h[i % PREFETCH_AHEAD];

		if (i >= PREFETCH_AHEAD)
			ids[k] = intern_hashed(n, buf + off[k], len[k], *hi);
		if (i < count) {
			*hi = hash_bytes(buf + off[i], len[i]);
			if (n->table)
				__builtin_prefetch(&n->table[*hi & n->mask], 1);
		}
	}
}

void names_intern_from(struct names *n, const struct names *from,
		       const bool *skip, name_id *ids)
{
	uint64_t h[PREFETCH_AHEAD];

	/* name i is hashed and its slot loaded while name i - AHEAD,
	 * whose hash is in the same place of h[], is interned first */
	for (size_t i = 0; i < from->nr + PREFETCH_AHEAD; i++) {
		size_t k = i - PREFETCH_AHEAD;
		uint64_t *hi = &h[i % PREFETCH_AHEAD];

		if (i >= PREFETCH_AHEAD && !skip[k]) {
			const char *b = bytes_at(from, from->at[k]);

			ids[k] = intern_hashed(n, b, len_before(b), *hi);
		}
		if (i < from->nr && !skip[i]) {
			const char *b = bytes_at(from, from->at[i]);

			*hi = hash_bytes(b, len_before(b));
			if (n->table)
				__builtin_prefetch(&n->table[*hi & n->mask], 1);
		}
	}
}

const char *names_str(const struct names *n, name_id id)
{
	if (id == NO_NAME)
		return "";
	if (id >= n->nr)
		BUG("name id %u out of range", id);
	return bytes_at(n, n->at[id]);
}

size_t names_len(const struct names *n, name_id id)
{
	if (id == NO_NAME)
		return 0;
	if (id >= n->nr)
		BUG("name id %u out of range", id);
	return len_before(bytes_at(n, n->at[id]));
}
