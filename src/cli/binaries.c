/*
 * The -b binaries of a run, loaded and closed, for the analysis and the
 * --resolve command alike.
 */
#include "binaries.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/xalloc.h"

static void symtab_opts_from(const struct options *o, struct symtab_opts *so)
{
	memset(so, 0, sizeof(*so));
	so->debug_dir = o->debug_dir;
	so->demangle = true;	/* --no-demangle picks the raw names later */
}

static unsigned opened;

unsigned binaries_opened(void)
{
	return opened;
}

int open_binary(const struct options *o, struct names *names,
		const char *path, struct symtab **st)
{
	struct symtab_opts so;

	opened++;

	symtab_opts_from(o, &so);
	*st = xcalloc(1, sizeof(**st));
	if (symtab_open(*st, path, &so, names) < 0) {
		free(*st);
		*st = NULL;
		return -1;
	}
	/* objcopy --only-keep-debug's file given for the program: its
	 * symbols and lines are there, its code is not (--disasm said "0 of
	 * N bytes are in loaded segments" and no more) */
	if ((*st)->debug_only) {
		if (o->disasm) {
			error("%s is a separate debug file (its code sections "
			      "hold no bytes): --disasm needs the program; give "
			      "it with -b, and this file with --debug-dir "
			      "(DIR/.build-id/NN/N...N.debug) or beside it (as "
			      "its .gnu_debuglink names it)", path);
			symtab_release(*st);
			free(*st);
			*st = NULL;
			return -1;
		}
		note("%s is a separate debug file (its code sections hold no "
		     "bytes): its symbols are read, its code is not; give the "
		     "program with -b, and this file with --debug-dir "
		     "(DIR/.build-id/NN/N...N.debug) or beside it (as its "
		     ".gnu_debuglink names it)", path);
	}
	return 0;
}

int open_binaries(const struct options *o, struct names *names,
		  struct symtab **st)
{
	for (int b = 0; b < o->nbinaries; b++)
		if (open_binary(o, names, o->binaries[b], &st[b]) < 0)
			return -1;
	return 0;
}

void close_binaries(struct symtab **st, int n)
{
	for (int b = 0; b < n; b++) {
		if (!st[b])
			continue;
		symtab_release(st[b]);
		free(st[b]);
	}
	free(st);
}

uint32_t recorded_object_func(const struct profile *p, const char *what)
{
	uint32_t best = NO_ID;
	uint64_t best_cost = 0;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint64_t cost = profile_self(p, f)[0];

		if (p->funcs[f].object == NO_NAME)
			continue;
		if (what && fnmatch(what, profile_str(p, p->funcs[f].name), 0))
			continue;
		if (best == NO_ID || cost > best_cost) {
			best = f;
			best_cost = cost;
		}
	}
	return best;
}

/* Whether the report of q would have a Disassembly of the object the
 * profile records (analyze.c's recorded_binary()): its path, or NULL. */
const char *recorded_object_path(const struct profile *q, const char *what)
{
	uint32_t f = recorded_object_func(q, what);
	const char *path;
	struct stat sb;

	if (f == NO_ID)
		return NULL;
	path = profile_str(q, q->funcs[f].object);
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? path : NULL;
}
