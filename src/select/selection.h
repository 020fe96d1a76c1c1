/*
 * What gprof's symspec options select in one profile: the calls -k
 * deletes before the analysis, the functions the flat profile lists
 * (-p/-P SPEC) and the call graph's entries (-q/-Q SPEC).
 */
#ifndef CGA_SELECTION_H
#define CGA_SELECTION_H

#include <stdbool.h>

#include "cg/cg.h"
#include "symspec.h"

struct selection {
	bool *deleted;		/* per profile call; NULL: no -k */
	bool *flat;		/* per function; NULL: no -p/-P SPEC */
	bool flat_named;	/* a -p SPEC named the functions (not
				 * only -P SPEC left some out) */
	bool *graph_only, *graph_not;	/* per function: -q/-Q named it;
					 * NULL: no such option */
	bool *graph, *cycles;	/* graph entries listed, per function and
				 * per cycle; NULL: no -q/-Q SPEC */
};

/*
 * Match every spec against p (after symbol resolution, so names and
 * lines are final): the deleted calls and the flat profile's functions.
 * A spec that matches nothing is said in a warning, as a likely typo,
 * but is no error (gprof says nothing).
 */
void selection_init(struct selection *sel, struct profile *p,
		    const struct symspec_opt *specs, size_t nspecs);

/* The graph's entries, once cg's cycles are known. */
void selection_graph(struct selection *sel, const struct cg *cg);

void selection_release(struct selection *sel);

#endif
