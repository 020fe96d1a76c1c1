/* The pprof reader's parts (see pprof.h). */
#ifndef CGA_PPROF_READ_H
#define CGA_PPROF_READ_H

#include "pprof.h"
#include "read/read.h"

/*
 * An unsymbolized profile (no location has lines): its locations as
 * offsets in their mappings' files and its samples as a tree of
 * stacks, in p->perf, for resolve_perf() to name with -b or the
 * recorded files as it names perf.data's. 0, or -1 after an error.
 */
int pprof_read_addresses(struct profile *p, const struct pprof_file *f,
			 const struct read_opts *opts);

#endif
