/*
 * Positions only for what is printed: the annotated source (--annotate,
 * and the report's Source view) lists the lines of the files of
 * --threshold's share of the cost or more, and of the others needs only
 * their cost on a line and on none. A big program's profile has tens of
 * millions of instructions' positions (issue 33); this reads the
 * profile once to find the files, keeping each file's cost alone, so
 * that the real read keeps the lines of those files and nothing finer.
 */
#ifndef CGA_HOT_FILES_H
#define CGA_HOT_FILES_H

#include "options.h"
#include "profile/profile.h"
#include "read/read.h"

/*
 * Before the inputs are read into p (empty) with ro: set how much of a
 * position p keeps (p->pos_detail, the files whose lines it keeps) and
 * what ro reads, when the listings o asks for need positions only for
 * the annotated source; else leave both as they are. Reads the inputs
 * a first time when they are Callgrind files that can be read again
 * (files, compressed or not; a pipe keeps every file's lines), its
 * messages dropped: the real read says them.
 */
void hot_files_choose(struct profile *p, struct read_opts *ro,
		      const struct options *o);

/*
 * Keep in p (POS_LINES) the lines of the files of q that pass the
 * threshold thr (in percent) of some event; q's positions are each
 * file's cost on a line and on none (POS_FILES, or positions keyed
 * alike: code_positions.c's first read).
 */
/* Whether every input is a Callgrind profile in a file that can be read
 * again (compressed or not; a pipe cannot) */
bool hot_files_rereadable(const struct options *o);
void hot_files_keep(struct profile *p, const struct profile *q, double thr);

#endif
