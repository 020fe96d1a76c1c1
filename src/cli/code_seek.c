/*
 * The seek design: one read, the kept functions' blocks read again
 * (code_seek.h).
 */
#include "code_seek.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "code_keep.h"
#include "code_symbols.h"
#include "hot_files.h"
#include "kept_binary.h"
#include "profile/pos_fold.h"
#include "profile/pos_select.h"
#include "read/callgrind/callgrind_seek.h"
#include "read/line_reader.h"

void code_seek_forget(struct code_positions *cp)
{
	callgrind_seek_free(cp->seek);
	cp->seek = NULL;
	cp->seeking = false;
	cp->seek_st = NULL;
	if (cp->seek_names) {
		names_release(cp->seek_names);
		arena_release(cp->seek_arena);
		free(cp->seek_names);
		free(cp->seek_arena);
		cp->seek_names = NULL;
		cp->seek_arena = NULL;
	}
}

/* Whether path is read as it is on disk (not gzip'd or bzip2'd): its
 * offsets are then the text's, and its blocks can be read again by
 * them. A compressed file goes straight to the two reads (each
 * decompressing it) rather than through a one read that could not be
 * used: reading its kept blocks again would decompress the stream from
 * its start, most of what a second read costs there. */
static bool plain_file(const char *path)
{
	struct line_reader lr;
	bool plain;

	if (line_reader_open(&lr, path) < 0)
		return false;
	plain = lr.encoding == INPUT_PLAIN && lr.file_size;
	line_reader_close(&lr);
	return plain;
}

bool code_seek_begin(struct code_positions *cp, struct profile *p,
		     const struct options *o, const struct resolve_opts *rso,
		     struct symtab *bin)
{
	const char *env = getenv("CGANALYZE_SEEK");
	struct symtab *st = bin;
	struct pos_select *ps;

	/* region_read()'s conditions, and one plain input */
	if ((env && !strcmp(env, "0")) || o->ninputs != 1 ||
	    o->nbinaries > 1 || o->positions_again ||
	    getenv("CGANALYZE_NO_REGION_READ") || !plain_file(o->inputs[0]))
		return false;
	if (!o->nbinaries) {
		/* opened into names of its own until the read ends: the
		 * profile's names are made in the order the read makes
		 * them, the binary's after, as the two reads make them */
		cp->seek_arena = xcalloc(1, sizeof(*cp->seek_arena));
		cp->seek_names = xcalloc(1, sizeof(*cp->seek_names));
		arena_init(cp->seek_arena);
		names_init(cp->seek_names, cp->seek_arena);
		st = kept_binary_of_header(&cp->kept_bin, cp->seek_names, o);
	}
	if (!st || (o->mode == OUT_HTML && st->nlines)) {
		code_seek_forget(cp);
		return false;
	}
	cp->seek_off = rso->have_load_offset ? rso->load_offset : 0;
	ps = code_region_select(st, cp->seek_off, o, rso);
	ps->per_func = true;
	p->pos_detail = POS_SELECT;
	p->pos_select = ps;
	cp->seek = callgrind_seek_new();
	cp->seek_st = st;
	cp->seeking = true;
	return true;
}

struct callgrind_seek *code_seek_opts(const struct code_positions *cp)
{
	return cp->seeking ? cp->seek : NULL;
}

/* Which functions the second read would keep whole: by the names kept,
 * as each one's first position finds. */
static uint8_t *kept_funcs(struct profile *p)
{
	uint8_t *kept = xcalloc(p->nfuncs + 1, sizeof(*kept));

	for (uint32_t f = 0; f < p->nfuncs; f++)
		kept[f] = pos_select_keeps(p->pos_select, p, f);
	return kept;
}

static bool fail(struct code_positions *cp, const char *why)
{
	cp->seek_why = why;
	return false;
}

/*
 * Whether the kept blocks are so many and so small that reading them one
 * by one costs more than reading the whole file again: each costs about
 * 1.3 us whatever its size, about what the one read takes for 256 bytes
 * (the file of 400,000 tiny blocks of 22 bytes, seek.sh: 0.33 s read once
 * and the blocks again, 0.06 to 0.12 s read twice).
 */
static bool many_tiny_blocks(const struct pos_block *blk, size_t n)
{
	uint64_t bytes = 0;

	if (n <= 4096)
		return false;
	for (size_t i = 0; i < n; i++)
		bytes += blk[i].end - blk[i].off;
	return bytes / n < 256;
}

/* The functions kept whole, chosen from the read by the binary's
 * regions at the load offset found; with regions, ps also reads by them
 * (the second read's selection). */
static void keep_exact(const struct code_positions *cp, struct profile *p,
		       const struct options *o, const struct symtab *st,
		       name_id ob, struct pos_select *ps, bool regions)
{
	uint64_t *bounds = NULL;
	uint8_t *in_seg = NULL, *req;
	uint32_t *sym_of = NULL, nb = 0;

	code_make_regions(st, cp->seek_off, &bounds, &in_seg, &sym_of, &nb);
	if (regions)
		pos_select_regions(ps, profile_str(p, ob), bounds, in_seg, nb);
	req = xcalloc(st->nsyms + 1, sizeof(*req));
	code_exact_required(p, st, ob, sym_of, nb, o, req);
	code_keep_exact(p, st, ob, sym_of, nb, req, ps);
	free(req);
	free(bounds);
	free(in_seg);
	free(sym_of);
}

/*
 * The one read as the first of the two (code_positions_choose() by
 * region): where its blocks cannot be read again (an id defined twice,
 * a relative first line, several parts, the splitting thread, many tiny
 * blocks) but it read the whole file by the binary's regions, as that
 * read would, the functions the second read keeps whole are chosen from
 * it as from that read, which is then not made: two reads, not three.
 * Only where that read would be by region (the guessed object and load
 * offset found again), and for --disasm: the report's first read also
 * chooses its annotated source's files, and follows as before.
 */
static void choose_for_two(struct code_positions *cp, struct profile *p,
			   const struct options *o,
			   const struct resolve_opts *rso,
			   const struct symtab *st, name_id ob)
{
	const char *env = getenv("CGANALYZE_SEEK_REUSE");
	uint64_t got_off;
	struct pos_select *ps;
	name_id got_ob;

	if ((env && !strcmp(env, "0")) || o->mode == OUT_HTML)
		return;
	profile_drop_indexes(p);
	if (resolve_guess_offset(p, st, rso, &got_ob, &got_off) < 0 ||
	    got_ob != ob || got_off != cp->seek_off)
		return;
	ps = pos_select_new();
	keep_exact(cp, p, o, st, ob, ps, true);
	pos_select_free(cp->next_select);
	free(cp->next_object);
	cp->next_select = ps;
	cp->next_object = xstrdup(profile_str(p, ob));
	cp->next_offset = cp->seek_off;
}

static bool seek_end(struct code_positions *cp, struct profile *p,
		     const struct options *o, const struct resolve_opts *rso)
{
	bool html = o->mode == OUT_HTML;
	double thr = o->threshold_given ? o->threshold : 1.0;
	struct pos_select *ps = p->pos_select;
	struct symtab *st = cp->seek_st;
	const char *why, *path, *guessed;
	uint64_t got_off;
	name_id got_ob;
	uint8_t *kept;
	const struct pos_block *blk;
	size_t nblk;
	name_id ob;
	int r;

	pos_select_finish(ps);
	why = callgrind_seek_unusable(cp->seek);
	/* its blocks cannot be read again: the two reads, of which it
	 * may be the first but for the report (choose_for_two()) */
	if (why && o->mode == OUT_HTML)
		return fail(cp, why);
	/* a function of no object taken for the binary's */
	if (ps->noname_in)
		return fail(cp, why ? why : "a function of no object");
	if (!o->nbinaries) {
		/* kept_binary_use() sets the path it is given anew */
		char *at = xstrdup(st->path);

		st = kept_binary_use(cp->kept_bin, at, &p->names);
		free(at);
		if (!st)
			return fail(cp, "the binary");
	}
	guessed = ps->object;
	path = o->nbinaries ? st->path
	       : recorded_object_path(p, html ? NULL : o->disasm_what);
	if (!guessed || !p->has_instr || !path || strcmp(path, st->path) ||
	    (ob = names_find(&p->names, guessed, strlen(guessed))) == NO_NAME)
		return fail(cp, why ? why : "not the binary's object");
	if (why) {
		choose_for_two(cp, p, o, rso, st, ob);
		return fail(cp, why);
	}
	keep_exact(cp, p, o, st, ob, ps, false);
	if (html) {
		p->pos_all_files = thr <= 0;
		hot_files_keep(p, p, thr);
	}
	ps->per_func = false;
	kept = kept_funcs(p);
	blk = callgrind_seek_kept(cp->seek, kept, p->nfuncs, &nblk);
	if (many_tiny_blocks(blk, nblk)) {
		free(kept);
		choose_for_two(cp, p, o, rso, st, ob);
		return fail(cp, "many tiny blocks: reading the file again "
				"costs less");
	}
	r = profile_fold_positions(p, kept, blk, nblk, callgrind_seek_block,
				   cp->seek);
	free(kept);
	if (r < 0)
		return fail(cp, "a kept function's block not read again as "
				"the read read it");
	/* the tables that found functions and arcs are done with (as
	 * profile_finish() drops them), before the load offset is looked
	 * for: it takes per function what they held */
	profile_drop_indexes(p);
	/* the object and load offset the regions assumed, as resolution
	 * will find them (region_read() checks them before choosing) */
	if (resolve_guess_offset(p, st, rso, &got_ob, &got_off) < 0 ||
	    got_ob != ob || got_off != cp->seek_off)
		return fail(cp, "not the binary's object, or at another "
				"load offset");
	cp->active = true;
	cp->by_region = true;
	cp->seeked = true;
	cp->object = xstrdup(profile_str(p, ob));
	cp->offset = cp->seek_off;
	callgrind_seek_free(cp->seek);
	cp->seek = NULL;
	cp->seeking = false;
	return true;
}

bool code_seek_end(struct code_positions *cp, struct profile *p,
		   const struct options *o, const struct resolve_opts *rso)
{
	FILE *quiet, *sink = diag_sink();
	bool ok;

	if (!cp->seeking)
		return true;
	/* what choosing says (the load offset guessed, the blocks read
	 * again) the first of the two reads says to no one */
	if (!(quiet = fopen("/dev/null", "w")))
		return fail(cp, "no /dev/null");
	diag_set_sink(quiet);
	ok = seek_end(cp, p, o, rso);
	diag_set_sink(sink == stderr ? NULL : sink);
	fclose(quiet);
	return ok;
}
