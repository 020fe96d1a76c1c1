/*
 * --diff's calls between rows (diff_arcs.h): both sides' arcs listed
 * under their two rows, sorted, and runs of one pair of rows added up.
 */
#include "diff_arcs.h"

#include <math.h>
#include <stdlib.h>

#include "base/xalloc.h"

/* The inclusive cost of arc c of graph cg in event ev (diff_arcs.h). */
static uint64_t arc_cost(const struct cg *cg, uint32_t c, uint32_t ev)
{
	double s = 0, ch = 0;

	if (cg->p->calls_have_incl)
		return profile_call_incl_at(cg->p, c, ev);
	cg_arc_share(cg, c, ev, &s, &ch);
	return (uint64_t)llround(s + ch);
}

static int cmp_arc(const void *x, const void *y)
{
	const struct diff_arc *a = x, *b = y;

	if (a->caller != b->caller)
		return a->caller < b->caller ? -1 : 1;
	return a->callee < b->callee ? -1 : a->callee > b->callee;
}

void diff_arcs_build(struct diff_arcs *da, const struct cg *const cg[2],
		     const uint32_t ev[2], const uint32_t *const row[2],
		     size_t nrows)
{
	size_t n = 0, out = 0;
	struct diff_arc *v;

	for (int k = 0; k < 2; k++)
		n += cg[k]->narcs;
	v = xcalloc(n + 1, sizeof(*v));
	n = 0;
	for (int k = 0; k < 2; k++) {
		const struct profile *p = cg[k]->p;

		for (size_t c = 0; c < p->ncalls; c++) {
			uint32_t from, to;

			if (!cg_is_arc(cg[k], c))
				continue;
			from = row[k][cg_arc_caller(cg[k], (uint32_t)c)];
			to = row[k][cg_arc_callee(cg[k], (uint32_t)c)];
			if (from == to)
				continue;
			v[n].caller = from;
			v[n].callee = to;
			v[n].in[k] = true;
			v[n].cost[k] = arc_cost(cg[k], (uint32_t)c, ev[k]);
			v[n].calls[k] = cg_arc_count(cg[k], (uint32_t)c);
			n++;
		}
	}
	qsort(v, n, sizeof(*v), cmp_arc);
	for (size_t i = 0; i < n; i++) {
		struct diff_arc *a = out ? &v[out - 1] : NULL;

		if (!a || cmp_arc(a, &v[i])) {
			v[out++] = v[i];
			continue;
		}
		for (int k = 0; k < 2; k++) {
			const struct profile *p = cg[k]->p;

			if (!v[i].in[k])
				continue;
			a->in[k] = true;
			/* a maximum's (MEM_MAX) the larger, as the rows' */
			profile_combine(p, ev[k], &a->cost[k], v[i].cost[k]);
			a->calls[k] += v[i].calls[k];
		}
	}
	da->arcs = v;
	da->n = out;
	da->by_callee = xcalloc(out + 1, sizeof(*da->by_callee));
	da->out_start = xcalloc(nrows + 2, sizeof(*da->out_start));
	da->in_start = xcalloc(nrows + 2, sizeof(*da->in_start));
	for (size_t i = 0; i < out; i++) {
		da->out_start[v[i].caller + 1]++;
		da->in_start[v[i].callee + 1]++;
	}
	for (size_t r = 0; r < nrows; r++) {
		da->out_start[r + 1] += da->out_start[r];
		da->in_start[r + 1] += da->in_start[r];
	}
	/* by callee, a counting sort: stable, so each callee's callers stay
	 * in arcs[]'s order of callers */
	{
		size_t *next = xcalloc(nrows + 1, sizeof(*next));

		for (size_t r = 0; r < nrows; r++)
			next[r] = da->in_start[r];
		for (size_t i = 0; i < out; i++)
			da->by_callee[next[v[i].callee]++] = (uint32_t)i;
		free(next);
	}
}

void diff_arcs_release(struct diff_arcs *da)
{
	free(da->arcs);
	free(da->by_callee);
	free(da->out_start);
	free(da->in_start);
	*da = (struct diff_arcs){ 0 };
}
