/*
 * gprof's gmon.out, GNU and BSD formats (see profile/gmon_data.h for the layouts),
 * read into p->gmon: addresses stay addresses until resolve_gmon() has
 * the symbols. Several files add up as gprof adds them: histograms of
 * the same range bin by bin, arcs and basic-block counts by address.
 *
 * The address size and byte order are the binary's (-b): the file does
 * not say. A file that does not read with them but reads cleanly with
 * another size or byte order is reported as coming from another
 * architecture.
 *
 * Detection: the GNU format starts with "gmon". The BSD format has no
 * magic, so data is taken for BSD only when its header is consistent
 * with its size: low_pc <= high_pc, the header (old, or 4.4BSD when the
 * word after ncnt is 0x00051879) fits in ncnt, ncnt - header is a whole
 * number of 2-byte counts, ncnt is at most the data's size, and what
 * follows ncnt is a whole number of arcs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"
#include "base/diag.h"
#include "profile/gmon_data.h"
#include "read.h"

/* Bounds what a file makes us allocate (about twice its size): glibc's
 * gmon.out is half the text section's size plus the arcs, a few MiB for
 * large programs. */
#define GMON_MAX_BYTES ((size_t)256 << 20)

#define TAG_HIST 0
#define TAG_ARC 1
#define TAG_BB 2

struct gparse {
	struct cursor c;
	const unsigned char *data;	/* the file's first byte */
	unsigned asz;		/* address size */
	struct gmon_data *g;	/* what this file holds */
	uint64_t nbb;
	uint64_t err_off;	/* where it went wrong */
	char msg[300];		/* and what was expected there */
};

static int fail(struct gparse *gp, uint64_t off, const char *fmt, ...)
	CGA_PRINTF(3, 4);

static int fail(struct gparse *gp, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	gp->err_off = off;
	va_start(ap, fmt);
	vsnprintf(gp->msg, sizeof(gp->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static int need(struct gparse *gp, uint64_t rec_off, size_t n,
		const char *what)
{
	if (cursor_left(&gp->c) >= n)
		return 0;
	return fail(gp, rec_off,
		    "%s truncated: it needs %zu more bytes, the file has %zu",
		    what, n, cursor_left(&gp->c));
}

static uint64_t addr(struct gparse *gp)
{
	uint64_t v = 0;

	cursor_addr(&gp->c, gp->asz, &v);	/* length checked by need() */
	return v;
}

static uint32_t u32(struct gparse *gp)
{
	uint32_t v = 0;

	cursor_u32(&gp->c, &v);
	return v;
}

/* The bins of h (next in the data, length checked by the caller)
 * added to the matching histogram of gp->g. */
static int add_bins(struct gparse *gp, struct gmon_hist *h, uint64_t rec_off)
{
	char why[256];
	struct gmon_hist *into = gmon_hist_for(gp->g, h, why, sizeof(why));

	if (!into)
		return fail(gp, rec_off, "%s", why);
	for (uint32_t b = 0; b < h->nbins; b++) {
		uint16_t v = 0;

		cursor_u16(&gp->c, &v);
		into->bins[b] += v;
	}
	return 0;
}

static int check_range(struct gparse *gp, uint64_t rec_off,
		       const struct gmon_hist *h)
{
	if (h->high < h->low)
		return fail(gp, rec_off,
			    "histogram range [0x%llx, 0x%llx) ends below its start",
			    (unsigned long long)h->low,
			    (unsigned long long)h->high);
	if (h->nbins && h->high == h->low)
		return fail(gp, rec_off, "histogram of %u bins over no addresses",
			    h->nbins);
	return 0;
}

static int read_hist_record(struct gparse *gp, uint64_t rec_off)
{
	struct gmon_hist h;

	memset(&h, 0, sizeof(h));
	if (need(gp, rec_off, 2 * gp->asz + 4 + 4 + 15 + 1,
		 "histogram record header") < 0)
		return -1;
	h.low = addr(gp);
	h.high = addr(gp);
	h.nbins = u32(gp);
	h.rate = u32(gp);
	cursor_bytes(&gp->c, h.dimen, 15);
	h.dimen[15] = '\0';
	cursor_bytes(&gp->c, &h.abbrev, 1);
	if (check_range(gp, rec_off, &h) < 0)
		return -1;
	if (!h.rate)
		return fail(gp, rec_off,
			    "histogram of 0 ticks per second (the rate must be positive)");
	if (!h.dimen[0])
		return fail(gp, rec_off,
			    "histogram with no dimension (expected a unit such as 'seconds')");
	if (need(gp, rec_off, (size_t)h.nbins * 2, "histogram record's counts") < 0)
		return -1;
	return add_bins(gp, &h, rec_off);
}

static int read_arc_record(struct gparse *gp, uint64_t rec_off)
{
	uint64_t from, self;

	if (need(gp, rec_off, 2 * gp->asz + 4, "call-graph arc record") < 0)
		return -1;
	from = addr(gp);
	self = addr(gp);
	gmon_add_arc(gp->g, from, self, u32(gp));
	return 0;
}

static int read_bb_record(struct gparse *gp, uint64_t rec_off)
{
	uint32_t n;

	if (need(gp, rec_off, 4, "basic-block record") < 0)
		return -1;
	n = u32(gp);
	if (need(gp, rec_off, (size_t)n * 2 * gp->asz,
		 "basic-block record's counts") < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = addr(gp);

		gmon_add_bb(gp->g, a, addr(gp));
	}
	gp->nbb += n;
	return 0;
}

static int parse_gnu(struct gparse *gp)
{
	uint32_t version;

	if (cursor_left(&gp->c) < 20)
		return fail(gp, 0,
			    "gmon.out header truncated: it needs 20 bytes, the file has %zu",
			    cursor_left(&gp->c));
	gp->c.p += 4;
	version = u32(gp);
	gp->c.p += 12;
	if (version != 1 && version != 0)
		return fail(gp, 4, "gmon.out version %u (expected 1)", version);
	while (cursor_left(&gp->c)) {
		uint64_t off = (uint64_t)(gp->c.p - gp->data);
		uint8_t tag = 0;
		int r;

		cursor_u8(&gp->c, &tag);
		switch (tag) {
		case TAG_HIST:
			r = read_hist_record(gp, off);
			break;
		case TAG_ARC:
			r = read_arc_record(gp, off);
			break;
		case TAG_BB:
			r = read_bb_record(gp, off);
			break;
		default:
			r = fail(gp, off,
				 "unknown record tag %u (expected 0 histogram, 1 call-graph arc or 2 basic-block counts)",
				 tag);
			break;
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

/* --- BSD --- */

struct bsd_header {
	uint64_t low, high;
	uint32_t ncnt, rate;
	size_t hdr;		/* header bytes */
	size_t arc_size;
};

static uint64_t get_uint(const unsigned char *p, unsigned size, bool be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (be ? 8 * (size - 1 - i) : 8 * i);
	return v;
}

/* Whether data (of total size `size`, of which `len` bytes are at data)
 * starts with a BSD header consistent with that size. */
static bool bsd_header(const unsigned char *data, size_t len, uint64_t size,
		       unsigned asz, bool be, struct bsd_header *h)
{
	size_t base = 2 * (size_t)asz + 4;

	if (len < base + 4)
		return false;
	h->low = get_uint(data, asz, be);
	h->high = get_uint(data + asz, asz, be);
	h->ncnt = (uint32_t)get_uint(data + 2 * asz, 4, be);
	h->arc_size = 2 * (size_t)asz + (asz == 8 ? 8 : 4);
	if (get_uint(data + base, 4, be) == GMON_BSD44_VERSION) {
		if (len < base + 8)
			return false;
		h->rate = (uint32_t)get_uint(data + base + 4, 4, be);
		h->hdr = base + 20;
	} else {
		h->rate = GMON_BSD_DEFAULT_RATE;
		h->hdr = base;
	}
	return h->low <= h->high && h->ncnt >= h->hdr && h->ncnt <= size &&
	       (h->ncnt - h->hdr) % 2 == 0 && h->rate &&
	       (size - h->ncnt) % h->arc_size == 0 &&
	       (h->ncnt == h->hdr || h->high > h->low);
}

static int parse_bsd(struct gparse *gp, const struct bsd_header *bh)
{
	struct gmon_hist h;

	memset(&h, 0, sizeof(h));
	h.low = bh->low;
	h.high = bh->high;
	h.nbins = (uint32_t)((bh->ncnt - bh->hdr) / 2);
	h.rate = bh->rate;
	strcpy(h.dimen, "seconds");
	h.abbrev = 's';
	gp->c.p = gp->data + bh->hdr;
	if (h.nbins && add_bins(gp, &h, 0) < 0)
		return -1;
	while (cursor_left(&gp->c)) {
		uint64_t from = addr(gp), self = addr(gp), count = 0;

		if (gp->asz == 8)
			cursor_u64(&gp->c, &count);
		else
			count = u32(gp);
		gmon_add_arc(gp->g, from, self, count);
	}
	return 0;
}

/* --- driving --- */

static void gparse_init(struct gparse *gp, const unsigned char *data,
			size_t len, unsigned asz, bool be)
{
	memset(gp, 0, sizeof(*gp));
	cursor_init(&gp->c, data, data + len, be);
	gp->data = data;
	gp->asz = asz;
	gp->g = gmon_new((uint8_t)asz, be);
}

/* Add this file's data to the profile's (check_merge passed). */
static void merge_into(struct profile *p, const struct gparse *gp)
{
	struct gmon_data *g = gp->g;
	char why[256];

	if (!p->gmon)
		p->gmon = gmon_new(g->addr_size, g->big_endian);
	for (size_t i = 0; i < g->nhists; i++) {
		struct gmon_hist *into = gmon_hist_for(p->gmon, &g->hists[i],
						       why, sizeof(why));

		for (uint32_t b = 0; into && b < g->hists[i].nbins; b++)
			into->bins[b] += g->hists[i].bins[b];
	}
	for (size_t i = 0; i < g->narcs; i++)
		gmon_add_arc(p->gmon, g->arcs[i].from, g->arcs[i].self,
			     g->arcs[i].count);
	for (size_t i = 0; i < g->nbbs; i++)
		gmon_add_bb(p->gmon, g->bbs[i].addr, g->bbs[i].count);
	p->gmon->nfiles++;
}

/* Histograms of this file that do not fit those read before: checked
 * first, on a copy of the earlier ranges, so that a refused file adds
 * nothing. */
static int check_merge(const struct profile *p, const struct gparse *gp,
		       const char *path)
{
	struct gmon_data *scratch;
	char why[256];
	int ret = 0;

	if (!p->gmon)
		return 0;
	scratch = gmon_new(p->gmon->addr_size, p->gmon->big_endian);
	for (size_t i = 0; i < p->gmon->nhists; i++)
		gmon_hist_for(scratch, &p->gmon->hists[i], why, sizeof(why));
	for (size_t i = 0; i < gp->g->nhists && !ret; i++)
		if (!gmon_hist_for(scratch, &gp->g->hists[i], why, sizeof(why)))
			ret = error("%s: %s, in the files before it", path, why);
	gmon_free(scratch);
	return ret;
}

static const char *endian_name(bool be)
{
	return be ? "big" : "little";
}

static int need_binary(const char *path)
{
	return error("%s: this is a gprof gmon.out file, which holds only addresses: give the binary it came from with -b (cganalyze -b ./prog %s)",
		     path, path);
}

/* Whether the GNU data parses cleanly with another address size or byte
 * order; *asz and *be say which. */
static bool parses_otherwise(const unsigned char *data, size_t len,
			     const struct read_target *t,
			     unsigned *asz, bool *be)
{
	static const unsigned sizes[] = { 4, 8 };
	bool ok = false;

	for (int s = 0; s < 2 && !ok; s++)
		for (int e = 0; e < 2 && !ok; e++) {
			struct gparse gp;

			if (sizes[s] == t->addr_size && (bool)e == t->big_endian)
				continue;
			gparse_init(&gp, data, len, sizes[s], e);
			if (parse_gnu(&gp) == 0 &&
			    (gp.g->nhists || gp.g->narcs)) {
				ok = true;
				*asz = sizes[s];
				*be = e;
			}
			gmon_free(gp.g);
		}
	return ok;
}

static int report_failure(const struct gparse *gp, const unsigned char *data,
			  size_t len, const char *path,
			  const struct read_target *t)
{
	unsigned asz;
	bool be;

	if (parses_otherwise(data, len, t, &asz, &be))
		return error_at_offset(path, gp->err_off,
				       "%s; the file reads cleanly as written by a %u-bit %s-endian program, but '%s' is %u-bit %s-endian: it is from another architecture",
				       gp->msg, asz * 8, endian_name(be),
				       t->binary, t->addr_size * 8,
				       endian_name(t->big_endian));
	return error_at_offset(path, gp->err_off, "%s", gp->msg);
}

static int finish_file(struct profile *p, struct gparse *gp, const char *path,
		       const char *format)
{
	struct pinput *in;
	int ret = -1;

	if (p->nfuncs) {
		error("%s: a gmon.out cannot be added to a profile of another format",
		      path);
		goto out;
	}
	if (check_merge(p, gp, path) < 0)
		goto out;
	merge_into(p, gp);
	in = profile_add_input(p, path, format);
	in->nparts = 1;
	in->nselected = 1;
	in->nbb = gp->nbb;
	ret = 0;
out:
	gmon_free(gp->g);
	return ret;
}

bool gmon_sniff(const char *data, size_t len)
{
	return len >= 4 && !memcmp(data, "gmon", 4);
}

int read_gmon(struct profile *p, struct line_reader *lr,
	      const struct read_opts *opts)
{
	const struct read_target *t = opts->target;
	unsigned char *data;
	struct gparse gp;
	long len;
	int ret = -1;

	if (!t)
		return need_binary(lr->path);
	len = line_reader_slurp(lr, GMON_MAX_BYTES, &data);
	if (len < 0)
		return -1;
	gparse_init(&gp, data, (size_t)len, t->addr_size, t->big_endian);
	if (parse_gnu(&gp) < 0) {
		report_failure(&gp, data, (size_t)len, lr->path, t);
		gmon_free(gp.g);
		goto out;
	}
	ret = finish_file(p, &gp, lr->path, "gmon");
out:
	free(data);
	return ret;
}

/* Whether the file's first bytes are a BSD header that fits its size for
 * any address size and byte order (without reading the whole file). */
static bool bsd_anywhere(struct line_reader *lr, const struct read_target *t)
{
	const char *head;
	long n = line_reader_peek(lr, 64, &head);
	struct bsd_header bh;

	(void)t;
	for (unsigned asz = 4; n > 0 && asz <= 8; asz += 4)
		for (int e = 0; e < 2; e++)
			if (bsd_header((const unsigned char *)head, (size_t)n,
				       lr->file_size, asz, e, &bh))
				return true;
	return false;
}

int read_gmon_bsd_maybe(struct profile *p, struct line_reader *lr,
			const struct read_opts *opts)
{
	static const unsigned sizes[] = { 8, 4 };
	const struct read_target *t = opts->target;
	unsigned char *data = NULL;
	struct bsd_header bh;
	struct gparse gp;
	long len;
	int ret = -1;

	if (lr->encoding == INPUT_PLAIN && lr->file_size &&
	    !bsd_anywhere(lr, t))
		return 0;	/* not even the header fits: no need to read */
	len = line_reader_slurp(lr, GMON_MAX_BYTES, &data);
	if (len < 0)
		return -1;
	if (t && bsd_header(data, (size_t)len, (uint64_t)len, t->addr_size,
			    t->big_endian, &bh)) {
		gparse_init(&gp, data, (size_t)len, t->addr_size, t->big_endian);
		if (parse_bsd(&gp, &bh) < 0) {
			gmon_free(gp.g);
			goto out;
		}
		ret = finish_file(p, &gp, lr->path, "gmon-bsd") < 0 ? -1 : 1;
		goto out;
	}
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < 2; e++) {
			if (!bsd_header(data, (size_t)len, (uint64_t)len,
					sizes[s], e, &bh))
				continue;
			if (!t)
				need_binary(lr->path);
			else
				error_at_offset(lr->path, 0,
						"a BSD gmon.out header that fits the file only as written by a %u-bit %s-endian program, but '%s' is %u-bit %s-endian: it is from another architecture",
						sizes[s] * 8, endian_name(e),
						t->binary, t->addr_size * 8,
						endian_name(t->big_endian));
			goto out;
		}
	ret = 0;
out:
	free(data);
	return ret;
}
