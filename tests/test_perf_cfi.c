/*
 * read/perf/perf_cfi.c: a row taken from a range kept for another
 * address (perf_cfi_row() asks libdw once per range and block) is the
 * row libdw gives for the address itself. Every address of the code of
 * three small programs, in a shuffled order (so that most are answered
 * from ranges found before), against a fresh cache asked only about
 * that address. tests/perf/gold/prog and tests/perf/cxx have
 * DW_CFA_remember_state / DW_CFA_restore_state, after which libdw's
 * start of a range is an earlier advance's (the range is taken from
 * the address asked about on).
 */
#include "helpers.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/perf/libdw_load.h"
#include "read/perf/perf_cfi.h"

/* Each address of path's code, shuffled, from one cache: as a fresh
 * cache gives it. Returns how many came from a row. */
static size_t same_rows(const char *path)
{
	const struct libdw_api *dw = libdw_load();
	uint64_t lo = 0, hi = 0, *pcs;
	struct perf_cfi *c = perf_cfi_new();
	size_t n, rows = 0;
	unsigned seed = 12345;
	Dwarf_CFI *cfi;
	Elf *elf;
	int fd;

	assert_non_null(dw);
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	cfi = dw->getcfi_elf(elf);
	assert_non_null(cfi);
	elf_text_range(elf, &lo, &hi);
	n = (size_t)(hi - lo);
	pcs = malloc(n * sizeof(*pcs));
	for (size_t i = 0; i < n; i++)
		pcs[i] = lo + i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (seed = seed * 1103515245u + 12345u) % i;
		uint64_t t = pcs[i - 1];

		pcs[i - 1] = pcs[j];
		pcs[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		struct perf_cfi *fresh = perf_cfi_new();
		const struct cfi_row *a = NULL, *b = NULL;
		enum cfi_found fa = perf_cfi_row(c, 3, cfi, NULL, pcs[i], &a);
		enum cfi_found fb = perf_cfi_row(fresh, 3, cfi, NULL, pcs[i], &b);

		assert_int_equal(fa, fb);
		if (fa == CFI_FOUND) {
			assert_memory_equal(a, b, sizeof(*a));
			rows++;
		}
		perf_cfi_free(fresh);
	}
	free(pcs);
	perf_cfi_free(c);
	dw->cfi_end(cfi);
	elf_end(elf);
	close(fd);
	return rows;
}

static void test_ranges_gold(void **state)
{
	(void)state;
	assert_true(same_rows("tests/perf/gold/prog") > 100);
}

static void test_ranges_cxx(void **state)
{
	(void)state;
	assert_true(same_rows("tests/perf/cxx") > 1000);
}

static void test_ranges_prog(void **state)
{
	(void)state;
	assert_true(same_rows("tests/perf/prog") > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_gold),
		cmocka_unit_test(test_ranges_cxx),
		cmocka_unit_test(test_ranges_prog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
