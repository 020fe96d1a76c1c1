/*
 * base/byte_cursor.h's cursor over a section's bytes, for the formats
 * symtab/ reads by hand (dwarf_check.c's headers, the line tables,
 * cfi_funcs.c's .eh_frame), and DWARF's unit lengths.
 */
#ifndef CGA_SYMTAB_BYTES_CUR_H
#define CGA_SYMTAB_BYTES_CUR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/byte_cursor.h"

/* Little-endian or big-endian integer of n bytes at p. */
static inline uint64_t get(const unsigned char *p, unsigned n, bool big)
{
	return bytes_get(p, n, big);
}

/*
 * A DWARF unit's initial length (32-bit, or 0xffffffff and 64-bit):
 * the cursor then ends where the unit does, and *off_size is its
 * offsets' size (4 or 8). False for a reserved length or one past the
 * cursor's end.
 */
static inline bool cur_unit(struct cur *c, unsigned *off_size)
{
	uint64_t len;

	*off_size = 4;
	if (!cur_int(c, 4, &len))
		return false;
	if (len == 0xffffffffu) {
		*off_size = 8;
		if (!cur_int(c, 8, &len))
			return false;
	} else if (len >= 0xfffffff0u) {
		return false;
	}
	if (len > (uint64_t)(c->end - c->p))
		return false;
	c->end = c->p + len;
	return true;
}

#endif
