/* The files read through a mapping (mapped_files.h). */
#include "mapped_files.h"

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
	for (size_t i = 0; i < SLOTS; i++)
		if (!slots[i].p) {
			slots[i].len = len;
			slots[i].path = path;
			slots[i].p = p;
			return;
		}
}

void mapped_files_forget(const void *p)
{
	for (size_t i = 0; i < SLOTS; i++)
		if (slots[i].p == p)
			slots[i].p = NULL;
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
