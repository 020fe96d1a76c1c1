/*
 * An open-addressed hash map from 64-bit keys to 32-bit values, for the
 * tables keyed by ids: compressed name ids, (caller, callee) pairs,
 * (object, file, function) triples folded into 64 bits by the caller.
 * Linear probing, power-of-two capacity, load kept under 1/2 (3/4 by
 * u64map_get_or_put_dense()).
 */
#ifndef CGA_HASHMAP_H
#define CGA_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define U64MAP_NONE UINT32_MAX	/* "absent"; never a stored value */

/* 12 bytes, not 16: the tables of a big program's compressed ids hold
 * millions (x86-64 and arm64 load a key across the gap for free) */
struct u64map_slot {
	uint64_t key;
	uint32_t value;		/* U64MAP_NONE marks an empty slot */
} __attribute__((packed, aligned(4)));

struct u64map {
	struct u64map_slot *slots;
	size_t mask;		/* capacity - 1; capacity 0 when slots NULL */
	size_t nr;
};

void u64map_init(struct u64map *m);
void u64map_release(struct u64map *m);

/* The value stored for key, or U64MAP_NONE. */
uint32_t u64map_get(const struct u64map *m, uint64_t key);

/*
 * Store value for key, replacing any previous value. value must not be
 * U64MAP_NONE.
 */
void u64map_put(struct u64map *m, uint64_t key, uint32_t value);

/*
 * Return the value for key; if key is absent, store `value` and return
 * it. *added (may be NULL) tells which happened. One probe sequence for
 * the common "find or insert" of the readers.
 */
uint32_t u64map_get_or_put(struct u64map *m, uint64_t key, uint32_t value,
			   bool *added);

/*
 * The same for a table that may fill to 3/4 before it doubles (a third
 * fewer slots on average; a probe sequence about 2.5 slots long for a
 * key there, 8.5 for one absent), for one looked up behind caches of
 * its answers: a perf recording's frames (perf_data_frame()), 301,120
 * slots for the bench recording's 77,197 frames at 1/2, 3.6 MB at the
 * read's peak. Any map may be grown so; u64map_put() grows at 1/2.
 */
uint32_t u64map_get_or_put_dense(struct u64map *m, uint64_t key,
				 uint32_t value, bool *added);

/*
 * A secret mixed into every hash, random for each run (set before main()
 * starts). Keys come from the input: compressed name ids, line numbers,
 * addresses, names. The mixer below is a bijection anyone can invert, so
 * without the secret a file could choose 100,000 ids that all land in one
 * probe chain and make reading it quadratic (tests/test_hostile.c).
 * Nothing is printed in hash order, so output does not change with it.
 */
extern uint64_t hash_secret;

/* A well-mixed 64-bit hash (splitmix64's finaliser) of x and the secret. */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= hash_secret;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Hash of a byte string (FNV-1a, then mixed). */
uint64_t hash_bytes(const void *p, size_t len);

#endif
