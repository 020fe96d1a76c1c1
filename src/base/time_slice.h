/*
 * --time: the stretches of a recording whose samples are kept, as perf
 * report's --time takes them, and one form of our own. A spec is one of
 *
 *   START,END [START,END ...]   seconds.fraction (up to 9 digits), the
 *                       recorded timestamps (perf script's time
 *                       column, perf report --time's form); a part
 *                       written +SECONDS is seconds after the
 *                       recording's first sample instead. Either end
 *                       may be empty: from the first or to the last
 *                       sample. Several ranges are separated by spaces.
 *   A%-B%[,C%-D%...]    percentages of the time from the first sample
 *                       to the last;
 *   P%/N[,Q%/M...]      the Nth slice of P% of that time.
 *
 * A plain number is always a timestamp and +N always relative, so no
 * spec means two things. Ends are inclusive, as perf's; percentage
 * ranges end one nanosecond before their end (except at 100%), as
 * perf's do since 2019, so 0%-50% and 50%-100% share no sample.
 */
#ifndef CGA_TIME_SLICE_H
#define CGA_TIME_SLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TIME_SLICES_MAX 16

enum time_end_kind {
	TIME_OPEN,		/* no bound: the first or the last sample */
	TIME_ABS,		/* a recorded timestamp, in ns */
	TIME_REL,		/* ns after the first sample */
	TIME_PCT,		/* a fraction (0 to 1) of first..last */
};

struct time_end {
	enum time_end_kind kind;
	uint64_t ns;		/* TIME_ABS, TIME_REL */
	double frac;		/* TIME_PCT */
};

struct time_spec {
	const char *text;	/* as given */
	struct time_end start[TIME_SLICES_MAX], end[TIME_SLICES_MAX];
	size_t n;
};

/* A stretch of recorded time, both ends included (ns). */
struct time_range {
	uint64_t start, end;
};

/* Parse arg into *ts; on a bad form, -1 and a message (saying what was
 * expected) in why. */
int time_spec_parse(const char *arg, struct time_spec *ts, char *why,
		    size_t whylen);

/* The spec's ranges in recorded time, for a recording whose samples
 * run from first to last (ns); out holds ts->n. */
void time_spec_resolve(const struct time_spec *ts, uint64_t first,
		       uint64_t last, struct time_range *out);

/* t is in one of the n ranges */
bool time_ranges_have(const struct time_range *r, size_t n, uint64_t t);

#endif
