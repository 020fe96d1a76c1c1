/*
 * The CFI rows of the code's objects, by address, each found once: what
 * libdw's dwarf_cfi_addrframe() says about one address of an object
 * (where the caller's frame is, and where each register was saved),
 * kept in a form that takes a few loads to apply. The unwinder applies
 * it to each frame at that address (see perf_unwind.c).
 */
#ifndef CGA_PERF_CFI_H
#define CGA_PERF_CFI_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

/* x86_64's DWARF registers 0-16 (rax ... r15, the return address),
 * what libdwfl's x86_64 backend keeps of a frame */
#define CFI_NREGS 17

/* How the caller's value of a register is found, as libdwfl takes the
 * rule dwarf_frame_register() gives (frame_unwind.c's handle_cfi()). */
enum cfi_rule {
	CFI_UNSET,	/* not found: the caller's register is unknown */
	CFI_UNDEFINED,	/* undefined: for the return address, the end */
	CFI_SAME,	/* the callee's value, if it has one */
	CFI_AT,		/* the word at CFA + off */
	CFI_VAL,	/* CFA + off */
	CFI_REG,	/* the callee's value of register off */
};

struct cfi_row {
	uint8_t rule[CFI_NREGS];	/* enum cfi_rule */
	uint8_t cfa_reg;	/* CFA = cfa_reg's value + cfa_off; */
	uint8_t ra;		/* CFI_NREGS or more: no CFA */
	/*
	 * 0, or K + 1 for a PLT entry's CFA, the one expression gcc and
	 * the linkers write for the lazy binding's stubs (x86_64 psABI):
	 * cfa_reg + cfa_off, plus 8 where the pc's last 4 bits are K or
	 * more (DW_OP_bregN off; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and;
	 * DW_OP_litK; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus), as
	 * libdwfl's expr_eval() computes it: unknown, as a CFA of a
	 * register not known, where cfa_reg or the pc (register 16) is
	 */
	uint8_t plt_k;
	bool signal;		/* the FDE's CIE is a signal frame's */
	/* the registers whose rule is not CFI_UNSET: all a step reads (an
	 * x86_64 row rules 8 to 10 of the 17), those of CFI_SAME first
	 * (nsame), then those of CFI_AT (nat), then those of CFI_VAL and
	 * CFI_REG (nother), then those of CFI_UNDEFINED, each kind rising:
	 * a step takes each kind without a switch per register */
	uint8_t nruled, nsame, nat, nother;
	uint8_t ruled[CFI_NREGS];
	/* the registers of CFI_SAME, of CFI_AT; the least and largest
	 * off of CFI_AT's (a step checks its reads at once) */
	uint32_t same_mask, at_mask;
	int64_t at_lo, at_hi;
	int64_t cfa_off;
	int64_t off[CFI_NREGS];
};

/* What perf_cfi_row() found for an address. */
enum cfi_found {
	CFI_FOUND,
	CFI_NO_FDE,	/* no FDE covers it (or no CFI at all) */
	CFI_HARD,	/* a rule this form does not hold (an expression) */
};

struct perf_cfi;

struct perf_cfi *perf_cfi_new(void);
void perf_cfi_free(struct perf_cfi *c);

struct perf_fde;

/*
 * The row for link-time address pc of object file `file`, whose CFI is
 * cfi (NULL: none), found the first time and then kept: *row is set
 * when CFI_FOUND, valid until the next call (rows grow by realloc).
 * The first time, it is read from fde (perf_fde.h, the same CFI's
 * .eh_frame read without libdw; NULL: none) when that can read it,
 * else asked of libdw.
 */
enum cfi_found perf_cfi_row(struct perf_cfi *c, uint32_t file, Dwarf_CFI *cfi,
			    struct perf_fde *fde, uint64_t pc,
			    const struct cfi_row **row);

/*
 * pc's row found afresh and not kept, as perf_cfi_row() finds it the
 * first time (tests): from fde when that reads it, else from libdw;
 * [*start, *end) the addresses known to have the same row (libdw's
 * from pc on), empty when not known.
 */
enum cfi_found perf_cfi_find(Dwarf_CFI *cfi, struct perf_fde *fde,
			     uint64_t pc, struct cfi_row *row, uint64_t *start,
			     uint64_t *end);

/* A row perf_cfi_row() gave, as an index that stays (the rows move);
 * and the row of such an index, valid as perf_cfi_row()'s. The rows
 * are one array: perf_cfi_at(c, i) is perf_cfi_at(c, 0) + i, and they
 * move only in a call of perf_cfi_row() that finds a row. */
uint32_t perf_cfi_index(const struct perf_cfi *c, const struct cfi_row *row);
const struct cfi_row *perf_cfi_at(const struct perf_cfi *c, uint32_t i);

/* Addresses kept without a range, and rows kept (distinct rows). */
void perf_cfi_counts(const struct perf_cfi *c, uint64_t *addrs,
		     uint64_t *rows);

#endif
