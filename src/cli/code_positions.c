/*
 * Which functions keep their positions whole for the disassembly
 * (code_positions.h), and the checks that the listing reads nothing
 * else of them.
 *
 * The disassembly lists code symbols: those --disasm=WHAT names, or
 * those with --threshold's share of the cost (1% by default) at their
 * instructions, and in each, every profile function with a position
 * inside it or named after it. A first read keeps each function's
 * lowest and highest address and self cost (its positions' costs add
 * up to it); a function whose range lies in one symbol puts its cost
 * there, one whose range spans several puts it in each (an upper
 * bound). Every symbol whose upper bound may make it listed is kept:
 * the functions whose range touches it or named after it, whole.
 *
 * --disasm=WHAT with its binary given lists the symbols WHAT names,
 * which needs no cost: it is first tried in one read (guess_keep()),
 * each function kept whole or not at its first position, the object
 * and load offset guessed (Callgrind gives an object's addresses as
 * its file's own: 0); the checks after reading and resolving say
 * whether that was enough, and if not the two reads follow.
 *
 * Without -b, the binary the first read opens (the header's program,
 * or the recorded object after reading) is opened into names of its
 * own and kept (struct kept_binary), so that the resolution after the
 * read takes it (code_positions_take()) instead of opening the same
 * file again: on a big -g program, loading its symbols and lines is
 * much of the run.
 */
#include "code_positions.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/names.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "hot_files.h"
#include "print/report_disasm.h"
#include "profile/pos_select.h"
#include "read/read.h"
#include "select/name_match.h"
#include "select/symspec.h"

/* The listings for which the disassembly alone reads positions: hers
 * (--disasm), or with the annotated source, the report's; not where the
 * listing reads them otherwise (--focus, -p SPEC, --inlined=callee, ...). */
static bool wanted(const struct options *o)
{
	if (o->all_positions || o->nspecs || o->diff || o->ntransforms ||
	    o->inline_calls || o->inlined_callee || o->nbinaries > 1 ||
	    o->mode == OUT_CALLGRIND)
		return false;
	if (o->mode == OUT_HTML)
		return !o->disasm && !o->annotate_what;
	return o->disasm && !o->annotate;
}

/* What the one read keeps whole (guess_keep()), alive while it reads. */
struct guess {
	const struct symtab *st;
	struct symtab *own;		/* st, when this opened it */
	const char *what;
	uint8_t *req;			/* per symbol: listed */
	uint64_t lo, hi;		/* [lo, hi): the listed symbols' code
					 * in the profile's addresses, all
					 * within (lo > hi: none) */
	uint64_t off;
	uint64_t *bounds;		/* the regions (make_regions()) */
	uint8_t *in_seg;
	uint32_t *sym_of, nb;
};

static void guess_free(struct guess *g)
{
	if (!g)
		return;
	if (g->own) {
		symtab_release(g->own);
		free(g->own);
	}
	free(g->req);
	free(g->bounds);
	free(g->in_seg);
	free(g->sym_of);
	free(g);
}

/* A binary opened before or for the first read, into names of its own,
 * its opening's messages held: renamed into the first read's, and into
 * the profile's when it is taken for the resolution (its messages said
 * then). */
struct kept_binary {
	struct arena arena;
	struct names names;
	struct symtab *st;
	name_id *ids;	/* its own names' ids in the table st now has
			 * (NULL: its own) */
	char *said;	/* what its opening said (open_binary()'s
			 * messages, as they were written) */
	size_t said_len;
	char *opened_as;	/* the path it was opened by, which they
				 * name */
};

static void kept_free(struct kept_binary *k)
{
	if (!k)
		return;
	if (k->st) {
		symtab_release(k->st);
		free(k->st);
	}
	names_release(&k->names);
	arena_release(&k->arena);
	free(k->ids);
	free(k->said);
	free(k->opened_as);
	free(k);
}

/* Hold the run's messages from now, in a new memstream. */
static bool hold(struct code_positions *cp)
{
	cp->held = open_memstream(&cp->text, &cp->len);
	if (!cp->held)
		return false;
	diag_set_sink(cp->held);
	return true;
}

void code_positions_begin(struct code_positions *cp, const struct options *o)
{
	memset(cp, 0, sizeof(*cp));
	cp->show = o->show_positions;
	cp->wanted = wanted(o) && hot_files_rereadable(o);
	if (!cp->wanted)
		return;
	cp->sink = diag_sink();
	if (!hold(cp))
		cp->wanted = false;
}

bool code_positions_retry(struct code_positions *cp)
{
	if (!cp->guessed || !cp->held)
		return false;
	fclose(cp->held);
	free(cp->text);
	cp->held = NULL;
	cp->text = NULL;
	cp->len = 0;
	if (!hold(cp)) {
		diag_set_sink(cp->sink == stderr ? NULL : cp->sink);
		return false;
	}
	guess_free(cp->guess);
	cp->guess = NULL;
	kept_free(cp->kept_bin);
	cp->kept_bin = NULL;
	free(cp->object);
	cp->object = NULL;
	cp->guessed = false;
	cp->no_guess = true;
	cp->active = false;
	cp->kept = cp->funcs = 0;
	return true;
}

void code_positions_end(struct code_positions *cp, bool replay)
{
	bool show = cp->show;

	if (cp->held) {
		diag_set_sink(cp->sink == stderr ? NULL : cp->sink);
		fclose(cp->held);
		if (replay && cp->len)
			fwrite(cp->text, 1, cp->len,
			       cp->sink ? cp->sink : stderr);
		free(cp->text);
	}
	if (show && cp->active)
		fprintf(stderr, "cganalyze: positions: %s (%u of %u functions "
			"kept whole)\n",
			!replay ? "read again" :
			cp->guessed ? "selected in one read" :
			cp->by_region ? "selected by region" : "selected",
			cp->kept, cp->funcs);
	if (show && cp->active && cp->first_again)
		fprintf(stderr, "cganalyze: positions: the first read made "
			"again by 32 bytes of code\n");
	guess_free(cp->guess);
	kept_free(cp->kept_bin);
	free(cp->object);
	memset(cp, 0, sizeof(*cp));
	cp->show = show;
}

static bool code_sym(const struct sym *s)
{
	return s->kind != SYM_OBJECT && s->end > s->addr;
}

static bool in_object(const struct profile *p, uint32_t f, name_id ob)
{
	return ob == NO_NAME || p->funcs[f].object == ob;
}

/* The code symbol at a (the profile's address, load offset off), as
 * the disassembly's sym_at() finds it: its index, or NO_ID. */
static uint32_t code_sym_at(const struct symtab *st, uint64_t a,
			    uint64_t off)
{
	const struct sym *s = symtab_lookup(st, a - off);

	return s && code_sym(s) ? (uint32_t)(s - st->syms) : NO_ID;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/*
 * The binary's regions in the profile's addresses: bounds at every
 * symbol's start and end and every segment's, so that the symbol and
 * segment an address is in are the same all through a region.
 * *sym_of gets each region's code symbol (NO_ID: none).
 */
static void make_regions(const struct symtab *st, uint64_t off,
			 uint64_t **bounds, uint8_t **in_seg,
			 uint32_t **sym_of, uint32_t *n)
{
	size_t cap = 2 * (st->nsyms + st->nsegs) + 1, k = 0, m = 0;
	uint64_t *b = xcalloc(cap, sizeof(*b));

	for (size_t i = 0; i < st->nsyms; i++) {
		b[k++] = st->syms[i].addr + off;
		b[k++] = st->syms[i].end + off;
	}
	for (size_t i = 0; i < st->nsegs; i++) {
		b[k++] = st->segs[i].vaddr + off;
		b[k++] = st->segs[i].vaddr + st->segs[i].memsz + off;
	}
	qsort(b, k, sizeof(*b), cmp_u64);
	for (size_t i = 0; i < k; i++)
		if (!m || b[i] != b[m - 1])
			b[m++] = b[i];
	*in_seg = xcalloc(m + 1, sizeof(**in_seg));
	*sym_of = xcalloc(m + 1, sizeof(**sym_of));
	for (size_t i = 0; i + 1 < m; i++) {
		(*in_seg)[i] = symtab_segment(st, b[i] - off) != NULL;
		(*sym_of)[i] = code_sym_at(st, b[i], off);
	}
	*bounds = b;
	*n = (uint32_t)m;
}

/* The region of a (as pos_select's find_region()), or NO_ID. */
static uint32_t region_of(const uint64_t *b, uint32_t n, uint64_t a)
{
	uint32_t lo = 0, hi = n;

	if (!n || a < b[0] || a >= b[n - 1])
		return NO_ID;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (b[mid] <= a)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void combine_row(const struct profile *p, uint64_t *to,
			const uint64_t *from)
{
	for (size_t e = 0; e < p->nevents; e++)
		profile_combine(p, e, &to[e], from[e]);
}

/* Each event's total as profile_finish() makes it: the self costs. */
static uint64_t *self_totals(const struct profile *p)
{
	uint64_t *t = xcalloc(p->stride + 1, sizeof(*t));

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const uint64_t *row = profile_self(p, f);

		for (size_t e = 0; e < p->nevents; e++) {
			if (profile_event_max(p, e))
				t[e] = row[e] > t[e] ? row[e] : t[e];
			else
				t[e] = t[e] + row[e] < t[e] ? UINT64_MAX
							     : t[e] + row[e];
		}
	}
	return t;
}

/* The code symbols WHAT names, into req[]. */
static void mark_named(const struct symtab *st, const char *what,
		       uint8_t *req)
{
	for (size_t s = 0; s < st->nsyms; s++) {
		const struct sym *sy = &st->syms[s];

		if (code_sym(sy) &&
		    ((sy->name != NO_NAME &&
		      symspec_name_matches(what, names_str(st->names,
							   sy->name))) ||
		     (sy->raw != NO_NAME &&
		      symspec_name_matches(what, names_str(st->names,
							   sy->raw)))))
			req[s] = 1;
	}
}

/*
 * The code symbols the disassembly may list (req[], by index), given
 * each's cost (rows of p->stride; at least the true cost): those WHAT
 * names, else those with the threshold's share of some event.
 */
static void mark_required(const struct profile *p, const struct symtab *st,
			  name_id ob, const uint64_t *cost,
			  const struct options *o, uint8_t *req)
{
	const char *what = o->disasm_what;

	if (what) {
		mark_named(st, what, req);
		for (uint32_t f = 0; f < p->nfuncs; f++) {
			const struct sym *sy;

			if (!in_object(p, f, ob) ||
			    !symspec_name_or_demangled_matches(
				    what, profile_str(p, p->funcs[f].name)))
				continue;
			sy = resolve_named_sym(p, st, f);
			if (sy && code_sym(sy))
				req[sy - st->syms] = 1;
		}
		return;
	}
	{
		double thr = o->threshold_given ? o->threshold : 1.0;
		uint64_t *total = self_totals(p);

		for (size_t s = 0; s < st->nsyms; s++)
			for (size_t e = 0; e < p->nevents; e++) {
				uint64_t c = cost[s * p->stride + e];

				if (c && (double)c * 100.0 >=
						 thr * (double)total[e]) {
					req[s] = 1;
					break;
				}
			}
		free(total);
	}
}

/* Read the inputs into q, each function's range kept, its costs by
 * 32 bytes of code or, where ps has the binary's regions, by region;
 * false when one cannot be read (the real read says why). */
static bool first_read(struct profile *q, const struct read_opts *ro,
		       const struct options *o, struct pos_select *ps)
{
	struct read_opts fo = *ro;
	bool ok = true;

	/* no call arcs: a call's line is a position, but its address has
	 * the call instruction's own cost line too (and the second read
	 * checks what this one guesses) */
	fo.want_positions = true;
	fo.no_callsites = true;
	fo.no_calls = true;
	/* no jumps: kept only where positions are whole, none here */
	fo.no_jumps = true;
	fo.want_func_addrs = false;
	fo.want_stacks = false;
	q->pos_detail = POS_SELECT;
	q->pos_select = ps ? ps : pos_select_new();
	q->pos_select->no_counts = true;
	for (int i = 0; ok && i < o->ninputs; i++)
		ok = read_profile(q, o->inputs[i], &fo) == 0;
	pos_select_finish(q->pos_select);
	if (ok)
		profile_finish(q);
	return ok;
}

/* The report's Disassembly lists what report_disasm_count() says. */
struct sym_cost {
	uint64_t cost, addr;
	uint32_t sym;
};

/* disasm_pick()'s order: the cost, then the address */
static int cmp_sym_cost(const void *x, const void *y)
{
	const struct sym_cost *a = x, *b = y;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* Symbols with a cost of event e (cost rows of stride), into v. */
static size_t costly(const struct symtab *st, const uint64_t *cost,
		     size_t stride, size_t e, struct sym_cost *v)
{
	size_t n = 0;

	for (size_t s = 0; s < st->nsyms; s++)
		if (cost[s * stride + e])
			v[n++] = (struct sym_cost){ cost[s * stride + e],
						    st->syms[s].addr,
						    (uint32_t)s };
	return n;
}

/* The report's Disassembly for the exact costs, under every event (the
 * sort event among them), into req[]. */
static void html_required(const struct profile *p, const struct symtab *st,
			  const uint64_t *cost, double thr, uint8_t *req)
{
	uint64_t *total = self_totals(p);
	struct sym_cost *v = xcalloc(st->nsyms + 1, sizeof(*v));
	uint64_t *c = xcalloc(st->nsyms + 1, sizeof(*c));
	uint64_t *size = xcalloc(st->nsyms + 1, sizeof(*size));

	for (size_t e = 0; e < p->nevents; e++) {
		size_t n = costly(st, cost, p->stride, e, v), k;

		qsort(v, n, sizeof(*v), cmp_sym_cost);
		for (size_t i = 0; i < n; i++) {
			const struct sym *sy = &st->syms[v[i].sym];

			c[i] = v[i].cost;
			size[i] = sy->end - sy->addr;
		}
		k = report_disasm_count(c, size, n, total[e], thr);
		for (size_t i = 0; i < k; i++)
			req[v[i].sym] = 1;
	}
	free(c);
	free(size);
	free(v);
	free(total);
}

/*
 * From bounds of each symbol's cost (lower <= true <= upper), the
 * symbols the report may list: those that may pass the threshold, and
 * those that may be among the hottest it lists past them. By
 * report_disasm_count()'s rule it lists at most (those past the
 * threshold) + REPORT_DISASM_MAX, each at least as costly as the that
 * many-th lower bound, and at least as costly as the lower bound at
 * which the greatest lower bounds' code passes REPORT_DISASM_CODE.
 * (Were the rule to list more, the check after
 * resolution would find a listed symbol not kept whole and read again:
 * slower, never wrong.)
 */
static void html_candidates(const struct profile *p, const struct symtab *st,
			    const uint64_t *upper, const uint64_t *lower,
			    double thr, uint8_t *req)
{
	uint64_t *total = self_totals(p);
	struct sym_cost *v = xcalloc(st->nsyms + 1, sizeof(*v));
	size_t stride = p->stride;

	for (size_t e = 0; e < p->nevents; e++) {
		size_t kmax = REPORT_DISASM_MAX, n;
		uint64_t least;

		for (size_t s = 0; s < st->nsyms; s++)
			kmax += (double)upper[s * stride + e] * 100.0 >=
				thr * (double)total[e];
		n = costly(st, lower, stride, e, v);
		qsort(v, n, sizeof(*v), cmp_sym_cost);
		least = n >= kmax ? v[kmax - 1].cost : 0;
		/* and its machine code: the symbols of the greatest lower
		 * bounds, down to the m-th, are more than it lists past the
		 * threshold; one less costly than that m-th bound would come
		 * after all of them, past the limit */
		for (size_t i = 0, code = 0; i < n; i++) {
			const struct sym *sy = &st->syms[v[i].sym];

			code += sy->end - sy->addr;
			if (code > REPORT_DISASM_CODE) {
				if (v[i].cost > least)
					least = v[i].cost;
				break;
			}
		}
		for (size_t s = 0; s < st->nsyms; s++) {
			uint64_t u = upper[s * stride + e];

			if (u && (u >= least ||
				  (double)u * 100.0 >= thr * (double)total[e]))
				req[s] = 1;
		}
	}
	free(v);
	free(total);
}

/* The regions [*k, *kh] function f's range touches (false: none). */
static bool func_regions(const struct pos_select *ps, uint32_t f,
			 const uint64_t *bounds, uint32_t nb, uint32_t *k,
			 uint32_t *kh)
{
	uint64_t lo = ps->lo[f], hi = ps->hi[f];

	if (!lo || nb < 2 || hi < bounds[0] || lo >= bounds[nb - 1])
		return false;
	*k = lo < bounds[0] ? 0 : region_of(bounds, nb, lo);
	*kh = hi >= bounds[nb - 1] ? nb - 2 : region_of(bounds, nb, hi);
	return true;
}

/*
 * From the first read q by 32 bytes of code: the symbols the listing
 * may list (req[]), by bounds of each symbol's cost.
 */
static void bounded_required(const struct profile *q, const struct symtab *st,
			     name_id ob, const uint64_t *bounds, uint32_t nb,
			     const uint32_t *sym_of, const struct options *o,
			     uint8_t *req)
{
	size_t stride = q->stride;
	uint64_t *upper = xcalloc(st->nsyms * stride + 1, sizeof(*upper));
	uint64_t *lower = xcalloc(st->nsyms * stride + 1, sizeof(*lower));
	double thr = o->threshold_given ? o->threshold : 1.0;

	/* each symbol's cost from the first read's, by 32 bytes of code:
	 * all of them for each symbol they touch, at most; those within one
	 * symbol, at least */
	for (size_t i = 0; i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];
		uint64_t lo = qp->addr & ~(uint64_t)31, hi = lo + 31;
		uint32_t k, kh, last = NO_ID, nsym = 0;
		bool gap;

		if (!qp->addr || !in_object(q, qp->func, ob) || nb < 2 ||
		    hi < bounds[0] || lo >= bounds[nb - 1])
			continue;
		gap = lo < bounds[0] || hi >= bounds[nb - 1];
		k = lo < bounds[0] ? 0 : region_of(bounds, nb, lo);
		kh = hi >= bounds[nb - 1] ? nb - 2 : region_of(bounds, nb, hi);
		for (; k <= kh; k++) {
			uint32_t sy = sym_of[k];

			if (sy == NO_ID) {
				gap = true;
				continue;
			}
			if (sy == last)
				continue;
			last = sy;
			nsym++;
			combine_row(q, upper + sy * stride,
				    profile_pos_cost(q, (uint32_t)i));
		}
		if (nsym == 1 && !gap)
			combine_row(q, lower + last * stride,
				    profile_pos_cost(q, (uint32_t)i));
	}
	if (o->mode == OUT_HTML)
		html_candidates(q, st, upper, lower, thr, req);
	else
		mark_required(q, st, ob, upper, o, req);
	free(upper);
	free(lower);
}

/*
 * From a first read q by the binary's regions: the symbols the listing
 * lists (req[]), each symbol's cost exact: the sum of its regions' rows
 * of the object, as code_positions_resolved_ok() counts it after the
 * second read.
 */
static void exact_required(const struct profile *q, const struct symtab *st,
			   name_id ob, const uint32_t *sym_of, uint32_t nb,
			   const struct options *o, uint8_t *req)
{
	size_t stride = q->stride;
	uint64_t *cost = xcalloc(st->nsyms * stride + 1, sizeof(*cost));

	for (size_t i = 0; i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];
		uint32_t sy;

		if (qp->region < 2 || qp->region - 2 + 1 >= nb ||
		    !in_object(q, qp->func, ob) ||
		    (sy = sym_of[qp->region - 2]) == NO_ID)
			continue;
		combine_row(q, cost + sy * stride,
			    profile_pos_cost(q, (uint32_t)i));
	}
	if (o->mode == OUT_HTML)
		html_required(q, st, cost,
			      o->threshold_given ? o->threshold : 1.0, req);
	else
		mark_required(q, st, ob, cost, o, req);
	free(cost);
}

/*
 * From the first read q by region and the symbols the listing lists
 * (req[]): the functions with a position in one, or named after one,
 * and those read in two blocks, kept whole in ps. (A function's range
 * may span other symbols' code, which keep_touching() would keep.)
 */
static void keep_exact(const struct profile *q, const struct symtab *st,
		       name_id ob, const uint32_t *sym_of, uint32_t nb,
		       const uint8_t *req, struct pos_select *ps)
{
	const struct pos_select *q_ps = q->pos_select;
	uint8_t *keep = xcalloc(q->nfuncs + 1, sizeof(*keep));

	for (size_t i = 0; i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];
		uint32_t sy;

		if (qp->region >= 2 && qp->region - 2 + 1 < nb &&
		    (sy = sym_of[qp->region - 2]) != NO_ID && req[sy])
			keep[qp->func] = 1;
	}
	for (uint32_t f = 0; f < q->nfuncs; f++) {
		uint8_t s = pos_select_state(q_ps, f);
		const struct pfunc *fn = &q->funcs[f];

		if (!(s & PS_POSITIONS) || !in_object(q, f, ob))
			continue;
		if (!keep[f] && !(s & PS_REOPENED)) {
			const struct sym *sy = resolve_named_sym(q, st, f);

			if (!sy || !req[sy - st->syms])
				continue;
		}
		pos_select_keep(ps, profile_str(q, fn->object),
				names_len(&q->names, fn->object),
				profile_str(q, fn->name),
				names_len(&q->names, fn->name));
	}
	free(keep);
}

/*
 * From the first read q and the symbols the listing may list (req[]):
 * the functions whose range touches one, or named after one, and those
 * read in two blocks, kept whole in ps.
 */
static void keep_touching(const struct profile *q, const struct symtab *st,
			  name_id ob, const uint64_t *bounds, uint32_t nb,
			  const uint32_t *sym_of, const uint8_t *req,
			  struct pos_select *ps)
{
	const struct pos_select *q_ps = q->pos_select;

	for (uint32_t f = 0; f < q->nfuncs; f++) {
		uint8_t s = pos_select_state(q_ps, f);
		uint32_t k, kh;
		bool keep = s & PS_REOPENED;
		const struct pfunc *fn = &q->funcs[f];

		if (!(s & PS_POSITIONS) || !in_object(q, f, ob))
			continue;
		if (!keep) {
			const struct sym *sy = resolve_named_sym(q, st, f);

			keep = sy && req[sy - st->syms];
		}
		if (!keep && func_regions(q_ps, f, bounds, nb, &k, &kh))
			for (; k <= kh && !keep; k++)
				keep = sym_of[k] != NO_ID && req[sym_of[k]];
		if (keep)
			pos_select_keep(
				ps,
				fn->object == NO_NAME ? "" : profile_str(q, fn->object),
				fn->object == NO_NAME ? 0
						      : names_len(&q->names, fn->object),
				profile_str(q, fn->name),
				names_len(&q->names, fn->name));
	}
}

/* Whether the report of q would have a Disassembly of the object the
 * profile records (analyze.c's recorded_binary()): its path, or NULL. */
static const char *recorded_path(const struct profile *q, const char *what)
{
	uint32_t f = recorded_object_func(q, what);
	const char *path;
	struct stat sb;

	if (f == NO_ID)
		return NULL;
	path = profile_str(q, q->funcs[f].object);
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? path : NULL;
}

/* Symbol s listed: req[] and the envelope of the listed. */
static void guess_list(struct guess *g, const struct sym *sy)
{
	uint64_t lo = sy->addr + g->off, hi = sy->end + g->off;

	g->req[sy - g->st->syms] = 1;
	if (g->lo > g->hi || lo < g->lo)
		g->lo = lo;
	if (g->lo > g->hi || hi > g->hi)
		g->hi = hi;
}

/*
 * pos_select's keep_first for the one read: function f of the object
 * at its first position (address addr) is kept whole when
 * choose_kept() would keep it, as far as its name and first address
 * say: WHAT names it (its symbol is then listed: mark_required()), or
 * it is named after a listed symbol, or its first address is in one.
 * A function with a position in a listed symbol elsewhere is not kept
 * whole, which the check after resolution finds.
 */
static bool guess_keep(void *ctx, const struct profile *p, uint32_t f,
		       uint64_t addr, bool in_object)
{
	struct guess *g = ctx;
	const struct symtab *st = g->st;
	const struct sym *sy;
	uint32_t k;

	if (!in_object)
		return false;
	sy = resolve_named_sym(p, st, f);
	if (symspec_name_or_demangled_matches(g->what,
					      profile_str(p, p->funcs[f].name))) {
		if (sy && code_sym(sy))
			guess_list(g, sy);
		return true;
	}
	if (sy && g->req[sy - st->syms])
		return true;
	/* most functions are far from the few symbols listed */
	return addr >= g->lo && addr < g->hi &&
	       (k = region_of(g->bounds, g->nb, addr)) != NO_ID &&
	       g->sym_of[k] != NO_ID && g->req[g->sym_of[k]];
}

/*
 * The program the profile's header names (cmd:), when it is a file
 * here; malloc'd. A relative name (valgrind writes the command as
 * typed: "./prog") is made whole from the current directory, as the
 * kernel would have found it, with its links followed: Callgrind's ob=
 * lines name the objects by the whole path the kernel mapped them
 * from, and the object is guessed and checked by that name.
 */
static char *header_program(const struct options *o)
{
	char *prog, *whole;
	struct stat sb;

	if (o->ninputs != 1 || !(prog = callgrind_file_program(o->inputs[0])))
		return NULL;
	if (stat(prog, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		free(prog);
		return NULL;
	}
	if (prog[0] != '/' && (whole = realpath(prog, NULL))) {
		free(prog);
		prog = whole;
	}
	return prog;
}

/*
 * Without -b, the binary of the program the profile's header names
 * (cmd:), opened into names with its messages dropped: the object the
 * disassembly finds after reading (that of the costliest function WHAT
 * names, or the report's recorded object) is checked against it then.
 * NULL: none here.
 */
static struct symtab *header_binary(struct names *names,
				    const struct options *o)
{
	char *prog;
	struct symtab *st = NULL;
	FILE *quiet, *sink = diag_sink();

	if (!(prog = header_program(o)))
		return NULL;
	if ((quiet = fopen("/dev/null", "w"))) {
		diag_set_sink(quiet);
		if (open_binary(o, names, prog, &st) < 0)
			st = NULL;
		diag_set_sink(sink == stderr ? NULL : sink);
		fclose(quiet);
	}
	free(prog);
	return st;
}

/* path opened into names of its own, its messages held; NULL when it
 * cannot be opened. */
static struct kept_binary *kept_open(const struct options *o,
				     const char *path)
{
	struct kept_binary *k = xcalloc(1, sizeof(*k));
	FILE *held = open_memstream(&k->said, &k->said_len);
	FILE *sink = diag_sink();

	if (!held) {
		free(k);
		return NULL;
	}
	arena_init(&k->arena);
	names_init(&k->names, &k->arena);
	diag_set_sink(held);
	if (open_binary(o, &k->names, path, &k->st) < 0)
		k->st = NULL;
	diag_set_sink(sink == stderr ? NULL : sink);
	fclose(held);
	k->opened_as = xstrdup(path);
	if (!k->st) {
		kept_free(k);
		return NULL;
	}
	return k;
}

/*
 * k's own names interned into names, in the order of their ids, and its
 * table renamed to them: as if it had been opened into names now
 * (symtab_rename()), wherever it was renamed to before.
 */
static struct symtab *kept_rename(struct kept_binary *k, struct names *names)
{
	size_t n = k->names.nr;
	bool *skip = xcalloc(n + 1, sizeof(*skip));
	name_id *ids = xmalloc((n + 1) * sizeof(*ids)), *map = ids;
	name_id top = 0;

	names_intern_from(names, &k->names, skip, ids);
	if (k->ids) {
		/* from the ids it has now to the new ones */
		for (size_t i = 0; i < n; i++)
			if (k->ids[i] != NO_NAME && k->ids[i] >= top)
				top = k->ids[i] + 1;
		map = xmalloc(((size_t)top + 1) * sizeof(*map));
		for (size_t i = 0; i <= top; i++)
			map[i] = NO_NAME;
		for (size_t i = 0; i < n; i++)
			if (k->ids[i] != NO_NAME)
				map[k->ids[i]] = ids[i];
	}
	symtab_rename(k->st, names, map);
	if (map != ids)
		free(map);
	free(skip);
	free(k->ids);
	k->ids = ids;
	return k->st;
}

/* Whether open_binary() of path would open what k holds: the same
 * name, or the same file under the same base name with its DWARF in
 * it (no debug file looked for beside it). */
static bool kept_is(const struct kept_binary *k, const char *path)
{
	const char *kp = k->st->path;
	char a[PATH_MAX], b[PATH_MAX];

	if (!strcmp(kp, path))
		return true;
	return (!k->st->debug_path || !strcmp(k->st->debug_path, kp)) &&
	       !strcmp(path_base(kp), path_base(path)) &&
	       realpath(kp, a) && realpath(path, b) && !strcmp(a, b);
}

/* cp's kept binary as open_binary() of path into names would give it
 * (k still holds it), or NULL. */
static struct symtab *kept_use(struct code_positions *cp, const char *path,
			       struct names *names)
{
	struct kept_binary *k = cp->kept_bin;
	struct symtab *st;

	if (!k || !k->st || !kept_is(k, path))
		return NULL;
	st = kept_rename(k, names);
	if (st->debug_path && !strcmp(st->debug_path, st->path)) {
		free(st->debug_path);
		st->debug_path = xstrdup(path);
	}
	free(st->path);
	st->path = xstrdup(path);
	return st;
}

/*
 * open_binary() of path into names (the first read's), the table kept
 * in cp for the resolution after the read (code_positions_take()) unless
 * it is a separate debug file; NULL when it cannot be opened. Its
 * messages are held for that, not said here (the first read's are
 * dropped).
 */
static struct symtab *open_kept(struct code_positions *cp,
				const struct options *o, const char *path,
				struct names *names)
{
	struct kept_binary *k = kept_open(o, path);
	struct symtab *st;

	if (!k)
		return NULL;
	st = kept_rename(k, names);
	if (st->debug_only) {
		k->st = NULL;
		kept_free(k);
		return st;
	}
	kept_free(cp->kept_bin);
	cp->kept_bin = k;
	return st;
}

/* open_binary() of path into names (the first read's), without -b the
 * table cp keeps where it can: the table, or NULL. */
static struct symtab *open_q(struct code_positions *cp,
			     const struct options *o, struct names *names,
			     const char *path)
{
	struct symtab *st;

	if (o->nbinaries)
		return open_binary(o, names, path, &st) < 0 ? NULL : st;
	st = kept_use(cp, path, names);
	return st ? st : open_kept(cp, o, path, names);
}

/* st released unless cp keeps it. */
static void drop_binary(struct code_positions *cp, struct symtab *st)
{
	if (!st || (cp->kept_bin && cp->kept_bin->st == st))
		return;
	symtab_release(st);
	free(st);
}

/*
 * The report's and --disasm's header_binary() (kept_open()): with DWARF
 * lines, the report has no first read by regions and resolves against
 * this binary after reading: it is kept in its own names (NULL
 * returned); otherwise renamed into names, as header_binary() would
 * have opened it, and kept too (not a separate debug file).
 */
static struct symtab *header_binary_kept(struct code_positions *cp,
					 struct names *names,
					 const struct options *o)
{
	struct kept_binary *k;
	struct symtab *st;
	char *prog;

	if (!(prog = header_program(o)))
		return NULL;
	k = kept_open(o, prog);
	free(prog);
	if (!k)
		return NULL;
	if (k->st->debug_only) {
		st = kept_rename(k, names);
		k->st = NULL;
		kept_free(k);
		return st;
	}
	kept_free(cp->kept_bin);
	cp->kept_bin = k;
	if (o->mode == OUT_HTML && k->st->nlines)
		return NULL;
	return kept_rename(k, names);
}

struct symtab *code_positions_take(struct code_positions *cp,
				   const char *path, struct names *names)
{
	struct kept_binary *k = cp->kept_bin;
	struct symtab *st;

	/* what its opening said, said as open_binary() of path says it:
	 * the messages name the path they were opened by */
	if (k && k->st && k->said_len && strcmp(k->opened_as, path))
		return NULL;
	if (!(st = kept_use(cp, path, names)))
		return NULL;
	if (k->said_len)
		fwrite(k->said, 1, k->said_len, diag_sink());
	cp->kept_bin->st = NULL;
	kept_free(cp->kept_bin);
	cp->kept_bin = NULL;
	return st;
}

/* --disasm=WHAT with its binary (bin: -b's, or NULL: the header's):
 * make p keep whole, in one read, what guess_keep() says (false: not
 * this way). */
static bool guess(struct code_positions *cp, struct profile *p,
		  const struct symtab *bin, const struct options *o,
		  const struct resolve_opts *rso)
{
	struct guess *g;
	struct pos_select *ps;
	struct symtab *own = NULL;
	const struct symtab *st = bin;
	const char *base;

	if (o->mode == OUT_HTML || !o->disasm_what || o->nbinaries > 1 ||
	    (o->nbinaries && !bin) || o->positions_again || cp->no_guess)
		return false;
	if (!st && !(st = own = header_binary(&p->names, o)))
		return false;
	g = xcalloc(1, sizeof(*g));
	g->st = st;
	g->own = own;
	g->what = o->disasm_what;
	g->req = xcalloc(st->nsyms + 1, sizeof(*g->req));
	mark_named(st, g->what, g->req);
	cp->offset = rso->have_load_offset ? rso->load_offset : 0;
	g->off = cp->offset;
	g->lo = 1;
	g->hi = 0;
	for (size_t i = 0; i < st->nsyms; i++)
		if (g->req[i])
			guess_list(g, &st->syms[i]);
	make_regions(st, cp->offset, &g->bounds, &g->in_seg, &g->sym_of,
		     &g->nb);
	ps = pos_select_new();
	pos_select_regions(ps, NULL, g->bounds, g->in_seg, g->nb);
	/* as resolution's match_object() finds it, but for a link's name;
	 * without -b, the recorded object's whole name */
	base = own ? own->path
		   : rso->objects && rso->objects[0] ? rso->objects[0]
						     : path_base(st->path);
	pos_select_object_base(ps, base);
	ps->keep_first = guess_keep;
	ps->keep_ctx = g;
	ps->stop_when_refused = true;
	p->pos_detail = POS_SELECT;
	p->pos_select = ps;
	cp->guess = g;
	cp->guessed = true;
	cp->active = true;
	return true;
}

/* What region_read() read. */
enum region_way {
	BY_REGION,	/* by region, the guess right */
	BY_PIECES,	/* the binary's object another than the one
			 * guessed, or none: its rows are by 32 bytes of
			 * code, as first_read() without regions makes them */
	READ_AGAIN,	/* not this way: q to be read again */
	READ_FAILED,	/* the input cannot be read */
};

/*
 * The first read by the binary's regions, where the binary is known
 * before it (-b, or the program the profile's header names, which the
 * report and --disasm without -b list when it is the recorded object):
 * its load offset assumed (--load-offset, or 0: Callgrind gives an
 * object's addresses as its file's own) and its object guessed by name,
 * as guess() does. Each symbol's cost is then exact, and the functions
 * kept whole are those of the symbols listed, not of every symbol that
 * may be. Every other object's rows are by 32 bytes of code: where the
 * binary's object turns out to be another (the recorded object a
 * library's, a binary under another name), q is as first_read()
 * without regions makes it. Into q (empty); *stp the binary opened into
 * q's names (BY_REGION), *ob its object, *off its offset.
 */
static enum region_way region_read(struct code_positions *cp,
				   struct profile *q,
				   const struct read_opts *ro,
				   const struct options *o,
				   const struct resolve_opts *rso,
				   struct symtab **stp, name_id *ob,
				   uint64_t *off)
{
	bool html = o->mode == OUT_HTML;
	struct symtab *st = NULL;
	struct pos_select *ps;
	uint64_t *bounds = NULL, got_off;
	uint8_t *in_seg = NULL;
	uint32_t *sym_of = NULL, nb = 0;
	const char *base, *path, *guessed;
	name_id got_ob;
	enum region_way way = READ_AGAIN;

	if (o->nbinaries > 1 || o->positions_again ||
	    getenv("CGANALYZE_NO_REGION_READ"))
		return READ_AGAIN;
	if (o->nbinaries) {
		if (open_binary(o, &q->names, o->binaries[0], &st) < 0)
			return READ_AGAIN;
	} else if (!(st = header_binary_kept(cp, &q->names, o))) {
		/* the report's with lines kept for after the read */
		return READ_AGAIN;
	}
	/* the binary's lines go to the positions with none (resolve.c),
	 * which the report's annotated source shows: every position */
	if (html && st->nlines)
		goto out;
	*off = rso->have_load_offset ? rso->load_offset : 0;
	make_regions(st, *off, &bounds, &in_seg, &sym_of, &nb);
	ps = pos_select_new();
	pos_select_regions(ps, NULL, bounds, in_seg, nb);
	free(bounds);
	free(in_seg);
	free(sym_of);
	base = !o->nbinaries ? st->path
	       : rso->objects && rso->objects[0] ? rso->objects[0]
						 : path_base(st->path);
	pos_select_object_base(ps, base);
	if (!first_read(q, ro, o, ps)) {
		way = READ_FAILED;
		goto out;
	}
	/* profile_finish() dropped the table resolve_named_sym() finds the
	 * symbols' names by (they are q's names): an intern builds it again */
	names_intern(&q->names, st->path, strlen(st->path));
	guessed = q->pos_select->object;
	/* a function of no object taken for the binary's: its rows are by
	 * region, whatever the binary's object is */
	if (q->pos_select->noname_in)
		goto out;
	way = BY_PIECES;
	/* without -b, the object the listing takes after reading */
	path = o->nbinaries ? st->path
	       : recorded_path(q, html ? NULL : o->disasm_what);
	if (!guessed || !q->has_instr || !path || strcmp(path, st->path) ||
	    resolve_guess_offset(q, st, rso, &got_ob, &got_off) < 0 ||
	    got_ob == NO_NAME || strcmp(profile_str(q, got_ob), guessed))
		goto out;
	/* the guessed object's rows are by regions at another offset */
	if (got_off != *off) {
		way = READ_AGAIN;
		goto out;
	}
	*ob = got_ob;
	*stp = st;
	return BY_REGION;
out:
	drop_binary(cp, st);
	return way;
}

bool code_positions_choose(struct code_positions *cp, struct profile *p,
			   const struct read_opts *ro,
			   const struct options *o,
			   const struct resolve_opts *rso,
			   const struct symtab *bin)
{
	bool html = o->mode == OUT_HTML, handled = false, by_region;
	enum region_way way;
	double thr = o->threshold_given ? o->threshold : 1.0;
	struct profile q;
	struct symtab *st = NULL;
	struct pos_select *ps = NULL;
	const char *path = NULL;
	uint64_t *bounds = NULL, off = 0;
	uint8_t *in_seg = NULL, *req = NULL;
	uint32_t *sym_of = NULL, nb = 0;
	name_id ob = NO_NAME;
	FILE *quiet, *sink = diag_sink();

	if (!cp->wanted || cp->active)
		return false;
	if (guess(cp, p, bin, o, rso))
		return true;
	if (!(quiet = fopen("/dev/null", "w")))
		return false;
	diag_set_sink(quiet);
	profile_init(&q);
	/* the report: as hot_files.c would, whatever comes next */
	handled = html;
	/* -b with DWARF lines: no first read by regions, and the binary's
	 * lines given to the positions with none (below): nothing to
	 * choose, and nothing to read for it */
	if (html && bin && bin->nlines)
		goto out;
	way = region_read(cp, &q, ro, o, rso, &st, &ob, &off);
	if (way == READ_FAILED)
		goto out;
	by_region = way == BY_REGION;
	if (way == READ_AGAIN) {
		/* read again by 32 bytes of code */
		cp->first_again = q.nfuncs > 0;
		profile_release(&q);
		profile_init(&q);
		if (!first_read(&q, ro, o, NULL))
			goto out;
	}
	path = by_region ? st->path
	       : o->nbinaries ? o->binaries[0]
			      : recorded_path(&q, html ? NULL : o->disasm_what);
	if (html && !o->nbinaries && (!q.has_instr || !path)) {
		/* no Disassembly: the annotated source alone */
		p->pos_detail = POS_LINES;
		p->pos_all_files = thr <= 0;
		hot_files_keep(p, &q, thr);
		goto out;
	}
	/* the report's binary, kept from before the read: its lines, as
	 * below */
	if (html && !o->nbinaries && cp->kept_bin && cp->kept_bin->st &&
	    cp->kept_bin->st->nlines && q.has_instr && path &&
	    kept_is(cp->kept_bin, path))
		goto out;
	if (!by_region &&
	    (!q.has_instr || !path ||
	     !(st = open_q(cp, o, &q.names, path)) ||
	     resolve_guess_offset(&q, st, rso, &ob, &off) < 0))
		goto out;
	/* the object region_read() guessed has no rows by 32 bytes of code
	 * to bound its symbols' costs with: every position */
	if (way == BY_PIECES && q.pos_select->object && ob != NO_NAME &&
	    !strcmp(profile_str(&q, ob), q.pos_select->object))
		goto out;
	/* the binary's lines would be given to the positions with none
	 * (resolve.c), which the annotated source shows */
	if (html && st->nlines)
		goto out;
	make_regions(st, off, &bounds, &in_seg, &sym_of, &nb);
	ps = pos_select_new();
	pos_select_regions(ps, ob == NO_NAME ? NULL : profile_str(&q, ob),
			   bounds, in_seg, nb);
	if (!o->positions_again) {
		req = xcalloc(st->nsyms + 1, sizeof(*req));
		if (by_region) {
			exact_required(&q, st, ob, sym_of, nb, o, req);
			keep_exact(&q, st, ob, sym_of, nb, req, ps);
		} else {
			bounded_required(&q, st, ob, bounds, nb, sym_of, o,
					 req);
			keep_touching(&q, st, ob, bounds, nb, sym_of, req, ps);
		}
	}
	if (html) {
		p->pos_all_files = thr <= 0;
		hot_files_keep(p, &q, thr);
	}
	p->pos_detail = POS_SELECT;
	p->pos_select = ps;
	cp->active = true;
	cp->by_region = by_region;
	cp->object = ob == NO_NAME ? NULL : xstrdup(profile_str(&q, ob));
	cp->offset = off;
	handled = true;
out:
	diag_set_sink(sink == stderr ? NULL : sink);
	fclose(quiet);
	drop_binary(cp, st);
	free(req);
	free(bounds);
	free(in_seg);
	free(sym_of);
	profile_release(&q);
	return handled;
}

bool code_positions_gave_up(const struct code_positions *cp,
			    const struct profile *p)
{
	return cp->active && cp->guessed && p->pos_select &&
	       p->pos_select->gave_up;
}

bool code_positions_read_ok(struct code_positions *cp, struct profile *p)
{
	struct pos_select *ps = p->pos_select;

	if (!cp->active)
		return true;
	pos_select_finish(ps);
	/* resolution and what follows take the positions as they are */
	p->pos_detail = POS_ALL;
	ps->keep_first = NULL;
	if (cp->guessed) {
		cp->object = ps->object ? xstrdup(ps->object) : NULL;
		/* a function of no object taken for the binary's, which
		 * another object turned out to be; no address to place a
		 * function by: as the two reads, every position */
		if ((ps->object && ps->noname_in) || !p->has_instr)
			return false;
	}
	cp->funcs = (uint32_t)p->nfuncs;
	for (uint32_t f = 0; f < p->nfuncs; f++)
		cp->kept += (pos_select_state(ps, f) & PS_KEEP) != 0;
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint8_t s = pos_select_state(ps, f);

		/* the one read: blocks of addresses apart add up */
		if ((s & PS_REOPENED) && (s & PS_IN_OBJECT) && !(s & PS_KEEP) &&
		    (!cp->guessed || (s & PS_OVERLAP)))
			return false;
	}
	return true;
}

bool code_positions_resolved_ok(struct code_positions *cp,
				struct profile *p, const struct symtab *st,
				const struct resolve_report *r,
				const struct options *o)
{
	const struct pos_select *ps = p->pos_select;
	size_t stride = p->stride;
	uint64_t off = r->load_offset;
	uint64_t *cost;
	uint8_t *req, *coarse;
	bool ok = true;

	if (!cp->active)
		return true;
	if (off != cp->offset ||
	    (r->object == NO_NAME) != (cp->object == NULL) ||
	    (cp->object && strcmp(profile_str(p, r->object), cp->object)))
		return false;
	cost = xcalloc(st->nsyms * stride + 1, sizeof(*cost));
	req = xcalloc(st->nsyms + 1, sizeof(*req));
	coarse = xcalloc(p->nfuncs + 1, sizeof(*coarse));
	/* each symbol's cost as the disassembly counts it */
	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		uint64_t a = q->addr;
		uint32_t s;

		if (q->region)
			coarse[q->func] = 1;
		if (!a && q->region >= 2)
			a = pos_select_region_addr(ps, q->region);
		if (!a || !in_object(p, q->func, r->object) ||
		    (s = code_sym_at(st, a, off)) == NO_ID)
			continue;
		combine_row(p, cost + s * stride, profile_pos_cost(p, (uint32_t)i));
	}
	if (o->mode == OUT_HTML)
		html_required(p, st, cost,
			      o->threshold_given ? o->threshold : 1.0, req);
	else
		mark_required(p, st, r->object, cost, o, req);
	/* no listed symbol may have a position not kept whole inside it,
	 * nor a function listed there one */
	for (size_t i = 0; ok && i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		uint64_t a = q->addr;
		uint32_t s;

		if (!a && q->region >= 2)
			a = pos_select_region_addr(ps, q->region);
		if (!a || !in_object(p, q->func, r->object) ||
		    (s = code_sym_at(st, a, off)) == NO_ID || !req[s])
			continue;
		ok = !q->region && !coarse[q->func];
	}
	for (uint32_t f = 0; ok && f < p->nfuncs; f++) {
		const struct sym *sy;

		if (!coarse[f] || !in_object(p, f, r->object))
			continue;
		sy = resolve_named_sym(p, st, f);
		ok = !sy || !code_sym(sy) || !req[sy - st->syms];
	}
	free(cost);
	free(req);
	free(coarse);
	return ok;
}
