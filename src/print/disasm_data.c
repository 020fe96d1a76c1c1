/*
 * The disassembly listing's data: choosing functions, then putting the
 * profile's position costs, call sites and jumps on the instructions of
 * each. Addresses in the profile minus the binary's load offset are the
 * binary's own (link-time) addresses, which the disassembler works in.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/sorted.h"
#include "base/xalloc.h"
#include "profile/pos_select.h"
#include "disasm_data.h"
#include "disasm_members.h"
#include "resolve/resolve.h"
#include "select/symspec.h"

static bool in_object(const struct profile *p, uint32_t f, name_id ob)
{
	return ob == NO_NAME || p->funcs[f].object == ob;
}

static bool code_sym(const struct sym *s)
{
	return s->kind != SYM_OBJECT && s->end > s->addr;
}

/* The code symbol holding the profile address addr of binary b, or NULL. */
static const struct sym *sym_at(const struct print_opts *o, uint32_t b,
				uint64_t addr)
{
	const struct sym *s = symtab_lookup(o->symtabs[b],
					    addr - o->reports[b].load_offset);

	return s && code_sym(s) ? s : NULL;
}

struct picker {
	struct disasm_pick *v;
	size_t nr, alloc;
	struct u64map index;	/* binary << 32 | sym -> v[] */
};

static struct disasm_pick *pick_slot(struct picker *pk, uint32_t b,
				     uint32_t sym, bool add)
{
	uint64_t key = (uint64_t)b << 32 | sym;
	uint32_t k = u64map_get(&pk->index, key);

	if (k != U64MAP_NONE)
		return &pk->v[k];
	if (!add)
		return NULL;
	ARRAY_GROW(pk->v, pk->nr + 1, pk->alloc);
	pk->v[pk->nr] = (struct disasm_pick){ .binary = b, .sym = sym };
	u64map_put(&pk->index, key, (uint32_t)pk->nr);
	return &pk->v[pk->nr++];
}

/* WHAT names the symbol, as -p names a function (symspec.h). */
static bool name_matches(const struct names *names, const char *what,
			 name_id id)
{
	return id != NO_NAME && symspec_name_matches(what, names_str(names, id));
}

static int cmp_pick(const void *x, const void *y, void *arg)
{
	const struct disasm_pick *a = x, *b = y;
	const struct print_opts *o = arg;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	if (a->binary != b->binary)
		return a->binary < b->binary ? -1 : 1;
	return o->symtabs[a->binary]->syms[a->sym].addr <
			       o->symtabs[b->binary]->syms[b->sym].addr
		       ? -1
		       : 1;
}

/* -p/-P SPEC: does the flat profile list function f? */
static bool flat_listed(const struct print_opts *o, uint32_t f)
{
	return !o->flat_listed || o->flat_listed[f];
}

/*
 * With -p/-P SPEC, the symbols named after a function the flat profile
 * lists (binary << 32 | sym): --disasm=FUNC lists such a symbol even
 * when those functions have no cost in it, as it does without SPEC.
 */
static void named_listed(const struct profile *p, const struct print_opts *o,
			 struct u64map *out)
{
	for (uint32_t b = 0; b < o->nreports; b++)
		for (uint32_t f = 0; f < p->nfuncs; f++) {
			const struct sym *s;

			if (!flat_listed(o, f) ||
			    !in_object(p, f, o->reports[b].object))
				continue;
			s = resolve_named_sym(p, o->symtabs[b], f);
			if (s && code_sym(s))
				u64map_put(out, (uint64_t)b << 32 |
						(uint64_t)(s - o->symtabs[b]->syms), 1);
		}
}

/*
 * The functions to list. Without WHAT, the code symbols with at least
 * the threshold; with WHAT, those it names (a glob: those with a cost).
 * -p/-P SPEC narrow both: a symbol's cost is that of the functions the
 * flat profile lists, and a symbol named without cost is listed only
 * when it is named after one of them.
 */
int disasm_pick(const struct cg *cg, const struct print_opts *o,
		struct disasm_pick **picks, size_t *n)
{
	const struct profile *p = cg->p;
	const char *what = o->disasm_what;
	bool glob = what && strpbrk(what, "*?[") != NULL;
	uint32_t ev = o->sort_event;
	struct picker all = { 0 }, chosen = { 0 };
	struct u64map named;

	u64map_init(&all.index);
	u64map_init(&chosen.index);
	u64map_init(&named);
	if (o->flat_listed && what)
		named_listed(p, o, &named);
	/* the cost at each code symbol (of the functions listed) */
	for (uint32_t b = 0; b < o->nreports; b++) {
		for (size_t i = 0; i < p->npos; i++) {
			const struct ppos *q = &p->pos[i];
			const struct sym *s;
			uint64_t a = q->addr;

			/* positions not kept whole (POS_SELECT): by region,
			 * where every address has the same symbol */
			if (!a && q->region >= 2)
				a = pos_select_region_addr(p->pos_select,
							   q->region);
			if (!a || !in_object(p, q->func, o->reports[b].object) ||
			    !flat_listed(o, q->func))
				continue;
			s = sym_at(o, b, a);
			if (s)
				/* a maximum's (MEM_MAX) largest, not a sum */
				profile_combine(p, ev, &pick_slot(&all, b,
					(uint32_t)(s - o->symtabs[b]->syms),
					true)->cost,
					profile_pos_cost(p, (uint32_t)i)[ev]);
		}
	}
	for (uint32_t b = 0; b < o->nreports; b++) {
		const struct symtab *st = o->symtabs[b];
		name_id ob = o->reports[b].object;

		if (!what) {
			double total = (double)p->totals[ev];

			for (size_t k = 0; k < all.nr; k++) {
				const struct disasm_pick *c = &all.v[k];

				if (c->binary == b && c->cost &&
				    (o->disasm_max ||
				     (double)c->cost * 100.0 >=
					     o->listing_threshold * total))
					*pick_slot(&chosen, b, c->sym, true) = *c;
			}
			continue;
		}
		for (size_t s = 0; s < st->nsyms; s++) {
			const struct disasm_pick *c;

			if (!code_sym(&st->syms[s]) ||
			    (!name_matches(st->names, what, st->syms[s].name) &&
			     !name_matches(st->names, what, st->syms[s].raw)))
				continue;
			c = pick_slot(&all, b, (uint32_t)s, false);
			if ((glob || o->flat_listed) && !c &&
			    (glob || u64map_get(&named, (uint64_t)b << 32 | s) ==
					     U64MAP_NONE))
				continue;
			pick_slot(&chosen, b, (uint32_t)s, true)->cost =
				c ? c->cost : 0;
		}
		/* profile names: "fib'2" is listed as fib */
		for (uint32_t f = 0; f < p->nfuncs; f++) {
			const struct sym *s;
			const struct disasm_pick *c;

			if (!in_object(p, f, ob) || !flat_listed(o, f) ||
			    !symspec_name_or_demangled_matches(what,
						profile_str(p, p->funcs[f].name)))
				continue;
			s = resolve_named_sym(p, st, f);
			if (!s || !code_sym(s))
				continue;
			c = pick_slot(&all, b, (uint32_t)(s - st->syms), false);
			if (glob && !c)
				continue;
			pick_slot(&chosen, b, (uint32_t)(s - st->syms), true)->cost =
				c ? c->cost : 0;
		}
	}
	u64map_release(&all.index);
	u64map_release(&chosen.index);
	u64map_release(&named);
	free(all.v);
	if (what && !chosen.nr) {
		free(chosen.v);
		return error("--disasm: '%s' names no function of the binar%s "
			     "given with -b%s%s", what,
			     o->nreports > 1 ? "ies" : "y",
			     glob ? " that has a cost in the profile" : "",
			     o->flat_listed ? " among those -p/-P SPEC list"
					    : "");
	}
	if (chosen.nr > 1)
		qsort_r(chosen.v, chosen.nr, sizeof(*chosen.v), cmp_pick,
			(void *)o);
	if (!what && o->disasm_max && chosen.nr > o->disasm_max)
		chosen.nr = o->disasm_max;
	*picks = chosen.v;
	*n = chosen.nr;
	return 0;
}

/* The instruction whose bytes hold a, or NULL. */
static const struct insn *insn_containing(const struct disasm *d, uint64_t a)
{
	size_t lo = SORTED_UPTO(d->insns, d->ninsns, addr, a);

	if (!lo || a - d->insns[lo - 1].addr >= d->insns[lo - 1].len)
		return NULL;
	return &d->insns[lo - 1];
}

static int cmp_ref(const void *x, const void *y)
{
	const struct dl_ref *a = x, *b = y;

	if (a->insn != b->insn)
		return a->insn < b->insn ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void add_unplaced(struct disasm_listing *l, struct u64map *index,
			 uint64_t addr, enum dl_where where, const uint64_t *cost,
			 size_t *alloc, size_t *cost_alloc)
{
	/* no address at all is its own entry, whatever address 0 is */
	uint64_t key = where == DL_NO_ADDR ? UINT64_MAX : addr;
	uint32_t k = u64map_get(index, key);
	uint64_t *row;

	if (k == U64MAP_NONE) {
		k = (uint32_t)l->nunplaced++;
		ARRAY_GROW(l->unplaced, l->nunplaced, *alloc);
		ARRAY_GROW(l->unplaced_cost, l->nunplaced * l->stride, *cost_alloc);
		l->unplaced[k] = (struct dl_unplaced){ addr, (uint8_t)where };
		memset(dl_row(l->unplaced_cost, l, k), 0,
		       l->stride * sizeof(*l->unplaced_cost));
		u64map_put(index, key, k);
	}
	row = dl_row(l->unplaced_cost, l, k);
	for (size_t e = 0; e < l->stride; e++)
		profile_combine(l->p, e, &row[e], cost[e]);
}

static int cmp_unplaced(const void *x, const void *y)
{
	const struct dl_unplaced *a = x, *b = y;

	if (a->where != b->where)
		return a->where < b->where ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Sort unplaced[] and its cost rows together. */
static void sort_unplaced(struct disasm_listing *l)
{
	size_t n = l->nunplaced, s = l->stride;
	struct { struct dl_unplaced u; uint32_t k; } *tmp;
	uint64_t *rows;

	if (n < 2)
		return;
	tmp = xcalloc(n, sizeof(*tmp));
	for (size_t i = 0; i < n; i++) {
		tmp[i].u = l->unplaced[i];
		tmp[i].k = (uint32_t)i;
	}
	qsort(tmp, n, sizeof(*tmp), cmp_unplaced);
	rows = xcalloc(n * s, sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		l->unplaced[i] = tmp[i].u;
		memcpy(rows + i * s, dl_row(l->unplaced_cost, l, tmp[i].k),
		       s * sizeof(*rows));
	}
	memcpy(l->unplaced_cost, rows, n * s * sizeof(*rows));
	free(rows);
	free(tmp);
}

/* The index in pos[0 .. n) (ascending) of position i, or n. */
static size_t pos_index(const uint32_t *pos, size_t n, uint32_t i)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pos[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && pos[lo] == i ? lo : n;
}

int disasm_listing_build(struct disasm_listing *l, const struct cg *cg,
			 const struct print_opts *o,
			 const struct disasm_pick *picks,
			 const struct disasm_members *m, size_t k)
{
	const struct profile *p = cg->p;
	const struct disasm_pick *pick = &picks[k];
	const struct resolve_report *r = &o->reports[pick->binary];
	const struct symtab *st = o->symtabs[pick->binary];
	const struct sym *sym = &st->syms[pick->sym];
	uint64_t off = r->load_offset;
	const uint32_t *pos = m->pos + m->pos_at[k];
	size_t npos = m->pos_at[k + 1] - m->pos_at[k];
	/* pos_insn[j]: the instruction of pos[j], or NO_ID */
	uint32_t *pos_insn = xcalloc(npos + 1, sizeof(*pos_insn));
	size_t sites_alloc = 0, jumps_alloc = 0;
	size_t un_alloc = 0, un_cost_alloc = 0;
	struct u64map un_index;

	memset(l, 0, sizeof(*l));
	l->p = p;
	l->st = st;
	l->r = r;
	l->sym = sym;
	l->stride = p->stride;
	u64map_init(&un_index);

	/* the profile functions this code belongs to (disasm_members.h) */
	l->nfuncs = m->func_at[k + 1] - m->func_at[k];
	l->funcs = xcalloc(l->nfuncs + 1, sizeof(*l->funcs));
	memcpy(l->funcs, m->funcs + m->func_at[k],
	       l->nfuncs * sizeof(*l->funcs));
	l->self = xcalloc(l->stride + 1, sizeof(*l->self));
	l->placed = xcalloc(l->stride + 1, sizeof(*l->placed));
	for (size_t i = 0; i < l->nfuncs; i++)
		for (size_t e = 0; e < l->stride; e++)
			profile_combine(p, e, &l->self[e],
					profile_self(p, l->funcs[i])[e]);

	l->demangle = !o->no_demangle;
	l->code_ok = disasm_range(st, sym->addr, sym->end, l->demangle,
				  &l->code) == 0;
	l->cost = xcalloc(l->code.ninsns * l->stride + 1, sizeof(*l->cost));

	/* each position's cost onto its instruction, or set apart */
	for (size_t j = 0; j < npos; j++) {
		const struct ppos *q = &p->pos[pos[j]];
		const uint64_t *cost = profile_pos_cost(p, pos[j]);
		const struct insn *in;
		uint64_t a = q->addr - off;

		pos_insn[j] = NO_ID;
		if (!q->addr) {
			add_unplaced(l, &un_index, 0, DL_NO_ADDR, cost,
				     &un_alloc, &un_cost_alloc);
			continue;
		}
		if (a < sym->addr || a >= sym->end) {
			add_unplaced(l, &un_index, a, DL_OUTSIDE, cost,
				     &un_alloc, &un_cost_alloc);
			continue;
		}
		in = disasm_find(&l->code, a);
		/* a call site one byte into its call instruction (a return
		 * address minus one: IgProf's stacks) */
		if (!in && cost_row_zero(cost, l->stride))
			in = insn_containing(&l->code, a);
		if (!in) {
			add_unplaced(l, &un_index, a, DL_MID_INSN, cost,
				     &un_alloc, &un_cost_alloc);
			continue;
		}
		pos_insn[j] = (uint32_t)(in - l->code.insns);
		for (size_t e = 0; e < l->stride; e++) {
			profile_combine(l->p, e,
					&dl_row(l->cost, l, pos_insn[j])[e],
					cost[e]);
			profile_combine(l->p, e, &l->placed[e], cost[e]);
		}
	}
	sort_unplaced(l);

	for (size_t s = m->site_at[k]; s < m->site_at[k + 1]; s++) {
		uint32_t c = m->sites[s];
		size_t j = pos_index(pos, npos, p->callsites[c].pos);

		if (j == npos || pos_insn[j] == NO_ID)
			continue;
		ARRAY_GROW(l->sites, l->nsites + 1, sites_alloc);
		l->sites[l->nsites++] = (struct dl_ref){ pos_insn[j], c };
	}
	for (size_t s = m->jump_at[k]; s < m->jump_at[k + 1]; s++) {
		uint32_t jp = m->jumps[s];
		size_t j = pos_index(pos, npos, p->jumps[jp].from);

		if (j == npos || pos_insn[j] == NO_ID)
			continue;
		ARRAY_GROW(l->jumps, l->njumps + 1, jumps_alloc);
		l->jumps[l->njumps++] = (struct dl_ref){ pos_insn[j], jp };
	}
	if (l->nsites > 1)
		qsort(l->sites, l->nsites, sizeof(*l->sites), cmp_ref);
	if (l->njumps > 1)
		qsort(l->jumps, l->njumps, sizeof(*l->jumps), cmp_ref);

	u64map_release(&un_index);
	free(pos_insn);
	return 0;
}

void disasm_listing_release(struct disasm_listing *l)
{
	disasm_release(&l->code);
	free(l->cost);
	free(l->funcs);
	free(l->self);
	free(l->placed);
	free(l->sites);
	free(l->jumps);
	free(l->unplaced);
	free(l->unplaced_cost);
	memset(l, 0, sizeof(*l));
}
