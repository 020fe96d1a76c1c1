/*
 * The files and lines of the functions of recorded files found without
 * -b: only the line rows of the units that hold them are read (libc6-dbg's
 * whole DWARF costs a small listing 0.2 s, these rows through libdwarf
 * 0.08 s, and from .debug_line alone, symtab/line_prog.c, a few ms).
 */
#include "perf_lines.h"

#include <stdlib.h>

#include "base/array.h"
#include "base/xalloc.h"

bool perf_file_vaddr(const struct symtab *st, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < st->nsegs; i++) {
		const struct segment *s = &st->segs[i];

		if (off >= s->offset && off - s->offset < s->filesz) {
			*vaddr = s->vaddr + (off - s->offset);
			return true;
		}
	}
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The entry of the function holding file offset off of st, in *entry. */
static bool entry_at(const struct symtab *st, uint64_t off, uint64_t *entry)
{
	const struct sym *s;
	uint64_t vaddr;

	if (!perf_file_vaddr(st, off, &vaddr))
		return false;
	s = symtab_lookup(st, vaddr);
	if (!s || s->kind == SYM_OBJECT)
		return false;
	*entry = s->addr;
	return true;
}

void perf_entry_lines(const struct perf_data *d, struct symtab *const *st,
		      const char *debug_dir)
{
	uint64_t **want = xcalloc(d->nobjects + 1, sizeof(*want));
	size_t *n = xcalloc(d->nobjects + 1, sizeof(*n));
	size_t *alloc = xcalloc(d->nobjects + 1, sizeof(*alloc));

	for (size_t f = 0; f < d->nframes; f++) {
		const struct perf_frame *fr = &d->frames[f];
		uint32_t i = fr->object;
		uint64_t e;

		/* nor where symtab_load_lines() would find no DWARF: no
		 * debug file, and none in the binary (a stripped cc1's
		 * frames, most of a build's) */
		if (!st[i] || st[i]->has_dwarf || st[i]->nlines ||
		    (st[i]->no_debug_file && !st[i]->bin_dwarf) ||
		    d->objects[i].kind != PERF_OBJ_FILE)
			continue;
		for (int ret = 0; ret < 2; ret++) {
			if (ret && !fr->offset)
				break;
			if (!entry_at(st[i], fr->offset - (uint64_t)ret, &e))
				continue;
			ARRAY_GROW(want[i], n[i] + 1, alloc[i]);
			want[i][n[i]++] = e;
		}
	}
	for (size_t i = 0; i < d->nobjects; i++) {
		size_t k = 0;

		if (!n[i])
			continue;
		qsort(want[i], n[i], sizeof(*want[i]), cmp_u64);
		for (size_t j = 0; j < n[i]; j++)
			if (!k || want[i][k - 1] != want[i][j])
				want[i][k++] = want[i][j];
		/* a file that cannot be read now (said) keeps its
		 * functions' names without files */
		symtab_load_lines(st[i], want[i], k, debug_dir);
		free(want[i]);
	}
	free(want);
	free(n);
	free(alloc);
}
