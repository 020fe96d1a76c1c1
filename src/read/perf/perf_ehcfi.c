/*
 * .eh_frame's CFI by its search table (perf_ehcfi.h).
 */
#include "perf_ehcfi.h"

#include <elf.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "libdw_load.h"

/* Whether elf's .eh_frame section comes before its .eh_frame_hdr (the
 * order libdw takes the table in is the other), and a PT_GNU_EH_FRAME
 * segment holds the table. */
static bool table_unused(Elf *elf, bool *own_dwarf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, phnum;
	bool frame = false, hdr = false;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0 || !shstrndx)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strncmp(name, ".debug_", 7) || !strncmp(name, ".zdebug_", 8))
			*own_dwarf = true;
		if (!strcmp(name, ".eh_frame_hdr")) {
			if (!frame)
				return false;
			hdr = true;
		}
		if (!strcmp(name, ".eh_frame")) {
			if (sh.sh_type == SHT_NOBITS)
				return false;
			frame = true;
		}
	}
	if (!hdr || elf_getphdrnum(elf, &phnum) != 0)
		return false;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_GNU_EH_FRAME)
			return true;
	}
	return false;
}

/* The header of the image at map says it has no section headers. */
static bool drop_sections(unsigned char *map, size_t len)
{
	if (len >= sizeof(Elf64_Ehdr) && map[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr *h = (Elf64_Ehdr *)map;

		h->e_shoff = 0;
		h->e_shnum = 0;
		h->e_shstrndx = 0;
		return true;
	}
	if (len >= sizeof(Elf32_Ehdr) && map[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr *h = (Elf32_Ehdr *)map;

		h->e_shoff = 0;
		h->e_shnum = 0;
		h->e_shstrndx = 0;
		return true;
	}
	return false;
}

Dwarf_CFI *perf_ehcfi_open(int fd, Elf *elf, struct perf_ehcfi *keep)
{
	struct stat sb;
	Dwarf_CFI *cfi;

	memset(keep, 0, sizeof(*keep));
	if (!table_unused(elf, &keep->own_dwarf) || fstat(fd, &sb) != 0 || sb.st_size <= 0)
		return NULL;
	keep->len = (size_t)sb.st_size;
	/* private and writable: the header's page alone is copied */
	keep->map = mmap(NULL, keep->len, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			 fd, 0);
	if (keep->map == MAP_FAILED) {
		keep->map = NULL;
		return NULL;
	}
	if (drop_sections(keep->map, keep->len))
		keep->elf = elf_memory(keep->map, keep->len);
	cfi = keep->elf ? libdw_load()->getcfi_elf(keep->elf) : NULL;
	if (!cfi)
		perf_ehcfi_close(keep);
	return cfi;
}

void perf_ehcfi_close(struct perf_ehcfi *keep)
{
	if (keep->elf)
		elf_end(keep->elf);
	if (keep->map)
		munmap(keep->map, keep->len);
	memset(keep, 0, sizeof(*keep));
}
