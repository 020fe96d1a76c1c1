/*
 * read/perf/perf_ehcfi.c: a file whose .eh_frame_hdr comes after its
 * .eh_frame (tests/perf/gold/prog, linked by GNU gold) has its CFI taken
 * by the search table, and every address of its code gets from it what
 * libdw's CFI by section gives: the same FDE's row (its CFA, each
 * register's rule, the return address column, the range) or none. A
 * file with the usual order (GNU ld's tests/perf/prog) is left to libdw.
 */
#include "helpers.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/perf/libdw_load.h"
#include "read/perf/perf_ehcfi.h"

static Elf *open_elf(const char *path, int *fd)
{
	Elf *elf;

	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY);
	assert_true(*fd >= 0);
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	return elf;
}

static void same_ops(const Dwarf_Op *a, size_t na, const Dwarf_Op *b,
		     size_t nb)
{
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		assert_int_equal(a[i].atom, b[i].atom);
		assert_int_equal(a[i].number, b[i].number);
		assert_int_equal(a[i].number2, b[i].number2);
	}
}

/* Both CFIs' frames at pc: the same, or none from either. True when
 * there is one. */
static bool same_frame(const struct libdw_api *dw, Dwarf_CFI *x,
		       Dwarf_CFI *y, uint64_t pc)
{
	Dwarf_Frame *fx = NULL, *fy = NULL;
	int rx = dw->cfi_addrframe(x, pc, &fx), ry = dw->cfi_addrframe(y, pc, &fy);
	Dwarf_Addr sx, ex, sy, ey;
	bool gx, gy;
	Dwarf_Op *ox, *oy, mx[3], my[3];
	size_t nx, ny;

	assert_int_equal(rx, ry);
	if (rx != 0)
		return false;
	assert_int_equal(dw->frame_info(fx, &sx, &ex, &gx),
			 dw->frame_info(fy, &sy, &ey, &gy));
	assert_int_equal(sx, sy);
	assert_int_equal(ex, ey);
	assert_int_equal(gx, gy);
	assert_int_equal(dw->frame_cfa(fx, &ox, &nx), dw->frame_cfa(fy, &oy, &ny));
	same_ops(ox, nx, oy, ny);
	for (int r = 0; r < 17; r++) {
		int ax = dw->frame_register(fx, r, mx, &ox, &nx);
		int ay = dw->frame_register(fy, r, my, &oy, &ny);

		assert_int_equal(ax, ay);
		if (ax != 0)
			continue;
		assert_int_equal(ox == NULL, oy == NULL);
		assert_int_equal(ox == mx, oy == my);
		same_ops(ox, nx, oy, ny);
	}
	free(fx);
	free(fy);
	return true;
}

static void test_gold_by_table(void **state)
{
	const struct libdw_api *dw = libdw_load();
	struct perf_ehcfi keep;
	Dwarf_CFI *by_table, *by_section;
	uint64_t lo = 0, hi = 0;
	size_t with_row = 0;
	int fd;
	Elf *elf = open_elf("tests/perf/gold/prog", &fd);

	(void)state;
	assert_non_null(dw);
	by_table = perf_ehcfi_open(fd, elf, &keep);
	assert_non_null(by_table);
	assert_non_null(keep.map);
	by_section = dw->getcfi_elf(elf);
	assert_non_null(by_section);
	elf_text_range(elf, &lo, &hi);
	for (uint64_t pc = lo - 16; pc < hi + 16; pc++)
		with_row += same_frame(dw, by_table, by_section, pc);
	/* the functions' code has rows (main, mix, walk, the start-up) */
	assert_true(with_row > (hi - lo) / 2);
	dw->cfi_end(by_table);
	dw->cfi_end(by_section);
	perf_ehcfi_close(&keep);
	assert_null(keep.map);
	elf_end(elf);
	close(fd);
}

static void test_usual_order_left(void **state)
{
	struct perf_ehcfi keep;
	int fd;
	Elf *elf = open_elf("tests/perf/prog", &fd);

	(void)state;
	assert_non_null(libdw_load());
	assert_null(perf_ehcfi_open(fd, elf, &keep));
	assert_null(keep.map);
	elf_end(elf);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gold_by_table),
		cmocka_unit_test(test_usual_order_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
