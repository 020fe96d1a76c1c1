/*
 * libdwarf: for every compilation unit (DWARF 2 to 5), the line table,
 * the functions (subprograms, entry points and inlined subroutines with
 * their pc ranges, names and call sites) and the variables at a fixed
 * address (for addr2line's answer on data).
 *
 * What addr2line prints is the reference (binutils 2.40, bfd/dwarf2.c),
 * so its rules are followed where DWARF leaves a choice:
 *  - file names are joined as concat_filename() joins them: an absolute
 *    name as is; else the entry's directory, and the CU's DW_AT_comp_dir
 *    before it unless that directory is absolute. No "." or ".." is
 *    folded. DWARF 5 file and directory 0 are real entries; before
 *    DWARF 5 file 0 is "<unknown>";
 *  - a function's name is its last DW_AT_linkage_name (also through
 *    DW_AT_abstract_origin and DW_AT_specification chains), else its
 *    first DW_AT_name. A linkage name, or any name in a CU whose language
 *    is not mangled (C, Fortran 77, ...: mangle_style() 0), is final;
 *    others give way to an ELF symbol that starts the function (see
 *    settle_names() in frames.c);
 *  - an inlined subroutine's caller is the nearest enclosing function
 *    DIE; subprograms have none;
 *  - ranges of one function that touch are merged (arange_add()), which
 *    matters because the smallest range holding an address wins;
 *  - a CU without a line table is skipped whole, functions too.
 *
 * Hostile input: the DIE tree is walked with an explicit stack bounded
 * by MAX_DIE_DEPTH and in section order only (no cycles), origin chains
 * are followed at most MAX_ORIGIN_DEPTH deep, and every array grows only
 * with what libdwarf has read from the file. A CU libdwarf reports as
 * corrupt is dropped with a warning; what libdwarf itself would crash on
 * is refused before (dwarf_check.c).
 */
#include <dwarf.h>
#include <libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "dwarf_attr.h"
#include "dwarf_split.h"
#include "dwarf_units.h"
#include "line_files.h"
#include "split_ranges.h"
#include "symtab_int.h"

#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

/* What the names of one DIE (and the DIEs it refers to) amount to. */
struct name_info {
	name_id first_name;	/* first DW_AT_name met, or NO_NAME */
	name_id last_linkage;	/* last linkage name met, or NO_NAME */
	bool first_name_c;	/* first_name is in a C-like CU */
};

/* One DIE on the path from the CU to the current one. */
struct walk_entry {
	Dwarf_Die die;
	uint32_t node;		/* its dfunc, once one was needed */
	int32_t func_up;	/* the nearest function entry at or above */
	Dwarf_Half tag;
	bool is_func;
	bool descend;		/* its children can hold code or variables */
};

struct dwarf_reader {
	Dwarf_Debug dbg;
	const char *path;
	struct names *names;
	bool demangle;
	struct dwarf_data *out;
	bool big_endian;
	name_id unknown;	/* "<unknown>", as bfd names a bad file */
	char err[512];		/* why the current CU failed */

	struct u64map origins;	/* DIE offset -> index in orig[] */
	struct name_info *orig;
	size_t norig, orig_alloc;
	struct u64map cu_langs;	/* CU DIE offset -> c_like + 1 */
	struct u64map demangled;	/* name_id -> demangled name_id */
	/* the file's own bytes of .debug_rnglists, and whether it has a
	 * .debug_addr (see rnglist_needs_addr()) */
	const unsigned char *rnglists;
	size_t rnglists_size;
	bool have_addr;
	unsigned bad_cus, deep_cus;
	struct dwarf_split split;	/* -gsplit-dwarf's .dwo and .dwp */
	/* added to the DIE offsets of a split unit (the skeleton's
	 * offset above 32 bits): each .dwo counts from 0 */
	uint64_t die_base;
	/* while a split unit is read: its addresses and ranges */
	bool in_split;
	struct split_ranges sr;
	const unsigned char *debug_addr, *debug_ranges;
	size_t debug_addr_len, debug_ranges_len;
	struct skeleton *skels;	/* read after all units: read_skeletons() */
	size_t nskels, skels_alloc;
	bool files_only;	/* read_lines(): the file names, no rows */
	/* .debug_line, for the rows at a DWARF 5 sequence's default file
	 * (line_files.c); seqs: the current CU's sequences */
	const unsigned char *debug_line;
	size_t debug_line_len;
	struct line_seqs seqs;
	unsigned cut_chains;	/* origin chains past MAX_ORIGIN_DEPTH */

	/* the current CU */
	Dwarf_Half version, addr_size;
	bool c_like;
	uint64_t base;		/* DW_AT_low_pc: base of DWARF 4 ranges */
	const char *comp_dir;
	Dwarf_Line_Context lines;
	name_id *files;		/* file index -> name; NO_NAME not yet */
	size_t nfiles, files_alloc;
	Dwarf_Signed file_base, file_end;
	struct walk_entry *stack;
	size_t depth, stack_alloc;
};

/* A libdwarf error: note why in rd->err, free it, return -1. */
static int dw_fail(struct dwarf_reader *rd, Dwarf_Error err, const char *what)
{
	snprintf(rd->err, sizeof(rd->err), "%s: %s", what,
		 err ? dwarf_errmsg(err) : "unknown error");
	if (err)
		dwarf_dealloc_error(rd->dbg, err);
	return -1;
}

/* A skeleton unit whose split unit is read after the others. */
struct skeleton {
	Dwarf_Off off;		/* its CU DIE's offset in the binary */
	Dwarf_Sig8 id;		/* its dwo id */
	Dwarf_Half version, addr_size;
};

/* --- file names --- */

static bool is_absolute(const char *p)
{
	return p[0] == '/';
}

/* bfd's concat_filename() for the file entry index of the current CU. */
static name_id join_file_name(struct dwarf_reader *rd, Dwarf_Signed index)
{
	const char *name = NULL, *subdir = NULL, *dir = NULL;
	Dwarf_Unsigned dir_index = 0, mtime, length;
	Dwarf_Form_Data16 *md5;
	Dwarf_Error err = NULL;

	if (dwarf_srclines_files_data_b(rd->lines, index, &name, &dir_index,
					&mtime, &length, &md5,
					&err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(rd->dbg, err);
		return rd->unknown;
	}
	if (!name)
		return rd->unknown;
	if (!*name)
		return NO_NAME;	/* bfd keeps no name: printed "??" */
	if (is_absolute(name))
		return names_intern(rd->names, name, strlen(name));
	/* before DWARF 5 directory 0 is the CU's own: no entry; libdwarf
	 * numbers the others as the file entries do */
	if (rd->version >= 5 || dir_index > 0) {
		if (dwarf_srclines_include_dir_data(rd->lines,
						    (Dwarf_Signed)dir_index,
						    &subdir,
						    &err) != DW_DLV_OK) {
			if (err)
				dwarf_dealloc_error(rd->dbg, err);
			subdir = NULL;
		}
	}
	if (!subdir || !is_absolute(subdir))
		dir = rd->comp_dir;
	return names_intern_path(rd->names, dir, subdir, name);
}

/* The name of file number index as the line program and DW_AT_call_file
 * use it; "<unknown>" for bad numbers, as bfd has it. */
static name_id file_name(struct dwarf_reader *rd, Dwarf_Unsigned index)
{
	size_t slot;

	if (!rd->lines || (rd->version < 5 && index == 0) ||
	    index < (Dwarf_Unsigned)rd->file_base ||
	    index >= (Dwarf_Unsigned)rd->file_end)
		return rd->unknown;
	slot = (size_t)(index - (Dwarf_Unsigned)rd->file_base);
	if (slot >= rd->nfiles) {
		ARRAY_GROW(rd->files, slot + 1, rd->files_alloc);
		while (rd->nfiles <= slot)
			rd->files[rd->nfiles++] = NO_IDX;
	}
	if (rd->files[slot] == NO_IDX)
		rd->files[slot] = join_file_name(rd, (Dwarf_Signed)index);
	return rd->files[slot];
}

/* --- line tables --- */

static int read_lines(struct dwarf_reader *rd, Dwarf_Die cu_die)
{
	Dwarf_Unsigned version;
	Dwarf_Small count;
	Dwarf_Signed n, nfiles;
	Dwarf_Line *buf;
	Dwarf_Error err = NULL;
	struct dwarf_data *out = rd->out;
	int ret;

	ret = dwarf_srclines_b(cu_die, &version, &count, &rd->lines, &err);
	if (ret == DW_DLV_NO_ENTRY)
		return 0;
	if (ret != DW_DLV_OK)
		return dw_fail(rd, err, "line table");
	if (dwarf_srclines_files_indexes(rd->lines, &rd->file_base, &nfiles,
					 &rd->file_end, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "line table files");
	if (rd->files_only)
		return 1;
	if (dwarf_srclines_from_linecontext(rd->lines, &buf, &n, &err) !=
	    DW_DLV_OK)
		return dw_fail(rd, err, "line table rows");
	line_seqs_read(&rd->seqs, rd->dbg, rd->lines, version, buf, n,
		       rd->debug_line, rd->debug_line_len, rd->big_endian);
	for (Dwarf_Signed i = 0; i < n; i++) {
		Dwarf_Addr addr;
		Dwarf_Unsigned lineno, fileno, isa, disc;
		Dwarf_Bool end, prologue_end, epilogue_begin;
		struct line_entry *le;

		if (dwarf_lineaddr(buf[i], &addr, &err) != DW_DLV_OK ||
		    dwarf_lineno(buf[i], &lineno, &err) != DW_DLV_OK ||
		    dwarf_line_srcfileno(buf[i], &fileno, &err) !=
			    DW_DLV_OK ||
		    dwarf_lineendsequence(buf[i], &end, &err) != DW_DLV_OK ||
		    dwarf_prologue_end_etc(buf[i], &prologue_end,
					   &epilogue_begin, &isa, &disc,
					   &err) != DW_DLV_OK)
			return dw_fail(rd, err, "line table row");
		/* before the sequence's first DW_LNS_set_file the file is 1
		 * (libdwarf says 0); a set_file 0 (clang's) stays 0, and so
		 * does a table without a file 1 */
		if (line_seqs_at_default(&rd->seqs, end) && fileno == 0 &&
		    rd->file_end > 1)
			fileno = 1;
		ARRAY_GROW(out->rows, out->nrows + 1, out->rows_alloc);
		le = &out->rows[out->nrows++];
		le->addr = addr;
		le->file = file_name(rd, fileno);
		le->line = lineno > UINT32_MAX ? UINT32_MAX : (uint32_t)lineno;
		le->discriminator = disc > UINT32_MAX ? 0 : (uint32_t)disc;
		le->end_sequence = end != 0;
	}
	/* a table cut short: its last row ends the sequence, as in bfd */
	if (n > 0 && !out->rows[out->nrows - 1].end_sequence)
		out->rows[out->nrows - 1].end_sequence = true;
	return 1;
}

/* --- names --- */

static void names_compose(struct name_info *a, const struct name_info *b)
{
	if (a->first_name == NO_NAME) {
		a->first_name = b->first_name;
		a->first_name_c = b->first_name_c;
	}
	if (b->last_linkage != NO_NAME)
		a->last_linkage = b->last_linkage;
}

/* Whether die is in a C-like CU (the current one, or another for
 * DW_FORM_ref_addr references). */
static bool die_c_like(struct dwarf_reader *rd, Dwarf_Die die)
{
	Dwarf_Off cu_off;
	Dwarf_Die cu_die;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned lang = 0;
	uint32_t v;
	bool c;

	if (dwarf_CU_dieoffset_given_die(die, &cu_off, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(rd->dbg, err);
		return rd->c_like;
	}
	v = u64map_get(&rd->cu_langs, cu_off);
	if (v != U64MAP_NONE)
		return v == 2;
	if (dwarf_offdie_b(rd->dbg, cu_off, 1, &cu_die, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(rd->dbg, err);
		return rd->c_like;
	}
	c = die_udata(rd->dbg, cu_die, DW_AT_language, &lang) &&
	    lang_is_c_like(lang);
	dwarf_dealloc_die(cu_die);
	u64map_put(&rd->cu_langs, cu_off, c ? 2 : 1);
	return c;
}

static void die_names(struct dwarf_reader *rd, Dwarf_Die die, bool top,
		      unsigned depth, struct name_info *ni);

/* The names of the DIE a reference attribute points to (bfd's
 * find_abstract_instance()), cached by DIE offset. */
static void ref_names(struct dwarf_reader *rd, Dwarf_Attribute attr,
		      unsigned depth, struct name_info *ni)
{
	struct name_info sub = { NO_NAME, NO_NAME, false };
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	Dwarf_Die die;
	uint32_t slot;

	if (dwarf_global_formref(attr, &off, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(rd->dbg, err);
		return;
	}
	slot = u64map_get(&rd->origins, off);
	if (slot != U64MAP_NONE) {
		names_compose(ni, &rd->orig[slot]);
		return;
	}
	if (depth >= MAX_ORIGIN_DEPTH) {
		if (!rd->cut_chains++)
			warning("%s: DWARF abstract origin chain deeper than "
				"%d at DIE 0x%llx: cut", rd->path,
				MAX_ORIGIN_DEPTH, (unsigned long long)off);
		return;
	}
	if (dwarf_offdie_b(rd->dbg, off, 1, &die, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(rd->dbg, err);
		return;
	}
	die_names(rd, die, false, depth + 1, &sub);
	dwarf_dealloc_die(die);
	ARRAY_GROW(rd->orig, rd->norig + 1, rd->orig_alloc);
	rd->orig[rd->norig] = sub;
	u64map_put(&rd->origins, off, (uint32_t)rd->norig++);
	names_compose(ni, &sub);
}

/*
 * One attribute of a DIE for its names, as bfd reads them in attribute
 * order: DW_AT_name counts when no name came before, a linkage name
 * always wins, and references are read where they stand. Only the DIE
 * itself (top) follows DW_AT_abstract_origin; every level follows
 * DW_AT_specification.
 */
static void name_attr(struct dwarf_reader *rd, Dwarf_Die die,
		      Dwarf_Attribute attr, Dwarf_Half at, bool top,
		      unsigned depth, struct name_info *ni)
{
	Dwarf_Error err = NULL;
	char *s;

	switch (at) {
	case DW_AT_name:
		if (ni->first_name != NO_NAME)
			break;
		if (dwarf_formstring(attr, &s, &err) != DW_DLV_OK) {
			if (err)
				dwarf_dealloc_error(rd->dbg, err);
			break;
		}
		ni->first_name = names_intern(rd->names, s, strlen(s));
		ni->first_name_c = top ? rd->c_like : die_c_like(rd, die);
		break;
	case DW_AT_linkage_name:
	case DW_AT_MIPS_linkage_name:
		if (dwarf_formstring(attr, &s, &err) != DW_DLV_OK) {
			if (err)
				dwarf_dealloc_error(rd->dbg, err);
			break;
		}
		ni->last_linkage = names_intern(rd->names, s, strlen(s));
		break;
	case DW_AT_abstract_origin:
		if (!top)
			break;
		__attribute__((fallthrough));
	case DW_AT_specification:
		ref_names(rd, attr, depth, ni);
		break;
	default:
		break;
	}
}

/* The names of die (see name_attr()). */
static void die_names(struct dwarf_reader *rd, Dwarf_Die die, bool top,
		      unsigned depth, struct name_info *ni)
{
	Dwarf_Attribute *attrs;
	Dwarf_Signed n;

	if (!die_attrs(rd->dbg, die, &attrs, &n))
		return;
	for (Dwarf_Signed i = 0; i < n; i++)
		name_attr(rd, die, attrs[i], attr_number(rd->dbg, attrs[i]),
			  top, depth, ni);
	attrs_free(rd->dbg, attrs, n);
}

/* --- functions and ranges --- */

/* The ranges of one function DIE, merged as bfd's arange_add() merges
 * them: a new range extends the first one it touches (in list order:
 * the first range, then the others newest first), else is inserted
 * after the first. */
struct piece_list {
	struct dpiece *v;
	size_t nr, alloc;
	uint64_t first_low;	/* the first range's start, as listed */
};

static void pieces_add(struct piece_list *pl, uint64_t low, uint64_t high)
{
	if (high <= low)
		return;		/* empty, or not a range at all */
	if (!pl->nr)
		pl->first_low = low;
	for (size_t k = 0; k < pl->nr; k++) {
		/* list order: v[0], then v[nr-1] down to v[1] */
		size_t i = k == 0 ? 0 : pl->nr - k;

		if (low == pl->v[i].high) {
			pl->v[i].high = high;
			return;
		}
		if (high == pl->v[i].low) {
			pl->v[i].low = low;
			return;
		}
	}
	ARRAY_GROW(pl->v, pl->nr + 1, pl->alloc);
	pl->v[pl->nr].low = low;
	pl->v[pl->nr].high = high;
	pl->nr++;
}

static void piece_cb(void *arg, uint64_t low, uint64_t high)
{
	pieces_add(arg, low, high);
}

/* A split unit's DW_AT_ranges (split_ranges.c). */
static int read_split_ranges(struct dwarf_reader *rd, Dwarf_Attribute attr,
			     struct piece_list *pl)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned v;
	Dwarf_Half form;
	Dwarf_Off off;
	int ret;

	if (dwarf_whatform(attr, &form, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "DW_AT_ranges form");
	if (form == DW_FORM_rnglistx || form == DW_FORM_udata ||
	    form == DW_FORM_data4 || form == DW_FORM_data8) {
		if (!attr_udata(rd->dbg, attr, &v))
			return dw_fail(rd, NULL, "DW_AT_ranges");
	} else {
		if (dwarf_global_formref(attr, &off, &err) != DW_DLV_OK)
			return dw_fail(rd, err, "DW_AT_ranges");
		v = off;
	}
	if (rd->version >= 5)
		ret = split_rnglist(&rd->sr, form == DW_FORM_rnglistx, v,
				    rd->base, piece_cb, pl);
	else
		ret = split_ranges4(&rd->sr, v, rd->base, piece_cb, pl);
	if (ret < 0)
		snprintf(rd->err, sizeof(rd->err),
			 "split unit's range list 0x%llx is corrupt",
			 (unsigned long long)v);
	return ret;
}

/* DWARF 5 .debug_rnglists */
static int read_rnglist(struct dwarf_reader *rd, Dwarf_Attribute attr,
			struct piece_list *pl)
{
	Dwarf_Rnglists_Head head;
	Dwarf_Unsigned value, count, global_off;
	Dwarf_Error err = NULL;
	Dwarf_Half form;

	if (dwarf_whatform(attr, &form, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "DW_AT_ranges form");
	if (form == DW_FORM_rnglistx) {
		if (dwarf_formudata(attr, &value, &err) != DW_DLV_OK)
			return dw_fail(rd, err, "DW_AT_ranges");
	} else {
		Dwarf_Off off;

		if (dwarf_global_formref(attr, &off, &err) != DW_DLV_OK)
			return dw_fail(rd, err, "DW_AT_ranges");
		value = off;
		if (dwarf_rnglist_unreadable(rd->rnglists, rd->rnglists_size,
					     rd->have_addr, rd->addr_size,
					     value)) {
			snprintf(rd->err, sizeof(rd->err),
				 "range list at 0x%llx is corrupt or needs .debug_addr",
				 (unsigned long long)value);
			return -1;
		}
	}
	if (dwarf_rnglists_get_rle_head(attr, form, value, &head, &count,
					&global_off, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "range list");
	for (Dwarf_Unsigned i = 0; i < count; i++) {
		unsigned len, code;
		Dwarf_Unsigned raw1, raw2, lo, hi;
		Dwarf_Bool unavailable = 0;

		if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code,
						      &raw1, &raw2,
						      &unavailable, &lo, &hi,
						      &err) != DW_DLV_OK) {
			dwarf_dealloc_rnglists_head(head);
			return dw_fail(rd, err, "range list entry");
		}
		switch (code) {
		case DW_RLE_offset_pair:
		case DW_RLE_start_end:
		case DW_RLE_start_length:
		case DW_RLE_startx_endx:
		case DW_RLE_startx_length:
			if (!unavailable)
				pieces_add(pl, lo, hi);
			break;
		default:	/* base address, end of list */
			break;
		}
	}
	dwarf_dealloc_rnglists_head(head);
	return 0;
}

/* DWARF 2 to 4 .debug_ranges: offsets from the CU's base address unless
 * a base address selection entry changes it */
static int read_ranges(struct dwarf_reader *rd, Dwarf_Die die,
		       Dwarf_Attribute attr, struct piece_list *pl)
{
	Dwarf_Ranges *r;
	Dwarf_Signed n;
	Dwarf_Unsigned bytes;
	Dwarf_Off off, real;
	Dwarf_Error err = NULL;
	uint64_t base = rd->base;

	if (dwarf_global_formref(attr, &off, &err) != DW_DLV_OK) {
		Dwarf_Unsigned u;

		if (err)
			dwarf_dealloc_error(rd->dbg, err);
		err = NULL;
		if (dwarf_formudata(attr, &u, &err) != DW_DLV_OK)
			return dw_fail(rd, err, "DW_AT_ranges");
		off = u;
	}
	if (dwarf_get_ranges_b(rd->dbg, off, die, &real, &r, &n, &bytes,
			       &err) != DW_DLV_OK)
		return dw_fail(rd, err, "range list");
	for (Dwarf_Signed i = 0; i < n; i++) {
		if (r[i].dwr_type == DW_RANGES_END)
			break;
		if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = r[i].dwr_addr2;
		else
			pieces_add(pl, base + r[i].dwr_addr1,
				   base + r[i].dwr_addr2);
	}
	dwarf_ranges_dealloc(rd->dbg, r, n);
	return 0;
}

static uint32_t entry_node(struct dwarf_reader *rd, size_t d);

/* What a function DIE says, read in one pass over its attributes. */
struct func_info {
	struct name_info ni;
	Dwarf_Unsigned call_file, call_line, discriminator;
	bool has_call_file;
};

/* An address attribute: DW_FORM_addr, or an index into .debug_addr. */
static int attr_addr(struct dwarf_reader *rd, Dwarf_Attribute attr,
		     Dwarf_Addr *v)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned index;
	Dwarf_Half form;
	uint64_t a;

	if (rd->in_split && dwarf_whatform(attr, &form, &err) == DW_DLV_OK &&
	    (form == DW_FORM_addrx || form == DW_FORM_GNU_addr_index ||
	     form == DW_FORM_addrx1 || form == DW_FORM_addrx2 ||
	     form == DW_FORM_addrx3 || form == DW_FORM_addrx4)) {
		if (dwarf_get_debug_addr_index(attr, &index, &err) !=
		    DW_DLV_OK)
			return dw_fail(rd, err, "address index");
		if (!split_addrx(&rd->sr, index, &a)) {
			snprintf(rd->err, sizeof(rd->err),
				 "address index %llu is past .debug_addr",
				 (unsigned long long)index);
			return -1;
		}
		*v = a;
		return 0;
	}
	if (err)
		dwarf_dealloc_error(rd->dbg, err);
	err = NULL;
	if (dwarf_formaddr(attr, v, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "address attribute");
	return 0;
}

/*
 * The pc ranges (into pl), names and call site of a function DIE, in one
 * pass over its attributes: libdwarf looks for each attribute asked by
 * number from the start of the DIE. As in bfd, DW_AT_ranges go in where
 * they stand and low_pc/high_pc (high_pc an address or, from DWARF 4,
 * a length) after all attributes.
 */
static int read_func(struct dwarf_reader *rd, Dwarf_Die die,
		     struct func_info *fi, struct piece_list *pl)
{
	Dwarf_Attribute *attrs;
	Dwarf_Signed n;
	Dwarf_Addr low = 0, high = 0;
	bool has_high = false, high_is_addr = false;
	int ret = 0;

	memset(fi, 0, sizeof(*fi));
	fi->ni.first_name = fi->ni.last_linkage = NO_NAME;
	pl->nr = 0;
	if (!die_attrs(rd->dbg, die, &attrs, &n))
		return 0;
	for (Dwarf_Signed i = 0; i < n && ret == 0; i++) {
		Dwarf_Half at = attr_number(rd->dbg, attrs[i]), form = 0;
		Dwarf_Error err = NULL;
		Dwarf_Unsigned u;

		switch (at) {
		case DW_AT_ranges:
			ret = rd->in_split ? read_split_ranges(rd, attrs[i], pl)
			      : rd->version >= 5
				      ? read_rnglist(rd, attrs[i], pl)
				      : read_ranges(rd, die, attrs[i], pl);
			break;
		case DW_AT_low_pc:
			ret = attr_addr(rd, attrs[i], &low);
			break;
		case DW_AT_high_pc:
			if (dwarf_whatform(attrs[i], &form, &err) != DW_DLV_OK) {
				ret = dw_fail(rd, err, "DW_AT_high_pc form");
				break;
			}
			/* bfd: a length unless DW_FORM_addr */
			if (form == DW_FORM_addr || form == DW_FORM_addrx ||
			    form == DW_FORM_GNU_addr_index) {
				ret = attr_addr(rd, attrs[i], &high);
				has_high = high_is_addr = true;
			} else if (attr_udata(rd->dbg, attrs[i], &u)) {
				high = u;
				has_high = true;
				high_is_addr = false;
			}
			break;
		case DW_AT_call_file:
			fi->has_call_file = attr_udata(rd->dbg, attrs[i],
						       &fi->call_file);
			break;
		case DW_AT_call_line:
			if (!attr_udata(rd->dbg, attrs[i], &fi->call_line))
				fi->call_line = 0;
			break;
		case DW_AT_GNU_discriminator:
			if (!attr_udata(rd->dbg, attrs[i], &fi->discriminator))
				fi->discriminator = 0;
			break;
		default:
			name_attr(rd, die, attrs[i], at, true, 0, &fi->ni);
			break;
		}
	}
	attrs_free(rd->dbg, attrs, n);
	if (ret < 0)
		return -1;
	if (has_high) {
		if (!high_is_addr)
			high += low;
		if (high != 0)
			pieces_add(pl, low, high);
	}
	return 0;
}

/* A dfunc for the function DIE at stack entry d, as fi describes it. */
static uint32_t add_node(struct dwarf_reader *rd, size_t d,
			 const struct func_info *fi, Dwarf_Half tag)
{
	struct walk_entry *e = &rd->stack[d];
	struct dwarf_data *out = rd->out;
	struct dfunc f = {
		.name = NO_NAME, .caller = NO_IDX, .call_file = NO_NAME,
	};

	if (fi->ni.last_linkage != NO_NAME) {
		f.name = fi->ni.last_linkage;
		f.is_linkage = true;
	} else {
		f.name = fi->ni.first_name;
		f.is_linkage = f.name != NO_NAME && fi->ni.first_name_c;
	}
	if (rd->demangle && f.name != NO_NAME)
		f.name = demangle_cached(&rd->demangled, rd->names, f.name);
	f.dwarf_name = f.name;
	if (tag == DW_TAG_inlined_subroutine) {
		f.inlined = true;
		if (d > 0 && rd->stack[d - 1].func_up >= 0)
			f.caller = entry_node(rd,
					      (size_t)rd->stack[d - 1].func_up);
		if (fi->has_call_file)
			f.call_file = file_name(rd, fi->call_file);
		f.call_line = fi->call_line > UINT32_MAX
				      ? 0
				      : (uint32_t)fi->call_line;
		f.call_discriminator = fi->discriminator > UINT32_MAX
					       ? 0
					       : (uint32_t)fi->discriminator;
	}
	ARRAY_GROW(out->funcs, out->nfuncs + 1, out->funcs_alloc);
	out->funcs[out->nfuncs] = f;
	e->node = (uint32_t)out->nfuncs++;
	return e->node;
}

/* The dfunc of stack entry d, made when first needed: a function whose
 * code is all inlined copies has ranges in no DIE of its own, but is
 * the caller in their frames. */
static uint32_t entry_node(struct dwarf_reader *rd, size_t d)
{
	struct walk_entry *e = &rd->stack[d];
	struct piece_list none = { NULL, 0, 0, 0 };
	struct func_info fi;

	if (e->node != NO_IDX)
		return e->node;
	/* a corrupt range list costs the caller its name only */
	if (read_func(rd, e->die, &fi, &none) < 0)
		fi.ni.first_name = fi.ni.last_linkage = NO_NAME;
	free(none.v);
	return add_node(rd, d, &fi, e->tag);
}

/* --- variables --- */

/* The address of a location that is exactly DW_OP_addr <address>, the
 * only kind bfd records (var->addr). */
static bool var_address(struct dwarf_reader *rd, Dwarf_Die die,
			uint64_t *addr)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned len = 0;
	Dwarf_Ptr ptr = NULL;
	Dwarf_Block *block = NULL;
	Dwarf_Half form;
	const unsigned char *p;
	bool ok = false;
	int ret = dwarf_attr(die, DW_AT_location, &attr, &err);

	if (ret != DW_DLV_OK) {
		if (ret == DW_DLV_ERROR)
			dwarf_dealloc_error(rd->dbg, err);
		return false;
	}
	if (dwarf_whatform(attr, &form, &err) != DW_DLV_OK) {
		dwarf_dealloc_error(rd->dbg, err);
	} else if (form == DW_FORM_exprloc) {
		if (dwarf_formexprloc(attr, &len, &ptr, &err) != DW_DLV_OK) {
			dwarf_dealloc_error(rd->dbg, err);
			len = 0;
		}
	} else if (form == DW_FORM_block1 || form == DW_FORM_block2 ||
		   form == DW_FORM_block4 || form == DW_FORM_block) {
		if (dwarf_formblock(attr, &block, &err) == DW_DLV_OK) {
			len = block->bl_len;
			ptr = block->bl_data;
		} else {
			dwarf_dealloc_error(rd->dbg, err);
		}
	}
	p = ptr;
	if (p && len == 1u + rd->addr_size && p[0] == DW_OP_addr &&
	    (rd->addr_size == 4 || rd->addr_size == 8)) {
		*addr = 0;
		for (unsigned i = 0; i < rd->addr_size; i++) {
			unsigned k = rd->big_endian ? i : rd->addr_size - 1 - i;

			*addr = *addr << 8 | p[1 + k];
		}
		ok = true;
	}
	if (block)
		dwarf_dealloc(rd->dbg, block, DW_DLA_BLOCK);
	dwarf_dealloc_attribute(attr);
	return ok;
}

/*
 * A variable at a fixed address, named and placed as bfd has it: its
 * DW_AT_name, else the names DW_AT_specification leads to, and its
 * DW_AT_decl_file and DW_AT_decl_line, else those of the declaration.
 */
static int visit_var(struct dwarf_reader *rd, Dwarf_Die die)
{
	struct name_info ni = { NO_NAME, NO_NAME, false };
	struct dwarf_data *out = rd->out;
	Dwarf_Unsigned file = 0, line = 0;
	bool have_file, have_line;
	const char *name;
	struct dvar *v;
	uint64_t addr;

	if (!var_address(rd, die, &addr))
		return 0;
	name = die_string(rd->dbg, die, DW_AT_name);
	have_file = die_udata(rd->dbg, die, DW_AT_decl_file, &file);
	have_line = die_udata(rd->dbg, die, DW_AT_decl_line, &line);
	if (!name || !have_file || !have_line) {
		Dwarf_Attribute attr;
		Dwarf_Error err = NULL;
		Dwarf_Off off;
		Dwarf_Die decl;

		if (dwarf_attr(die, DW_AT_specification, &attr, &err) ==
		    DW_DLV_OK) {
			if (!name)
				ref_names(rd, attr, 0, &ni);
			if (dwarf_global_formref(attr, &off, &err) ==
				    DW_DLV_OK &&
			    dwarf_offdie_b(rd->dbg, off, 1, &decl, &err) ==
				    DW_DLV_OK) {
				if (!have_file)
					have_file = die_udata(rd->dbg, decl,
							      DW_AT_decl_file,
							      &file);
				if (!have_line)
					have_line = die_udata(rd->dbg, decl,
							      DW_AT_decl_line,
							      &line);
				dwarf_dealloc_die(decl);
			}
			dwarf_dealloc_attribute(attr);
		}
		if (err)
			dwarf_dealloc_error(rd->dbg, err);
	}
	ARRAY_GROW(out->vars, out->nvars + 1, out->vars_alloc);
	v = &out->vars[out->nvars];
	v->addr = addr;
	v->order = (uint32_t)out->nvars++;
	if (name)
		v->name = names_intern(rd->names, name, strlen(name));
	else
		v->name = ni.last_linkage != NO_NAME ? ni.last_linkage
						     : ni.first_name;
	v->file = have_file ? file_name(rd, file) : NO_NAME;
	v->line = have_line && line <= UINT32_MAX ? (uint32_t)line : 0;
	return 0;
}

/*
 * Whether DIEs of this tag can have functions or variables with an
 * address among their children. Types cannot (gcc and clang put member
 * function definitions and static data members at namespace level, with
 * DW_AT_specification), and in C++ most DIEs are types: not descending
 * into them reads a third of the DIEs. bfd descends everywhere.
 */
static bool tag_holds_code(Dwarf_Half tag)
{
	switch (tag) {
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_subprogram:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
	case DW_TAG_common_block:
		return true;
	default:
		return false;
	}
}

static int visit(struct dwarf_reader *rd, size_t d, struct piece_list *pl)
{
	struct walk_entry *e = &rd->stack[d];
	struct dwarf_data *out = rd->out;
	struct func_info fi;
	Dwarf_Error err = NULL;
	Dwarf_Half tag;
	Dwarf_Off off;
	uint32_t node;

	if (dwarf_tag(e->die, &tag, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "DIE tag");
	e->tag = tag;
	e->is_func = tag == DW_TAG_subprogram || tag == DW_TAG_entry_point ||
		     tag == DW_TAG_inlined_subroutine;
	e->descend = tag_holds_code(tag);
	e->node = NO_IDX;
	e->func_up = e->is_func ? (int32_t)d
				: (d > 0 ? rd->stack[d - 1].func_up : -1);
	if (tag == DW_TAG_variable || tag == DW_TAG_member)
		return visit_var(rd, e->die);
	if (!e->is_func)
		return 0;
	if (read_func(rd, e->die, &fi, pl) < 0)
		return -1;
	if (!pl->nr)
		return 0;
	node = add_node(rd, d, &fi, tag);
	out->funcs[node].low = pl->first_low;
	out->funcs[node].has_low = true;
	if (dwarf_dieoffset(e->die, &off, &err) != DW_DLV_OK)
		return dw_fail(rd, err, "DIE offset");
	for (size_t i = 0; i < pl->nr; i++) {
		struct dpiece *p;

		ARRAY_GROW(out->pieces, out->npieces + 1, out->pieces_alloc);
		p = &out->pieces[out->npieces++];
		*p = pl->v[i];
		p->func = node;
		p->die = rd->die_base + off;
	}
	return 0;
}

static void stack_push(struct dwarf_reader *rd, Dwarf_Die die)
{
	ARRAY_GROW(rd->stack, rd->depth + 1, rd->stack_alloc);
	memset(&rd->stack[rd->depth], 0, sizeof(rd->stack[0]));
	rd->stack[rd->depth].die = die;
	rd->stack[rd->depth].node = NO_IDX;
	rd->stack[rd->depth].func_up = -1;
	rd->depth++;
}

/*
 * Every DIE below the CU, depth first, with the path from the CU to the
 * current DIE on rd->stack (stack[0] is the CU DIE, which the caller
 * owns; all others are freed as they are left).
 *
 * Depth first is the order of the DIEs in the section, so each DIE met
 * must lie after the one before: a DW_AT_sibling pointing back (corrupt
 * input) would otherwise walk in a circle for ever.
 */
static int walk_dies(struct dwarf_reader *rd, Dwarf_Die cu_die)
{
	struct piece_list pl = { NULL, 0, 0, 0 };
	Dwarf_Error err = NULL;
	Dwarf_Off last = 0, off;
	Dwarf_Die next;
	int ret = -1, r;

	rd->depth = 0;
	stack_push(rd, cu_die);
	if (dwarf_dieoffset(cu_die, &last, &err) != DW_DLV_OK) {
		dw_fail(rd, err, "DIE offset");
		goto out;
	}
	r = dwarf_child(cu_die, &next, &err);
	if (r == DW_DLV_NO_ENTRY)
		ret = 0;
	if (r != DW_DLV_OK) {
		if (r == DW_DLV_ERROR)
			dw_fail(rd, err, "DIE tree");
		goto out;
	}
	for (;;) {
		stack_push(rd, next);
		if (dwarf_dieoffset(next, &off, &err) != DW_DLV_OK) {
			dw_fail(rd, err, "DIE offset");
			goto out;
		}
		if (off <= last) {
			snprintf(rd->err, sizeof(rd->err), "the DIE at 0x%llx "
				 "comes back to 0x%llx",
				 (unsigned long long)last,
				 (unsigned long long)off);
			goto out;
		}
		last = off;
		if (visit(rd, rd->depth - 1, &pl) < 0)
			goto out;
		if (!rd->stack[rd->depth - 1].descend) {
			/* skip its children */
		} else if (rd->depth < MAX_DIE_DEPTH) {
			r = dwarf_child(next, &next, &err);
			if (r == DW_DLV_OK)
				continue;
			if (r == DW_DLV_ERROR) {
				dw_fail(rd, err, "DIE tree");
				goto out;
			}
		} else {
			rd->deep_cus++;	/* its children are not read */
		}
		/* leave DIEs until one has a sibling */
		for (;;) {
			Dwarf_Die die = rd->stack[--rd->depth].die;

			r = dwarf_siblingof_b(rd->dbg, die, 1, &next, &err);
			dwarf_dealloc_die(die);
			if (r == DW_DLV_ERROR) {
				dw_fail(rd, err, "DIE tree");
				goto out;
			}
			if (r == DW_DLV_OK)
				break;
			if (rd->depth == 1) {
				ret = 0;
				goto out;
			}
		}
	}
out:
	while (rd->depth > 1)
		dwarf_dealloc_die(rd->stack[--rd->depth].die);
	rd->depth = 0;
	free(pl.v);
	return ret;
}

/* --- compilation units --- */

/*
 * The DIEs of the split unit of skeleton (-gsplit-dwarf), walked with
 * the skeleton's line table (DW_AT_call_file numbers its files: the
 * split unit has none of its own). Its DIE offsets are its file's, so
 * the caches keyed by them are set aside meanwhile. 0 when the unit was
 * not found (dwarf_split_release() says so): the lines stay.
 */
static int read_split(struct dwarf_reader *rd, Dwarf_Die skel,
		      const Dwarf_Sig8 *id)
{
	Dwarf_Debug dbg, own = rd->dbg;
	struct u64map origins = rd->origins, cu_langs = rd->cu_langs;
	size_t norig = rd->norig;
	const char *name = die_string(rd->dbg, skel, DW_AT_dwo_name);
	Dwarf_Unsigned lang = 0;
	Dwarf_Error err = NULL;
	Dwarf_Off skel_off = 0;
	Dwarf_Die die;
	int ret;

	if (!name)
		name = die_string(rd->dbg, skel, DW_AT_GNU_dwo_name);
	Dwarf_Unsigned base = 0;

	if (!dwarf_split_get(&rd->split, name, rd->comp_dir, id, &dbg, &die,
			     &rd->sr.rnglists, &rd->sr.rnglists_len))
		return 0;
	rd->sr.big = rd->big_endian;
	rd->sr.addr_size = rd->addr_size;
	rd->sr.addr = rd->debug_addr;
	rd->sr.addr_len = rd->debug_addr_len;
	if (!die_offset(rd->dbg, skel, DW_AT_addr_base, &base) &&
	    !die_offset(rd->dbg, skel, DW_AT_GNU_addr_base, &base))
		base = 0;
	rd->sr.addr_base = base;
	rd->sr.ranges = rd->debug_ranges;
	rd->sr.ranges_len = rd->debug_ranges_len;
	if (!die_offset(rd->dbg, skel, DW_AT_GNU_ranges_base, &base))
		base = 0;
	rd->sr.ranges_base = base;
	rd->in_split = true;
	if (dwarf_dieoffset(skel, &skel_off, &err) != DW_DLV_OK && err)
		dwarf_dealloc_error(rd->dbg, err);
	rd->dbg = dbg;
	rd->die_base = (uint64_t)skel_off << 32;
	u64map_init(&rd->origins);
	u64map_init(&rd->cu_langs);
	rd->c_like = die_udata(rd->dbg, die, DW_AT_language, &lang) &&
		     lang_is_c_like(lang);
	ret = walk_dies(rd, die);
	dwarf_dealloc_die(die);
	u64map_release(&rd->origins);
	u64map_release(&rd->cu_langs);
	rd->origins = origins;
	rd->cu_langs = cu_langs;
	rd->die_base = 0;
	rd->in_split = false;
	rd->dbg = own;
	rd->norig = norig;	/* the slots after were the split unit's */
	dwarf_split_put(&rd->split);
	return ret;
}

/* What read_cu() reads of a unit. */
enum cu_part {
	CU_WHOLE,		/* lines and DIEs */
	CU_LINES,		/* a skeleton's lines: its DIEs come later */
	CU_SPLIT,		/* a skeleton's split unit's DIEs */
};

static int read_cu(struct dwarf_reader *rd, Dwarf_Die cu_die,
		   enum cu_part part, const Dwarf_Sig8 *split_id)
{
	struct dwarf_data *out = rd->out;
	size_t nrows = out->nrows, nfuncs = out->nfuncs;
	size_t npieces = out->npieces, nvars = out->nvars;
	Dwarf_Unsigned lang = 0;
	Dwarf_Addr low;
	Dwarf_Error err = NULL;
	Dwarf_Off cu_off;
	const char *cd;
	int ret;

	rd->c_like = die_udata(rd->dbg, cu_die, DW_AT_language, &lang) &&
		     lang_is_c_like(lang);
	if (dwarf_dieoffset(cu_die, &cu_off, &err) == DW_DLV_OK)
		u64map_put(&rd->cu_langs, cu_off, rd->c_like ? 2 : 1);
	else if (err)
		dwarf_dealloc_error(rd->dbg, err);
	err = NULL;
	rd->base = dwarf_lowpc(cu_die, &low, &err) == DW_DLV_OK ? low : 0;
	if (err)
		dwarf_dealloc_error(rd->dbg, err);
	/* Irix cc's "host.:/dir", which bfd strips */
	cd = die_string(rd->dbg, cu_die, DW_AT_comp_dir);
	if (cd) {
		const char *colon = strchr(cd, ':');

		if (colon && colon != cd && colon[-1] == '.' &&
		    colon[1] == '/')
			cd = colon + 1;
	}
	rd->comp_dir = cd;
	rd->nfiles = 0;
	rd->lines = NULL;
	rd->files_only = part == CU_SPLIT;
	ret = read_lines(rd, cu_die);
	/* bfd drops a CU without a line table, functions and all */
	if (ret > 0 && part == CU_WHOLE)
		ret = walk_dies(rd, cu_die);
	else if (ret > 0 && part == CU_SPLIT)
		ret = read_split(rd, cu_die, split_id);
	if (rd->lines)
		dwarf_srclines_dealloc_b(rd->lines);
	rd->lines = NULL;
	if (ret < 0) {		/* nothing of a corrupt CU is kept */
		out->nrows = nrows;
		out->nfuncs = nfuncs;
		out->npieces = npieces;
		out->nvars = nvars;
	}
	return ret;
}

/*
 * The split units, after all units of the binary were read: libdwarf
 * finds the skeleton of a split unit's address (dwarf_set_tied_dbg())
 * by reading the binary's unit headers itself, which upset the walk of
 * dwarf_next_cu_header_d() when done amid it (it never ended).
 */
static void read_skeletons(struct dwarf_reader *rd)
{
	for (size_t i = 0; i < rd->nskels; i++) {
		const struct skeleton *sk = &rd->skels[i];
		Dwarf_Error err = NULL;
		Dwarf_Die die;

		if (dwarf_offdie_b(rd->dbg, sk->off, 1, &die, &err) !=
		    DW_DLV_OK) {
			if (err)
				dwarf_dealloc_error(rd->dbg, err);
			continue;	/* read once already */
		}
		rd->version = sk->version;
		rd->addr_size = sk->addr_size;
		if (read_cu(rd, die, CU_SPLIT, &sk->id) < 0 && !rd->bad_cus++)
			warning("%s: corrupt DWARF in a split unit: %s; its "
				"functions are skipped", rd->path, rd->err);
		dwarf_dealloc_die(die);
	}
}

int dwarf_read(struct elf_file *ef, const char *prog, struct names *names,
	       bool demangle, bool big_endian, const uint64_t *want,
	       size_t nwant, struct dwarf_data *out)
{
	const char *path = elf_path(ef);
	int fd = elf_fd(ef);
	struct dwarf_reader rd = {
		.path = path, .names = names, .demangle = demangle,
		.out = out, .big_endian = big_endian,
	};
	const unsigned char *debug_addr;
	size_t debug_addr_size;
	Dwarf_Error err = NULL;
	struct u64map units;	/* want's units: CU DIE offset -> 1 */
	bool some_units;
	int ret;

	/* the line rows alone (want) need none of the ranges' sections */
	rd.have_addr = !want && elf_section_bytes(ef, ".debug_addr",
						  &debug_addr,
						  &debug_addr_size);
	if (rd.have_addr) {
		rd.debug_addr = debug_addr;
		rd.debug_addr_len = debug_addr_size;
	}
	if (want || !elf_section_bytes(ef, ".debug_ranges", &rd.debug_ranges,
				       &rd.debug_ranges_len))
		rd.debug_ranges = NULL;
	if (!elf_section_bytes(ef, ".debug_line", &rd.debug_line,
			       &rd.debug_line_len))
		rd.debug_line = NULL;
	if (want || !elf_section_bytes(ef, ".debug_rnglists", &rd.rnglists,
				       &rd.rnglists_size))
		rd.rnglists = NULL;

	memset(out, 0, sizeof(*out));
	/* everything libdwarf hands out is given back below, so it need
	 * not keep a search tree of its allocations for dwarf_finish():
	 * that tree was a third of the time on big binaries */
	dwarf_set_de_alloc_flag(0);
	ret = dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL,
			   &rd.dbg, &err);
	if (ret == DW_DLV_NO_ENTRY)
		return 1;
	if (ret != DW_DLV_OK) {
		warning("%s: cannot read DWARF: %s", path,
			err ? dwarf_errmsg(err) : "unknown error");
		if (err)
			dwarf_dealloc_error(NULL, err);
		return -1;
	}
	rd.unknown = names_intern(names, "<unknown>", 9);
	dwarf_split_init(&rd.split, path, prog ? prog : path);
	u64map_init(&rd.origins);
	u64map_init(&rd.cu_langs);
	u64map_init(&rd.demangled);
	u64map_init(&units);
	some_units = want && dwarf_units_holding(rd.dbg, want, nwant, &units);
	for (;;) {
		Dwarf_Unsigned len, type_off, next;
		Dwarf_Half version, addr_size, off_size, ext_size, type;
		Dwarf_Off abbrev_off;
		Dwarf_Sig8 sig, split_id;
		Dwarf_Die cu_die;
		bool split;

		ret = dwarf_next_cu_header_d(rd.dbg, 1, &len, &version,
					     &abbrev_off, &addr_size,
					     &off_size, &ext_size, &sig,
					     &type_off, &next, &type, &err);
		if (ret == DW_DLV_NO_ENTRY)
			break;
		if (ret != DW_DLV_OK) {
			dw_fail(&rd, err, "unit header");
			warning("%s: corrupt DWARF: %s; the units after it are "
				"not read", path, rd.err);
			break;
		}
		if (type == DW_UT_type || type == DW_UT_split_type)
			continue;
		rd.version = version;
		rd.addr_size = addr_size;
		ret = dwarf_siblingof_b(rd.dbg, NULL, 1, &cu_die, &err);
		if (ret != DW_DLV_OK) {
			if (ret == DW_DLV_ERROR)
				dwarf_dealloc_error(rd.dbg, err);
			rd.bad_cus++;
			continue;
		}
		if (some_units) {
			Dwarf_Off off;

			if (dwarf_dieoffset(cu_die, &off, &err) != DW_DLV_OK) {
				dwarf_dealloc_error(rd.dbg, err);
				err = NULL;
			} else if (u64map_get(&units, off) == U64MAP_NONE) {
				dwarf_dealloc_die(cu_die);
				continue;
			}
		}
		/* -gsplit-dwarf: DWARF 5's skeleton unit, or GCC's DWARF 4
		 * one naming its .dwo; its line table is here, its DIEs
		 * (functions, inlined calls) are in the split unit */
		split = (type == DW_UT_skeleton ||
			 die_string(rd.dbg, cu_die, DW_AT_GNU_dwo_name)) &&
			dwarf_split_unit_id(rd.dbg, cu_die, type, &sig,
					    &split_id);
		if (split && !want) {
			Dwarf_Off off;

			if (dwarf_dieoffset(cu_die, &off, &err) != DW_DLV_OK) {
				dwarf_dealloc_error(rd.dbg, err);
				split = false;
			} else {
				ARRAY_GROW(rd.skels, rd.nskels + 1,
					   rd.skels_alloc);
				rd.skels[rd.nskels++] = (struct skeleton){
					off, split_id, version, addr_size
				};
			}
		}
		if (read_cu(&rd, cu_die, split || want ? CU_LINES : CU_WHOLE,
			    NULL) < 0 &&
		    !rd.bad_cus++)
			warning("%s: corrupt DWARF in a compilation unit: %s; "
				"unit skipped", path, rd.err);
		dwarf_dealloc_die(cu_die);
	}
	read_skeletons(&rd);
	dwarf_split_release(&rd.split);
	if (rd.bad_cus > 1)
		warning("%s: %u corrupt DWARF compilation units skipped", path,
			rd.bad_cus);
	if (rd.deep_cus)
		warning("%s: DWARF DIEs nested deeper than %d: %u subtrees "
			"not read", path, MAX_DIE_DEPTH, rd.deep_cus);
	if (rd.cut_chains > 1)
		warning("%s: %u more DWARF abstract origin chains cut", path,
			rd.cut_chains - 1);
	u64map_release(&rd.origins);
	u64map_release(&rd.cu_langs);
	u64map_release(&rd.demangled);
	u64map_release(&units);
	free(rd.orig);
	free(rd.files);
	free(rd.stack);
	free(rd.skels);
	line_seqs_release(&rd.seqs);
	dwarf_finish(rd.dbg, &err);
	return 0;
}

void dwarf_data_release(struct dwarf_data *d)
{
	free(d->rows);
	free(d->funcs);
	free(d->pieces);
	free(d->vars);
	memset(d, 0, sizeof(*d));
}
