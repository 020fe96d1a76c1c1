/*
 * The binary's code symbols as the disassembly sees them, its regions
 * (stretches between two symbol or segment bounds), and which symbols
 * it lists for given costs: for the choice of the functions whose
 * positions are kept whole (code_positions.h) and its checks.
 */
#ifndef CGA_CODE_SYMBOLS_H
#define CGA_CODE_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "profile/profile.h"
#include "symtab/symtab.h"

/* Whether s is code the disassembly lists (not data, not empty). */
bool code_sym(const struct sym *s);

/* Function f of object ob (NO_NAME: any object). */
static inline bool code_in_object(const struct profile *p, uint32_t f,
				  name_id ob)
{
	return ob == NO_NAME || p->funcs[f].object == ob;
}

/* The code symbol at a (the profile's address, load offset off), as
 * the disassembly's sym_at() finds it: its index, or NO_ID. */
uint32_t code_sym_at(const struct symtab *st, uint64_t a, uint64_t off);

/*
 * The binary's regions in the profile's addresses: bounds at every
 * symbol's start and end and every segment's, so that the symbol and
 * segment an address is in are the same all through a region. *bounds
 * (*n of them, ascending), *in_seg and *sym_of (each region's code
 * symbol, NO_ID: none) are malloc'd for the caller.
 */
void code_make_regions(const struct symtab *st, uint64_t off,
		       uint64_t **bounds, uint8_t **in_seg, uint32_t **sym_of,
		       uint32_t *n);

struct pos_select;
struct resolve_opts;

/*
 * A choice of positions by st's regions at load offset off (new,
 * pos_select.h), its object named as the profile will name it: the
 * binary's path when it was found from the profile (no -b), else the
 * object -b stands for (rso->objects[0]) or the binary's base name.
 */
struct pos_select *code_region_select(const struct symtab *st, uint64_t off,
				      const struct options *o,
				      const struct resolve_opts *rso);

/* The region of a (as pos_select's find_region()), or NO_ID. */
uint32_t code_region_of(const uint64_t *b, uint32_t n, uint64_t a);

/* to += from, a row of p's events, each as the profile combines it. */
void code_combine_row(const struct profile *p, uint64_t *to,
		      const uint64_t *from);

/* Each event's total as profile_finish() makes it: the self costs
 * (malloc'd, p->stride of them). */
uint64_t *code_self_totals(const struct profile *p);

/* The code symbols WHAT names, into req[] (by symbol index). */
void code_mark_named(const struct symtab *st, const char *what,
		     uint8_t *req);

/*
 * The code symbols the disassembly may list (req[], by index), given
 * each's cost (rows of p->stride; at least the true cost): those WHAT
 * names, else those with the threshold's share of some event.
 */
void code_mark_required(const struct profile *p, const struct symtab *st,
			name_id ob, const uint64_t *cost,
			const struct options *o, uint8_t *req);

/* The report's Disassembly for the exact costs, under every event (the
 * sort event among them), into req[]. */
void code_html_required(const struct profile *p, const struct symtab *st,
			const uint64_t *cost, double thr, uint8_t *req);

/* From bounds of each symbol's cost (lower <= true <= upper), the
 * symbols the report may list, into req[]. */
void code_html_candidates(const struct profile *p, const struct symtab *st,
			  const uint64_t *upper, const uint64_t *lower,
			  double thr, uint8_t *req);

#endif
