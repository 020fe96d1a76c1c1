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
