/*
 * gmon.out's addresses as positions (struct ppos), for the annotated
 * source and the disassembly listings: each histogram bin's ticks at one
 * instruction of the bin, each call arc as a call site at its call
 * instruction. resolve_gmon() calls it once the functions exist; the
 * flat profile and the call graph do not need it.
 */
#ifndef CGA_GMON_POS_H
#define CGA_GMON_POS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/gmon_data.h"
#include "profile/profile.h"
#include "symtab/symtab.h"

struct gmon_pos_in {
	struct profile *p;
	const struct symtab *st;
	const struct gmon_data *g;
	uint64_t load_offset;	/* the file's addresses - link-time ones */
	uint32_t event;		/* the histogram's event in p */
	/*
	 * The profile function holding link-time address a, as the flat
	 * profile assigns addresses (created if new); and the call arc i of
	 * g->arcs became, which its call site belongs to, with the link-time
	 * [lo, hi) of its callee's code.
	 */
	uint32_t (*func_at)(void *arg, uint64_t a);
	uint32_t (*call_of)(void *arg, size_t i, uint64_t *callee_lo,
			    uint64_t *callee_hi);
	void *arg;
};

/*
 * Add the positions and call sites to in->p, their addresses in the
 * file's address space (link-time + load_offset), as every reader keeps
 * them; files and lines from the binary's DWARF. Sets p->has_instr (and
 * has_line when a line was found). When the binary cannot be
 * disassembled, ticks go to their bins' low addresses (gprof -l's
 * choice) and calls at the arcs' from_pc, with one warning saying so.
 */
void gmon_positions(const struct gmon_pos_in *in);

#endif
