/*
 * Reading a plain Callgrind file on two cores: while this thread reads
 * a stretch of the file, a second one reads the next stretch ahead,
 * into a profile of its own, from a state it cannot know yet (the
 * current function, object and file, the compressed ids defined before,
 * the last position). What it would take from that state it takes as
 * stand-ins; when this thread gets to the end of its stretch, the state
 * is known, and the stretch read ahead is added in as if this thread
 * had read it: names, functions and arcs in the order they first came,
 * so every index is the one reading in order gives.
 *
 * Where the stand-ins cannot be resolved to exactly that (an id defined
 * nowhere before, a position relative to one before the stretch, a call
 * whose object comes from before it, anything the reader would have
 * said something about), the stretch read ahead is dropped and this
 * thread reads it again itself: the output and the messages are always
 * those of reading in order. The stretch read ahead stops before any
 * header line ("part:", "totals:", ...): those are this thread's.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "callgrind_reader.h"

/*
 * This thread's stretch: at most about this much, then it tells the
 * second thread to stop where it has got to (the end of the block it is
 * reading), so that this one does not wait for it; the second thread
 * reads at most twice as much. Large enough that adding in the
 * stretch's functions and arcs (a few milliseconds for a compiler's ten
 * thousand) is a small part of reading it; small enough that the two
 * stretches alive at once (one read, one added in) are a small part of
 * the peak: 3.5 MB each at twice 8 MB on a program of 700,000
 * functions, where twice 4 MB took 2 to 5 MB off its peak for no
 * measurable time (1.03 [0.33-1.04] on the 1 GB file of one profile
 * 64 times, 0.89 [0.82-1.09] on sc3.out, 5 interleaved pairs each).
 *
 * How much this thread reads itself is found as it goes: adding a
 * stretch in can take as long as reading it, when most of its
 * functions and arcs are new (a program of 700,000 functions: each
 * costs a look-up in tables too large for the cache, where the second
 * thread's are small), and reading as well, this thread would leave
 * the second one waiting half the time. So when the second thread got
 * to its end before being told to stop (it waited), this thread's
 * share is halved, down to nothing but the lines up to where a stretch
 * can start; when it was told to stop (this thread was the quicker),
 * the share is doubled, up to STRETCH_BYTES. The output does not
 * depend on where the stretches fall.
 */
#define STRETCH_BYTES ((uint64_t)4 << 20)
#define LEAST_SHARE ((uint64_t)256 << 10)
/* Where a stretch may start: after a blank line, at the name lines that
 * open a function's costs, searched for this much at a time. */
#define START_WINDOW ((size_t)64 << 10)

struct ahead {
	struct callgrind_reader rd;
	struct profile p;
	struct line_reader lr;
	uint64_t start, until;	/* where it starts, and stops after */
	uint64_t stop;		/* where it stopped: the next line's */
	bool at_header;		/* stopped before a header line */
	bool went_to_end;	/* stopped at `until` or with the log full,
				 * before `enough` */
	int status;		/* 0 read (to stop), -1 failed */
	atomic_bool cancel;	/* stop, and drop what was read */
	atomic_bool enough;	/* stop after this block, and keep it */
	FILE *msgs;		/* anything it would say drops the stretch */
	char *msg_buf;
	size_t msg_len;
	pthread_t thread;
};

/*
 * The offset of the first stretch start at or after `from`, searched
 * window by window up to the file's end: 0 for none (a stretch never
 * starts at the file's first byte). A function's costs can run for far
 * more than a window without a blank line (a compiler's largest
 * functions); the stretch then starts after it.
 */
static uint64_t find_start(const struct line_reader *lr, uint64_t from)
{
	char *buf = xmalloc(START_WINDOW);
	uint64_t found = 0;
	long n;

	while (!found &&
	       (n = line_reader_read_at(lr, from, buf, START_WINDOW)) >= 5) {
		const char *s = buf, *end = buf + n;

		while (!found && (s = memmem(s, (size_t)(end - s), "\n\n", 2)) &&
		       end - s >= 5) {
			if (!memcmp(s + 2, "fn=", 3) || !memcmp(s + 2, "fl=", 3) ||
			    !memcmp(s + 2, "ob=", 3))
				found = from + (uint64_t)(s - buf) + 2;
			s++;
		}
		if (n < (long)START_WINDOW)
			break;
		/* the next window overlaps this one's last 4 bytes */
		from += (uint64_t)n - 4;
	}
	free(buf);
	return found;
}

/*
 * Positions are kept as a log (profile.h), about one a cost line, each
 * with its row of costs: a stretch stops after the block that takes it
 * past this much, however many events there are. Two stretches' logs
 * are alive at once (the one added in, the next one read), and they
 * are what reading ahead holds over reading on one thread: at 64 MiB
 * a cc1plus profile's 8 MiB stretch logged 22 MB, and the read of
 * many.60 peaked 30 MiB over one thread's; at 8 MiB, 16 MiB over it,
 * no slower (doc/PERFORMANCE.md).
 */
#define LOG_BYTES ((size_t)8 << 20)

static bool log_full(const struct profile *q)
{
	return q->npos * (sizeof(*q->pos) + q->stride * sizeof(uint64_t)) +
		       q->njumps * sizeof(*q->jumps) > LOG_BYTES;
}

static void *read_stretch(void *arg)
{
	struct ahead *ah = arg;
	struct callgrind_reader *rd = &ah->rd;
	struct line_reader *lr = &ah->lr;

	diag_set_thread_sink(ah->msgs);
	ah->status = 0;
	ah->at_header = false;
	ah->went_to_end = false;
	ah->stop = ah->start;
	for (;;) {
		char *lines;
		size_t len;
		uint64_t at;
		bool last = false;
		int r;

		if (atomic_load(&ah->cancel)) {
			ah->status = -1;
			break;
		}
		if (atomic_load_explicit(&ah->enough, memory_order_relaxed))
			break;	/* at ah->stop, after the last block */
		r = line_reader_lines(lr, &lines, &len);
		if (r <= 0) {
			ah->status = r;
			ah->stop = line_reader_end_offset(lr);
			break;
		}
		at = line_reader_offset(lr, lines);
		if (at + len > ah->until) {
			/* up to the first line that starts at `until` or
			 * after it */
			char *cut = lines + (ah->until > at ? ah->until - at : 0);

			if (cut > lines && cut[-1] != '\n')
				cut = (char *)memchr(cut, '\n',
						     (size_t)(lines + len - cut)) + 1;
			len = (size_t)(cut - lines);
			last = true;
		}
		r = callgrind_read_lines(rd, lines, lines + len);
		if (r < 0) {
			ah->status = -1;
			break;
		}
		if (r > 0) {
			ah->stop = line_reader_offset(lr, rd->stop);
			ah->at_header = true;
			break;
		}
		if (last) {
			/* not past the file's last byte: the "\n" the
			 * reader gives a last line without one */
			uint64_t end = line_reader_offset(lr, lines + len);
			uint64_t read = line_reader_end_offset(lr);

			ah->stop = end < read ? end : read;
			ah->went_to_end = true;
			break;
		}
		ah->stop = line_reader_offset(lr, lines + len);
		if (log_full(&ah->p)) {
			ah->went_to_end = true;
			break;	/* kept, as after `enough` */
		}
	}
	fflush(ah->msgs);
	diag_set_thread_sink(NULL);
	return NULL;
}

/* The reader of a stretch: the main reader's header (events, positions),
 * nothing else of its state. */
static void init_ahead_reader(struct ahead *ah,
			      const struct callgrind_reader *main)
{
	struct callgrind_reader *rd = &ah->rd;
	struct profile *p = &ah->p;
	const struct pos_select *ps;

	profile_init(p);
	p->pos_log = true;
	/* as coarse as the main profile's positions, so that a stretch
	 * logs one position per line, not per instruction; the main
	 * thread chooses the files whose lines it keeps */
	p->pos_detail = main->p->pos_detail;
	/* POS_SELECT counts each position as read, in the main thread:
	 * the stretch logs them as they are */
	if (p->pos_detail == POS_SELECT)
		p->pos_detail = POS_ALL;
	p->pos_all_files = true;
	for (size_t e = 0; e < main->p->nevents; e++) {
		name_id n = main->p->events[e].name;

		profile_event(p, names_intern(&p->names,
					      profile_str(main->p, n),
					      names_len(&main->p->names, n)));
	}
	memset(rd, 0, sizeof(*rd));
	rd->p = p;
	rd->lr = &ah->lr;
	rd->opts = main->opts;
	rd->input = NULL;	/* the main reader's alone */
	for (int i = 0; i < IDS_COUNT; i++)
		idmap_init(&rd->ids[i]);
	rd->npos = main->npos;
	memcpy(rd->pos_kind, main->pos_kind, sizeof(rd->pos_kind));
	rd->pos_unknown = (uint8_t)((1u << main->npos) - 1);
	rd->ncols = main->ncols;
	rd->event_map = xcalloc(main->ncols, sizeof(*rd->event_map));
	memcpy(rd->event_map, main->event_map,
	       main->ncols * sizeof(*rd->event_map));
	rd->event_map_alloc = main->ncols;
	rd->identity_map = main->identity_map;
	rd->vals_alloc = main->ncols;
	rd->vals = xcalloc(main->ncols, sizeof(*rd->vals));
	rd->part_sum = xcalloc(main->ncols, sizeof(*rd->part_sum));
	rd->part_number = main->part_number;
	rd->part_ordinal = main->part_ordinal;
	rd->part_selected = main->part_selected;
	rd->ahead = true;
	rd->seek_rec = main->seek_rec;
	/* the choosing read (code_positions.c), nothing kept whole: the
	 * main thread's coarse rows need no line's own position */
	ps = main->p->pos_detail == POS_SELECT ? main->p->pos_select : NULL;
	rd->collapse = ps && ps->no_counts && !ps->keep_all &&
		       !ps->keep_first && !ps->keep.nr &&
		       !main->opts->want_func_addrs;
	rd->coll_bound = ps ? ps->bound : NULL;
	rd->coll_nbound = ps ? ps->nbound : 0;
	rd->coll_pos = NO_ID;
	callgrind_reader_stand_ins(rd, &p->names);
}

static void release_ahead(struct ahead *ah)
{
	callgrind_reader_release(&ah->rd);
	profile_release(&ah->p);
	line_reader_close(&ah->lr);
	fclose(ah->msgs);
	free(ah->msg_buf);
}

/*
 * Start reading ahead after this thread's share from `from`, up to two
 * stretches, or to the file's end when less than that would be left
 * (this thread's share then at most half the rest); tests (min_bytes
 * 0): from half the rest, half as far as this thread read, so that it
 * stops inside functions. False when there is nothing to gain or no
 * place to start.
 */
static bool start_ahead(struct ahead *ah, const struct callgrind_reader *rd,
			const struct line_reader *lr, uint64_t from,
			uint64_t min_bytes, uint64_t share)
{
	uint64_t rest = from < lr->file_size ? lr->file_size - from : 0;
	uint64_t start, until = UINT64_MAX;

	if (!rest || rest < 2 * min_bytes)
		return false;
	if (!min_bytes) {
		start = find_start(lr, from + rest / 2);
		until = start + (start - from) / 2;
	} else if (rest < share + 2 * STRETCH_BYTES) {
		start = find_start(lr, from + (share < rest / 2 ? share
							      : rest / 2));
	} else {
		start = find_start(lr, from + share);
		until = start + 2 * STRETCH_BYTES;
	}
	if (!start || !line_reader_splittable(lr, start))
		return false;
	ah->msg_buf = NULL;
	ah->msg_len = 0;
	ah->msgs = open_memstream(&ah->msg_buf, &ah->msg_len);
	if (!ah->msgs)
		return false;
	init_ahead_reader(ah, rd);
	ah->start = start;
	ah->until = until;
	atomic_init(&ah->cancel, false);
	atomic_init(&ah->enough, false);
	line_reader_open_part(&ah->lr, lr, start);
	if (pthread_create(&ah->thread, NULL, read_stretch, ah)) {
		release_ahead(ah);
		return false;
	}
	return true;
}

/* ---- adding the stretch in ---- */

/* The name a stand-in stands for, by the main reader's state now;
 * false when it stands for nothing reading in order would give. */
static bool resolve_stand_in(const struct callgrind_reader *rd,
			     const struct ahead *ah, name_id n, name_id *out)
{
	const struct callgrind_reader *b = &ah->rd;
	const char *s = profile_str(&ah->p, n);
	unsigned long long id;
	int space;

	if (n == b->ph_ob) {
		*out = rd->ob;
	} else if (n == b->ph_fl) {
		*out = rd->fl;
	} else if (n == b->ph_file) {
		*out = rd->file;
	} else if (n == b->ph_func) {
		*out = NO_NAME;	/* only in the function rd->func stands for */
	} else {
		/* "\n" space " " id, as callgrind_id_stand_in() writes it */
		space = s[1] - '0';
		if (space < 0 || space >= IDS_COUNT || s[2] != ' ')
			BUG("stand-in '%s'", s + 1);
		id = strtoull(s + 3, NULL, 10);
		*out = callgrind_id_get(rd, (enum id_space)space, id);
		return *out != NO_NAME;
	}
	return true;
}

/* Each id the stretch defined, with its name there (an id set twice,
 * twice: with its last name both times). */
static void each_defined_id(const struct callgrind_reader *b,
			    bool (*fn)(void *ctx, enum id_space space,
				       uint64_t id, name_id name),
			    void *ctx, bool *ok)
{
	for (size_t i = 0; i < b->nids_set && *ok; i++) {
		const struct callgrind_id_set *d = &b->ids_set[i];

		if (!fn(ctx, d->space, d->id,
			callgrind_id_get(b, d->space, d->id)))
			*ok = false;
	}
}

/* *sum += column e of n rows of `stride` numbers; false past 2^64 - 1. */
static bool add_column(uint64_t *sum, const uint64_t *rows, size_t n,
		       size_t stride, size_t e)
{
	for (size_t i = 0; i < n; i++)
		if (__builtin_add_overflow(*sum, rows[i * stride + e], sum))
			return false;
	return true;
}

/* The same for the arcs' inclusive costs, packed (the profile's, since
 * reading began) or not (a stretch's). */
static bool add_incl_column(uint64_t *sum, const struct profile *p, size_t e)
{
	for (uint32_t c = 0; c < p->ncalls; c++)
		if (__builtin_add_overflow(*sum, profile_call_incl_at(p, c, e),
					   sum))
			return false;
	return true;
}

static uint64_t incl_column_or_max(const struct profile *p, size_t e)
{
	uint64_t sum = 0;

	return add_incl_column(&sum, p, e) ? sum : UINT64_MAX;
}

static bool add_counts(uint64_t *sum, const struct profile *q)
{
	for (size_t i = 0; i < q->ncalls; i++)
		if (__builtin_add_overflow(*sum,
					   profile_call_count(q, (uint32_t)i),
					   sum))
			return false;
	return true;
}

/*
 * What inputs read before this file left in positions and call sites:
 * column sums (UINT64_MAX when past it), for sums_fit(). Earlier
 * profiles of other formats need not split their self cost exactly.
 * And `total`, all the profile's numbers that sums_fit() adds up, in
 * one sum (UINT64_MAX when past it), for bound_fits().
 */
struct before {
	size_t nevents;
	uint64_t *pos, *sites;	/* by event */
	uint64_t site_counts;
	uint64_t total;
};

static uint64_t column_or_max(const uint64_t *rows, size_t n, size_t stride,
			      size_t e)
{
	uint64_t sum = 0;

	return add_column(&sum, rows, n, stride, e) ? sum : UINT64_MAX;
}

static void sum_before(struct before *b, const struct profile *p)
{
	uint64_t counts = 0;

	b->nevents = p->nevents;
	b->pos = xcalloc(p->nevents + 1, sizeof(*b->pos));
	b->sites = xcalloc(p->nevents + 1, sizeof(*b->sites));
	b->total = add_counts(&counts, p) ? counts : UINT64_MAX;
	for (size_t e = 0; e < p->nevents; e++) {
		b->pos[e] = column_or_max(p->pos_cost, p->npos, p->stride, e);
		b->sites[e] = column_or_max(p->callsite_incl, p->ncallsites,
					    p->stride, e);
		b->total = callgrind_add_upto_max(b->total, b->pos[e]);
		b->total = callgrind_add_upto_max(b->total, b->sites[e]);
		b->total = callgrind_add_upto_max(
			b->total, column_or_max(p->self, p->nfuncs, p->stride, e));
		b->total = callgrind_add_upto_max(b->total,
						  incl_column_or_max(p, e));
	}
	b->site_counts = 0;
	for (size_t i = 0; i < p->ncallsites; i++)
		if (__builtin_add_overflow(b->site_counts,
					   p->callsites[i].count,
					   &b->site_counts))
			b->site_counts = UINT64_MAX;
	b->total = callgrind_add_upto_max(b->total, b->site_counts);
}

struct merge {
	struct callgrind_reader *rd;
	struct ahead *ah;
	const struct before *before;
	name_id *names;		/* stretch name -> profile name */
	bool *stand_in;
	uint32_t *funcs, *calls, *pos;
	/* the seek design's block starts: the profile's positions and
	 * call sites before the stretch's i-th was added in */
	uint32_t *at_pos, *at_cs;
};

/* An id the stretch defined, which the main reader defined otherwise:
 * reading in order warns about the redefinition. */
static bool same_definition(void *ctx, enum id_space space, uint64_t id,
			    name_id name)
{
	struct merge *m = ctx;
	name_id before = callgrind_id_get(m->rd, space, id);

	if (m->stand_in[name] || before == NO_NAME)
		return true;
	return names_len(&m->rd->p->names, before) ==
		       names_len(&m->ah->p.names, name) &&
	       !memcmp(profile_str(m->rd->p, before),
		       profile_str(&m->ah->p, name),
		       names_len(&m->ah->p.names, name));
}

static bool define_id(void *ctx, enum id_space space, uint64_t id,
		      name_id name)
{
	struct merge *m = ctx;

	if (!m->stand_in[name])
		callgrind_id_put(m->rd, space, id, m->names[name]);
	return true;
}

/*
 * No sum of the profile and the stretch passes 2^64 - 1 where reading
 * in order would have said so: checked by column, as no row's sum is
 * more than its column's. Positions split the self cost this reader
 * adds (each cost line adds to both), call sites the arcs' inclusive
 * cost and count: their columns are at most those, and what earlier
 * inputs left (`before`).
 */
static bool sums_fit(const struct profile *p, const struct profile *q,
		     const struct before *before)
{
	uint64_t count = 0;

	for (size_t e = 0; e < p->nevents; e++) {
		uint64_t self = 0, incl = 0;

		if (!add_column(&self, p->self, p->nfuncs, p->stride, e) ||
		    !add_column(&self, q->self, q->nfuncs, q->stride, e) ||
		    !add_incl_column(&incl, p, e) ||
		    !add_incl_column(&incl, q, e))
			return false;
		if (e < before->nevents && q->npos &&
		    (__builtin_add_overflow(self, before->pos[e], &self) ||
		     __builtin_add_overflow(incl, before->sites[e], &incl)))
			return false;
	}
	if (!add_counts(&count, p) || !add_counts(&count, q))
		return false;
	return !q->ncallsites ||
	       !__builtin_add_overflow(count, before->site_counts, &count);
}

/* All a reader added to the profile, in one sum (UINT64_MAX when past
 * it): each cost line's costs and each call's count and inclusive
 * costs, once. */
static uint64_t added(const struct callgrind_reader *rd)
{
	uint64_t sum = callgrind_add_upto_max(rd->added_before_part,
					      rd->added_by_calls);

	for (size_t i = 0; i < rd->ncols; i++)
		sum = callgrind_add_upto_max(sum, rd->part_sum[i]);
	return sum;
}

/*
 * sums_fit() without adding up the profile again at every stretch,
 * which would make reading ahead quadratic in the file: each sum it
 * takes is of numbers the profile held when this file started, or that
 * this reader or the stretch's added since (positions and call sites
 * take theirs from the same lines), so all of them together bound it.
 * Only when that passes 2^64 - 1 are the columns added up.
 */
static bool bound_fits(const struct callgrind_reader *rd,
		       const struct callgrind_reader *b,
		       const struct before *before)
{
	return callgrind_add_upto_max(before->total,
				      callgrind_add_upto_max(added(rd),
							     added(b))) <
	       UINT64_MAX;
}

/* The header lines this thread read since the stretch started (a new
 * part) left the lines read as they were: positions and events. */
static bool same_header(const struct callgrind_reader *rd,
			const struct callgrind_reader *b)
{
	return rd->npos == b->npos && rd->ncols == b->ncols &&
	       rd->p->nevents == b->p->nevents &&
	       !memcmp(rd->pos_kind, b->pos_kind,
		       rd->npos * sizeof(*rd->pos_kind)) &&
	       !memcmp(rd->event_map, b->event_map,
		       rd->ncols * sizeof(*rd->event_map));
}

/* Everything that could make the stretch differ from reading it in
 * order, checked before anything is changed. */
static bool can_merge(struct merge *m)
{
	struct callgrind_reader *rd = m->rd, *b = &m->ah->rd;
	const struct profile *p = rd->p, *q = &m->ah->p;
	uint64_t max = rd->opts->max_costs ? rd->opts->max_costs
					   : MAX_COST_NUMBERS;
	bool ok = true;

	if (m->ah->status < 0 || m->ah->msg_len || !same_header(rd, b) ||
	    rd->part_selected < 0 || rd->want_call_cost ||
	    rd->want_jump_source || rd->cob != NO_NAME || rd->cfi != NO_NAME ||
	    !rd->have_fl || (b->ph_func_used && rd->func == NO_ID) ||
	    p->nevents != q->nevents)
		return false;
	for (size_t i = 0; i < q->names.nr; i++) {
		m->stand_in[i] = callgrind_is_stand_in(q, (name_id)i);
		if (m->stand_in[i] &&
		    !resolve_stand_in(rd, m->ah, (name_id)i, &m->names[i]))
			return false;
	}
	each_defined_id(b, same_definition, m, &ok);
	if (!ok)
		return false;
	if (((uint64_t)p->nfuncs + q->nfuncs + p->ncalls + q->ncalls +
	     p->npos + q->npos) * p->nevents > max)
		return false;
	if (!bound_fits(rd, b, m->before) && !sums_fit(p, q, m->before))
		return false;
	for (size_t i = 0; i < rd->ncols; i++)
		if (rd->part_sum[i] + b->part_sum[i] < rd->part_sum[i])
			return false;
	return true;
}

static name_id mapped(const struct merge *m, name_id n)
{
	return n == NO_NAME ? NO_NAME : m->names[n];
}

static void add_rows(uint64_t *to, const uint64_t *from, size_t n)
{
	for (size_t e = 0; e < n; e++)
		to[e] += from[e];
}

/* How many look-ups ahead their table slots are loaded (names.c has
 * its own): most of a big program's are misses in tables of megabytes,
 * which then overlap. */
#define PREFETCH_AHEAD 8

/* The stretch's names, functions and arcs into the profile, in the
 * order they came. */
static void merge_profile(struct merge *m)
{
	struct profile *p = m->rd->p;
	const struct profile *q = &m->ah->p;
	const struct callgrind_reader *b = &m->ah->rd;

	names_intern_from(&p->names, &q->names, m->stand_in, m->names);
	for (size_t f = 0; f < q->nfuncs; f++) {
		const struct pfunc *qf = &q->funcs[f];

		if (f + PREFETCH_AHEAD < q->nfuncs) {
			const struct pfunc *soon = &q->funcs[f + PREFETCH_AHEAD];

			if (soon->name != b->ph_func)
				profile_func_soon(p, mapped(m, soon->object),
						  mapped(m, soon->file),
						  mapped(m, soon->name));
		}
		if (qf->name == b->ph_func)
			m->funcs[f] = m->rd->func;
		else
			m->funcs[f] = profile_func_once(p, mapped(m, qf->object),
							mapped(m, qf->file),
							mapped(m, qf->name));
		add_rows(profile_self(p, m->funcs[f]), profile_self(q, (uint32_t)f),
			 q->nevents);
		if (f < q->func_addrs_alloc) {
			profile_func_addr(p, m->funcs[f], q->func_addrs[f].lo);
			profile_func_addr(p, m->funcs[f], q->func_addrs[f].hi);
		}
	}
	for (size_t c = 0; c < q->ncalls; c++) {
		const struct pcall *qc = &q->calls[c];
		uint32_t pc;

		if (c + PREFETCH_AHEAD < q->ncalls)
			profile_call_soon(p,
					  m->funcs[q->calls[c + PREFETCH_AHEAD].caller],
					  m->funcs[q->calls[c + PREFETCH_AHEAD].callee]);
		pc = profile_call_once(p, m->funcs[qc->caller],
				       m->funcs[qc->callee]);

		m->calls[c] = pc;
		profile_call_add_count(p, pc,
				       profile_call_count(q, (uint32_t)c));
		/* q, a stretch's profile, is never finished: unpacked */
		profile_call_incl_add(p, pc, NULL,
				      q->call_incl + (size_t)c * q->stride,
				      q->nevents);
	}
	p->calls_have_incl |= q->calls_have_incl;
	p->has_instr |= q->has_instr;
	p->has_line |= q->has_line;
}

/*
 * The stretch's position i (func f, file) into p: profile_pos(), but
 * under POS_SELECT, as fast_select_run() reads, a position in the span
 * of the one before (the same coarse row) only counted there.
 */
struct merge_span {
	struct ps_span sp;
	uint32_t func, line, pos;
	name_id file;
	bool line_exact;
	uint64_t lo, hi;	/* the addresses taken in the span */
};

static uint32_t merge_pos(struct profile *p, struct merge_span *ms,
			  uint32_t f, name_id file, const struct ppos *qp)
{
	struct pos_select *ps = p->pos_select;
	uint64_t a = qp->addr;
	uint32_t pos;

	if (p->pos_detail != POS_SELECT)
		return profile_pos(p, f, file, qp->line, a);
	if (f == ms->func && file == ms->file && a >= ms->sp.lo &&
	    a < ms->sp.hi &&
	    (ms->line_exact ? qp->line == ms->line : qp->line != 0)) {
		if (ms->sp.count)
			pos_select_count_next(ps, file, qp->line, a,
					      ms->sp.in_seg);
		ms->lo = !ms->lo || a < ms->lo ? a : ms->lo;
		ms->hi = a > ms->hi ? a : ms->hi;
		return ms->pos;
	}
	if (ms->lo)
		pos_select_widen(ps, ms->func, ms->lo, ms->hi);
	pos = profile_pos(p, f, file, qp->line, a);
	pos_select_span(ps, f, p->pos[pos].region, a, &ms->sp);
	ms->func = f;
	ms->file = file;
	ms->line = qp->line;
	ms->line_exact = !qp->line || p->pos[pos].line == qp->line;
	ms->pos = pos;
	ms->lo = ms->hi = 0;
	return pos;
}

/* Its positions, call sites and jumps, in the order they came, as
 * reading in order adds them (each position first, in finish_jump() or
 * add_position()). */
static void merge_positions(struct merge *m)
{
	struct profile *p = m->rd->p;
	const struct profile *q = &m->ah->p;
	const struct callgrind_reader *b = &m->ah->rd;
	struct merge_span ms = { .sp = { 1, 0, false, false },
				 .func = NO_ID };

	for (size_t i = 0; i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];

		if (m->at_pos)
			m->at_pos[i] = (uint32_t)p->npos;
		m->pos[i] = merge_pos(p, &ms, m->funcs[qp->func],
				      mapped(m, qp->file), qp);
		/* the lines it gathered (callgrind_collapse_run()): their
		 * addresses widen the function's range with the span's */
		if (i < b->coll_alloc && b->coll_lo[i]) {
			ms.lo = !ms.lo || b->coll_lo[i] < ms.lo ? b->coll_lo[i]
								: ms.lo;
			ms.hi = b->coll_hi[i] > ms.hi ? b->coll_hi[i] : ms.hi;
		}
		add_rows(profile_pos_cost(p, m->pos[i]),
			 profile_pos_cost(q, (uint32_t)i), q->nevents);
	}
	if (ms.lo)
		pos_select_widen(p->pos_select, ms.func, ms.lo, ms.hi);
	if (m->at_pos)
		m->at_pos[q->npos] = (uint32_t)p->npos;
	for (size_t i = 0; i < q->ncallsites; i++) {
		const struct pcallsite *qs = &q->callsites[i];
		uint32_t cs;

		if (m->at_cs)
			m->at_cs[i] = (uint32_t)p->ncallsites;
		if (!profile_pos_keeps_sites(p, m->pos[qs->pos]))
			continue;
		cs = profile_callsite(p, m->pos[qs->pos], m->calls[qs->call]);

		p->callsites[cs].count += qs->count;
		add_rows(profile_callsite_incl(p, cs),
			 profile_callsite_incl(q, (uint32_t)i), q->nevents);
	}
	if (m->at_cs)
		m->at_cs[q->ncallsites] = (uint32_t)p->ncallsites;
	for (size_t i = 0; i < q->njumps; i++) {
		struct pjump j = q->jumps[i];

		j.from = m->pos[j.from];
		j.to_file = mapped(m, j.to_file);
		profile_add_jump(p, &j);
	}
	p->has_instr |= q->has_instr;
	p->has_line |= q->has_line;
}

/* The seek design's block starts (callgrind_seek.h), in p's ids. */
static void merge_blocks(struct merge *m)
{
	struct callgrind_reader *rd = m->rd;
	const struct callgrind_reader *b = &m->ah->rd;

	if (!rd->seek_rec)
		return;
	struct pos_block blk = { 0 };
	size_t at = 0;

	rd->seek_bad |= b->seek_bad;
	while (callgrind_blocks_next(&b->blk, &at, &blk))
		callgrind_blocks_add(&rd->blk, &(struct pos_block){
			.func = m->funcs[blk.func],
			.npos = m->at_pos[blk.npos],
			.ncs = m->at_cs[blk.ncs],
			.off = blk.off,
		});
}

/* The main reader's state as the stretch left it. */
static void merge_state(struct merge *m)
{
	struct callgrind_reader *rd = m->rd;
	const struct callgrind_reader *b = &m->ah->rd;
	bool ok = true;
	static const struct {
		enum callgrind_key key;
		size_t offset;
	} fields[] = {
		{CALLGRIND_KEY_OB, offsetof(struct callgrind_reader, ob)},
		{CALLGRIND_KEY_FL, offsetof(struct callgrind_reader, fl)},
		{CALLGRIND_KEY_COB, offsetof(struct callgrind_reader, cob)},
		{CALLGRIND_KEY_CFI, offsetof(struct callgrind_reader, cfi)},
		{CALLGRIND_KEY_CFN, offsetof(struct callgrind_reader, cfn)},
		{CALLGRIND_KEY_JFI, offsetof(struct callgrind_reader, jfi)},
		{CALLGRIND_KEY_JFN, offsetof(struct callgrind_reader, jfn)},
	};

	each_defined_id(b, define_id, m, &ok);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (b->set >> fields[i].key & 1)
			*(name_id *)((char *)rd + fields[i].offset) =
				mapped(m, *(const name_id *)((const char *)b +
							     fields[i].offset));
	if (b->set & (1u << CALLGRIND_KEY_FL | 1u << CALLGRIND_KEY_FI |
		      1u << CALLGRIND_KEY_FE | 1u << CALLGRIND_KEY_FN))
		rd->file = mapped(m, b->file);
	if (b->func != NO_ID)
		rd->func = m->funcs[b->func];
	for (unsigned k = 0; k < rd->npos; k++)
		if (!(b->pos_unknown >> k & 1))
			rd->pos[k] = b->pos[k];
	for (size_t i = 0; i < rd->ncols; i++)
		rd->part_sum[i] += b->part_sum[i];
	rd->added_before_part = callgrind_add_upto_max(rd->added_before_part,
						       b->added_before_part);
	rd->added_by_calls = callgrind_add_upto_max(rd->added_by_calls,
						    b->added_by_calls);
	rd->part_has_cost |= b->part_has_cost;
	if (b->in_body) {
		rd->in_body = true;
		rd->last_is_total = false;
	}
	if (b->want_call_cost) {
		rd->want_call_cost = true;
		rd->call_count = b->call_count;
		rd->call_arc = b->call_arc == NO_ID ? NO_ID
						    : m->calls[b->call_arc];
		rd->calls_lineno = rd->lr->lineno + b->calls_lineno;
	}
	if (b->want_jump_source) {
		/* its source is the next cost line, this thread's */
		rd->want_jump_source = true;
		rd->jump = b->jump;
		rd->jump.to_file = mapped(m, b->jump.to_file);
	}
	rd->lr->lineno += m->ah->lr.lineno;
}

/* Add the stretch in, if it reads as reading in order would. */
static bool merge_ahead(struct callgrind_reader *rd, struct ahead *ah,
			const struct before *before)
{
	const struct profile *q = &ah->p;
	struct merge m = {
		.rd = rd, .ah = ah, .before = before,
		.names = xcalloc(q->names.nr + 1, sizeof(*m.names)),
		.stand_in = xcalloc(q->names.nr + 1, sizeof(*m.stand_in)),
		.funcs = xcalloc(q->nfuncs + 1, sizeof(*m.funcs)),
		.calls = xcalloc(q->ncalls + 1, sizeof(*m.calls)),
		.pos = xcalloc(q->npos + 1, sizeof(*m.pos)),
		.at_pos = rd->seek_rec ? xcalloc(q->npos + 1, sizeof(*m.at_pos))
				       : NULL,
		.at_cs = rd->seek_rec ? xcalloc(q->ncallsites + 1,
						sizeof(*m.at_cs))
				      : NULL,
	};
	bool ok = can_merge(&m);

	if (ok) {
		merge_profile(&m);
		merge_positions(&m);
		merge_blocks(&m);
		merge_state(&m);
	}
	free(m.names);
	free(m.stand_in);
	free(m.funcs);
	free(m.calls);
	free(m.pos);
	free(m.at_pos);
	free(m.at_cs);
	return ok;
}

/* ---- the stretches ---- */

/* This thread's lines until lr ends (its stop, or the file's end). */
static int read_to_end(struct callgrind_reader *rd, struct line_reader *lr)
{
	char *lines;
	size_t len;
	int r;

	while ((r = line_reader_lines(lr, &lines, &len)) > 0)
		if (callgrind_read_lines(rd, lines, lines + len) < 0)
			return -1;
	return r;
}

static void stop_ahead(struct ahead *ah)
{
	atomic_store(&ah->cancel, true);
	pthread_join(ah->thread, NULL);
	release_ahead(ah);
	free(ah);
}

/* A stretch read ahead after this thread's share from `from`, or NULL. */
static struct ahead *ahead_from(const struct callgrind_reader *rd,
				const struct line_reader *lr, uint64_t from,
				uint64_t min_bytes, uint64_t share)
{
	struct ahead *ah;

	if (!rd->ncols || rd->part_selected < 0 || rd->opts->part)
		return NULL;
	ah = xmalloc(sizeof(*ah));
	if (!start_ahead(ah, rd, lr, from, min_bytes, share)) {
		free(ah);
		return NULL;
	}
	return ah;
}

/*
 * The next stretch read ahead from where this thread is, or NULL when
 * there is none (this thread then reads to the end, or has failed: *r
 * -1). While no processor is free for the second thread (spare_cpu()),
 * this thread reads a stretch alone and looks again: something that
 * ran for a moment as the file was opened does not keep the second
 * thread off for the whole file. Tests (min_bytes 0) read ahead always.
 * Not asked while a stretch is read ahead: the second thread would
 * count against itself.
 */
static struct ahead *next_ahead(struct callgrind_reader *rd,
				struct line_reader *lr, uint64_t min_bytes,
				uint64_t share, int *r)
{
	while (min_bytes && !spare_cpu()) {
		uint64_t from = line_reader_next_offset(lr), to;

		if (from >= lr->file_size ||
		    lr->file_size - from < 3 * STRETCH_BYTES)
			return NULL;
		to = find_start(lr, from + STRETCH_BYTES);
		if (!to || !line_reader_splittable(lr, to))
			return NULL;
		line_reader_stop_at(lr, to);
		if (read_to_end(rd, lr) < 0) {
			*r = -1;
			return NULL;
		}
		line_reader_go_on_at(lr, to);
	}
	return ahead_from(rd, lr, line_reader_next_offset(lr), min_bytes,
			  share);
}

int callgrind_read_ahead(struct callgrind_reader *rd, struct line_reader *lr,
			 uint64_t min_bytes)
{
	struct ahead *ah, *next;
	struct before before = { 0 };
	uint64_t share = STRETCH_BYTES;
	char *lines;
	size_t len;
	int r;

	/* the header first, with the lines after it in the same block;
	 * tests (min_bytes 0), up to the first cost line only */
	sum_before(&before, rd->p);
	r = line_reader_lines(lr, &lines, &len);
	if (r <= 0)
		goto out;
	if (min_bytes ||
	    !line_reader_splittable(lr, line_reader_end_offset(lr))) {
		if (callgrind_read_lines(rd, lines, lines + len) < 0) {
			r = -1;
			goto out;
		}
	} else {
		char *s = lines, *end = lines + len;

		while (s < end && !(rd->ncols && rd->part_selected >= 0)) {
			char *nl = memchr(s, '\n', (size_t)(end - s)) + 1;

			if (callgrind_read_lines(rd, s, nl) < 0) {
				r = -1;
				goto out;
			}
			s = nl;
		}
		line_reader_go_on_at(lr, line_reader_offset(lr, s));
	}
	ah = next_ahead(rd, lr, min_bytes, share, &r);
	while (ah) {
		line_reader_stop_at(lr, ah->start);
		if (read_to_end(rd, lr) < 0) {
			stop_ahead(ah);
			r = -1;
			goto out;
		}
		/* tests: to its end, so that what is read ahead does not
		 * depend on which thread is faster */
		if (min_bytes)
			atomic_store(&ah->enough, true);
		pthread_join(ah->thread, NULL);
		if (ah->went_to_end)
			share = share / 2 >= LEAST_SHARE ? share / 2 : 0;
		else if (!ah->status)
			share = share < LEAST_SHARE ? LEAST_SHARE
				: share < STRETCH_BYTES ? share * 2
				: STRETCH_BYTES;
		/*
		 * The next stretch starts before this one is added in, so
		 * that the second thread reads while this one adds; not
		 * after one that stopped at a header line ("part:"), which
		 * is this thread's to read first. This thread's reader is
		 * at its stop, ah->start, and goes on after the stretch, or
		 * from ah->start again: it is no longer stopped there.
		 */
		line_reader_stop_at(lr, UINT64_MAX);
		next = !ah->at_header && ah->status == 0
			? ahead_from(rd, lr, ah->stop, min_bytes, share) : NULL;
		if (merge_ahead(rd, ah, &before)) {
			line_reader_go_on_at(lr, ah->stop);
			if (rd->opts->stats)
				rd->opts->stats->stretches_added++;
		} else {
			line_reader_go_on_at(lr, ah->start);
			if (rd->opts->stats)
				rd->opts->stats->stretches_dropped++;
		}
		release_ahead(ah);
		free(ah);
		ah = next ? next : next_ahead(rd, lr, min_bytes, share, &r);
	}
	if (r >= 0)
		r = read_to_end(rd, lr);
out:
	free(before.pos);
	free(before.sites);
	return r;
}
