/*
 * The arcs into chosen nodes (cg.h): a call graph's lists of callers,
 * built by the listing that prints them for the entries it prints. The
 * graph keeps only its lists of callees, which the analysis walks; a
 * big program's 2.6 million arcs would otherwise hold 10 MB of caller
 * lists through the analysis' peak for the few hundred entries a
 * default listing shows.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "cg.h"

static bool chosen_bit(const uint64_t *chosen, uint32_t n)
{
	return chosen[n / 64] >> (n % 64) & 1;
}

/* n's place among the chosen nodes, or NO_ID. */
static uint32_t slot_of(const struct cg_callers *cs, uint32_t n)
{
	size_t lo = 0, hi = cs->nchosen;

	if (!cs->node)
		return n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cs->node[mid] < n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cs->nchosen && cs->node[lo] == n ? (uint32_t)lo : NO_ID;
}

void cg_callers_build(struct cg_callers *cs, const struct cg *cg,
		      const uint64_t *chosen)
{
	const struct profile *p = cg->p;
	size_t k = 0, total;

	memset(cs, 0, sizeof(*cs));
	if (chosen) {
		for (uint32_t n = 0; n < cg->nnodes; n++)
			k += chosen_bit(chosen, n);
		cs->node = xreallocarray(NULL, k + 1, sizeof(*cs->node));
		k = 0;
		for (uint32_t n = 0; n < cg->nnodes; n++)
			if (chosen_bit(chosen, n))
				cs->node[k++] = n;
	} else {
		k = cg->nnodes;
	}
	cs->nchosen = k;
	/* counted at start[slot + 2], then summed up so that start[slot +
	 * 1] is where the slot's arcs begin; filling moves it to their end,
	 * which is where the next slot's begin */
	cs->start = xcalloc(k + 2, sizeof(*cs->start));
	for (size_t c = 0; c < p->ncalls; c++) {
		uint32_t callee = p->calls[c].callee;

		if (cg_is_arc(cg, c) && (!chosen || chosen_bit(chosen, callee)))
			cs->start[slot_of(cs, callee) + 2]++;
	}
	for (size_t i = 2; i < k + 2; i++)
		cs->start[i] += cs->start[i - 1];
	total = cs->start[k + 1];
	cs->arc = xreallocarray(NULL, total + 1, sizeof(*cs->arc));
	for (size_t c = 0; c < p->ncalls; c++) {
		uint32_t callee = p->calls[c].callee;

		if (cg_is_arc(cg, c) && (!chosen || chosen_bit(chosen, callee)))
			cs->arc[cs->start[slot_of(cs, callee) + 1]++] =
				(uint32_t)c;
	}
}

size_t cg_callers_of(const struct cg_callers *cs, uint32_t n,
		     const uint32_t **arcs)
{
	uint32_t s = slot_of(cs, n);

	if (s == NO_ID || s >= cs->nchosen)
		BUG("callers of node %u, which was not chosen", n);
	*arcs = cs->arc + cs->start[s];
	return cs->start[s + 1] - cs->start[s];
}

void cg_callers_release(struct cg_callers *cs)
{
	free(cs->node);
	free(cs->start);
	free(cs->arc);
	memset(cs, 0, sizeof(*cs));
}
