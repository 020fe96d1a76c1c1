/*
 * The disassembly's symbols' functions, positions, call sites and jumps
 * in one pass over each: positions go to the symbols whose ranges hold
 * them (sorted ranges, a binary search), functions to the symbols named
 * as they are (a hash of the names). Then each table is bucketed by
 * symbol through its function.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/sorted.h"
#include "base/xalloc.h"
#include "disasm_members.h"
#include "resolve/resolve.h"

static bool in_object(const struct profile *p, uint32_t f, name_id ob)
{
	return ob == NO_NAME || p->funcs[f].object == ob;
}

/* A chosen symbol's range in its binary's own addresses. */
struct span {
	uint64_t lo, hi;
	uint32_t k;		/* the pick */
};

static int cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* One binary's spans, by start; maxhi[i] the largest end of spans[0..i],
 * so that a search for the spans holding an address (symbols may
 * overlap: aliases, a glob naming both) stops where none can. */
struct spans {
	struct span *v;
	uint64_t *maxhi;
	size_t n;
};

/* A chosen symbol's name (or raw name), for the functions named after it. */
struct named {
	const char *s;
	size_t len;
	uint32_t k, next;	/* next: the chain of one hash; NO_ID ends it */
};

struct finder {
	const struct profile *p;
	const struct print_opts *o;
	const struct disasm_pick *picks;
	size_t n;
	struct spans *spans;	/* per binary */
	struct named *names;
	size_t nnames, names_alloc;
	struct u64map by_hash;	/* hash of a name -> its chain's first */
	uint64_t *pairs;	/* func << 32 | pick */
	size_t npairs, pairs_alloc;
	size_t nby_pos;		/* pairs[0 .. nby_pos): by_position()'s, sorted */
	uint32_t *last;		/* per pick: the function added last */
};

static void add_pair(struct finder *fd, uint32_t f, uint32_t k)
{
	if (fd->last[k] == f)
		return;		/* a function's positions come together */
	fd->last[k] = f;
	ARRAY_GROW(fd->pairs, fd->npairs + 1, fd->pairs_alloc);
	fd->pairs[fd->npairs++] = (uint64_t)f << 32 | k;
}

static void add_name(struct finder *fd, const struct names *names,
		     name_id id, uint32_t k)
{
	struct named *e;
	uint64_t h;
	uint32_t head;

	if (id == NO_NAME)
		return;
	ARRAY_GROW(fd->names, fd->nnames + 1, fd->names_alloc);
	e = &fd->names[fd->nnames];
	e->s = names_str(names, id);
	e->len = names_len(names, id);
	e->k = k;
	h = hash_bytes(e->s, e->len);
	head = u64map_get(&fd->by_hash, h);
	e->next = head == U64MAP_NONE ? NO_ID : head;
	u64map_put(&fd->by_hash, h, (uint32_t)fd->nnames++);
}

static void make_spans(struct finder *fd)
{
	const struct print_opts *o = fd->o;

	fd->spans = xcalloc(o->nreports + 1, sizeof(*fd->spans));
	for (uint32_t b = 0; b < o->nreports; b++) {
		struct spans *sp = &fd->spans[b];

		sp->v = xcalloc(fd->n + 1, sizeof(*sp->v));
		sp->maxhi = xcalloc(fd->n + 1, sizeof(*sp->maxhi));
		for (size_t k = 0; k < fd->n; k++) {
			const struct sym *s;

			if (fd->picks[k].binary != b)
				continue;
			s = &o->symtabs[b]->syms[fd->picks[k].sym];
			sp->v[sp->n++] = (struct span){ s->addr, s->end,
							(uint32_t)k };
			add_name(fd, o->symtabs[b]->names, s->name, (uint32_t)k);
			if (s->raw != s->name)
				add_name(fd, o->symtabs[b]->names, s->raw,
					 (uint32_t)k);
		}
		qsort(sp->v, sp->n, sizeof(*sp->v), cmp_span);
		for (size_t i = 0; i < sp->n; i++)
			sp->maxhi[i] = i && sp->maxhi[i - 1] > sp->v[i].hi
					       ? sp->maxhi[i - 1]
					       : sp->v[i].hi;
	}
}

/* Function f to every chosen symbol of binary b holding address a. */
static void add_holding(struct finder *fd, const struct spans *sp,
			uint64_t a, uint32_t f)
{
	size_t lo = SORTED_UPTO(sp->v, sp->n, lo, a);

	while (lo > 0 && sp->maxhi[lo - 1] > a) {
		lo--;
		if (sp->v[lo].hi > a)
			add_pair(fd, f, sp->v[lo].k);
	}
}

static void by_position(struct finder *fd)
{
	const struct profile *p = fd->p;
	const struct print_opts *o = fd->o;

	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];

		if (!q->addr || q->func >= p->nfuncs)
			continue;
		for (uint32_t b = 0; b < o->nreports; b++)
			if (fd->spans[b].n &&
			    in_object(p, q->func, o->reports[b].object))
				add_holding(fd, &fd->spans[b],
					    q->addr - o->reports[b].load_offset,
					    q->func);
	}
}

/* Whether by_position() found f in pick k: the name's lookup
 * (resolve_named_sym()) is then not needed, and many.60's 60 copies of
 * each function, all in their symbol, would make it most of the time. */
static bool found_by_position(const struct finder *fd, uint32_t f, uint32_t k)
{
	uint64_t key = (uint64_t)f << 32 | k;
	size_t lo = sorted_below_u64(fd->pairs, fd->nby_pos, key);

	return lo < fd->nby_pos && fd->pairs[lo] == key;
}

/*
 * Function f to the chosen symbols named as it is but for a valgrind
 * suffix: its name up to a quote, or whole, is the symbol's name or raw
 * name, and resolve_named_sym() agrees.
 */
static void by_name(struct finder *fd, uint32_t f)
{
	const struct profile *p = fd->p;
	const struct print_opts *o = fd->o;
	const char *name = profile_str(p, p->funcs[f].name);

	for (size_t j = 0;; j++) {
		if (name[j] == '\'' || name[j] == '\0') {
			uint32_t e = u64map_get(&fd->by_hash,
						hash_bytes(name, j));

			for (; e != U64MAP_NONE && e != NO_ID;
			     e = fd->names[e].next) {
				const struct named *nm = &fd->names[e];
				const struct disasm_pick *pk = &fd->picks[nm->k];
				const struct symtab *st = o->symtabs[pk->binary];

				if (nm->len == j && !memcmp(nm->s, name, j) &&
				    in_object(p, f, o->reports[pk->binary].object) &&
				    !found_by_position(fd, f, nm->k) &&
				    resolve_named_sym(p, st, f) == &st->syms[pk->sym])
					add_pair(fd, f, nm->k);
			}
		}
		if (name[j] == '\0')
			break;
	}
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* The pairs sorted (by function, then pick), each once. */
static void sort_pairs(struct finder *fd)
{
	size_t w = 0;

	if (fd->npairs > 1)	/* qsort() of NULL is undefined, even for 0 */
		qsort(fd->pairs, fd->npairs, sizeof(*fd->pairs), cmp_u64);
	for (size_t i = 0; i < fd->npairs; i++)
		if (!w || fd->pairs[i] != fd->pairs[w - 1])
			fd->pairs[w++] = fd->pairs[i];
	fd->npairs = w;
}

/* The pick lists of each function: fp_k[fp_at[f] .. fp_at[f + 1]). */
struct func_picks {
	uint32_t *at, *k;
};

enum table { T_POS, T_SITES, T_JUMPS };

static uint32_t func_of(const struct profile *p, enum table t, size_t i)
{
	uint32_t pos = t == T_POS ? (uint32_t)i
		       : t == T_SITES ? p->callsites[i].pos
				      : p->jumps[i].from;

	return p->pos[pos].func;
}

/* Items 0 .. count of table t into *at / *items by pick, through their
 * functions: two passes, counting then placing, each in order. */
static void bucket(const struct profile *p, const struct func_picks *fp,
		   size_t n, enum table t, size_t count, size_t **at,
		   uint32_t **items)
{
	size_t *next;

	*at = xcalloc(n + 2, sizeof(**at));
	for (size_t i = 0; i < count; i++) {
		uint32_t f = func_of(p, t, i);

		if (f < p->nfuncs)
			for (uint32_t j = fp->at[f]; j < fp->at[f + 1]; j++)
				(*at)[fp->k[j] + 2]++;
	}
	for (size_t k = 0; k < n; k++)
		(*at)[k + 2] += (*at)[k + 1];
	*items = xcalloc((*at)[n + 1] + 1, sizeof(**items));
	next = *at + 1;		/* next[k]: where pick k's next goes */
	for (size_t i = 0; i < count; i++) {
		uint32_t f = func_of(p, t, i);

		if (f < p->nfuncs)
			for (uint32_t j = fp->at[f]; j < fp->at[f + 1]; j++)
				(*items)[next[fp->k[j]]++] = (uint32_t)i;
	}
	/* next[k] has moved to pick k's end: at[k + 1], as it should */
}

void disasm_members_init(struct disasm_members *m, const struct cg *cg,
			 const struct print_opts *o,
			 const struct disasm_pick *picks, size_t n)
{
	const struct profile *p = cg->p;
	struct finder fd = { .p = p, .o = o, .picks = picks, .n = n };
	struct func_picks fp;

	memset(m, 0, sizeof(*m));
	m->n = n;
	u64map_init(&fd.by_hash);
	fd.last = xcalloc(n + 1, sizeof(*fd.last));
	for (size_t k = 0; k < n; k++)
		fd.last[k] = NO_ID;
	make_spans(&fd);
	if (n) {
		by_position(&fd);
		sort_pairs(&fd);
		fd.nby_pos = fd.npairs;
		for (uint32_t f = 0; f < p->nfuncs; f++)
			by_name(&fd, f);
		sort_pairs(&fd);
	}

	/* by function (the pairs' order), then each pick's functions */
	fp.at = xcalloc((size_t)p->nfuncs + 2, sizeof(*fp.at));
	fp.k = xcalloc(fd.npairs + 1, sizeof(*fp.k));
	m->func_at = xcalloc(n + 2, sizeof(*m->func_at));
	for (size_t i = 0; i < fd.npairs; i++) {
		fp.at[(fd.pairs[i] >> 32) + 1]++;
		fp.k[i] = (uint32_t)fd.pairs[i];
		m->func_at[fp.k[i] + 1]++;
	}
	for (uint32_t f = 0; f < p->nfuncs; f++)
		fp.at[f + 1] += fp.at[f];
	for (size_t k = 0; k < n; k++)
		m->func_at[k + 1] += m->func_at[k];
	m->funcs = xcalloc(fd.npairs + 1, sizeof(*m->funcs));
	{
		size_t *next = xcalloc(n + 1, sizeof(*next));

		memcpy(next, m->func_at, n * sizeof(*next));
		for (size_t i = 0; i < fd.npairs; i++)
			m->funcs[next[fp.k[i]]++] = (uint32_t)(fd.pairs[i] >> 32);
		free(next);
	}
	bucket(p, &fp, n, T_POS, p->npos, &m->pos_at, &m->pos);
	bucket(p, &fp, n, T_SITES, p->ncallsites, &m->site_at, &m->sites);
	bucket(p, &fp, n, T_JUMPS, p->njumps, &m->jump_at, &m->jumps);

	for (uint32_t b = 0; b < o->nreports; b++) {
		free(fd.spans[b].v);
		free(fd.spans[b].maxhi);
	}
	free(fd.spans);
	free(fd.names);
	u64map_release(&fd.by_hash);
	free(fd.pairs);
	free(fd.last);
	free(fp.at);
	free(fp.k);
}

void disasm_members_release(struct disasm_members *m)
{
	free(m->func_at);
	free(m->pos_at);
	free(m->site_at);
	free(m->jump_at);
	free(m->funcs);
	free(m->pos);
	free(m->sites);
	free(m->jumps);
	memset(m, 0, sizeof(*m));
}
