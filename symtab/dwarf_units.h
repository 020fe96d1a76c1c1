/*
 * The units of a file's DWARF that hold given addresses (dwarf_units.c).
 */
#ifndef CGA_DWARF_UNITS_H
#define CGA_DWARF_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libdwarf.h>

#include "base/hashmap.h"

/*
 * The units holding one of want[0..nwant) (sorted), by their CU DIE's
 * offset (value 1), into units; false when the file has no readable
 * .debug_aranges (clang writes none by default). One pass over the
 * ranges, each placed by a binary search: a library has thousands of
 * ranges, a recording thousands of sampled functions.
 */
bool dwarf_units_holding(Dwarf_Debug dbg, const uint64_t *want, size_t nwant,
			 struct u64map *units);

#endif
