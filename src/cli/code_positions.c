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
 * own and kept (kept_binary.h), so that the resolution after the
 * read takes it (code_positions_take()) instead of opening the same
 * file again: on a big -g program, loading its symbols and lines is
 * much of the run.
 *
 * Where the first read would be by the binary's regions, the seek
 * design reads once instead, the kept functions' blocks read again by
 * offset (code_seek.c); where it cannot, these two reads follow.
 *
 * The parts, each a file: the symbols and regions and the rule of
 * what is listed (code_symbols.c), what the first read says
 * (code_keep.c), the one read of --disasm=WHAT (code_guess.c), the
 * binary kept from before the read (kept_binary.c); here the order of
 * the reads and the checks.
 */
#include "code_positions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "code_guess.h"
#include "code_keep.h"
#include "code_seek.h"
#include "code_symbols.h"
#include "hot_files.h"
#include "kept_binary.h"
#include "profile/pos_select.h"
#include "read/read.h"
#include "select/name_match.h"

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

/* What the read said, dropped, and held anew for the next: false
 * (the sink given back) when it cannot be. */
static bool hold_again(struct code_positions *cp)
{
	fclose(cp->held);
	free(cp->text);
	cp->held = NULL;
	cp->text = NULL;
	cp->len = 0;
	if (!hold(cp)) {
		diag_set_sink(cp->sink == stderr ? NULL : cp->sink);
		return false;
	}
	return true;
}

bool code_positions_retry(struct code_positions *cp)
{
	if (cp->seeking && cp->held) {
		/* the one read could not be used: the two reads */
		code_seek_forget(cp);
		cp->seek_failed = true;
		cp->active = false;
		cp->kept = cp->funcs = 0;
		free(cp->object);
		cp->object = NULL;
		return hold_again(cp);
	}
	if (!cp->guessed || !cp->held)
		return false;
	if (!hold_again(cp))
		return false;
	code_guess_free(cp->guess);
	cp->guess = NULL;
	/* cp->kept_bin stays: the two reads open the same program */
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
	if (show && (cp->seeked || cp->seek_failed))
		fprintf(stderr, "cganalyze: positions: %s%s\n",
			cp->seeked ? "read once, the kept functions' blocks "
				     "read again"
				   : "not read once: ",
			cp->seeked ? "" : cp->seek_why ? cp->seek_why : "");
	if (show && cp->active && cp->reused)
		fprintf(stderr, "cganalyze: positions: the one read was the "
			"first of the two\n");
	if (show && cp->active && cp->first_again)
		fprintf(stderr, "cganalyze: positions: the first read made "
			"again by 32 bytes of code\n");
	code_guess_free(cp->guess);
	code_seek_forget(cp);
	pos_select_free(cp->next_select);
	free(cp->next_object);
	kept_binary_free(cp->kept_bin);
	free(cp->object);
	memset(cp, 0, sizeof(*cp));
	cp->show = show;
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

/*
 * -b's table (cp->bin, its names the profile's) renamed into names (the
 * first read's), as open_binary() of it into them would make it: every
 * name of the profile interned there in the order of its ids (the
 * profile has, before reading, the binary's names in the order its
 * opening interned them). Given back by drop_binary(). NULL: none, or
 * lent already.
 */
static struct symtab *lend_bin(struct code_positions *cp, struct names *names)
{
	struct symtab *st = cp->bin;
	size_t n;
	bool *skip;
	name_id *ids, top = 0;

	if (!st || cp->lent_back)
		return NULL;
	n = st->names->nr;
	skip = xcalloc(n + 1, sizeof(*skip));
	ids = xmalloc((n + 1) * sizeof(*ids));
	names_intern_from(names, st->names, skip, ids);
	for (size_t i = 0; i < n; i++)
		if (ids[i] != NO_NAME && ids[i] >= top)
			top = ids[i] + 1;
	cp->lent_back = xmalloc(((size_t)top + 1) * sizeof(*cp->lent_back));
	for (size_t i = 0; i <= top; i++)
		cp->lent_back[i] = NO_NAME;
	for (size_t i = 0; i < n; i++)
		if (ids[i] != NO_NAME)
			cp->lent_back[ids[i]] = (name_id)i;
	cp->bin_home = st->names;
	symtab_rename(st, names, ids);
	free(ids);
	free(skip);
	return st;
}

/* open_binary() of path into names (the first read's): with -b its
 * table lent, without it the table cp keeps where it can; the table, or
 * NULL. */
static struct symtab *open_q(struct code_positions *cp,
			     const struct options *o, struct names *names,
			     const char *path)
{
	struct symtab *st;

	if (o->nbinaries) {
		if ((st = lend_bin(cp, names)))
			return st;
		return open_binary(o, names, path, &st) < 0 ? NULL : st;
	}
	st = kept_binary_use(cp->kept_bin, path, names);
	return st ? st : kept_binary_open(&cp->kept_bin, o, path, names);
}

/* st released unless cp keeps it; -b's given back into the profile's
 * names. */
static void drop_binary(struct code_positions *cp, struct symtab *st)
{
	if (st && st == cp->bin && cp->lent_back) {
		symtab_rename(st, cp->bin_home, cp->lent_back);
		free(cp->lent_back);
		cp->lent_back = NULL;
		return;
	}
	if (!st || (cp->kept_bin && cp->kept_bin->st == st))
		return;
	symtab_release(st);
	free(st);
}

struct symtab *code_positions_take(struct code_positions *cp,
				   const char *path, struct names *names)
{
	return kept_binary_take(&cp->kept_bin, path, names);
}

/* Whether a function of q has a name with a quote, whose base
 * resolve_named_sym() looks up by its text. */
static bool quoted_names(const struct profile *q)
{
	for (uint32_t f = 0; f < q->nfuncs; f++)
		if (q->funcs[f].name != NO_NAME &&
		    strchr(profile_str(q, q->funcs[f].name), '\''))
			return true;
	return false;
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
	uint64_t got_off;
	const char *path, *guessed;
	name_id got_ob;
	enum region_way way = READ_AGAIN;

	if (o->nbinaries > 1 || o->positions_again ||
	    getenv("CGANALYZE_NO_REGION_READ"))
		return READ_AGAIN;
	if (o->nbinaries) {
		if (!(st = open_q(cp, o, &q->names, o->binaries[0])))
			return READ_AGAIN;
	} else if (!(st = kept_binary_of_header(&cp->kept_bin, &q->names, o))) {
		/* the report's with lines kept for after the read */
		return READ_AGAIN;
	}
	/* the binary's lines go to the positions with none (resolve.c),
	 * which the report's annotated source shows: every position */
	if (html && st->nlines)
		goto out;
	*off = rso->have_load_offset ? rso->load_offset : 0;
	ps = code_region_select(st, *off, o, rso);
	if (!first_read(q, ro, o, ps)) {
		way = READ_FAILED;
		goto out;
	}
	/* profile_finish() dropped the table resolve_named_sym() finds a
	 * quoted name's base by ("fib'2": names_find() of q's names, which
	 * the symbols' are): an intern builds it again, where q has one
	 * (many.60 has none: 1% of its report's run was this) */
	if (quoted_names(q))
		names_intern(&q->names, st->path, strlen(st->path));
	guessed = q->pos_select->object;
	/* a function of no object taken for the binary's: its rows are by
	 * region, whatever the binary's object is */
	if (q->pos_select->noname_in)
		goto out;
	way = BY_PIECES;
	/* without -b, the object the listing takes after reading */
	path = o->nbinaries ? st->path
	       : recorded_object_path(q, html ? NULL : o->disasm_what);
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
			   struct symtab *bin)
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
	cp->bin = bin;
	if (code_guess(cp, p, bin, o, rso))
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
	/* the seek design: this read chooses nothing, the real one does */
	if (!cp->seek_failed && code_seek_begin(cp, p, o, rso, bin))
		goto out;
	/* ... or it could not, and its read chose as the first would */
	if (cp->next_select) {
		p->pos_detail = POS_SELECT;
		p->pos_select = cp->next_select;
		cp->next_select = NULL;
		cp->active = true;
		cp->by_region = true;
		cp->reused = true;
		cp->object = cp->next_object;
		cp->next_object = NULL;
		cp->offset = cp->next_offset;
		handled = true;
		goto out;
	}
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
			      : recorded_object_path(&q, html ? NULL : o->disasm_what);
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
	    kept_binary_is(cp->kept_bin, path))
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
	code_make_regions(st, off, &bounds, &in_seg, &sym_of, &nb);
	ps = pos_select_new();
	pos_select_regions(ps, ob == NO_NAME ? NULL : profile_str(&q, ob),
			   bounds, in_seg, nb);
	if (!o->positions_again) {
		req = xcalloc(st->nsyms + 1, sizeof(*req));
		if (by_region) {
			code_exact_required(&q, st, ob, sym_of, nb, o, req);
			code_keep_exact(&q, st, ob, sym_of, nb, req, ps);
		} else {
			code_bounded_required(&q, st, ob, bounds, nb, sym_of, o,
					      req);
			code_keep_touching(&q, st, ob, bounds, nb, sym_of, req, ps);
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
		if (!a || !code_in_object(p, q->func, r->object) ||
		    (s = code_sym_at(st, a, off)) == NO_ID)
			continue;
		code_combine_row(p, cost + s * stride, profile_pos_cost(p, (uint32_t)i));
	}
	if (o->mode == OUT_HTML)
		code_html_required(p, st, cost,
				   o->threshold_given ? o->threshold : 1.0,
				   req);
	else
		code_mark_required(p, st, r->object, cost, o, req);
	/* no listed symbol may have a position not kept whole inside it,
	 * nor a function listed there one */
	for (size_t i = 0; ok && i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		uint64_t a = q->addr;
		uint32_t s;

		if (!a && q->region >= 2)
			a = pos_select_region_addr(ps, q->region);
		if (!a || !code_in_object(p, q->func, r->object) ||
		    (s = code_sym_at(st, a, off)) == NO_ID || !req[s])
			continue;
		ok = !q->region && !coarse[q->func];
	}
	for (uint32_t f = 0; ok && f < p->nfuncs; f++) {
		const struct sym *sy;

		if (!coarse[f] || !code_in_object(p, f, r->object))
			continue;
		sy = resolve_named_sym(p, st, f);
		ok = !sy || !code_sym(sy) || !req[sy - st->syms];
	}
	free(cost);
	free(req);
	free(coarse);
	return ok;
}
