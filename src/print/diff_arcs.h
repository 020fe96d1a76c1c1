/*
 * --diff's calls between functions: each side's call arcs taken to the
 * rows of the comparison (functions matched across the two profiles,
 * diff.h), so that a row's callers and callees can be listed with each
 * side's cost and the change, as its own costs are.
 */
#ifndef CGA_DIFF_ARCS_H
#define CGA_DIFF_ARCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cg/cg.h"

/* One call between two rows, both sides' arcs between their functions
 * added up. */
struct diff_arc {
	uint32_t caller, callee;	/* rows */
	bool in[2];			/* [0] BASE has such an arc, [1] NEW */
	uint64_t cost[2];		/* the arcs' inclusive cost */
	uint64_t calls[2];		/* and their counts */
};

/* The rows' calls, and two orders of them to find a row's. */
struct diff_arcs {
	struct diff_arc *arcs;	/* by caller row, then callee row */
	size_t n;
	uint32_t *by_callee;	/* arcs[] indexes, by callee row, caller */
	size_t *out_start;	/* nrows + 1: row r's callees are arcs
				 * [out_start[r], out_start[r + 1]) */
	size_t *in_start;	/* the same of by_callee[] for its callers */
};

/*
 * The calls of side k's graph cg[k] (analysed, event ev[k]) between
 * rows, row[k][f] being function f's. An arc's cost is the profile's
 * measured inclusive cost of the call where it has one (Callgrind,
 * perf.data, IgProf), else gprof's estimate of what the call brings
 * the caller (cg_arc_share(), rounded to a whole unit as the rows'
 * costs are): what the report's Function view and --json's "arcs" say
 * of it. Calls from a function to itself, or between two functions
 * made one row, are not between rows and are left out, as the graph
 * leaves self-calls out.
 */
void diff_arcs_build(struct diff_arcs *da, const struct cg *const cg[2],
		     const uint32_t ev[2], const uint32_t *const row[2],
		     size_t nrows);
void diff_arcs_release(struct diff_arcs *da);

#endif
