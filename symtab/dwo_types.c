/*
 * A .dwo of g++ -gsplit-dwarf -fdebug-types-section has one
 * .debug_info.dwo section per type unit (DWARF 5) or one .debug_types.dwo
 * each (DWARF 4), beside the one of the compile unit, and no section
 * groups: libdwarf 20210528 refuses the file (DW_DLE_SECTION_DUPLICATION).
 * We read no type unit, so the file is copied into memory (a memfd)
 * with those sections' names pointed at the empty string (offset 0 of
 * .shstrtab): libdwarf then sees one .debug_info.dwo, the compile unit's.
 * Nothing else changes: same bytes, same offsets.
 *
 *   ELF header: e_shoff, e_shentsize, e_shnum, e_shstrndx
 *   section header: sh_name (4 bytes, first in ELF32 and ELF64),
 *                   sh_offset, sh_size
 *   unit header (DWARF 5 7.5.1): unit_length (4, or 0xffffffff and 8),
 *                   version (2), unit_type (1)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cursor.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "symtab_int.h"

#define DW_UT_type_ 2u
#define DW_UT_split_type_ 6u

/* Whether the section at [off, off + size) of b starts with a type unit
 * (DWARF 5). */
static bool holds_type_unit(const unsigned char *b, uint64_t off,
			    uint64_t size, bool big)
{
	uint64_t at = 4, len;

	if (size < 7)
		return false;
	len = bytes_get(b + off, 4, big);
	if (len == 0xffffffff)
		at = 12;
	if (size < at + 3 || bytes_get(b + off + at, 2, big) < 5)
		return false;
	return b[off + at + 2] == DW_UT_type_ ||
	       b[off + at + 2] == DW_UT_split_type_;
}

/* Name the type-unit sections of the image b (n bytes) with the empty
 * string; how many. 0 for anything not laid out as expected. */
static unsigned unname_types(unsigned char *b, size_t n)
{
	bool is64, big;
	uint64_t shoff, entsize, shnum, stridx, str_off, str_size;
	unsigned done = 0;

	if (n < 0x40 || memcmp(b, "\177ELF", 4) ||
	    (b[4] != 1 && b[4] != 2))
		return 0;
	is64 = b[4] == 2;
	big = b[5] == 2;
	shoff = bytes_get(b + (is64 ? 0x28 : 0x20), is64 ? 8 : 4, big);
	entsize = bytes_get(b + (is64 ? 0x3a : 0x2e), 2, big);
	shnum = bytes_get(b + (is64 ? 0x3c : 0x30), 2, big);
	stridx = bytes_get(b + (is64 ? 0x3e : 0x32), 2, big);
	if (entsize < (is64 ? 0x40u : 0x28u) || stridx >= shnum ||
	    shoff > n || (n - shoff) / entsize < shnum)
		return 0;
#define SH(i) (b + shoff + (i) * entsize)
#define SH_OFF(h) bytes_get((h) + (is64 ? 0x18 : 0x10), is64 ? 8 : 4, big)
#define SH_SIZE(h) bytes_get((h) + (is64 ? 0x20 : 0x14), is64 ? 8 : 4, big)
	str_off = SH_OFF(SH(stridx));
	str_size = SH_SIZE(SH(stridx));
	if (str_off > n || n - str_off < str_size)
		return 0;
	for (uint64_t i = 0; i < shnum; i++) {
		unsigned char *h = SH(i);
		uint64_t name = bytes_get(h, 4, big), off = SH_OFF(h),
			 size = SH_SIZE(h);
		const char *s = (const char *)b + str_off + name;

		if (name >= str_size ||
		    !memchr(s, '\0', (size_t)(str_size - name)) ||
		    off > n || n - off < size)
			continue;
		if (!strcmp(s, ".debug_types.dwo") ||
		    (!strcmp(s, ".debug_info.dwo") &&
		     holds_type_unit(b, off, size, big))) {
			memset(h, 0, 4);
			done++;
		}
	}
#undef SH
#undef SH_OFF
#undef SH_SIZE
	return done;
}

int dwo_types_copy(int fd, const char *path, int *copy)
{
	struct stat st;
	unsigned char *b;
	size_t n, got = 0;
	int ret = 0;

	*copy = -1;
	if (fstat(fd, &st) < 0 || st.st_size <= 0)
		return 0;
	n = (size_t)st.st_size;
	b = xmalloc(n);
	while (got < n) {
		ssize_t r = pread(fd, b + got, n - got, (off_t)got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got < n || !unname_types(b, n))
		goto out;
	*copy = memfd_create("cganalyze-dwo", MFD_CLOEXEC);
	got = 0;
	while (*copy >= 0 && got < n) {
		ssize_t w = write(*copy, b + got, n - got);

		if (w <= 0)
			break;
		got += (size_t)w;
	}
	if (*copy < 0 || got < n) {
		warning("%s: cannot copy it without its type units: %s", path,
			strerror(errno));
		if (*copy >= 0)
			close(*copy);
		*copy = -1;
		goto out;
	}
	ret = 1;
out:
	free(b);
	return ret;
}
