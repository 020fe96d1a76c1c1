/*
 * The seek design (doc/PERFORMANCE.md, session 25): the disassembly's
 * one read keeps where each function's block starts (its fn= line's
 * offset) and the reader's state as the file ends; the functions kept
 * whole are then read again from their blocks alone, by offset
 * (profile/pos_fold.h folds the rest).
 *
 * A block is read as a stretch read ahead reads (callgrind_ahead.c):
 * from a state it does not know, the object and file before its fn=
 * line as stand-ins, given the function's own; a compressed id it
 * refers to without defining by the ids as the read ended them. That
 * holds where valgrind writes it: each block's first cost line gives
 * its position absolutely, each id names one thing. Anything else
 * (a relative first line, an id defined twice, a pipe or a compressed
 * file whose offsets are not the text's, the splitting thread's lines,
 * several parts or inputs, what is read there not that function's
 * block, any message the reader would give) says no, and the caller
 * reads twice as before.
 */
#ifndef CGA_CALLGRIND_SEEK_H
#define CGA_CALLGRIND_SEEK_H

#include <stdint.h>

#include "profile/pos_fold.h"
#include "profile/profile.h"

struct callgrind_seek;
struct callgrind_reader;
struct line_reader;

struct callgrind_seek *callgrind_seek_new(void);
void callgrind_seek_free(struct callgrind_seek *sk);

/* At the end of a read with read_opts.seek: what the reader leaves. */
void callgrind_seek_keep(struct callgrind_seek *sk,
			 struct callgrind_reader *rd,
			 const struct line_reader *lr);

/* After the read: NULL when blocks can be read again, else why not. */
const char *callgrind_seek_unusable(const struct callgrind_seek *sk);

/* The blocks of the functions kept[f] (of nfuncs), in file order (n of
 * them), held by sk. */
const struct pos_block *callgrind_seek_kept(struct callgrind_seek *sk,
					    const uint8_t *kept,
					    size_t nfuncs, size_t *n);

/*
 * Kept block i (callgrind_seek_kept()) read again into w, in p's ids (a pos_whole_fn: ctx the struct
 * callgrind_seek): 0, or -1 when it cannot be (not read back as the one
 * read read it: another function's, or anything said). The environment
 * variable CGANALYZE_SEEK_SHIFT=N (tests) moves the first block read
 * N bytes on, to see a wrong offset caught; CGANALYZE_SEEK_CHANGE=N
 * adds N to its first cost, as a file changed between the reads would,
 * to see the kept functions' sums catch it (profile_fold_positions()).
 */
int callgrind_seek_block(void *ctx, struct profile *p, size_t i,
			 struct pos_whole *w);

#endif
