/* Growable arrays: a {ptr, nr, alloc} triple grown in place. */
#ifndef CGA_ARRAY_H
#define CGA_ARRAY_H

#include <stddef.h>
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

#endif
