/*
 * Reading profiles. read_profile() detects the format from the content
 * (never the file name) and hands the file to that format's reader,
 * which adds what it reads to the profile. Several files may be read
 * into one profile; their costs add up.
 */
#ifndef CGA_READ_H
#define CGA_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "input.h"
#include "profile.h"

struct read_opts {
	uint64_t part;		/* read only this part (1-based); 0: all */
	bool fold_recursion;	/* fib'2 is counted as fib */
	bool lenient;		/* an undefined compressed id or extra costs
				 * on a cost line are warnings, not errors */
	bool want_positions;	/* keep costs per (function, file, line,
				 * address): struct ppos */
	uint64_t max_costs;	/* cost numbers the profile may hold (one
				 * per event per function, arc, position);
				 * 0: the reader's own limit. For tests */
};

/* Returns 0, or -1 after reporting an error that names the file. */
int read_profile(struct profile *p, const char *path,
		 const struct read_opts *opts);

/* The format readers, called with an open line reader. */
bool callgrind_sniff(const char *data, size_t len);
int read_callgrind(struct profile *p, struct line_reader *lr,
		   const struct read_opts *opts);

/*
 * The name with its recursion level removed: "fib'2" -> "fib",
 * "odd'2'even'odd" (--separate-callers) -> "odd'even'odd". Returns the
 * new length; the result is written to out (at least len bytes).
 */
size_t fold_recursion_suffix(const char *name, size_t len, char *out);

#endif
