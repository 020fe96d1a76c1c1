/*
 * Listing order: every function and every cycle as a whole, highest
 * total (self + child) first, as gprof's call graph orders them; ties
 * are broken fully so the order never depends on qsort.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "cg.h"

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

/* An entry with what the order looks at, computed once: a comparison
 * then reads one array, not the node, cycle and cost tables. */
struct rank_key {
	double total, self;
	uint64_t calls;
	struct cg_entry e;
	const char *name;	/* a function's; NULL for a cycle */
};

static int cmp_keys(const void *x, const void *y)
{
	const struct rank_key *a = x, *b = y;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->e.is_cycle != b->e.is_cycle)
		return a->e.is_cycle ? -1 : 1;
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (!a->e.is_cycle) {
		int r = strcmp(a->name, b->name);

		if (r)
			return r;
	}
	return a->e.id < b->e.id ? -1 : a->e.id > b->e.id;
}

static struct rank_key key_of(const struct cg *cg, struct cg_entry e)
{
	struct rank_key k = {
		.total = entry_total(cg, &e), .self = entry_self(cg, &e),
		.calls = entry_calls(cg, &e), .e = e,
		.name = e.is_cycle ? NULL
			: profile_str(cg->p, cg->p->funcs[e.id].name),
	};

	return k;
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
	struct rank_key *keys = xcalloc(cg->nnodes + cg->ncycles + 1,
					sizeof(*keys));

	free(cg->order);
	cg->order = xcalloc(cg->nnodes + cg->ncycles + 1, sizeof(*cg->order));
	for (uint32_t c = 0; c < cg->ncycles; c++)
		keys[n++] = key_of(cg, (struct cg_entry){ true, c });
	for (uint32_t v = 0; v < cg->nnodes; v++) {
		cg->nodes[v].index = 0;
		if (node_listed(cg, v))
			keys[n++] = key_of(cg, (struct cg_entry){ false, v });
	}
	qsort(keys, n, sizeof(*keys), cmp_keys);
	for (size_t i = 0; i < n; i++)
		cg->order[i] = keys[i].e;
	free(keys);
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
