/*
 * The addresses and range lists of a split unit (-gsplit-dwarf), read
 * from the bytes of the binary's and the split file's sections
 * (split_ranges.c). Every read is bounds-checked: a false or -1 answer
 * is corrupt input.
 */
#ifndef CGA_SPLIT_RANGES_H
#define CGA_SPLIT_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct split_ranges {
	bool big;
	unsigned addr_size;
	const unsigned char *addr;	/* the binary's .debug_addr */
	size_t addr_len;
	uint64_t addr_base;	/* the skeleton's DW_AT_(GNU_)addr_base */
	const unsigned char *ranges;	/* the binary's .debug_ranges */
	size_t ranges_len;
	uint64_t ranges_base;	/* the skeleton's DW_AT_GNU_ranges_base */
	const unsigned char *rnglists;	/* the unit's .debug_rnglists.dwo */
	size_t rnglists_len;
};

typedef void split_range_fn(void *arg, uint64_t low, uint64_t high);

/* Address index into .debug_addr; false when out of it. */
bool split_addrx(const struct split_ranges *sr, uint64_t index,
		 uint64_t *addr);

/* The DWARF 5 range list v (an index when indexed, DW_FORM_rnglistx,
 * else an offset into the unit's table), base the unit's base address:
 * each range to fn. -1 when corrupt (ranges before it were given). */
int split_rnglist(const struct split_ranges *sr, bool indexed, uint64_t v,
		  uint64_t base, split_range_fn *fn, void *arg);

/* The DWARF 4 range list at off (+ ranges_base) of .debug_ranges. */
int split_ranges4(const struct split_ranges *sr, uint64_t off, uint64_t base,
		  split_range_fn *fn, void *arg);

#endif
