/*
 * read/perf/perf_cfi.c: the row an address takes from a stretch kept
 * for another address of its FDE (found through the object's
 * .eh_frame_hdr) is the row libdw gives for that address itself. Every
 * byte of an object's code is looked up in a scattered order, through
 * the stretches, and compared with a table that asks libdw for each
 * address (no ELF handle: no stretches). Fails if a stretch reached an
 * address of another row: before its start (a DW_CFA_restore_state
 * leaves libdw's start older than the row), past its end, or into the
 * next FDE.
 */
#include "helpers.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/perf/libdw_load.h"
#include "read/perf/perf_cfi.h"

struct obj {
	int fd;
	Elf *elf;
	Dwarf_CFI *cfi;
	uint64_t lo, hi;	/* .text */
};

static void obj_open(struct obj *o, const char *path)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	elf_version(EV_CURRENT);
	o->fd = open(path, O_RDONLY);
	assert_true(o->fd >= 0);
	o->elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(o->elf);
	assert_non_null(libdw_load());
	o->cfi = libdw_load()->getcfi_elf(o->elf);
	assert_non_null(o->cfi);
	assert_int_equal(elf_getshdrstrndx(o->elf, &shstrndx), 0);
	o->lo = o->hi = 0;
	while ((scn = elf_nextscn(o->elf, scn)) != NULL) {
		const char *n;

		assert_non_null(gelf_getshdr(scn, &sh));
		n = elf_strptr(o->elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".text")) {
			o->lo = sh.sh_addr;
			o->hi = sh.sh_addr + sh.sh_size;
		}
	}
	assert_true(o->lo < o->hi);
}

static void obj_close(struct obj *o)
{
	libdw_load()->cfi_end(o->cfi);
	elf_end(o->elf);
	close(o->fd);
}

/* Every address of o's .text (and a little around it), in a scattered
 * order, through stretches and address by address; returns how many
 * libdw calls the stretches saved (the addresses found in one). */
static size_t compare_all(struct obj *o)
{
	struct perf_cfi *by_stretch = perf_cfi_new(), *each = perf_cfi_new();
	uint64_t from = o->lo - 64, n = o->hi + 64 - from;
	uint64_t step = 7919;	/* a prime: every address once */
	uint64_t addrs, rows, saved = 0;

	while (n % step == 0)
		step += 2;
	for (uint64_t k = 0, at = 0; k < n; k++, at = (at + step) % n) {
		const struct cfi_row *a = NULL, *b = NULL;
		enum cfi_found fa = perf_cfi_row(by_stretch, 0, o->cfi, o->elf,
						 from + at, &a);
		struct cfi_row ra;
		enum cfi_found fb;

		if (fa == CFI_FOUND)
			ra = *a;
		fb = perf_cfi_row(each, 0, o->cfi, NULL, from + at, &b);
		assert_int_equal(fa, fb);
		if (fa == CFI_FOUND)
			assert_memory_equal(&ra, b, sizeof(ra));
	}
	perf_cfi_counts(by_stretch, &addrs, &rows);
	assert_int_equal(addrs, n);
	saved = perf_cfi_computed(each) - perf_cfi_computed(by_stretch);
	perf_cfi_free(by_stretch);
	perf_cfi_free(each);
	return (size_t)saved;
}

static void test_stretches(void **state)
{
	static const char *const paths[] = {
		"tests/resolve/cxx-O2/prog",
		"tests/perf/libwork.so",
		"tests/perf/prog",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct obj o;

		obj_open(&o, paths[i]);
		/* many addresses come from a stretch (83% of cxx-O2/prog's,
		 * 36% of libwork.so's small functions' in this order) */
		assert_true(compare_all(&o) > (o.hi - o.lo) / 4);
		obj_close(&o);
	}
}

/* A search table out of order: libdw's binary search then finds what
 * it finds, so no stretch is kept, and every address is libdw's. */
static void test_table_unsorted(void **state)
{
	size_t len;
	char *data = slurp("tests/resolve/cxx-O2/prog", &len);
	char *path;
	struct obj o;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	off_t at = -1;
	unsigned char e[16];
	int fd;

	(void)state;
	assert_non_null(data);
	path = write_temp(data, len);
	free(data);
	obj_open(&o, path);
	assert_int_equal(elf_getshdrstrndx(o.elf, &shstrndx), 0);
	while ((scn = elf_nextscn(o.elf, scn)) != NULL) {
		const char *n;

		assert_non_null(gelf_getshdr(scn, &sh));
		n = elf_strptr(o.elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".eh_frame_hdr"))
			at = (off_t)sh.sh_offset;
	}
	obj_close(&o);
	assert_true(at > 0);
	/* swap the table's first two entries */
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, e, 16, at + 12), 16);
	assert_int_equal(pwrite(fd, e + 8, 8, at + 12), 8);
	assert_int_equal(pwrite(fd, e, 8, at + 20), 8);
	close(fd);
	obj_open(&o, path);
	assert_int_equal(compare_all(&o), 0);
	obj_close(&o);
	remove_temp(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stretches),
		cmocka_unit_test(test_table_unsorted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
