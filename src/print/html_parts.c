/*
 * A Callgrind profile's parts on the report's trees (html_parts.h).
 *
 * A part read alone has its own functions and arcs; its tree is
 * estimated from them (flame_build()) and made to hold each function's
 * self cost exactly (flame_exact_self()); IgProf's buffers have their
 * stacks, and their trees are exact. As each part is read, its tree is
 * kept as its function nodes (in the whole's functions, parents first)
 * and the self shares on them (reduce_event()), and the part's profile
 * goes. On the page, a part's kept nodes are walked parents first and
 * each placed on the node of the whole profile's tree that has the same
 * path of functions, added to it where it has none (part_place()):
 *
 *   part:  main > run > fib          whole:  main > run > fib
 *          main > init > setup               main > init > fib
 *
 *   main>run>fib: the whole tree's node; main>init>setup: a node added
 *   under the whole tree's main>init, setup's self there. A function
 *   the page leaves out (under its threshold) is on the page's node of
 *   those (a cut page keeps its merged paths: report_keep.h), or on an
 *   added node of that unit where the page has no such path.
 *
 * A cycle's node of the part is passed through: its members are looked
 * for under its parent's place, directly or under a cycle's node there.
 */
#include "html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "html_data.h"

/* FNV-1a over a string and its terminator */
static uint64_t fnv(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	} while (*s++);
	return h;
}

static uint64_t func_key(const struct profile *p, uint32_t f)
{
	const struct pfunc *fn = &p->funcs[f];
	uint64_t h = 0xcbf29ce484222325ull;

	h = fnv(h, profile_str(p, fn->name));
	h = fnv(h, profile_str(p, fn->file));
	return fnv(h, profile_str(p, fn->object));
}

static bool same_func(const struct profile *a, uint32_t fa,
		      const struct profile *b, uint32_t fb)
{
	const struct pfunc *x = &a->funcs[fa], *y = &b->funcs[fb];

	return !strcmp(profile_str(a, x->name), profile_str(b, y->name)) &&
	       !strcmp(profile_str(a, x->file), profile_str(b, y->file)) &&
	       !strcmp(profile_str(a, x->object), profile_str(b, y->object));
}

/* Each of part's functions as whole's (same name, file and object), or
 * NO_ID. A key two functions share keeps the first: the other maps to
 * none, as a function the whole lacks. */
static uint32_t *func_map(const struct profile *whole,
			  const struct u64map *index, const struct profile *part)
{
	uint32_t *map = xmalloc((part->nfuncs + 1) * sizeof(*map));

	for (size_t f = 0; f < part->nfuncs; f++) {
		uint32_t w = u64map_get(index, func_key(part, (uint32_t)f));

		map[f] = w != U64MAP_NONE && same_func(whole, w, part,
						       (uint32_t)f) ? w : NO_ID;
	}
	return map;
}

/* The whole profile's functions by func_key(), the first of a key kept */
static void whole_index(const struct profile *p, struct u64map *index)
{
	u64map_init(index);
	for (size_t f = p->nfuncs; f-- > 0;)
		u64map_put(index, func_key(p, (uint32_t)f), (uint32_t)f);
}

static uint32_t event_named(const struct profile *p, const struct profile *in,
			    uint32_t e)
{
	const char *name = profile_str(in, in->events[e].name);

	for (size_t i = 0; i < p->nevents; i++)
		if (!strcmp(profile_str(p, p->events[i].name), name))
			return (uint32_t)i;
	return NO_ID;
}

static uint64_t child_key(uint32_t parent, uint32_t unit)
{
	return (uint64_t)(parent + 1u) << 32 | unit;
}

/* The whole profile's tree of one event, found by path, and the nodes
 * added to it: a part's path the whole tree has not (cut under
 * HTML_FLAME_MIN_SHARE, or not in its arcs), numbered from fl.nnodes
 * in the order added (parents first) and found by the same map. */
struct whole_tree {
	struct flame fl;
	struct u64map child;	/* child_key(parent, unit) -> node */
	uint32_t *page;		/* node -> the page's node; NULL: same */
	size_t npage;		/* the page's nodes */
	uint32_t nfuncs;
	uint32_t *add_unit, *add_parent;	/* the nodes added */
	size_t nadd, add_alloc, add_alloc2;
};

static void whole_init(struct whole_tree *w, const struct cg *cg, uint32_t e,
		       const struct report_keep *k)
{
	const struct profile *p = cg->p;

	memset(w, 0, sizeof(*w));
	w->nfuncs = (uint32_t)cg->nnodes;
	/* the tree html_data_flame() writes */
	flame_build(&w->fl, cg, e, (double)p->totals[e] * HTML_FLAME_MIN_SHARE,
		    HTML_FLAME_MAX_NODES);
	u64map_init(&w->child);
	for (size_t i = 0; i < w->fl.nnodes; i++) {
		const struct flame_node *n = &w->fl.nodes[i];
		uint32_t unit = n->func != NO_ID ? n->func : w->nfuncs + n->cycle;

		u64map_put(&w->child, child_key(n->parent, unit), (uint32_t)i);
	}
	w->page = html_flame_page_nodes(cg, e, k, w->fl.nnodes);
	w->npage = w->fl.nnodes;
	if (w->page) {
		/* the page numbers the nodes it keeps in order */
		w->npage = 0;
		for (size_t i = 0; i < w->fl.nnodes; i++)
			if (w->page[i] != NO_ID && w->page[i] >= w->npage)
				w->npage = w->page[i] + 1;
	}
}

static void whole_release(struct whole_tree *w)
{
	flame_release(&w->fl);
	u64map_release(&w->child);
	free(w->page);
	free(w->add_unit);
	free(w->add_parent);
}

/* f's node under `at` (NO_ID: the roots), directly or as a member under
 * a cycle's node there; added under `at` when there is none */
static uint32_t whole_child(struct whole_tree *w, uint32_t at, uint32_t f)
{
	uint32_t c = u64map_get(&w->child, child_key(at, f));

	if (c != U64MAP_NONE)
		return c;
	if (at == NO_ID || at < w->fl.nnodes) {
		c = at == NO_ID ? w->fl.first_root : w->fl.nodes[at].first_child;
		for (; c != NO_ID; c = w->fl.nodes[c].next_sibling) {
			uint32_t m;

			if (w->fl.nodes[c].func != NO_ID)
				continue;
			m = u64map_get(&w->child, child_key(c, f));
			if (m != U64MAP_NONE)
				return m;
		}
	}
	ARRAY_GROW(w->add_unit, w->nadd + 1, w->add_alloc);
	ARRAY_GROW(w->add_parent, w->nadd + 1, w->add_alloc2);
	w->add_unit[w->nadd] = f;
	w->add_parent[w->nadd] = at;
	c = (uint32_t)(w->fl.nnodes + w->nadd++);
	u64map_put(&w->child, child_key(at, f), c);
	return c;
}

/* One part's records of one event (the part's pe, the whole's e). */
struct emit {
	struct html_record *rec;
	size_t n, alloc, moved, unplaced;
	uint32_t bucket, track, event;
};

static void emit(struct emit *x, uint32_t node, uint64_t cost, bool moved)
{
	if (!cost)
		return;
	ARRAY_GROW(x->rec, x->n + 1, x->alloc);
	x->rec[x->n++] = (struct html_record){ .bucket = x->bucket,
		.track = x->track, .node = node, .event = x->event,
		.samples = 1, .period = cost };
	x->moved += moved;
}

/*
 * One part's tree of event pe (the whole's e), kept as its function
 * nodes in the whole's functions, parents first, and its functions'
 * self costs shared over them: what part_place() puts on the whole
 * tree. A cycle's node, and a function the whole lacks (it cannot: the
 * whole is the parts' sum), are passed through to the node above.
 */
static void reduce_event(struct html_parts *hp, const struct profile *pp,
			 const struct cg *pcg, uint32_t pe,
			 const uint32_t *fmap)
{
	struct flame pf;
	uint32_t *at, *next_of;
	uint32_t *first = xmalloc((pp->nfuncs + 1) * sizeof(*first));
	double *weight = xcalloc(pp->nfuncs + 1, sizeof(*weight));
	size_t base = hp->nnodes;
	bool *moved;

	flame_build(&pf, pcg, pe, (double)pp->totals[pe] * HTML_FLAME_MIN_SHARE,
		    HTML_FLAME_MAX_NODES);
	flame_exact_self(&pf, pcg);
	at = xmalloc((pf.nnodes + 1) * sizeof(*at));
	moved = xcalloc(pf.nnodes + 1, sizeof(*moved));
	next_of = xmalloc((pf.nnodes + 1) * sizeof(*next_of));
	for (size_t f = 0; f < pp->nfuncs; f++)
		first[f] = NO_ID;
	/* parents come before their children (flame_exact_self()'s nodes
	 * of functions it placed too) */
	for (size_t i = 0; i < pf.nnodes; i++) {
		const struct flame_node *n = &pf.nodes[i];
		uint32_t up = n->parent == NO_ID ? NO_ID : at[n->parent];
		uint32_t f = n->func == NO_ID ? NO_ID : fmap[n->func];

		if (n->func == NO_ID) {
			at[i] = up;	/* a cycle: passed through */
			continue;
		}
		moved[i] = f == NO_ID;
		if (f == NO_ID) {
			at[i] = up;
		} else {
			ARRAY_GROW(hp->nodes, hp->nnodes + 1, hp->nodes_alloc);
			hp->nodes[hp->nnodes].func = f;
			hp->nodes[hp->nnodes].parent = up;
			at[i] = (uint32_t)(hp->nnodes++ - base);
		}
		/* the nodes of each function, for its self's shares */
		next_of[i] = first[n->func];
		first[n->func] = (uint32_t)i;
		weight[n->func] += n->self > 0 ? n->self : 0;
	}
	for (size_t f = 0; f < pp->nfuncs; f++) {
		double s = cg_node_self(pcg, (uint32_t)f, pe);
		uint64_t self = s > 0 ? (uint64_t)llround(s) : 0, given = 0;
		double cum = 0;

		if (!self || weight[f] <= 0)
			continue;
		/* whole numbers by cumulative rounding: they add up to
		 * self, each within 1 of its share */
		for (uint32_t i = first[f]; i != NO_ID; i = next_of[i]) {
			const struct flame_node *n = &pf.nodes[i];
			uint64_t upto;

			cum += n->self > 0 ? n->self : 0;
			upto = next_of[i] == NO_ID ? self
			       : (uint64_t)llround((double)self * cum /
						   weight[f]);
			if (upto > self)
				upto = self;
			if (upto < given)
				upto = given;
			if (upto > given) {
				ARRAY_GROW(hp->shares, hp->nshares + 1,
					   hp->shares_alloc);
				hp->shares[hp->nshares++] =
					(struct html_part_share){
						.node = at[i],
						.moved = moved[i],
						.cost = upto - given };
			}
			given = upto;
		}
	}
	flame_release(&pf);
	free(at);
	free(moved);
	free(next_of);
	free(first);
	free(weight);
}

/* The part's inclusive cost of each of its functions the whole has,
 * for the events drawn, those of no cost left out */
static void reduce_inclusive(struct html_parts *hp, const struct profile *pp,
			     const struct cg *pcg, const uint32_t *fmap,
			     const uint32_t *ev)
{
	const struct profile *p = hp->cg->p;
	uint64_t *row = xcalloc(pp->nevents + 1, sizeof(*row));

	for (uint32_t g = 0; g < pp->nfuncs; g++) {
		if (fmap[g] == NO_ID)
			continue;
		cg_inclusive_row(pcg, g, row);
		for (uint32_t e = 0; e < p->nevents; e++) {
			if (ev[e] == NO_ID || !row[ev[e]])
				continue;
			ARRAY_GROW(hp->incl, hp->nincl + 1, hp->incl_alloc);
			hp->incl[hp->nincl++] = (struct html_part_incl){
				.func = fmap[g], .event = e,
				.cost = row[ev[e]] };
		}
	}
	free(row);
}

/* Whether the page draws a tree of event e */
static bool drawn(const struct html_parts *hp, const struct profile *p,
		  uint32_t e)
{
	return (hp->every_event || e == hp->sort_event) && !p->events[e].max;
}

void html_parts_init(struct html_parts *hp, const struct cg *cg,
		     bool every_event, uint32_t sort_event)
{
	memset(hp, 0, sizeof(*hp));
	hp->cg = cg;
	hp->every_event = every_event;
	hp->sort_event = sort_event;
	whole_index(cg->p, &hp->index);
}

void html_parts_add(struct html_parts *hp, const struct ppart *pt,
		    const struct profile *pp, const struct cg *pcg)
{
	const struct profile *p = hp->cg->p;
	size_t ne = p->nevents;
	uint32_t *fmap = func_map(p, &hp->index, pp);
	uint32_t *ev = xmalloc((ne + 1) * sizeof(*ev));
	struct html_part *part;
	bool any_derived = false;

	ARRAY_GROW(hp->parts, hp->nparts + 1, hp->parts_alloc);
	part = &hp->parts[hp->nparts++];
	memset(part, 0, sizeof(*part));
	part->part = pt;
	part->node_at = xcalloc(2 * (ne + 1), sizeof(*part->node_at));
	part->share_at = part->node_at + ne + 1;
	for (uint32_t e = 0; e < ne; e++) {
		ev[e] = drawn(hp, p, e) ? event_named(pp, p, e) : NO_ID;
		any_derived |= p->events[e].derived;
	}
	for (uint32_t e = 0; e < ne; e++) {
		part->node_at[e] = hp->nnodes;
		part->share_at[e] = hp->nshares;
		/* a part of many events each of a tree far larger than
		 * the part stops at the budget, not at the last event */
		if (ev[e] != NO_ID &&
		    (!hp->budget || html_parts_size(hp) <= hp->budget))
			reduce_event(hp, pp, pcg, ev[e], fmap);
	}
	part->node_at[ne] = hp->nnodes;
	part->share_at[ne] = hp->nshares;
	part->incl_from = hp->nincl;
	reduce_inclusive(hp, pp, pcg, fmap, ev);
	part->incl_to = hp->nincl;
	if (any_derived) {
		part->derived = xcalloc(ne + 1, sizeof(*part->derived));
		for (uint32_t e = 0; e < ne; e++) {
			uint32_t pe = p->events[e].derived
				? event_named(pp, p, e) : NO_ID;

			if (pe != NO_ID)
				part->derived[e] = pp->totals[pe];
		}
	}
	free(ev);
	free(fmap);
}

void html_parts_done(struct html_parts *hp)
{
	u64map_release(&hp->index);
	u64map_init(&hp->index);
}

void html_parts_release(struct html_parts *hp)
{
	for (size_t i = 0; i < hp->nparts; i++) {
		free(hp->parts[i].node_at);
		free(hp->parts[i].derived);
	}
	free(hp->parts);
	free(hp->nodes);
	free(hp->shares);
	free(hp->incl);
	u64map_release(&hp->index);
	memset(hp, 0, sizeof(*hp));
}

/* A part's tree of event e (its nodes and shares from html_parts_add())
 * on the whole tree, nodes added where it has none of that path */
static void part_place(struct emit *x, struct whole_tree *w,
		       const struct html_parts *hp, const struct html_part *pt,
		       uint32_t e)
{
	size_t from = pt->node_at[e], n = pt->node_at[e + 1] - from;
	uint32_t *place = xmalloc((n + 1) * sizeof(*place));

	for (size_t j = 0; j < n; j++) {
		const struct html_part_node *pn = &hp->nodes[from + j];

		place[j] = whole_child(w, pn->parent == NO_ID
						  ? NO_ID : place[pn->parent],
				       pn->func);
	}
	for (size_t j = pt->share_at[e]; j < pt->share_at[e + 1]; j++) {
		const struct html_part_share *sh = &hp->shares[j];

		emit(x, sh->node == NO_ID ? NO_ID : place[sh->node], sh->cost,
		     sh->moved);
	}
	free(place);
}

/*
 * The records of one event, rec[from..to), from the whole tree's nodes
 * (and those added) to the page's: an added node whose function the
 * page has becomes one of the page's added nodes (out), numbered from
 * the page's count; one of a function left out of the page, a node of
 * the unit of those (a run of them one node).
 */
static void to_page(struct emit *x, size_t from, const struct whole_tree *w,
		    const struct report_keep *k, struct html_part_added *out)
{
	size_t nw = w->fl.nnodes;
	uint32_t *place = xmalloc((w->nadd + 1) * sizeof(*place));

	memset(out, 0, sizeof(*out));
	for (size_t j = 0; j < w->nadd; j++) {
		uint32_t up = w->add_parent[j];
		uint32_t pu = report_page_id(k, w->add_unit[j]);

		up = up == NO_ID ? NO_ID : up < nw ? (w->page ? w->page[up] : up)
						   : place[up - nw];
		/* a function the page leaves out: the unit of those
		 * (cut.js's CUT_OTHER, one past the page's functions), a
		 * run of them one node, as the page's merged nodes are */
		if (pu == NO_ID) {
			if (up != NO_ID && up >= w->npage &&
			    out->unit[up - w->npage] == (uint32_t)k->nkept) {
				place[j] = up;
				continue;
			}
			pu = (uint32_t)k->nkept;
		}
		ARRAY_GROW(out->unit, out->n + 1, out->unit_alloc);
		ARRAY_GROW(out->parent, out->n + 1, out->parent_alloc);
		out->unit[out->n] = pu;
		out->parent[out->n] = up;
		place[j] = (uint32_t)(w->npage + out->n++);
	}
	for (size_t i = from; i < x->n; i++) {
		struct html_record *r = &x->rec[i];

		if (r->node == NO_ID)
			;
		else if (r->node < nw)
			r->node = w->page ? w->page[r->node] : r->node;
		else
			r->node = place[r->node - nw];
	}
	/* a merged root's, or of a function no node of the page has and
	 * called from none: on no node */
	for (size_t i = from; i < x->n; i++)
		if (x->rec[i].node == NO_ID) {
			x->unplaced++;
			x->rec[i--] = x->rec[--x->n];
		}
	free(place);
}

static uint64_t dump_of(const struct ppart *pt)
{
	return pt->number ? pt->number : pt->ordinal;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void html_part_axes_init(struct html_part_axes *ax, const struct profile *p,
			 const struct html_parts *hp)
{
	const struct html_part *parts = hp->parts;
	size_t nparts = hp->nparts;
	struct u64map by_id;
	size_t m = 0;

	memset(ax, 0, sizeof(*ax));
	ax->ngroups = part_groups(p, true, p->nevents, &ax->groups);
	ax->dumps = xmalloc((nparts + 1) * sizeof(*ax->dumps));
	ax->track = xmalloc((nparts + 1) * sizeof(*ax->track));
	ax->bucket = xmalloc((nparts + 1) * sizeof(*ax->bucket));
	for (size_t i = 0; i < nparts; i++)
		ax->dumps[i] = dump_of(parts[i].part);
	qsort(ax->dumps, nparts, sizeof(*ax->dumps), by_u64);
	for (size_t i = 0; i < nparts; i++)
		if (!m || ax->dumps[m - 1] != ax->dumps[i])
			ax->dumps[m++] = ax->dumps[i];
	ax->ndumps = m;
	u64map_init(&by_id);
	for (size_t g = 0; g < ax->ngroups; g++)
		u64map_put(&by_id, (uint64_t)ax->groups[g].pid << 32 |
			   ax->groups[g].tid, (uint32_t)g);
	for (size_t i = 0; i < nparts; i++) {
		const struct ppart *pt = parts[i].part;
		uint64_t d = dump_of(pt);
		const uint64_t *hit = bsearch(&d, ax->dumps, m,
					      sizeof(*ax->dumps), by_u64);

		ax->track[i] = u64map_get(&by_id, (uint64_t)pt->pid << 32 |
					  pt->tid);
		ax->bucket[i] = (uint32_t)(hit - ax->dumps);
	}
	u64map_release(&by_id);
}

void html_part_axes_release(struct html_part_axes *ax)
{
	part_groups_free(ax->groups, ax->ngroups);
	free(ax->dumps);
	free(ax->track);
	free(ax->bucket);
	memset(ax, 0, sizeof(*ax));
}

struct html_record *html_parts_records(const struct cg *cg,
				       const struct html_parts *hp,
				       const struct html_part_axes *ax,
				       const struct report_keep *k,
				       struct html_part_added *added,
				       size_t *nrec, size_t *moved,
				       size_t *unplaced)
{
	const struct profile *p = cg->p;
	struct emit x = { 0 };

	for (uint32_t e = 0; e < p->nevents; e++) {
		struct whole_tree w;
		size_t from = x.n;

		/* the events html_data_flame() draws a tree of */
		if (!drawn(hp, p, e))
			continue;
		whole_init(&w, cg, e, k);
		x.event = e;
		for (size_t i = 0; i < hp->nparts; i++) {
			if (ax->track[i] == U64MAP_NONE)
				continue;
			x.bucket = ax->bucket[i];
			x.track = ax->track[i];
			part_place(&x, &w, hp, &hp->parts[i], e);
		}
		to_page(&x, from, &w, k, &added[e]);
		whole_release(&w);
	}
	*nrec = x.n;
	*moved = x.moved;
	*unplaced = x.unplaced;
	return x.rec;
}

void html_part_added_release(struct html_part_added *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].unit);
		free(a[i].parent);
	}
	free(a);
}

static int by_incl_place(const void *a, const void *b)
{
	const struct html_record *x = a, *y = b;

	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct html_record *html_parts_inclusive(const struct html_parts *hp,
					 const struct html_part_axes *ax,
					 const struct report_keep *k,
					 size_t *nrec)
{
	struct emit x = { 0 };

	for (size_t i = 0; i < hp->nparts; i++) {
		const struct html_part *pt = &hp->parts[i];

		if (ax->track[i] == U64MAP_NONE)
			continue;
		x.bucket = ax->bucket[i];
		x.track = ax->track[i];
		for (size_t j = pt->incl_from; j < pt->incl_to; j++) {
			uint32_t id = report_page_id(k, hp->incl[j].func);

			if (id == NO_ID)
				continue;
			x.event = hp->incl[j].event;
			emit(&x, id, hp->incl[j].cost, false);
		}
	}
	if (x.n)	/* parts with no cost give none, and x.rec is NULL */
		qsort(x.rec, x.n, sizeof(*x.rec), by_incl_place);
	*nrec = x.n;
	return x.rec;
}
