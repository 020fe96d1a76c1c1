/*
 * A focus's total pinned to its function's measured inclusive cost, on
 * the stacks estimated from the arcs (arc_stacks.h).
 *
 * Callgrind measures each function's inclusive cost (callgrind_annotate
 * --inclusive=yes prints it; our --json's "inclusive" and --tree's node
 * of the function are it). The estimated stacks spread each function's
 * self cost over its paths by their totals (flame_exact_self()), which
 * moves a little of the self of a function called both under F and
 * elsewhere (malloc, the dynamic linker) across F's boundary: the
 * stacks holding F then add up to a little more or less than F's
 * inclusive cost (samples/cxx's main: 164,174 against 164,390).
 * arc_pin() moves that much back, between the stacks of those same
 * functions, so that --focus=F's total is F's inclusive cost and
 * --ignore=F's the total less it, and every function's self cost over
 * all its stacks is unchanged. The report does the same (exact.js:
 * pinStacks()), by the same operations in the same order.
 */
#ifndef CGA_ARC_PIN_H
#define CGA_ARC_PIN_H

#include <stdint.h>

#include "cg/cg.h"
#include "flame_data.h"

/*
 * The function whose inclusive cost a focus or an ignore of glob is
 * pinned to: the one function glob names (with its recursion levels,
 * fib'2 for fib, which valgrind only makes under fib), outside any
 * cycle, of a profile whose inclusive costs are measured; NO_ID when
 * there is none (obj: and file: globs, several functions, gmon.out).
 */
uint32_t arc_pin_func(const struct cg *cg, const char *glob);

/*
 * Each node's self in whole units into whole[] (fl: an estimated tree
 * of one event, flame_exact_self() made, parents before children),
 * those of the nodes holding function f pinned to f's inclusive cost
 * incl: rounded as a running sum over each function's nodes (so that
 * a function's whole self is on its stacks; arc_stacks.c's running sum
 * is over every node), and then the difference is moved between the nodes of the functions
 * with nodes both under f and not (each function's share in proportion
 * to what it has on the giving side, each node's in proportion to its
 * self, whole units as running sums, functions by id, nodes in order);
 * what they cannot give stays.
 */
void arc_pin(const struct flame *fl, uint32_t nfuncs, uint32_t f,
	     uint64_t incl, uint64_t *whole);

#endif
