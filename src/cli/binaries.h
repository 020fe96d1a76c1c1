/*
 * The -b binaries of a run (see binaries.c).
 */
#ifndef CGA_BINARIES_H
#define CGA_BINARIES_H

#include "base/names.h"
#include "options.h"
#include "profile/profile.h"
#include "symtab/symtab.h"

/*
 * Load every -b binary into st[0 .. o->nbinaries), their names interned
 * in names. Returns 0, or -1 after reporting; what was loaded is still
 * for close_binaries().
 */
int open_binaries(const struct options *o, struct names *names,
		  struct symtab **st);
/* Load the binary at path into *st, as -b does: 0, or -1 after
 * reporting (*st NULL). */
int open_binary(const struct options *o, struct names *names,
		const char *path, struct symtab **st);
/*
 * The function whose object is the binary a profile records for its
 * code: of those with an object (and a name what matches, as a glob,
 * unless NULL), the one of most self cost of the first event. NO_ID:
 * none.
 */
/* How many times open_binary() opened a file (from the run's main
 * thread only): CGANALYZE_SHOW_OPENS says it after loading, for the
 * test that the report and --disasm open their binary once. */
unsigned binaries_opened(void);

/* Whether the report of q would have a Disassembly of the object the
 * profile records (analyze.c's recorded_binary()): its path, or NULL. */
const char *recorded_object_path(const struct profile *q, const char *what);
uint32_t recorded_object_func(const struct profile *p, const char *what);
/* Release the first n of st (NULL entries are skipped) and st itself. */
void close_binaries(struct symtab **st, int n);

#endif
