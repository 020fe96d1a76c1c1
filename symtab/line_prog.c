/*
 * DWARF 5 line programs read from .debug_line alone (line_prog.h).
 *
 * Why: a recording's functions in libc want the rows of a few hundred of
 * libc6-dbg's 4,126 units. libdwarf finds a unit's line program through
 * its DIE's DW_AT_stmt_list, and reads no DIE before it has inflated the
 * whole .debug_info (5.8 MB for libc, and .debug_aranges' search loads it
 * too): 93 ms of a 1 GB recording's run, where inflating .debug_line
 * (1.3 MB) and running every program in it takes a few. A DWARF 5
 * program names its files itself: directory 0 is the unit's compilation
 * directory and file 0 its primary file, so no DIE is needed.
 *
 * The rows are libdwarf's as dwarf.c's read_lines() takes them: the same
 * state machine (DWARF 5, 6.2.5), the file of the rows before a
 * sequence's first DW_LNS_set_file 1 (0 in a table with no file 1, as
 * line_files.c says libdwarf reports it), names joined as
 * join_file_name() joins them, and a program cut short ending its last
 * sequence. A unit is taken when one of its sequences holds a wanted
 * address, as .debug_aranges' ranges would say (dwarf_units.c). What is
 * not known here makes the whole file go to libdwarf (false): nothing is
 * guessed.
 */
#include "line_prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/cursor.h"
#include "base/diag.h"
#include "base/sorted.h"
#include "base/xalloc.h"

enum {
	LNS_COPY = 1, LNS_ADVANCE_PC, LNS_ADVANCE_LINE, LNS_SET_FILE,
	LNS_SET_COLUMN, LNS_NEGATE_STMT, LNS_SET_BASIC_BLOCK,
	LNS_CONST_ADD_PC, LNS_FIXED_ADVANCE_PC, LNS_SET_PROLOGUE_END,
	LNS_SET_EPILOGUE_BEGIN, LNS_SET_ISA,
	LNE_END_SEQUENCE = 1, LNE_SET_ADDRESS = 2, LNE_SET_DISCRIMINATOR = 4,
	LNCT_PATH = 1, LNCT_DIRECTORY_INDEX = 2,
	FORM_DATA2 = 0x05, FORM_DATA4 = 0x06, FORM_DATA8 = 0x07,
	FORM_STRING = 0x08, FORM_BLOCK = 0x09, FORM_DATA1 = 0x0b,
	FORM_STRP = 0x0e, FORM_UDATA = 0x0f, FORM_DATA16 = 0x1e,
	FORM_LINE_STRP = 0x1f,
};

/* DWARF 5's operand counts of standard opcodes 1 to 12 */
static const unsigned char std_lengths[12] = {
	0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
};

/* One directory or file entry: its path (NULL: none) and directory. */
struct entry {
	const char *path;
	uint64_t dir;
};

/* A program's header, as far as the rows and names need it. */
struct header {
	const unsigned char *prog, *end;	/* its opcodes */
	unsigned addr_size, min_inst, opcode_base, line_range;
	int line_base;
	const unsigned char *lengths;	/* standard opcodes' operand counts */
	struct entry *dirs, *files;
	size_t ndirs, nfiles, dirs_alloc, files_alloc;
};

/* A string in a section at off, NUL-terminated inside it. */
static const char *section_string(const unsigned char *sec, size_t size,
				  uint64_t off)
{
	if (!sec || off >= size || !memchr(sec + off, 0, size - off))
		return NULL;
	return (const char *)sec + off;
}

/* One attribute value of an entry: a path's string, or a number. */
static bool read_form(struct cursor *c, uint64_t form, unsigned off_size,
		      const struct line_sections *s, const char **str, uint64_t *num,
		      bool *is_str)
{
	const unsigned char *nul;
	uint64_t v;

	*is_str = false;
	switch (form) {
	case FORM_STRING:
		nul = memchr(c->p, 0, (size_t)(c->end - c->p));
		if (!nul)
			return false;
		*str = (const char *)c->p;
		*is_str = true;
		c->p = nul + 1;
		return true;
	case FORM_LINE_STRP:
	case FORM_STRP:
		if (!cursor_uint(c, off_size, &v))
			return false;
		*str = form == FORM_STRP
			       ? section_string(s->str, s->str_size, v)
			       : section_string(s->line_str, s->line_str_size,
						v);
		*is_str = true;
		return *str != NULL;
	case FORM_UDATA:
		return cursor_uleb(c, num);
	case FORM_DATA1:
		return cursor_uint(c, 1, num);
	case FORM_DATA2:
		return cursor_uint(c, 2, num);
	case FORM_DATA4:
		return cursor_uint(c, 4, num);
	case FORM_DATA8:
		return cursor_uint(c, 8, num);
	case FORM_DATA16:
		*num = 0;
		return cursor_skip(c, 16);
	case FORM_BLOCK:
		*num = 0;
		return cursor_uleb(c, &v) && cursor_skip(c, v);
	default:
		return false;
	}
}

/* A directory or file name table: its format, count and entries. */
static bool read_entries(struct cursor *c, unsigned off_size,
			 const struct line_sections *s, struct entry **out, size_t *n,
			 size_t *alloc)
{
	uint64_t nfmt, count, fmt[2 * 8];

	if (!cursor_uint(c, 1, &nfmt) || nfmt > 8)
		return false;
	for (uint64_t i = 0; i < 2 * nfmt; i++)
		if (!cursor_uleb(c, &fmt[i]))
			return false;
	if (!cursor_uleb(c, &count) || (count && !nfmt))
		return false;
	*n = 0;
	/* each entry takes a byte at least: count is bounded by the section */
	for (uint64_t k = 0; k < count; k++) {
		struct entry e = { NULL, 0 };

		for (uint64_t i = 0; i < nfmt; i++) {
			const char *str = NULL;
			uint64_t num = 0;
			bool is_str;

			if (!read_form(c, fmt[2 * i + 1], off_size, s, &str,
				       &num, &is_str))
				return false;
			if (fmt[2 * i] == LNCT_PATH) {
				if (!is_str)
					return false;
				e.path = str;
			} else if (fmt[2 * i] == LNCT_DIRECTORY_INDEX) {
				if (is_str)
					return false;
				e.dir = num;
			}
		}
		ARRAY_GROW(*out, *n + 1, *alloc);
		(*out)[(*n)++] = e;
	}
	return true;
}

/* The header of the program at c->p; c then covers the unit. */
static bool read_header(struct cursor *c, const struct line_sections *s,
			struct header *h)
{
	uint64_t ver, hlen, v;
	unsigned off_size;

	if (!cursor_dwarf_unit(c, &off_size))
		return false;
	h->end = c->end;
	if (!cursor_uint(c, 2, &ver) || ver != 5 || !cursor_uint(c, 1, &v) ||
	    (v != 4 && v != 8))
		return false;
	h->addr_size = (unsigned)v;
	if (!cursor_uint(c, 1, &v) || v != 0 ||	/* segment selectors */
	    !cursor_uint(c, off_size, &hlen) ||
	    hlen > (uint64_t)(c->end - c->p))
		return false;
	h->prog = c->p + hlen;
	if (!cursor_uint(c, 1, &v) || !v)
		return false;
	h->min_inst = (unsigned)v;
	/* maximum_operations_per_instruction: VLIW's op_index not read */
	if (!cursor_uint(c, 1, &v) || v != 1 || !cursor_skip(c, 1) ||
	    !cursor_uint(c, 1, &v))
		return false;
	h->line_base = (int)(signed char)v;
	if (!cursor_uint(c, 1, &v) || !v)
		return false;
	h->line_range = (unsigned)v;
	if (!cursor_uint(c, 1, &v) || !v)
		return false;
	h->opcode_base = (unsigned)v;
	h->lengths = c->p;
	if (!cursor_skip(c, v - 1))
		return false;
	for (unsigned op = 1; op < h->opcode_base && op <= 12; op++)
		if (h->lengths[op - 1] != std_lengths[op - 1])
			return false;
	if (!read_entries(c, off_size, s, &h->dirs, &h->ndirs,
			  &h->dirs_alloc) ||
	    !read_entries(c, off_size, s, &h->files, &h->nfiles,
			  &h->files_alloc))
		return false;
	return c->p == h->prog;
}

struct run {
	struct line_entry *rows;	/* file: the program's file number */
	size_t nrows, alloc;
	const uint64_t *want;
	size_t nwant;
	bool wanted;		/* a sequence holds a wanted address */
	struct line_prog_index *ix;	/* non-NULL: sequences kept there */
};

/* Whether a wanted address is in [low, high). */
static bool holds_wanted(const struct run *r, uint64_t low, uint64_t high)
{
	size_t lo = sorted_below_u64(r->want, r->nwant, low);

	return lo < r->nwant && r->want[lo] < high;
}

/* A sequence of [low, high] ended: kept in the index being made, or
 * checked against the wanted addresses. */
static void seq_done(struct run *r, uint64_t low, uint64_t high)
{
	struct line_prog_index *ix = r->ix;

	if (ix) {
		ARRAY_GROW(ix->seqs, ix->nseqs + 1, ix->seqs_alloc);
		ix->seqs[ix->nseqs++] = (struct line_prog_seq){ low, high };
	} else if (!r->wanted && holds_wanted(r, low, high)) {
		r->wanted = true;
	}
}

/* The program's rows appended to r->rows, the sequences' ranges checked
 * against the wanted addresses. */
static bool run_program(const struct header *h, bool big, struct run *r)
{
	struct cursor c;
	uint64_t addr = 0, file = 1, line = 1, disc = 0, low = 0;
	bool file_set = false, seq_rows = false;
	uint32_t default_file = h->nfiles > 1 ? 1 : 0;

	cursor_init(&c, h->prog, h->end, big);
	while (c.p < c.end) {
		uint64_t op, v, len, sub;
		int64_t sv;
		bool emit = false, end = false;

		if (!cursor_uint(&c, 1, &op))
			return false;
		if (op >= h->opcode_base) {
			unsigned adj = (unsigned)op - h->opcode_base;

			addr += (uint64_t)h->min_inst * (adj / h->line_range);
			line += (uint64_t)(int64_t)(h->line_base +
						    (int)(adj % h->line_range));
			emit = true;
		} else if (op == 0) {
			if (!cursor_uleb(&c, &len) || len == 0 ||
			    len > (uint64_t)(c.end - c.p) ||
			    !cursor_uint(&c, 1, &sub))
				return false;
			if (sub == LNE_END_SEQUENCE && len == 1) {
				emit = end = true;
			} else if (sub == LNE_SET_ADDRESS &&
				   len - 1 == h->addr_size) {
				if (!cursor_uint(&c, h->addr_size, &addr))
					return false;
			} else if (sub == LNE_SET_DISCRIMINATOR) {
				const unsigned char *stop = c.p + (len - 1);

				if (!cursor_uleb(&c, &disc) || c.p != stop)
					return false;
			} else {
				return false;	/* not GCC's: libdwarf's */
			}
		} else {
			switch (op) {
			case LNS_COPY:
				emit = true;
				break;
			case LNS_ADVANCE_PC:
				if (!cursor_uleb(&c, &v))
					return false;
				addr += h->min_inst * v;
				break;
			case LNS_ADVANCE_LINE:
				if (!cursor_sleb(&c, &sv))
					return false;
				line += (uint64_t)sv;
				break;
			case LNS_SET_FILE:
				if (!cursor_uleb(&c, &file))
					return false;
				file_set = true;
				break;
			case LNS_CONST_ADD_PC:
				addr += (uint64_t)h->min_inst *
					((255 - h->opcode_base) /
					 h->line_range);
				break;
			case LNS_FIXED_ADVANCE_PC:
				if (!cursor_uint(&c, 2, &v))
					return false;
				addr += v;
				break;
			default:	/* operands uleb, as the header says */
				for (unsigned i = 0; i < h->lengths[op - 1];
				     i++)
					if (!cursor_uleb(&c, &v))
						return false;
				break;
			}
		}
		if (!emit)
			continue;
		ARRAY_GROW(r->rows, r->nrows + 1, r->alloc);
		r->rows[r->nrows++] = (struct line_entry){
			.addr = addr,
			.file = !file_set ? default_file
				: file > UINT32_MAX ? UINT32_MAX
				: (uint32_t)file,
			.line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line,
			.discriminator = disc > UINT32_MAX ? 0 : (uint32_t)disc,
			.end_sequence = end,
		};
		if (!seq_rows)
			low = addr;
		seq_rows = true;
		disc = 0;
		if (end) {
			seq_done(r, low, addr);
			addr = 0;
			file = line = 1;
			file_set = seq_rows = false;
		}
	}
	/* a program cut short: its last row ends the sequence, as in
	 * read_lines() */
	if (seq_rows) {
		r->rows[r->nrows - 1].end_sequence = true;
		seq_done(r, low, r->rows[r->nrows - 1].addr);
	}
	return true;
}

/* The comp_dir join_file_name() would have: directory 0, without Irix
 * cc's "host.:" before it. */
static const char *comp_dir(const struct header *h)
{
	const char *cd = h->ndirs ? h->dirs[0].path : NULL;
	const char *colon = cd ? strchr(cd, ':') : NULL;

	if (colon && colon != cd && colon[-1] == '.' && colon[1] == '/')
		cd = colon + 1;
	return cd;
}

/* dwarf.c's join_file_name() for file number index. */
static name_id join_name(const struct header *h, struct names *names,
			 name_id unknown, uint32_t index)
{
	const char *name, *subdir = NULL, *dir = NULL;
	const struct entry *e;

	if (index >= h->nfiles)
		return unknown;
	e = &h->files[index];
	name = e->path;
	if (!name)
		return unknown;
	if (!*name)
		return NO_NAME;
	if (name[0] == '/')
		return names_intern(names, name, strlen(name));
	if (e->dir < h->ndirs)
		subdir = h->dirs[e->dir].path;
	if (!subdir || subdir[0] != '/')
		dir = comp_dir(h);
	return names_intern_path(names, dir, subdir, name);
}

/* A wanted program: where its header is and which rows are its. */
struct taken {
	size_t off, first, n;
};

bool line_prog_sections(struct elf_file *ef, struct line_sections *ls)
{
	const unsigned char *aranges;
	size_t aranges_size;

	memset(ls, 0, sizeof(*ls));
	/* without .debug_aranges dwarf_read() reads every unit */
	if (!elf_section_bytes(ef, ".debug_aranges", &aranges,
			       &aranges_size) || !aranges_size ||
	    !elf_section_bytes(ef, ".debug_line", &ls->line, &ls->line_size) ||
	    !ls->line_size)
		return false;
	if (!elf_section_bytes(ef, ".debug_str", &ls->str, &ls->str_size))
		ls->str = NULL;
	if (!elf_section_bytes(ef, ".debug_line_str", &ls->line_str,
			       &ls->line_str_size))
		ls->line_str = NULL;
	return true;
}

bool line_prog_rows(struct elf_file *ef, struct names *names, bool big_endian,
		    const uint64_t *want, size_t nwant, struct dwarf_data *out)
{
	struct line_sections ls;

	return line_prog_sections(ef, &ls) &&
	       line_prog_rows_of(&ls, names, big_endian, want, nwant, out);
}

/* The names of the taken programs' rows, interned in the order
 * dwarf_read() interns them, and the rows appended to out. */
static void take_rows(const struct line_sections *ls, struct names *names,
		      bool big_endian, const struct taken *taken,
		      size_t ntaken, struct run *r, struct header *h,
		      struct dwarf_data *out)
{
	name_id unknown = names_intern(names, "<unknown>", 9), *files = NULL;
	size_t files_alloc = 0;

	for (size_t t = 0; t < ntaken; t++) {
		struct cursor c;

		cursor_init(&c, ls->line + taken[t].off,
			    ls->line + ls->line_size, big_endian);
		if (!read_header(&c, ls, h))
			BUG("line program at 0x%zx read once and not again",
			    taken[t].off);
		ARRAY_GROW(files, h->nfiles + 1, files_alloc);
		for (size_t i = 0; i < h->nfiles; i++)
			files[i] = NO_IDX;
		for (size_t i = 0; i < taken[t].n; i++) {
			struct line_entry *le = &r->rows[taken[t].first + i];
			uint32_t f = le->file;

			if (f >= h->nfiles) {
				le->file = unknown;
				continue;
			}
			if (files[f] == NO_IDX)
				files[f] = join_name(h, names, unknown, f);
			le->file = files[f];
		}
	}
	for (size_t t = 0; t < ntaken; t++) {
		ARRAY_GROW(out->rows, out->nrows + taken[t].n, out->rows_alloc);
		memcpy(out->rows + out->nrows, r->rows + taken[t].first,
		       taken[t].n * sizeof(*r->rows));
		out->nrows += taken[t].n;
	}
	free(files);
}

/* The taken programs' rows and names to out when all was read (ok),
 * and the reading's memory freed: ok. */
static bool finish(bool ok, const struct line_sections *ls,
		   struct names *names, bool big_endian, struct taken *taken,
		   size_t ntaken, struct run *r, struct header *h,
		   struct dwarf_data *out)
{
	/* all read: the names, in the order dwarf_read() interns them */
	if (ok)
		take_rows(ls, names, big_endian, taken, ntaken, r, h, out);
	free(r->rows);
	free(taken);
	free(h->dirs);
	free(h->files);
	return ok;
}

/*
 * Every program of ls run, each wanted one's place and rows kept
 * (r->want) or each one's sequences indexed (r->ix). False at the
 * first header or program not read here.
 */
static bool run_all(const struct line_sections *ls, bool big_endian,
		    struct run *r, struct header *h, struct taken **taken,
		    size_t *ntaken, size_t *taken_alloc)
{
	size_t off = 0;

	while (off < ls->line_size) {
		struct cursor c;
		size_t first = r->nrows, seqs = r->ix ? r->ix->nseqs : 0;

		cursor_init(&c, ls->line + off, ls->line + ls->line_size,
			    big_endian);
		if (!read_header(&c, ls, h))
			return false;
		r->wanted = false;
		if (!run_program(h, big_endian, r))
			return false;
		if (r->ix) {
			struct line_prog_index *ix = r->ix;

			ARRAY_GROW(ix->units, ix->nunits + 1, ix->units_alloc);
			ix->units[ix->nunits++] = (struct line_prog_unit){
				off, seqs, ix->nseqs - seqs };
			r->nrows = first;	/* rows not kept */
		} else if (r->wanted) {
			ARRAY_GROW(*taken, *ntaken + 1, *taken_alloc);
			(*taken)[(*ntaken)++] = (struct taken){ off, first,
								r->nrows - first };
		} else {
			r->nrows = first;
		}
		off = (size_t)(h->end - ls->line);
	}
	return true;
}

bool line_prog_rows_of(const struct line_sections *ls, struct names *names,
		       bool big_endian, const uint64_t *want, size_t nwant,
		       struct dwarf_data *out)
{
	struct header h = { 0 };
	struct run r = { .want = want, .nwant = nwant };
	struct taken *taken = NULL;
	size_t ntaken = 0, taken_alloc = 0;
	bool ok = run_all(ls, big_endian, &r, &h, &taken, &ntaken,
			  &taken_alloc);

	return finish(ok, ls, names, big_endian, taken, ntaken, &r, &h, out);
}

bool line_prog_index_of(const struct line_sections *ls, bool big_endian,
			struct line_prog_index *ix)
{
	struct header h = { 0 };
	struct run r = { .ix = ix };
	bool ok;

	memset(ix, 0, sizeof(*ix));
	ok = run_all(ls, big_endian, &r, &h, NULL, NULL, NULL);
	free(r.rows);
	free(h.dirs);
	free(h.files);
	if (!ok)
		line_prog_index_release(ix);
	return ok;
}

bool line_prog_rows_indexed(const struct line_sections *ls,
			    const struct line_prog_index *ix,
			    struct names *names, bool big_endian,
			    const uint64_t *want, size_t nwant,
			    struct dwarf_data *out)
{
	struct header h = { 0 };
	struct run r = { .want = want, .nwant = nwant };
	struct taken *taken = NULL;
	size_t ntaken = 0, taken_alloc = 0;
	bool ok = true;

	/* the programs run_all() would take: a sequence holds a wanted
	 * address; only they are run again, for their rows */
	for (size_t u = 0; u < ix->nunits && ok; u++) {
		const struct line_prog_unit *un = &ix->units[u];
		bool wanted = false;

		for (size_t q = 0; q < un->nseqs && !wanted; q++)
			wanted = holds_wanted(&r, ix->seqs[un->first_seq + q].low,
					      ix->seqs[un->first_seq + q].high);
		if (!wanted)
			continue;
		struct cursor c;
		size_t first = r.nrows;

		cursor_init(&c, ls->line + un->off, ls->line + ls->line_size,
			    big_endian);
		ok = read_header(&c, ls, &h) && run_program(&h, big_endian, &r);
		ARRAY_GROW(taken, ntaken + 1, taken_alloc);
		taken[ntaken++] = (struct taken){ un->off, first,
						  r.nrows - first };
	}
	return finish(ok, ls, names, big_endian, taken, ntaken, &r, &h, out);
}

void line_prog_index_release(struct line_prog_index *ix)
{
	free(ix->units);
	free(ix->seqs);
	memset(ix, 0, sizeof(*ix));
}
