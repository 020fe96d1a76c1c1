/*
 * The seek design's fold (pos_fold.h).
 */
#include "pos_fold.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "pos_select.h"
#include "profile_rekey.h"

void pos_whole_release(struct pos_whole *w)
{
	free(w->pos);
	free(w->cost);
	free(w->cs);
	free(w->cs_incl);
	free(w->jumps);
	free(w->map);
	memset(w, 0, sizeof(*w));
}

/* to += from over n columns: false past 2^64 - 1 */
static bool add_row(uint64_t *to, const uint64_t *from, size_t n)
{
	bool over = false;

	for (size_t e = 0; e < n; e++)
		over |= __builtin_add_overflow(to[e], from[e], &to[e]);
	return !over;
}

/* w's positions into p, each whole; its call sites and jumps then on
 * p's rows, its positions dropped. */
static bool add_whole(struct profile *p, struct pos_whole *w)
{
	bool ok = true;

	w->map = xcalloc(w->npos + 1, sizeof(*w->map));
	for (size_t i = 0; ok && i < w->npos; i++) {
		const struct ppos *q = &w->pos[i];
		uint32_t to = profile_pos_as_is(p, q->func, q->file, q->line,
						q->addr, 0);

		w->map[i] = to;
		ok = add_row(profile_pos_cost(p, to), w->cost + i * p->stride,
			     p->nevents);
	}
	for (size_t i = 0; ok && i < w->ncs; i++)
		w->cs[i].pos = w->map[w->cs[i].pos];
	for (size_t i = 0; ok && i < w->njumps; i++)
		w->jumps[i].from = w->map[w->jumps[i].from];
	free(w->pos);
	free(w->cost);
	free(w->map);
	w->pos = NULL;
	w->cost = NULL;
	w->map = NULL;
	return ok;
}

static bool add_site(struct profile *p, uint32_t pos, uint32_t call,
		     uint64_t count, const uint64_t *incl)
{
	uint32_t cs = profile_callsite(p, pos, call);

	return !__builtin_add_overflow(p->callsites[cs].count, count,
				       &p->callsites[cs].count) &&
	       add_row(profile_callsite_incl(p, cs), incl, p->nevents);
}

/*
 * Each kept function's cost as the one read summed it (want) and as its
 * blocks read again sum it (got): the two must be equal. A file changed
 * between the reads, or a block read otherwise than the read read it,
 * gives other sums, and the two reads follow rather than plausible
 * numbers. A maximum event's rows are not sums: left out.
 */
struct sums {
	struct u64map of;	/* function -> index */
	uint64_t *want, *got;	/* index * stride */
	size_t n;
	bool over;		/* a sum past 2^64 - 1: not checked, so
				 * not trusted */
};

static void sums_init(struct sums *s, const struct profile *p,
		      const uint8_t *kept, const uint8_t *has)
{
	size_t stride = p->stride;

	memset(s, 0, sizeof(*s));
	u64map_init(&s->of);
	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (kept[f] && has[f])
			u64map_put(&s->of, f, (uint32_t)s->n++);
	s->want = xcalloc(s->n * stride + 1, sizeof(*s->want));
	s->got = xcalloc(s->n * stride + 1, sizeof(*s->got));
	for (size_t i = 0; i < p->npos; i++) {
		uint32_t k = kept[p->pos[i].func]
				     ? u64map_get(&s->of, p->pos[i].func)
				     : U64MAP_NONE;

		if (k != U64MAP_NONE &&
		    !add_row(s->want + (size_t)k * stride,
			     profile_pos_cost(p, (uint32_t)i), p->nevents))
			s->over = true;
	}
}

static void sums_add(struct sums *s, const struct profile *p, uint32_t f,
		     const struct pos_whole *w)
{
	uint32_t k = u64map_get(&s->of, f);

	if (k == U64MAP_NONE) {
		s->over = true;
		return;
	}
	for (size_t i = 0; i < w->npos; i++)
		if (!add_row(s->got + (size_t)k * p->stride,
			     w->cost + i * p->stride, p->nevents))
			s->over = true;
}

static bool sums_equal(const struct sums *s, const struct profile *p)
{
	if (s->over)
		return false;
	for (size_t k = 0; k < s->n; k++)
		for (size_t e = 0; e < p->nevents; e++)
			if (!profile_event_max(p, e) &&
			    s->want[k * p->stride + e] !=
				    s->got[k * p->stride + e])
				return false;
	return true;
}

static void sums_release(struct sums *s)
{
	u64map_release(&s->of);
	free(s->want);
	free(s->got);
}

/*
 * The coarse rows, folded from the one read's apart (a profile of
 * positions alone, c): each with the one read's row it was made at
 * (made[], ascending), where it goes among the kept blocks' whole rows.
 * Few (a program's functions not kept whole have their cost in few
 * symbols' regions, on few lines of the files kept), where the whole
 * rows are most: those are made in p's own arrays after.
 */
struct coarse {
	struct profile c;
	uint32_t *made;
	size_t made_alloc;
	uint32_t *final;	/* each row's index in p, once made there */
};

int profile_fold_positions(struct profile *p, const uint8_t *kept,
			   const struct pos_block *blk, size_t nblk,
			   pos_whole_fn read_block, void *ctx)
{
	struct pos_select *ps = p->pos_select;
	size_t stride = p->stride, npos = p->npos, ncs = p->ncallsites;
	uint8_t *has = xcalloc(p->nfuncs + 1, sizeof(*has));
	size_t nkb = nblk;
	struct pos_whole *whole = xcalloc(nkb + 1, sizeof(*whole));
	struct coarse co = { 0 };
	struct sums sums;
	struct pcallsite *cs = NULL;
	uint64_t *incl = NULL;
	struct u64map coarse_of;	/* old row -> coarse row + 1 (0: a
					 * kept function's), of the rows
					 * with call sites */
	size_t k = 0, c = 0;
	int ret = -1;

	for (k = 0; k < nkb; k++)
		if (blk[k].func < p->nfuncs)
			has[blk[k].func] = 1;
	k = 0;
	u64map_init(&coarse_of);
	profile_init(&co.c);
	co.c.stride = stride;
	sums_init(&sums, p, kept, has);
	if (p->njumps)
		goto out;	/* the one read keeps none */
	cs = p->callsites;
	incl = p->callsite_incl;
	for (size_t i = 0; i < ncs; i++)
		u64map_put(&coarse_of, cs[i].pos, 0);
	/* the call sites apart: made again below */
	p->callsites = NULL;
	p->callsite_incl = NULL;
	p->ncallsites = p->callsites_alloc = p->callsite_incl_alloc = 0;
	u64map_release(&p->callsite_index);
	u64map_init(&p->callsite_index);
	p->callsite_hint = 0;
	profile_drop_pos_table(p);
	p->pos_last_func = NO_ID;
	/* the coarse rows, from every row not a kept function's */
	for (size_t i = 0; i < npos; i++) {
		const struct ppos *q = &p->pos[i];
		uint32_t f = q->func, line = q->line, to;
		size_t n = co.c.npos;

		if (kept[f]) {
			if (!has[f])
				goto out;	/* made outside a block */
			continue;
		}
		profile_pos_coarse(p, &f, q->file, &line);
		to = profile_pos_as_is(&co.c, f, q->file, line, 0, q->region);
		if (co.c.npos != n) {
			if (to >= co.made_alloc) {
				co.made_alloc = co.made_alloc * 2 + 1024;
				co.made = xreallocarray(co.made, co.made_alloc,
							sizeof(*co.made));
			}
			co.made[to] = (uint32_t)i;
		}
		if (!add_row(profile_pos_cost(&co.c, to),
			     profile_pos_cost(p, (uint32_t)i), p->nevents))
			goto out;
		if (u64map_get(&coarse_of, i) != U64MAP_NONE)
			u64map_put(&coarse_of, i, to + 1);
	}
	/* p's arrays made again from the start, in the order the rows were
	 * made: each kept block's whole rows before the coarse rows made
	 * from its start on */
	p->npos = 0;
	p->pos_hint = 0;
	co.final = xcalloc(co.c.npos + 1, sizeof(*co.final));
	for (c = 0; c <= co.c.npos; c++) {
		const struct ppos *q;

		for (; k < nkb && (c == co.c.npos || blk[k].npos <= co.made[c]);
		     k++) {
			if (read_block(ctx, p, k, &whole[k]) < 0)
				goto out;
			sums_add(&sums, p, blk[k].func, &whole[k]);
			if (!add_whole(p, &whole[k]))
				goto out;
		}
		if (c == co.c.npos)
			break;
		q = &co.c.pos[c];
		co.final[c] = profile_pos_as_is(p, q->func, q->file, q->line,
						0, q->region);
		if (!add_row(profile_pos_cost(p, co.final[c]),
			     profile_pos_cost(&co.c, (uint32_t)c), p->nevents))
			goto out;
	}
	/* the call sites in the order they were made, the kept blocks'
	 * where theirs begin */
	k = 0;
	for (size_t i = 0; i <= ncs; i++) {
		uint32_t to;

		for (; k < nkb && blk[k].ncs <= i; k++)
			for (size_t j = 0; j < whole[k].ncs; j++)
				if (!add_site(p, whole[k].cs[j].pos,
					      whole[k].cs[j].call,
					      whole[k].cs[j].count,
					      whole[k].cs_incl + j * stride))
					goto out;
		if (i == ncs)
			break;
		to = u64map_get(&coarse_of, cs[i].pos);
		if (!to)
			continue;	/* a kept function's */
		if (!add_site(p, co.final[to - 1], cs[i].call, cs[i].count,
			      incl + i * stride))
			goto out;
	}
	if (!sums_equal(&sums, p))
		goto out;
	for (k = 0; k < nkb; k++)
		for (size_t i = 0; i < whole[k].njumps; i++)
			profile_add_jump(p, &whole[k].jumps[i]);
	/* as the second read counts them: none of a function kept whole */
	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (kept[f] && (pos_select_state(ps, f) & PS_SEEN)) {
			ps->count[f] = ps->outside[f] = 0;
			ps->state[f] |= PS_KEEP;
		}
	ret = 0;
out:
	for (k = 0; k < nkb; k++)
		pos_whole_release(&whole[k]);
	free(whole);
	free(has);
	free(cs);
	free(incl);
	free(co.made);
	free(co.final);
	profile_release(&co.c);
	u64map_release(&coarse_of);
	sums_release(&sums);
	return ret;
}
