/*
 * The seek design's fold (doc/PERFORMANCE.md, session 25): a profile
 * read once with every function's coarse rows apart (pos_select.h's
 * per_func) made into what the second of the disassembly's two reads
 * makes, once the functions kept whole are known: their positions read
 * again from their blocks (struct pos_whole), every other function's
 * rows folded into its object's.
 *
 * Rows are made in the order of their first use, so the one read's
 * rows are in the order their lines first came. A coarse row of the
 * second read is made at the first line that maps to it, which is the
 * first use of the earliest of the one read's rows that fold into it:
 * going through them in order and folding each into its row (made if
 * new) gives the second read's order. While a function's block is
 * read (its fn= line to the next), only its rows, call sites and jumps
 * are made: a kept function's whole positions read again from a block
 * go where the one read's rows made from that block's start on begin
 * (struct pos_block: how many there were before it), its call sites
 * likewise, its jumps after those of the kept blocks before it (the
 * one read keeps none: nothing is whole in it).
 */
#ifndef CGA_POS_FOLD_H
#define CGA_POS_FOLD_H

#include <stdint.h>

#include "profile.h"

/* Where a function's block starts (its fn= line): the function, the
 * one read's positions and call sites made before it, its offset and
 * where the next block starts (the end of the file for the last). */
struct pos_block {
	uint32_t func;
	uint32_t npos, ncs;
	uint64_t off, end;
};

/* A kept function's block read again, in p's ids: its positions as
 * read (a log: the same one may come again), call sites and jumps on
 * them by index into pos. */
struct pos_whole {
	struct ppos *pos;
	uint64_t *cost;			/* npos * p->stride */
	size_t npos, pos_alloc, cost_alloc;
	struct pcallsite *cs;
	uint64_t *cs_incl;		/* ncs * p->stride */
	size_t ncs, cs_alloc, incl_alloc;
	struct pjump *jumps;
	size_t njumps, jumps_alloc;
	uint32_t *map;			/* pos -> p's, set by the fold */
};

void pos_whole_release(struct pos_whole *w);

/* Block i of those given read into w (empty): 0, or -1 when it cannot
 * be (the caller then reads twice). */
typedef int (*pos_whole_fn)(void *ctx, struct profile *p, size_t i,
			    struct pos_whole *w);

/*
 * p's positions and call sites (the one read's, per function; no
 * jumps) made those the second read gives with the functions kept[f]
 * whole and the lines of the files profile_keep_lines_of() chose (or
 * all, pos_all_files); blk[nblk] the blocks of the kept functions,
 * in file order.
 * 0, or -1 when it cannot be done (a kept function's row outside its
 * blocks, a block that cannot be read again, a cost past 2^64 - 1):
 * p's positions are then half made, to be read again.
 */
int profile_fold_positions(struct profile *p, const uint8_t *kept,
			   const struct pos_block *blk, size_t nblk,
			   pos_whole_fn read_block, void *ctx);

#endif
