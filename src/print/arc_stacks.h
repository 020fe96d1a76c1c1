/*
 * Stacks for a profile that records none (Callgrind, gmon.out): the
 * flame graph's paths estimated from the call arcs (flame_data.h), put
 * in the profile as its stacks, so that the transforms (--focus and
 * the others: select/stack_transform.h) can work on it as on a profile
 * of whole stacks. The listings made from them say they are estimated
 * (profile.stacks_estimated).
 */
#ifndef CGA_ARC_STACKS_H
#define CGA_ARC_STACKS_H

#include "cg/cg.h"

/*
 * Every event the arcs say enough of (those with measured inclusive
 * costs; a gmon.out estimate, the sort event only) made into stacks of
 * cg->p from cg's estimated tree: each path a stack, its cost rounded
 * to whole units so that the stacks still add up to the total, a cycle
 * as a whole a function of its own ("<cycle N as a whole>"), each
 * path's share of its arc's call count as its calls (profile.
 * stack_calls). The estimate of self cost per function (gmon.out's
 * est_self) is dropped: the stacks hold it now. pin: a function the
 * stacks holding it are pinned to the measured inclusive cost of, for
 * a focus or an ignore of it (arc_pin.h), or NO_ID.
 */
void arc_stacks_make(struct profile *p, const struct cg *cg, uint32_t pin);

#endif
