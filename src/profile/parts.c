/*
 * The inputs' parts (parts.h): added as the readers end them, grouped by
 * thread and process for the listings.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "parts.h"

struct ppart *profile_add_part(struct profile *p, const struct ppart *part,
			       const uint64_t *cost, size_t ncost)
{
	struct ppart *pt;

	/* zeros at the end are not kept: a file of a thousand events and a
	 * million empty parts holds no more than its size */
	while (ncost && !cost[ncost - 1])
		ncost--;
	ARRAY_GROW(p->parts, p->nparts + 1, p->parts_alloc);
	pt = &p->parts[p->nparts++];
	*pt = *part;
	pt->ncost = (uint32_t)ncost;
	pt->cost = NULL;
	if (ncost) {
		pt->cost = arena_alloc(&p->arena, ncost * sizeof(*cost));
		memcpy(pt->cost, cost, ncost * sizeof(*cost));
	}
	return pt;
}

void part_cost_add(const struct profile *p, size_t e, uint64_t *acc,
		   uint64_t v)
{
	if (e < p->nevents && p->events[e].max)
		*acc = *acc > v ? *acc : v;
	else if (__builtin_add_overflow(*acc, v, acc))
		*acc = UINT64_MAX;	/* costs are 64-bit (Q16) */
}

size_t part_groups(const struct profile *p, bool by_thread, size_t ne,
		   struct part_group **out)
{
	struct part_group *g = NULL;
	struct u64map index;
	size_t n = 0;

	*out = NULL;
	/* (pid, tid) -> group: a damaged file may name a million threads */
	u64map_init(&index);
	for (size_t i = 0; i < p->nparts; i++) {
		const struct ppart *pt = &p->parts[i];
		uint32_t tid = by_thread ? pt->tid : 0;
		uint32_t k;

		if (!pt->selected)
			continue;
		k = u64map_get_or_put(&index, (uint64_t)pt->pid << 32 | tid,
				      (uint32_t)n, NULL);
		if (k == n) {
			if (!g)
				g = xcalloc(p->nparts, sizeof(*g));
			g[n].pid = pt->pid;
			g[n].tid = tid;
			g[n].name = pt->name;
			g[n].cost = xcalloc(ne + 1, sizeof(*g[n].cost));
			n++;
		}
		g[k].nparts++;
		for (size_t e = 0; e < ne; e++)
			part_cost_add(p, e, &g[k].cost[e], ppart_cost(pt, e));
	}
	u64map_release(&index);
	*out = g;
	return n;
}

void part_groups_free(struct part_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].cost);
	free(g);
}

bool parts_have_threads(const struct profile *p)
{
	for (size_t i = 0; i < p->nparts; i++)
		if (p->parts[i].tid)
			return true;
	return false;
}
