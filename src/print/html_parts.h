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

/*
 * Each selected part of the whole profile reduced, as it is read, to
 * what the page writes of it (html_parts_add()), so that no part's
 * profile outlives its reading: per drawn event, the function nodes of
 * its tree (estimated from its own arcs, flame_build(); IgProf's from
 * its stacks) with their parents, and its functions' self costs shared
 * over them in whole numbers (flame_exact_self()); its functions'
 * inclusive costs (cg_inclusive_row()); its derived events' totals. All
 * in the whole profile's functions and events. Each part's entries are
 * as many as its tree's nodes and its functions: nothing is kept of a
 * function a part has not.
 */
struct html_part_node {
	uint32_t func;		/* the whole's */
	uint32_t parent;	/* the part's node of this event, or NO_ID */
};

struct html_part_share {
	uint32_t node;		/* the part's node of this event, or NO_ID
				 * (a root passed through) */
	bool moved;		/* of a function the whole lacks */
	uint64_t cost;
};

struct html_part_incl {
	uint32_t func, event;	/* the whole's */
	uint64_t cost;
};

struct html_part {
	const struct ppart *part;	/* the whole profile's */
	/* per whole event e: its nodes [node_at[e], node_at[e + 1]) and
	 * shares [share_at[e], share_at[e + 1]) of html_parts' arrays */
	size_t *node_at, *share_at;
	size_t incl_from, incl_to;
	/* per whole event, the part's total of a derived one (the part
	 * computes it); NULL when the whole has none derived */
	uint64_t *derived;
};

struct html_parts {
	struct html_part *parts;	/* in the whole's order */
	size_t nparts, parts_alloc;
	struct html_part_node *nodes;
	size_t nnodes, nodes_alloc;
	struct html_part_share *shares;
	size_t nshares, shares_alloc;
	struct html_part_incl *incl;
	size_t nincl, incl_alloc;
	/* while parts are added: the whole's functions by name */
	const struct cg *cg;
	struct u64map index;
	bool every_event;
	uint32_t sort_event;
	/* entries (html_parts_size()) past which a part's later events
	 * are not reduced (the caller leaves the parts out); 0: none */
	size_t budget;
};

/* Ready to add parts of cg's profile, for the events the page draws
 * trees of (every one, else sort_event). */
void html_parts_init(struct html_parts *hp, const struct cg *cg,
		     bool every_event, uint32_t sort_event);
/*
 * Add part pt (the whole's) as read alone: pp, finished, and pcg, its
 * graph propagated and ranked, which the caller then releases.
 */
void html_parts_add(struct html_parts *hp, const struct ppart *pt,
		    const struct profile *pp, const struct cg *pcg);
/* The entries kept, nodes, shares and inclusive costs: the budget */
static inline size_t html_parts_size(const struct html_parts *hp)
{
	return hp->nnodes + hp->nshares + hp->nincl;
}
/* No more parts: the lookup tables go. */
void html_parts_done(struct html_parts *hp);
void html_parts_release(struct html_parts *hp);

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
			 const struct html_parts *hp);
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
 * writes, cut as k cuts them; cg the page's, hp's), unsorted, samples 1; the caller frees
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
				       const struct html_parts *hp,
				       const struct html_part_axes *ax,
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
struct html_record *html_parts_inclusive(const struct html_parts *hp,
					 const struct html_part_axes *ax,
					 const struct report_keep *k,
					 size_t *nrec);

#endif
