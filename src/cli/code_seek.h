/*
 * The seek design (doc/PERFORMANCE.md, session 25): where the first of
 * the disassembly's two reads would be by the binary's regions
 * (code_positions.c's region_read()), the file is read once, the real
 * read, keeping every function's coarse rows apart
 * (pos_select.per_func) and where each function's block starts; the
 * choice is made from it as from the first read, the kept functions'
 * blocks are read again by offset (read/callgrind/callgrind_seek.h)
 * and the rest folded (profile/pos_fold.h): the profile the second
 * read would give. Where it cannot be, the two reads follow, with the
 * same output.
 */
#ifndef CGA_CODE_SEEK_H
#define CGA_CODE_SEEK_H

#include "code_positions.h"

/* Whether this run's read is the one read: p set up for it (its
 * pos_select), read_opts.seek to be code_seek_opts(cp). Off with
 * CGANALYZE_SEEK=0 (the two reads, for tests and comparisons). */
bool code_seek_begin(struct code_positions *cp, struct profile *p,
		     const struct options *o, const struct resolve_opts *rso,
		     struct symtab *bin);

/* The seek state to give the read (read_opts.seek), or NULL. */
struct callgrind_seek *code_seek_opts(const struct code_positions *cp);

/* After the one read: p made what the two reads give; false when it
 * cannot be (the caller reads again, code_positions_retry()). */
bool code_seek_end(struct code_positions *cp, struct profile *p,
		   const struct options *o, const struct resolve_opts *rso);

/* What code_seek_begin() kept, released. */
void code_seek_forget(struct code_positions *cp);

#endif
