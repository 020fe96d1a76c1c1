/*
 * symtab/line_prog.c: the rows of the units holding wanted addresses,
 * read from .debug_line alone, are dwarf_read()'s with the same want
 * (libdwarf's line programs of the units .debug_aranges names): the
 * same rows in the same order, each with the same address, file name,
 * line, discriminator and end of sequence. On the tests' own DWARF 5
 * programs and, where libc6-dbg is installed, libc's, ld.so's and libm's
 * debug files (thousands of units, relative compilation directories),
 * with every unit wanted, every third sequence's start, and one address.
 * And the program's sections cut short or with a byte changed anywhere
 * (as the ASan build runs it): read or refused, never read past. Each
 * also through an index of the programs made first
 * (line_prog_index_of(), as the symbol tables' thread makes it while a
 * recording is read): the same rows, refused where the others refuse.
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

/* a's rows and b's the same, each field (what: which reader b is). */
static void rows_equal(const char *path, const char *what,
		       const struct names *names, const struct dwarf_data *a,
		       const struct dwarf_data *b)
{
	if (a->nrows != b->nrows)
		fail_msg("%s: %s: %zu rows, not %zu", path, what, b->nrows,
			 a->nrows);
	for (size_t i = 0; i < a->nrows; i++) {
		const struct line_entry *x = &a->rows[i], *y = &b->rows[i];

		if (x->addr != y->addr || x->file != y->file ||
		    x->line != y->line ||
		    x->discriminator != y->discriminator ||
		    x->end_sequence != y->end_sequence)
			fail_msg("%s: %s: row %zu: 0x%llx %s:%u d%u e%d, not "
				 "0x%llx %s:%u d%u e%d", path, what, i,
				 (unsigned long long)y->addr,
				 names_str(names, y->file), y->line,
				 y->discriminator, y->end_sequence,
				 (unsigned long long)x->addr,
				 names_str(names, x->file), x->line,
				 x->discriminator, x->end_sequence);
	}
}

/*
 * The three readers' rows for want[0..n): libdwarf's, line_prog_rows()'
 * and line_prog_rows_indexed()' from an index made first (as the
 * symbol tables' thread makes it), the same. Returns their number.
 */
static size_t same_rows(struct elf_file *ef, struct names *names,
			const uint64_t *want, size_t n)
{
	struct dwarf_data a, b, c;
	struct line_sections ls;
	struct line_prog_index ix;
	size_t rows;

	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	assert_int_equal(dwarf_read(ef, NULL, names, false, false, want, n,
				    &a), 0);
	assert_true(line_prog_rows(ef, names, false, want, n, &b));
	rows_equal(elf_path(ef), "line_prog_rows", names, &a, &b);
	assert_true(line_prog_sections(ef, &ls));
	assert_true(line_prog_index_of(&ls, false, &ix));
	assert_true(ix.nunits > 0 && ix.nseqs > 0);
	assert_true(line_prog_rows_indexed(&ls, &ix, names, false, want, n,
					   &c));
	rows_equal(elf_path(ef), "indexed", names, &a, &c);
	line_prog_index_release(&ix);
	rows = b.nrows;
	dwarf_data_release(&a);
	dwarf_data_release(&b);
	dwarf_data_release(&c);
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
	names_release(&names);
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

/* An index of the garbled ls made where line_prog_rows_of() read it
 * (ok), and then the same rows (d's); refused where it refused. */
static void same_indexed(const struct line_sections *ls,
			 struct names *names, const uint64_t *want,
			 size_t n, bool ok, const struct dwarf_data *d)
{
	struct line_prog_index ix;
	struct dwarf_data e;

	memset(&e, 0, sizeof(e));
	assert_int_equal(line_prog_index_of(ls, false, &ix), ok);
	if (!ok) {
		assert_int_equal(ix.nunits, 0);
		return;
	}
	assert_true(line_prog_rows_indexed(ls, &ix, names, false, want, n,
					   &e));
	rows_equal("garbled", "indexed", names, d, &e);
	dwarf_data_release(&e);
	line_prog_index_release(&ix);
}

/* Every cut and every byte changed of libwork.so's .debug_line and
 * .debug_line_str: whatever is read ends its sequences, and nothing is
 * read outside the bytes given (each a copy of its own size). */
static void test_garbled(void **state)
{
	static const unsigned char values[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	static const uint64_t want[] = { 0x1000, 0x1100, 0x1139 };
	struct arena arena;
	struct names names;
	struct elf_file *ef = NULL;
	struct line_sections ls = { 0 }, cut;
	unsigned char *line, *str;
	size_t tried = 0;
	bool ok;

	(void)state;
	arena_init(&arena);
	names_init(&names, &arena);
	assert_int_equal(elf_file_open(&ef, "tests/perf/libwork.so"), 0);
	assert_true(elf_section_bytes(ef, ".debug_line", &ls.line,
				      &ls.line_size));
	assert_true(elf_section_bytes(ef, ".debug_line_str", &ls.line_str,
				      &ls.line_str_size));
	if (!elf_section_bytes(ef, ".debug_str", &ls.str, &ls.str_size))
		ls.str = NULL;
	for (size_t n = 0; n <= ls.line_size; n++) {
		for (size_t at = 0; at <= n; at++) {
			for (size_t v = 0; v < sizeof(values); v++) {
				struct dwarf_data d;

				/* the cut alone once, then each change */
				if ((at == n) != (v == 0))
					continue;
				line = malloc(n ? n : 1);
				memcpy(line, ls.line, n);
				if (at < n)
					line[at] = values[v];
				cut = ls;
				cut.line = line;
				cut.line_size = n;
				memset(&d, 0, sizeof(d));
				ok = line_prog_rows_of(&cut, &names, false,
						       want, 3, &d);
				if (ok && d.nrows)
					assert_true(d.rows[d.nrows - 1]
							    .end_sequence);
				same_indexed(&cut, &names, want, 3, ok, &d);
				/* the whole section: its program taken */
				if (n == ls.line_size && at == n)
					assert_true(ok && d.nrows > 0);
				dwarf_data_release(&d);
				free(line);
				tried++;
			}
		}
	}
	for (size_t n = 0; n < ls.line_str_size; n++) {
		struct dwarf_data d;

		str = malloc(n ? n : 1);
		memcpy(str, ls.line_str, n);
		cut = ls;
		cut.line_str = str;
		cut.line_str_size = n;
		memset(&d, 0, sizeof(d));
		line_prog_rows_of(&cut, &names, false, want, 3, &d);
		dwarf_data_release(&d);
		free(str);
	}
	assert_true(tried > 1000);
	elf_file_close(ef);
	names_release(&names);
	arena_release(&arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_programs),
		cmocka_unit_test(test_garbled),
		cmocka_unit_test(test_libc6_dbg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
