/*
 * An x86_64 object's .eh_frame rows read here, without libdw: the FDE
 * of an address found by binary search in .eh_frame_hdr's table, its
 * CIE's and its own call frame instructions (DWARF 5 section 6.4.2, and
 * the LSB's .eh_frame encodings) run up to the address, and the rules
 * of registers 0-16 and the CFA given as perf_cfi.h's row, as
 * dwarf_cfi_addrframe() and dwarf_frame_register() would give them to
 * perf_cfi.c. What is not read here (no table, a table not of 4-byte
 * entries, an expression in the row, DW_CFA_set_loc, a CIE of another
 * augmentation or version, bytes out of bounds, a table entry whose
 * FDE does not hold the address) is answered "ask libdw": nothing is
 * guessed. tests/test_perf_fde.c compares every address of real
 * objects with libdw's answer.
 */
#ifndef CGA_PERF_FDE_H
#define CGA_PERF_FDE_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/eh_frame.h"
#include "perf_cfi.h"

/* The rules of registers 0-16 and the CFA at a point of the
 * instructions (perf_fde.c's enum rule and enum cfa). */
struct fde_state {
	uint8_t rule[CFI_NREGS];
	int64_t val[CFI_NREGS];
	uint8_t cfa;
	uint8_t plt_k;		/* CFA_PLT's: struct cfi_row's */
	uint64_t cfa_reg;
	int64_t cfa_off;
};

/* A CIE read, with the state after its instructions. */
struct fde_cie {
	uint64_t off1;		/* its offset in .eh_frame + 1; 0: none */
	struct eh_cie eh;
	struct fde_state init;
};

/* The CIEs kept, by offset: an object has a few. */
#define FDE_CIES 4

/* An object's .eh_frame and its search table, as bytes of its mapping
 * (libelf's handle, which must outlive it), and the CIEs read last. */
struct perf_fde {
	const unsigned char *frame;	/* .eh_frame */
	size_t frame_len;
	uint64_t frame_addr;	/* its link-time address */
	const unsigned char *table;	/* count pairs of int32 */
	size_t count;
	uint64_t hdr_addr;	/* .eh_frame_hdr's: the table's base */
	struct fde_cie cies[FDE_CIES];
};

/* elf's table and frames; false (t zeroed) when elf is not a
 * little-endian x86_64 ELF64 file with an .eh_frame_hdr table of
 * 4-byte entries relative to it over its .eh_frame. */
bool perf_fde_init(struct perf_fde *t, Elf *elf);

/*
 * The row of link-time address pc in *row (zeroed, then the rules of
 * registers and CFA, ra and signal set: perf_cfi.c orders the rest),
 * and [*start, *end) the addresses around pc with the same row (the
 * FDE's instructions do not advance in it). False: ask libdw (the row
 * and range are then not set). t keeps the CIEs it reads: one thread's.
 */
bool perf_fde_row(struct perf_fde *t, uint64_t pc, struct cfi_row *row,
		  uint64_t *start, uint64_t *end);

#endif
