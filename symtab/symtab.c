/*
 * The symbol table of a binary: symtab_open() ties the readers together,
 * and syms[] is built here, sorted and de-duplicated the way gprof and
 * perf build theirs, with symtab_lookup() one binary search.
 *
 * Aliases (several symbols at one address) become one sym; the others'
 * names still find it with symtab_find(). The one kept is the first by:
 *   1. kind: function or PLT stub, then object, then untyped;
 *   2. binding: global, then weak (and unique), then local;
 *   3. a size over none, then the larger size;
 *   4. the earlier place in the symbol table, then the name.
 *
 * A symbol without a size ends where the next one starts, or at the end
 * of its section, or at the end of the sized symbol it starts in (a
 * label inside a function), whichever comes first (end_guessed).
 *
 * Symbols can still overlap (a label inside a function, an object inside
 * an object, a sized symbol running past the next one). The innermost,
 * that is the one that started last, owns an address; when it ends, the
 * one it interrupted owns the rest of its range again:
 *
 *     outer   |-------------------------|
 *     inner           |--------|
 *     spans   outer   inner    outer      (gap)
 *
 * spans[] records that, so symtab_lookup() is one binary search, and a
 * sym's own [addr, end) stays as the table says. A table whose symbols
 * do not overlap (most) has no spans: syms[] is searched.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "symtab_int.h"
#include "line_prog.h"

void symtab_init(struct symtab *st, struct names *names)
{
	memset(st, 0, sizeof(*st));
	st->names = names;
	st->priv = xcalloc(1, sizeof(*st->priv));
	u64map_init(&st->priv->by_name);
}

void symtab_release(struct symtab *st)
{
	symtab_forget_lines(st);
	if (st->priv) {
		u64map_release(&st->priv->by_name);
		free(st->priv->named);
		free(st->priv->spans);
		free(st->priv->fsyms);
		free(st->priv->secs);
		free(st->priv->funcs);
		free(st->priv->xsyms);
		free(st->priv->vars);
		free(st->priv);
	}
	free(st->path);
	free(st->debug_path);
	free(st->segs);
	free(st->syms);
	free(st->lines);
	free(st->ranges);
	memset(st, 0, sizeof(*st));
}

/* --- syms[] --- */

static int kind_rank(uint8_t kind)
{
	switch (kind) {
	case SYM_FUNC:
	case SYM_PLT:
		return 0;
	case SYM_OBJECT:
		return 1;
	default:
		return 2;
	}
}

static int bind_rank(uint8_t bind)
{
	switch (bind) {
	case 1:			/* STB_GLOBAL */
		return 0;
	case 0:			/* STB_LOCAL */
		return 2;
	default:		/* STB_WEAK, STB_GNU_UNIQUE */
		return 1;
	}
}

/* Sort by address, the one to keep first (see the top of this file). */
static int raw_cmp(const void *a, const void *b, void *names)
{
	const struct raw_sym *x = a, *y = b;
	int d;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((d = kind_rank(x->kind) - kind_rank(y->kind)))
		return d;
	if ((d = bind_rank(x->bind) - bind_rank(y->bind)))
		return d;
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(names_str(names, x->raw), names_str(names, y->raw));
}

/* An address and what it keys: a symbol's index in raw[] (sort_raw()),
 * a symbol's end or a CFI function's index (add_cfi_funcs()). */
struct addr_key {
	uint64_t addr, val;
};

/*
 * k[0, n) by address, equal ones kept in their order: a radix sort on
 * the address bytes that differ (a shared object's addresses differ in
 * their low 3 or 4). tmp holds n more; the answer is in k or tmp.
 */
static struct addr_key *sort_by_addr(struct addr_key *k,
				     struct addr_key *tmp, size_t n)
{
	size_t (*count)[256];
	uint64_t differ = 0;

	if (n < 2)
		return k;
	/* the bytes some address has otherwise than the first: the others
	 * are neither counted nor moved */
	for (size_t i = 1; i < n; i++)
		differ |= k[i].addr ^ k[0].addr;
	count = xcalloc(8, sizeof(*count));
	if (differ >> 32 == 0) {
		/* below 4 GiB apart (every shared object): 4 bytes */
		for (size_t i = 0; i < n; i++) {
			uint64_t a = k[i].addr;

			count[0][a & 0xff]++;
			count[1][a >> 8 & 0xff]++;
			count[2][a >> 16 & 0xff]++;
			count[3][a >> 24 & 0xff]++;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			for (unsigned b = 0; b < 8; b++)
				count[b][k[i].addr >> (8 * b) & 0xff]++;
	}
	for (unsigned b = 0; b < 8; b++) {
		size_t pos = 0;
		struct addr_key *swap;

		/* a byte every address has the same: nothing to move */
		if (!(differ >> (8 * b) & 0xff))
			continue;
		for (unsigned v = 0; v < 256; v++) {
			size_t c = count[b][v];

			count[b][v] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[b][k[i].addr >> (8 * b) & 0xff]++] = k[i];
		swap = k;
		k = tmp;
		tmp = swap;
	}
	free(count);
	return k;
}

struct key_order {
	const struct raw_sym *raw;
	struct names *names;
};

/* raw_cmp(), and equal ones in raw[]'s order: what a stable sort keeps */
static int key_cmp(const void *a, const void *b, void *arg)
{
	const struct addr_key *x = a, *y = b;
	const struct key_order *o = arg;
	int d = raw_cmp(&o->raw[x->val], &o->raw[y->val], o->names);

	if (d)
		return d;
	return x->val < y->val ? -1 : x->val > y->val;
}

/*
 * The order of raw[0, n) a stable sort by raw_cmp() makes (glibc's
 * qsort_r() is its merge sort, stable, for arrays that fit in memory),
 * in the val of the keys returned (n of them in *mem, freed by the
 * caller): (address, index) pairs by a radix sort on the address bytes
 * that differ, each run of one address (aliases) then by raw_cmp() and
 * the index. qsort_r() moving 40-byte symbols took a quarter of loading
 * libLLVM's 104,542 symbols (44,962 named, the rest its CFI's); the
 * symbols are not moved at all now, but read in this order: a sorted
 * copy of them was 40 bytes a symbol of fresh memory (4.2 MB for
 * libLLVM), zeroed by the kernel at 2.5 ms a MiB on the VM we measure
 * on (doc/PERFORMANCE.md, session 30).
 */
static const struct addr_key *sort_raw(const struct raw_sym *raw, size_t n,
				       struct names *names,
				       struct addr_key **mem)
{
	struct addr_key *k;

	*mem = xmalloc((2 * n + 1) * sizeof(**mem));
	for (size_t i = 0; i < n; i++)
		(*mem)[i] = (struct addr_key){ raw[i].addr, i };
	/* the half not answered in is add_cfi_funcs()' to use */
	k = sort_by_addr(*mem, *mem + n, n);
	for (size_t i = 0, j; i < n; i = j) {
		struct key_order o = { raw, names };

		for (j = i + 1; j < n && k[j].addr == k[i].addr; j++)
			;
		if (j - i > 1)
			qsort_r(k + i, j - i, sizeof(*k), key_cmp, &o);
	}
	return k;
}

/* For by_name, at the first symtab_find(): the first sym named so
 * keeps the name. */
static void name_add(struct symtab_priv *priv, name_id name, uint32_t sym)
{
	if (name == NO_NAME)
		return;
	ARRAY_GROW(priv->named, priv->nnamed + 1, priv->named_alloc);
	priv->named[priv->nnamed++] = (struct sym_named){ name, sym };
}

static void index_names(struct symtab_priv *priv)
{
	for (size_t i = 0; i < priv->nnamed; i++)
		u64map_get_or_put(&priv->by_name, priv->named[i].name,
				  priv->named[i].sym, NULL);
	free(priv->named);
	priv->named = NULL;
	priv->nnamed = priv->named_alloc = 0;
}

/* Append a span, merging with the last one. */
static void span_add(struct symtab_priv *priv, size_t *alloc, uint64_t addr,
		     uint32_t sym)
{
	struct sym_span *last = priv->nspans ? &priv->spans[priv->nspans - 1]
					     : NULL;

	if (last && last->addr == addr) {
		last->sym = sym;
		if (priv->nspans > 1 &&
		    priv->spans[priv->nspans - 2].sym == sym)
			priv->nspans--;
		return;
	}
	if (last && last->sym == sym)
		return;
	ARRAY_GROW(priv->spans, priv->nspans + 1, *alloc);
	priv->spans[priv->nspans].addr = addr;
	priv->spans[priv->nspans++].sym = sym;
}

/* A run of more empty symbols than this keeps the spans: the look-up
 * without them steps back over such a run. */
#define EMPTY_RUN_MAX 16

/* Whether syms[] (sorted by addr, one per address) hold each address
 * once at most: no symbol that holds any runs past the start of the
 * next one that does. The empty ones (a label at a section's end,
 * _edata: one to three in most files) hold none, and come in short
 * runs. */
static bool syms_disjoint(const struct symtab *st)
{
	const struct sym *last = NULL;
	size_t run = 0;

	for (size_t i = 0; i < st->nsyms; i++) {
		const struct sym *s = &st->syms[i];

		if (s->end <= s->addr) {
			if (++run > EMPTY_RUN_MAX)
				return false;
			continue;
		}
		run = 0;
		if (last && last->end > s->addr)
			return false;
		last = s;
	}
	return true;
}

/* The spans of syms[] (sorted by addr, one per address): a stack of the
 * symbols open at the sweep position, the innermost on top. None when
 * the symbols are disjoint (most tables: libLLVM's 105,000 symbols
 * made 3 MiB of spans): symtab_lookup() searches syms[] then. */
static void build_spans(struct symtab *st)
{
	struct symtab_priv *priv = st->priv;
	uint32_t *stack;
	size_t depth = 0, alloc = 0;

	priv->no_spans = syms_disjoint(st);
	if (priv->no_spans)
		return;
	stack = xmalloc((st->nsyms + 1) * sizeof(*stack));

	for (uint32_t i = 0; i <= st->nsyms; i++) {
		uint64_t at = i < st->nsyms ? st->syms[i].addr : UINT64_MAX;

		/* close what ends before this symbol starts */
		while (depth && st->syms[stack[depth - 1]].end <= at) {
			uint64_t end = st->syms[stack[--depth]].end;

			while (depth && st->syms[stack[depth - 1]].end <= end)
				depth--;
			span_add(priv, &alloc, end,
				 depth ? stack[depth - 1] : NO_IDX);
		}
		if (i == st->nsyms)
			break;
		if (st->syms[i].end <= st->syms[i].addr)
			continue;	/* empty: holds no address */
		span_add(priv, &alloc, st->syms[i].addr, i);
		stack[depth++] = i;
	}
	free(stack);
}

/* A guessed end stops at the end of the sized symbol it starts in. */
static void cap_labels(struct symtab *st)
{
	uint64_t *open = xmalloc((st->nsyms + 1) * sizeof(*open));
	size_t depth = 0;

	for (size_t i = 0; i < st->nsyms; i++) {
		struct sym *s = &st->syms[i];

		while (depth && open[depth - 1] <= s->addr)
			depth--;
		if (!s->end_guessed) {
			/* an end beyond the enclosing one's stays on top */
			open[depth++] = s->end;
		} else if (depth && s->end > open[depth - 1]) {
			s->end = open[depth - 1];
		}
	}
	free(open);
}

/*
 * The functions found in the CFI alone (add_cfi_funcs()), apart from
 * raw[]: the ranges kept, v[], in .eh_frame's order; k, their (start,
 * index in v) in the order raw_cmp() would give them (by start, the
 * larger first, then in v's order: the one kind, binding and order
 * they share, the one name at one start); names[], each one's name by
 * its index in v, NULL when made later (NO_NAME). No symbol of raw[]
 * starts where one does (it would be inside: the function not kept),
 * so the two merge without ties.
 */
struct cfi_funcs {
	const struct cfi_range *v;
	const struct addr_key *k;
	const name_id *names;
	size_t n;
};

/* syms[] from raw[] in k's order (sort_raw()) and the functions of cf
 * (NULL: none), merged by address. */
static void build_syms(struct symtab *st, const struct raw_sym *v, size_t n,
		       const struct addr_key *k, const struct cfi_funcs *cf)
{
	struct symtab_priv *priv = st->priv;
	size_t nc = cf ? cf->n : 0, i = 0, c = 0;

	st->syms = xcalloc(n + nc ? n + nc : 1, sizeof(*st->syms));
	st->nsyms = 0;
	/* a name for each, most of the time: room made at once */
	ARRAY_GROW(priv->named, priv->nnamed + n + nc, priv->named_alloc);
	while (i < n || c < nc) {
		struct sym *s = &st->syms[st->nsyms];
		/* the next CFI function's start, while one is left */
		uint64_t cfi_at = c < nc ? cf->k[c].addr : UINT64_MAX;
		const struct raw_sym *r;
		size_t j;

		if (c < nc && (i == n || cfi_at < k[i].addr)) {
			/* a function found in the CFI, and any of the
			 * same start: sized, a local function */
			const struct cfi_range *f = &cf->v[cf->k[c].val];

			s->addr = f->lo;
			s->end = f->hi;
			s->name = s->raw = cf->names ? cf->names[cf->k[c].val]
						     : NO_NAME;
			s->kind = SYM_FUNC;
			s->is_local = true;
			for (j = c; j < nc && cf->k[j].addr == cfi_at; j++)
				if (cf->names)
					name_add(priv, cf->names[cf->k[j].val],
						 (uint32_t)st->nsyms);
			st->nsyms++;
			c = j;
			continue;
		}
		/* the i-th symbol by raw_cmp(), and its aliases */
		r = &v[k[i].val];
		s->addr = r->addr;
		s->name = r->name;
		s->raw = r->raw;
		s->kind = r->kind;
		s->is_local = r->bind == 0;
		/* the aliases' names find the one kept */
		for (j = i + 1; j < n && k[j].addr == r->addr; j++)
			;
		for (size_t a = i; a < j; a++) {
			const struct raw_sym *alias = &v[k[a].val];

			name_add(priv, alias->raw, (uint32_t)st->nsyms);
			/* a name not demangled (or not yet) is there */
			if (alias->name != alias->raw)
				name_add(priv, alias->name,
					 (uint32_t)st->nsyms);
		}
		if (r->size) {
			s->end = r->addr + r->size;
			if (s->end < s->addr)	/* wraps: to the top */
				s->end = UINT64_MAX;
		} else {
			uint64_t next = j < n ? k[j].addr : UINT64_MAX;
			uint64_t limit = r->limit;

			if (cfi_at < next)
				next = cfi_at;
			s->end = next < limit ? next : limit;
			if (s->end < s->addr)	/* a limit below it: empty */
				s->end = s->addr;
			s->end_guessed = true;
		}
		st->nsyms++;
		i = j;
	}
	/* the room not taken given back to the heap: most tables are
	 * never searched by name (the default listing's are not), and
	 * the 245,000 symbols of the bench recording's objects gave
	 * 110,000 names */
	if (priv->named_alloc > priv->nnamed) {
		priv->named = xreallocarray(priv->named, priv->nnamed,
					    sizeof(*priv->named));
		priv->named_alloc = priv->nnamed;
	}
	cap_labels(st);
	build_spans(st);
}

void symtab_build_syms(struct symtab *st, const struct raw_sym *v, size_t n)
{
	struct addr_key *mem;
	const struct addr_key *k = sort_raw(v, n, st->names, &mem);

	build_syms(st, v, n, k, NULL);
	free(mem);
}

const struct sym *symtab_lookup(const struct symtab *st, uint64_t addr)
{
	const struct symtab_priv *priv = st->priv;
	size_t lo;

	if (!priv)
		return NULL;
	if (priv->no_spans) {
		/* the last symbol holding any address that starts at or
		 * below addr, if it holds addr: the spans' answer for
		 * disjoint symbols */
		lo = count_at_or_below(st->syms, st->nsyms,
				       sizeof(*st->syms), addr);
		while (lo && st->syms[lo - 1].end <= st->syms[lo - 1].addr)
			lo--;	/* empty: holds no address */
		if (lo == 0 || addr >= st->syms[lo - 1].end)
			return NULL;
		return &st->syms[lo - 1];
	}
	lo = count_at_or_below(priv->spans, priv->nspans,
			       sizeof(*priv->spans), addr);
	if (lo == 0 || priv->spans[lo - 1].sym == NO_IDX)
		return NULL;
	return &st->syms[priv->spans[lo - 1].sym];
}

/* A function found in the CFI alone: "prog+0xADDR" into buf (blen +
 * 20 bytes: base's blen, "+0x", 16 digits and a NUL), its length. The
 * digits by hand: sprintf() was 1,000 instructions a name (3,700 names
 * made as a 1 GB perf.data's stacks are charged). */
static size_t cfi_name_into(char *buf, const char *base, size_t blen,
			    uint64_t addr)
{
	char digits[16];
	size_t n = 0, len = blen + 3;

	do {
		digits[n++] = "0123456789abcdef"[addr & 15];
		addr >>= 4;
	} while (addr);
	memcpy(buf, base, blen);
	memcpy(buf + blen, "+0x", 3);
	while (n)
		buf[len++] = digits[--n];
	buf[len] = '\0';
	return len;
}

/* The file name st's CFI functions are named by. */
static const char *cfi_base(const struct symtab *st)
{
	const char *slash = strrchr(st->path, '/');

	return slash ? slash + 1 : st->path;
}

/* The text of symbol w's name, to be made (names_later): NULL when its
 * raw name is the name. */
static char *later_text(const struct symtab *st, const struct sym *w)
{
	const char *raw;

	if (w->raw == NO_NAME) {
		const char *base = cfi_base(st);
		size_t blen = strlen(base);
		char *buf = xmalloc(blen + 20);

		cfi_name_into(buf, base, blen, w->addr);
		return buf;
	}
	raw = names_str(st->names, w->raw);
	return demangle_text(raw);
}

name_id symtab_name(const struct symtab *st, const struct sym *s,
		    bool demangled)
{
	/* syms[] is the table's own array: the const is the callers' */
	struct sym *w = &st->syms[s - st->syms];
	char *text;

	if (w->names_later) {
		text = later_text(st, w);
		w->name = text ? names_intern(st->names, text, strlen(text))
			       : w->raw;
		if (w->raw == NO_NAME)
			w->raw = w->name;
		w->names_later = false;
		free(text);
	}
	return demangled ? s->name : s->raw;
}

const struct sym *symtab_find(const struct symtab *st, name_id name)
{
	uint32_t i;

	if (!st->priv || name == NO_NAME)
		return NULL;
	if (st->priv->named)
		index_names(st->priv);
	i = u64map_get(&st->priv->by_name, name);
	return i == U64MAP_NONE ? NULL : &st->syms[i];
}

const struct segment *symtab_segment(const struct symtab *st, uint64_t addr)
{
	for (size_t i = 0; i < st->nsegs; i++) {
		const struct segment *s = &st->segs[i];

		if (addr >= s->vaddr && addr - s->vaddr < s->memsz)
			return s;
	}
	return NULL;
}

/* --- fsyms[] --- */

static int fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* bfd's pick at one address: the largest, then the first */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void symtab_build_fsyms(struct symtab_priv *priv, struct fsym *v, size_t n)
{
	size_t kept = 0;

	if (n)
		qsort(v, n, sizeof(*v), fsym_cmp);
	for (size_t i = 0; i < n; i++)
		if (!kept || v[kept - 1].sec != v[i].sec ||
		    v[kept - 1].addr != v[i].addr)
			v[kept++] = v[i];
	priv->fsyms = v;
	priv->nfsyms = kept;
}

static int xsym_cmp(const void *a, const void *b)
{
	const struct xsym *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void symtab_build_xsyms(struct symtab_priv *priv, struct xsym *v, size_t n)
{
	size_t kept = 0, i = 0;

	if (n)
		qsort(v, n, sizeof(*v), xsym_cmp);
	while (i < n) {
		size_t j = i, pick;

		while (j < n && v[j].sec == v[i].sec && v[j].addr == v[i].addr)
			j++;
		/* bfd stops at the first global, else has the last */
		pick = j - 1;
		for (size_t k = i; k < j; k++) {
			if (v[k].global) {
				pick = k;
				break;
			}
		}
		v[kept++] = v[pick];
		i = j;
	}
	priv->xsyms = v;
	priv->nxsyms = kept;
}

/* --- symtab_open --- */

/*
 * A stripped binary's functions without a symbol, from its .eh_frame
 * (cfi_funcs.c): each FDE that starts no symbol's code and lies in none
 * becomes a local function named "OBJECT+0xSTART" (the binary's file
 * name, its link-time start), so that its samples are one function's,
 * named as objdump -d and nm place it.
 */
/*
 * The n functions at v named by their object and start, "cc1+0x672e80",
 * interned in their order all at once (names_intern_many()) into ids[]:
 * Debian's cc1 has some 35,000, whose names' slots, each a cache miss,
 * were a seventh of loading the symbol tables of a recording of gcc.
 */
static void name_cfi_funcs(struct symtab *st, const char *base,
			   const struct cfi_range *v, size_t n, name_id *ids)
{
	size_t blen = strlen(base), at = 0;
	size_t *off = xmalloc((n + 1) * sizeof(*off));
	size_t *len = xmalloc((n + 1) * sizeof(*len));
	/* "+0x" and 16 hex digits after the base */
	char *buf = xmalloc(n * (blen + 20) + 1);

	for (size_t i = 0; i < n; i++) {
		off[i] = at;
		len[i] = cfi_name_into(buf + at, base, blen, v[i].lo);
		at += len[i];
	}
	names_intern_many(st->names, buf, off, len, n, ids);
	free(buf);
	free(len);
	free(off);
}

/* count_at_or_below() of x in s[0..n), from the count of an earlier
 * search, hint: the FDEs come in their code's order in most files, so
 * the answer is a few steps on from the last one. */
static size_t upto_from(const struct addr_key *s, size_t n, uint64_t x,
			size_t hint)
{
	size_t lo = hint, step = 1, hi;

	if (lo && s[lo - 1].addr > x)
		return count_at_or_below(s, lo, sizeof(*s), x);
	/* s[0..lo) start at or below x: gallop on to one above it */
	while (lo + step <= n && s[lo + step - 1].addr <= x) {
		lo += step;
		step *= 2;
	}
	hi = lo + step - 1 < n ? lo + step - 1 : n;
	if (hi == lo)
		return lo;
	return lo + count_at_or_below(s + lo, hi - lo, sizeof(*s), x);
}

/* The FDEs' ranges of .eh_frame (cfi_funcs_read()), n of them in *v. */
static size_t read_cfi_funcs(struct symtab *st, struct elf_file *bin,
			     struct cfi_range **v)
{
	return cfi_funcs_read(bin, st->elf_class == ELFCLASS32 ? 4 : 8,
			      st->big_endian, v);
}

/* The CFI functions' order at one start: the larger first, then in
 * .eh_frame's (raw_cmp() and the index, as they were symbols). */
static int cfi_key_cmp(const void *a, const void *b, void *arg)
{
	const struct addr_key *x = a, *y = b;
	const struct cfi_range *v = arg;
	uint64_t xs = v[x->val].hi - v[x->val].lo;
	uint64_t ys = v[y->val].hi - v[y->val].lo;

	if (xs != ys)
		return xs > ys ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

/*
 * Each of v[0, n) (read_cfi_funcs()) that no symbol of raw[0, nraw)
 * covers, a function of its own: kept at the front of v, in its order,
 * in *cf (its keys and names in *keys and *ids, freed by the caller).
 * k: raw[]'s keys by sort_raw(), scratch: room for nraw more. The
 * functions are not symbols of raw[]: libLLVM's 60,000 were 40 bytes
 * each there, and sorted with its 45,000 symbols.
 */
static void add_cfi_funcs(struct symtab *st, struct cfi_range *v, size_t n,
			  const struct raw_sym *raw, size_t nraw,
			  const struct addr_key *k, struct addr_key *scratch,
			  bool names_later, struct cfi_funcs *cf,
			  struct addr_key **keys, name_id **ids)
{
	struct addr_key *starts = scratch, *ck;
	const char *base = cfi_base(st);
	size_t ns = 0, kept = 0, at = 0;

	/*
	 * The symbols' [start, end) (end: start + 1 when unsized), by
	 * start: any symbol inside an FDE's code names it. One a start,
	 * the last of raw[] there: the one the FDE's check below saw
	 * when the symbols were sorted by start alone, in raw[]'s order.
	 */
	for (size_t i = 0, j; i < nraw; i = j) {
		size_t last = k[i].val;

		for (j = i + 1; j < nraw && k[j].addr == k[i].addr; j++)
			if (k[j].val > last)
				last = k[j].val;
		starts[ns].addr = k[i].addr;
		starts[ns].val = raw[last].addr +
			(raw[last].size ? raw[last].size : 1);
		ns++;
	}
	for (size_t i = 0; i < n; i++) {
		at = upto_from(starts, ns, v[i].hi - 1, at);

		/* the last symbol starting at or below the FDE's end:
		 * inside it, or holding its start */
		if (at && (starts[at - 1].addr >= v[i].lo ||
			   starts[at - 1].val > v[i].lo))
			continue;
		v[kept++] = v[i];
	}
	*ids = NULL;
	/* else no name yet: symtab_name() makes it */
	if (kept && !names_later) {
		*ids = xmalloc(kept * sizeof(**ids));
		name_cfi_funcs(st, base, v, kept, *ids);
	}
	*keys = xmalloc((2 * kept + 1) * sizeof(**keys));
	for (size_t i = 0; i < kept; i++)
		(*keys)[i] = (struct addr_key){ v[i].lo, i };
	ck = sort_by_addr(*keys, *keys + kept, kept);
	for (size_t i = 0, j; i < kept; i = j) {
		for (j = i + 1; j < kept && ck[j].addr == ck[i].addr; j++)
			;
		if (j - i > 1)
			qsort_r(ck + i, j - i, sizeof(*ck), cfi_key_cmp, v);
	}
	*cf = (struct cfi_funcs){ v, ck, *ids, kept };
}

/* The symbols: the binary's .symtab, else the debug file's, else the
 * binary's .dynsym; then the @plt stubs. */
static int load_symbols(struct symtab *st, struct elf_file *bin,
			struct elf_file *dbg, const struct symtab_opts *opts)
{
	struct symtab_priv *priv = st->priv;
	struct raw_syms raw = { NULL, 0, 0 };
	struct fsyms fs = { NULL, 0, 0 };
	struct xsyms xs = { NULL, 0, 0 };
	struct sym_out out = { &raw, &fs, &xs, &st->calls_mcount };
	struct elf_file *from = bin;
	bool bin_symtab = elf_has_symtab(bin);
	bool later = opts->demangle && opts->names_later && opts->no_dwarf;
	struct cfi_range *cfi = NULL;
	size_t ncfi = 0;
	struct cfi_funcs cf;
	struct addr_key *mem = NULL, *cfi_keys = NULL;
	const struct addr_key *k;
	name_id *cfi_ids = NULL;
	bool now = opts->demangle && !later;
	enum demangle_when when = now	? DEMANGLE_NOW
				  : later ? DEMANGLE_WORDS
					  : DEMANGLE_NONE;
	int ret = -1;

	if (!bin_symtab && dbg && elf_has_symtab(dbg))
		from = dbg;
	st->has_symtab = from != bin || bin_symtab;
	/* a table that names functions alone: addr2line's file symbols
	 * and data symbols (symtab_frames()) are not made (the tables are
	 * read all the same: their names and messages are the same) */
	if (later) {
		out.fsyms = NULL;
		out.xsyms = NULL;
	}
	if (from != bin) {
		/* addr2line finds data symbols in the binary's own table */
		struct sym_out own = { NULL, NULL, later ? NULL : &xs,
				       &st->calls_mcount };

		out.xsyms = NULL;
		if (elf_read_symbols(bin, true, st->names, when, priv->secs,
				     priv->nsecs, &own) < 0)
			goto out;
	}
	if (from == bin && dbg && elf_has_symtab(dbg)) {
		/* addr2line names the file of an address without a line
		 * row from the debug file's symbols when its DWARF is
		 * there: strip -g keeps the binary's table but drops its
		 * STT_FILE symbols ("main.cold at app.cc:?", not ??:?) */
		struct sym_out files = { NULL, later ? NULL : &fs, NULL, NULL };

		out.fsyms = NULL;
		if (elf_read_symbols(dbg, false, st->names, when, priv->secs,
				     priv->nsecs, &files) < 0)
			goto out;
	}
	/*
	 * A file without .symtab names its static functions from its CFI
	 * too (add_cfi_funcs()): read first, and raw given room for
	 * .dynsym's symbols and as many more as there are FDEs, where the
	 * @plt stubs fit (the functions of the CFI are no longer put
	 * there; the room not written is not faulted in). Grown as they
	 * came, raw (libLLVM's 45,000 symbols, 1.8 MB) was copied into
	 * fresh memory.
	 */
	if (!st->has_symtab) {
		ncfi = read_cfi_funcs(st, bin, &cfi);
		ARRAY_GROW(raw.v, elf_symbol_count(from, true) + ncfi,
			   raw.alloc);
	}
	if (elf_read_symbols(from, !st->has_symtab, st->names, when,
			     priv->secs, priv->nsecs, &out) < 0)
		goto out;
	plt_read(bin, st->names, now, UINT32_MAX / 2, &raw);
	k = sort_raw(raw.v, raw.nr, st->names, &mem);
	if (!st->has_symtab)
		add_cfi_funcs(st, cfi, ncfi, raw.v, raw.nr, k,
			      k == mem ? mem + raw.nr : mem, later, &cf,
			      &cfi_keys, &cfi_ids);
	build_syms(st, raw.v, raw.nr, k, st->has_symtab ? NULL : &cf);
	/* each name as demangle_name() and name_cfi_funcs() would have
	 * made it, when asked */
	for (size_t i = 0; later && i < st->nsyms; i++)
		st->syms[i].names_later = true;
	symtab_build_fsyms(priv, fs.v, fs.nr);
	symtab_build_xsyms(priv, xs.v, xs.nr);
	fs.v = NULL;
	xs.v = NULL;
	ret = 0;
out:
	free(cfi_ids);
	free(cfi_keys);
	free(mem);
	free(cfi);
	free(raw.v);
	free(fs.v);
	free(xs.v);
	return ret;
}

static int load_dwarf(struct symtab *st, struct elf_file *ef,
		      const struct symtab_opts *opts)
{
	struct elf_file *copy = NULL, *from = ef;
	struct dwarf_data d;
	int ret;

	/* zstd sections, which libdwarf cannot read: from a copy with
	 * them decompressed */
	if (elf_has_zstd_section(ef)) {
		int fd;

		if (elf_zstd_inflate(elf_fd(ef), elf_path(ef), &fd) < 0)
			return -1;
		if (fd >= 0 && elf_file_open_fd(&copy, elf_path(ef), fd) < 0)
			return -1;
		if (copy)
			from = copy;
	}
	if (dwarf_precheck(from) < 0) {
		elf_file_close(copy);
		return -1;
	}
	/* st->path: where -gsplit-dwarf's .dwo and .dwp are looked for
	 * when from is its separate debug file */
	ret = dwarf_read(from, st->path, st->names, opts->demangle,
			 st->big_endian, NULL, 0, &d);
	elf_file_close(copy);
	if (ret != 0) {
		dwarf_data_release(&d);
		return ret;
	}
	st->has_dwarf = true;
	st->debug_path = xstrdup(elf_path(ef));
	lines_build(st, d.rows, d.nrows);
	d.rows = NULL;
	ranges_build(st, &d);
	vars_build(st->priv, &d);
	dwarf_data_release(&d);
	return 0;
}

/* The files symtab_load_lines() reads: the binary, its debug file, a
 * copy with zstd sections inflated; from, the one with the DWARF. */
struct lines_files {
	struct elf_file *bin, *dbg, *copy, *from;
	char *link, *dbg_path;
};

static void lines_close(struct lines_files *f)
{
	elf_file_close(f->copy);
	elf_file_close(f->dbg);
	elf_file_close(f->bin);
	free(f->dbg_path);
	free(f->link);
	memset(f, 0, sizeof(*f));
}

/*
 * The file with st's DWARF opened in f->from: 1, or 0 when there is
 * none, or -1 after a message. with_zstd false: 0 for a file with zstd
 * sections too (inflating them makes a copy: left to the main thread).
 */
static int lines_open(const struct symtab *st, const char *debug_dir,
		      bool with_zstd, struct lines_files *f)
{
	uint32_t crc;

	memset(f, 0, sizeof(*f));
	if (elf_file_open(&f->bin, st->path) < 0 ||
	    elf_read_debuglink(f->bin, &f->link, &crc) < 0)
		return -1;
	f->from = f->bin;
	if (!elf_has_dwarf(f->bin)) {
		/* symtab_open() found none for the symbols (and said why):
		 * not looked for, nor said, twice */
		if (st->no_debug_file)
			return 0;
		f->dbg_path = debugfile_find(st->path, debug_dir, st->build_id,
					     st->build_id_len, f->link, crc);
		if (f->dbg_path && elf_file_open(&f->dbg, f->dbg_path) < 0)
			return -1;
		if (!f->dbg || !elf_has_dwarf(f->dbg))
			return 0;	/* no DWARF: no lines */
		f->from = f->dbg;
	}
	/* zstd sections, which libdwarf cannot read: from a copy with
	 * them decompressed, as load_dwarf() does */
	if (elf_has_zstd_section(f->from)) {
		int fd;

		if (!with_zstd)
			return 0;
		if (elf_zstd_inflate(elf_fd(f->from), elf_path(f->from),
				     &fd) < 0)
			return -1;
		if (fd >= 0 && elf_file_open_fd(&f->copy, elf_path(f->from),
						fd) < 0)
			return -1;
		if (f->copy)
			f->from = f->copy;
	}
	return 1;
}

/* What symtab_prepare_lines() made: the file open, its line sections
 * inflated, its programs indexed. */
struct lines_ahead {
	struct lines_files f;
	struct line_sections ls;
	struct line_prog_index ix;
};

static void lines_ahead_free(struct lines_ahead *la)
{
	if (!la)
		return;
	line_prog_index_release(&la->ix);
	lines_close(&la->f);
	free(la);
}

bool symtab_prepare_lines(struct symtab *st, const char *debug_dir)
{
	struct lines_ahead *la;

	if (st->has_dwarf || st->nlines || st->priv->lines_ahead ||
	    (st->no_debug_file && !st->bin_dwarf))
		return false;
	la = xcalloc(1, sizeof(*la));
	if (lines_open(st, debug_dir, false, &la->f) <= 0 ||
	    !line_prog_sections(la->f.from, &la->ls) ||
	    !line_prog_index_of(&la->ls, st->big_endian, &la->ix)) {
		lines_ahead_free(la);
		return false;
	}
	st->priv->lines_ahead = la;
	return true;
}

size_t symtab_lines_ahead_size(const struct symtab *st)
{
	const struct lines_ahead *la = st->priv ? st->priv->lines_ahead : NULL;

	if (!la)
		return 0;
	return la->ls.line_size + la->ls.str_size + la->ls.line_str_size +
	       la->ix.units_alloc * sizeof(*la->ix.units) +
	       la->ix.seqs_alloc * sizeof(*la->ix.seqs);
}

void symtab_forget_lines(struct symtab *st)
{
	if (st->priv) {
		lines_ahead_free(st->priv->lines_ahead);
		st->priv->lines_ahead = NULL;
	}
}

int symtab_load_lines(struct symtab *st, const uint64_t *want, size_t n,
		      const char *debug_dir)
{
	struct lines_files f;
	struct dwarf_data d;
	struct lines_ahead *la = st->priv->lines_ahead;
	int ret = -1, found;

	if (st->has_dwarf || st->nlines || !n)
		return 0;
	memset(&d, 0, sizeof(d));
	/* made ahead: the wanted programs alone run again */
	if (la && line_prog_rows_indexed(&la->ls, &la->ix, st->names,
					 st->big_endian, want, n, &d)) {
		symtab_forget_lines(st);
		lines_build(st, d.rows, d.nrows);
		return 0;
	}
	symtab_forget_lines(st);
	found = lines_open(st, debug_dir, true, &f);
	if (found <= 0) {
		ret = found;
		goto out;
	}
	/* the units' rows from .debug_line alone, where it can: libdwarf
	 * would inflate all of .debug_info to find the units */
	if (line_prog_rows(f.from, st->names, st->big_endian, want, n, &d)) {
		lines_build(st, d.rows, d.nrows);
		d.rows = NULL;
		ret = 0;
		goto out;
	}
	/* all of it, though only line programs are read: libdwarf loads
	 * .debug_rnglists with .debug_info (dwarf_get_aranges() does), and
	 * tests/fuzz/regress/rnglists-fini-array then freed memory twice */
	if (dwarf_precheck(f.from) < 0)
		goto out;
	if (dwarf_read(f.from, NULL, st->names, false, st->big_endian, want, n,
		       &d) < 0)
		goto out;
	lines_build(st, d.rows, d.nrows);
	d.rows = NULL;
	ret = 0;
out:
	dwarf_data_release(&d);
	lines_close(&f);
	return ret;
}

int symtab_open(struct symtab *st, const char *path,
		const struct symtab_opts *opts, struct names *names)
{
	struct elf_file *bin = NULL, *dbg = NULL;
	char *link = NULL, *dbg_path = NULL;
	uint32_t crc;
	int ret = -1;

	symtab_init(st, names);
	st->path = xstrdup(path);
	if (elf_file_open(&bin, st->path) < 0)
		goto out;
	if (elf_read_target(bin, st, st->priv) < 0 ||
	    elf_read_debuglink(bin, &link, &crc) < 0)
		goto out;
	st->debug_only = elf_code_is_nobits(bin);
	st->bin_dwarf = elf_has_dwarf(bin);
	/* the separate debug file, for its DWARF; or, symbols only, for
	 * the full symbol table a stripped binary lacks (a system
	 * library's static functions are only there) */
	if (opts->no_dwarf ? !elf_has_symtab(bin) : !elf_has_dwarf(bin)) {
		dbg_path = debugfile_find(st->path, opts->debug_dir,
					  st->build_id, st->build_id_len, link,
					  crc);
		st->no_debug_file = !dbg_path;
		if (dbg_path && elf_file_open(&dbg, dbg_path) < 0)
			goto out;
	}
	if (load_symbols(st, bin, dbg, opts) < 0)
		goto out;
	if (!opts->no_dwarf) {
		struct elf_file *from = dbg && elf_has_dwarf(dbg) ? dbg : bin;

		if (!elf_has_dwarf(from) || load_dwarf(st, from, opts) > 0) {
			st->dwarf_missing = true;
			if (!opts->dwarf_missing_later)
				warning("%s: no DWARF debug info: functions "
					"from the symbol table only, no files "
					"or lines (build with -g, or install "
					"its debug file; --debug-dir=DIR looks "
					"elsewhere)", path);
		}
	}
	ret = 0;
out:
	elf_file_close(dbg);
	elf_file_close(bin);
	free(dbg_path);
	free(link);
	if (ret < 0)
		symtab_release(st);
	return ret;
}
