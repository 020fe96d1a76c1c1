/*
 * --focus, --ignore, --hide and --fold-recursion on a profile's whole
 * stacks (doc/transforms in DESIGN.md; the page's transforms mean the
 * same): the stacks rewritten, one transform after the other, and every
 * function's self, inclusive and count and every arc's count and
 * inclusive cost made again from them.
 *
 *   focus=G   keep the stacks holding a frame G names, each cut to
 *             start at its outermost such frame
 *   ignore=G  drop the stacks holding a frame G names
 *   hide=G    take G's frames out of every stack: their cost goes to
 *             the nearest caller left, their callees become its
 *             callees; a stack of hidden frames only keeps its
 *             outermost one, so the total stays
 *   fold      consecutive frames of one function become one frame
 */
#ifndef CGA_STACK_TRANSFORM_H
#define CGA_STACK_TRANSFORM_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

enum transform_kind {
	TRANSFORM_FOCUS,
	TRANSFORM_IGNORE,
	TRANSFORM_HIDE,
	TRANSFORM_FOLD,
};

struct transform {
	enum transform_kind kind;
	const char *glob;	/* the name rule's pattern; NULL for FOLD */
};

/* "focus", "ignore", "hide", "fold-recursion" */
const char *transform_name(enum transform_kind kind);

/*
 * Apply t[0..n) in order to p's stacks (p->nstack_values: IgProf and
 * perf.data read with want_stacks, or stacks estimated from the arcs),
 * and make p's costs again from what is left: self (the stacks ending
 * in a function), inclusive (the stacks holding it, once each), the
 * arcs (the stacks where one calls the other, once each; arcs no stack
 * holds any more are gone) and the totals. A stack records no line:
 * each position's cost is scaled to its function's self cost left, and
 * each call site's to its arc's (an estimate: what was taken away is
 * taken from every line alike; a self cost that grew, under hide,
 * leaves the lines as recorded). Leaks follow their stacks. A pattern
 * that names no function is said in a warning. Returns 0, or -1 after
 * saying why (no stacks).
 */
int stack_transform(struct profile *p, const struct transform *t, size_t n);

/*
 * The inclusive cost (each stack once) of event ev of the stacks that
 * hold a frame of a function pattern names: what --focus=pattern would
 * leave, and --ignore=pattern take away. For tests and the header.
 */
uint64_t stack_matched_cost(const struct profile *p, const char *pattern,
			    uint32_t ev);

#endif
