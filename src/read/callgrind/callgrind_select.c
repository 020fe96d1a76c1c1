/*
 * The Callgrind reader's run of cost lines under POS_SELECT (the
 * disassembly's two reads, src/cli/code_positions.c), beside the
 * general fast path of callgrind_body.c.
 */
#include <string.h>

#include "base/xalloc.h"

#include "callgrind_fast.h"
#include "callgrind_reader.h"
#include "profile/pos_select.h"

/* last_position()'s columns of a cost line: the last of the line's
 * (*kl) and of the address's (*ka); -1 for none */
static void pos_columns(const struct callgrind_reader *rd, int *kl, int *ka)
{
	*kl = *ka = -1;
	for (unsigned k = 0; k < rd->npos; k++) {
		if (rd->pos_kind[k] == POS_LINE)
			*kl = (int)k;
		else if (rd->pos_kind[k] == POS_INSTR)
			*ka = (int)k;
	}
}

/* A line's costs v[0..n) added to the function's self row and the
 * part's sum as add_cost_line() adds them: false, *why saying which,
 * when one passed 2^64 - 1 */
static inline bool add_line_sums(uint64_t *row, uint64_t *sum,
				 const uint64_t *v, long n,
				 enum select_stop *why)
{
	bool over_row = false, over_sum = false;

	for (long i = 0; i < n; i++) {
		over_row |= __builtin_add_overflow(row[i], v[i], &row[i]);
		over_sum |= __builtin_add_overflow(sum[i], v[i], &sum[i]);
	}
	if (over_row || over_sum)
		*why = over_row ? SELECT_OVER_SELF : SELECT_OVER_SUM;
	return !over_row && !over_sum;
}

/* The reader's state after a run that read lines: the positions of the
 * last line, and a part with cost in its body */
static void run_read(struct callgrind_reader *rd, const struct line_pos *lp)
{
	memcpy(rd->pos, lp->p, sizeof(lp->p));
	rd->pos_unknown = (uint8_t)lp->unknown;
	rd->part_has_cost = true;
	rd->last_is_total = false;
	rd->in_body = true;
}

/*
 * fast_cost_run()'s run of cost lines (callgrind_body.c) when positions
 * are kept as POS_SELECT keeps them (the disassembly's reads): most
 * lines of a function not kept whole add their cost to the coarse row
 * of the line before (the same 32 bytes of code, or region of the
 * binary; pos_select_span()), which is then found once for many lines
 * rather than through add_cost_line() and profile_pos() at each. A
 * line whose position leaves the span, or has no address, goes through
 * profile_pos() as the general path's would, and gives the next span.
 * Results and messages are those of the lines one by one: the line
 * counted before anything can be said, the sums checked in
 * add_cost_line()'s order (the caller says what passed 2^64 - 1), the
 * size checked by the caller after a line that added a position.
 */
char *callgrind_select_run(struct callgrind_reader *rd, char *s, char *end,
			   enum select_stop *why)
{
	struct profile *p = rd->p;
	struct pos_select *ps = p->pos_select;
	uint64_t *row, *sum = rd->part_sum, *v = rd->vals;
	const unsigned npos = rd->npos;
	const size_t ncols = rd->ncols;
	const uint32_t f = rd->func;
	const name_id file = rd->file;
	struct line_pos lp = { { rd->pos[0], rd->pos[1], rd->pos[2] },
			       rd->pos_unknown };
	struct ps_span sp = rd->sel_span;
	uint64_t lines = 0, lo = 0, hi = 0;
	uint32_t pos = rd->sel_pos, span_line = rd->sel_line;
	bool line_exact = rd->sel_line_exact;
	int kl, ka;	/* last_position()'s: the last of each */

	*why = SELECT_ON;
	if (rd->want_call_cost || rd->want_jump_source || f == NO_ID ||
	    !rd->identity_map || !rd->opts->want_positions ||
	    p->pos_detail != POS_SELECT || !callgrind_part_selected(rd))
		return s;
	/* the span stands while the block is this function's */
	if (rd->sel_func != f || rd->sel_file != file || ps->cur != f)
		sp = (struct ps_span){ 1, 0, false, false };
	pos_columns(rd, &kl, &ka);
	row = profile_self(p, f);
	while (s < end && is_cost_start(*s)) {
		long n;
		const char *next = fast_cost_line(s, npos, ncols, &lp, v, &n);
		uint64_t line = kl >= 0 ? lp.p[kl] : 0;
		uint64_t addr = ka >= 0 ? lp.p[ka] : 0;

		if (!next)
			break;
		/* as last_position() at each line */
		p->has_line |= kl >= 0;
		p->has_instr |= ka >= 0;
		lines++;
		rd->lr->lineno++;
		s = (char *)next;
		if (line > UINT32_MAX)
			line = UINT32_MAX;
		if (!add_line_sums(row, sum, v, n, why))
			break;
		if (addr >= sp.lo && addr < sp.hi &&
		    (line_exact ? line == span_line : line != 0)) {
			if (sp.count)
				pos_select_count_next(ps, file, (uint32_t)line,
						      addr, sp.in_seg);
			lo = !lo || addr < lo ? addr : lo;
			hi = addr > hi ? addr : hi;
		} else {
			size_t npos_before = p->npos;

			pos = profile_pos(p, f, file, (uint32_t)line, addr);
			pos_select_span(ps, f, p->pos[pos].region, addr, &sp);
			span_line = (uint32_t)line;
			/* a line the coarse row has as 1 (lines not kept, or
			 * the first read's "on a line") */
			line_exact = !line || p->pos[pos].line == line;
			if (p->npos != npos_before)
				*why = SELECT_GREW;
		}
		if (!cost_row_add(profile_pos_cost(p, pos), NULL, v, (size_t)n))
			*why = SELECT_OVER_POS;
		if (*why != SELECT_ON)
			break;
	}
	if (lo)
		pos_select_widen(ps, f, lo, hi);
	if (!lines)
		return s;
	rd->sel_span = sp;
	rd->sel_pos = pos;
	rd->sel_func = f;
	rd->sel_file = file;
	rd->sel_line = span_line;
	rd->sel_line_exact = line_exact;
	run_read(rd, &lp);
	return s;
}

/*
 * The addresses [*lo, *hi) whose positions the main thread adds to the
 * same coarse row as that of addr, whatever the object of the function
 * turns out to be (a stretch read ahead may not know it): under
 * no_counts, profile_pos() sums a function of the binary's object by
 * region and any other by 32 bytes of code, so the addresses in both
 * addr's 32 bytes and its region (between the two bounds either side of
 * it, or past the first or the last) go to one row either way.
 */
static void collapse_cell(const struct callgrind_reader *rd, uint64_t addr,
			  uint64_t *lo, uint64_t *hi)
{
	const uint64_t *b = rd->coll_bound;
	uint32_t l = 0, h = rd->coll_nbound;

	if (addr > UINT64_MAX - 32) {
		*lo = 1;	/* as pos_select_span(): no span */
		*hi = 0;
		return;
	}
	*lo = addr & ~(uint64_t)31;
	*hi = *lo + 32;
	/* the first bound past addr */
	while (l < h) {
		uint32_t mid = l + (h - l) / 2;

		if (b[mid] <= addr)
			l = mid + 1;
		else
			h = mid;
	}
	if (l < rd->coll_nbound && b[l] < *hi)
		*hi = b[l];
	if (l > 0 && b[l - 1] > *lo)
		*lo = b[l - 1];
}

/* Logged position pos's range of addresses widened to addr (0: none). */
static void collapse_widen(struct callgrind_reader *rd, uint32_t pos,
			   uint64_t addr)
{
	if (pos >= rd->coll_alloc) {
		size_t n = rd->coll_alloc * 2 > (size_t)pos + 1024
				   ? rd->coll_alloc * 2 : (size_t)pos + 1024;

		rd->coll_lo = xreallocarray(rd->coll_lo, n, sizeof(*rd->coll_lo));
		rd->coll_hi = xreallocarray(rd->coll_hi, n, sizeof(*rd->coll_hi));
		memset(rd->coll_lo + rd->coll_alloc, 0,
		       (n - rd->coll_alloc) * sizeof(*rd->coll_lo));
		memset(rd->coll_hi + rd->coll_alloc, 0,
		       (n - rd->coll_alloc) * sizeof(*rd->coll_hi));
		rd->coll_alloc = n;
	}
	if (!addr)
		return;
	if (!rd->coll_lo[pos] || addr < rd->coll_lo[pos])
		rd->coll_lo[pos] = addr;
	if (addr > rd->coll_hi[pos])
		rd->coll_hi[pos] = addr;
}

/*
 * A stretch read ahead that keeps positions as they are read (POS_ALL:
 * the main thread's are whole, or chosen as it adds them in): its run
 * of cost lines, each added where add_cost_line() would (the
 * function's self row, the part's sum, its position's row, logged),
 * the profile's size checked once at the run's end rather than at each
 * line: a stretch whose size is refused says so, and is dropped for
 * the main thread to read, whichever line it was at.
 *
 * For the choosing read (rd->collapse), a line the main thread would
 * add to the same coarse row as the position logged last (the same
 * function, file and line, an address in the same cell:
 * collapse_cell()) goes to that position, its address widening the
 * position's range, which merge_positions() gives pos_select_widen().
 * The main thread then finds each row once for the lines it gathers,
 * in the order they first came: the rows, their costs and the
 * functions' ranges are those of reading in order.
 *
 * Results and messages as callgrind_select_run()'s; SELECT_GREW at the
 * run's end when it logged a position.
 */
char *callgrind_collapse_run(struct callgrind_reader *rd, char *s, char *end,
			     enum select_stop *why)
{
	struct profile *p = rd->p;
	uint64_t *row, *sum = rd->part_sum, *v = rd->vals;
	const unsigned npos = rd->npos;
	const size_t ncols = rd->ncols;
	const uint32_t f = rd->func;
	const name_id file = rd->file;
	struct line_pos lp = { { rd->pos[0], rd->pos[1], rd->pos[2] },
			       rd->pos_unknown };
	uint64_t lines = 0;
	uint32_t pos = rd->coll_pos, to;
	const bool gather = rd->collapse;
	bool grew = false;
	int kl, ka;	/* last_position()'s: the last of each */

	*why = SELECT_ON;
	if (!rd->ahead || !rd->opts->want_positions ||
	    (!gather && p->pos_detail != POS_ALL) || rd->want_call_cost ||
	    rd->want_jump_source || f == NO_ID || !rd->identity_map ||
	    !callgrind_part_selected(rd))
		return s;
	/* the run goes on while its position is the one logged last */
	if (pos == NO_ID || (size_t)pos + 1 != p->npos || rd->coll_func != f ||
	    rd->coll_file != file)
		pos = NO_ID;
	pos_columns(rd, &kl, &ka);
	row = profile_self(p, f);
	while (s < end && is_cost_start(*s)) {
		long n;
		const char *next = fast_cost_line(s, npos, ncols, &lp, v, &n);
		uint64_t line = kl >= 0 ? lp.p[kl] : 0;
		uint64_t addr = ka >= 0 ? lp.p[ka] : 0;

		if (!next)
			break;
		/* as last_position() at each line */
		p->has_line |= kl >= 0;
		p->has_instr |= ka >= 0;
		lines++;
		rd->lr->lineno++;
		s = (char *)next;
		if (line > UINT32_MAX)
			line = UINT32_MAX;
		if (!add_line_sums(row, sum, v, n, why))
			break;
		if (gather && pos != NO_ID && line == rd->coll_line &&
		    (addr ? addr >= rd->coll_cell_lo && addr < rd->coll_cell_hi
			  : rd->coll_zero)) {
			to = pos;
		} else {
			size_t npos_before = p->npos;

			to = profile_pos(p, f, file, (uint32_t)line, addr);
			grew |= p->npos != npos_before;
			if (gather) {
				rd->coll_line = (uint32_t)line;
				rd->coll_zero = !addr;
				rd->coll_cell_lo = 1;
				rd->coll_cell_hi = 0;
				if (addr)
					collapse_cell(rd, addr,
						      &rd->coll_cell_lo,
						      &rd->coll_cell_hi);
				/* only the position logged last gathers */
				pos = (size_t)to + 1 == p->npos ? to : NO_ID;
			}
		}
		if (gather)
			collapse_widen(rd, to, addr);
		if (!cost_row_add(profile_pos_cost(p, to), NULL, v, (size_t)n))
			*why = SELECT_OVER_POS;
		if (*why != SELECT_ON)
			break;
	}
	if (grew && *why == SELECT_ON)
		*why = SELECT_GREW;
	rd->coll_pos = pos;
	rd->coll_func = f;
	rd->coll_file = file;
	if (lines)
		run_read(rd, &lp);
	return s;
}
