/*
 * Listing order: every function and every cycle as a whole, highest
 * total (self + child) first, as gprof's call graph orders them; ties
 * are broken fully so the order never depends on qsort.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
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

/*
 * An entry with its total, the first thing the order looks at, computed
 * once: 16 bytes, for a big program's 700,000 entries and the sort's
 * copy of them. Entries of equal total (many, in a program of similar
 * functions) are told apart by what the comparison looks up then.
 */
struct rank_key {
	double total;
	uint32_t id;		/* node, or cycle with CYCLE_BIT */
};

#define CYCLE_BIT 0x80000000u

static struct cg_entry entry_of(const struct rank_key *k)
{
	return (struct cg_entry){ (k->id & CYCLE_BIT) != 0, k->id & ~CYCLE_BIT };
}

static int cmp_keys(const void *x, const void *y, void *arg)
{
	const struct rank_key *ka = x, *kb = y;
	const struct cg *cg = arg;
	struct cg_entry a, b;
	double sa, sb;
	uint64_t ca, cb;

	if (ka->total != kb->total)
		return ka->total > kb->total ? -1 : 1;
	a = entry_of(ka);
	b = entry_of(kb);
	if (a.is_cycle != b.is_cycle)
		return a.is_cycle ? -1 : 1;
	sa = entry_self(cg, &a);
	sb = entry_self(cg, &b);
	if (sa != sb)
		return sa > sb ? -1 : 1;
	ca = entry_calls(cg, &a);
	cb = entry_calls(cg, &b);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (!a.is_cycle) {
		int r = strcmp(profile_str(cg->p, cg->p->funcs[a.id].name),
			       profile_str(cg->p, cg->p->funcs[b.id].name));

		if (r)
			return r;
	}
	return a.id < b.id ? -1 : a.id > b.id;
}

static struct rank_key key_of(const struct cg *cg, struct cg_entry e)
{
	struct rank_key k = {
		.total = entry_total(cg, &e),
		.id = e.id | (e.is_cycle ? CYCLE_BIT : 0),
	};

	return k;
}

static bool node_listed(const struct cg *cg, uint32_t n)
{
	const struct cg_node *node = &cg->nodes[n];
	const uint64_t *self = profile_self(cg->p, n);

	if (node->calls || node->self_calls || cg->out_start[n + 1] > cg->out_start[n] ||
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

	if (cg->nnodes >= CYCLE_BIT || cg->ncycles >= CYCLE_BIT)
		BUG("%zu functions and %zu cycles to rank", cg->nnodes,
		    cg->ncycles);
	free(cg->order);
	cg->order = xcalloc(cg->nnodes + cg->ncycles + 1, sizeof(*cg->order));
	for (uint32_t c = 0; c < cg->ncycles; c++)
		keys[n++] = key_of(cg, (struct cg_entry){ true, c });
	for (uint32_t v = 0; v < cg->nnodes; v++) {
		cg->nodes[v].index = 0;
		if (node_listed(cg, v))
			keys[n++] = key_of(cg, (struct cg_entry){ false, v });
	}
	qsort_r(keys, n, sizeof(*keys), cmp_keys, cg);
	for (size_t i = 0; i < n; i++)
		cg->order[i] = entry_of(&keys[i]);
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
