/*
 * Interned strings (see names.h): each name stored once in the arena,
 * found again through a hash map, compared as its name_id.
 */
#include "names.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diag.h"
#include "hashmap.h"

void names_init(struct names *n, struct arena *arena)
{
	memset(n, 0, sizeof(*n));
	n->arena = arena;
}

void names_release(struct names *n)
{
	free(n->entries);
	free(n->table);
	memset(n, 0, sizeof(*n));
}

static void rehash(struct names *n)
{
	size_t cap = n->table ? (n->mask + 1) * 2 : 1024;

	/* built again after names_drop_table(): room for what is there */
	while ((n->nr + 1) * 2 > cap)
		cap *= 2;

	free(n->table);
	n->table = xcalloc(cap, sizeof(*n->table));
	n->mask = cap - 1;
	for (size_t i = 0; i < n->nr; i++) {
		const struct name_entry *e = &n->entries[i];
		size_t j = (uint32_t)hash_bytes(e->str, e->len) & n->mask;

		while (n->table[j])
			j = (j + 1) & n->mask;
		n->table[j] = (uint32_t)i + 1;
	}
}

static size_t probe(const struct names *n, const char *s, size_t len,
		    uint32_t h)
{
	size_t j = h & n->mask;

	for (;;) {
		uint32_t v = n->table[j];
		const struct name_entry *e;

		if (!v)
			return j;
		e = &n->entries[v - 1];
		if (e->len == len && !memcmp(e->str, s, len))
			return j;
		j = (j + 1) & n->mask;
	}
}

void names_drop_table(struct names *n)
{
	free(n->table);
	n->table = NULL;
	n->mask = 0;
}

name_id names_find(const struct names *n, const char *s, size_t len)
{
	size_t j;

	if (!n->table) {
		for (size_t i = 0; i < n->nr; i++)
			if (n->entries[i].len == len &&
			    !memcmp(n->entries[i].str, s, len))
				return (name_id)i;
		return NO_NAME;
	}
	j = probe(n, s, len, (uint32_t)hash_bytes(s, len));
	return n->table[j] ? n->table[j] - 1 : NO_NAME;
}

name_id names_intern(struct names *n, const char *s, size_t len)
{
	uint32_t h = (uint32_t)hash_bytes(s, len);
	struct name_entry *e;
	size_t j;

	if (len > UINT32_MAX)
		BUG("name of %zu bytes", len);
	if (!n->table || (n->nr + 1) * 2 > n->mask + 1)
		rehash(n);
	j = probe(n, s, len, h);
	if (n->table[j])
		return n->table[j] - 1;
	if (n->nr >= NO_NAME - 1)
		BUG("too many names");
	ARRAY_GROW(n->entries, n->nr + 1, n->alloc);
	e = &n->entries[n->nr];
	e->str = arena_strndup(n->arena, s, len);
	e->len = (uint32_t)len;
	n->table[j] = (uint32_t)n->nr + 1;
	return (name_id)n->nr++;
}

const char *names_str(const struct names *n, name_id id)
{
	if (id == NO_NAME)
		return "";
	if (id >= n->nr)
		BUG("name id %u out of range", id);
	return n->entries[id].str;
}

size_t names_len(const struct names *n, name_id id)
{
	if (id == NO_NAME)
		return 0;
	if (id >= n->nr)
		BUG("name id %u out of range", id);
	return n->entries[id].len;
}
