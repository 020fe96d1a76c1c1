/*
 * Files added up whose events differ (a Callgrind profile with cache
 * simulation and one without, an IgProf time profile and a memory one):
 * an event one of them lacks has the totals of only the files that
 * record it, which no listing shows. The readers say so once a file.
 */
#ifndef CGA_EVENTS_DIFFER_H
#define CGA_EVENTS_DIFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * Warn at path:line (line 0: none) when the file's events, listed[e] for
 * each of p's events, differ from the nbefore events p had from the
 * files read before it (0: it is the first, nothing to say). Names up to
 * three it lacks and three only it has, with how many more, and the
 * first file read. Returns whether it warned.
 */
bool events_differ_warn(const struct profile *p, const bool *listed,
			size_t nbefore, const char *path, uint64_t line);

#endif
