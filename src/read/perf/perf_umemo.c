/*
 * The outer frames of a thread's last unwinding (see perf_umemo.h).
 *
 * An entry keeps its frames outermost first, each with the words its
 * step read after those of the frames outside it:
 *
 *   frames  [outermost ... innermost]
 *   reads   [outermost's | next's | ... | innermost's]
 *
 * so that a sample that takes the frames from one on keeps a prefix of
 * both in place and adds its own inner frames after it: nothing the
 * two samples share is copied to keep it. A sample's own frames are
 * made innermost first, in scratch (the entry is still being matched
 * against), and go to the entry reversed at its end.
 */
#include "perf_umemo.h"

#include <stdlib.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"

/* Threads kept, by tid: a slot is the last thread hashed to it. */
#define UMEMO_BITS 6

#define NO_SRC 0xff

struct uframe {
	struct perf_ustate st;
	struct perf_unwind_where where;
	uint64_t from, until;	/* when its look-up holds */
	uint32_t reads_end;	/* its reads end here */
	/* the registers of st the frames from it on depend on: those its
	 * step reads whatever else is wanted (the CFA's, the return
	 * address's source) and the sources of those the caller's frame
	 * depends on */
	uint32_t live;
	bool exact, past;
};

struct uentry {
	bool used;
	bool full;		/* ended at the frame limit */
	struct perf_umemo_key k;
	struct uframe *f;	/* outermost first */
	size_t n, alloc;
	struct perf_uread_rec *reads;
	size_t nreads, reads_alloc;
};

/* An unwinding that took frames from its last one and stepped more
 * than this many to get there is kept, to start the next one nearer
 * (keeping costs about what stepping a frame does). */
#define UMEMO_KEEP_STEPPED 3

struct perf_umemo {
	struct uentry slots[1u << UMEMO_BITS];

	/* the sample being unwound */
	struct perf_umemo_key k;
	struct perf_udump d;
	uint64_t time;
	size_t max;
	struct uentry *e;	/* its thread's slot */
	bool have;		/* e holds an unwinding of this key */
	size_t cursor;		/* frames of e inside it ruled out (from
				 * the innermost) */
	size_t took;		/* frames reuse took (e's first ones) */
	struct perf_ureads log;	/* its reads */
	size_t log_alloc;

	uint64_t samples, taken;
};

struct perf_umemo *perf_umemo_new(void)
{
	return xcalloc(1, sizeof(struct perf_umemo));
}

void perf_umemo_free(struct perf_umemo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < (1u << UMEMO_BITS); i++) {
		free(m->slots[i].f);
		free(m->slots[i].reads);
	}
	free(m->log.r);
	free(m);
}

struct perf_ureads *perf_umemo_begin(struct perf_umemo *m,
				     const struct perf_umemo_key *k,
				     const struct perf_udump *d,
				     uint64_t time, size_t max)
{
	uint32_t h = (k->tid * 0x9e3779b1u) >> (32 - UMEMO_BITS);
	struct uentry *e = &m->slots[h];

	m->k = *k;
	m->d = *d;
	m->time = time;
	m->max = max;
	m->e = e;
	m->have = e->used && e->k.tid == k->tid && e->k.pid == k->pid &&
		  e->k.gen == k->gen && e->k.made == k->made && e->n;
	m->cursor = 0;
	m->took = 0;
	m->log.n = 0;
	ARRAY_GROW(m->log.r, (max + 1) * PERF_UREADS_STEP, m->log_alloc);
	return &m->log;
}


/*
 * The registers of the frame stepped by row (NULL: by frame pointers)
 * that the frames from it on depend on, caller_live those of its
 * caller's frame: what each register of the caller's frame is made
 * from, as perf_unwind.c's step_by_row() and step_by_fp() make it, and
 * what the step reads whatever else is wanted.
 */
static uint32_t live_in(const struct cfi_row *row, uint32_t caller_live)
{
	uint8_t src[CFI_NREGS];
	uint32_t live;
	unsigned first, ra;

	if (!row) {
		/* rbp and the return address read at rbp, rsp above it;
		 * the stack pointer bounds them: both, whatever the
		 * caller's frame needs */
		return 1u << 6 | 1u << 7;
	}
	memset(src, NO_SRC, sizeof(src));
	first = row->nsame + row->nat;
	for (unsigned k = 0; k < row->nsame; k++)
		src[row->ruled[k]] = row->ruled[k];
	for (unsigned k = row->nsame; k < first + row->nother; k++) {
		unsigned r = row->ruled[k];

		if (k < first || row->rule[r] == CFI_VAL)
			src[r] = row->cfa_reg < CFI_NREGS ? row->cfa_reg
							  : NO_SRC;
		else if (row->rule[r] == CFI_REG && row->off[r] >= 0 &&
			 row->off[r] < CFI_NREGS)
			src[r] = (uint8_t)row->off[r];
	}
	live = row->cfa_reg < CFI_NREGS ? 1u << row->cfa_reg : 0;
	/* the caller's pc, and whether it has one */
	ra = row->ra;
	if (ra < CFI_NREGS && src[ra] != NO_SRC)
		live |= 1u << src[ra];
	for (uint32_t s = caller_live; s; s &= s - 1) {
		unsigned r = (unsigned)__builtin_ctz(s);

		if (src[r] != NO_SRC)
			live |= 1u << src[r];
	}
	return live;
}

/* Two frames' states the same as far as the registers live say: those
 * known in each, and their values. */
static bool same_state(const struct perf_ustate *a, const struct perf_ustate *b,
		       uint32_t live)
{
	if (a->pc != b->pc || (a->set & live) != (b->set & live) ||
	    a->has_pc != b->has_pc || a->initial != b->initial ||
	    a->signal != b->signal)
		return false;
	for (uint32_t s = a->set & live; s; s &= s - 1) {
		unsigned r = (unsigned)__builtin_ctz(s);

		if (a->regs[r] != b->regs[r])
			return false;
	}
	return true;
}

/* The stack pointer of a frame (0: unknown). */
static uint64_t state_sp(const struct perf_ustate *st)
{
	return st->set >> 7 & 1 ? st->regs[7] : 0;
}

/*
 * The sample's frames from here (i kept) are the entry's from its
 * frame at e->f[at] outwards: e->f[0 .. at] (outermost first), the
 * reads before its reads_end. Whether every read reads the same from
 * this dump and every look-up holds at this time.
 */
static bool holds(const struct perf_umemo *m, const struct uentry *e,
		  size_t at)
{
	for (size_t r = 0; r < e->f[at].reads_end; r++) {
		const struct perf_uread_rec *rd = &e->reads[r];
		uint64_t v = 0;

		if (perf_udump_read(&m->d, rd->addr, &v) != rd->how ||
		    (rd->how == UREAD_OK && v != rd->v))
			return false;
	}
	for (size_t k = 0; k <= at; k++)
		if (m->time < e->f[k].from || m->time >= e->f[k].until)
			return false;
	return true;
}

size_t perf_umemo_reuse(struct perf_umemo *m, const struct perf_ustate *st,
			size_t i, size_t nmods, uint64_t *pcs, bool *exact,
			struct perf_unwind_where *where, bool *past)
{
	struct uentry *e = m->e;
	uint64_t sp = state_sp(st);
	size_t at, take;

	if (!m->have || !sp || nmods != e->k.nmods)
		return 0;
	/* the entry's frames innermost first: each one's stack pointer
	 * above the last's, but for signal frames (a frame missed here is
	 * stepped, not wrong) */
	while (m->cursor < e->n &&
	       state_sp(&e->f[e->n - 1 - m->cursor].st) < sp)
		m->cursor++;
	if (m->cursor == e->n)
		return 0;
	at = e->n - 1 - m->cursor;
	if (state_sp(&e->f[at].st) != sp ||
	    !same_state(&e->f[at].st, st, e->f[at].live))
		return 0;
	/* frames at + 1 outward, after the i stepped: as many as the
	 * limit lets the sample have, and no more than it stepped to */
	take = at + 1;
	if (i + take > m->max || (e->full && i + take != m->max))
		return 0;
	if (!holds(m, e, at))
		return 0;
	for (size_t k = 0; k < take; k++) {
		const struct uframe *f = &e->f[at - k];

		pcs[k] = f->st.pc;
		exact[k] = f->exact;
		where[k] = f->where;
	}
	*past = e->f[0].past;
	m->samples++;
	m->taken += take;
	m->took = take;
	return take;
}

bool perf_umemo_worth(const struct perf_umemo *m, size_t n)
{
	return !m->took || n > UMEMO_KEEP_STEPPED;
}

void perf_umemo_keep(struct perf_umemo *m, const struct cfi_row *const *rows,
		     size_t n,
		     const struct perf_ustate *st,
		     const struct perf_ustep *how, const bool *exact,
		     const struct perf_unwind_where *where, bool full,
		     size_t nmods)
{
	struct uentry *e = m->e;
	size_t keep = m->took, nr = keep ? e->f[keep - 1].reads_end : 0;
	uint32_t live = keep ? e->f[keep - 1].live : 0;

	/* the frames of e outside those taken, then the sample's, from
	 * the outermost in */
	ARRAY_GROW(e->f, keep + n, e->alloc);
	ARRAY_GROW(e->reads, nr + m->log.n, e->reads_alloc);
	for (size_t i = n; i-- > 0;) {
		struct uframe *t = &e->f[keep++];
		size_t start = i ? how[i - 1].reads_end : 0;
		size_t len = how[i].reads_end - start;

		t->st = st[i];
		t->where = where[i];
		t->from = how[i].from;
		t->until = how[i].until;
		t->exact = exact[i];
		t->past = how[i].past;
		t->live = live = live_in(rows[i], live);
		memcpy(e->reads + nr, m->log.r + start,
		       len * sizeof(*e->reads));
		nr += len;
		t->reads_end = (uint32_t)nr;
	}
	e->n = keep;
	e->nreads = nr;
	if (!m->took)
		e->full = full;
	m->k.nmods = nmods;
	e->k = m->k;
	e->used = true;
}

void perf_umemo_drop(struct perf_umemo *m)
{
	m->log.n = 0;
}

void perf_umemo_counts(const struct perf_umemo *m, uint64_t *samples,
		       uint64_t *taken)
{
	*samples = m ? m->samples : 0;
	*taken = m ? m->taken : 0;

}
