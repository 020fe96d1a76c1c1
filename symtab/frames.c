/*
 * The frames at an address, as `addr2line -f -i` finds them (binutils
 * 2.40, bfd/dwarf2.c and bfd/elf.c), from tables built once:
 *
 * ranges[]: the DWARF function ranges flattened. At an address, addr2line
 * takes the function whose range holding it is shortest (a later DIE on
 * a tie): that is the innermost inlined copy, since an inlined range
 * lies inside its caller's. Each elementary interval between two range
 * ends gets that function, adjacent intervals with the same one merge:
 *
 *     main       |--------------------------------|
 *     inline f        |--------------|
 *     inline g             |----|
 *     ranges[]   main  f   g    f     main          (none)
 *
 * so a lookup is one binary search, and the inline chain is a walk up
 * the dfunc caller links.
 *
 * fsyms[]: where DWARF has no function, addr2line names the address by
 * the ELF symbol bfd's _bfd_elf_find_function() picks: the closest
 * function-like symbol at or below it in the same section, whatever its
 * size; with the file of the STT_FILE symbol before it when there is no
 * line. The pick per address is made when the table is built.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"
#include "symtab_int.h"

/* --- flattening --- */

struct heap {
	const struct dpiece **v;
	size_t n;
};

/* a before b: shorter, then later DIE */
static bool piece_better(const struct dpiece *a, const struct dpiece *b)
{
	uint64_t la = a->high - a->low, lb = b->high - b->low;

	if (la != lb)
		return la < lb;
	return a->die > b->die;
}

static void heap_push(struct heap *h, const struct dpiece *p)
{
	size_t i = h->n++;

	while (i > 0) {
		size_t up = (i - 1) / 2;

		if (!piece_better(p, h->v[up]))
			break;
		h->v[i] = h->v[up];
		i = up;
	}
	h->v[i] = p;
}

static void heap_pop(struct heap *h)
{
	const struct dpiece *last = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && piece_better(h->v[c + 1], h->v[c]))
			c++;
		if (!piece_better(h->v[c], last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
}

static int piece_cmp(const void *a, const void *b)
{
	const struct dpiece *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * bfd's _bfd_dwarf2_find_nearest_line: a function without a final name
 * gets the ELF symbol's when that symbol starts at the function's first
 * range, and the name is final from then on. addr2line does this on the
 * first look-up in the function, so its answers depend on the order of
 * the questions; doing it up front gives every look-up the answer it
 * settles on when asked in address order (frames_first_lookup_name()
 * tells the tests where its first answer differs). One difference: bfd
 * compares with its first range after merging touching ranges, which
 * for C++ main with a main.cold part is main.cold's start; main's own
 * first range starts at main, which is the same answer ("main") for
 * every address instead of "main.cold" when the cold part is asked
 * about first.
 */
static void settle_names(struct symtab_priv *priv)
{
	for (size_t i = 0; i < priv->nfuncs; i++) {
		struct dfunc *fn = &priv->funcs[i];
		const struct sec *sec;
		const struct fsym *fs;

		if (fn->is_linkage || !fn->has_low)
			continue;
		sec = secs_lookup(priv, fn->low);
		fs = sec ? fsyms_lookup(priv, sec->index, fn->low) : NULL;
		if (fs && fs->addr == fn->low) {
			fn->name = fs->name;
			fn->is_linkage = true;
		}
	}
}

void ranges_build(struct symtab *st, struct dwarf_data *d)
{
	struct symtab_priv *priv = st->priv;
	struct heap h = { NULL, 0 };
	uint64_t *bounds;
	size_t nb = 0, next = 0, alloc = 0;

	if (d->npieces)
		qsort(d->pieces, d->npieces, sizeof(*d->pieces), piece_cmp);
	bounds = xmalloc((2 * d->npieces + 1) * sizeof(*bounds));
	for (size_t i = 0; i < d->npieces; i++) {
		bounds[nb++] = d->pieces[i].low;
		bounds[nb++] = d->pieces[i].high;
	}
	qsort(bounds, nb, sizeof(*bounds), u64_cmp);
	h.v = xmalloc((d->npieces + 1) * sizeof(*h.v));
	for (size_t i = 0; i < nb; i++) {
		uint64_t at = bounds[i];
		uint32_t func;

		if (i > 0 && bounds[i - 1] == at)
			continue;
		while (next < d->npieces && d->pieces[next].low == at)
			heap_push(&h, &d->pieces[next++]);
		while (h.n && h.v[0]->high <= at)
			heap_pop(&h);
		func = h.n ? h.v[0]->func : NO_IDX;
		if (st->nranges && st->ranges[st->nranges - 1].func == func)
			continue;
		ARRAY_GROW(st->ranges, st->nranges + 1, alloc);
		st->ranges[st->nranges].addr = at;
		st->ranges[st->nranges++].func = func;
	}
	free(h.v);
	free(bounds);
	priv->funcs = d->funcs;
	priv->nfuncs = d->nfuncs;
	d->funcs = NULL;
	d->nfuncs = 0;
	settle_names(priv);
}

static int var_cmp(const void *a, const void *b)
{
	const struct dvar *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void vars_build(struct symtab_priv *priv, struct dwarf_data *d)
{
	if (d->nvars)
		qsort(d->vars, d->nvars, sizeof(*d->vars), var_cmp);
	priv->vars = d->vars;
	priv->nvars = d->nvars;
	d->vars = NULL;
	d->nvars = 0;
}

/* --- lookups --- */

static const struct symtab_range *range_at(const struct symtab *st,
					   uint64_t addr)
{
	size_t lo = count_at_or_below(st->ranges, st->nranges,
				      sizeof(*st->ranges), addr);

	return lo ? &st->ranges[lo - 1] : NULL;
}

const struct sec *secs_lookup(const struct symtab_priv *priv, uint64_t addr)
{
	/* header order, as bfd_map_over_sections: .tbss overlaps others */
	for (size_t i = 0; i < priv->nsecs; i++)
		if (addr >= priv->secs[i].addr && addr < priv->secs[i].end)
			return &priv->secs[i];
	return NULL;
}

const struct fsym *fsyms_lookup(const struct symtab_priv *priv, uint32_t sec,
				uint64_t addr)
{
	size_t lo = 0, hi = priv->nfsyms;

	/* the last (sec, addr) at or below ours */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fsym *f = &priv->fsyms[mid];

		if (f->sec < sec || (f->sec == sec && f->addr <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || priv->fsyms[lo - 1].sec != sec)
		return NULL;
	return &priv->fsyms[lo - 1];
}

static const struct xsym *xsyms_lookup(const struct symtab_priv *priv,
				       uint32_t sec, uint64_t addr)
{
	size_t lo = 0, hi = priv->nxsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct xsym *x = &priv->xsyms[mid];

		if (x->sec < sec || (x->sec == sec && x->addr < addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < priv->nxsyms && priv->xsyms[lo].sec == sec &&
	    priv->xsyms[lo].addr == addr)
		return &priv->xsyms[lo];
	return NULL;
}

/* The first variable at addr whose name is part of the symbol's (bfd's
 * lookup_symbol_in_variable_table), or NULL. */
static const struct dvar *var_lookup(const struct symtab *st, uint64_t addr,
				     name_id sym_name)
{
	const struct symtab_priv *priv = st->priv;
	const char *sym = names_str(st->names, sym_name);
	size_t lo = 0, hi = priv->nvars;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (priv->vars[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < priv->nvars && priv->vars[lo].addr == addr; lo++) {
		const struct dvar *v = &priv->vars[lo];

		if (v->file != NO_NAME && v->name != NO_NAME &&
		    strstr(sym, names_str(st->names, v->name)))
			return v;
	}
	return NULL;
}

/*
 * addr2line's order (bfd's _bfd_dwarf2_find_nearest_line): in a data
 * section, a symbol at exactly addr is looked up among the DWARF
 * variables, which gives the variable's declaration; otherwise the line
 * row and the innermost DWARF function, with its name (settled, see
 * settle_names()); with no function, the ELF symbol's name, and its
 * STT_FILE name stands in for a missing line row. Nothing found: no
 * frame.
 */
size_t symtab_frames(const struct symtab *st, uint64_t addr,
		     struct frame *frames, size_t max)
{
	const struct symtab_priv *priv = st->priv;
	const struct line_entry *le = NULL;
	const struct symtab_range *r;
	const struct dfunc *fn = NULL;
	const struct fsym *fs;
	const struct sec *sec;
	struct frame f0 = { NO_NAME, NO_NAME, 0, 0 };
	size_t n = 0;

	if (!max || !priv)
		return 0;
	sec = secs_lookup(priv, addr);
	if (!sec)
		return 0;	/* addr2line looks in sections only */
	if (!sec->code) {
		const struct xsym *x = xsyms_lookup(priv, sec->index, addr);
		const struct dvar *v = x ? var_lookup(st, addr, x->raw) : NULL;

		if (x) {
			fs = fsyms_lookup(priv, sec->index, addr);
			/* bfd asks the variables only, not the lines */
			if (v) {
				f0.file = v->file;
				f0.line = v->line;
			} else if (fs) {
				f0.file = fs->file;
			} else {
				return 0;
			}
			f0.func = fs ? fs->name : NO_NAME;
			frames[0] = f0;
			return 1;
		}
	}
	le = symtab_line(st, addr);
	r = range_at(st, addr);
	if (r && r->func != NO_IDX)
		fn = &priv->funcs[r->func];
	if (le) {
		f0.file = le->file;
		f0.line = le->line;
		f0.discriminator = le->discriminator;
	}
	if (fn) {
		f0.func = fn->name;
	} else if ((fs = fsyms_lookup(priv, sec->index, addr))) {
		f0.func = fs->name;
		if (!le)
			f0.file = fs->file;
	} else if (!le) {
		return 0;
	}
	frames[n++] = f0;
	/* bfd's inliner chain starts at an inlined copy only */
	while (fn && fn->inlined && fn->caller != NO_IDX && n < max) {
		const struct dfunc *up = &priv->funcs[fn->caller];

		frames[n].func = up->name;
		frames[n].file = fn->call_file;
		frames[n].line = fn->call_line;
		frames[n].discriminator = fn->call_discriminator;
		n++;
		fn = up;
	}
	return n;
}

name_id frames_first_lookup_name(const struct symtab *st, uint64_t addr)
{
	const struct symtab_priv *priv = st->priv;
	const struct symtab_range *r = range_at(st, addr);
	const struct sec *sec = priv ? secs_lookup(priv, addr) : NULL;
	const struct dfunc *fn;
	const struct fsym *fs;

	if (!sec || !r || r->func == NO_IDX)
		return NO_NAME;
	fn = &priv->funcs[r->func];
	fs = fsyms_lookup(priv, sec->index, addr);
	if (fn->is_linkage || !fs)
		return NO_NAME;
	return fs->name;
}

uint32_t frames_func_at(const struct symtab *st, uint64_t addr, size_t k)
{
	const struct symtab_range *r = range_at(st, addr);
	uint32_t f = r ? r->func : NO_IDX;

	/* the chain as symtab_frames() walks it */
	for (; k && f != NO_IDX; k--) {
		const struct dfunc *fn = &st->priv->funcs[f];

		f = fn->inlined ? fn->caller : NO_IDX;
	}
	return f;
}
