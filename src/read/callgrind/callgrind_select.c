/*
 * The Callgrind reader's run of cost lines under POS_SELECT (the
 * disassembly's two reads, src/cli/code_positions.c), beside the
 * general fast path of callgrind_body.c.
 */
#include <string.h>

#include "callgrind_fast.h"
#include "callgrind_reader.h"
#include "profile/pos_select.h"

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
	bool line_exact = rd->sel_line_exact, line_kind = false;
	bool instr_kind = false;
	int kl = -1, ka = -1;	/* last_position()'s: the last of each */

	*why = SELECT_ON;
	if (rd->want_call_cost || rd->want_jump_source || f == NO_ID ||
	    !rd->identity_map || !rd->opts->want_positions ||
	    p->pos_detail != POS_SELECT || !callgrind_part_selected(rd))
		return s;
	/* the span stands while the block is this function's */
	if (rd->sel_func != f || rd->sel_file != file || ps->cur != f)
		sp = (struct ps_span){ 1, 0, false, false };
	for (unsigned k = 0; k < npos; k++) {
		if (rd->pos_kind[k] == POS_LINE) {
			kl = (int)k;
			line_kind = true;
		} else if (rd->pos_kind[k] == POS_INSTR) {
			ka = (int)k;
			instr_kind = true;
		}
	}
	row = profile_self(p, f);
	while (s < end && is_cost_start(*s)) {
		long n;
		const char *next = fast_cost_line(s, npos, ncols, &lp, v, &n);
		uint64_t line = kl >= 0 ? lp.p[kl] : 0;
		uint64_t addr = ka >= 0 ? lp.p[ka] : 0;
		bool over_row = false, over_sum = false;

		if (!next)
			break;
		/* as last_position() at each line */
		p->has_line |= line_kind;
		p->has_instr |= instr_kind;
		lines++;
		rd->lr->lineno++;
		s = (char *)next;
		if (line > UINT32_MAX)
			line = UINT32_MAX;
		for (long i = 0; i < n; i++) {
			over_row |= __builtin_add_overflow(row[i], v[i], &row[i]);
			over_sum |= __builtin_add_overflow(sum[i], v[i], &sum[i]);
		}
		if (over_row || over_sum) {
			*why = over_row ? SELECT_OVER_SELF : SELECT_OVER_SUM;
			break;
		}
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
	memcpy(rd->pos, lp.p, sizeof(lp.p));
	rd->pos_unknown = (uint8_t)lp.unknown;
	rd->part_has_cost = true;
	rd->last_is_total = false;
	rd->in_body = true;
	return s;
}
