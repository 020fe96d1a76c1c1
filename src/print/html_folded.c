/*
 * The report's trees of a Callgrind profile with its recursion levels
 * folded (html_folded.h).
 */
#include "html_folded.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "html_data.h"

/* The name without its level into buf (grown), its length. Names are
 * taken at their length, not strlen(): a hostile file's may hold NUL
 * bytes, and two names alike up to one are two names. */
static size_t folded_name(const struct profile *p, uint32_t f, char **buf,
			  size_t *alloc)
{
	const char *name = profile_str(p, p->funcs[f].name);
	size_t len = names_len(&p->names, p->funcs[f].name);

	if (len + 1 > *alloc) {
		*alloc = len + 1;
		*buf = xreallocarray(*buf, *alloc, 1);
	}
	return fold_recursion_suffix(name, len, *buf);
}

static bool has_levels(const struct profile *p)
{
	char *buf = NULL;
	size_t alloc = 0;
	bool any = false;

	for (uint32_t f = 0; f < p->nfuncs && !any; f++)
		any = folded_name(p, f, &buf, &alloc) !=
		      names_len(&p->names, p->funcs[f].name);
	free(buf);
	return any;
}

/* p's name in q, at its length: an event named "Time\0..." beside
 * "Time" (a hostile Callgrind file's) stays an event of its own, so
 * that q has p's events, one for one (taken at strlen(), the two were
 * one event of q, and the tree of p's third read past q's totals) */
static name_id intern(struct profile *q, const struct profile *p, name_id id)
{
	if (id == NO_NAME)
		return NO_NAME;
	return names_intern(&q->names, profile_str(p, id),
			    names_len(&p->names, id));
}

/*
 * p folded into q as the Callgrind reader folds it with --fold-recursion
 * (callgrind_body.c): a function by its name without the level, file
 * and object, numbered in the order met; an arc by its two folded ends
 * (fib -> fib'2 is fib -> fib), in the order met; costs and calls
 * added. map[f]: p's function f in q.
 */
static void fold_profile(const struct profile *p, struct profile *q,
			 uint32_t *map)
{
	char *buf = NULL;
	size_t alloc = 0;

	profile_init(q);
	for (uint32_t e = 0; e < p->nevents; e++) {
		uint32_t qe = profile_event(q, intern(q, p, p->events[e].name));

		if (qe != e)
			BUG("event %u of the profile folded as %u", e, qe);
		q->events[qe].max = p->events[e].max;
		q->events[qe].unit_seconds = p->events[e].unit_seconds;
	}
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const struct pfunc *fn = &p->funcs[f];
		size_t len = folded_name(p, f, &buf, &alloc);
		uint64_t *row;
		const uint64_t *self = profile_self(p, f);

		map[f] = profile_func(q, intern(q, p, fn->object),
				      intern(q, p, fn->file),
				      names_intern(&q->names, buf, len));
		row = profile_self(q, map[f]);
		for (uint32_t e = 0; e < p->nevents; e++)
			profile_combine(q, e, &row[e], self[e]);
	}
	for (uint32_t c = 0; c < p->ncalls; c++) {
		uint32_t qc = profile_call(q, map[p->calls[c].caller],
					   map[p->calls[c].callee]);
		uint64_t *row = profile_call_incl(q, qc);

		profile_call_add_count(q, qc, profile_call_count(p, c));
		for (uint32_t e = 0; e < p->nevents; e++)
			profile_combine(q, e, &row[e],
					profile_call_incl_at(p, c, e));
	}
	q->calls_have_incl = p->calls_have_incl;
	free(buf);
	profile_finish(q);
}

static void put_num(FILE *out, double v)
{
	fprintf(out, "%.17g", v);
}

static void put_list(FILE *out, const char *key, const double *v, size_t n)
{
	fprintf(out, "\"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		put_num(out, v[i]);
	}
	fputc(']', out);
}

/*
 * One event's folded tree: the plain estimate's nodes (value: their
 * totals, as --tree --fold-recursion prints them), then the stacks'
 * (self: flame_exact_self()'s, with the nodes it adds after them). On a
 * page that leaves functions out (cut), the paths narrower than a pixel
 * of its flame graph and a node of a function it leaves out are its
 * unit of those (npage, cut.js's CUT_OTHER) with every node under it
 * (as the page's own trees merge them, not its caller's self), nodes of one
 * unit under one node are one, their costs added, and there is no
 * "self": the page's transforms take the tree's own.
 */
static void put_tree(FILE *out, const struct cg *qcg, uint32_t ev,
		     const uint32_t *page_of, uint32_t npage, bool cut)
{
	const struct profile *q = qcg->p;
	struct flame fl;
	struct u64map index;
	double *unit, *parent, *value, *vout, *self;
	uint32_t *at;
	bool *other;	/* merged into the unit of the functions left out */
	double narrow;
	size_t n0, nout = 0, nplain;

	narrow = (double)q->totals[ev] / REPORT_FLAME_PIXELS;
	/* the paths under a pixel are followed on a cut page too, to be
	 * merged below into its unit of the functions left out: a path not
	 * followed would be its caller's self, more than --tree prints */
	flame_build(&fl, qcg, ev, (double)q->totals[ev] * HTML_FLAME_MIN_SHARE,
		    HTML_FLAME_MAX_NODES);
	n0 = fl.nnodes;
	value = xcalloc(n0 + 1, sizeof(*value));
	for (size_t i = 0; i < n0; i++)
		value[i] = fl.nodes[i].total;
	if (!cut)
		flame_exact_self(&fl, qcg);
	unit = xcalloc(fl.nnodes + 1, sizeof(*unit));
	parent = xcalloc(fl.nnodes + 1, sizeof(*parent));
	self = xcalloc(fl.nnodes + 1, sizeof(*self));
	vout = xcalloc(n0 + 1, sizeof(*vout));
	at = xcalloc(fl.nnodes + 1, sizeof(*at));
	other = xcalloc(fl.nnodes + 1, sizeof(*other));
	u64map_init(&index);
	nplain = 0;
	for (size_t i = 0; i < fl.nnodes; i++) {
		const struct flame_node *n = &fl.nodes[i];
		uint32_t up = n->parent == NO_ID ? NO_ID : at[n->parent];
		uint32_t code = n->func == NO_ID ? npage + 1 + n->cycle
			: page_of[n->func] == NO_ID ? npage : page_of[n->func];
		bool added;
		uint32_t o;

		if (n->parent != NO_ID && other[n->parent]) {
			/* merged whole with its caller */
			other[i] = true;
			at[i] = up;
			self[up] += n->self;
			continue;
		}
		/* a cut page's own trees merge the frames narrower than a
		 * pixel and those of the functions it leaves out, with all
		 * under them, into its unit of those (report_keep_nodes()):
		 * so does this, so that the page stays its size */
		if (cut && n->parent != NO_ID &&
		    (code == npage || i >= n0 || value[i] < narrow)) {
			code = npage;
			other[i] = true;
		}
		o = u64map_get_or_put(&index, (uint64_t)(up + 1u) << 32 | code,
				      (uint32_t)nout, &added);
		if (added) {
			unit[o] = code > npage
				? -(double)qcg->cycles[n->cycle].number
				: (double)code;
			parent[o] = up == NO_ID ? -1 : (double)up;
			nout++;
		}
		at[i] = o;
		self[o] += n->self;
		/* the estimate's nodes' outputs come before those of any
		 * node flame_exact_self() added */
		if (i < n0) {
			vout[o] += value[i];
			nplain = nout;
		}
	}
	fputc('{', out);
	put_list(out, "unit", unit, nout);
	fputs(", ", out);
	put_list(out, "parent", parent, nout);
	fputs(", ", out);
	put_list(out, "value", vout, nplain);
	if (!cut) {
		fputs(", ", out);
		put_list(out, "self", self, nout);
	}
	fputc('}', out);
	u64map_release(&index);
	free(at);
	free(other);
	free(unit);
	free(parent);
	free(value);
	free(vout);
	free(self);
	flame_release(&fl);
}

/* ", \"key\": [[event 0's n values], ...]" */
static void put_rows(FILE *out, const char *key, const uint64_t *v,
		     size_t nevents, size_t n)
{
	fprintf(out, ", \"%s\": [", key);
	for (size_t e = 0; e < nevents; e++) {
		fputs(e ? ",\n   [" : "\n   [", out);
		for (size_t f = 0; f < n; f++)
			fprintf(out, "%s%llu", f ? "," : "",
				(unsigned long long)v[e * n + f]);
		fputc(']', out);
	}
	fputc(']', out);
}

/* "incl", "fself": per event, each page function's inclusive cost folded (its
 * folded function's where it is the first level, else 0) and self;
 * "cycle": its
 * folded cycle's number, 0 for none */
static void put_functions(FILE *out, const struct cg *qcg, const uint32_t *map,
			  const uint32_t *page_of, const struct report_keep *k,
			  size_t nfuncs, uint32_t npage)
{
	const struct profile *q = qcg->p;
	uint64_t *row = xcalloc(q->nevents + 1, sizeof(*row));
	uint64_t *incl = xcalloc((size_t)npage * q->nevents + 1, sizeof(*incl));
	uint64_t *self = xcalloc((size_t)npage * q->nevents + 1, sizeof(*self));
	double *cycle = xcalloc((size_t)npage + 1, sizeof(*cycle));

	for (uint32_t f = 0; f < nfuncs; f++) {
		uint32_t g = map[f], c = qcg->nodes[g].cycle;
		uint32_t id = report_page_id(k, f);

		if (id == NO_ID || page_of[g] != id)
			continue;	/* left out, or a level folded */
		cg_inclusive_row(qcg, g, row);
		for (uint32_t e = 0; e < q->nevents; e++) {
			incl[(size_t)e * npage + id] = row[e];
			self[(size_t)e * npage + id] = profile_self(q, g)[e];
		}
		cycle[id] = c == NO_ID ? 0 : qcg->cycles[c].number;
	}
	put_rows(out, "incl", incl, q->nevents, npage);
	put_rows(out, "fself", self, q->nevents, npage);
	fputs(",\n  ", out);
	put_list(out, "cycle", cycle, npage);
	free(row);
	free(incl);
	free(self);
	free(cycle);
}

void html_folded(FILE *out, const struct cg *cg, const struct print_opts *o,
		 const struct report_keep *k)
{
	const struct profile *p = cg->p;
	struct profile q;
	struct cg qcg;
	uint32_t *map, *page_of;
	uint32_t npage = (uint32_t)(report_keeps_all(k) ? p->nfuncs : k->nkept);
	bool *bare;

	if (!cg->child || p->nstack_values || !has_levels(p))
		return;
	map = xcalloc(p->nfuncs + 1, sizeof(*map));
	fold_profile(p, &q, map);
	/* each folded function on the page: its level of none's id (fib
	 * for fib'2), else its first level's, as levelIds() (transform.js)
	 * picks them */
	page_of = xmalloc((q.nfuncs + 1) * sizeof(*page_of));
	bare = xcalloc(q.nfuncs + 1, sizeof(*bare));
	for (size_t g = 0; g < q.nfuncs; g++)
		page_of[g] = NO_ID;
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint32_t g = map[f], id = report_page_id(k, f);
		bool none = !strcmp(profile_str(p, p->funcs[f].name),
				    profile_str(&q, q.funcs[g].name));

		if (id != NO_ID && (page_of[g] == NO_ID || (none && !bare[g]))) {
			page_of[g] = id;
			bare[g] = none;
		}
	}
	free(bare);
	cg_build(&qcg, &q, o->sort_event);
	cg_find_cycles(&qcg);
	if (cg_propagate_measured(&qcg) == 0) {
		cg_rank(&qcg);
		fputs(",\n \"folded\": {\"trees\": [", out);
		for (uint32_t e = 0; e < p->nevents; e++) {
			fputs(e ? ",\n  " : "\n  ", out);
			if (!p->events[e].max)
				put_tree(out, &qcg, e, page_of, npage,
					 !report_keeps_all(k));
			else
				fputs("null", out);
		}
		fputs("]", out);
		put_functions(out, &qcg, map, page_of, k, p->nfuncs, npage);
		fputs("}", out);
	}
	cg_release(&qcg);
	profile_release(&q);
	free(map);
	free(page_of);
}
