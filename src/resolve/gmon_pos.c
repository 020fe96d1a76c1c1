/*
 * gmon.out's histogram and arcs as positions (see gmon_pos.h).
 *
 * Where a bin's ticks go. A tick is the program counter at a clock
 * interrupt: the address where an instruction starts (the one
 * interrupted, or the next to run). A bin covers about 4 bytes here
 * (glibc: one 2-byte counter per 4 bytes of text), so the instructions
 * whose starts fall in the bin are the only places its ticks can have
 * come from, and they are 0 to 4 of them; the histogram cannot tell
 * which. We put all of the bin's ticks on the first instruction that
 * starts in it:
 *  - gprof -l puts a bin's ticks at the bin's low address, or shares
 *    them by byte overlap among the lines the bin touches. When the low
 *    address is in the middle of an instruction that started in the bin
 *    before, that instruction cannot be where this bin's ticks were
 *    taken, yet gprof gives them (or part of them) to its line; the
 *    first instruction starting in the bin can be, and an instruction
 *    is what --disasm needs to put a cost on;
 *  - when the instructions starting in a bin are on one line (most of
 *    them: a line is several instructions), the line is exact either
 *    way; when they are on two, either could be right, and the first
 *    one is at least a place a tick can have been taken;
 *  - ticks are whole: a tick is not split between instructions, so the
 *    listings' counts stay the histogram's counts.
 * The bins' bounds are the ones the clock used (bin_bounds), not
 * gprof's, which the flat profile keeps to agree with gprof: a bin
 * there can start 2 bytes lower, so a tick on the last instruction of a
 * flat-profile function can be on the next one's first here; the
 * disassembly says so ("self cost of the profile function").
 *
 * A call arc's from_pc is meant to be the call's return address, but
 * glibc's is only that rounded down to a multiple of 16 bytes (from the
 * histogram's start): its mcount keeps arcs in a table with one slot
 * per 16 bytes of caller code, and writes the slot's address back. In
 * tests/gmon/nopie.gmon the call at 0x40133c returns to 0x401341 and
 * its arc says 0x401340. The address as it stands can be on the line
 * after the call, or before it (pie.gmon's 0x1330 is on line 49 of
 * prog.c; the call it stands for, spin(1000), is on line 51, which is
 * where gprof -l puts it). So the call instruction is looked for: one
 * whose return address is in [from_pc, from_pc + 16), preferably one
 * calling the arc's callee. A file with exact return addresses finds
 * the call ending at from_pc the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "gmon_pos.h"
#include "symtab/disasm.h"

/* How far past an arc's from_pc its call's return address may be
 * (glibc's rounding; see above), and the longest instruction (x86). */
#define FROM_GRAIN 16
#define MAX_INSN_LEN 15

/* The instructions of the last two code symbols asked about: bins come
 * in address order, arcs are visited in address order too, and a call
 * near a symbol's end has the next symbol in its window. */
struct slot {
	const struct sym *sym;	/* NULL: empty */
	struct disasm code;
	bool ok;		/* disassembled (else: failed, said once) */
	uint64_t used;		/* when last asked for */
};

struct finder {
	const struct symtab *st;
	struct slot slot[2];
	uint64_t clock;
	bool warned;
};

/*
 * s's instructions, or NULL when it cannot be disassembled. The
 * disassembler's messages while we only look for instruction starts are
 * not the user's business: the first failure is said once, as a warning.
 */
static const struct disasm *load(struct finder *f, const struct sym *s)
{
	struct slot *sl = &f->slot[0];
	FILE *saved = diag_sink(), *mem;
	char *msg = NULL;
	size_t len = 0;

	f->clock++;
	for (int k = 0; k < 2; k++)
		if (f->slot[k].sym == s) {
			f->slot[k].used = f->clock;
			return f->slot[k].ok ? &f->slot[k].code : NULL;
		}
	if (f->slot[1].used < sl->used)
		sl = &f->slot[1];
	disasm_release(&sl->code);
	sl->sym = s;
	sl->used = f->clock;
	mem = open_memstream(&msg, &len);
	if (mem)
		diag_set_sink(mem);
	sl->ok = disasm_range(f->st, s->addr, s->end, false, &sl->code) == 0;
	if (mem) {
		fclose(mem);
		diag_set_sink(saved);
	}
	if (!sl->ok && !f->warned) {
		/* without the "cganalyze: " and the newline */
		const char *m = msg && strncmp(msg, "cganalyze: ", 11) == 0
					? msg + 11 : msg ? msg : "";

		warning("annotating the gmon.out: %.*s; ticks are put at their "
			"histogram bins' first addresses and calls at the arcs' "
			"from_pc where there are no instructions",
			(int)strcspn(m, "\n"), m);
		f->warned = true;
	}
	free(msg);
	return sl->ok ? &sl->code : NULL;
}

static const struct sym *code_sym_at(const struct symtab *st, uint64_t a)
{
	const struct sym *s = symtab_lookup(st, a);

	return s && s->kind != SYM_OBJECT && s->end > s->addr ? s : NULL;
}

/* Index of the first instruction of d at or after a (ninsns when
 * none). */
static size_t first_at_or_after(const struct disasm *d, uint64_t a)
{
	size_t lo = 0, hi = d->ninsns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->insns[mid].addr < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first instruction start in [lo, hi), which may be in the next
 * symbol when the bin spans two; false when none is known. */
static bool insn_start_in(struct finder *f, uint64_t lo, uint64_t hi,
			  uint64_t *out)
{
	uint64_t a = lo;

	/* a bin is a few bytes: it can span at most a few symbols */
	for (int k = 0; k < 4 && a < hi; k++) {
		const struct sym *s = code_sym_at(f->st, a);
		const struct disasm *d = s ? load(f, s) : NULL;
		size_t i;

		if (!d)
			return false;
		i = first_at_or_after(d, a);
		if (i < d->ninsns) {
			if (d->insns[i].addr >= hi)
				return false;
			*out = d->insns[i].addr;
			return true;
		}
		a = s->end;
	}
	return false;
}

/*
 * The call instruction of an arc whose from_pc is `from` and whose
 * callee's code is [clo, chi): a call whose return address r is in
 * [from, from + FROM_GRAIN), one going to the callee first, then an
 * indirect one, then any; the lowest r among equals. False when there
 * is none (or no disassembly).
 */
static bool call_insn_for(struct finder *f, uint64_t from, uint64_t clo,
			  uint64_t chi, uint64_t *out)
{
	uint64_t a = from > MAX_INSN_LEN ? from - MAX_INSN_LEN : 0;
	uint64_t end = from + FROM_GRAIN;
	int best_rank = 3;

	while (a < end) {
		const struct sym *s = code_sym_at(f->st, a);
		const struct disasm *d;

		if (!s) {
			a++;	/* a gap between symbols: a few bytes */
			continue;
		}
		d = load(f, s);
		for (size_t i = d ? first_at_or_after(d, a) : 0;
		     d && i < d->ninsns && d->insns[i].addr < end; i++) {
			const struct insn *in = &d->insns[i];
			uint64_t r = in->addr + in->len;
			int rank;

			if (in->kind != INSN_CALL || r < from || r >= end)
				continue;
			rank = !in->has_target ? 1
			       : in->target >= clo && in->target < chi ? 0 : 2;
			if (rank < best_rank) {
				best_rank = rank;
				*out = in->addr;
			}
		}
		a = s->end;
	}
	return best_rank < 3;
}

/* The position of func at link-time address a, with a's line. */
static uint32_t pos_at(const struct gmon_pos_in *in, uint32_t func, uint64_t a)
{
	struct profile *p = in->p;
	const struct line_entry *le = symtab_line(in->st, a);
	name_id file = NO_NAME;
	uint32_t line = 0;

	if (le && !le->end_sequence && le->file != NO_NAME) {
		file = le->file;
		line = le->line;
		p->has_line = true;
	}
	p->has_instr = true;
	return profile_pos(p, func, file, line, a + in->load_offset);
}

/*
 * The profiling clock's scale, as the writer computed it: monstartup()
 * in glibc (and in the BSD gmon.c it comes from) sets profil()'s scale
 * to kcount bytes / text bytes * 65536, in float, truncated, or 65536
 * when the counts are not fewer than the text's bytes; 0 when the
 * histogram is too odd for it.
 */
static uint32_t profil_scale(const struct gmon_hist *h)
{
	uint64_t kcount = 2 * (uint64_t)h->nbins, text = h->high - h->low;
	float s;

	if (kcount >= text)
		return 65536;
	s = (float)kcount / (float)text * 65536.0f;
	return s >= 1.0f && s <= 65536.0f ? (uint32_t)s : 0;
}

/*
 * Bin i's link-time [lo, hi). The clock counts the interrupted pc in
 * bin ((pc - low_pc) / 2) * scale / 65536 (profil(), integer division),
 * so bin i holds the 2-byte units u with that quotient equal to i: from
 * ceil(i * 65536 / scale) to ceil((i + 1) * 65536 / scale). gprof
 * inverts it with truncation instead (resolve_gmon.c), which puts its
 * bins up to 2 bytes below these: half a bin of about 4 bytes.
 */
static void bin_bounds(const struct gmon_hist *h, uint64_t low, uint32_t scale,
		       uint32_t i, uint64_t *lo, uint64_t *hi)
{
	uint64_t ulo = ((uint64_t)i * 65536 + scale - 1) / scale;
	uint64_t uhi = (((uint64_t)i + 1) * 65536 + scale - 1) / scale;

	(void)h;
	*lo = low + 2 * ulo;
	*hi = low + 2 * uhi;
}

static void place_hist(const struct gmon_pos_in *in, struct finder *f,
		       const struct gmon_hist *h)
{
	uint64_t low = h->low - in->load_offset;
	uint32_t scale = profil_scale(h);
	double units = (double)((h->high - h->low) / 2) / h->nbins;

	for (uint32_t i = 0; i < h->nbins; i++) {
		uint64_t blo, bhi, a;
		uint32_t pos;

		if (!h->bins[i])
			continue;
		if (scale) {
			bin_bounds(h, low, scale, i, &blo, &bhi);
		} else {	/* gprof's bounds, as the flat profile has them */
			blo = 2 * (low / 2 + (uint64_t)(units * i));
			bhi = 2 * (low / 2 + (uint64_t)(units * (i + 1)));
		}
		if (bhi <= blo || !insn_start_in(f, blo, bhi, &a))
			a = blo;
		pos = pos_at(in, in->func_at(in->arg, a), a);
		profile_pos_cost(in->p, pos)[in->event] += h->bins[i];
	}
}

static int cmp_arc_from(const void *x, const void *y, void *arg)
{
	const struct gmon_arc *arcs = arg;
	uint64_t a = arcs[*(const uint32_t *)x].from,
		 b = arcs[*(const uint32_t *)y].from;

	return (a > b) - (a < b);
}

static void place_arcs(const struct gmon_pos_in *in, struct finder *f)
{
	const struct gmon_data *g = in->g;
	uint32_t *order = xcalloc(g->narcs + 1, sizeof(*order));

	for (size_t i = 0; i < g->narcs; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, g->narcs, sizeof(*order), cmp_arc_from, g->arcs);
	for (size_t k = 0; k < g->narcs; k++) {
		const struct gmon_arc *arc = &g->arcs[order[k]];
		uint64_t from = arc->from - in->load_offset, a, clo, chi;
		uint32_t call = in->call_of(in->arg, order[k], &clo, &chi), cs;

		if (call == NO_ID)
			continue;	/* an arc left out (resolve_gmon.c) */
		if (!call_insn_for(f, from, clo, chi, &a))
			a = from;
		/* the arc's caller, whichever function the call instruction
		 * is in: the call graph has it there */
		cs = profile_callsite(in->p,
				      pos_at(in, in->p->calls[call].caller, a),
				      call);
		in->p->callsites[cs].count =
			arc->count > UINT64_MAX - in->p->callsites[cs].count
				? UINT64_MAX
				: in->p->callsites[cs].count + arc->count;
	}
	free(order);
}

void gmon_positions(const struct gmon_pos_in *in)
{
	struct finder f = { .st = in->st };

	for (size_t i = 0; i < in->g->nhists; i++)
		if (in->g->hists[i].nbins)
			place_hist(in, &f, &in->g->hists[i]);
	place_arcs(in, &f);
	disasm_release(&f.slot[0].code);
	disasm_release(&f.slot[1].code);
}
