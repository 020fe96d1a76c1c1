/*
 * The warning for files added up whose events differ (see
 * events_differ.h).
 */
#include "events_differ.h"

#include <stdio.h>

#include "base/diag.h"

/* "PREFIX'A', 'B', 'C' and N more": the events e in [first, end) for
 * which listed[e] == want, appended to buf at *len; false if none. */
static bool event_list(const struct profile *p, const bool *listed,
		       bool want, size_t first, size_t end, const char *prefix,
		       char *buf, size_t size, size_t *len)
{
	size_t n = 0;

	for (size_t e = first; e < end; e++) {
		if (listed[e] != want)
			continue;
		if (n++ < 3 && *len < size)
			*len += (size_t)snprintf(buf + *len, size - *len,
						 "%s'%s'", n > 1 ? ", " : prefix,
						 profile_str(p, p->events[e].name));
	}
	if (n > 3 && *len < size)
		*len += (size_t)snprintf(buf + *len, size - *len,
					 " and %zu more", n - 3);
	return n > 0;
}

bool events_differ_warn(const struct profile *p, const bool *listed,
			size_t nbefore, const char *path, uint64_t line)
{
	char what[512];
	size_t len = 0;
	bool lacks, adds;

	if (!nbefore || !p->ninputs)
		return false;
	lacks = event_list(p, listed, false, 0, nbefore, "it has no ", what,
			   sizeof(what), &len);
	adds = event_list(p, listed, true, nbefore, p->nevents,
			  lacks ? "; only it has " : "only it has ", what,
			  sizeof(what), &len);
	if (!lacks && !adds)
		return false;
	if (line)
		warning_at(path, line, "its events are not those of '%s' "
			   "read before it (%s): the costs are added up, and "
			   "an event's totals are those of the files that "
			   "record it", profile_str(p, p->inputs[0].path),
			   what);
	else
		warning("%s: its events are not those of '%s' read before "
			"it (%s): the costs are added up, and an event's "
			"totals are those of the files that record it", path,
			profile_str(p, p->inputs[0].path), what);
	return true;
}
