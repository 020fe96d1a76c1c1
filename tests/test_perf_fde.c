/*
 * read/perf/perf_fde.c: the row our reader of .eh_frame gives for an
 * address is the row perf_cfi.c makes of libdw's dwarf_cfi_addrframe()
 * for it, for every address of the executable sections of real objects:
 * the committed programs (tests/perf/cxx is a -O2 C++ program with
 * DWARF 5 from gcc 12; gold/prog has its .eh_frame_hdr after
 * .eh_frame), this machine's libc, and the files named in
 * CGANALYZE_FDE_CHECK (paths separated by ':', e.g. cc1plus: slow, a
 * minute for its 30 MB of code). The range our reader gives is checked
 * too: each address of it has the same row and range; a PLT entry's
 * CFA expression is read, not left to libdwfl. And hostile
 * bytes (a real .eh_frame truncated, or with bytes changed) give no
 * crash or hang: the answer comes or is left to libdw.
 */
#include "helpers.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/perf/libdw_load.h"
#include "read/perf/perf_cfi.h"
#include "read/perf/perf_ehcfi.h"
#include "read/perf/perf_fde.h"

struct counts {
	size_t addrs, ours, rows;
	size_t plt;	/* rows of a PLT entry's CFA, read by ours */
};

/* Every address of [lo, hi), ours against libdw's. */
static void check_range(Dwarf_CFI *cfi, struct perf_fde *fde,
			uint64_t lo, uint64_t hi, struct counts *n)
{
	struct cfi_row prev_row;
	uint64_t prev_start = 0, prev_end = 0;

	memset(&prev_row, 0, sizeof(prev_row));
	for (uint64_t pc = lo; pc < hi; pc++) {
		struct cfi_row a, b, raw;
		uint64_t s, e, s2, e2;
		enum cfi_found fa = perf_cfi_find(cfi, NULL, pc, &a, &s, &e);
		enum cfi_found fb = perf_cfi_find(cfi, fde, pc, &b, &s2, &e2);
		bool ours = perf_fde_row(fde, pc, &raw, &s, &e);

		n->addrs++;
		if (fa != fb || (fa == CFI_FOUND && memcmp(&a, &b, sizeof(a))))
			fail_msg("%#llx: our row differs from libdw's",
				 (unsigned long long)pc);
		n->rows += fa == CFI_FOUND;
		if (!ours)
			continue;
		n->ours++;
		n->plt += b.plt_k != 0;
		assert_int_equal(fb, CFI_FOUND);
		if (!(s <= pc && pc < e) || s != s2 || e != e2)
			fail_msg("%#llx: range [%#llx, %#llx)",
				 (unsigned long long)pc, (unsigned long long)s,
				 (unsigned long long)e);
		/* an address in the last one's range: its row and range */
		if (pc < prev_end &&
		    (s != prev_start || e != prev_end ||
		     memcmp(&b, &prev_row, sizeof(b))))
			fail_msg("%#llx: not as in its range", (unsigned long long)pc);
		prev_row = b;
		prev_start = s;
		prev_end = e;
	}
}

/* Every address of path's executable sections. */
static struct counts check_file(const char *path)
{
	const struct libdw_api *dw = libdw_load();
	struct perf_ehcfi eh;
	struct perf_fde fde;
	struct counts n = { 0 };
	Elf_Scn *scn = NULL;
	Dwarf_CFI *cfi;
	Elf *elf;
	int fd;

	assert_non_null(dw);
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		fail_msg("cannot open '%s'", path);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	/* as perf_unwind.c's file_cfi() takes it */
	cfi = perf_ehcfi_open(fd, elf, &eh);
	if (!cfi)
		cfi = dw->getcfi_elf(elf);
	assert_non_null(cfi);
	assert_true(perf_fde_init(&fde, elf));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type == SHT_PROGBITS)
			check_range(cfi, &fde, sh.sh_addr, sh.sh_addr + sh.sh_size,
				    &n);
	}
	dw->cfi_end(cfi);
	perf_ehcfi_close(&eh);
	elf_end(elf);
	close(fd);
	fprintf(stderr, "%s: %zu addresses, %zu rows, %zu read by ours, %zu "
		"of a PLT entry\n", path, n.addrs, n.rows, n.ours, n.plt);
	return n;
}

/* cxx's .plt: its lazy binding's stubs, whose CFA is the psABI's
 * expression (struct cfi_row's plt_k), read by ours and by libdw's
 * path alike (check_range()). */
static void test_cxx(void **state)
{
	struct counts n = check_file("tests/perf/cxx");

	(void)state;
	assert_true(n.ours > 1000 && n.ours * 10 > n.rows * 9);
	assert_true(n.plt >= 16);
}

static void test_gold(void **state)
{
	struct counts n = check_file("tests/perf/gold/prog");

	(void)state;
	assert_true(n.ours > 100);
}

static void test_prog(void **state)
{
	(void)state;
	assert_true(check_file("tests/perf/prog").ours > 100);
}

static void test_libc(void **state)
{
	static const char *const paths[] = {
		"/lib/x86_64-linux-gnu/libc.so.6",
		"/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/lib64/libc.so.6",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (access(paths[i], R_OK) == 0) {
			struct counts n = check_file(paths[i]);

			assert_true(n.ours * 10 > n.rows * 9);
			return;
		}
	}
	skip();
}

/* CGANALYZE_FDE_CHECK's files. */
static void test_named(void **state)
{
	const char *v = getenv("CGANALYZE_FDE_CHECK");
	char *list, *p, *save = NULL;

	(void)state;
	if (!v || !*v)
		skip();
	list = strdup(v);
	for (p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save))
		(void)check_file(p);
	free(list);
}

/* Every address around the FDEs of a copy of cxx's .eh_frame and
 * table, changed by change(): no crash, no hang. */
static void hostile(void (*change)(unsigned char *frame, size_t len,
				   unsigned char *table, size_t count,
				   unsigned k),
		    unsigned rounds)
{
	struct perf_fde real, t;
	unsigned char *frame, *table;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open("tests/perf/cxx", O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_true(perf_fde_init(&real, elf));
	for (unsigned k = 0; k < rounds; k++) {
		/* copies of their own size: ASan sees a read past them */
		frame = malloc(real.frame_len);
		table = malloc(real.count * 8 + 1);
		memcpy(frame, real.frame, real.frame_len);
		memcpy(table, real.table, real.count * 8);
		t = real;
		t.frame = frame;
		t.table = table;
		change(frame, real.frame_len, table, real.count, k);
		if (k % 7 == 3)
			t.frame_len = k % real.frame_len;
		for (uint64_t pc = 0x1000; pc < 0x1400; pc++) {
			struct cfi_row row;
			uint64_t s, e;

			if (perf_fde_row(&t, pc, &row, &s, &e))
				assert_true(s <= pc && pc < e);
		}
		free(frame);
		free(table);
	}
	elf_end(elf);
	close(fd);
}

static void flip_bytes(unsigned char *frame, size_t len, unsigned char *table,
		       size_t count, unsigned k)
{
	unsigned seed = k * 2654435761u + 1;

	for (unsigned i = 0; i < 1 + k % 5; i++) {
		seed = seed * 1103515245u + 12345u;
		frame[seed % len] ^= (unsigned char)(seed >> 16 | 1);
	}
	if (k % 11 == 5) {
		seed = seed * 1103515245u + 12345u;
		table[seed % (count * 8)] ^= (unsigned char)(seed >> 8 | 1);
	}
}

/* lengths and LEB128s as long as can be */
static void saturate(unsigned char *frame, size_t len, unsigned char *table,
		     size_t count, unsigned k)
{
	(void)table;
	(void)count;
	for (size_t i = k % 16; i < len; i += 16 + k % 7)
		frame[i] = k & 1 ? 0xff : 0x80;
}

static void test_hostile_flips(void **state)
{
	(void)state;
	hostile(flip_bytes, 2000);
}

static void test_hostile_saturate(void **state)
{
	(void)state;
	hostile(saturate, 64);
}

/* A file without a table or not x86_64 is not read. */
static void test_no_table(void **state)
{
	struct perf_fde t;
	Elf *elf;
	int fd;

	(void)state;
	elf_version(EV_CURRENT);
	fd = open("tests/perf/dbgframe", O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!perf_fde_init(&t, elf))
		assert_null(t.table);
	elf_end(elf);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cxx),
		cmocka_unit_test(test_gold),
		cmocka_unit_test(test_prog),
		cmocka_unit_test(test_libc),
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_hostile_flips),
		cmocka_unit_test(test_hostile_saturate),
		cmocka_unit_test(test_no_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
