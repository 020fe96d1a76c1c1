/*
 * A misspelt long option is named with what it most likely was: the
 * options it is an ambiguous beginning of (getopt_long takes a unique
 * beginning as the option, and says "unknown" for a shared one), or the
 * one nearest by edits (a letter left out, added, changed, or two
 * swapped: Damerau-Levenshtein's restricted distance).
 */
#include "option_guess.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define NAME_MAX_LEN 40

/* Edits from a[0, la) to b[0, lb), both at most NAME_MAX_LEN. */
static unsigned distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *option_guess(const struct option *opts, const char *arg,
			 char *buf, size_t size)
{
	const char *name, *best = NULL;
	size_t len, used = 0, nprefix = 0;
	unsigned best_d = 3;
	bool tie = false;

	if (!size)
		return NULL;
	buf[0] = '\0';
	if (strncmp(arg, "--", 2))
		return NULL;
	name = arg + 2;
	len = strcspn(name, "=");
	if (!len || len > NAME_MAX_LEN)
		return NULL;
	for (const struct option *o = opts; o->name; o++)
		if (strlen(o->name) > len && !strncmp(o->name, name, len)) {
			int n = used + 1 >= size ? 0 :
				snprintf(buf + used, size - used, "%s--%s",
					 nprefix ? ", " : "is ambiguous: ",
					 o->name);

			nprefix++;
			/* cut at the buffer's end: enough to see */
			used += n < 0 ? 0 : (size_t)n;
			if (used >= size)
				used = size - 1;
		}
	if (nprefix > 1)
		return buf;
	buf[0] = '\0';
	for (const struct option *o = opts; o->name; o++) {
		size_t lo = strlen(o->name);
		unsigned d;

		if (lo > NAME_MAX_LEN)
			continue;
		d = distance(name, len, o->name, lo);
		if (d < best_d) {
			best = o->name, best_d = d, tie = false;
		} else if (d == best_d && best && strcmp(best, o->name)) {
			tie = true;
		}
	}
	/* two edits of a short word reach too much */
	if (!best || tie || best_d * 3 > len)
		return NULL;
	snprintf(buf, size, "did you mean '--%s'?", best);
	return buf;
}
