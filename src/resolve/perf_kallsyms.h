/*
 * The kernel's symbols of a perf recording: --kallsyms FILE, else the
 * running kernel's when it made the recording (perf's cached copy of
 * its kallsyms, read before /proc/kallsyms where it will do), else the
 * recorded kernel's in perf's build-id cache. Each is checked to be of
 * the recording's boot by the symbol the recording placed (a kernel
 * placed at random, KASLR, is elsewhere in each boot), and passed over
 * with a warning when it is not.
 */
#ifndef CGA_PERF_KALLSYMS_H
#define CGA_PERF_KALLSYMS_H

#include "kallsyms.h"
#include "profile/perf_data.h"
#include "profile/profile.h"
#include "resolve.h"

/*
 * Into *k (loaded through o->preload when it loaded them): 1 loaded; 0
 * none (said when the kernel's code is left one function for a reason
 * the user can mend); -1 after reporting when --kallsyms's file cannot
 * be read.
 */
int perf_kallsyms_load(const struct profile *p, const struct perf_data *d,
		       const struct resolve_opts *o, struct kallsyms *k);

#endif
