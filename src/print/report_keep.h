/*
 * The functions the HTML report embeds (report_keep.c). A big
 * program's report of every function is a page of 100 MB and more,
 * too big to open quickly or to attach to a bug report; at the text
 * listings' threshold (--threshold, 0.5% by default) the page holds the
 * functions that reach it and their callers and callees, and says how
 * many it leaves out. The report's every document that names functions
 * (the flat profile's columns, the calls, the flame graph's trees, the
 * code views' positions) asks this one choice.
 */
#ifndef CGA_REPORT_KEEP_H
#define CGA_REPORT_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flame_data.h"
#include "print.h"

struct report_keep {
	/* per profile function, its id in the page, or NO_ID: left out;
	 * NULL when the page has every function (ids unchanged) */
	uint32_t *page;
	uint32_t *func;		/* per page id, the profile function */
	size_t nkept;		/* the page's functions */
	size_t nfuncs;		/* the profile's */
	double threshold;	/* percent of the total, as o->threshold */
};

/*
 * Choose the report's functions: with o->threshold 0 (--threshold=0,
 * gmon.out, a symspec) or no cost at all, every one; otherwise each function whose self
 * or inclusive cost, of some event, is o->threshold percent of that
 * event's total or more (the flat profile's rule and the call graph's),
 * with every function that calls it or that it calls, and the function
 * the report opens on (start_function() of the sort event's inclusive
 * costs), and the function at the root of each recorded stack. Page
 * ids keep the profile's order.
 */
void report_keep_init(struct report_keep *k, const struct cg *cg,
		      const struct print_opts *o);
void report_keep_release(struct report_keep *k);

/* When the page leaves functions out, its flame graph merges the
 * frames narrower than a pixel of a view this many pixels wide into
 * one "N more" frame under their parent. */
#define REPORT_FLAME_PIXELS 1200

/*
 * Where k leaves functions out: which nodes of fl the page has (their
 * new index in at[], NO_ID: merged), a node being merged when it is
 * not a root and narrower than a pixel of a full-width view (fl->total
 * / REPORT_FLAME_PIXELS), of a function k leaves out, or under a merged
 * one. Each parent's merged children are counted in more_n[parent's new
 * index + 1] and add up to more_value[the same] (index 0: the roots'),
 * one "N more" frame each in the page. at, more_n and more_value have
 * fl->nnodes + 1 entries, more_n and more_value zeroed. Returns the
 * nodes kept.
 */
size_t report_keep_nodes(const struct report_keep *k, const struct flame *fl,
			 uint32_t *at, uint32_t *more_n, double *more_value);

/*
 * The merged nodes of a cut tree as the page keeps them for its
 * figures (not drawn: report_keep_nodes()' "N more" frames are): each
 * merged node of a function the page has keeps that function, and the
 * functions it leaves out are one unit, "other", whose runs are one
 * node (a path f > g > h > f2 with g and h left out is f > other >
 * f2), siblings of one unit one node. A page function's self and
 * inclusive cost over the page's nodes and these is then its cost in
 * the whole tree, under any choice of stacks (threads, time) and any
 * transform of the page's functions, which cannot tell g from h.
 * Page node numbers: the kept nodes' (at[]), then nkept + a hidden
 * node's index, parents before their children.
 */
struct report_hidden {
	uint32_t *node;		/* per node of fl, its page node number */
	uint32_t *first;	/* per hidden node, a node of fl it holds */
	bool *other;		/* ... whether its unit is "other" */
	uint32_t *parent;	/* ... its parent's page number, NO_ID: root */
	double *value;		/* ... the cost of the stacks through it */
	size_t n;
};

/* At most this many hidden nodes a tree: beyond, the page keeps
 * merged paths' cost in the frame they were merged under, and says so
 * (a page stays a few MB: issue 33's 30 MB for a big program's) */
#define REPORT_HIDDEN_MAX 300000

/*
 * Number fl's merged nodes (at[i] NO_ID, of report_keep_nodes(), which
 * kept nkept) as hidden nodes, at most max. Returns 0, or -1 when more
 * would be needed (h then holds nothing). report_hidden_release()
 * frees what h holds either way.
 */
int report_keep_hidden(const struct report_keep *k, const struct flame *fl,
		       const uint32_t *at, size_t nkept, size_t max,
		       struct report_hidden *h);
void report_hidden_release(struct report_hidden *h);

/* Whether the page has every function. */
static inline bool report_keeps_all(const struct report_keep *k)
{
	return !k->page;
}

/* Profile function f's page id, or NO_ID when the page leaves it out. */
static inline uint32_t report_page_id(const struct report_keep *k,
				      uint32_t f)
{
	return k->page ? k->page[f] : f;
}

/* Page id i's profile function. */
static inline uint32_t report_func(const struct report_keep *k, size_t i)
{
	return k->page ? k->func[i] : (uint32_t)i;
}

#endif
