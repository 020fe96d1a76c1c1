/*
 * What libdwarf 20210528 must not be given (found by fuzzing symtab_open,
 * see test_corrupt_dwarf in tests/test_symtab.c):
 *
 * - It reads the table headers of .debug_rnglists and .debug_loclists
 *   as soon as it reads .debug_info, and a header whose length or offset
 *   count does not fit makes it free the same memory twice. DWARF 5
 *   section 7.28 and 7.29:
 *     unit_length        4 bytes, or 0xffffffff and 8 bytes (64-bit)
 *     version            2 bytes, 5
 *     address_size       1 byte
 *     segment_selector   1 byte, 0
 *     offset_entry_count 4 bytes, then that many offsets of 4 or 8 bytes
 *
 *   The entries of range lists are checked too: an entry that indexes
 *   .debug_addr in a file without one makes libdwarf lose an error it
 *   allocated (a leak that only its allocation tracking, slow on big
 *   files, would take back).
 *
 * - It reads a DWARF section by its name whatever its type: one marked
 *   SHT_NOBITS (no bytes in the file) is read from its offset all the
 *   same, and such a .debug_rnglists made it free memory twice. A DWARF
 *   section without contents is refused before libdwarf sees it.
 *
 * - It allocates a DWARF 5 line table's directories and files by the
 *   counts in the header before reading them: a count of 0xffffffff asks
 *   for gigabytes. Each count must fit in the bytes of the header
 *   (section 6.2.4: every entry takes at least one byte).
 */
#include <string.h>

#include "base/cursor.h"
#include "base/diag.h"
#include "symtab_int.h"

/* What the checks need to know of the file. */
struct check_ctx {
	bool big;		/* big-endian */
	bool have_addr;		/* it has a .debug_addr */
};

/*
 * The entries of one range list table (DWARF 5 section 7.25): kinds 1 to
 * 3 index .debug_addr, which a file without one cannot resolve (libdwarf
 * then loses an error it made); unknown kinds are corrupt.
 */
static const char *check_ranges(struct cursor *c, unsigned addr_size,
				 bool have_addr)
{
	uint64_t v;

	while (c->p < c->end) {
		unsigned kind = *c->p++;

		if (kind >= 1 && kind <= 3 && !have_addr)
			return "an indexed address without .debug_addr";
		switch (kind) {
		case 0:		/* DW_RLE_end_of_list */
			break;
		case 1:		/* DW_RLE_base_addressx */
			if (!cursor_uleb(c, &v))
				return "a range list entry is cut short";
			break;
		case 2:		/* DW_RLE_startx_endx */
		case 3:		/* DW_RLE_startx_length */
		case 4:		/* DW_RLE_offset_pair */
			if (!cursor_uleb(c, &v) || !cursor_uleb(c, &v))
				return "a range list entry is cut short";
			break;
		case 5:		/* DW_RLE_base_address */
			if (!cursor_skip(c, addr_size))
				return "a range list entry is cut short";
			break;
		case 6:		/* DW_RLE_start_end */
			if (!cursor_skip(c, 2 * addr_size))
				return "a range list entry is cut short";
			break;
		case 7:		/* DW_RLE_start_length */
			if (!cursor_skip(c, addr_size) || !cursor_uleb(c, &v))
				return "a range list entry is cut short";
			break;
		default:
			return "an unknown range list entry";
		}
	}
	return NULL;
}

/* NULL when every table header of a list section fits, else why not;
 * for range lists the entries too. */
static const char *check_lists(const unsigned char *p, size_t size,
			       const struct check_ctx *ctx, bool ranges)
{
	bool big = ctx->big;
	size_t off = 0;

	while (off < size) {
		uint64_t len, count;
		unsigned offsize = 4;
		size_t left = size - off, head = 4;

		if (left < 4)
			return "a table header is cut short";
		len = bytes_get(p + off, 4, big);
		if (len == 0xffffffff) {
			if (left < 12)
				return "a table header is cut short";
			len = bytes_get(p + off + 4, 8, big);
			offsize = 8;
			head = 12;
		} else if (len >= 0xfffffff0) {
			return "a table length is a reserved value";
		}
		if (len > left - head)
			return "a table runs past the end of the section";
		if (len < 8)
			return "a table is too short for its header";
		if (bytes_get(p + off + head, 2, big) != 5)
			return "a table is not DWARF 5";
		if (p[off + head + 2] != 4 && p[off + head + 2] != 8)
			return "a table has an unknown address size";
		if (p[off + head + 3] != 0)
			return "a table has segment selectors";
		count = bytes_get(p + off + head + 4, 4, big);
		if (count > (len - 8) / offsize)
			return "a table has more offsets than bytes";
		if (ranges) {
			struct cursor c;
			const char *why;

			cursor_init(&c, p + off + head + 8 + count * offsize,
				    p + off + head + len, big);
			why = check_ranges(&c, p[off + head + 2],
					   ctx->have_addr);
			if (why)
				return why;
		}
		off += head + (size_t)len;
	}
	return NULL;
}

static const char *check_rnglists(const unsigned char *p, size_t size,
				  const struct check_ctx *ctx)
{
	return check_lists(p, size, ctx, true);
}

static const char *check_loclists(const unsigned char *p, size_t size,
				  const struct check_ctx *ctx)
{
	return check_lists(p, size, ctx, false);
}

/* Skip one value of form; false when it does not fit or the form is
 * not one a line table header uses (then nothing more is checked). */
static bool skip_form(struct cursor *c, uint64_t form, unsigned offsize)
{
	uint64_t n;

	switch (form) {
	case 0x08:		/* DW_FORM_string */
		while (c->p < c->end && *c->p)
			c->p++;
		return cursor_skip(c, 1);
	case 0x0e:		/* DW_FORM_strp */
	case 0x17:		/* DW_FORM_sec_offset */
	case 0x1f:		/* DW_FORM_line_strp */
		return cursor_skip(c, offsize);
	case 0x0f:		/* DW_FORM_udata */
	case 0x1a:		/* DW_FORM_strx */
		return cursor_uleb(c, &n);
	case 0x0b:		/* DW_FORM_data1 */
	case 0x25:		/* DW_FORM_strx1 */
		return cursor_skip(c, 1);
	case 0x05:		/* DW_FORM_data2 */
	case 0x26:		/* DW_FORM_strx2 */
		return cursor_skip(c, 2);
	case 0x27:		/* DW_FORM_strx3 */
		return cursor_skip(c, 3);
	case 0x06:		/* DW_FORM_data4 */
	case 0x28:		/* DW_FORM_strx4 */
		return cursor_skip(c, 4);
	case 0x07:		/* DW_FORM_data8 */
		return cursor_skip(c, 8);
	case 0x1e:		/* DW_FORM_data16 */
		return cursor_skip(c, 16);
	case 0x09:		/* DW_FORM_block */
		return cursor_uleb(c, &n) && cursor_skip(c, n);
	default:
		return false;
	}
}

/*
 * A directory or file table of a DWARF 5 line table header: its entry
 * formats, its count, its entries. NULL when it fits (or uses a form we
 * do not know: libdwarf is left to judge), else why not.
 */
static const char *check_entries(struct cursor *c, unsigned offsize,
				 bool *done)
{
	uint64_t forms[256], nformats, count, type;

	*done = false;
	if (!cursor_skip(c, 1))
		return "a table header is cut short";
	nformats = c->p[-1];
	for (uint64_t i = 0; i < nformats; i++)
		if (!cursor_uleb(c, &type) || !cursor_uleb(c, &forms[i]))
			return "a table header is cut short";
	if (!cursor_uleb(c, &count))
		return "a table header is cut short";
	/* every entry takes a byte at least, whatever its forms */
	if (count > (uint64_t)(c->end - c->p))
		return "a count larger than its header";
	for (uint64_t i = 0; i < count; i++) {
		for (uint64_t k = 0; k < nformats; k++) {
			if (!skip_form(c, forms[k], offsize)) {
				*done = true;	/* unknown form: stop */
				return NULL;
			}
		}
	}
	return NULL;
}

/* NULL when every DWARF 5 line table header's counts fit. */
static const char *check_lines(const unsigned char *p, size_t size,
			       const struct check_ctx *ctx)
{
	bool big = ctx->big;
	size_t off = 0;

	while (off < size) {
		struct cursor c;
		uint64_t len, hlen;
		unsigned offsize = 4;
		const unsigned char *unit_end;
		const char *why;
		bool done;

		cursor_init(&c, p + off, p + size, big);
		if (!cursor_skip(&c, 4))
			return "a table header is cut short";
		len = bytes_get(c.p - 4, 4, big);
		if (len == 0xffffffff) {
			if (!cursor_skip(&c, 8))
				return "a table header is cut short";
			len = bytes_get(c.p - 8, 8, big);
			offsize = 8;
		}
		if (len > (uint64_t)(c.end - c.p))
			return "a table runs past the end of the section";
		unit_end = c.p + len;
		off = (size_t)(unit_end - p);
		c.end = unit_end;
		if (!cursor_skip(&c, 2))
			return "a table header is cut short";
		if (bytes_get(c.p - 2, 2, big) < 5)
			continue;	/* counted as read: no such trouble */
		/* address and segment selector sizes, header_length */
		if (!cursor_skip(&c, 2) || !cursor_skip(&c, offsize))
			return "a table header is cut short";
		hlen = bytes_get(c.p - offsize, offsize, big);
		if (hlen > (uint64_t)(c.end - c.p))
			return "a header runs past its table";
		c.end = c.p + hlen;
		/* minimum_instruction_length .. opcode_base, then the
		 * standard_opcode_lengths */
		if (!cursor_skip(&c, 6) ||
		    !cursor_skip(&c, c.p[-1] ? c.p[-1] - 1u : 0))
			return "a table header is cut short";
		/* the directories, then the files */
		why = check_entries(&c, offsize, &done);
		if (!why && !done)
			why = check_entries(&c, offsize, &done);
		if (why)
			return why;
	}
	return NULL;
}

/*
 * A .dwp's unit index, .debug_cu_index or .debug_tu_index (DWARF 5
 * section 7.3.5.3; GNU's version 2 for DWARF 4 is laid out alike):
 *   version 4 bytes (5: a 2-byte version and 2 of padding), column
 *   count N, unit count U, slot count S (4 bytes each); then S 8-byte
 *   hash signatures, S 4-byte row numbers (0 empty, else 1 to U), N
 *   section ids, and U rows of N offsets, then of N sizes.
 * libdwarf 20210528 lost the memory of an index whose section id it
 * refused (tests/fuzz/regress/dwp-index-bad-column); the hash table is
 * probed modulo S, a power of two.
 */
static const char *check_index(const unsigned char *p, size_t size,
			       const struct check_ctx *ctx)
{
	bool big = ctx->big;
	uint64_t ver, ncols, nunits, nslots, need;

	if (size < 16)
		return "the header is cut short";
	ver = bytes_get(p, 4, big);
	if (big && ver >> 16 == 5)
		ver = 5;	/* the 2-byte version first */
	ncols = bytes_get(p + 4, 4, big);
	nunits = bytes_get(p + 8, 4, big);
	nslots = bytes_get(p + 12, 4, big);
	if (ver != 2 && ver != 5)
		return "an unknown version";
	if (ncols == 0 && nunits == 0 && nslots == 0)
		return NULL;	/* an empty index (dwp writes one) */
	if (ncols == 0 || ncols > 8)
		return "a column count that is not 1 to 8";
	if (nslots == 0 || (nslots & (nslots - 1)))
		return "a slot count that is not a power of two";
	need = 16 + nslots * 12 + ncols * 4 + nunits * ncols * 8;
	if (need > size)
		return "its tables run past the end of the section";
	for (uint64_t i = 0; i < nslots; i++)
		if (bytes_get(p + 16 + nslots * 8 + i * 4, 4, big) > nunits)
			return "a row number past its unit count";
	for (uint64_t i = 0; i < ncols; i++) {
		uint64_t id = bytes_get(p + 16 + nslots * 12 + i * 4, 4, big);

		if (id < 1 || id > 8 || (ver == 5 && id == 2))
			return "an unknown section id";
	}
	return NULL;
}

int dwarf_precheck(struct elf_file *ef)
{
	/* a .dwo or .dwp's sections are named .debug_*.dwo, which libdwarf
	 * reads as the same sections (a .debug_rnglists.dwo of no table made
	 * it free memory twice, tests/fuzz/regress/dwo-rnglists-strings);
	 * their range lists index the skeleton's .debug_addr (split) */
	static const struct {
		const char *name;
		const char *(*check)(const unsigned char *p, size_t size,
				     const struct check_ctx *ctx);
		bool split;
	} lists[] = {
		{ ".debug_rnglists", check_rnglists, false },
		{ ".debug_loclists", check_loclists, false },
		{ ".debug_line", check_lines, false },
		{ ".debug_rnglists.dwo", check_rnglists, true },
		{ ".debug_loclists.dwo", check_loclists, true },
		{ ".debug_line.dwo", check_lines, true },
		{ ".debug_cu_index", check_index, true },
		{ ".debug_tu_index", check_index, true },
	};
	struct check_ctx ctx;
	const unsigned char *addr;
	const char *empty;
	size_t addr_size;
	bool have_addr;

	/* libdwarf goes by names and reads such a section's size from its
	 * offset anyway: bytes that are not DWARF, never checked here
	 * (a .debug_rnglists marked SHT_NOBITS made it free memory twice,
	 * tests/fuzz/regress/rnglists-nobits) */
	empty = elf_empty_dwarf_section(ef);
	if (empty) {
		warning("%s: corrupt DWARF: section '%s' has a size but no "
			"contents (SHT_NOBITS); DWARF not read", elf_path(ef),
			empty);
		return -1;
	}
	ctx.big = elf_big_endian(ef);
	have_addr = elf_section_bytes(ef, ".debug_addr", &addr, &addr_size) &&
		    addr_size > 0;

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const unsigned char *data;
		const char *why;
		size_t size;

		uint64_t vaddr;

		if (!elf_section_bytes(ef, lists[i].name, &data, &size)) {
			/* there but not readable: flagged compressed with
			 * no header libelf knows. libdwarf then reads a
			 * .dwp's location lists from a null pointer
			 * (tests/fuzz/regress/dwp-rnglists-flagged-compressed) */
			if (!elf_section_vaddr(ef, lists[i].name, &vaddr))
				continue;
			warning("%s: corrupt DWARF: section '%s' cannot be "
				"read (flagged compressed, but not as libelf "
				"decompresses); DWARF not read", elf_path(ef),
				lists[i].name);
			return -1;
		}
		ctx.have_addr = have_addr || lists[i].split;
		why = lists[i].check(data, size, &ctx);
		if (why) {
			warning("%s: corrupt DWARF: %s: %s; DWARF not read",
				elf_path(ef), lists[i].name, why);
			return -1;
		}
	}
	return 0;
}

static bool skip_uleb(const unsigned char **p, const unsigned char *end)
{
	while (*p < end)
		if (!(*(*p)++ & 0x80))
			return true;
	return false;
}

/* dwarf_precheck() checks each table from its start; a DW_AT_ranges
 * may point into the middle of one (see symtab_int.h). */
bool dwarf_rnglist_unreadable(const unsigned char *rnglists, size_t size,
			      bool have_addr, unsigned addr_size, uint64_t off)
{
	const unsigned char *p, *end;
	unsigned addr = addr_size ? addr_size : 8;

	if (have_addr)
		return false;
	/* no section: nothing to add an offset to (a null pointer) */
	if (!rnglists || off >= size)
		return true;
	end = rnglists + size;
	for (p = rnglists + off; p < end;) {
		unsigned kind = *p++;

		switch (kind) {
		case 0:		/* DW_RLE_end_of_list */
			return false;
		case 1:		/* DW_RLE_base_addressx */
		case 2:		/* DW_RLE_startx_endx */
		case 3:		/* DW_RLE_startx_length */
			return true;
		case 4:		/* DW_RLE_offset_pair */
			if (!skip_uleb(&p, end) || !skip_uleb(&p, end))
				return true;
			break;
		case 5:		/* DW_RLE_base_address */
			if ((size_t)(end - p) < addr)
				return true;
			p += addr;
			break;
		case 6:		/* DW_RLE_start_end */
			if ((size_t)(end - p) < 2 * addr)
				return true;
			p += 2 * addr;
			break;
		case 7:		/* DW_RLE_start_length */
			if ((size_t)(end - p) < addr)
				return true;
			p += addr;
			if (!skip_uleb(&p, end))
				return true;
			break;
		default:
			return true;
		}
	}
	return true;	/* no end_of_list before the section ends */
}
