/*
 * The report's trees of a Callgrind profile with its recursion levels
 * folded, for the page's fold (html/js/transform.js: foldedBase()).
 *
 * valgrind's --separate-recs makes each recursion level a function of
 * its own (fib'2). --fold-recursion folds them as the profile is read,
 * so the tree is estimated from the folded arcs and their cycles
 * (doc/REFERENCE.md, "Transforms"); a fold of the paths estimated with
 * the levels apart differs wherever the levels make cycles of their own
 * (even'2 and odd'2) or a ring (ring_a'2 > ring_b'2 > ...). So that the
 * page's fold of every function's recursion shows --fold-recursion's
 * figures, the report carries those trees too: the profile folded here
 * as the reader folds it (each function by its name without the level,
 * file and object, in the order met; each arc by its two ends; costs
 * and calls added), analysed as the command line analyses it, and each
 * drawn event's tree as --tree --fold-recursion has it, with the
 * estimated stacks' self costs (flame_exact_self(), as arc_stacks.c
 * makes them) for the transforms after the fold.
 */
#ifndef CGA_HTML_FOLDED_H
#define CGA_HTML_FOLDED_H

#include <stdio.h>

#include "cg/cg.h"
#include "print.h"
#include "report_keep.h"

/*
 * ", \"folded\": {...}" into out, the members of html_data_flame()'s
 * document, where cg's profile has recursion levels, measured arcs and
 * no stacks; nothing otherwise. Each tree's units are page function
 * ids (a folded function's is its level of none's on the page, fib for
 * fib'2, else its first level's there: the page's levelIds()), the
 * page's unit of the functions it leaves out (k->nkept, as its own
 * trees have it) and -N for the folded cycle N as a whole; "incl",
 * "fself" and "cycle" are each page function's inclusive and self cost
 * per event and cycle number once folded (0 for a level folded into
 * another).
 */
void html_folded(FILE *out, const struct cg *cg, const struct print_opts *o,
		 const struct report_keep *k);

#endif
