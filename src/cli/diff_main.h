/*
 * --diff's main programs: the object each profile's program is in, and
 * whether two such objects under two paths (bin/fib and bin/fib-O2, or
 * two build directories) are builds of one program, compared as one
 * object. Shared libraries keep their own names: only the main
 * program's object is matched this way.
 */
#ifndef CGA_DIFF_MAIN_H
#define CGA_DIFF_MAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * The object of p's program: that of its function "main" (Go's
 * "main.main"), the one with the largest incl[] when there are several
 * (perf.data of two processes; incl has one entry per function, or is
 * NULL: the first), else the object whose base name is that of a word
 * of an input's command (Callgrind's cmd:, IgProf's program, perf
 * record's command line). Every reader names a function's object by
 * the file it was mapped from, and main is the executable's, so this
 * holds for each input kind. NO_NAME when neither is found.
 */
name_id diff_main_object(const struct profile *p, const uint64_t *incl);

/* A function of a main object, by its normalised name and source file
 * ("" or "???": unknown). */
struct main_fn {
	const char *name, *file;
};

/* How two main objects' functions were found to be one program's. */
struct mains_match {
	bool by_file;		/* some function has a known source file */
	size_t shared;		/* functions counted as in both */
};

/*
 * Whether the main objects whose functions are a[na] and b[nb] are one
 * program's: some function of the same name and source file is in
 * both, counting only those with a known source file when either side
 * knows any (built with -g); by name alone when neither does, not
 * counting main, the C runtime's functions and addresses, which any
 * two programs may share. m says which, and how many. Reorders a and b.
 */
bool diff_mains_match(struct main_fn *a, size_t na, struct main_fn *b,
		      size_t nb, struct mains_match *m);

#endif
