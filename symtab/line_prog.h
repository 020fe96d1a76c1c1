/*
 * The line rows of the units holding given addresses, read from
 * .debug_line alone (line_prog.c): what symtab_load_lines() wants of a
 * recorded file's DWARF, without the .debug_info libdwarf inflates whole
 * to find the units.
 */
#ifndef CGA_SYMTAB_LINE_PROG_H
#define CGA_SYMTAB_LINE_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/names.h"
#include "symtab_int.h"

/*
 * The rows of every line program of ef's .debug_line with a sequence
 * holding one of want[0..nwant) (sorted), appended to out->rows as
 * dwarf_read() with want gives them (the units .debug_aranges says hold
 * those addresses, for a compiler that writes the two alike: GCC, clang
 * with -gdwarf-aranges), file names interned into names. True when done;
 * false, with out as it was, for what this does not read: a file without
 * .debug_aranges or .debug_line, a program before DWARF 5 (whose
 * directory 0 is the unit DIE's DW_AT_comp_dir), forms or opcodes not
 * known here, anything cut short or out of bounds. The caller then reads
 * it with libdwarf, which says what is wrong.
 */
bool line_prog_rows(struct elf_file *ef, struct names *names, bool big_endian,
		    const uint64_t *want, size_t nwant,
		    struct dwarf_data *out);

/* The sections line_prog_rows() reads (str, line_str: NULL when
 * absent), decompressed. */
struct line_sections {
	const unsigned char *line, *str, *line_str;
	size_t line_size, str_size, line_str_size;
};

/* The sections line_prog_rows() reads from ef; false where it would
 * be false for want of them. */
bool line_prog_sections(struct elf_file *ef, struct line_sections *ls);

/* line_prog_rows() on sections given (the tests' hand-made and
 * garbled ones): the file is taken to have .debug_aranges. */
bool line_prog_rows_of(const struct line_sections *ls, struct names *names,
		       bool big_endian, const uint64_t *want, size_t nwant,
		       struct dwarf_data *out);

/*
 * Where each program of a .debug_line is and the address ranges of its
 * sequences: what line_prog_rows() finds by running every program,
 * found ahead of knowing the wanted addresses (on the symbol tables'
 * thread while a recording is read), so that then only the programs
 * holding one are run again.
 */
struct line_prog_seq {
	uint64_t low, high;	/* first row's and end_sequence's addresses */
};
struct line_prog_unit {
	size_t off;		/* the program's header in .debug_line */
	size_t first_seq, nseqs;
};
struct line_prog_index {
	struct line_prog_unit *units;
	struct line_prog_seq *seqs;
	size_t nunits, units_alloc, nseqs, seqs_alloc;
};

/* ls's programs indexed; false (ix empty) where line_prog_rows_of()
 * would be false whatever it wanted. */
bool line_prog_index_of(const struct line_sections *ls, bool big_endian,
			struct line_prog_index *ix);

/* line_prog_rows_of() on the sections ix was made of: the same rows
 * and names, the same interned order. */
bool line_prog_rows_indexed(const struct line_sections *ls,
			    const struct line_prog_index *ix,
			    struct names *names, bool big_endian,
			    const uint64_t *want, size_t nwant,
			    struct dwarf_data *out);

void line_prog_index_release(struct line_prog_index *ix);

#endif
