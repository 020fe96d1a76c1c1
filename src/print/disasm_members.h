/*
 * What each of the disassembly's chosen symbols lists, found for all of
 * them at once: the profile functions with a position inside the
 * symbol or named after it, and those functions' positions, call sites
 * and jumps. A listing per symbol walking every position and function
 * took, for the report's 300 symbols of a 712,000-function profile,
 * most of the time of writing the page.
 */
#ifndef CGA_DISASM_MEMBERS_H
#define CGA_DISASM_MEMBERS_H

#include "disasm_data.h"

/*
 * Pick k's functions are funcs[func_at[k] .. func_at[k + 1]), ascending;
 * likewise its positions (indexes into p->pos), call sites (into
 * p->callsites) and jumps (into p->jumps), each ascending: those of its
 * functions.
 */
struct disasm_members {
	size_t n;
	size_t *func_at, *pos_at, *site_at, *jump_at;	/* n + 1 each */
	uint32_t *funcs, *pos, *sites, *jumps;
};

/*
 * Fill m for picks[0 .. n) (disasm_pick()'s, of cg's profile and o's
 * binaries). A function belongs to the symbol of binary b when it is
 * of b's object and has a position whose address less b's load offset
 * is inside the symbol, or its name but for a valgrind suffix ("fib'2")
 * is the symbol's (resolve_named_sym()).
 */
void disasm_members_init(struct disasm_members *m, const struct cg *cg,
			 const struct print_opts *o,
			 const struct disasm_pick *picks, size_t n);
void disasm_members_release(struct disasm_members *m);

#endif
