/* Growable arrays: a {ptr, nr, alloc} triple grown in place. */
#ifndef CGA_ARRAY_H
#define CGA_ARRAY_H

#include <stddef.h>
#include "heap_tune.h"
#include "xalloc.h"

/*
 * Make room for at least `want` elements in `ptr`, whose capacity is
 * `alloc`. Grows by half again, so appends are amortised O(1). Aborts
 * on overflow or when memory runs out (xrealloc).
 */
#define ARRAY_GROW(ptr, want, alloc)                                        \
	do {                                                                \
		if ((size_t)(want) > (size_t)(alloc)) {                     \
			size_t new_alloc_ = (size_t)(alloc) / 2 * 3 + 16;   \
			if (new_alloc_ < (size_t)(want))                    \
				new_alloc_ = (size_t)(want);                \
			(ptr) = xreallocarray((ptr), new_alloc_,            \
					      sizeof(*(ptr)));              \
			(alloc) = new_alloc_;                               \
		}                                                           \
	} while (0)

/*
 * ARRAY_GROW for the arrays that grow with a big program: a profile's
 * functions, arcs and their costs, its names. Once an array passes
 * ARRAY_MAP_FROM bytes it takes ARRAY_MAP_BYTES at once, more than the
 * heap ever keeps free at its top, so glibc maps it apart, and from then
 * on grows it with mremap(), without a copy; pages not yet written take
 * no memory. Left to chance, such an array grew in place into the
 * heap's free top, or moved out of the heap and left a hole there, and
 * a 700,000-function profile's peak differed by 10 MB from run to run.
 * Not from 1 MiB: a mapping apart is on small pages up to its first
 * huge page's boundary, and a 135,000-function profile's arrays of 1 to
 * 3 MB took 1,900 more page faults there (0.1 s of 0.35) than in the
 * heap's huge pages. Not for arrays whose new room is cleared at once
 * (a memset of the capacity would write every page).
 */
#define ARRAY_MAP_FROM ((size_t)4 << 20)
#define ARRAY_MAP_BYTES (2 * HEAP_STEP_BYTES)

/* The capacity for `want` elements of `size` bytes, now `alloc`. */
static inline size_t array_capacity(size_t alloc, size_t want, size_t size)
{
	size_t n = alloc / 2 * 3 + 16;

	if (n < want)
		n = want;
	if (size && n >= ARRAY_MAP_FROM / size && n < ARRAY_MAP_BYTES / size)
		n = ARRAY_MAP_BYTES / size;
	return n;
}

#define BIG_ARRAY_GROW(ptr, want, alloc)                                    \
	do {                                                                \
		if ((size_t)(want) > (size_t)(alloc)) {                     \
			size_t new_alloc_ = array_capacity(                 \
				(size_t)(alloc), (size_t)(want),            \
				sizeof(*(ptr)));                            \
			(ptr) = xreallocarray((ptr), new_alloc_,            \
					      sizeof(*(ptr)));              \
			(alloc) = new_alloc_;                               \
		}                                                           \
	} while (0)

#endif
