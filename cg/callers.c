/*
 * The arcs into chosen nodes (cg.h): a call graph's lists of callers,
 * built by the listing that prints them for the entries it prints. The
 * graph keeps only its lists of callees, which the analysis walks; a
 * big program's 2.6 million arcs would otherwise hold 13 MB of caller
 * lists through the analysis' peak for the few hundred entries a
 * default listing shows.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "cg.h"

/* n's place among the chosen nodes (the chosen before it), or NO_ID:
 * one look-up per arc, in constant time, since a big cycle's members
 * can be most of the graph's nodes. */
static uint32_t slot_of(const struct cg_callers *cs, uint32_t n)
{
	uint64_t word;

	if (!cs->chosen)
		return n;
	word = cs->chosen[n / 64];
	if (!(word >> (n % 64) & 1))
		return NO_ID;
	return cs->rank[n / 64] +
	       (uint32_t)__builtin_popcountll(word & (((uint64_t)1 << (n % 64)) - 1));
}

void cg_callers_build(struct cg_callers *cs, const struct cg *cg,
		      const uint64_t *chosen)
{
	const struct profile *p = cg->p;
	size_t k = 0, total, nwords = cg->nnodes / 64 + 1;

	memset(cs, 0, sizeof(*cs));
	if (chosen) {
		cs->chosen = xreallocarray(NULL, nwords, sizeof(*cs->chosen));
		memcpy(cs->chosen, chosen, nwords * sizeof(*cs->chosen));
		cs->rank = xreallocarray(NULL, nwords, sizeof(*cs->rank));
		for (size_t w = 0; w < nwords; w++) {
			cs->rank[w] = (uint32_t)k;
			k += (size_t)__builtin_popcountll(chosen[w]);
		}
	} else {
		k = cg->nnodes;
	}
	cs->nchosen = k;
	/* counted at start[slot + 2], then summed up so that start[slot +
	 * 1] is where the slot's arcs begin; filling moves it to their end,
	 * which is where the next slot's begin */
	cs->start = xcalloc(k + 2, sizeof(*cs->start));
	for (size_t c = 0; c < p->ncalls; c++) {
		uint32_t s = slot_of(cs, p->calls[c].callee);

		if (s != NO_ID && cg_is_arc(cg, c))
			cs->start[s + 2]++;
	}
	for (size_t i = 2; i < k + 2; i++)
		cs->start[i] += cs->start[i - 1];
	total = cs->start[k + 1];
	cs->arc = xreallocarray(NULL, total + 1, sizeof(*cs->arc));
	for (size_t c = 0; c < p->ncalls; c++) {
		uint32_t s = slot_of(cs, p->calls[c].callee);

		if (s != NO_ID && cg_is_arc(cg, c))
			cs->arc[cs->start[s + 1]++] = (uint32_t)c;
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
	free(cs->chosen);
	free(cs->rank);
	free(cs->start);
	free(cs->arc);
	memset(cs, 0, sizeof(*cs));
}
