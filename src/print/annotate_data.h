/*
 * The annotated source listing's data, apart from its printing: the
 * profile's position costs summed by (file, line), the calls made from
 * each line, what inlined code cost at the line it was inlined into, and
 * an account of where every unit of cost went (listed, in a file that
 * was not found, on no line, below the threshold, not chosen).
 */
#ifndef CGA_ANNOTATE_DATA_H
#define CGA_ANNOTATE_DATA_H

#include "print.h"

/*
 * A callee called from a line: count and inclusive cost (row). Calls of
 * a function to itself or inside its cycle are only counted: their
 * inclusive cost is part of the outer call's already (adding it would
 * count a recursion once per level, past the program's total).
 */
struct ann_call {
	uint32_t callee;	/* function */
	uint64_t count;		/* calls whose cost is in the row */
	uint64_t recursive;	/* calls within a recursion or cycle */
	uint32_t next;		/* next call of the same line, or NO_ID */
};

/* Inlined code's cost at the line it was inlined into (--inline-calls). */
struct ann_inlined {
	name_id func;		/* the inlined function */
	uint32_t next;		/* next of the same line, or NO_ID */
};

struct ann_line {
	uint32_t line;		/* 1-based */
	uint32_t file;		/* index into files[] */
	uint32_t first_call, first_inlined;	/* lists, NO_ID ends them */
};

enum ann_fate {
	ANN_LISTED,		/* listed with its source text */
	ANN_NOT_FOUND,		/* listed by line number: no source found */
	ANN_BELOW,		/* below the threshold: not listed */
	ANN_NO_LINE,		/* "???" or line 0: nowhere to list it */
	ANN_NOT_CHOSEN,		/* --annotate=WHAT chose other files or
				 * functions, or -p/-P SPEC left the
				 * function out */
	ANN_FATES
};

struct ann_file {
	name_id name;
	uint32_t *lines;	/* into a->lines, by line number */
	size_t nlines;
	enum ann_fate fate;
	const struct source_file *src;	/* when listed or not found */
	uint32_t past_end;	/* lines with cost past the source's end */
};

struct annotation {
	const struct profile *p;
	size_t stride;
	uint32_t sort_event;
	struct ann_file *files;	/* hottest first */
	size_t nfiles;
	uint64_t *file_cost;	/* nfiles * stride, in the files' order */
	struct ann_line *lines;
	size_t nlines, lines_alloc;
	uint64_t *line_cost;	/* nlines * stride */
	struct ann_call *calls;
	size_t ncalls, calls_alloc;
	uint64_t *call_incl;	/* ncalls * stride */
	struct ann_inlined *inlined;
	size_t ninlined, inlined_alloc;
	uint64_t *inlined_cost;	/* ninlined * stride */
	uint64_t *fate_cost;	/* ANN_FATES * stride */
	uint32_t fate_files[ANN_FATES];	/* files of each fate */
	uint64_t *total;	/* stride: all position costs */
	/*
	 * gmon.out's basic-block counts (tag 2), by line: the largest count
	 * of the blocks that start on it (0: none), nlines entries; NULL
	 * when the profile has none.
	 */
	uint64_t *line_execs;
	const char *selected_by;	/* "file", "function" or NULL */
	bool by_symspecs;	/* -p/-P SPEC chose functions too */
	bool any_line;		/* the profile has cost on some line, chosen
				 * or not */
	/* The object with the most cost (of the sort event) of those whose
	 * code has no source line at all, and that cost: a build without
	 * -g. NO_NAME: none (or no objects in the profile). */
	name_id no_line_object;
	uint64_t no_line_object_cost;
};

/*
 * Sum the profile's positions (it must have been read with positions)
 * into a, choosing files as o->annotate_what says. Returns 0, or -1
 * when WHAT names no file and no function of the profile (reported).
 */
int annotation_build(struct annotation *a, const struct cg *cg,
		     const struct print_opts *o);
void annotation_release(struct annotation *a);

static inline uint64_t *ann_row(uint64_t *rows, const struct annotation *a,
				size_t i)
{
	return rows + i * a->stride;
}

#endif
