/*
 * The report's threads and timeline ("cga-samples"): perf.data's
 * threads as tracks with their totals, and the samples, each with its
 * node of the flame graph's tree, its track, its event and period and
 * its time, so that the page can sum any set of tracks and any stretch
 * of time into the tree every view is drawn from.
 */
#ifndef CGA_HTML_SAMPLES_H
#define CGA_HTML_SAMPLES_H

#include <stdio.h>

#include "cg/cg.h"
#include "print.h"
#include "report_keep.h"

/*
 * The page's time is cut into this many buckets of equal width (whole
 * nanoseconds): a range the page selects is of whole buckets, so the
 * --time spec it shows keeps exactly the samples it sums.
 */
#define HTML_TIME_BUCKETS 2048

/* The document, or {"tracks": null, "why": ...} where there is none. */
void html_samples(FILE *out, const struct cg *cg, const struct print_opts *o,
		  const struct report_keep *k);

#endif
