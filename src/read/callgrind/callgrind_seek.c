/*
 * The seek design's blocks read again (callgrind_seek.h).
 */
#include "callgrind_seek.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "callgrind_reader.h"
#include "profile/profile_index.h"
#include "profile/profile_rekey.h"
#include "read/line_reader.h"

struct callgrind_seek {
	bool given;			/* callgrind_seek_keep() was called */
	const char *why;		/* not usable: why */
	char *path;
	uint64_t file_size;
	/* the file as the read ended: opened again, it must be the same */
	struct stat st;
	bool have_st;
	struct callgrind_blocks blk;	/* every block, in file order */
	struct pos_block *kept;		/* the kept functions' */
	size_t nkept;
	/* the reader's header and ids as the read ended; ids in p's names */
	struct callgrind_reader end;
	struct line_reader whole;
	/* the blocks' reader, moved from one to the next: a sc3.out report
	 * at --threshold=0 reads 109,000 of them, and a reader's buffers
	 * made for each took 0.3 to 0.8 s of system time */
	struct line_reader part;
	bool open, part_open, shifted, changed;
	/* The blocks' profile and reader, made once and reset between
	 * blocks (the hostile file of 200,000 tiny blocks took 11 us a
	 * block to make and free them, whatever the block's size): q keeps
	 * its names and functions, its positions, call sites and jumps
	 * emptied; rd is made again from rd0 (the reader as made, before
	 * any block), keeping the buffers it made. */
	struct profile q;
	struct callgrind_reader rd, rd0;
	bool have_q;
	/* the blocks' messages: any fails the seek design, so the stream
	 * is never emptied */
	FILE *msgs;
	char *msg_buf;
	size_t msg_len;
	/* q's names, functions and arcs in p's (map_block()), kept from
	 * block to block: a name's is the same for every block (but the
	 * stand-ins for the state before the block, ph_ob and ph_fl: by
	 * the block's function), a function's and an arc's found again in
	 * each block that uses them (gen: the block they were found in) */
	name_id *names;
	uint8_t *name_known;
	size_t names_alloc;
	uint32_t *funcs, *func_gen;
	size_t funcs_alloc;
	uint32_t *calls, *call_gen;
	size_t calls_alloc;
	uint32_t gen;
	const char *shift_env, *change_env;
	bool env_read;
	/* SMALL_BLOCK and Q_MAX; tests make them small
	 * (CGANALYZE_SEEK_SMALL, CGANALYZE_SEEK_QMAX) to take the line
	 * reader's way and to make q again, which the samples' few small
	 * blocks never do */
	uint64_t small;
	size_t q_max;
	/* Small blocks are read from a window of the file, up to WINDOW
	 * bytes read at once, each copied out to be read (the reader
	 * writes in its text): two pread()s a block took half the time of
	 * the hostile file's 200,000. A window ends with the last kept
	 * block it holds whole (window_want()). */
	char *win, *text;
	uint64_t win_off;
	size_t win_len, text_alloc;
};

#define WINDOW ((size_t)1 << 20)
#define SMALL_BLOCK (WINDOW / 4)
#define Q_MAX ((size_t)1 << 15)

struct callgrind_seek *callgrind_seek_new(void)
{
	return xcalloc(1, sizeof(struct callgrind_seek));
}

void callgrind_seek_free(struct callgrind_seek *sk)
{
	if (!sk)
		return;
	callgrind_reader_release(&sk->end);
	if (sk->have_q) {
		callgrind_reader_release(&sk->rd);
		profile_release(&sk->q);
	}
	if (sk->msgs)
		fclose(sk->msgs);
	free(sk->msg_buf);
	free(sk->names);
	free(sk->name_known);
	free(sk->funcs);
	free(sk->func_gen);
	free(sk->calls);
	free(sk->call_gen);
	free(sk->win);
	free(sk->text);
	if (sk->part_open)
		line_reader_close(&sk->part);
	if (sk->open)
		line_reader_close(&sk->whole);
	free(sk->path);
	callgrind_blocks_release(&sk->blk);
	free(sk->kept);
	free(sk);
}

void callgrind_seek_keep(struct callgrind_seek *sk,
			 struct callgrind_reader *rd,
			 const struct line_reader *lr)
{
	struct callgrind_reader *e = &sk->end;

	if (sk->given) {
		sk->why = "several inputs";
		return;
	}
	sk->given = true;
	if (!rd->seek_rec)
		sk->why = "not a plain file read at its offsets (a pipe, a "
			  "compressed file, or the splitting thread)";
	else if (rd->seek_bad)
		sk->why = "a compressed id defined twice, or a function's "
			  "block not at an offset";
	else if (rd->part_ordinal > 1)
		sk->why = "several parts";
	if (sk->why)
		return;
	sk->path = xstrdup(lr->path);
	sk->file_size = lr->file_size;
	sk->have_st = fstat(lr->fd, &sk->st) == 0;
	sk->blk = rd->blk;
	memset(&rd->blk, 0, sizeof(rd->blk));
	memset(e, 0, sizeof(*e));
	for (int i = 0; i < IDS_COUNT; i++) {
		e->ids[i] = rd->ids[i];
		idmap_init(&rd->ids[i]);
		e->small_ids[i] = rd->small_ids[i];
		rd->small_ids[i] = NULL;
	}
	e->npos = rd->npos;
	memcpy(e->pos_kind, rd->pos_kind, sizeof(e->pos_kind));
	e->ncols = rd->ncols;
	e->event_map = xcalloc(rd->ncols + 1, sizeof(*e->event_map));
	memcpy(e->event_map, rd->event_map, rd->ncols * sizeof(*e->event_map));
	e->identity_map = rd->identity_map;
	e->part_number = rd->part_number;
	e->part_ordinal = rd->part_ordinal;
	e->part_selected = rd->part_selected;
	e->opts = rd->opts;
}

const char *callgrind_seek_unusable(const struct callgrind_seek *sk)
{
	return !sk->given ? "not read" : sk->why;
}

const struct pos_block *callgrind_seek_kept(struct callgrind_seek *sk,
					    const uint8_t *kept,
					    size_t nfuncs, size_t *n)
{
	struct pos_block b = { 0 }, next;
	size_t at = 0, alloc = 0;
	bool more = callgrind_blocks_next(&sk->blk, &at, &b);

	free(sk->kept);
	sk->kept = NULL;
	sk->nkept = 0;
	while (more) {
		next = b;
		more = callgrind_blocks_next(&sk->blk, &at, &next);
		b.end = more ? next.off : sk->file_size;
		if (b.func < nfuncs && kept[b.func]) {
			if (sk->nkept == alloc) {
				alloc = alloc * 2 + 64;
				sk->kept = xreallocarray(sk->kept, alloc,
							 sizeof(*sk->kept));
			}
			sk->kept[sk->nkept++] = b;
		}
		b = next;
	}
	*n = sk->nkept;
	return sk->kept;
}

/* A reader of a block, as a stretch read ahead is (init_ahead_reader()),
 * into q, from the state sk keeps. */
static void init_block_reader(struct callgrind_reader *rd, struct profile *q,
			      const struct callgrind_seek *sk,
			      const struct profile *p, struct line_reader *lr)
{
	const struct callgrind_reader *e = &sk->end;

	profile_init(q);
	q->pos_log = true;
	q->pos_detail = POS_ALL;
	for (size_t i = 0; i < p->nevents; i++) {
		name_id n = p->events[i].name;

		profile_event(q, names_intern(&q->names, profile_str(p, n),
					      names_len(&p->names, n)));
	}
	memset(rd, 0, sizeof(*rd));
	rd->p = q;
	rd->lr = lr;
	rd->opts = e->opts;
	for (int i = 0; i < IDS_COUNT; i++)
		idmap_init(&rd->ids[i]);
	rd->npos = e->npos;
	memcpy(rd->pos_kind, e->pos_kind, sizeof(rd->pos_kind));
	rd->pos_unknown = (uint8_t)((1u << e->npos) - 1);
	rd->ncols = e->ncols;
	rd->event_map = xcalloc(e->ncols + 1, sizeof(*rd->event_map));
	memcpy(rd->event_map, e->event_map, e->ncols * sizeof(*rd->event_map));
	rd->event_map_alloc = e->ncols;
	rd->identity_map = e->identity_map;
	rd->vals_alloc = e->ncols;
	rd->vals = xcalloc(e->ncols + 1, sizeof(*rd->vals));
	rd->part_sum = xcalloc(e->ncols + 1, sizeof(*rd->part_sum));
	rd->part_number = e->part_number;
	rd->part_ordinal = e->part_ordinal;
	rd->part_selected = e->part_selected;
	rd->ahead = true;
	rd->coll_pos = NO_ID;
	callgrind_reader_stand_ins(rd, &q->names);
}

/*
 * sk's block reader ready for a block: made the first time; then as
 * made again: q without the last block's positions, call sites and
 * jumps (its names, events and functions kept: those map to p's as
 * they did), the reader as it was made with the buffers it has made.
 */
static void ready_block_reader(struct callgrind_seek *sk,
			       const struct profile *p)
{
	struct callgrind_reader *rd = &sk->rd;
	struct profile *q = &sk->q;
	uint32_t *event_map = rd->event_map;
	uint64_t *vals = rd->vals, *part_sum = rd->part_sum;
	size_t event_map_alloc = rd->event_map_alloc;
	size_t vals_alloc = rd->vals_alloc, ncols = rd->ncols;

	/* q made again when it has grown large (a report of every
	 * function of sc3.out kept 40 MB more in it), with what its names,
	 * functions and arcs were found to be */
	if (sk->have_q && (q->names.nr > sk->q_max ||
			   q->nfuncs > sk->q_max || q->ncalls > sk->q_max)) {
		callgrind_reader_release(rd);
		profile_release(q);
		sk->have_q = false;
		if (sk->names_alloc)
			memset(sk->name_known, 0, sk->names_alloc);
		if (sk->funcs_alloc)
			memset(sk->func_gen, 0,
			       sk->funcs_alloc * sizeof(*sk->func_gen));
		if (sk->calls_alloc)
			memset(sk->call_gen, 0,
			       sk->calls_alloc * sizeof(*sk->call_gen));
	}
	if (!sk->have_q) {
		init_block_reader(rd, q, sk, p, &sk->part);
		sk->rd0 = *rd;
		sk->have_q = true;
		return;
	}
	q->npos = 0;
	q->pos_hint = 0;
	profile_drop_pos_table(q);
	q->pos_last_func = NO_ID;
	q->pos_last_file = NO_NAME;
	q->ncallsites = 0;
	q->callsite_hint = 0;
	if (q->callsite_index.slots) {
		u64map_release(&q->callsite_index);
		u64map_init(&q->callsite_index);
	}
	q->njumps = 0;
	q->jump_hint = 0;
	free(q->jump_table);
	q->jump_table = NULL;
	q->jump_mask = 0;
	/* what the block made that the reader as made has not */
	callgrind_reader_release_read(rd);
	*rd = sk->rd0;
	/* a body line does not change the columns: the buffers fit */
	rd->event_map = event_map;
	rd->event_map_alloc = event_map_alloc;
	rd->vals = vals;
	rd->vals_alloc = vals_alloc;
	rd->part_sum = part_sum;
	memset(vals, 0, (vals_alloc + 1) * sizeof(*vals));
	memset(part_sum, 0, (ncols + 1) * sizeof(*part_sum));
	memcpy(event_map, sk->end.event_map,
	       sk->end.ncols * sizeof(*event_map));
}

/* q's name n in p's names (block function f's object and file for the
 * stand-ins of the state before the block): false when it has none. */
static bool map_name(const struct callgrind_seek *sk,
		     const struct callgrind_reader *b, const struct profile *q,
		     struct profile *p, uint32_t f, name_id n, name_id *out)
{
	const char *s;
	unsigned long long id;
	int space;

	if (n == NO_NAME) {
		*out = NO_NAME;
		return true;
	}
	s = profile_str(q, n);
	if (n == b->ph_ob) {
		*out = p->funcs[f].object;
		return true;
	}
	if (n == b->ph_fl) {
		*out = p->funcs[f].file;
		return true;
	}
	if (n == b->ph_file || n == b->ph_func)
		return false;
	if (callgrind_is_stand_in(q, n)) {
		space = s[1] - '0';
		if (space < 0 || space >= IDS_COUNT || s[2] != ' ')
			return false;
		id = strtoull(s + 3, NULL, 10);
		*out = callgrind_id_get(&sk->end, (enum id_space)space, id);
		return *out != NO_NAME;
	}
	*out = names_find(&p->names, s, names_len(&q->names, n));
	return *out != NO_NAME;
}

/* map_name() through sk's names kept (not ph_ob's and ph_fl's, which
 * change with f; a name not found is looked for again: the block then
 * fails). */
static bool qname(struct callgrind_seek *sk, const struct profile *q,
		  struct profile *p, uint32_t f, name_id n, name_id *out)
{
	const struct callgrind_reader *b = &sk->rd;

	if (n == NO_NAME || n == b->ph_ob || n == b->ph_fl ||
	    n >= sk->names_alloc)
		return map_name(sk, b, q, p, f, n, out);
	if (sk->name_known[n]) {
		*out = sk->names[n];
		return true;
	}
	if (!map_name(sk, b, q, p, f, n, out))
		return false;
	sk->names[n] = *out;
	sk->name_known[n] = 1;
	return true;
}

/* q's function g in p, NO_ID when it has none (found once a block) */
static uint32_t qfunc(struct callgrind_seek *sk, const struct profile *q,
		      struct profile *p, uint32_t f, uint32_t g)
{
	const struct pfunc *fn = &q->funcs[g];
	name_id ob, fl, nm;

	if (sk->func_gen[g] == sk->gen)
		return sk->funcs[g];
	sk->func_gen[g] = sk->gen;
	if (!qname(sk, q, p, f, fn->object, &ob) ||
	    !qname(sk, q, p, f, fn->file, &fl) ||
	    !qname(sk, q, p, f, fn->name, &nm))
		sk->funcs[g] = NO_ID;
	else
		sk->funcs[g] = func_index_find(p, ob, fl, nm);
	return sk->funcs[g];
}

/* q's arc c in p, NO_ID when it has none (found once a block) */
static uint32_t qcall(struct callgrind_seek *sk, const struct profile *q,
		      struct profile *p, uint32_t f, uint32_t c)
{
	uint32_t from, to;

	if (sk->call_gen[c] == sk->gen)
		return sk->calls[c];
	sk->call_gen[c] = sk->gen;
	from = qfunc(sk, q, p, f, q->calls[c].caller);
	to = qfunc(sk, q, p, f, q->calls[c].callee);
	sk->calls[c] = from == NO_ID || to == NO_ID
			       ? NO_ID : call_index_find(p, from, to);
	return sk->calls[c];
}

/* *a (n entries, *alloc of them made) grown to hold want, the new
 * entries zero */
static void grow_zeroed(void **a, size_t *alloc, size_t want, size_t size)
{
	size_t n = *alloc;

	if (want <= n)
		return;
	want = want / 2 * 3 + 256;
	*a = xreallocarray(*a, want, size);
	memset((char *)*a + n * size, 0, (want - n) * size);
	*alloc = want;
}

/* The block read into q mapped to p (function f) into w. */
static bool map_block(struct callgrind_seek *sk, struct profile *p,
		      uint32_t f, struct pos_whole *w)
{
	const struct callgrind_reader *b = &sk->rd;
	const struct profile *q = &sk->q;
	size_t stride = p->stride, n;
	bool ok = q->nevents == p->nevents && !b->ph_func_used;
	name_id file = NO_NAME;

	n = sk->names_alloc;
	grow_zeroed((void **)&sk->names, &n, q->names.nr, sizeof(*sk->names));
	grow_zeroed((void **)&sk->name_known, &sk->names_alloc, q->names.nr,
		    sizeof(*sk->name_known));
	n = sk->funcs_alloc;
	grow_zeroed((void **)&sk->funcs, &n, q->nfuncs, sizeof(*sk->funcs));
	grow_zeroed((void **)&sk->func_gen, &sk->funcs_alloc, q->nfuncs,
		    sizeof(*sk->func_gen));
	n = sk->calls_alloc;
	grow_zeroed((void **)&sk->calls, &n, q->ncalls, sizeof(*sk->calls));
	grow_zeroed((void **)&sk->call_gen, &sk->calls_alloc, q->ncalls,
		    sizeof(*sk->call_gen));
	if (++sk->gen == 0) {
		memset(sk->func_gen, 0, sk->funcs_alloc * sizeof(uint32_t));
		memset(sk->call_gen, 0, sk->calls_alloc * sizeof(uint32_t));
		sk->gen = 1;
	}
	w->npos = q->npos;
	w->pos = xcalloc(q->npos + 1, sizeof(*w->pos));
	w->cost = xcalloc(q->npos * stride + 1, sizeof(*w->cost));
	for (size_t i = 0; ok && i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];

		/* only f's, or what was read is not its block */
		ok = qfunc(sk, q, p, f, qp->func) == f &&
		     qname(sk, q, p, f, qp->file, &file);
		w->pos[i] = (struct ppos){ .func = f, .file = file,
					   .line = qp->line,
					   .addr = qp->addr };
		memcpy(w->cost + i * stride, profile_pos_cost(q, (uint32_t)i),
		       q->nevents * sizeof(uint64_t));
	}
	/* kept until the call sites are made again, for every kept block:
	 * nothing allocated where there is none */
	w->ncs = q->ncallsites;
	w->cs = q->ncallsites ? xcalloc(q->ncallsites, sizeof(*w->cs)) : NULL;
	w->cs_incl = q->ncallsites ? xcalloc(q->ncallsites * stride,
					     sizeof(*w->cs_incl))
				   : NULL;
	for (size_t i = 0; ok && i < q->ncallsites; i++) {
		const struct pcallsite *c = &q->callsites[i];
		uint32_t call = qcall(sk, q, p, f, c->call);

		ok = call != NO_ID;
		w->cs[i] = (struct pcallsite){ .pos = c->pos,
					       .call = call,
					       .count = c->count };
		memcpy(w->cs_incl + i * stride,
		       profile_callsite_incl(q, (uint32_t)i),
		       q->nevents * sizeof(uint64_t));
	}
	w->njumps = q->njumps;
	w->jumps = q->njumps ? xcalloc(q->njumps, sizeof(*w->jumps)) : NULL;
	for (size_t i = 0; ok && i < q->njumps; i++) {
		w->jumps[i] = q->jumps[i];
		ok = qname(sk, q, p, f, q->jumps[i].to_file, &file);
		w->jumps[i].to_file = file;
	}
	return ok;
}

/* Whether the file opened again is the one read, unchanged since: its
 * device, inode, size and time of change. (A change the times miss is
 * caught by the kept functions' sums, profile_fold_positions().) */
static bool same_file(const struct callgrind_seek *sk)
{
	struct stat now;

	return sk->have_st && fstat(sk->whole.fd, &now) == 0 &&
	       now.st_dev == sk->st.st_dev && now.st_ino == sk->st.st_ino &&
	       now.st_size == sk->st.st_size &&
	       now.st_mtim.tv_sec == sk->st.st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == sk->st.st_mtim.tv_nsec &&
	       now.st_ctim.tv_sec == sk->st.st_ctim.tv_sec &&
	       now.st_ctim.tv_nsec == sk->st.st_ctim.tv_nsec;
}

/*
 * Whether [s, e) holds only what may follow a file's last block: blank
 * lines, comments, and valgrind's closing totals: and summary: lines
 * (the last block's text runs to the file's end). Any other header line
 * in a block (a reader of a block stops at it) means the block is not
 * read as the read read it.
 */
static bool only_file_end(const char *s, const char *e)
{
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		size_t n = (size_t)((nl ? nl : e) - s);

		if (n && s[n - 1] == '\r')
			n--;
		if (n && s[0] != '#' && !(n >= 7 && !memcmp(s, "totals:", 7)) &&
		    !(n >= 8 && !memcmp(s, "summary:", 8)))
			return false;
		s = nl ? nl + 1 : e;
	}
	return true;
}

/*
 * Small block [start, end) copied from sk's window (read again from
 * start when it is not in it) into sk->text, ended by "\n" as
 * line_reader_lines() gives lines: its length, or 0 when it cannot be
 * read (a file shorter than it was, a block not ending a line before
 * the file's end).
 */
/*
 * How much of the file a window from start (kept block i's) reads: up
 * to WINDOW bytes, but no further than the end of the last kept block
 * after i, in the file's order, that ends inside them (each block read
 * in its turn after i's), at least to end. Kept blocks far apart
 * (many.60's report: 540 windows) would otherwise each read a whole
 * WINDOW for a few KB: 566 MB copied again of the file's 988.
 */
static uint64_t window_want(const struct callgrind_seek *sk, size_t i,
			    uint64_t start, uint64_t end)
{
	uint64_t last = end, want = sk->file_size - start;

	for (size_t j = i + 1; j < sk->nkept; j++) {
		const struct pos_block *b = &sk->kept[j];

		if (b->off < sk->kept[j - 1].end || b->end <= b->off ||
		    b->end - start > WINDOW)
			break;
		last = b->end;
	}
	if (want > WINDOW)
		want = WINDOW;
	if (want > last - start)
		want = last - start;
	return want;
}

static size_t window_block(struct callgrind_seek *sk, size_t i,
			   uint64_t start, uint64_t end)
{
	size_t n = (size_t)(end - start);

	if (!sk->win)
		sk->win = xmalloc(WINDOW);
	if (start < sk->win_off || end > sk->win_off + sk->win_len) {
		uint64_t want = window_want(sk, i, start, end);
		long r;

		sk->win_off = start;
		sk->win_len = 0;
		while (sk->win_len < want &&
		       (r = line_reader_read_at(&sk->whole,
						start + sk->win_len,
						sk->win + sk->win_len,
						(size_t)want - sk->win_len)) > 0)
			sk->win_len += (size_t)r;
		if (end > sk->win_off + sk->win_len)
			return 0;
	}
	if (n + 2 > sk->text_alloc) {
		free(sk->text);
		sk->text_alloc = n + 2 > 4096 ? n + 2 : 4096;
		sk->text = xmalloc(sk->text_alloc);
	}
	memcpy(sk->text, sk->win + (start - sk->win_off), n);
	if (n && sk->text[n - 1] != '\n') {
		if (end != sk->file_size)
			return 0;
		sk->text[n++] = '\n';
	}
	sk->text[n] = '\0';
	return n;
}

int callgrind_seek_block(void *ctx, struct profile *p, size_t i,
			 struct pos_whole *w)
{
	struct callgrind_seek *sk = ctx;
	struct callgrind_reader *rd = &sk->rd;
	FILE *sink = diag_sink();
	char *lines, head[3];
	const char *v;
	size_t len;
	uint64_t start, end;
	uint32_t f;
	bool ok;
	int r;

	if (callgrind_seek_unusable(sk) || i >= sk->nkept)
		return -1;
	if (!sk->env_read) {
		sk->shift_env = getenv("CGANALYZE_SEEK_SHIFT");
		sk->change_env = getenv("CGANALYZE_SEEK_CHANGE");
		sk->small = (v = getenv("CGANALYZE_SEEK_SMALL"))
				    ? strtoull(v, NULL, 10) : SMALL_BLOCK;
		if (sk->small > SMALL_BLOCK)
			sk->small = SMALL_BLOCK;
		sk->q_max = (v = getenv("CGANALYZE_SEEK_QMAX"))
				    ? (size_t)strtoull(v, NULL, 10) : Q_MAX;
		sk->env_read = true;
	}
	f = sk->kept[i].func;
	start = sk->kept[i].off;
	end = sk->kept[i].end;
	if (!sk->shifted && sk->shift_env) {
		start += strtoull(sk->shift_env, NULL, 10);
		sk->shifted = true;
	}
	if (!sk->open) {
		if (line_reader_open(&sk->whole, sk->path) < 0)
			return -1;
		sk->open = true;
		if (!same_file(sk))
			return -1;
	}
	if (start >= end)
		return -1;
	if (!sk->msgs &&
	    !(sk->msgs = open_memstream(&sk->msg_buf, &sk->msg_len)))
		return -1;
	if (end - start <= sk->small) {
		/* the block starts at its fn= line, or the offset is wrong */
		if ((len = window_block(sk, i, start, end)) < 3 ||
		    memcmp(sk->text, "fn=", 3))
			return -1;
		/* the reader's messages name sk->part's file, opened or not */
		if (!sk->part_open)
			sk->part.path = sk->path;
		diag_set_sink(sk->msgs);
		ready_block_reader(sk, p);
		r = callgrind_read_lines(rd, sk->text, sk->text + len);
		/* stopped at a header line: only the file's end may follow */
		if (r > 0)
			r = only_file_end(rd->stop, sk->text + len) ? 0 : -1;
	} else {
		if (line_reader_read_at(&sk->whole, start, head, 3) != 3 ||
		    memcmp(head, "fn=", 3))
			return -1;
		diag_set_sink(sk->msgs);
		if (!sk->part_open) {
			line_reader_open_part(&sk->part, &sk->whole, start);
			sk->part_open = true;
		} else {
			line_reader_go_on_at(&sk->part, start);
		}
		line_reader_stop_at(&sk->part, end);
		ready_block_reader(sk, p);
		while ((r = line_reader_lines(&sk->part, &lines, &len)) > 0)
			if ((r = callgrind_read_lines(rd, lines,
						      lines + len)) != 0)
				break;
		if (r > 0) {
			r = only_file_end(rd->stop, lines + len) ? 0 : -1;
			while (!r && (r = line_reader_lines(&sk->part, &lines,
							     &len)) > 0)
				r = only_file_end(lines, lines + len) ? 0 : -1;
		}
	}
	if (r >= 0 && rd->want_jump_source)
		callgrind_finish_jump(rd);
	fflush(sk->msgs);
	diag_set_sink(sink == stderr ? NULL : sink);
	ok = r >= 0 && !rd->want_call_cost && !sk->msg_len &&
	     map_block(sk, p, f, w);
	/* tests: the first block's first cost as if the file had changed
	 * between the reads (CGANALYZE_SEEK_CHANGE=N adds N) */
	if (ok && w->npos && !sk->changed && sk->change_env) {
		w->cost[0] += strtoull(sk->change_env, NULL, 10);
		sk->changed = true;
	}
	return ok ? 0 : -1;
}
