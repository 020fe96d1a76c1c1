/*
 * The report's Disassembly: how many of the functions with a cost it
 * lists (report_disasm.h).
 */
#include "report_disasm.h"

#include <stdbool.h>

size_t report_disasm_count(const uint64_t *cost, const uint64_t *size,
			   size_t n, uint64_t total, double threshold)
{
	uint64_t code = 0;
	size_t k = 0;

	for (; k < n; k++) {
		bool listed = (double)cost[k] * 100.0 >=
			      threshold * (double)total;

		code += size[k];
		if (!listed && (k >= REPORT_DISASM_MAX ||
				code > REPORT_DISASM_CODE))
			break;
	}
	return k ? k : n ? 1 : 0;	/* 0 would be the text's rule */
}
