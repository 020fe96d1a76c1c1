/*
 * The open-addressed hash maps from 64-bit keys (see hashmap.h), and
 * the hash secret that keeps hostile input from choosing collisions.
 */
#include "hashmap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "xalloc.h"

uint64_t hash_secret;

/* Before main(): every table is built with the same secret. */
__attribute__((constructor)) static void init_hash_secret(void)
{
	struct timespec ts;

	if (getrandom(&hash_secret, sizeof(hash_secret), GRND_NONBLOCK) ==
	    (ssize_t)sizeof(hash_secret))
		return;
	/* no entropy yet (early boot): less secret, still not fixed */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	hash_secret = (uint64_t)ts.tv_nsec << 32 ^ (uint64_t)ts.tv_sec ^
		      (uint64_t)getpid() << 48 ^ (uint64_t)(uintptr_t)&ts;
}

void u64map_init(struct u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void u64map_release(struct u64map *m)
{
	free(m->slots);
	u64map_init(m);
}

static struct u64map_slot *alloc_slots(size_t cap)
{
	struct u64map_slot *s = xreallocarray(NULL, cap, sizeof(*s));

	for (size_t i = 0; i < cap; i++)
		s[i].value = U64MAP_NONE;
	return s;
}

static void grow(struct u64map *m)
{
	size_t old_cap = m->slots ? m->mask + 1 : 0;
	size_t cap = old_cap ? old_cap * 2 : 64;
	struct u64map_slot *old = m->slots;

	m->slots = alloc_slots(cap);
	m->mask = cap - 1;
	for (size_t i = 0; i < old_cap; i++) {
		size_t j;

		if (old[i].value == U64MAP_NONE)
			continue;
		j = hash_u64(old[i].key) & m->mask;
		while (m->slots[j].value != U64MAP_NONE)
			j = (j + 1) & m->mask;
		m->slots[j] = old[i];
	}
	free(old);
}

uint32_t u64map_get(const struct u64map *m, uint64_t key)
{
	size_t j;

	if (!m->slots)
		return U64MAP_NONE;
	j = hash_u64(key) & m->mask;
	for (;;) {
		const struct u64map_slot *s = &m->slots[j];

		if (s->value == U64MAP_NONE || s->key == key)
			return s->value;
		j = (j + 1) & m->mask;
	}
}

/* u64map_get_or_put(), the table grown past half full, or (dense)
 * three quarters */
static inline uint32_t get_or_put(struct u64map *m, uint64_t key,
				  uint32_t value, bool *added, bool dense)
{
	size_t j;

	if (value == U64MAP_NONE)
		BUG("u64map value U64MAP_NONE is reserved");
	if (!m->slots || (dense ? (m->nr + 1) * 4 > (m->mask + 1) * 3
				: (m->nr + 1) * 2 > m->mask + 1))
		grow(m);
	j = hash_u64(key) & m->mask;
	for (;;) {
		struct u64map_slot *s = &m->slots[j];

		if (s->value == U64MAP_NONE) {
			s->key = key;
			s->value = value;
			m->nr++;
			if (added)
				*added = true;
			return value;
		}
		if (s->key == key) {
			if (added)
				*added = false;
			return s->value;
		}
		j = (j + 1) & m->mask;
	}
}

uint32_t u64map_get_or_put(struct u64map *m, uint64_t key, uint32_t value,
			   bool *added)
{
	return get_or_put(m, key, value, added, false);
}

uint32_t u64map_get_or_put_dense(struct u64map *m, uint64_t key,
				 uint32_t value, bool *added)
{
	return get_or_put(m, key, value, added, true);
}

void u64map_put(struct u64map *m, uint64_t key, uint32_t value)
{
	bool added;
	size_t j;

	u64map_get_or_put(m, key, value, &added);
	if (added)
		return;
	j = hash_u64(key) & m->mask;
	while (m->slots[j].key != key)
		j = (j + 1) & m->mask;
	m->slots[j].value = value;
}

uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	/*
	 * Eight bytes a step, each step a multiply: names of 164 bytes
	 * (valgrind --separate-callers=3) took a thousand instructions a
	 * byte at a time. From a secret start, so which names collide
	 * depends on it; hash_u64() mixes the end.
	 */
	uint64_t h = 0xcbf29ce484222325ULL ^ hash_secret, w;

	for (; len - (size_t)(s - (const unsigned char *)p) >= 8; s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len - (size_t)(s - (const unsigned char *)p));
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return hash_u64(h ^ len);
}
