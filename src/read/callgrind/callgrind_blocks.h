/*
 * The seek design's block starts (callgrind_seek.h), kept as they are
 * read: each fn= line's function, the positions and call sites made
 * before it and its offset, as differences from the block before in
 * variable-length numbers. A 1 GB profile has 675,000 blocks: about 5
 * bytes each (most functions new, one or two rows, a kilobyte or two
 * apart), 3.4 MB where 24-byte records took 16 MB of the read's peak.
 */
#ifndef CGA_CALLGRIND_BLOCKS_H
#define CGA_CALLGRIND_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/pos_fold.h"

struct callgrind_blocks {
	uint8_t *buf;
	size_t len, alloc;
	size_t n;			/* blocks */
	struct pos_block last;		/* the last added */
};

/* Block b after those added (its npos, ncs and off no less than the
 * last's). */
void callgrind_blocks_add(struct callgrind_blocks *bs,
			  const struct pos_block *b);

/* The block at byte *at into *b, which holds the one before it (zeroed
 * for the first); *at moved past it. False at the end. */
bool callgrind_blocks_next(const struct callgrind_blocks *bs, size_t *at,
			   struct pos_block *b);

void callgrind_blocks_release(struct callgrind_blocks *bs);

#endif
