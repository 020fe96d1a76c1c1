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
 * functions) are then put in order among themselves with what else
 * the order looks at (struct tie_key), looked up once per entry.
 */
struct rank_key {
	double total;
	uint32_t id;		/* node, or cycle with CYCLE_BIT */
};

#define CYCLE_BIT 0x80000000u

static struct cg_entry entry_of(uint32_t id)
{
	return (struct cg_entry){ (id & CYCLE_BIT) != 0, id & ~CYCLE_BIT };
}

static int cmp_totals(const void *x, const void *y)
{
	const struct rank_key *a = x, *b = y;

	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* An entry of a run of equal totals, with the rest of the order's keys. */
struct tie_key {
	double self;
	uint64_t calls;
	const char *name;	/* a function's; NULL for a cycle */
	uint32_t id;		/* as rank_key's */
};

static int cmp_ties(const void *x, const void *y)
{
	const struct tie_key *a = x, *b = y;
	bool ca = a->id & CYCLE_BIT, cb = b->id & CYCLE_BIT;

	if (ca != cb)
		return ca ? -1 : 1;
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (!ca) {
		int r = strcmp(a->name, b->name);

		if (r)
			return r;
	}
	return (a->id & ~CYCLE_BIT) < (b->id & ~CYCLE_BIT) ? -1
		: (a->id & ~CYCLE_BIT) > (b->id & ~CYCLE_BIT);
}

/* keys[0..n), all of one total, in the order's other keys. */
static void order_ties(const struct cg *cg, struct rank_key *keys, size_t n,
		       struct tie_key **buf, size_t *alloc)
{
	if (n > *alloc) {
		*alloc = n * 2;
		*buf = xreallocarray(*buf, *alloc, sizeof(**buf));
	}
	for (size_t i = 0; i < n; i++) {
		struct cg_entry e = entry_of(keys[i].id);

		(*buf)[i] = (struct tie_key){
			.self = entry_self(cg, &e), .calls = entry_calls(cg, &e),
			.name = e.is_cycle ? NULL
				: profile_str(cg->p, cg->p->funcs[e.id].name),
			.id = keys[i].id,
		};
	}
	qsort(*buf, n, sizeof(**buf), cmp_ties);
	for (size_t i = 0; i < n; i++)
		keys[i].id = (*buf)[i].id;
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

	if (node->calls || node->self_calls || node->cycle != NO_ID ||
	    cg->out_start[n + 1] > cg->out_start[n])
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
	struct tie_key *ties = NULL;
	size_t ties_alloc = 0;

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
	qsort(keys, n, sizeof(*keys), cmp_totals);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && keys[j].total == keys[i].total; j++)
			;
		if (j - i > 1)
			order_ties(cg, keys + i, j - i, &ties, &ties_alloc);
	}
	free(ties);
	for (size_t i = 0; i < n; i++)
		cg->order[i] = entry_of(keys[i].id);
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
