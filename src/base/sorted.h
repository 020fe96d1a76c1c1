/*
 * The search every sorted table of addresses makes: how many of its
 * elements start at or below an address, so that the last of them,
 * element (that count - 1), is the one that may hold it (a symbol, a
 * mapping, an instruction), and the caller checks its end.
 */
#ifndef CGA_SORTED_H
#define CGA_SORTED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The elements of v[0, n) (each `size` bytes, sorted by the uint64_t
 * at `off` in each) whose key is at most x. */
static inline size_t sorted_upto(const void *v, size_t n, size_t size,
				 size_t off, uint64_t x)
{
	const unsigned char *b = v;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, b + mid * size + off, sizeof(k));
		if (k <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The elements of the sorted v[0, n) below x: the index of the first
 * at or above it (n: none is). */
static inline size_t sorted_below_u64(const uint64_t *v, size_t n,
				      uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* sorted_upto() of an array of structs by one of their fields, a
 * uint64_t (else a compile error). */
#define SORTED_UPTO(v, n, field, x)                                         \
	((void)sizeof(struct {                                              \
		_Static_assert(sizeof(((__typeof__(*(v)) *)0)->field) ==    \
				       sizeof(uint64_t),                    \
			       "a uint64_t key");                           \
		int unused_;                                                \
	}),                                                                 \
	 sorted_upto((v), (n), sizeof(*(v)),                                \
		     offsetof(__typeof__(*(v)), field), (x)))

#endif
