/*
 * An object's .eh_frame CFI found through its .eh_frame_hdr's search
 * table where libdw would not use the table.
 *
 * dwarf_getcfi_elf() takes the CFI by section when the file has
 * sections, and takes .eh_frame_hdr's binary search table only when
 * that section comes before .eh_frame in the section headers. GNU gold
 * puts it after (Debian's libLLVM-14.so.1 has it so): libdw then
 * finds each address's FDE by reading .eh_frame from the start, keeping
 * every FDE it passes (libLLVM's 95,000, 8 MiB, 5% of the instructions
 * of a run on a 1 GB recording of gcc in which ar, through its
 * linker plugins, mapped it).
 * Without section headers libdw takes the CFI from PT_GNU_EH_FRAME,
 * table and all: so for such a file the CFI is taken from a private
 * mapping of it whose ELF header says it has none. The FDEs, CIEs and
 * their rows are the same bytes; only the search differs.
 */
#ifndef CGA_PERF_EHCFI_H
#define CGA_PERF_EHCFI_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

struct perf_ehcfi {
	void *map;		/* the private mapping; NULL: none */
	size_t len;
	Elf *elf;		/* on it, without sections */
	bool own_dwarf;		/* the file has .debug_ sections, which
				 * elf does not show */
};

/*
 * elf's (open on fd) .eh_frame CFI by its search table, kept in *keep,
 * when its .eh_frame_hdr comes after .eh_frame; NULL when the file
 * does not need it or it cannot be made (the caller then asks libdw as
 * usual). Free with dwarf_cfi_end(), then perf_ehcfi_close().
 */
Dwarf_CFI *perf_ehcfi_open(int fd, Elf *elf, struct perf_ehcfi *keep);
void perf_ehcfi_close(struct perf_ehcfi *keep);

#endif
