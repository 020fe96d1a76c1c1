/*
 * Where calls and jumps were made from (struct pcallsite, struct pjump):
 * call sites in a map keyed by (position, arc), jumps in an open-addressed
 * table keyed by every field but the counts, so repeated parts, threads
 * and runs add up instead of growing the lists.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "profile.h"

uint32_t profile_callsite(struct profile *p, uint32_t pos, uint32_t call)
{
	bool added;
	uint32_t cs, h = p->callsite_hint + 1;	/* as profile_pos()'s hint */

	if (h < p->ncallsites && p->callsites[h].pos == pos &&
	    p->callsites[h].call == call)
		return p->callsite_hint = h;
	if (p->pos_log) {
		/* a log, as its positions are (profile.h) */
		cs = (uint32_t)p->ncallsites;
		added = true;
	} else {
		cs = u64map_get_or_put(&p->callsite_index,
				       (uint64_t)pos << 32 | call,
				       (uint32_t)p->ncallsites, &added);
	}
	p->callsite_hint = cs;
	if (!added)
		return cs;
	if (p->ncallsites >= NO_ID - 1)
		BUG("too many call sites");
	ARRAY_GROW(p->callsites, p->ncallsites + 1, p->callsites_alloc);
	if (p->ncallsites + 1 > p->callsite_incl_alloc) {
		size_t rows = p->callsite_incl_alloc / 2 * 3 + 64;

		p->callsite_incl = xreallocarray(p->callsite_incl, rows,
						 (p->stride ? p->stride : 1) *
							 sizeof(uint64_t));
		p->callsite_incl_alloc = rows;
	}
	p->callsites[cs] = (struct pcallsite){ .pos = pos, .call = call };
	memset(profile_callsite_incl(p, cs), 0, p->stride * sizeof(uint64_t));
	p->ncallsites++;
	return cs;
}

static uint64_t jump_hash(const struct pjump *j)
{
	return hash_u64(j->to_addr ^ hash_u64((uint64_t)j->from << 32 |
					      j->to_file) ^
			((uint64_t)j->to_line << 1 | j->conditional));
}

static bool same_jump(const struct pjump *a, const struct pjump *b)
{
	return a->from == b->from && a->to_file == b->to_file &&
	       a->to_line == b->to_line && a->to_addr == b->to_addr &&
	       a->conditional == b->conditional;
}

static void jump_rehash(struct profile *p)
{
	size_t cap = p->jump_table ? (p->jump_mask + 1) * 2 : 256;

	free(p->jump_table);
	p->jump_table = xcalloc(cap, sizeof(*p->jump_table));
	p->jump_mask = cap - 1;
	for (size_t i = 0; i < p->njumps; i++) {
		size_t k = jump_hash(&p->jumps[i]) & p->jump_mask;

		while (p->jump_table[k])
			k = (k + 1) & p->jump_mask;
		p->jump_table[k] = (uint32_t)i + 1;
	}
}

static uint32_t add_jump(struct profile *p, const struct pjump *j)
{
	if (p->njumps >= NO_ID - 1)
		BUG("too many jumps");
	ARRAY_GROW(p->jumps, p->njumps + 1, p->jumps_alloc);
	p->jumps[p->njumps] = *j;
	p->jump_hint = (uint32_t)p->njumps;
	return (uint32_t)p->njumps++;
}

void profile_add_jump(struct profile *p, const struct pjump *j)
{
	struct pjump *q;
	size_t k;
	uint32_t h = p->jump_hint + 1;	/* as profile_pos()'s hint */

	if (p->pos_detail != POS_ALL &&
	    (p->pos_detail != POS_SELECT || p->pos[j->from].region))
		return;		/* no listing of coarse positions shows them */
	if (h < p->njumps && same_jump(&p->jumps[h], j)) {
		p->jump_hint = h;
		q = &p->jumps[h];
		q->executed += j->executed;
		q->followed += j->followed;
		return;
	}
	if (p->pos_log) {
		add_jump(p, j);
		return;
	}
	if (!p->jump_table || (p->njumps + 1) * 2 > p->jump_mask + 1)
		jump_rehash(p);
	k = jump_hash(j) & p->jump_mask;
	for (;;) {
		uint32_t v = p->jump_table[k];

		if (!v)
			break;
		q = &p->jumps[v - 1];
		if (same_jump(q, j)) {
			p->jump_hint = v - 1;
			q->executed += j->executed;
			q->followed += j->followed;
			return;
		}
		k = (k + 1) & p->jump_mask;
	}
	p->jump_table[k] = add_jump(p, j) + 1;
}
