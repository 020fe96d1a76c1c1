/*
 * --time's forms (time_slice.h): parsed by hand, so that every form we
 * do not take is refused with what was expected, never half read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time_slice.h"

#define NS_PER_S 1000000000ull

/* s[0..len): SECONDS[.FRACTION], FRACTION up to 9 digits, in ns */
static bool parse_secs(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = NS_PER_S;
	size_t i = 0, digits = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (sec > (UINT64_MAX / NS_PER_S - 9) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (!digits)
		return false;
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale == 1)
				return false;	/* past nanoseconds */
			scale /= 10;
			frac += (uint64_t)(s[i] - '0') * scale;
		}
	}
	if (i != len)
		return false;
	*ns = sec * NS_PER_S + frac;
	return true;
}

/* s[0..len): a decimal number from 0 to 100 */
static bool parse_percent(const char *s, size_t len, double *frac)
{
	char buf[32];
	char *end;
	double v;

	if (!len || len >= sizeof(buf) || strspn(s, "0123456789.") < len ||
	    s[0] == '.')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	if (*end || v < 0 || v > 100)
		return false;
	*frac = v / 100;
	return true;
}

/* one end of a timestamp range: empty, SECONDS or +SECONDS */
static bool parse_end(const char *s, size_t len, struct time_end *e)
{
	e->kind = TIME_OPEN;
	if (!len)
		return true;
	e->kind = TIME_ABS;
	if (s[0] == '+') {
		e->kind = TIME_REL;
		s++;
		len--;
	}
	return parse_secs(s, len, &e->ns);
}

static int fail(char *why, size_t whylen, const char *arg, const char *what)
{
	snprintf(why, whylen, "--time: '%s' %s; the forms are START,END in "
		 "seconds (the recorded timestamps, as perf script prints "
		 "them; +SECONDS: after the first sample; either may be "
		 "empty; several ranges separated by spaces), A%%-B%% and "
		 "P%%/N (the Nth slice of P%%; several separated by commas)",
		 arg, what);
	return -1;
}

/* A%-B% or P%/N at s[0..len) */
static bool parse_pct_item(const char *s, size_t len, struct time_end *a,
			   struct time_end *b)
{
	const char *pct = memchr(s, '%', len);
	size_t rest;

	if (!pct || !parse_percent(s, (size_t)(pct - s), &a->frac))
		return false;
	a->kind = b->kind = TIME_PCT;
	rest = len - (size_t)(pct - s) - 1;
	if (rest >= 2 && pct[1] == '-' && pct[rest] == '%')
		return parse_percent(pct + 2, rest - 2, &b->frac) &&
		       a->frac <= b->frac;
	if (rest >= 2 && pct[1] == '/') {
		uint64_t n = 0;
		double size = a->frac;

		for (size_t i = 2; i <= rest; i++) {
			if (pct[i] < '0' || pct[i] > '9' || n > 1000000)
				return false;
			n = n * 10 + (uint64_t)(pct[i] - '0');
		}
		if (!n || size <= 0 || size * (double)n > 1 + 1e-12)
			return false;
		a->frac = size * (double)(n - 1);
		b->frac = size * (double)n;
		if (b->frac > 1)
			b->frac = 1;
		return true;
	}
	return false;
}

static bool both_known(const struct time_end *a, const struct time_end *b)
{
	return a->kind == b->kind && a->kind != TIME_OPEN &&
	       a->kind != TIME_PCT;
}

int time_spec_parse(const char *arg, struct time_spec *ts, char *why,
		    size_t whylen)
{
	bool pct = strchr(arg, '%') != NULL;
	const char *sep = pct ? "," : " ";
	const char *s = arg;

	ts->text = arg;
	ts->n = 0;
	while (*s) {
		size_t len;

		s += strspn(s, sep);
		if (!*s)
			break;
		len = strcspn(s, sep);
		if (ts->n == TIME_SLICES_MAX)
			return fail(why, whylen, arg, "has more than 16 ranges");
		if (pct) {
			if (!parse_pct_item(s, len, &ts->start[ts->n],
					    &ts->end[ts->n]))
				return fail(why, whylen, arg, "is not a "
					    "percentage range (A%-B% from 0 "
					    "to 100, A at most B; or P%/N, N "
					    "slices of P% fitting in 100%)");
		} else {
			const char *comma = memchr(s, ',', len);
			struct time_end *a = &ts->start[ts->n];
			struct time_end *b = &ts->end[ts->n];

			if (!comma || memchr(comma + 1, ',',
					     len - (size_t)(comma - s) - 1))
				return fail(why, whylen, arg, "wants one comma "
					    "in each range");
			if (!parse_end(s, (size_t)(comma - s), a) ||
			    !parse_end(comma + 1, len - (size_t)(comma - s) - 1,
				       b))
				return fail(why, whylen, arg, "has an end that "
					    "is not SECONDS[.FRACTION] (at "
					    "most 9 digits after the point) "
					    "or +SECONDS");
			if (both_known(a, b) && a->ns > b->ns)
				return fail(why, whylen, arg, "has a range "
					    "ending before it starts");
		}
		ts->n++;
		s += len;
	}
	if (!ts->n)
		return fail(why, whylen, arg, "names no range");
	return 0;
}

/* a + b, or UINT64_MAX past it */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* perf's: the first sample plus the fraction of the whole, rounded */
static uint64_t at_fraction(double frac, uint64_t first, uint64_t last)
{
	return first + (uint64_t)llround(frac * (double)(last - first));
}

void time_spec_resolve(const struct time_spec *ts, uint64_t first,
		       uint64_t last, struct time_range *out)
{
	for (size_t i = 0; i < ts->n; i++) {
		const struct time_end *a = &ts->start[i], *b = &ts->end[i];
		struct time_range *r = &out[i];

		r->start = a->kind == TIME_ABS ? a->ns
			   : a->kind == TIME_REL ? sat_add(first, a->ns)
			   : a->kind == TIME_PCT ? at_fraction(a->frac, first,
							       last)
			   : 0;
		r->end = b->kind == TIME_ABS ? b->ns
			 : b->kind == TIME_REL ? sat_add(first, b->ns)
			 : b->kind == TIME_PCT ? at_fraction(b->frac, first,
							     last)
			 : UINT64_MAX;
		/* a percentage range stops short of the next one's start */
		if (b->kind == TIME_PCT && b->frac < 1 && r->end > r->start)
			r->end--;
	}
}

bool time_ranges_have(const struct time_range *r, size_t n, uint64_t t)
{
	for (size_t i = 0; i < n; i++)
		if (t >= r[i].start && t <= r[i].end)
			return true;
	return false;
}
