/*
 * symtab/line_prog.c: the rows of the units holding wanted addresses,
 * read from .debug_line alone, are dwarf_read()'s with the same want
 * (libdwarf's line programs of the units .debug_aranges names): the
 * same rows in the same order, each with the same address, file name,
 * line, discriminator and end of sequence. On the tests' own DWARF 5
 * programs and, where libc6-dbg is installed, libc's, ld.so's and libm's
 * debug files (thousands of units, relative compilation directories),
 * with every unit wanted, every third sequence's start, and one address.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/names.h"
#include "symtab/line_prog.h"
#include "symtab/symtab_int.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Both readers' rows for want[0..n): the same. Returns their number. */
static size_t same_rows(struct elf_file *ef, struct names *names,
			const uint64_t *want, size_t n)
{
	struct dwarf_data a, b;
	size_t rows;

	memset(&b, 0, sizeof(b));
	assert_int_equal(dwarf_read(ef, NULL, names, false, false, want, n,
				    &a), 0);
	assert_true(line_prog_rows(ef, names, false, want, n, &b));
	assert_int_equal(a.nrows, b.nrows);
	for (size_t i = 0; i < a.nrows; i++) {
		const struct line_entry *x = &a.rows[i], *y = &b.rows[i];

		if (x->addr != y->addr || x->file != y->file ||
		    x->line != y->line ||
		    x->discriminator != y->discriminator ||
		    x->end_sequence != y->end_sequence)
			fail_msg("%s: row %zu: 0x%llx %s:%u d%u e%d, not "
				 "0x%llx %s:%u d%u e%d", elf_path(ef), i,
				 (unsigned long long)y->addr,
				 names_str(names, y->file), y->line,
				 y->discriminator, y->end_sequence,
				 (unsigned long long)x->addr,
				 names_str(names, x->file), x->line,
				 x->discriminator, x->end_sequence);
	}
	rows = b.nrows;
	dwarf_data_release(&a);
	dwarf_data_release(&b);
	return rows;
}

/* The file at path compared with every unit wanted, a third of the
 * sequences, and one; false when it is not there. */
static bool compare_file(const char *path)
{
	struct arena arena;
	struct names names;
	struct elf_file *ef = NULL;
	struct dwarf_data all;
	uint64_t *starts = NULL, *third = NULL;
	size_t n = 0, k = 0;
	bool next_starts = true;

	if (access(path, R_OK) != 0)
		return false;
	arena_init(&arena);
	names_init(&names, &arena);
	assert_int_equal(elf_file_open(&ef, path), 0);
	assert_int_equal(dwarf_read(ef, NULL, &names, false, false, NULL, 0,
				    &all), 0);
	starts = calloc(all.nrows + 1, sizeof(*starts));
	third = calloc(all.nrows + 1, sizeof(*third));
	for (size_t i = 0; i < all.nrows; i++) {
		if (next_starts)
			starts[n++] = all.rows[i].addr;
		next_starts = all.rows[i].end_sequence;
	}
	assert_true(n > 0);
	qsort(starts, n, sizeof(*starts), cmp_u64);
	for (size_t i = 0; i < n; i += 3)
		third[k++] = starts[i];
	assert_true(same_rows(ef, &names, starts, n) > 0);
	same_rows(ef, &names, third, k);
	same_rows(ef, &names, &starts[n / 2], 1);
	dwarf_data_release(&all);
	free(starts);
	free(third);
	elf_file_close(ef);
	arena_release(&arena);
	return true;
}

static void test_own_programs(void **state)
{
	(void)state;
	assert_true(compare_file("tests/perf/cxx"));
	assert_true(compare_file("tests/perf/nofp"));
	assert_true(compare_file("tests/perf/libwork.so"));
}

/* The debug file of the installed library whose soname is lib. */
static bool compare_debug_file(const char *lib)
{
	char cmd[512], id[128], path[256];
	FILE *f;
	bool found = false;

	snprintf(cmd, sizeof(cmd),
		 "readelf -n \"$(ldconfig -p | awk '$1 == \"%s\" && /x86-64/ "
		 "{ print $NF; exit }')\" 2>/dev/null | "
		 "awk '/Build ID/ { print $3 }'", lib);
	f = popen(cmd, "r");
	if (!f)
		return false;
	if (fgets(id, sizeof(id), f) && strlen(id) > 3) {
		id[strcspn(id, "\n")] = 0;
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 id, id + 2);
		found = compare_file(path);
	}
	pclose(f);
	return found;
}

static void test_libc6_dbg(void **state)
{
	(void)state;
	if (!compare_debug_file("libc.so.6"))
		skip();
	compare_debug_file("ld-linux-x86-64.so.2");
	compare_debug_file("libm.so.6");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_programs),
		cmocka_unit_test(test_libc6_dbg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
