/*
 * The addresses and range lists of a split unit (-gsplit-dwarf), read by
 * hand: libdwarf 20210528 cannot (its tied-file support answers a
 * DW_FORM_rnglistx of a .dwo with "unusable unless it is in a tied
 * file ... FIXME", and an address index of a .dwp unit with an error).
 *
 * The pieces, as DWARF 5 (sections 3.1.3, 7.25, 7.27) and GCC's DWARF 4
 * extension (gcc.gnu.org/wiki/DebugFission) lay them out:
 *
 *   binary  .debug_addr    [addr_base + i * addr_size]: address index i
 *           .debug_ranges  DWARF 4: (begin, end) pairs at
 *                          DW_AT_ranges + DW_AT_GNU_ranges_base, offsets
 *                          from the skeleton's low pc; (~0, a) sets the
 *                          base; (0, 0) ends
 *   split   .debug_rnglists.dwo  DWARF 5: one table per unit (in a .dwp,
 *                          the unit's contribution): header, then
 *                          offset_entry_count offsets, relative to the
 *                          first; DW_FORM_rnglistx i is the i-th
 */
#include <stdio.h>

#include "base/cursor.h"
#include "split_ranges.h"

bool split_addrx(const struct split_ranges *sr, uint64_t index, uint64_t *addr)
{
	uint64_t off;

	if (!sr->addr || (sr->addr_size != 4 && sr->addr_size != 8) ||
	    index > (sr->addr_len / sr->addr_size))
		return false;
	off = sr->addr_base + index * sr->addr_size;
	if (off < sr->addr_base || off > sr->addr_len ||
	    sr->addr_len - off < sr->addr_size)
		return false;
	*addr = bytes_get(sr->addr + off, sr->addr_size, sr->big);
	return true;
}

/* The offset of range list index within the unit's table, from the
 * table's offsets array; false when the table has no such entry. */
static bool rnglist_offset(const struct split_ranges *sr, uint64_t index,
			   uint64_t *off)
{
	struct cursor c;
	uint64_t len, count, v, size = 4;
	const unsigned char *array;

	cursor_init(&c, sr->rnglists, sr->rnglists + sr->rnglists_len,
		    sr->big);
	if (!cursor_uint(&c, 4, &len))
		return false;
	if (len == 0xffffffff) {
		size = 8;
		if (!cursor_uint(&c, 8, &len))
			return false;
	}
	/* version 2, address size 1, segment selector size 1 */
	if (!cursor_skip(&c, 4) || !cursor_uint(&c, 4, &count) ||
	    index >= count)
		return false;
	array = c.p;
	if (!cursor_skip(&c, index * size) ||
	    !cursor_uint(&c, (unsigned)size, &v))
		return false;
	*off = (uint64_t)(array - sr->rnglists) + v;
	return *off < sr->rnglists_len;
}

int split_rnglist(const struct split_ranges *sr, bool indexed, uint64_t v,
		  uint64_t base, split_range_fn *fn, void *arg)
{
	struct cursor c;
	uint64_t off = v, a, b;
	unsigned asz = sr->addr_size;

	if (!sr->rnglists || (indexed && !rnglist_offset(sr, v, &off)) ||
	    off >= sr->rnglists_len)
		return -1;
	cursor_init(&c, sr->rnglists + off, sr->rnglists + sr->rnglists_len,
			sr->big);
	for (;;) {
		unsigned kind;

		if (c.p >= c.end)
			return -1;
		kind = *c.p++;
		switch (kind) {
		case 0:		/* DW_RLE_end_of_list */
			return 0;
		case 1:		/* DW_RLE_base_addressx */
			if (!cursor_uleb(&c, &a) || !split_addrx(sr, a, &base))
				return -1;
			break;
		case 2:		/* DW_RLE_startx_endx */
			if (!cursor_uleb(&c, &a) || !cursor_uleb(&c, &b) ||
			    !split_addrx(sr, a, &a) || !split_addrx(sr, b, &b))
				return -1;
			fn(arg, a, b);
			break;
		case 3:		/* DW_RLE_startx_length */
			if (!cursor_uleb(&c, &a) || !cursor_uleb(&c, &b) ||
			    !split_addrx(sr, a, &a))
				return -1;
			fn(arg, a, a + b);
			break;
		case 4:		/* DW_RLE_offset_pair */
			if (!cursor_uleb(&c, &a) || !cursor_uleb(&c, &b))
				return -1;
			fn(arg, base + a, base + b);
			break;
		case 5:		/* DW_RLE_base_address */
			if (!cursor_uint(&c, asz, &base))
				return -1;
			break;
		case 6:		/* DW_RLE_start_end */
			if (!cursor_uint(&c, asz, &a) ||
			    !cursor_uint(&c, asz, &b))
				return -1;
			fn(arg, a, b);
			break;
		case 7:		/* DW_RLE_start_length */
			if (!cursor_uint(&c, asz, &a) || !cursor_uleb(&c, &b))
				return -1;
			fn(arg, a, a + b);
			break;
		default:
			return -1;
		}
	}
}

int split_ranges4(const struct split_ranges *sr, uint64_t off, uint64_t base,
		  split_range_fn *fn, void *arg)
{
	unsigned asz = sr->addr_size;
	uint64_t all = asz == 8 ? UINT64_MAX : UINT32_MAX, a, b;
	struct cursor c;

	off += sr->ranges_base;
	if (!sr->ranges || off < sr->ranges_base || off >= sr->ranges_len ||
	    (asz != 4 && asz != 8))
		return -1;
	cursor_init(&c, sr->ranges + off, sr->ranges + sr->ranges_len, sr->big);
	for (;;) {
		if (!cursor_uint(&c, asz, &a) || !cursor_uint(&c, asz, &b))
			return -1;
		if (a == 0 && b == 0)
			return 0;
		if (a == all)
			base = b;
		else
			fn(arg, base + a, base + b);
	}
}
