/*
 * libFuzzer harness: symtab/plt_elf.c against libbfd (make fuzz). An
 * ELF file for which plt_elf_read() gives stubs must get the same list
 * from libbfd's bfd_get_synthetic_symtab() (plt_bfd_read()): address,
 * end, name and the name an IRELATIVE stub ends up with, as
 * tests/test_plt_elf.c checks on real objects. A difference aborts,
 * and the input is kept: the reader names a stub libbfd would not
 * (its checks of what libbfd refuses miss one). The file is written
 * out because libbfd opens it by path.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab/symtab_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same(const struct plt_stubs *a, const struct plt_stubs *b)
{
	if (a->nr != b->nr) {
		fprintf(stderr, "%zu stubs, libbfd %zu\n", a->nr, b->nr);
		return false;
	}
	for (size_t i = 0; i < a->nr; i++) {
		char *na = plt_stub_name(a, i), *nb = plt_stub_name(b, i);
		bool ok = a->v[i].addr == b->v[i].addr &&
			  a->v[i].limit == b->v[i].limit &&
			  !strcmp(a->v[i].name, b->v[i].name) &&
			  !strcmp(na, nb);

		if (!ok)
			fprintf(stderr, "stub %zu: %#llx %s (%s), libbfd %#llx "
				"%s (%s)\n", i,
				(unsigned long long)a->v[i].addr, a->v[i].name,
				na, (unsigned long long)b->v[i].addr,
				b->v[i].name, nb);
		free(na);
		free(nb);
		if (!ok)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/cga-fuzz-plt-XXXXXX";
	struct plt_stubs mine, theirs;
	int fd = mkstemp(path);
	bool ok = true;

	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		abort();
	}
	if (plt_elf_read(fd, &mine) == 0) {
		plt_bfd_read(path, &theirs);
		ok = same(&mine, &theirs);
		plt_stubs_free(&theirs);
	}
	plt_stubs_free(&mine);
	close(fd);
	unlink(path);
	if (!ok)
		abort();
	return 0;
}
