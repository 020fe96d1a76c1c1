/*
 * The call graph entries that -q/-Q select (cg.h): a print flag handed
 * down from callers to callees, as gprof's propagation of its print
 * flags does it, in topological order, callers first.
 */
#include <stdlib.h>

#include "base/xalloc.h"
#include "cg.h"

static int by_topo_down(const void *a, const void *b, void *arg)
{
	const struct cg *cg = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t tx = cg->topo[x], ty = cg->topo[y];

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Is some caller of n from outside its cycle (skip: NO_ID) listed? */
static bool caller_listed(const struct cg *cg, const struct cg_callers *cs,
			  uint32_t n, uint32_t skip, const bool *listed)
{
	const uint32_t *in;
	size_t k = cg_callers_of(cs, n, &in);

	for (size_t i = 0; i < k; i++) {
		uint32_t caller = cg_arc_caller(cg, in[i]);

		if (skip != NO_ID && cg->nodes[caller].cycle == skip)
			continue;
		if (listed[caller])
			return true;
	}
	return false;
}

static bool decide(bool inherited, bool have_only, bool named_only,
		   bool named_not)
{
	if (named_only)
		return true;
	if (inherited)
		return !named_not;
	return !have_only && !named_not;
}

void cg_listed(const struct cg *cg, const bool *only, const bool *not,
	       bool *node_out, bool *cycle_out)
{
	uint32_t *order = xreallocarray(NULL, cg->nnodes + 1, sizeof(*order));
	/* a -q whose names match nothing still means "only these" */
	bool have_only = only != NULL;
	struct cg_callers cs;

	cg_callers_build(&cs, cg, NULL);

	for (size_t n = 0; n < cg->nnodes; n++) {
		order[n] = (uint32_t)n;
		node_out[n] = false;
	}
	for (size_t c = 0; c < cg->ncycles; c++)
		cycle_out[c] = false;
	qsort_r(order, cg->nnodes, sizeof(*order), by_topo_down, (void *)cg);
	for (size_t i = 0; i < cg->nnodes; i++) {
		uint32_t n = order[i], cyc = cg->nodes[n].cycle;
		bool inherited = false;

		if (cyc == NO_ID) {
			inherited = caller_listed(cg, &cs, n, NO_ID, node_out);
			node_out[n] = decide(inherited, have_only,
					     only && only[n], not && not[n]);
			continue;
		}
		/* a cycle's members share a number, so they come together:
		 * the first one decides for all, from the calls into any */
		if (i && cg->nodes[order[i - 1]].cycle == cyc)
			continue;
		for (uint32_t m = cg->cycles[cyc].first_member; m != NO_ID;
		     m = cg->nodes[m].next_member)
			inherited = inherited || caller_listed(cg, &cs, m, cyc, node_out);
		/* no -q/-Q names a cycle: listed where its callers are */
		cycle_out[cyc] = inherited ||
				 (!have_only && !cg->cycles[cyc].calls);
		for (uint32_t m = cg->cycles[cyc].first_member; m != NO_ID;
		     m = cg->nodes[m].next_member)
			node_out[m] = decide(inherited, have_only,
					     only && only[m], not && not[m]);
	}
	free(order);
	cg_callers_release(&cs);
}
