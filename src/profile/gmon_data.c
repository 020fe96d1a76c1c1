/*
 * gmon.out's data while it is still addresses (see gmon_data.h):
 * histograms, call arcs and basic-block counts, summed as files are
 * read, with a hash table each for the arcs and the blocks.
 */
#include "gmon_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "profile.h"

struct gmon_data *gmon_new(uint8_t addr_size, bool big_endian)
{
	struct gmon_data *g = xcalloc(1, sizeof(*g));

	if (addr_size != 4 && addr_size != 8)
		BUG("gmon address size %u", addr_size);
	g->addr_size = addr_size;
	g->big_endian = big_endian;
	return g;
}

void gmon_free(struct gmon_data *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nhists; i++)
		free(g->hists[i].bins);
	free(g->hists);
	free(g->arcs);
	free(g->bbs);
	free(g->arc_table);
	free(g->bb_table);
	free(g->syms);
	free(g);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* Double a table of (index + 1) slots and put every entry back. */
static void rehash(uint32_t **table, size_t *mask, size_t n,
		   uint64_t (*hash_of)(const struct gmon_data *, size_t),
		   const struct gmon_data *g)
{
	size_t cap = *mask ? (*mask + 1) * 2 : 64;

	free(*table);
	*table = xcalloc(cap, sizeof(**table));
	*mask = cap - 1;
	for (size_t i = 0; i < n; i++) {
		size_t s = hash_of(g, i) & *mask;

		while ((*table)[s])
			s = (s + 1) & *mask;
		(*table)[s] = (uint32_t)i + 1;
	}
}

static uint64_t arc_hash(uint64_t from, uint64_t self)
{
	return hash_u64(from ^ hash_u64(self));
}

static uint64_t arc_hash_at(const struct gmon_data *g, size_t i)
{
	return arc_hash(g->arcs[i].from, g->arcs[i].self);
}

static uint64_t bb_hash_at(const struct gmon_data *g, size_t i)
{
	return hash_u64(g->bbs[i].addr);
}

void gmon_add_arc(struct gmon_data *g, uint64_t from, uint64_t self,
		  uint64_t count)
{
	size_t s;

	if ((g->narcs + 1) * 2 > g->arc_mask + 1 || !g->arc_table)
		rehash(&g->arc_table, &g->arc_mask, g->narcs, arc_hash_at, g);
	for (s = arc_hash(from, self) & g->arc_mask; g->arc_table[s];
	     s = (s + 1) & g->arc_mask) {
		struct gmon_arc *a = &g->arcs[g->arc_table[s] - 1];

		if (a->from == from && a->self == self) {
			a->count = sat_add(a->count, count);
			return;
		}
	}
	if (g->narcs >= UINT32_MAX - 1)
		BUG("more arcs than a table holds");
	ARRAY_GROW(g->arcs, g->narcs + 1, g->arcs_alloc);
	g->arcs[g->narcs] = (struct gmon_arc){ from, self, count };
	g->arc_table[s] = (uint32_t)++g->narcs;
}

void gmon_add_bb(struct gmon_data *g, uint64_t addr, uint64_t count)
{
	size_t s;

	if ((g->nbbs + 1) * 2 > g->bb_mask + 1 || !g->bb_table)
		rehash(&g->bb_table, &g->bb_mask, g->nbbs, bb_hash_at, g);
	for (s = hash_u64(addr) & g->bb_mask; g->bb_table[s];
	     s = (s + 1) & g->bb_mask) {
		struct gmon_bb *b = &g->bbs[g->bb_table[s] - 1];

		if (b->addr == addr) {
			b->count = sat_add(b->count, count);
			return;
		}
	}
	if (g->nbbs >= UINT32_MAX - 1)
		BUG("more basic blocks than a table holds");
	ARRAY_GROW(g->bbs, g->nbbs + 1, g->bbs_alloc);
	g->bbs[g->nbbs] = (struct gmon_bb){ addr, count };
	g->bb_table[s] = (uint32_t)++g->nbbs;
}

struct gmon_hist *gmon_hist_for(struct gmon_data *g,
				const struct gmon_hist *h, char *why,
				size_t whysize)
{
	struct gmon_hist *n;

	if (g->nhists && strcmp(g->hists[0].dimen, h->dimen)) {
		snprintf(why, whysize,
			 "histogram of '%s', where the first one is of '%s' (gprof refuses this too)",
			 h->dimen, g->hists[0].dimen);
		return NULL;
	}
	/* a tick is 1/rate seconds: ticks of two rates added up would all
	 * be counted at the first's (gprof 2.40 does so for GNU files; it
	 * refuses BSD ones, as we refuse both) */
	if (g->nhists && g->hists[0].rate != h->rate) {
		snprintf(why, whysize,
			 "histogram of %u ticks a second (ticks of two rates are not the same time: they cannot be added up), where the first one has %u",
			 h->rate, g->hists[0].rate);
		return NULL;
	}
	for (size_t i = 0; i < g->nhists; i++) {
		struct gmon_hist *o = &g->hists[i];

		if (o->low == h->low && o->high == h->high) {
			if (o->nbins == h->nbins)
				return o;
			snprintf(why, whysize,
				 "histogram of [0x%llx, 0x%llx) in %u bins, where an earlier one of the same range has %u",
				 (unsigned long long)h->low,
				 (unsigned long long)h->high, h->nbins,
				 o->nbins);
			return NULL;
		}
		if (h->low < o->high && o->low < h->high) {
			snprintf(why, whysize,
				 "histogram of [0x%llx, 0x%llx) overlaps the earlier one of [0x%llx, 0x%llx) without matching it (are they from the same program?)",
				 (unsigned long long)h->low,
				 (unsigned long long)h->high,
				 (unsigned long long)o->low,
				 (unsigned long long)o->high);
			return NULL;
		}
	}
	if (g->nhists == GMON_MAX_HISTS) {
		snprintf(why, whysize,
			 "more than %d histograms of different ranges (glibc writes one)",
			 GMON_MAX_HISTS);
		return NULL;
	}
	ARRAY_GROW(g->hists, g->nhists + 1, g->hists_alloc);
	n = &g->hists[g->nhists++];
	*n = *h;
	n->bins = xcalloc(h->nbins ? h->nbins : 1, sizeof(*n->bins));
	return n;
}

uint64_t gmon_ticks(const struct gmon_data *g)
{
	uint64_t t = 0;

	for (size_t i = 0; i < g->nhists; i++)
		for (uint32_t b = 0; b < g->hists[i].nbins; b++)
			t = sat_add(t, g->hists[i].bins[b]);
	return t;
}

const char *gmon_sort_name(const struct profile *p, uint32_t f)
{
	const struct gmon_data *gd = p->gmon;

	if (gd && f < gd->nsyms && gd->syms[f].raw != NO_NAME)
		return profile_str(p, gd->syms[f].raw);
	return profile_str(p, p->funcs[f].name);
}
