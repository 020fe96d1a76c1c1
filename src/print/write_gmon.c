/*
 * The summed gmon.out data written back out as one GNU gmon.out
 * (--sum, like gprof -s; see write_gmon.h).
 */
#include "write_gmon.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"

struct writer {
	FILE *f;
	const struct gmon_data *g;
	uint64_t clipped_bins, clipped_arcs;
};

static void put_uint(struct writer *w, uint64_t v, unsigned size)
{
	unsigned char b[8];

	for (unsigned i = 0; i < size; i++) {
		unsigned shift = w->g->big_endian ? 8 * (size - 1 - i) : 8 * i;

		b[i] = (unsigned char)(v >> shift);
	}
	fwrite(b, 1, size, w->f);
}

static void put_clipped(struct writer *w, uint64_t v, unsigned size,
			uint64_t *clipped)
{
	uint64_t max = size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;

	if (v > max) {
		v = max;
		(*clipped)++;
	}
	put_uint(w, v, size);
}

static void write_hist(struct writer *w, const struct gmon_hist *h)
{
	char dimen[15];
	unsigned a = w->g->addr_size;

	memset(dimen, 0, sizeof(dimen));
	memcpy(dimen, h->dimen, strnlen(h->dimen, sizeof(dimen)));
	put_uint(w, 0, 1);
	put_uint(w, h->low, a);
	put_uint(w, h->high, a);
	put_uint(w, h->nbins, 4);
	put_uint(w, h->rate, 4);
	fwrite(dimen, 1, sizeof(dimen), w->f);
	put_uint(w, (unsigned char)h->abbrev, 1);
	for (uint32_t b = 0; b < h->nbins; b++)
		put_clipped(w, h->bins[b], 2, &w->clipped_bins);
}

static void write_bbs(struct writer *w)
{
	const struct gmon_data *g = w->g;
	uint64_t dummy = 0;

	/* one record holds at most 2^32 - 1 blocks */
	for (size_t i = 0; i < g->nbbs; i += UINT32_MAX) {
		size_t n = g->nbbs - i < UINT32_MAX ? g->nbbs - i : UINT32_MAX;

		put_uint(w, 2, 1);
		put_uint(w, n, 4);
		for (size_t k = i; k < i + n; k++) {
			put_uint(w, g->bbs[k].addr, g->addr_size);
			put_clipped(w, g->bbs[k].count, g->addr_size, &dummy);
		}
	}
}

int gmon_write(const struct gmon_data *g, const char *path)
{
	struct writer w = { .g = g };
	int ret = 0;

	w.f = fopen(path, "wb");
	if (!w.f)
		return error_errno("cannot write '%s'", path);
	fwrite("gmon", 1, 4, w.f);
	put_uint(&w, 1, 4);
	put_uint(&w, 0, 4);
	put_uint(&w, 0, 4);
	put_uint(&w, 0, 4);
	for (size_t i = 0; i < g->nhists; i++)
		write_hist(&w, &g->hists[i]);
	for (size_t i = 0; i < g->narcs; i++) {
		put_uint(&w, 1, 1);
		put_uint(&w, g->arcs[i].from, g->addr_size);
		put_uint(&w, g->arcs[i].self, g->addr_size);
		put_clipped(&w, g->arcs[i].count, 4, &w.clipped_arcs);
	}
	write_bbs(&w);
	if (ferror(w.f))
		ret = error_errno("write error on '%s'", path);
	if (fclose(w.f) != 0 && !ret)
		ret = error_errno("write error on '%s'", path);
	if (w.clipped_bins)
		warning("%s: %llu histogram bins over 65535 written as 65535 (the format's largest count)",
			path, (unsigned long long)w.clipped_bins);
	if (w.clipped_arcs)
		warning("%s: %llu call counts over 4294967295 written as 4294967295 (the format's largest count)",
			path, (unsigned long long)w.clipped_arcs);
	return ret;
}
