/*
 * The binary's code symbols and regions, and which symbols the
 * disassembly lists for given costs (code_symbols.h): one rule for the
 * choice before the second read and for the check after resolution.
 */
#include "code_symbols.h"

#include <stdlib.h>

#include "base/names.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "print/report_disasm.h"
#include "profile/pos_select.h"
#include "resolve/resolve.h"
#include "select/symspec.h"

bool code_sym(const struct sym *s)
{
	return s->kind != SYM_OBJECT && s->end > s->addr;
}

/* The code symbol at a (the profile's address, load offset off), as
 * the disassembly's sym_at() finds it: its index, or NO_ID. */
uint32_t code_sym_at(const struct symtab *st, uint64_t a, uint64_t off)
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
void code_make_regions(const struct symtab *st, uint64_t off, uint64_t **bounds,
		       uint8_t **in_seg, uint32_t **sym_of, uint32_t *n)
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

struct pos_select *code_region_select(const struct symtab *st, uint64_t off,
				      const struct options *o,
				      const struct resolve_opts *rso)
{
	struct pos_select *ps = pos_select_new();
	uint64_t *bounds = NULL;
	uint8_t *in_seg = NULL;
	uint32_t *sym_of = NULL, nb = 0;

	code_make_regions(st, off, &bounds, &in_seg, &sym_of, &nb);
	pos_select_regions(ps, NULL, bounds, in_seg, nb);
	free(bounds);
	free(in_seg);
	free(sym_of);
	pos_select_object_base(ps, !o->nbinaries ? st->path
				   : rso->objects && rso->objects[0]
					   ? rso->objects[0]
					   : path_base(st->path));
	return ps;
}

/* The region of a (as pos_select's find_region()), or NO_ID. */
uint32_t code_region_of(const uint64_t *b, uint32_t n, uint64_t a)
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

void code_combine_row(const struct profile *p, uint64_t *to,
		      const uint64_t *from)
{
	for (size_t e = 0; e < p->nevents; e++)
		profile_combine(p, e, &to[e], from[e]);
}

/* Each event's total as profile_finish() makes it: the self costs. */
uint64_t *code_self_totals(const struct profile *p)
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
void code_mark_named(const struct symtab *st, const char *what, uint8_t *req)
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
void code_mark_required(const struct profile *p, const struct symtab *st,
			name_id ob, const uint64_t *cost,
			const struct options *o, uint8_t *req)
{
	const char *what = o->disasm_what;

	if (what) {
		code_mark_named(st, what, req);
		for (uint32_t f = 0; f < p->nfuncs; f++) {
			const struct sym *sy;

			if (!code_in_object(p, f, ob) ||
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
		uint64_t *total = code_self_totals(p);

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
void code_html_required(const struct profile *p, const struct symtab *st,
			const uint64_t *cost, double thr, uint8_t *req)
{
	uint64_t *total = code_self_totals(p);
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
void code_html_candidates(const struct profile *p, const struct symtab *st,
			  const uint64_t *upper, const uint64_t *lower,
			  double thr, uint8_t *req)
{
	uint64_t *total = code_self_totals(p);
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
