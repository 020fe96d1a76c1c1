/*
 * Which functions the report's Disassembly lists: one rule, read by the
 * report (cli/analyze.c) and by the choice of the positions kept whole
 * for it (cli/code_symbols.c), so that both change together.
 */
#ifndef CGA_REPORT_DISASM_H
#define CGA_REPORT_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* The most functions past the threshold the Disassembly lists, and the
 * most machine code (each byte is some 25 bytes of the page). */
#define REPORT_DISASM_MAX 300
#define REPORT_DISASM_CODE (64 * 1024)

/*
 * Of n functions with a cost, the hottest first (cost[i] of the sort
 * event, size[i] bytes of machine code), how many the report's
 * Disassembly lists: every one with threshold percent of total or more,
 * then the next as long as they come to at most REPORT_DISASM_MAX
 * functions and REPORT_DISASM_CODE bytes; at least one when n > 0. The
 * others are said in the page: a --disasm=NAME away.
 */
size_t report_disasm_count(const uint64_t *cost, const uint64_t *size,
			   size_t n, uint64_t total, double threshold);

#endif
