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

#include <fcntl.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_libbfd),
		cmocka_unit_test(test_other_machines_left_to_libbfd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
