/*
 * --diff --output=html: the report of the change between two profiles
 * (html_diff.c), one offline page like the report's (html_page.h),
 * drawn by its own views (src/print/html/js/diff*.js) from:
 *
 * "cga-data": the functions of the comparison, one per row of --diff
 * (functions matched by name, file and object across the two), in the
 * shape of the report's first document (html_data.h) so that the
 * report's helpers (names, numbers, tables) serve the page as they are:
 * NEW's costs as the columns "self" and "inclusive", the one event
 * compared, NEW's total.
 *
 * "cga-diff": "base" and "new" ({path, format, total}), "delta",
 * "main_programs" (as --json's, or null), "listed" (the rows --json
 * lists, which come first, in its order), "in" (per row: 1 only in
 * BASE, 2 only in NEW, 3 both), "self" and "inclusive" ([BASE's column,
 * NEW's column]), "arcs": the calls between rows (diff_arcs.h) as
 * columns: "caller", "callee" (rows), "in" (1 BASE has such calls, 2
 * NEW, 3 both), "cost" and "count" ([BASE's column, NEW's column]), in
 * the order of callers; and "trees": [BASE's, NEW's] flame graph trees, as
 * the report's (html_data_flame()) but with a row for "unit" (a cycle
 * as a whole: -N, its members' rows in "cycles"[N - 1]).
 */
#ifndef CGA_HTML_DIFF_H
#define CGA_HTML_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cg/cg.h"
#include "diff_arcs.h"

/* One function of the comparison, as --diff lists it. */
struct diff_page_row {
	const char *name, *file, *object;	/* file, object: "" unknown */
	bool in[2];			/* [0] BASE, [1] NEW */
	uint64_t self[2], incl[2];
};

/* A side of the comparison: its analysed graph (cg->p its profile). */
struct diff_page_side {
	const char *path;
	const struct cg *cg;
	uint32_t ev;
	uint64_t total;
	const uint32_t *row;	/* by function id: its row */
};

struct diff_page {
	struct diff_page_side s[2];
	const struct diff_page_row *rows;
	size_t nrows, listed;	/* rows[0, listed): --json's, its order */
	/* the two main programs when their paths differ (NULL: not), and
	 * whether they were compared as one object (diff_main.h) */
	const char *main_obj[2];
	bool mains_matched, mains_by_file;
	size_t mains_shared;
	const struct diff_arcs *arcs;	/* the calls between rows */
	const char *title, *warnings;	/* warnings: the run's messages */
};

void print_html_diff(FILE *out, const struct diff_page *dp);

#endif
