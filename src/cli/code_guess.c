/*
 * --disasm=WHAT with its binary in one read (code_guess.h): what each
 * function's first position says, while the profile is read.
 */
#include "code_guess.h"

#include <stdlib.h>

#include "base/path.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "code_symbols.h"
#include "kept_binary.h"
#include "profile/pos_select.h"
#include "select/symspec.h"

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
	uint64_t *bounds;		/* the regions (code_make_regions()) */
	uint8_t *in_seg;
	uint32_t *sym_of, nb;
};

void code_guess_free(struct guess *g)
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
 * say: WHAT names it (its symbol is then listed: code_mark_required()), or
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
	       (k = code_region_of(g->bounds, g->nb, addr)) != NO_ID &&
	       g->sym_of[k] != NO_ID && g->req[g->sym_of[k]];
}

/* --disasm=WHAT with its binary (bin: -b's, or NULL: the header's):
 * make p keep whole, in one read, what guess_keep() says (false: not
 * this way). */
bool code_guess(struct code_positions *cp, struct profile *p,
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
	/* without -b, the program the profile's header names, kept for the
	 * resolution after reading (kept_binary.h): the object found then
	 * (that of the costliest function WHAT names) is checked against
	 * it */
	if (!st) {
		struct symtab *hb = kept_binary_of_header(&cp->kept_bin,
							  &p->names, o);

		if (!hb)
			return false;
		if (!cp->kept_bin || cp->kept_bin->st != hb)
			own = hb;	/* a separate debug file */
		st = hb;
	}
	g = xcalloc(1, sizeof(*g));
	g->st = st;
	g->own = own;
	g->what = o->disasm_what;
	g->req = xcalloc(st->nsyms + 1, sizeof(*g->req));
	code_mark_named(st, g->what, g->req);
	cp->offset = rso->have_load_offset ? rso->load_offset : 0;
	g->off = cp->offset;
	g->lo = 1;
	g->hi = 0;
	for (size_t i = 0; i < st->nsyms; i++)
		if (g->req[i])
			guess_list(g, &st->syms[i]);
	code_make_regions(st, cp->offset, &g->bounds, &g->in_seg, &g->sym_of,
			  &g->nb);
	ps = pos_select_new();
	pos_select_regions(ps, NULL, g->bounds, g->in_seg, g->nb);
	/* as resolution's match_object() finds it, but for a link's name;
	 * without -b, the recorded object's whole name */
	base = !bin ? st->path
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
