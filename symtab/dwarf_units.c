/*
 * The compilation units that hold given addresses, from .debug_aranges:
 * what dwarf_read() reads of a file when only a few functions' lines
 * are wanted (a perf.data's sampled functions in libc6-dbg's DWARF).
 */
#include "dwarf_units.h"

bool dwarf_units_holding(Dwarf_Debug dbg, const uint64_t *want, size_t nwant,
			 struct u64map *units)
{
	Dwarf_Arange *ar = NULL;
	Dwarf_Signed n = 0;
	Dwarf_Error err = NULL;

	if (dwarf_get_aranges(dbg, &ar, &n, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(dbg, err);
		return false;
	}
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Unsigned seg, seg_size, len;
		Dwarf_Addr start;
		Dwarf_Off cu;
		size_t lo = 0, hi = nwant;

		if (dwarf_get_arange_info_b(ar[i], &seg, &seg_size, &start,
					    &len, &cu, &err) != DW_DLV_OK) {
			if (err)
				dwarf_dealloc_error(dbg, err);
			err = NULL;
			dwarf_dealloc(dbg, ar[i], DW_DLA_ARANGE);
			continue;
		}
		while (lo < hi) {	/* the first wanted address >= start */
			size_t mid = lo + (hi - lo) / 2;

			if (want[mid] < start)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nwant && want[lo] - start < len)
			u64map_put(units, cu, 1);
		dwarf_dealloc(dbg, ar[i], DW_DLA_ARANGE);
	}
	dwarf_dealloc(dbg, ar, DW_DLA_LIST);
	return true;
}

