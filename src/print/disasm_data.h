/*
 * The disassembly listing's data, apart from its printing: which
 * functions to disassemble (--disasm=FUNC or the hottest), and for one
 * of them its instructions with the profile's cost at each, the calls
 * and jumps made from each, and every cost the profile has for the
 * function that is at no instruction of it (never dropped silently).
 *
 * A listing is per symbol of a -b binary: the code is one, whatever the
 * profile calls it. Every profile function with a position inside the
 * symbol (fib and valgrind's fib'2), or named after it, is listed there,
 * so the instructions' costs add up to those functions' self cost.
 */
#ifndef CGA_DISASM_DATA_H
#define CGA_DISASM_DATA_H

#include "print.h"
#include "symtab/disasm.h"

/* A function chosen for listing: symbol sym of binary (index into
 * o->symtabs and o->reports), with the cost the profile has in it. */
struct disasm_pick {
	uint32_t binary;
	uint32_t sym;
	uint64_t cost;		/* sort event, at addresses inside it */
};

/*
 * The functions to list, hottest first: those o->disasm_what names (a
 * symbol or profile function name, or a glob over them; an exact name
 * is listed even without cost), or when it is NULL every function of
 * the binaries with at least o->listing_threshold percent of the total
 * (with o->disasm_max, every one with a cost, at most that many). *n
 * may be 0 (nothing above the threshold). Returns 0, or -1 after
 * reporting when WHAT names nothing.
 */
int disasm_pick(const struct cg *cg, const struct print_opts *o,
		struct disasm_pick **picks, size_t *n);

/* Where a cost the listing cannot put on an instruction is. */
enum dl_where {
	DL_MID_INSN,		/* inside the symbol, no instruction start */
	DL_OUTSIDE,		/* outside the symbol's range */
	DL_NO_ADDR,		/* a position without an address */
};

struct dl_unplaced {
	uint64_t addr;		/* link-time; 0 for DL_NO_ADDR */
	uint8_t where;		/* enum dl_where */
};

/* A call site or jump at an instruction: index into p->callsites or
 * p->jumps. Sorted by instruction. */
struct dl_ref {
	uint32_t insn, idx;
};

struct disasm_listing {
	const struct profile *p;
	const struct symtab *st;
	const struct resolve_report *r;
	const struct sym *sym;
	size_t stride;
	struct disasm code;
	bool code_ok;		/* false: disassembly failed (reported) */
	bool demangle;		/* symbol names in operands and targets */
	uint64_t *cost;		/* code.ninsns * stride */
	uint32_t *funcs;	/* profile functions listed here */
	size_t nfuncs;
	uint64_t *self;		/* stride: their self cost */
	uint64_t *placed;	/* stride: the instructions' costs, summed */
	struct dl_ref *sites, *jumps;
	size_t nsites, njumps;
	struct dl_unplaced *unplaced;
	uint64_t *unplaced_cost;	/* nunplaced * stride */
	size_t nunplaced;
};

struct disasm_members;

/*
 * Build the listing of picks[k] (p must have instruction positions), m
 * its members as disasm_members_init() found them for picks. Returns 0;
 * a function that cannot be disassembled (reported) is built with
 * code_ok false and all its cost unplaced.
 */
int disasm_listing_build(struct disasm_listing *l, const struct cg *cg,
			 const struct print_opts *o,
			 const struct disasm_pick *picks,
			 const struct disasm_members *m, size_t k);
void disasm_listing_release(struct disasm_listing *l);

static inline uint64_t *dl_row(uint64_t *rows, const struct disasm_listing *l,
			       size_t i)
{
	return rows + i * l->stride;
}

#endif
