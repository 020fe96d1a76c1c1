/*
 * The report's threads and dumps of a Callgrind profile: each selected
 * part, read alone and analysed, as records of the samples' document
 * (html_samples.h) on the whole profile's trees. A part's self cost
 * per function is exact (its file's); where in the call tree it lies
 * is estimated from the part's own arcs, as the whole tree is from
 * the whole profile's.
 */
#ifndef CGA_HTML_PARTS_H
#define CGA_HTML_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "cg/cg.h"
#include "profile/parts.h"
#include "profile/profile.h"
#include "report_keep.h"

/* One part of the whole profile, read alone (cli/part_reads.c). */
struct html_part {
	const struct ppart *part;	/* the whole profile's */
	struct profile p;		/* the part alone */
	struct cg cg;			/* its graph, propagated and ranked */
};

/* What the page sums: cost of an event at a node of the page's tree
 * of that event, in a time bucket (perf.data) or dump (a part), of a
 * track (a thread). */
struct html_record {
	uint32_t bucket, track, node, event;
	uint64_t samples, period;
};

/* The parts' tracks and steps: the threads (part_groups() by thread,
 * in its order) and the dumps (the parts' numbers, else their order in
 * their file, ascending). */
struct html_part_axes {
	struct part_group *groups;
	size_t ngroups;
	uint64_t *dumps;	/* ndumps part numbers */
	size_t ndumps;
	uint32_t *track, *bucket;	/* per part given */
};

void html_part_axes_init(struct html_part_axes *ax, const struct profile *p,
			 const struct html_part *parts, size_t nparts);
void html_part_axes_release(struct html_part_axes *ax);

/* Nodes a tree of the page lacks that the parts' paths need: after the
 * page's n nodes, each a function's (a page id) with its parent (a node
 * of the page or one added before it, NO_ID at the roots). */
struct html_part_added {
	uint32_t *unit, *parent;
	size_t n, unit_alloc, parent_alloc;
};

/*
 * The records of the parts on the page's trees (those html_data_flame()
 * writes, cut as k cuts them), unsorted, samples 1; the caller frees
 * them, and added[e] (p->nevents of them, the nodes each event's tree
 * needs added; filled here) with html_part_added_release(). Each
 * function's self cost in a part is shared over the nodes of it that
 * the part's tree (flame_exact_self()) has, in whole numbers that add
 * up to it, each node placed at the whole tree's node of the same path
 * of functions, added where the whole tree has none. *moved counts the
 * records put on another function's node (one the page leaves out: its
 * caller's), *unplaced those on no node of the page (a merged root).
 */
struct html_record *html_parts_records(const struct cg *cg,
				       const struct html_part *parts,
				       size_t nparts,
				       const struct html_part_axes *ax,
				       bool every_event,
				       uint32_t sort_event,
				       const struct report_keep *k,
				       struct html_part_added *added,
				       size_t *nrec, size_t *moved,
				       size_t *unplaced);
void html_part_added_release(struct html_part_added *a, size_t n);

/*
 * Each part's inclusive cost of each function the page has, as the
 * part read alone measures it (cg_inclusive_row(): --tid's and
 * --part's), for the events html_data_flame() draws: records with node
 * the function's page id, sorted by (event, bucket, track, node), those
 * of no cost left out. The caller frees them.
 */
struct html_record *html_parts_inclusive(const struct cg *cg,
					 const struct html_part *parts,
					 size_t nparts,
					 const struct html_part_axes *ax,
					 bool every_event, uint32_t sort_event,
					 const struct report_keep *k,
					 size_t *nrec);

#endif
