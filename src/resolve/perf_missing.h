/*
 * A perf recording's objects whose code was sampled but for which no
 * file was found (moved away, another machine's, never copied under
 * --sysroot): said once, so that a profile of "prog+0x11f7" rows comes
 * with its reason and its fix.
 */
#ifndef CGA_PERF_MISSING_H
#define CGA_PERF_MISSING_H

#include <stdbool.h>

#include "profile/perf_data.h"
#include "profile/profile.h"
#include "resolve.h"

/*
 * Warn of the file objects of p->perf (a perf.data, gperftools or pprof
 * profile's) with samples of their own (their code, not a caller's
 * return address) that have no symbols: named[i] is false for object
 * i. sysroot is --sysroot's directory or NULL. Nothing when they hold
 * less than 1% of the samples.
 */
void perf_warn_missing(const struct profile *p, const bool *named,
		       const char *sysroot);

/*
 * The sampled objects of k->st[from..] kept for the listings of code
 * that have no DWARF, said in one warning (their base names: the paths
 * are in the notes).
 */
void perf_say_missing_dwarf(const struct perf_recorded *k, size_t from);

#endif
