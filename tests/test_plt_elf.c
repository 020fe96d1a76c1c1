/*
 * symtab/plt_elf.c against libbfd: on each object, the @plt stubs we
 * read from the ELF must be libbfd's bfd_get_synthetic_symtab() list,
 * entry for entry (address, end of section, name, and the name an
 * IRELATIVE stub ends up with). Objects whose layout plt_elf.c does not
 * know go to libbfd in a run: they are counted, not compared.
 *
 * The objects: the repository's x86-64 binaries and what every Debian
 * x86-64 system has (libc: IRELATIVE stubs; ls, sh); with CGA_PLT_FILES
 * naming a file of paths, one a line, those instead (tests/sh/plt-
 * layouts.sh builds each PLT layout ld makes; a one-off run over a
 * whole system is how doc/PERFORMANCE.md's count was made). With
 * CGA_PLT_DUMP set, our stubs are printed ("dump PATH ADDR <NAME>") for
 * the comparison with objdump -d's labels.
 */
#include "helpers.h"

#include <elf.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab/symtab_int.h"

static const char *const default_files[] = {
	"tests/perf/prog", "tests/perf/libwork.so", "samples/cxx/prog",
	"samples/recursion/prog", "tests/gmon/prog-nopie",
	"/usr/lib/x86_64-linux-gnu/libc.so.6", "/bin/ls", "/bin/sh",
	"/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
};

struct counts {
	size_t objects, ours, bfd_only, entries, renamed;
};

/* Compare one object; differences are printed and counted in *bad. */
static void compare(const char *path, struct counts *c, size_t *bad)
{
	struct plt_stubs mine, theirs;
	int fd = open(path, O_RDONLY);
	int ret;

	if (fd < 0)
		return;
	ret = plt_elf_read(fd, &mine);
	close(fd);
	c->objects++;
	if (ret < 0) {
		c->bfd_only++;
		if (getenv("CGA_PLT_VERBOSE"))
			printf("libbfd's: %s\n", path);
		return;
	}
	c->ours++;
	if (getenv("CGA_PLT_DUMP"))
		for (size_t i = 0; i < mine.nr; i++)
			printf("dump %s %llx <%s>\n", path,
			       (unsigned long long)mine.v[i].addr,
			       mine.v[i].name);
	plt_bfd_read(path, &theirs);
	if (mine.nr != theirs.nr) {
		printf("%s: %zu stubs, libbfd %zu\n", path, mine.nr, theirs.nr);
		(*bad)++;
	}
	for (size_t i = 0; i < mine.nr && i < theirs.nr; i++) {
		const struct plt_stub *a = &mine.v[i], *b = &theirs.v[i];
		char *na = plt_stub_name(&mine, i), *nb = plt_stub_name(&theirs, i);

		if (a->addr != b->addr || a->limit != b->limit ||
		    strcmp(a->name, b->name) || strcmp(na, nb)) {
			printf("%s: stub %zu: %#llx-%#llx %s (%s), libbfd "
			       "%#llx-%#llx %s (%s)\n", path, i,
			       (unsigned long long)a->addr,
			       (unsigned long long)a->limit, a->name, na,
			       (unsigned long long)b->addr,
			       (unsigned long long)b->limit, b->name, nb);
			(*bad)++;
		}
		c->renamed += strcmp(na, a->name) != 0;
		free(na);
		free(nb);
	}
	c->entries += mine.nr;
	plt_stubs_free(&mine);
	plt_stubs_free(&theirs);
}

static void test_same_as_libbfd(void **state)
{
	const char *list = getenv("CGA_PLT_FILES");
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t bad = 0;

	(void)state;
	if (list) {
		FILE *f = fopen(list, "r");
		char line[4096];

		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			if (*line)
				compare(line, &c, &bad);
		}
		fclose(f);
	} else {
		for (size_t i = 0; i < sizeof(default_files) / sizeof(*default_files); i++)
			compare(default_files[i], &c, &bad);
	}
	printf("plt: %zu objects, %zu read by plt_elf.c (%zu stubs, %zu "
	       "IRELATIVE renamed), %zu left to libbfd; %zu differences\n",
	       c.objects, c.ours, c.entries, c.renamed, c.bfd_only, bad);
	assert_int_equal(bad, 0);
	/* not vacuous: the repository's own binaries have stubs we read */
	assert_true(c.ours > 0);
	assert_true(c.entries > 0);
}

/* What is not x86-64 (or not an executable or library) goes to libbfd. */
static void test_other_machines_left_to_libbfd(void **state)
{
	static const char *const others[] = { "tests/elf/prog-aarch64",
					      "tests/elf/bad-class",
					      "tests/elf/cut-header" };
	struct plt_stubs p;

	(void)state;
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++) {
		int fd = open(others[i], O_RDONLY);

		assert_true(fd >= 0);
		assert_int_equal(plt_elf_read(fd, &p), -1);
		assert_int_equal(p.nr, 0);
		close(fd);
	}
}

/* The section header of the section named name in the ELF64 image b
 * (n bytes), or NULL. */
static unsigned char *section_header(unsigned char *b, size_t n,
				     const char *name)
{
	uint64_t shoff, stroff;
	uint16_t shnum, shstrndx;

	memcpy(&shoff, b + 0x28, 8);
	memcpy(&shnum, b + 0x3c, 2);
	memcpy(&shstrndx, b + 0x3e, 2);
	if (shoff > n || (n - shoff) / 64 < shnum || shstrndx >= shnum)
		return NULL;
	memcpy(&stroff, b + shoff + 64 * shstrndx + 0x18, 8);
	for (uint16_t i = 0; i < shnum; i++) {
		uint32_t at;

		memcpy(&at, b + shoff + 64 * i, 4);
		if (stroff + at + strlen(name) < n &&
		    !strcmp((char *)b + stroff + at, name))
			return b + shoff + 64 * i;
	}
	return NULL;
}

/* A field of a section header: at byte off, width bytes (0: none). */
struct field {
	size_t off;
	uint64_t value;
	size_t width;
};

/* The first MiB of path (the test objects are smaller), *n its size. */
static unsigned char *read_image(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(b);
	*n = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

/* Compare the image b (n bytes) written to a file of its own; frees b. */
static void compare_image(unsigned char *b, size_t n, struct counts *c,
			  size_t *bad)
{
	char tmp[] = "/tmp/cga-plt-XXXXXX";
	int fd = mkstemp(tmp);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
	compare(tmp, c, bad);
	unlink(tmp);
	free(b);
}

/* Compare a copy of path whose section header of the section named
 * section has fields f1 and f2 set. */
static void compare_changed(const char *path, const char *section,
			    struct field f1, struct field f2,
			    struct counts *c, size_t *bad)
{
	size_t n;
	unsigned char *b = read_image(path, &n), *sh;

	sh = section_header(b, n, section);
	assert_non_null(sh);
	/* x86-64: little-endian */
	memcpy(sh + f1.off, &f1.value, f1.width);
	memcpy(sh + f2.off, &f2.value, f2.width);
	compare_image(b, n, c, bad);
}

/*
 * A section of a type libbfd refuses the whole file for (an unknown
 * number, 12 or 13, a processor-specific type x86-64 does not know, a
 * user type, an OS-specific one marked non-conforming): libbfd gives
 * no stubs, and neither may we. Each is .bss of tests/perf/nofp
 * retyped (found by fuzzing plt_elf_read() against libbfd).
 */
static void test_unknown_section_types(void **state)
{
	static const struct { uint32_t type; uint64_t flags; } cases[] = {
		{ 0x07000008, 3 }, { 0x14, 3 }, { 12, 3 }, { 0x70000005, 3 },
		{ 0x80000001, 3 }, { 0xffffffff, 3 }, { 0x60000010, 0x103 },
	};
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t bad = 0;

	(void)state;
	/* a run on CGA_PLT_FILES compares those files alone
	 * (tests/sh/plt-layouts.sh counts what goes to libbfd) */
	if (getenv("CGA_PLT_FILES"))
		skip();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		compare_changed("tests/perf/nofp", ".bss",
				(struct field){ 4, cases[i].type, 4 },
				(struct field){ 8, cases[i].flags, 8 }, &c,
				&bad);
	assert_int_equal(c.objects, sizeof(cases) / sizeof(*cases));
	assert_int_equal(bad, 0);
}

/* Compare a copy of tests/perf/prog whose .gnu.version_r has the 4
 * bytes at byte at set to value (its first and only entry is at 0, that
 * entry's first aux entry at 0x10). */
static void compare_version_field(size_t at, uint32_t value,
				  struct counts *c, size_t *bad)
{
	size_t n;
	unsigned char *b = read_image("tests/perf/prog", &n), *sh;
	uint64_t off;

	sh = section_header(b, n, ".gnu.version_r");
	assert_non_null(sh);
	memcpy(&off, sh + 0x18, 8);
	assert_true(off + 0x10 + sizeof(Elf64_Vernaux) <= n);
	memcpy(b + off + at, &value, 4);
	compare_image(b, n, c, bad);
}

/*
 * Symbol version tables libbfd finds broken (".gnu.version_r invalid
 * entry"): it reads no dynamic symbols, so no stubs. The count of
 * entries (sh_info, at byte 44 of the header) past the section, and
 * 0; found by fuzzing (tests/perf/prog's .gnu.version_r given 256).
 */
static void test_broken_version_tables(void **state)
{
	static const uint32_t counts[] = { 256, 0, 3 };
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t bad = 0;

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	for (size_t i = 0; i < sizeof(counts) / sizeof(*counts); i++)
		compare_changed("tests/perf/prog", ".gnu.version_r",
				(struct field){ 44, counts[i], 4 },
				(struct field){ 0, 0, 0 }, &c, &bad);
	/* the last entry's link (vn_next, at 12 in the entry) past the
	 * section: libbfd checks it too */
	compare_version_field(offsetof(Elf64_Verneed, vn_next), 0x40, &c,
			      &bad);
	compare_version_field(offsetof(Elf64_Verneed, vn_next), 0x09000000,
			      &c, &bad);
	/* a version's name (an aux entry's vna_name) or its file's
	 * (vn_file) past .dynstr: libbfd's "invalid string offset" fails
	 * the table; we named 8 stubs (fuzz_plt's session 21 finding, with
	 * .plt.got's address moved too, which did not matter) */
	compare_version_field(0x10 + offsetof(Elf64_Vernaux, vna_name), 0x1000,
			      &c, &bad);
	compare_version_field(offsetof(Elf64_Verneed, vn_file), 0xf2, &c,
			      &bad);
	/* the last aux entry (at 0x20) linking to another, inside the
	 * section: libbfd's ".gnu.version_r invalid entry" */
	compare_version_field(0x20 + offsetof(Elf64_Vernaux, vna_next), 8, &c,
			      &bad);
	/* .gnu.version_r linked (sh_link, byte 40) to a section that is no
	 * string table (.dynsym, 6); .gnu.version's entries of 4 bytes
	 * (sh_entsize, byte 56), or its data past the file's end (sh_offset,
	 * byte 24): libbfd reads no dynamic symbols (26 stubs against none
	 * on a stripped C++ program, fuzz_plt, session 22) */
	compare_changed("tests/perf/prog", ".gnu.version_r",
			(struct field){ 40, 6, 4 }, (struct field){ 0, 0, 0 },
			&c, &bad);
	compare_changed("tests/perf/prog", ".gnu.version",
			(struct field){ 56, 4, 8 }, (struct field){ 0, 0, 0 },
			&c, &bad);
	compare_changed("tests/perf/prog", ".gnu.version",
			(struct field){ 24, 0x40000000, 8 },
			(struct field){ 0, 0, 0 }, &c, &bad);
	assert_int_equal(c.objects, sizeof(counts) / sizeof(*counts) + 8);
	assert_int_equal(bad, 0);
}

/*
 * A section link (sh_link, byte 40) past the sections, a relocation
 * section's or an SHF_INFO_LINK one's sh_info (byte 44), a section's
 * name (sh_name, byte 0) past .shstrtab: libbfd refuses the file.
 * Found by fuzzing (tests/perf/libwork.so's .rela.plt with sh_info
 * 0x120000, .debug_line named at 0x46fd00).
 */
static void test_references_past_their_tables(void **state)
{
	static const struct { const char *section; struct field f1, f2; }
		cases[] = {
		{ ".rela.plt", { 44, 0x120000, 4 }, { 0, 0, 0 } },
		{ ".rela.dyn", { 44, 31, 4 }, { 0, 0, 0 } },
		{ ".text", { 40, 31, 4 }, { 0, 0, 0 } },
		{ ".symtab", { 40, 1000, 4 }, { 0, 0, 0 } },
		{ ".text", { 44, 1000, 4 }, { 8, SHF_ALLOC | SHF_EXECINSTR |
					      SHF_INFO_LINK, 8 } },
		/* a name (sh_name, byte 0) past .shstrtab */
		{ ".debug_line", { 0, 0x46fd00, 4 }, { 0, 0, 0 } },
		{ ".comment", { 0, 0x11d, 4 }, { 0, 0, 0 } },
		/* .dynsym's size no multiple of its entries (sh_size, byte
		 * 32): libelf gives no data, libbfd reads the whole ones
		 * (2 stubs here); its entry size (byte 56) another */
		{ ".dynsym", { 32, 0xbf, 8 }, { 0, 0, 0 } },
		{ ".dynsym", { 56, 48, 8 }, { 0, 0, 0 } },
		/* .symtab's entry size another (libbfd refuses the file),
		 * and a second .symtab */
		{ ".symtab", { 56, 0x100000000000018, 8 }, { 0, 0, 0 } },
		{ ".bss", { 4, SHT_SYMTAB, 4 }, { 56, 24, 8 } },
		/* a symbol table's first global (sh_info, byte 44) past its
		 * end: found by fuzz_plt in session 22 (.dynsym's
		 * 0xfc000001 in a stripped C++ program) */
		{ ".dynsym", { 44, 0xfc000001, 4 }, { 0, 0, 0 } },
		{ ".symtab", { 44, 0x10000, 4 }, { 0, 0, 0 } },
		/* the names' table flagged 0xff00 (SHF_COMPRESSED among
		 * them, sh_flags at byte 8): libelf reads no name of it,
		 * libbfd the bytes as they are (fuzz_plt, session 22: no
		 * stubs against 1) */
		{ ".shstrtab", { 8, 0xff00, 8 }, { 0, 0, 0 } },
		/* a section typed SHT_GROUP (sh_type, byte 4) that is no
		 * group: libbfd refuses the file (fuzz_plt, session 22:
		 * .gcc_except_table so typed) */
		{ ".eh_frame", { 4, SHT_GROUP, 4 }, { 0, 0, 0 } },
		/* relocations whose entries are not 24 bytes: libbfd
		 * refuses the file (fuzz_plt, session 22: .gnu.version_r
		 * typed SHT_RELA; here .eh_frame_hdr, of entries of 0) */
		{ ".eh_frame_hdr", { 4, SHT_RELA, 4 }, { 0, 0, 0 } },
		/* RELR relocations whose entries are not words: libbfd
		 * refuses the file (fuzz_plt, session 35: .symtab typed
		 * SHT_RELR, 26 stubs against none); of words, it reads on */
		{ ".symtab", { 4, SHT_RELR, 4 }, { 0, 0, 0 } },
		{ ".symtab", { 4, SHT_RELR, 4 }, { 56, 8, 8 } },
		/* .symtab loaded and ordered after its string table
		 * (SHF_ALLOC | SHF_LINK_ORDER): libbfd makes it a section
		 * whose link is none, and refuses the file (fuzz_plt,
		 * session 22, on a shared library built here) */
		{ ".symtab", { 8, SHF_ALLOC | SHF_LINK_ORDER, 8 }, { 0, 0, 0 } },
	};
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t bad = 0;

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		compare_changed("tests/perf/libwork.so", cases[i].section,
				cases[i].f1, cases[i].f2, &c, &bad);
	assert_int_equal(c.objects, sizeof(cases) / sizeof(*cases));
	assert_int_equal(bad, 0);
}

/*
 * A lazy .plt (PLT0 "ff 35 ... ff 25") whose first entry starts as an
 * IBT one (endbr64; push, first immediate byte 0): libbfd takes the IBT
 * layout, whose calls go through .plt.sec, and names none of .plt's
 * entries; with byte 6 changed, the lazy layout again. Found by
 * fuzz_plt in session 22 (a stripped C++ program: 25 stubs, libbfd 1).
 */
static void test_lazy_plt_as_ibt(void **state)
{
	static const unsigned char ibt[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x68,
					     0x00 };
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t bad = 0;

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	for (int last = 0; last < 2; last++) {
		size_t n;
		unsigned char *b = read_image("tests/perf/prog", &n), *sh;
		uint64_t off;

		sh = section_header(b, n, ".plt");
		assert_non_null(sh);
		memcpy(&off, sh + 24, 8);
		assert_true(off + 32 <= n);
		memcpy(b + off + 16, ibt, sizeof(ibt));
		b[off + 16 + 5] = last ? 0x11 : 0x00;
		compare_image(b, n, &c, &bad);
	}
	assert_int_equal(c.objects, 2);
	assert_int_equal(bad, 0);
}

/*
 * .shstrtab one byte shorter, so that it ends without a NUL, and the
 * section named by its last string named by another, so that every
 * name libelf reads is whole: libbfd takes the names' table for
 * corrupt and names no section. Found by fuzz_plt in session 22 (a
 * shared library built here: 1 stub, libbfd none).
 */
static void test_unterminated_shstrtab(void **state)
{
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t n, bad = 0;
	unsigned char *b, *sh;
	uint64_t size;
	uint32_t name = 0x102;	/* ".debug_str" */

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	b = read_image("tests/perf/libwork.so", &n);
	sh = section_header(b, n, ".debug_line_str");
	assert_non_null(sh);
	memcpy(sh, &name, 4);
	sh = section_header(b, n, ".shstrtab");
	assert_non_null(sh);
	memcpy(&size, sh + 32, 8);
	size--;
	memcpy(sh + 32, &size, 8);
	compare_image(b, n, &c, &bad);
	assert_int_equal(c.objects, 1);
	assert_int_equal(bad, 0);
}

/*
 * A stub's symbol named at 0 (st_name 0) where .dynstr's first byte is
 * not a NUL: libbfd names it "" (index 0 is the empty name whatever the
 * byte there), libelf reads the bytes there. Found by fuzz_plt in
 * session 22 (a stripped C++ program: stub 6 "\x1c...@plt" against
 * "@plt"). Here tests/perf/prog's pthread_setname_np (.dynsym 3).
 */
static void test_symbol_named_at_0(void **state)
{
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t n, bad = 0;
	unsigned char *b, *sh;
	uint64_t dynstr, dynsym;
	uint32_t zero = 0;

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	b = read_image("tests/perf/prog", &n);
	sh = section_header(b, n, ".dynstr");
	assert_non_null(sh);
	memcpy(&dynstr, sh + 24, 8);
	sh = section_header(b, n, ".dynsym");
	assert_non_null(sh);
	memcpy(&dynsym, sh + 24, 8);
	assert_true(dynstr < n && dynsym + 4 * sizeof(Elf64_Sym) <= n);
	b[dynstr] = 0x1c;
	memcpy(b + dynsym + 3 * sizeof(Elf64_Sym), &zero, 4);
	compare_image(b, n, &c, &bad);
	assert_int_equal(c.objects, 1);
	assert_int_equal(bad, 0);
}

/*
 * .dynstr's last byte no NUL: libbfd takes the string table for corrupt
 * and reads no dynamic symbol. Found by fuzz_plt in session 22 (a
 * stripped C++ program: 26 stubs, libbfd none).
 */
static void test_unterminated_dynstr(void **state)
{
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t n, bad = 0;
	unsigned char *b, *sh;
	uint64_t off, size;

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	b = read_image("tests/perf/prog", &n);
	sh = section_header(b, n, ".dynstr");
	assert_non_null(sh);
	memcpy(&off, sh + 24, 8);
	memcpy(&size, sh + 32, 8);
	assert_true(size && off + size <= n && !b[off + size - 1]);
	b[off + size - 1] = 0xff;
	compare_image(b, n, &c, &bad);
	assert_int_equal(c.objects, 1);
	assert_int_equal(bad, 0);
}

/*
 * A note section libbfd cannot read (its offset, sh_offset at byte 24,
 * past the file's end): libbfd refuses the file as it opens it. Found
 * by fuzz_plt in session 22 (tests/perf/prog's .note.gnu.build-id at
 * 0x5803: 8 stubs, libbfd none).
 */
static void test_unreadable_notes(void **state)
{
	struct counts c = { 0, 0, 0, 0, 0 };
	size_t bad = 0;

	(void)state;
	if (getenv("CGA_PLT_FILES"))
		skip();
	compare_changed("tests/perf/prog", ".note.gnu.build-id",
			(struct field){ 24, 0x5803, 8 },
			(struct field){ 0, 0, 0 }, &c, &bad);
	compare_changed("tests/perf/prog", ".note.ABI-tag",
			(struct field){ 32, 0x100000, 8 },
			(struct field){ 0, 0, 0 }, &c, &bad);
	assert_int_equal(c.objects, 2);
	assert_int_equal(bad, 0);
}

/*
 * A dynamic symbol whose section is in an SHT_SYMTAB_SHNDX section
 * (st_shndx SHN_XINDEX) where the file has none: libbfd reads no
 * dynamic symbols. Found by fuzzing (tests/perf/libwork.so's
 * .dynsym symbol 3).
 */
static void test_extended_section_index(void **state)
{
	size_t n, bad = 0;
	unsigned char *b = read_image("tests/perf/libwork.so", &n), *sh;
	uint64_t off;
	uint16_t xindex = SHN_XINDEX;
	struct counts c = { 0, 0, 0, 0, 0 };

	(void)state;
	if (getenv("CGA_PLT_FILES")) {
		free(b);
		skip();
	}
	sh = section_header(b, n, ".dynsym");
	assert_non_null(sh);
	memcpy(&off, sh + 0x18, 8);
	assert_true(off + 4 * sizeof(Elf64_Sym) <= n);
	memcpy(b + off + 3 * sizeof(Elf64_Sym) +
	       offsetof(Elf64_Sym, st_shndx), &xindex, 2);
	compare_image(b, n, &c, &bad);
	assert_int_equal(c.objects, 1);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_libbfd),
		cmocka_unit_test(test_other_machines_left_to_libbfd),
		cmocka_unit_test(test_unknown_section_types),
		cmocka_unit_test(test_broken_version_tables),
		cmocka_unit_test(test_references_past_their_tables),
		cmocka_unit_test(test_unreadable_notes),
		cmocka_unit_test(test_lazy_plt_as_ibt),
		cmocka_unit_test(test_unterminated_dynstr),
		cmocka_unit_test(test_unterminated_shstrtab),
		cmocka_unit_test(test_symbol_named_at_0),
		cmocka_unit_test(test_extended_section_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
