/*
 * line_files.c: the rows of a DWARF 5 line table at their sequence's
 * default file (1), which libdwarf 20210528 reports as file 0.
 */
#ifndef CGA_SYMTAB_LINE_FILES_H
#define CGA_SYMTAB_LINE_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libdwarf.h>

/* Each sequence of a DWARF 5 line program, in program order: its rows
 * and how many of them come before its first DW_LNS_set_file. */
struct line_seqs {
	struct {
		uint64_t rows, before_file;
	} *seq;
	size_t nseq, alloc;
	uint64_t total;		/* rows of all sequences */
	size_t cur;		/* line_seqs_at_default(): where it is */
	uint64_t cur_row;
};

/*
 * Read the DWARF 5 line program at off of .debug_line (sec, size bytes)
 * into out (whose array is reused). False, out empty, when it is no
 * DWARF 5 program or is not read to its end (truncated, garbled, the
 * standard opcodes' operand counts not DWARF 5's).
 */
bool line_seqs_scan(const unsigned char *sec, size_t size, uint64_t off,
		    bool big_endian, struct line_seqs *out);

/*
 * line_seqs_scan() of the line table lc (version as dwarf_srclines_b()
 * gave it) whose rows libdwarf gives as buf[n]: true when it is DWARF 5
 * and its sequences have, one by one, the rows libdwarf has. Otherwise
 * ls is left empty and libdwarf's file numbers are to stay as they are.
 */
bool line_seqs_read(struct line_seqs *ls, Dwarf_Debug dbg,
		    Dwarf_Line_Context lc, Dwarf_Unsigned version,
		    Dwarf_Line *buf, Dwarf_Signed n,
		    const unsigned char *sec, size_t size, bool big_endian);

/* For each row of the table in turn (end: it ends a sequence): whether
 * it comes before its sequence's first DW_LNS_set_file. Always false
 * after a failed line_seqs_read(). */
static inline bool line_seqs_at_default(struct line_seqs *ls, bool end)
{
	bool at;

	if (ls->cur >= ls->nseq)
		return false;
	at = ls->cur_row < ls->seq[ls->cur].before_file;
	if (end) {
		ls->cur++;
		ls->cur_row = 0;
	} else {
		ls->cur_row++;
	}
	return at;
}

void line_seqs_release(struct line_seqs *ls);

#endif
