/*
 * profile_rekey() without rebuilding the tables, where the new
 * identities merge nothing (profile_rekey.h). Symbol resolution of a
 * big program's profile renames few or none of its functions (0 of
 * many.60's 712,000 with cc1plus: its functions had their names
 * already), and a rebuild adds every function, arc and position again
 * into new tables beside the old ones: on many.60 about half of what
 * -b added to the listing's time, and its peak 251 MiB where the
 * listing without -b takes 130 (doc/PERFORMANCE.md). Here each function
 * keeps its index, only the changed ones are written, and what the
 * rebuild also did is done alone: arcs of no calls and no cost are
 * dropped (with their call sites), lines are set. Positions given files
 * and lines (from the binary's DWARF) are written where they are too,
 * unless two would become one.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile.h"
#include "profile_index.h"
#include "profile_rekey.h"

static bool same_ident(const struct pfunc *a, const struct pfunc *b)
{
	return a->name == b->name && a->file == b->file &&
	       a->object == b->object;
}

static int cmp_ident(const void *x, const void *y)
{
	const struct pfunc *a = x, *b = y;

	if (a->object != b->object)
		return a->object < b->object ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return 0;
}

/*
 * Whether the functions stay apart under ident: no changed function
 * takes the identity of one that keeps its own (found in the index of
 * the identities as they are), and no two changed ones take the same
 * (sorted, side by side). The index is left built from the old
 * identities: the caller drops it.
 */
static bool idents_apart(struct profile *p, const struct pfunc *ident)
{
	struct pfunc *changed = NULL;
	size_t n = 0;
	bool apart = true;

	for (size_t f = 0; f < p->nfuncs; f++)
		n += !same_ident(&ident[f], &p->funcs[f]);
	if (!n)
		return true;
	changed = xreallocarray(NULL, n, sizeof(*changed));
	n = 0;
	/* built from funcs[] as they are, whatever was added before */
	profile_drop_indexes(p);
	for (size_t f = 0; f < p->nfuncs && apart; f++) {
		uint32_t h;

		if (same_ident(&ident[f], &p->funcs[f]))
			continue;
		changed[n++] = ident[f];
		h = func_index_find(p, ident[f].object, ident[f].file,
				    ident[f].name);
		if (h != NO_ID && same_ident(&ident[h], &p->funcs[h]))
			apart = false;
	}
	if (apart) {
		qsort(changed, n, sizeof(*changed), cmp_ident);
		for (size_t i = 1; i < n && apart; i++)
			apart = cmp_ident(&changed[i - 1], &changed[i]) != 0;
	}
	free(changed);
	return apart;
}

/* Whether call c has no calls and no cost (packed or not). */
static bool empty_call(const struct profile *p, uint32_t c)
{
	if (profile_call_count(p, c))
		return false;
	for (size_t e = 0; e < p->stride; e++)
		if (profile_call_incl_at(p, c, e))
			return false;
	return true;
}

/*
 * Arcs of no calls and no cost say nothing (calls moved away by
 * --inlined=callee leave them): dropped, as the rebuild drops them,
 * the others keeping their order, and the call sites of the dropped
 * ones with them. Counts in big_counts[] and costs in big_incl[] stay
 * where they are (those of a dropped arc whose count went back to 0,
 * unused).
 */
static void drop_empty_calls(struct profile *p)
{
	size_t stride = p->stride, kept = 0, sites = 0;
	uint32_t *newcall;

	for (size_t c = 0; c < p->ncalls; c++)
		if (empty_call(p, (uint32_t)c))
			break;
		else
			kept++;
	if (kept == p->ncalls)
		return;
	newcall = xreallocarray(NULL, p->ncalls + 1, sizeof(*newcall));
	for (size_t c = 0; c < kept; c++)
		newcall[c] = (uint32_t)c;
	for (size_t c = kept; c < p->ncalls; c++) {
		if (empty_call(p, (uint32_t)c)) {
			newcall[c] = NO_ID;
			continue;
		}
		newcall[c] = (uint32_t)kept;
		p->calls[kept] = p->calls[c];
		if (p->incl_packed)
			memmove(p->incl_packed + kept * stride,
				p->incl_packed + c * stride,
				stride * sizeof(*p->incl_packed));
		else
			memmove(p->call_incl + kept * stride,
				p->call_incl + c * stride,
				stride * sizeof(*p->call_incl));
		if (p->call_self)
			memmove(profile_call_self(p, (uint32_t)kept),
				profile_call_self(p, (uint32_t)c),
				stride * sizeof(*p->call_self));
		kept++;
	}
	p->ncalls = kept;
	for (size_t i = 0; i < p->ncallsites; i++) {
		uint32_t nc = newcall[p->callsites[i].call];

		if (nc == NO_ID)
			continue;
		p->callsites[sites] = p->callsites[i];
		p->callsites[sites].call = nc;
		memmove(profile_callsite_incl(p, (uint32_t)sites),
			profile_callsite_incl(p, (uint32_t)i),
			stride * sizeof(*p->callsite_incl));
		sites++;
	}
	p->ncallsites = sites;
	p->callsite_hint = 0;
	/* found by (position, arc), and the arcs are numbered anew */
	u64map_release(&p->callsite_index);
	u64map_init(&p->callsite_index);
	for (size_t i = 0; i < sites; i++)
		u64map_put(&p->callsite_index,
			   (uint64_t)p->callsites[i].pos << 32 |
				   p->callsites[i].call,
			   (uint32_t)i);
	free(newcall);
}

static bool pos_place_differs(const struct ppos *a, const struct ppos *b)
{
	return a->func != b->func || a->addr != b->addr ||
	       a->region != b->region;
}

static bool pos_line_differs(const struct ppos *a, const struct ppos *b)
{
	return a->file != b->file || a->line != b->line;
}

static int cmp_pos(const void *x, const void *y)
{
	const struct ppos *a = x, *b = y;

	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->region != b->region)
		return a->region < b->region ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return 0;
}

/*
 * Whether the positions stay apart given newpos's files and lines (what
 * resolution gives positions read without them), as idents_apart() for
 * functions: a changed one may not become one that keeps its fields
 * (found in the positions' table) nor another changed one. *changed:
 * whether any changes. A position moved to another function or address
 * is left to the rebuild.
 */
static bool positions_apart(struct profile *p, const struct ppos *newpos,
			    bool *changed)
{
	struct ppos *moved = NULL;
	size_t n = 0;
	bool apart = true;

	*changed = false;
	for (size_t i = 0; newpos && i < p->npos; i++) {
		if (pos_place_differs(&newpos[i], &p->pos[i]))
			return false;
		n += pos_line_differs(&newpos[i], &p->pos[i]);
	}
	if (!n)
		return true;
	*changed = true;
	moved = xreallocarray(NULL, n, sizeof(*moved));
	n = 0;
	for (size_t i = 0; i < p->npos && apart; i++) {
		const struct ppos *q = &newpos[i];
		uint32_t h;

		if (!pos_line_differs(q, &p->pos[i]))
			continue;
		moved[n++] = *q;
		h = profile_pos_find(p, q->func, q->file, q->line, q->addr,
				     q->region);
		if (h != NO_ID && !pos_line_differs(&newpos[h], &p->pos[h]))
			apart = false;
	}
	if (apart) {
		qsort(moved, n, sizeof(*moved), cmp_pos);
		for (size_t i = 1; i < n && apart; i++)
			apart = cmp_pos(&moved[i - 1], &moved[i]) != 0;
	}
	free(moved);
	return apart;
}

bool profile_rekey_in_place(struct profile *p, const struct pfunc *ident,
			    const uint32_t *ident_line,
			    const struct ppos *newpos, uint32_t *map)
{
	bool pos_changed;

	if (!positions_apart(p, newpos, &pos_changed))
		return false;
	if (!idents_apart(p, ident)) {
		profile_drop_indexes(p);
		return false;
	}
	for (size_t f = 0; f < p->nfuncs; f++) {
		p->funcs[f] = ident[f];
		if (ident_line && ident_line[f] != profile_func_line(p, (uint32_t)f))
			profile_set_func_line(p, (uint32_t)f, ident_line[f]);
		if (map)
			map[f] = (uint32_t)f;
	}
	if (pos_changed) {
		for (size_t i = 0; i < p->npos; i++) {
			p->pos[i].file = newpos[i].file;
			p->pos[i].line = newpos[i].line;
		}
		profile_drop_pos_table(p);
	}
	/* the identities changed and the arcs may be numbered anew: the
	 * indexes are built again by the next look-up */
	profile_drop_indexes(p);
	drop_empty_calls(p);
	return true;
}
