/* The files read through a mapping (mapped_files.h). */
#include "mapped_files.h"

#include <stdbool.h>
#include <stdint.h>

#define SLOTS 8

struct slot {
	const unsigned char *volatile p;
	volatile size_t len;
	const char *volatile path;
};

static struct slot slots[SLOTS];

void mapped_files_note(const void *p, size_t len, const char *path)
{
	for (size_t i = 0; i < SLOTS; i++) {
		const unsigned char *none = NULL;

		/* claimed with its length 0 (the handler matches nothing in
		 * it), then its path, then its length: two threads noting
		 * at once (a profile's reader and the symbol tables' loader)
		 * take two slots */
		if (__atomic_compare_exchange_n((const unsigned char **)&slots[i].p,
						&none, p, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST)) {
			slots[i].path = path;
			__atomic_store_n((size_t *)&slots[i].len, len,
					 __ATOMIC_SEQ_CST);
			return;
		}
	}
}

void mapped_files_forget(const void *p)
{
	for (size_t i = 0; i < SLOTS; i++)
		if (slots[i].p == p) {
			/* its length first: a slot taken again is never
			 * seen with the old one */
			__atomic_store_n((size_t *)&slots[i].len, 0,
					 __ATOMIC_SEQ_CST);
			__atomic_store_n((const unsigned char **)&slots[i].p,
					 NULL, __ATOMIC_SEQ_CST);
		}
}

const char *mapped_files_path_at(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	for (size_t i = 0; i < SLOTS; i++) {
		uintptr_t p = (uintptr_t)slots[i].p;

		if (p && a >= p && a - p < slots[i].len)
			return slots[i].path;
	}
	return NULL;
}
