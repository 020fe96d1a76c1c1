/*
 * The functions the HTML report embeds (report_keep.h).
 */
#include "report_keep.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "start_function.h"

/* The function the report opens on, as html_data.c chooses it: of the
 * sort event's inclusive costs. */
static uint32_t start_of(const struct cg *cg, const struct print_opts *o,
			 uint64_t *row)
{
	const struct profile *p = cg->p;
	uint32_t e = o->sort_event, start;
	double *incl = xcalloc(p->nfuncs + 1, sizeof(*incl));

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		if (cg->child) {
			cg_inclusive_row(cg, f, row);
			incl[f] = (double)row[e];
		} else {
			incl[f] = cg_node_self(cg, f, e) + cg_node_child(cg, f, e);
		}
	}
	start = start_function(p, incl, 1);
	free(incl);
	return start;
}

/* Whether some event the rule looks at has a cost: the flat profile
 * leaves nothing out of a total of 0, nor does the page. */
static bool any_total(const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;

	if (!cg->child)
		return p->totals[o->sort_event] != 0;
	for (uint32_t e = 0; e < p->nevents; e++)
		if (p->totals[e])
			return true;
	return false;
}

/* Whether f reaches the threshold in some event, self or inclusive. An
 * estimate (gmon.out) has costs of the sort event only. */
static bool is_hot(const struct cg *cg, const struct print_opts *o,
		   uint32_t f, uint64_t *row)
{
	const struct profile *p = cg->p;
	double frac = o->threshold / 100.0;

	if (!cg->child) {
		uint32_t e = o->sort_event;
		double bar = (double)p->totals[e] * frac;
		double self = cg_node_self(cg, f, e);

		return p->totals[e] &&
		       (self >= bar || self + cg_node_child(cg, f, e) >= bar);
	}
	cg_inclusive_row(cg, f, row);
	for (uint32_t e = 0; e < p->nevents; e++) {
		double bar = (double)p->totals[e] * frac;

		if (!p->totals[e])
			continue;
		if ((double)profile_self(p, f)[e] >= bar || (double)row[e] >= bar)
			return true;
	}
	return false;
}

void report_keep_init(struct report_keep *k, const struct cg *cg,
		      const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t start;
	uint64_t *row;
	bool *hot, *keep;

	k->page = NULL;
	k->func = NULL;
	k->nfuncs = p->nfuncs;
	k->nkept = p->nfuncs;
	k->threshold = o->threshold;
	if (!(o->threshold > 0) || !any_total(cg, o))
		return;
	row = xcalloc(p->stride + 1, sizeof(*row));
	hot = xcalloc(p->nfuncs + 1, sizeof(*hot));
	keep = xcalloc(p->nfuncs + 1, sizeof(*keep));
	for (uint32_t f = 0; f < p->nfuncs; f++)
		keep[f] = hot[f] = is_hot(cg, o, f, row);
	for (uint32_t c = 0; c < p->ncalls; c++) {
		const struct pcall *pc = &p->calls[c];

		if (hot[pc->caller])
			keep[pc->callee] = true;
		if (hot[pc->callee])
			keep[pc->caller] = true;
	}
	start = start_of(cg, o, row);
	if (start != NO_ID)
		keep[start] = true;
	/* the roots of recorded stacks, which report_keep_nodes() never
	 * merges: every sample then has a node of the page's tree to be
	 * summed into when the page chooses threads or time (a thread's
	 * stacks can all be narrow, html_samples.c) */
	for (size_t s = 0; s < p->nstacks; s++)
		if (p->stacks[s].caller == NO_ID)
			keep[p->stacks[s].func] = true;
	k->nkept = 0;
	for (uint32_t f = 0; f < p->nfuncs; f++)
		k->nkept += keep[f];
	if (k->nkept == p->nfuncs)
		goto out;
	k->page = xcalloc(p->nfuncs + 1, sizeof(*k->page));
	k->func = xcalloc(k->nkept + 1, sizeof(*k->func));
	for (uint32_t f = 0, i = 0; f < p->nfuncs; f++) {
		k->page[f] = keep[f] ? i : NO_ID;
		if (keep[f])
			k->func[i++] = f;
	}
out:
	free(row);
	free(hot);
	free(keep);
}

size_t report_keep_nodes(const struct report_keep *k, const struct flame *fl,
			 uint32_t *at, uint32_t *more_n, double *more_value)
{
	double narrow = fl->total / REPORT_FLAME_PIXELS;
	size_t kept = 0;

	for (size_t i = 0; i < fl->nnodes; i++) {
		const struct flame_node *n = &fl->nodes[i];
		uint32_t up = n->parent == NO_ID ? NO_ID : at[n->parent];

		at[i] = NO_ID;
		if (n->parent != NO_ID && up == NO_ID)
			continue;	/* under a merged node */
		if ((n->total < narrow && n->parent != NO_ID) ||
		    (n->func != NO_ID && report_page_id(k, n->func) == NO_ID)) {
			size_t slot = up == NO_ID ? 0 : (size_t)up + 1;

			more_n[slot]++;
			more_value[slot] += n->total;
			continue;
		}
		at[i] = (uint32_t)kept++;
	}
	return kept;
}

/* A hidden node's unit as 32 bits of a key: a page function, "other",
 * or a cycle (high bit) */
#define UNIT_OTHER 0x7fffffffu
static uint32_t unit_key(const struct report_keep *k,
			 const struct flame_node *n)
{
	if (n->func == NO_ID)
		return 0x80000000u | n->cycle;
	return report_page_id(k, n->func) == NO_ID ? UNIT_OTHER
		: report_page_id(k, n->func);
}

int report_keep_hidden(const struct report_keep *k, const struct flame *fl,
		       const uint32_t *at, size_t nkept, size_t max,
		       struct report_hidden *h)
{
	struct u64map by_key;
	size_t alloc = 0;
	int ret = -1;

	memset(h, 0, sizeof(*h));
	h->node = xcalloc(fl->nnodes + 1, sizeof(*h->node));
	u64map_init(&by_key);
	for (size_t i = 0; i < fl->nnodes; i++) {
		const struct flame_node *n = &fl->nodes[i];
		uint32_t up = n->parent == NO_ID ? NO_ID : h->node[n->parent];
		uint32_t u = unit_key(k, n), x;
		uint64_t key;
		bool added;

		if (at[i] != NO_ID) {
			h->node[i] = at[i];
			continue;
		}
		/* a run of functions left out is one node: its cost is
		 * the first's, which holds the rest */
		if (u == UNIT_OTHER && up != NO_ID && up >= nkept &&
		    h->other[up - nkept]) {
			h->node[i] = up;
			continue;
		}
		key = (uint64_t)(up == NO_ID ? 0 : up + 1) << 32 | u;
		x = u64map_get_or_put(&by_key, key, (uint32_t)h->n, &added);
		if (added) {
			if (h->n == max)
				goto out;
			if (h->n == alloc) {
				ARRAY_GROW(h->first, h->n + 1, alloc);
				h->other = xreallocarray(h->other, alloc,
							 sizeof(*h->other));
				h->parent = xreallocarray(h->parent, alloc,
							  sizeof(*h->parent));
				h->value = xreallocarray(h->value, alloc,
							 sizeof(*h->value));
			}
			h->first[x] = (uint32_t)i;
			h->other[x] = u == UNIT_OTHER;
			h->parent[x] = up;
			h->value[x] = 0;
			h->n++;
		}
		/* siblings of one unit: no one holds another (their page
		 * parent is one node, above each), so their costs add */
		h->value[x] += n->total;
		h->node[i] = (uint32_t)(nkept + x);
	}
	ret = 0;
out:
	u64map_release(&by_key);
	if (ret < 0) {
		report_hidden_release(h);
		memset(h, 0, sizeof(*h));
	}
	return ret;
}

void report_hidden_release(struct report_hidden *h)
{
	free(h->node);
	free(h->first);
	free(h->other);
	free(h->parent);
	free(h->value);
}

void report_keep_release(struct report_keep *k)
{
	free(k->page);
	free(k->func);
	k->page = NULL;
	k->func = NULL;
}
