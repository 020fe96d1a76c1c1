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
};

struct callgrind_seek *callgrind_seek_new(void)
{
	return xcalloc(1, sizeof(struct callgrind_seek));
}

void callgrind_seek_free(struct callgrind_seek *sk)
{
	if (!sk)
		return;
	callgrind_reader_release(&sk->end);
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
	rd->ph_ob = names_intern(&q->names, "\nob", 3);
	rd->ph_fl = names_intern(&q->names, "\nfl", 3);
	rd->ph_file = names_intern(&q->names, "\nfile", 5);
	rd->ph_func = names_intern(&q->names, "\nfunc", 5);
	rd->ob = rd->ph_ob;
	rd->fl = rd->ph_fl;
	rd->file = rd->ph_file;
	rd->have_fl = true;
	rd->func = NO_ID;
	rd->cob = rd->cfi = rd->cfn = rd->jfi = rd->jfn = NO_NAME;
	rd->call_arc = NO_ID;
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

/* The block read into q mapped to p (function f) into w. */
static bool map_block(const struct callgrind_seek *sk,
		      const struct callgrind_reader *b, const struct profile *q,
		      struct profile *p, uint32_t f, struct pos_whole *w)
{
	name_id *names = xcalloc(q->names.nr + 1, sizeof(*names));
	uint8_t *ok_name = xcalloc(q->names.nr + 1, sizeof(*ok_name));
	uint32_t *funcs = xcalloc(q->nfuncs + 1, sizeof(*funcs));
	uint32_t *calls = xcalloc(q->ncalls + 1, sizeof(*calls));
	size_t stride = p->stride;
	bool ok = q->nevents == p->nevents && !b->ph_func_used;

#define NAME(n) ((n) == NO_NAME ? NO_NAME : names[n])
	for (size_t i = 0; ok && i < q->names.nr; i++)
		ok_name[i] = map_name(sk, b, q, p, f, (name_id)i, &names[i]);
	for (size_t g = 0; ok && g < q->nfuncs; g++) {
		const struct pfunc *fn = &q->funcs[g];

		if ((fn->object != NO_NAME && !ok_name[fn->object]) ||
		    (fn->file != NO_NAME && !ok_name[fn->file]) ||
		    (fn->name != NO_NAME && !ok_name[fn->name])) {
			funcs[g] = NO_ID;
			continue;
		}
		funcs[g] = func_index_find(p, NAME(fn->object), NAME(fn->file),
					   NAME(fn->name));
	}
	for (size_t c = 0; ok && c < q->ncalls; c++) {
		uint32_t from = funcs[q->calls[c].caller];
		uint32_t to = funcs[q->calls[c].callee];

		calls[c] = from == NO_ID || to == NO_ID
				   ? NO_ID : call_index_find(p, from, to);
	}
	w->npos = q->npos;
	w->pos = xcalloc(q->npos + 1, sizeof(*w->pos));
	w->cost = xcalloc(q->npos * stride + 1, sizeof(*w->cost));
	for (size_t i = 0; ok && i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];

		/* only f's, or what was read is not its block */
		ok = funcs[qp->func] == f &&
		     (qp->file == NO_NAME || ok_name[qp->file]);
		w->pos[i] = (struct ppos){ .func = f, .file = NAME(qp->file),
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

		ok = calls[c->call] != NO_ID;
		w->cs[i] = (struct pcallsite){ .pos = c->pos,
					       .call = calls[c->call],
					       .count = c->count };
		memcpy(w->cs_incl + i * stride,
		       profile_callsite_incl(q, (uint32_t)i),
		       q->nevents * sizeof(uint64_t));
	}
	w->njumps = q->njumps;
	w->jumps = q->njumps ? xcalloc(q->njumps, sizeof(*w->jumps)) : NULL;
	for (size_t i = 0; ok && i < q->njumps; i++) {
		w->jumps[i] = q->jumps[i];
		ok = q->jumps[i].to_file == NO_NAME ||
		     ok_name[q->jumps[i].to_file];
		w->jumps[i].to_file = NAME(q->jumps[i].to_file);
	}
#undef NAME
	free(names);
	free(ok_name);
	free(funcs);
	free(calls);
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

int callgrind_seek_block(void *ctx, struct profile *p, size_t i,
			 struct pos_whole *w)
{
	struct callgrind_seek *sk = ctx;
	struct callgrind_reader rd;
	struct profile q;
	FILE *msgs, *sink = diag_sink();
	char *msg_buf = NULL, *lines, head[3];
	size_t msg_len = 0, len;
	uint64_t start, end;
	const char *shift;
	uint32_t f;
	bool ok;
	int r;

	if (callgrind_seek_unusable(sk) || i >= sk->nkept)
		return -1;
	f = sk->kept[i].func;
	start = sk->kept[i].off;
	end = sk->kept[i].end;
	if (!sk->shifted && (shift = getenv("CGANALYZE_SEEK_SHIFT"))) {
		start += strtoull(shift, NULL, 10);
		sk->shifted = true;
	}
	if (!sk->open) {
		if (line_reader_open(&sk->whole, sk->path) < 0)
			return -1;
		sk->open = true;
		if (!same_file(sk))
			return -1;
	}
	/* the block starts at its fn= line, or the offset is wrong */
	if (start >= end ||
	    line_reader_read_at(&sk->whole, start, head, 3) != 3 ||
	    memcmp(head, "fn=", 3))
		return -1;
	if (!(msgs = open_memstream(&msg_buf, &msg_len)))
		return -1;
	diag_set_sink(msgs);
	if (!sk->part_open) {
		line_reader_open_part(&sk->part, &sk->whole, start);
		sk->part_open = true;
	} else {
		line_reader_go_on_at(&sk->part, start);
	}
	line_reader_stop_at(&sk->part, end);
	init_block_reader(&rd, &q, sk, p, &sk->part);
	while ((r = line_reader_lines(&sk->part, &lines, &len)) > 0)
		if ((r = callgrind_read_lines(&rd, lines, lines + len)) != 0)
			break;
	/* stopped at a header line: only the file's end may follow */
	if (r > 0) {
		r = only_file_end(rd.stop, lines + len) ? 0 : -1;
		while (!r && (r = line_reader_lines(&sk->part, &lines,
						     &len)) > 0)
			r = only_file_end(lines, lines + len) ? 0 : -1;
	}
	if (r >= 0 && rd.want_jump_source)
		callgrind_finish_jump(&rd);
	fflush(msgs);
	diag_set_sink(sink == stderr ? NULL : sink);
	ok = r >= 0 && !rd.want_call_cost && !msg_len &&
	     map_block(sk, &rd, &q, p, f, w);
	/* tests: the first block's first cost as if the file had changed
	 * between the reads (CGANALYZE_SEEK_CHANGE=N adds N) */
	if (ok && w->npos && !sk->changed &&
	    (shift = getenv("CGANALYZE_SEEK_CHANGE"))) {
		w->cost[0] += strtoull(shift, NULL, 10);
		sk->changed = true;
	}
	fclose(msgs);
	free(msg_buf);
	callgrind_reader_release(&rd);
	profile_release(&q);
	return ok ? 0 : -1;
}
