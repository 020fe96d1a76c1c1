/*
 * What the first of the disassembly's two reads says (code_keep.h):
 * the symbols listed, from each symbol's cost bounded by 32 bytes of
 * code or exact by the binary's regions, and the functions kept whole
 * for them.
 */
#include "code_keep.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "code_symbols.h"
#include "resolve/resolve.h"

/* The regions [*k, *kh] function f's range touches (false: none). */
static bool func_regions(const struct pos_select *ps, uint32_t f,
			 const uint64_t *bounds, uint32_t nb, uint32_t *k,
			 uint32_t *kh)
{
	uint64_t lo = ps->lo[f], hi = ps->hi[f];

	if (!lo || nb < 2 || hi < bounds[0] || lo >= bounds[nb - 1])
		return false;
	*k = lo < bounds[0] ? 0 : code_region_of(bounds, nb, lo);
	*kh = hi >= bounds[nb - 1] ? nb - 2 : code_region_of(bounds, nb, hi);
	return true;
}

/*
 * From the first read q by 32 bytes of code: the symbols the listing
 * may list (req[]), by bounds of each symbol's cost.
 */
void code_bounded_required(const struct profile *q, const struct symtab *st,
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

		if (!qp->addr || !code_in_object(q, qp->func, ob) || nb < 2 ||
		    hi < bounds[0] || lo >= bounds[nb - 1])
			continue;
		gap = lo < bounds[0] || hi >= bounds[nb - 1];
		k = lo < bounds[0] ? 0 : code_region_of(bounds, nb, lo);
		kh = hi >= bounds[nb - 1] ? nb - 2 : code_region_of(bounds, nb, hi);
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
			code_combine_row(q, upper + sy * stride,
					 profile_pos_cost(q, (uint32_t)i));
		}
		if (nsym == 1 && !gap)
			code_combine_row(q, lower + last * stride,
					 profile_pos_cost(q, (uint32_t)i));
	}
	if (o->mode == OUT_HTML)
		code_html_candidates(q, st, upper, lower, thr, req);
	else
		code_mark_required(q, st, ob, upper, o, req);
	free(upper);
	free(lower);
}

/*
 * From a first read q by the binary's regions: the symbols the listing
 * lists (req[]), each symbol's cost exact: the sum of its regions' rows
 * of the object, as code_positions_resolved_ok() counts it after the
 * second read.
 */
void code_exact_required(const struct profile *q, const struct symtab *st,
			 name_id ob, const uint32_t *sym_of, uint32_t nb,
			 const struct options *o, uint8_t *req)
{
	size_t stride = q->stride;
	uint64_t *cost = xcalloc(st->nsyms * stride + 1, sizeof(*cost));

	for (size_t i = 0; i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];
		uint32_t sy;

		if (qp->region < 2 || qp->region - 2 + 1 >= nb ||
		    !code_in_object(q, qp->func, ob) ||
		    (sy = sym_of[qp->region - 2]) == NO_ID)
			continue;
		code_combine_row(q, cost + sy * stride,
				 profile_pos_cost(q, (uint32_t)i));
	}
	if (o->mode == OUT_HTML)
		code_html_required(q, st, cost,
				   o->threshold_given ? o->threshold : 1.0,
				   req);
	else
		code_mark_required(q, st, ob, cost, o, req);
	free(cost);
}

/*
 * From the first read q by region and the symbols the listing lists
 * (req[]): the functions with a position in one, or named after one,
 * and those read in two blocks, kept whole in ps. (A function's range
 * may span other symbols' code, which code_keep_touching() would keep.)
 */
void code_keep_exact(const struct profile *q, const struct symtab *st,
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

		if (!(s & PS_POSITIONS) || !code_in_object(q, f, ob))
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
void code_keep_touching(const struct profile *q, const struct symtab *st,
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

		if (!(s & PS_POSITIONS) || !code_in_object(q, f, ob))
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
