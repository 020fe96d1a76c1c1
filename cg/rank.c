/*
 * Listing order: every function and every cycle as a whole, highest
 * total (self + child) first, as gprof's call graph orders them; ties
 * are broken fully so the order never depends on qsort.
 */
#include <stdlib.h>
#include <string.h>

#include "cg.h"
#include "xalloc.h"

static double entry_total(const struct cg *cg, const struct cg_entry *e)
{
	uint32_t ev = cg->sort_event;

	if (e->is_cycle)
		return cg_cycle_self(cg, e->id, ev) + cg_cycle_child(cg, e->id, ev);
	return cg_node_self(cg, e->id, ev) + cg_node_child(cg, e->id, ev);
}

static double entry_self(const struct cg *cg, const struct cg_entry *e)
{
	if (e->is_cycle)
		return cg_cycle_self(cg, e->id, cg->sort_event);
	return cg_node_self(cg, e->id, cg->sort_event);
}

static uint64_t entry_calls(const struct cg *cg, const struct cg_entry *e)
{
	if (e->is_cycle)
		return cg->cycles[e->id].calls;
	return cg->nodes[e->id].calls;
}

static int cmp_entries(const void *x, const void *y, void *arg)
{
	const struct cg *cg = arg;
	const struct cg_entry *a = x, *b = y;
	double ta = entry_total(cg, a), tb = entry_total(cg, b);
	uint64_t ca, cb;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->is_cycle != b->is_cycle)
		return a->is_cycle ? -1 : 1;
	ta = entry_self(cg, a);
	tb = entry_self(cg, b);
	if (ta != tb)
		return ta > tb ? -1 : 1;
	ca = entry_calls(cg, a);
	cb = entry_calls(cg, b);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (!a->is_cycle) {
		const struct pfunc *fa = &cg->p->funcs[a->id];
		const struct pfunc *fb = &cg->p->funcs[b->id];
		int r = strcmp(profile_str(cg->p, fa->name),
			       profile_str(cg->p, fb->name));

		if (r)
			return r;
	}
	return a->id < b->id ? -1 : a->id > b->id;
}

static bool node_listed(const struct cg *cg, uint32_t n)
{
	const struct cg_node *node = &cg->nodes[n];
	const uint64_t *self = profile_self(cg->p, n);

	if (node->calls || node->self_calls || node->first_out != NO_ID ||
	    node->cycle != NO_ID)
		return true;
	if (cg->est_self && cg->est_self[n] != 0)
		return true;
	for (size_t e = 0; e < cg->nevents; e++)
		if (self[e])
			return true;
	return false;
}

void cg_rank(struct cg *cg)
{
	size_t n = 0;
	uint32_t number = 0;

	free(cg->order);
	cg->order = xcalloc(cg->nnodes + cg->ncycles + 1, sizeof(*cg->order));
	for (uint32_t c = 0; c < cg->ncycles; c++)
		cg->order[n++] = (struct cg_entry){ true, c };
	for (uint32_t v = 0; v < cg->nnodes; v++) {
		cg->nodes[v].index = 0;
		if (node_listed(cg, v))
			cg->order[n++] = (struct cg_entry){ false, v };
	}
	qsort_r(cg->order, n, sizeof(*cg->order), cmp_entries, cg);
	cg->norder = n;
	for (size_t i = 0; i < n; i++) {
		const struct cg_entry *e = &cg->order[i];

		if (e->is_cycle) {
			cg->cycles[e->id].index = (uint32_t)i + 1;
			cg->cycles[e->id].number = ++number;
		} else {
			cg->nodes[e->id].index = (uint32_t)i + 1;
		}
	}
}
