/*
 * The rows of a DWARF 5 line program emitted before each sequence's
 * first DW_LNS_set_file, counted by reading the program's opcodes.
 *
 * Why: at a sequence's start the file register is 1 (DWARF 5, 6.2.2,
 * Table 6.4), but libdwarf 20210528 reports file 0 for those rows. GCC
 * 12 with gas emits no set_file for a sequence whose first .loc is file
 * 1; in a C++ unit file 1 is often a header (a template instantiation
 * comes first) while entry 0 is the primary .cc, so libdwarf's numbers
 * put the header's lines in the .cc. clang's programs set file 0
 * explicitly, and those rows are file 0: only rows before a sequence's
 * first set_file are at the default. dwarf.c's read_lines() takes file 1
 * for them where libdwarf said 0.
 *
 * Every length is checked against the section; a program this does not
 * read fully (truncated, an unknown header, odd operand counts for the
 * standard opcodes) is refused, and libdwarf's numbers then stay.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base/array.h"
#include "base/cursor.h"
#include "line_files.h"

enum {
	LNS_COPY = 1,
	LNS_SET_FILE = 4,
	LNS_FIXED_ADVANCE_PC = 9,
	LNE_END_SEQUENCE = 1,
};

/* The operand counts DWARF 5 gives standard opcodes 1 to 12; a header
 * saying otherwise for one of them is not read. */
static const unsigned char std_lengths[12] = {
	0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
};

struct scan {
	struct line_seqs *out;
	uint64_t rows;		/* of the current sequence */
	uint64_t before;	/* its rows before a set_file */
	bool file_set;
};

static void emit_row(struct scan *s)
{
	s->rows++;
	if (!s->file_set)
		s->before++;
}

static void end_seq(struct scan *s)
{
	struct line_seqs *o = s->out;

	ARRAY_GROW(o->seq, o->nseq + 1, o->alloc);
	o->seq[o->nseq].rows = s->rows;
	o->seq[o->nseq].before_file = s->before;
	o->nseq++;
	o->total += s->rows;
	s->rows = s->before = 0;
	s->file_set = false;
}

/* The header up to the standard opcode lengths; c then covers the unit,
 * *prog is where its program starts. */
static bool read_header(struct cursor *c, const unsigned char **prog,
			unsigned *opcode_base, const unsigned char **lengths)
{
	uint64_t ver, hlen, v;
	unsigned off_size;
	const unsigned char *hstart;

	if (!cursor_dwarf_unit(c, &off_size))
		return false;
	if (!cursor_uint(c, 2, &ver) || ver != 5 ||
	    /* address_size, segment_selector_size */
	    !cursor_skip(c, 2) ||
	    !cursor_uint(c, off_size, &hlen))
		return false;
	hstart = c->p;
	if (hlen > (uint64_t)(c->end - c->p))
		return false;
	*prog = hstart + hlen;
	/* minimum_instruction_length, maximum_operations_per_instruction,
	 * default_is_stmt, line_base, line_range */
	if (!cursor_skip(c, 5) || !cursor_uint(c, 1, &v) || v == 0)
		return false;
	*opcode_base = (unsigned)v;
	*lengths = c->p;
	if (!cursor_skip(c, v - 1) || c->p > *prog)
		return false;
	for (unsigned op = 1; op < *opcode_base && op <= 12; op++)
		if ((*lengths)[op - 1] != std_lengths[op - 1])
			return false;
	return true;
}

static bool run_program(struct cursor *c, struct scan *s, unsigned opcode_base,
			const unsigned char *lengths)
{
	while (c->p < c->end) {
		uint64_t op, v;

		if (!cursor_uint(c, 1, &op))
			return false;
		if (op >= opcode_base) {	/* special opcode */
			emit_row(s);
		} else if (op == 0) {		/* extended */
			uint64_t len, sub;

			if (!cursor_uleb(c, &len) || len == 0 ||
			    len > (uint64_t)(c->end - c->p) ||
			    !cursor_uint(c, 1, &sub))
				return false;
			c->p += len - 1;
			if (sub == LNE_END_SEQUENCE) {
				emit_row(s);
				end_seq(s);
			}
		} else if (op == LNS_FIXED_ADVANCE_PC) {
			if (!cursor_skip(c, 2))
				return false;
		} else {
			if (op == LNS_COPY)
				emit_row(s);
			else if (op == LNS_SET_FILE)
				s->file_set = true;
			for (unsigned i = 0; i < lengths[op - 1]; i++)
				if (!cursor_uleb(c, &v))
					return false;
		}
	}
	/* rows after the last end_sequence: a sequence cut short, which
	 * read_lines() ends as bfd does */
	if (s->rows)
		end_seq(s);
	return true;
}

bool line_seqs_scan(const unsigned char *sec, size_t size, uint64_t off,
		    bool big_endian, struct line_seqs *out)
{
	struct cursor c;
	struct scan s = { .out = out };
	const unsigned char *prog, *lengths;
	unsigned opcode_base;

	cursor_init(&c, sec, sec + size, big_endian);
	out->nseq = out->cur = 0;
	out->total = out->cur_row = 0;
	if (!sec || off >= size)
		return false;
	c.p += off;
	if (!read_header(&c, &prog, &opcode_base, &lengths))
		return false;
	c.p = prog;
	if (!run_program(&c, &s, opcode_base, lengths)) {
		out->nseq = 0;
		out->total = 0;
		return false;
	}
	return true;
}

bool line_seqs_read(struct line_seqs *ls, Dwarf_Debug dbg,
		    Dwarf_Line_Context lc, Dwarf_Unsigned version,
		    Dwarf_Line *buf, Dwarf_Signed n,
		    const unsigned char *sec, size_t size, bool big_endian)
{
	Dwarf_Unsigned off;
	Dwarf_Error err = NULL;
	size_t k = 0;
	uint64_t rows = 0;

	ls->nseq = ls->cur = 0;
	ls->total = ls->cur_row = 0;
	if (version != 5 || !sec)
		return false;
	if (dwarf_srclines_table_offset(lc, &off, &err) != DW_DLV_OK)
		goto fail;
	if (!line_seqs_scan(sec, size, off, big_endian, ls) ||
	    ls->total != (uint64_t)n)
		goto fail;
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Bool end;

		if (dwarf_lineendsequence(buf[i], &end, &err) != DW_DLV_OK)
			goto fail;
		rows++;
		if (end || i == n - 1) {
			if (k >= ls->nseq || ls->seq[k].rows != rows)
				goto fail;
			k++;
			rows = 0;
		}
	}
	if (k == ls->nseq)
		return true;
fail:
	if (err)
		dwarf_dealloc_error(dbg, err);
	ls->nseq = 0;
	ls->total = 0;
	return false;
}

void line_seqs_release(struct line_seqs *ls)
{
	free(ls->seq);
	*ls = (struct line_seqs){ 0 };
}
