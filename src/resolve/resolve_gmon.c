/*
 * gmon.out against its binary (-b): histogram bins and call arcs, which
 * are addresses, become functions with self time and calls, the way
 * gprof does it (hist.c, call_graph.c in GNU gprof):
 *
 *  - the functions are the binary's code symbols (ELF functions and
 *    untyped symbols in executable segments; not the synthetic @plt
 *    entries, which gprof does not have; not the local labels gprof
 *    leaves out by name, see gprof_function_name, where we also say
 *    where we differ from gprof), and each one reaches up to the next
 *    one: code between two symbols belongs to the one before;
 *  - gprof works in 2-byte units (its counter size): a symbol starts at
 *    addr / 2, a histogram of nbins over [low, high) has bins of
 *        scale = ((high - low) / 2) / nbins      units (a double)
 *    and bin i covers [low/2 + (uint64)(scale * i),
 *                      low/2 + (uint64)(scale * (i + 1))), truncated;
 *  - a bin's count is shared among the functions it overlaps, each
 *    getting overlap * count / scale:
 *
 *          fn A            | fn B
 *      ----+-------+-------+--+------+----
 *          | bin i |  bin i+1 | ...        bin i+1 overlaps A by 1 unit
 *                  |<-1->|<-1->|           and B by 1: half each
 *
 *    Because the bin bounds are truncated to whole units while scale
 *    is not, a function covering whole bins gets slightly more than
 *    their counts when scale is not a whole number (1.0016 times on
 *    the test program): gprof's flat profile then shows 100.16%. We
 *    follow gprof's arithmetic, so that the listings agree with it
 *    (tests/test_gmon.c says more);
 *  - an arc (from_pc, self_pc, count) is a call from the function
 *    holding from_pc (a return address) to the one holding self_pc;
 *  - addresses below the first function or past the last one's segment
 *    go to "<locore>" and "<hicore>", gprof's names for them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "gmon_pos.h"
#include "profile/gmon_data.h"
#include "resolve.h"

#define PF_X_FLAG 1u		/* ELF segment flag: executable */

struct gfunc {
	uint64_t lo, hi;	/* link-time [lo, hi) */
	name_id name, raw;	/* raw: as the symbol table spells it */
	bool local;
	uint32_t pfunc;		/* profile function, NO_ID until needed */
};

struct gtable {
	struct gfunc *v;	/* v[0] <locore>, v[n-1] <hicore> */
	size_t n;
};

static bool in_code(const struct symtab *st, uint64_t addr)
{
	const struct segment *seg = symtab_segment(st, addr);

	return seg && (seg->flags & PF_X_FLAG);
}

/*
 * Whether gprof (2.40, corefile.c) takes a symbol for a function: global
 * and weak ones always; a local one only when its name has no '$' and
 * every '.' in it starts a part of digits, optionally after "clone." or
 * "constprop." ("f.1", "f.constprop.0", "f.clone.3.7").
 *
 * We apply this to untyped symbols only (labels, where the rule is
 * meant for file names and Pascal labels), not to ELF functions: gprof
 * also drops GCC's local "f.part.0", "f.isra.0" and "f.cold", which are
 * functions with their own code (and for a .part, their own mcount
 * calls), and gives their time and calls to whatever symbol precedes
 * them. tests/gmon/prog.c has such a function; tests/test_gmon.c shows
 * gprof charging its 20000 calls to frame_dummy, and us not.
 */
static bool gprof_function_name(const char *name, bool is_local)
{
	static const char *const prefixes[] = { ".clone.", ".constprop." };

	if (!is_local)
		return true;
	if (!*name)
		return false;
	for (const char *c = name; *c;) {
		bool digits = false;

		if (*c == '$')
			return false;
		if (*c != '.') {
			c++;
			continue;
		}
		for (size_t k = 0; k < 2; k++) {
			size_t n = strlen(prefixes[k]);

			if (strlen(c) > n && !strncmp(c, prefixes[k], n)) {
				c += n - 1;
				break;
			}
		}
		for (c++; *c && *c != '.'; c++) {
			if (*c < '0' || *c > '9')
				return false;
			digits = true;
		}
		if (!digits)
			return false;
	}
	return true;
}

static void build_table(const struct symtab *st, struct gtable *t)
{
	size_t n = 0;

	t->v = xcalloc(st->nsyms + 2, sizeof(*t->v));
	t->v[n++] = (struct gfunc){ 0, 0, NO_NAME, NO_NAME, false, NO_ID };
	for (size_t i = 0; i < st->nsyms; i++) {
		const struct sym *s = &st->syms[i];

		if (s->kind != SYM_FUNC && s->kind != SYM_OTHER)
			continue;
		if (!in_code(st, s->addr))
			continue;
		if (s->kind == SYM_OTHER &&
		    !gprof_function_name(names_str(st->names, s->raw), s->is_local))
			continue;
		t->v[n++] = (struct gfunc){ s->addr, 0, s->name, s->raw,
					    s->is_local, NO_ID };
	}
	/* each reaches to the next; the last to the end of its segment */
	for (size_t i = 1; i + 1 < n; i++)
		t->v[i].hi = t->v[i + 1].lo;
	if (n > 1) {
		const struct segment *seg = symtab_segment(st, t->v[n - 1].lo);

		t->v[n - 1].hi = seg->vaddr + seg->memsz;
		if (t->v[n - 1].hi <= t->v[n - 1].lo)
			t->v[n - 1].hi = t->v[n - 1].lo + 1;
		t->v[0].hi = t->v[1].lo;
	}
	t->v[n] = (struct gfunc){ n > 1 ? t->v[n - 1].hi : 0, UINT64_MAX,
				  NO_NAME, NO_NAME, false, NO_ID };
	t->n = n + 1;
}

/* The table entry holding link-time address a (always one). */
static size_t lookup(const struct gtable *t, uint64_t a)
{
	size_t lo = 0, hi = t->n;	/* v[lo].lo <= a < v[hi].lo */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].lo <= a)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* for gprof's index: the symbol behind profile function f */
static void remember_sym(struct gmon_data *gd, uint32_t f, name_id raw,
			 bool local)
{
	if (f >= gd->nsyms) {
		ARRAY_GROW(gd->syms, (size_t)f + 1, gd->syms_alloc);
		for (size_t i = gd->nsyms; i <= f; i++)
			gd->syms[i] = (struct gmon_sym){ NO_NAME, false };
		gd->nsyms = (size_t)f + 1;
	}
	gd->syms[f] = (struct gmon_sym){ raw, local };
}

static uint32_t pfunc_of(struct profile *p, const struct symtab *st,
			 struct gtable *t, size_t i, name_id object)
{
	struct gfunc *g = &t->v[i];

	if (g->pfunc == NO_ID) {
		name_id name = g->name, file = NO_NAME;
		const struct line_entry *le = NULL;

		if (i == 0)
			name = names_intern(&p->names, "<locore>", 8);
		else if (i == t->n - 1)
			name = names_intern(&p->names, "<hicore>", 8);
		else
			le = symtab_line(st, g->lo);
		if (le && !le->end_sequence)
			file = le->file;
		g->pfunc = profile_func(p, object, file, name);
		if (le && !le->end_sequence)
			profile_set_func_line(p, g->pfunc, le->line);
		remember_sym(p->gmon, g->pfunc, g->raw, g->local);
	}
	return g->pfunc;
}

/*
 * -pg code calls mcount first thing, so an arc's self_pc (the return
 * address of that call) lies just past the start of a function: within
 * MCOUNT_REACH bytes on every target gcc supports here (x86-64: 9 bytes,
 * 13 with endbr64). How many arcs do so with offset off taken off is the
 * evidence both for a load offset and that the binary is the right one.
 */
#define MCOUNT_REACH 64

/* Whether link-time address a is in one of the table's functions (not
 * below the first or past the last). */
static bool in_function(const struct gtable *t, uint64_t a)
{
	size_t k = lookup(t, a);

	return k > 0 && k + 1 < t->n;
}

static uint64_t arcs_at_entry(const struct gmon_data *g,
			      const struct gtable *t, uint64_t off)
{
	uint64_t n = 0;

	for (size_t i = 0; i < g->narcs; i++) {
		uint64_t self = g->arcs[i].self - off;
		size_t k = lookup(t, self);

		n += k > 0 && k + 1 < t->n && self - t->v[k].lo < MCOUNT_REACH;
	}
	return n;
}

/*
 * What the arcs say of the binary. glibc records an arc when its call
 * site is in the main program; when a shared library was built with -pg
 * too, a call into it is recorded with the library's address, outside
 * the binary. gprof finds no symbol for such an address and leaves the
 * arc out (call_graph.c: an arc needs both ends); so do we, counting
 * them. The match is judged on the arcs inside the binary: every one of
 * those goes to a function's entry, where -pg code calls mcount.
 */
struct arc_count {
	uint64_t ours;		/* both ends in the binary's functions */
	uint64_t ours_at_entry;	/* of those, to a function's entry */
	uint64_t into_others;	/* from our code to outside the binary */
	uint64_t strays;	/* the rest: a call site outside our code */
};

static bool arc_is_ours(const struct gmon_arc *a, const struct gtable *t,
			uint64_t off)
{
	return in_function(t, a->from - off) && in_function(t, a->self - off);
}

static void count_arcs(const struct gmon_data *g, const struct symtab *st,
		       const struct gtable *t, uint64_t off,
		       struct arc_count *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < g->narcs; i++) {
		const struct gmon_arc *a = &g->arcs[i];
		uint64_t self = a->self - off;
		size_t k = lookup(t, self);

		if (arc_is_ours(a, t, off)) {
			c->ours++;
			c->ours_at_entry += self - t->v[k].lo < MCOUNT_REACH;
		} else if (in_function(t, a->from - off) && !in_code(st, self)) {
			c->into_others++;
		} else {
			c->strays++;
		}
	}
}

static uint64_t lowest_vaddr(const struct symtab *st)
{
	uint64_t low = UINT64_MAX;

	for (size_t i = 0; i < st->nsegs; i++)
		if (st->segs[i].vaddr < low)
			low = st->segs[i].vaddr;
	return low == UINT64_MAX ? 0 : low;
}

/*
 * glibc (2.36 here) writes link-time addresses for a PIE: it takes the
 * load address off (the histogram of a PIE starts at 0). Older ones
 * wrote runtime addresses; then the offset is where the histogram
 * starts less where the binary's lowest segment is linked, page-aligned
 * as loaders place objects. The candidate that puts more arcs at a
 * function's entry wins; 0 on a tie.
 */
static void find_offset(const struct gmon_data *g, const struct symtab *st,
			const struct gtable *t, const struct resolve_opts *o,
			struct resolve_report *r)
{
	uint64_t at0, cand, atc;

	if (o->have_load_offset) {
		r->load_offset = o->load_offset;
		snprintf(r->offset_reason, sizeof(r->offset_reason),
			 "given with --load-offset");
		return;
	}
	r->load_offset = 0;
	snprintf(r->offset_reason, sizeof(r->offset_reason),
		 "the file has link-time addresses");
	if (!g->nhists || !st->is_dyn || g->hists[0].low <= lowest_vaddr(st))
		return;
	cand = (g->hists[0].low - lowest_vaddr(st)) & ~(uint64_t)0xfff;
	at0 = arcs_at_entry(g, t, 0);
	atc = arcs_at_entry(g, t, cand);
	if (atc > at0) {
		r->load_offset = cand;
		snprintf(r->offset_reason, sizeof(r->offset_reason),
			 "where the histogram starts: %llu of %zu arcs reach a function's entry with it, %llu without",
			 (unsigned long long)atc, g->narcs,
			 (unsigned long long)at0);
	}
}

/* gprof's hist_assign_samples for one histogram (see the top). */
static void assign_hist(const struct gmon_hist *h, uint64_t off,
			const struct gtable *t, double *credit)
{
	uint64_t lowpc = (h->low - off) / 2;
	double scale = (double)((h->high - h->low) / 2) / h->nbins;
	size_t j = 0;

	for (uint32_t i = 0; i < h->nbins; i++) {
		uint64_t count = h->bins[i], blo, bhi;

		if (!count)
			continue;
		blo = lowpc + (uint64_t)(scale * i);
		bhi = lowpc + (uint64_t)(scale * (i + 1));
		/* back up to the first function the bin can touch */
		while (j > 0 && t->v[j].lo / 2 > blo)
			j--;
		for (; j < t->n; j++) {
			uint64_t slo = t->v[j].lo / 2;
			uint64_t shi = j + 1 < t->n ? t->v[j + 1].lo / 2
						    : UINT64_MAX;
			uint64_t lo, hi;

			if (bhi < slo)
				break;
			if (blo >= shi)
				continue;
			lo = blo > slo ? blo : slo;
			hi = bhi < shi ? bhi : shi;
			if (hi > lo)
				credit[j] += (double)(hi - lo) * (double)count /
					     scale;
			if (shi > bhi)
				break;
		}
	}
}

/*
 * glibc's histogram covers the program's own text, so ticks below its
 * first function or past its last ("<locore>", "<hicore>") mean a
 * histogram that is not over this binary's code: a damaged range (a
 * high_pc of 2^64 - 1 gave <hicore> 100% of the time, where gprof
 * drops them all and prints 0.00 seconds) or another program's file.
 * Listed, as gprof names them, and said.
 */
static void warn_outside(const struct gmon_data *g, const struct symtab *st,
			 const struct gtable *t, const double *credit)
{
	double all = 0, out = credit[0] + credit[t->n - 1];

	for (size_t i = 0; i < t->n; i++)
		all += credit[i];
	if (out <= 0 || all <= 0 || !g->nhists)
		return;
	warning("%s: %.1f%% of the gmon.out's histogram ticks fall outside "
		"the binary's functions (<locore>, <hicore>): its histogram "
		"[0x%llx, 0x%llx) is not over this binary's code; the file "
		"may be damaged, or of another program", st->path,
		100.0 * out / all, (unsigned long long)g->hists[0].low,
		(unsigned long long)g->hists[0].high);
}

/* What gmon_positions() asks back: functions as the table has them. */
struct pos_ctx {
	struct profile *p;
	const struct symtab *st;
	struct gtable *t;
	name_id object;
	const uint32_t *arc_call;	/* per g->arcs[i]: its profile call */
	const uint64_t *self;		/* and its link-time self_pc */
};

static uint32_t ctx_func_at(void *arg, uint64_t a)
{
	struct pos_ctx *c = arg;

	return pfunc_of(c->p, c->st, c->t, lookup(c->t, a), c->object);
}

static uint32_t ctx_call_of(void *arg, size_t i, uint64_t *callee_lo,
			    uint64_t *callee_hi)
{
	const struct pos_ctx *c = arg;
	const struct gfunc *callee = &c->t->v[lookup(c->t, c->self[i])];

	*callee_lo = callee->lo;
	*callee_hi = callee->hi;
	return c->arc_call[i];
}

static name_id event_name(struct profile *p, const struct gmon_data *g)
{
	const char *d = g->nhists ? g->hists[0].dimen : "seconds";

	return names_intern(&p->names, d, strlen(d));
}

/*
 * Whether st can have written a gmon.out: -pg code calls mcount (glibc's
 * x86 "mcount", "_mcount" on aarch64 and the BSDs, "__fentry__" with
 * -mfentry), and a program linked with -pg calls __monstartup from
 * gcrt1.o even where its objects were compiled without it (a histogram
 * and no arcs, which gprof lists); undefined in a dynamic binary
 * (st->calls_mcount), defined in a static one. A table that could not
 * show it (a stripped static binary: no symbol table) is given the
 * benefit of the doubt. A PIE of the same program built without -pg
 * passed the arcs' check (3 arcs, 2 at an entry at a guessed offset)
 * and had its functions listed with the gmon.out's figures, wrongly
 * (gprof -b listed none).
 */
static bool calls_mcount(const struct symtab *st)
{
	static const char *const defined[] = {
		"mcount", "_mcount", "__mcount", ".mcount", "__fentry__",
		"__monstartup", "monstartup",
	};

	if (st->calls_mcount || !st->has_symtab)
		return true;
	for (size_t i = 0; i < sizeof(defined) / sizeof(defined[0]); i++) {
		name_id id = names_find(st->names, defined[i],
					strlen(defined[i]));

		if (id != NO_NAME && symtab_find(st, id))
			return true;
	}
	return false;
}

int resolve_gmon(struct profile *p, const struct symtab *st,
		 const struct resolve_opts *o, struct resolve_report *r)
{
	const struct gmon_data *g = p->gmon;
	struct gtable t;
	double *credit;
	uint32_t *arc_call;
	uint64_t *arc_self;
	name_id object = names_intern(&p->names, st->path, strlen(st->path));
	uint32_t ev;
	uint64_t outside = 0;
	struct arc_count ac;

	memset(r, 0, sizeof(*r));
	r->binary = st->path;
	r->object = NO_NAME;
	build_table(st, &t);
	if (t.n <= 2) {
		free(t.v);
		return error("%s: has no function symbols to give the gmon.out's addresses to",
			     st->path);
	}
	if (!calls_mcount(st)) {
		if (!o->force_binary) {
			free(t.v);
			return error("%s: was not built with -pg (it never calls "
				     "mcount), so it did not write the gmon.out: "
				     "give the binary that did (--force-binary "
				     "uses this one anyway)", st->path);
		}
		warning("%s: was not built with -pg (it never calls mcount), "
			"so it did not write the gmon.out; used as "
			"--force-binary asks", st->path);
	}
	find_offset(g, st, &t, o, r);
	for (size_t i = 0; i < g->narcs; i++) {
		uint64_t from = g->arcs[i].from - r->load_offset;
		uint64_t self = g->arcs[i].self - r->load_offset;

		outside += !in_code(st, from) + !in_code(st, self);
	}
	r->addresses = 2 * (uint64_t)g->narcs;
	r->outside = outside;
	count_arcs(g, st, &t, r->load_offset, &ac);
	r->arcs_elsewhere = ac.into_others;
	/* a real profile has every arc of its own there; a few strays are
	 * allowed */
	if (g->narcs >= 2 &&
	    ((ac.ours >= 2 && ac.ours_at_entry * 10 < ac.ours * 9) ||
	     ac.strays * 10 > (uint64_t)g->narcs)) {
		char others[64] = "";

		if (ac.into_others)
			snprintf(others, sizeof(others),
				 "%llu go into other objects; ",
				 (unsigned long long)ac.into_others);
		/* --force-binary as for the other formats: a gmon.out with
		 * an arc or two damaged, against the binary that wrote it,
		 * is listed as gprof lists it */
		if (!o->force_binary) {
			free(t.v);
			return error("%s: does not match the gmon.out: only %llu of its %zu call arcs go to the entry of one of the binary's functions, where -pg code calls mcount (%sload offset 0x%llx: %s); give the binary that wrote it (--force-binary uses this one anyway)",
				     st->path,
				     (unsigned long long)ac.ours_at_entry,
				     g->narcs, others,
				     (unsigned long long)r->load_offset,
				     r->offset_reason);
		}
		warning("%s: does not match the gmon.out: only %llu of its %zu call arcs go to the entry of one of the binary's functions (%sload offset 0x%llx: %s); used as --force-binary asks",
			st->path, (unsigned long long)ac.ours_at_entry,
			g->narcs, others, (unsigned long long)r->load_offset,
			r->offset_reason);
	}

	ev = profile_event(p, event_name(p, g));
	/* without a histogram the rate is unknown: gprof's default */
	p->events[ev].unit_seconds =
		1.0 / (g->nhists ? g->hists[0].rate : GMON_BSD_DEFAULT_RATE);
	credit = xcalloc(t.n, sizeof(*credit));
	for (size_t i = 0; i < g->nhists; i++)
		if (g->hists[i].nbins)
			assign_hist(&g->hists[i], r->load_offset, &t, credit);
	for (size_t i = 0; i < t.n; i++)
		if (credit[i] != 0)
			pfunc_of(p, st, &t, i, object);
	warn_outside(g, st, &t, credit);
	arc_call = xcalloc(g->narcs + 1, sizeof(*arc_call));
	arc_self = xcalloc(g->narcs + 1, sizeof(*arc_self));
	for (size_t i = 0; i < g->narcs; i++) {
		size_t from = lookup(&t, g->arcs[i].from - r->load_offset);
		size_t self = lookup(&t, g->arcs[i].self - r->load_offset);
		uint32_t c;

		arc_call[i] = NO_ID;
		if (!arc_is_ours(&g->arcs[i], &t, r->load_offset))
			continue;	/* as gprof: no symbol for an end */
		c = profile_call(p, pfunc_of(p, st, &t, from, object),
				 pfunc_of(p, st, &t, self, object));
		profile_call_add_count(p, c, g->arcs[i].count);
		arc_call[i] = c;
		arc_self[i] = g->arcs[i].self - r->load_offset;
	}
	if (o->want_positions) {
		struct pos_ctx ctx = { p, st, &t, object, arc_call, arc_self };
		struct gmon_pos_in in = { .p = p, .st = st, .g = g,
					  .load_offset = r->load_offset,
					  .event = ev, .func_at = ctx_func_at,
					  .call_of = ctx_call_of, .arg = &ctx };

		gmon_positions(&in);
	}
	free(arc_call);
	free(arc_self);
	p->est_self = xcalloc(p->nfuncs + 1, sizeof(*p->est_self));
	for (size_t i = 0; i < t.n; i++) {
		if (t.v[i].pfunc == NO_ID)
			continue;
		p->est_self[t.v[i].pfunc] = credit[i];
		profile_self(p, t.v[i].pfunc)[ev] = (uint64_t)llround(credit[i]);
	}
	p->est_total = (double)gmon_ticks(g);
	r->renamed = (uint32_t)p->nfuncs;
	free(credit);
	free(t.v);
	return 0;
}

void resolve_gmon_print_notes(FILE *out, const struct resolve_report *r)
{
	fprintf(out, "Symbols from %s: load offset 0x%llx (%s); %u function%s "
		"with time or calls",
		r->binary, (unsigned long long)r->load_offset, r->offset_reason,
		r->renamed, r->renamed == 1 ? "" : "s");
	if (r->addresses)
		fprintf(out, "; %llu of %llu call addresses inside its code",
			(unsigned long long)(r->addresses - r->outside),
			(unsigned long long)r->addresses);
	fputs(".\n", out);
	if (r->arcs_elsewhere)
		fprintf(out, "%llu call arc%s into other objects (shared "
			"libraries built with -pg too): left out, as gprof "
			"leaves them out.\n",
			(unsigned long long)r->arcs_elsewhere,
			r->arcs_elsewhere == 1 ? " goes" : "s go");
}
