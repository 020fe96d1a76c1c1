/*
 * The line table: every CU's rows merged into one array sorted by
 * address, and symtab_line() as one binary search in it.
 *
 * A sequence is a run of rows ending with an end_sequence row; rows
 * [addr, next row's addr) say where the code came from. Sequences can
 * overlap (code the linker dropped keeps its rows at address 0; some
 * compilers emit nested sequences). They are made disjoint the way bfd
 * does it for addr2line (bfd/dwarf2.c, sort_line_sequences): sorted by
 * start, longest first; a sequence inside the one before is dropped, one
 * overlapping its end is cut to start where that one ends:
 *
 *     A  |-----------------|
 *     B       |-----|              inside A: dropped
 *     C               |--------|   cut:      |--|
 *
 * Within a sequence, of several rows at one address the last counts
 * (bfd keeps only the last: PR ld/4986).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"
#include "symtab_int.h"

struct seq {
	uint64_t low, high;	/* [low, high): high is the end row's addr */
	size_t first, n;	/* rows[first .. first+n), end row last */
	size_t index;		/* position in the input: stable order */
};

static int seq_cmp(const void *a, const void *b)
{
	const struct seq *x = a, *y = b;

	if (x->low != y->low)
		return x->low < y->low ? -1 : 1;
	if (x->high != y->high)		/* longest first */
		return x->high > y->high ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Rows of one sequence by address, keeping input order among equals so
 * that "the last at an address" stays the last. */
static int row_cmp(const void *a, const void *b)
{
	const struct line_entry *x = *(const struct line_entry *const *)a;
	const struct line_entry *y = *(const struct line_entry *const *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Append row to out, replacing a previous row at the same address. */
static void emit(struct line_entry **out, size_t *n, size_t *alloc,
		 const struct line_entry *row)
{
	if (*n && (*out)[*n - 1].addr == row->addr &&
	    !(*out)[*n - 1].end_sequence) {
		(*out)[*n - 1] = *row;
		return;
	}
	ARRAY_GROW(*out, *n + 1, *alloc);
	(*out)[(*n)++] = *row;
}

/* The rows of sequence s from its (possibly cut) start to its end. */
static void emit_seq(struct line_entry **out, size_t *n, size_t *alloc,
		     const struct line_entry *rows, const struct seq *s,
		     const struct line_entry **tmp)
{
	const struct line_entry *cover = NULL;
	struct line_entry row;
	size_t m = 0;
	bool sorted = true;

	/* the end row stays last whatever its address; the rest sorted,
	 * unless they are in order already, as a sequence's rows nearly
	 * always are (its address only advances, but for a
	 * DW_LNE_set_address): qsort() was most of the lines' time after
	 * a perf.data's read (391,000 comparisons, all in order) */
	for (size_t i = 0; i + 1 < s->n; i++) {
		tmp[m++] = &rows[s->first + i];
		if (m > 1 && tmp[m - 2]->addr > tmp[m - 1]->addr)
			sorted = false;
	}
	if (!sorted)
		qsort(tmp, m, sizeof(*tmp), row_cmp);
	for (size_t i = 0; i < m; i++) {
		if (tmp[i]->addr >= s->high)
			break;	/* never looked up: the sequence has ended */
		if (tmp[i]->addr <= s->low) {
			cover = tmp[i];	/* the row in force at a cut start */
			continue;
		}
		if (cover) {
			row = *cover;
			row.addr = s->low;
			emit(out, n, alloc, &row);
			cover = NULL;
		}
		emit(out, n, alloc, tmp[i]);
	}
	if (cover) {
		row = *cover;
		row.addr = s->low;
		emit(out, n, alloc, &row);
	}
	row = rows[s->first + s->n - 1];
	row.addr = s->high;
	row.end_sequence = true;
	ARRAY_GROW(*out, *n + 1, *alloc);
	(*out)[(*n)++] = row;
}

void lines_build(struct symtab *st, struct line_entry *rows, size_t nrows)
{
	struct seq *seqs = NULL;
	const struct line_entry **tmp;
	struct line_entry *out = NULL;
	size_t nseqs = 0, seqs_alloc = 0, n = 0, alloc = 0, start = 0;
	size_t kept = 0;
	uint64_t last_high = 0;

	for (size_t i = 0; i < nrows; i++) {
		struct seq *s;
		uint64_t low = UINT64_MAX;

		if (!rows[i].end_sequence)
			continue;
		for (size_t k = start; k <= i; k++)
			if (rows[k].addr < low)
				low = rows[k].addr;
		ARRAY_GROW(seqs, nseqs + 1, seqs_alloc);
		s = &seqs[nseqs];
		s->low = low;
		s->high = rows[i].addr;
		s->first = start;
		s->n = i + 1 - start;
		s->index = nseqs;
		start = i + 1;
		if (s->low < s->high)	/* empty ones hold no address */
			nseqs++;
	}
	if (nseqs)
		qsort(seqs, nseqs, sizeof(*seqs), seq_cmp);
	for (size_t i = 0; i < nseqs; i++) {
		if (kept && seqs[i].low < last_high) {
			if (seqs[i].high <= last_high)
				continue;	/* nested: dropped */
			seqs[i].low = last_high;	/* overlapping: cut */
		}
		last_high = seqs[i].high;
		seqs[kept++] = seqs[i];
	}
	tmp = xmalloc((nrows ? nrows : 1) * sizeof(*tmp));
	for (size_t i = 0; i < kept; i++)
		emit_seq(&out, &n, &alloc, rows, &seqs[i], tmp);
	free(tmp);
	free(seqs);
	free(rows);
	st->lines = out;
	st->nlines = n;
}

const struct line_entry *symtab_line(const struct symtab *st, uint64_t addr)
{
	/* the last row at or below addr */
	size_t lo = count_at_or_below(st->lines, st->nlines,
				      sizeof(*st->lines), addr);

	if (lo == 0 || st->lines[lo - 1].end_sequence)
		return NULL;
	return &st->lines[lo - 1];
}
