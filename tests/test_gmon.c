/*
 * gmon.out: the reader (every record kind, both BSD headers, byte order,
 * address size, truncation, bad versions and tags), the assignment of
 * histogram bins to functions, and the whole pipeline against GNU gprof
 * 2.40 on the programs in tests/gmon/ (gprof's output is committed next
 * to them; tests/gmon/make.sh makes it all again).
 *
 * Against gprof we hold: every call count exactly, every time and
 * percentage to the digits gprof prints, in the flat profile and in
 * every line of the call graph (callers, callees, cycle members).
 * Where our listings differ in form (our titles instead of gprof's, "[N]"
 * on flat-profile names, no index by function name), the comparison
 * leaves the form out, never a number.
 *
 * Where gprof's numbers are not the truth:
 *  - it gives the time and calls of a local function named like
 *    "helper.part.0" to the symbol before it; we do not, and compare
 *    with gprof's output with that put right (gprof_renamed, below);
 *  - and this one we print anyway: gprof shares a histogram bin among functions in whole 2-byte
 * units while the bin width, (high - low) / 2 / nbins units, need not be
 * whole: in tests/gmon/nopie.gmon glibc made 1332 bins over 2660 units
 * (1.99700 per bin), gprof truncates each bin's bounds to whole units
 * (2 each) and credits overlap / 1.99700 of the count, so a function
 * that covers whole bins gets 1.0015 times their counts, and the flat
 * profile adds up to more than 100% (100.16% when all the time is in one
 * function, as in an earlier run of this program). The true share is
 * overlap / width in real numbers; we keep gprof's arithmetic (resolve_gmon.c) because
 * the listings are meant to be read side by side with gprof's, and say
 * so under the flat profile. test_assign_overlap shows the effect.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "cg/cg.h"
#include "cli/analyze.h"
#include "cli/options.h"
#include "profile/gmon_data.h"
#include "resolve/resolve.h"
#include "symtab/symtab.h"

/* --- building files --- */

struct bytes {
	unsigned char buf[65536];
	size_t n;
	unsigned asz;
	bool be;
};

static void put(struct bytes *b, uint64_t v, unsigned size)
{
	assert_true(size <= 8 && b->n + size <= sizeof(b->buf));
	for (unsigned i = 0; i < size; i++)
		b->buf[b->n++] = (unsigned char)(v >> (b->be ? 8 * (size - 1 - i)
							     : 8 * i));
}

static void put_addr(struct bytes *b, uint64_t v)
{
	put(b, v, b->asz);
}

static void put_raw(struct bytes *b, const void *p, size_t n)
{
	assert_true(b->n + n <= sizeof(b->buf));
	memcpy(b->buf + b->n, p, n);
	b->n += n;
}

static void gnu_header(struct bytes *b, unsigned asz, bool be, uint32_t version)
{
	memset(b, 0, sizeof(*b));
	b->asz = asz;
	b->be = be;
	put_raw(b, "gmon", 4);
	put(b, version, 4);
	put(b, 0, 8);
	put(b, 0, 4);
}

static void hist_rec(struct bytes *b, uint64_t low, uint64_t high,
		     uint32_t nbins, uint32_t rate, const uint16_t *bins)
{
	char dimen[15] = "seconds";

	put(b, 0, 1);
	put_addr(b, low);
	put_addr(b, high);
	put(b, nbins, 4);
	put(b, rate, 4);
	put_raw(b, dimen, 15);
	put(b, 's', 1);
	for (uint32_t i = 0; i < nbins; i++)
		put(b, bins[i], 2);
}

static void arc_rec(struct bytes *b, uint64_t from, uint64_t self,
		    uint32_t count)
{
	put(b, 1, 1);
	put_addr(b, from);
	put_addr(b, self);
	put(b, count, 4);
}

static void bb_rec(struct bytes *b, uint32_t n, const uint64_t *pairs)
{
	put(b, 2, 1);
	put(b, n, 4);
	for (uint32_t i = 0; i < 2 * n; i++)
		put_addr(b, pairs[i]);
}

static const uint16_t four_bins[] = { 1, 2, 3, 4 };
static const uint64_t two_bbs[] = { 0x1000, 3, 0x1002, 4 };

/* A file with every record kind; *bounds gets the offsets where a
 * record ends (a file cut there is still whole). */
static void every_record(struct bytes *b, unsigned asz, bool be,
			 size_t *bounds, size_t *nbounds)
{
	gnu_header(b, asz, be, 1);
	*nbounds = 0;
	bounds[(*nbounds)++] = b->n;
	hist_rec(b, 0x1000, 0x1010, 4, 100, four_bins);
	bounds[(*nbounds)++] = b->n;
	arc_rec(b, 0x1004, 0x1008, 7);
	bounds[(*nbounds)++] = b->n;
	arc_rec(b, 0x1004, 0x1008, 5);
	bounds[(*nbounds)++] = b->n;
	bb_rec(b, 2, two_bbs);
	bounds[(*nbounds)++] = b->n;
}

static int read_bytes(struct profile *p, const struct bytes *b, unsigned asz,
		      bool be, char **diag)
{
	struct read_target t = { "prog", (uint8_t)asz, be };
	struct read_opts ro = { .target = &t };

	profile_init(p);
	return read_text(p, (const char *)b->buf, (long)b->n, &ro, diag);
}

/* --- the reader --- */

static void check_every_record(unsigned asz, bool be)
{
	struct bytes b;
	struct profile p;
	size_t bounds[8], nb;
	char *diag;
	const struct gmon_data *g;

	every_record(&b, asz, be, bounds, &nb);
	assert_int_equal(read_bytes(&p, &b, asz, be, &diag), 0);
	assert_string_equal(diag, "");
	g = p.gmon;
	assert_non_null(g);
	assert_int_equal(g->nhists, 1);
	assert_int_equal(g->hists[0].low, 0x1000);
	assert_int_equal(g->hists[0].high, 0x1010);
	assert_int_equal(g->hists[0].nbins, 4);
	assert_int_equal(g->hists[0].rate, 100);
	assert_string_equal(g->hists[0].dimen, "seconds");
	for (int i = 0; i < 4; i++)
		assert_int_equal(g->hists[0].bins[i], four_bins[i]);
	assert_int_equal(g->narcs, 1);	/* the same arc twice: summed */
	assert_int_equal(g->arcs[0].count, 12);
	assert_int_equal(g->nbbs, 2);
	assert_int_equal(g->bbs[1].addr, 0x1002);
	assert_int_equal(g->bbs[1].count, 4);
	assert_int_equal(p.inputs[0].nbb, 2);
	assert_string_equal(profile_str(&p, p.inputs[0].format), "gmon");
	free(diag);
	profile_release(&p);
}

static void test_every_record(void **state)
{
	(void)state;
	check_every_record(8, false);
	check_every_record(8, true);
	check_every_record(4, false);
	check_every_record(4, true);
}

/* Every cut of a good file: whole at record ends, otherwise an error
 * that names the file and says what is truncated; never a crash. */
static void test_truncated_everywhere(void **state)
{
	struct bytes b, cut;
	size_t bounds[8], nb;

	(void)state;
	every_record(&b, 8, false, bounds, &nb);
	for (size_t len = 0; len < b.n; len++) {
		struct profile p;
		bool whole = false;
		char *diag;
		int ret;

		for (size_t k = 0; k < nb; k++)
			whole |= bounds[k] == len;
		cut = b;
		cut.n = len;
		ret = read_bytes(&p, &cut, 8, false, &diag);
		if (len < 4) {
			/* too short to carry the magic: not a gmon.out */
			assert_int_equal(ret, -1);
		} else if (whole) {
			assert_int_equal(ret, 0);
		} else {
			assert_int_equal(ret, -1);
			assert_non_null(strstr(diag, "/profile: offset 0x"));
			assert_non_null(strstr(diag, "truncated"));
		}
		free(diag);
		profile_release(&p);
	}
}

static void expect_error(const struct bytes *b, unsigned asz, bool be,
			 const char *message)
{
	struct profile p;
	char *diag;

	assert_int_equal(read_bytes(&p, b, asz, be, &diag), -1);
	if (!strstr(diag, message))
		fail_msg("expected '%s' in: %s", message, diag);
	free(diag);
	profile_release(&p);
}

static void test_bad_records(void **state)
{
	struct bytes b;
	uint16_t bins[2] = { 1, 1 };

	(void)state;
	gnu_header(&b, 8, false, 2);
	expect_error(&b, 8, false, "offset 0x4: gmon.out version 2 (expected 1)");

	gnu_header(&b, 8, false, 1);
	put(&b, 7, 1);
	expect_error(&b, 8, false,
		     "offset 0x14: unknown record tag 7 (expected 0 histogram, 1 call-graph arc or 2 basic-block counts)");

	gnu_header(&b, 8, false, 1);
	hist_rec(&b, 0x2000, 0x1000, 2, 100, bins);
	expect_error(&b, 8, false, "offset 0x14: histogram range [0x2000, 0x1000) ends below its start");

	gnu_header(&b, 8, false, 1);
	hist_rec(&b, 0x1000, 0x2000, 2, 0, bins);
	expect_error(&b, 8, false, "histogram of 0 ticks per second");

	/* 4 billion bins in a small file: refused before any allocation */
	gnu_header(&b, 8, false, 1);
	hist_rec(&b, 0x1000, 0x2000, 0, 100, bins);
	memcpy(b.buf + 20 + 1 + 16, "\xff\xff\xff\xff", 4);
	expect_error(&b, 8, false,
		     "offset 0x14: histogram record's counts truncated: it needs 8589934590 more bytes, the file has 0");

	/* a second histogram that overlaps the first without matching it */
	gnu_header(&b, 8, false, 1);
	hist_rec(&b, 0x1000, 0x1008, 2, 100, bins);
	hist_rec(&b, 0x1004, 0x100c, 2, 100, bins);
	expect_error(&b, 8, false, "offset 0x41: histogram of [0x1004, 0x100c) overlaps the earlier one of [0x1000, 0x1008)");

	/* many histogram ranges: refused before they cost quadratic time */
	gnu_header(&b, 8, false, 1);
	for (int i = 0; i <= GMON_MAX_HISTS; i++) {
		uint64_t lo = 0x1000 + 4 * (uint64_t)i;

		hist_rec(&b, lo, lo + 4, 0, 100, bins);
	}
	expect_error(&b, 8, false, "more than 1024 histograms of different ranges (glibc writes one)");

	gnu_header(&b, 8, false, 1);
	bb_rec(&b, 1, two_bbs);
	b.n -= 3;
	expect_error(&b, 8, false, "offset 0x14: basic-block record's counts truncated: it needs 16 more bytes, the file has 13");
}

/* Another architecture: a big-endian file for a little-endian binary,
 * a 32-bit one for a 64-bit binary; named, with where it went wrong. */
static void test_other_architecture(void **state)
{
	struct bytes b;
	size_t bounds[8], nb;

	(void)state;
	every_record(&b, 8, true, bounds, &nb);
	expect_error(&b, 8, false, "offset 0x4: gmon.out version 16777216 (expected 1); the file reads cleanly as written by a 64-bit big-endian program, but 'prog' is 64-bit little-endian: it is from another architecture");
	every_record(&b, 4, false, bounds, &nb);
	expect_error(&b, 8, false, "as written by a 32-bit little-endian program, but 'prog' is 64-bit little-endian");
	every_record(&b, 8, false, bounds, &nb);
	expect_error(&b, 4, false, "as written by a 64-bit little-endian program, but 'prog' is 32-bit little-endian");
}

static void test_needs_binary(void **state)
{
	struct bytes b;
	struct profile p;
	size_t bounds[8], nb;
	char *diag;

	(void)state;
	every_record(&b, 8, false, bounds, &nb);
	profile_init(&p);
	assert_int_equal(read_text(&p, (const char *)b.buf, (long)b.n, NULL, &diag), -1);
	assert_non_null(strstr(diag, "this is a gprof gmon.out file, which holds only addresses: give the binary it came from with -b"));
	free(diag);
	profile_release(&p);
}

static void bsd_file(struct bytes *b, unsigned asz, bool be, bool bsd44)
{
	uint32_t hdr = 2 * asz + 4 + (bsd44 ? 20 : 0);

	memset(b, 0, sizeof(*b));
	b->asz = asz;
	b->be = be;
	put_addr(b, 0x1000);
	put_addr(b, 0x1010);
	put(b, hdr + 8, 4);
	if (bsd44) {
		put(b, GMON_BSD44_VERSION, 4);
		put(b, 1000, 4);
		put(b, 0, 8);
		put(b, 0, 4);
	}
	for (int i = 0; i < 4; i++)
		put(b, four_bins[i], 2);
	put_addr(b, 0x1004);
	put_addr(b, 0x1008);
	put(b, 9, asz == 8 ? 8 : 4);
}

static void check_bsd(unsigned asz, bool be, bool bsd44)
{
	struct bytes b;
	struct profile p;
	char *diag;

	bsd_file(&b, asz, be, bsd44);
	assert_int_equal(read_bytes(&p, &b, asz, be, &diag), 0);
	assert_string_equal(diag, "");
	assert_string_equal(profile_str(&p, p.inputs[0].format), "gmon-bsd");
	assert_int_equal(p.gmon->nhists, 1);
	assert_int_equal(p.gmon->hists[0].nbins, 4);
	assert_int_equal(p.gmon->hists[0].bins[3], 4);
	/* the old header has no rate: gprof takes 100 Hz, and so do we */
	assert_int_equal(p.gmon->hists[0].rate, bsd44 ? 1000 : 100);
	assert_int_equal(p.gmon->narcs, 1);
	assert_int_equal(p.gmon->arcs[0].self, 0x1008);
	assert_int_equal(p.gmon->arcs[0].count, 9);
	free(diag);
	profile_release(&p);
}

static void test_bsd(void **state)
{
	struct bytes b;
	struct profile p;
	char *diag;

	(void)state;
	for (unsigned asz = 4; asz <= 8; asz += 4)
		for (int be = 0; be < 2; be++) {
			check_bsd(asz, be, true);
			check_bsd(asz, be, false);
		}
	/* one byte too many: the header no longer fits the size, so it is
	 * not taken for a BSD gmon.out at all */
	bsd_file(&b, 8, false, true);
	put(&b, 0, 1);
	assert_int_equal(read_bytes(&p, &b, 8, false, &diag), -1);
	assert_non_null(strstr(diag, "not a profile cganalyze can read"));
	free(diag);
	profile_release(&p);
	/* fits only as a 32-bit file: another architecture */
	bsd_file(&b, 4, false, true);
	expect_error(&b, 8, false, "a BSD gmon.out header that fits the file only as written by a 32-bit little-endian program");
}

/* Two files: histograms of the same range add up bin by bin, arcs by
 * address; a histogram that does not fit the first file's is refused
 * and adds nothing. */
static void test_two_files(void **state)
{
	struct read_target t = { "prog", 8, false };
	struct read_opts ro = { .target = &t };
	struct bytes b, other;
	struct profile p;
	size_t bounds[8], nb;
	uint16_t bins[2] = { 5, 5 };
	char *path, *diag;

	(void)state;
	every_record(&b, 8, false, bounds, &nb);
	path = write_temp(b.buf, b.n);
	profile_init(&p);
	diag_capture_begin();
	assert_int_equal(read_profile(&p, path, &ro), 0);
	assert_int_equal(read_profile(&p, path, &ro), 0);
	gnu_header(&other, 8, false, 1);
	hist_rec(&other, 0x1008, 0x1018, 2, 100, bins);
	free(path);
	path = write_temp(other.buf, other.n);
	assert_int_equal(read_profile(&p, path, &ro), -1);
	diag = diag_capture_end();
	if (!strstr(diag, "profile: histogram of [0x1008, 0x1018) overlaps the earlier one of [0x1000, 0x1010) without matching it (are they from the same program?), in the files before it"))
		fail_msg("unexpected: %s", diag);
	assert_int_equal(p.gmon->nfiles, 2);
	assert_int_equal(p.gmon->hists[0].bins[2], 6);
	assert_int_equal(p.gmon->arcs[0].count, 24);
	assert_int_equal(p.gmon->bbs[0].count, 6);
	free(diag);
	free(path);
	profile_release(&p);
}

/* --- assigning the histogram --- */

static const char *NOPIE = "tests/gmon/prog-nopie";

static double self_of(const struct profile *p, const char *name)
{
	uint32_t f = find_func(p, name);

	assert_int_not_equal(f, NO_ID);
	return p->est_self[f];
}

/* Read b and resolve it against NOPIE into p (the symbol table shares
 * p's names, as in analyze.c); *st is released by the caller. */
static void resolve_bytes(struct profile *p, struct symtab *st,
			  const struct bytes *b)
{
	struct symtab_opts so = { .demangle = true };
	struct resolve_opts rso = { 0 };
	struct resolve_report rep;
	char *diag;

	assert_int_equal(read_bytes(p, b, 8, false, &diag), 0);
	free(diag);
	assert_int_equal(symtab_open(st, NOPIE, &so, &p->names), 0);
	assert_int_equal(resolve_gmon(p, st, &rso, &rep), 0);
}

static uint64_t fib_address(void)
{
	struct symtab_opts so = { .demangle = true };
	struct arena arena;
	struct names names;
	struct symtab st;
	const struct sym *s;
	uint64_t addr;

	arena_init(&arena);
	names_init(&names, &arena);
	assert_int_equal(symtab_open(&st, NOPIE, &so, &names), 0);
	s = symtab_find(&st, names_intern(&names, "fib", 3));
	assert_non_null(s);
	addr = s->addr;
	symtab_release(&st);
	names_release(&names);
	arena_release(&arena);
	return addr;
}

/*
 * A bin that straddles the boundary between two functions is shared by
 * overlap: one 4-byte bin (2 units) starting 1 unit before fib's entry
 * gives half its count to the function before fib (spin) and half to
 * fib. And gprof's truncated bins: 3 bins over 5 units (5/3 = 1.667
 * units each) truncate to [0,1), [1,3), [3,5); the middle one, whole in
 * spin, credits 2 / 1.667 = 1.2 times its count.
 */
static void test_assign_overlap(void **state)
{
	uint64_t fib = fib_address();
	uint16_t one[1] = { 10 }, three[3] = { 0, 10, 0 };
	struct symtab st;
	struct profile p;
	struct bytes b;

	(void)state;
	gnu_header(&b, 8, false, 1);
	hist_rec(&b, fib - 2, fib + 2, 1, 100, one);
	resolve_bytes(&p, &st, &b);
	assert_true(self_of(&p, "fib") == 5.0);
	assert_true(self_of(&p, "spin") == 5.0);
	assert_true(p.est_total == 10.0);
	symtab_release(&st);
	profile_release(&p);

	gnu_header(&b, 8, false, 1);
	hist_rec(&b, fib - 20, fib - 10, 3, 100, three);
	resolve_bytes(&p, &st, &b);
	assert_true(self_of(&p, "spin") > 11.99999 && self_of(&p, "spin") < 12.00001);
	assert_true(p.est_total == 10.0);
	assert_true(p.events[0].unit_seconds == 0.01);
	symtab_release(&st);
	profile_release(&p);
}

/* --- the whole pipeline against gprof --- */

static char *run_cganalyze(const char *const *args, size_t nargs)
{
	char *argv[16], *buf = NULL;
	size_t len = 0;
	struct options o;
	FILE *out = open_memstream(&buf, &len);
	int argc = 0;

	assert_true(nargs < 15);
	argv[argc++] = (char *)"cganalyze";
	for (size_t i = 0; i < nargs; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	assert_int_equal(options_parse(&o, argc, argv, out), OPTIONS_OK);
	assert_int_equal(analyze_run(&o, out), 0);
	options_release(&o);
	fclose(out);
	return buf;
}

/*
 * A listing in gprof's layout as comparable lines: the flat profile's
 * rows and unit, and the call graph's lines keyed by the entry they are
 * in and whether they are above it (callers), on it, or below it. Index
 * numbers ("[N]") and cycle numbers are left out: ties may be numbered
 * differently, the numbers may not.
 */
struct lines {
	char **v;
	size_t n, alloc;
};

static void add_line(struct lines *l, const char *s)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc * 2 + 16;
		l->v = realloc(l->v, l->alloc * sizeof(*l->v));
		assert_non_null(l->v);
	}
	l->v[l->n++] = strdup(s);
}

/* The line's words without [N] and with "<cycle N" as "<cycle". */
static void canon(const char *line, char *out, size_t size)
{
	char copy[1024], *save = NULL;
	size_t n = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	out[0] = '\0';
	for (char *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		size_t wl = strlen(w);

		if (w[0] == '[' && w[wl - 1] == ']')
			continue;
		/* an entry the graph does not list (-q, -Q): "(N)" */
		if (w[0] == '(' && w[wl - 1] == ')' && wl > 2 &&
		    strspn(w + 1, "0123456789") == wl - 2)
			w = (char *)"()";
		if (n >= 6 && !strcmp(out + n - 6, "<cycle") && w[0] >= '0' && w[0] <= '9') {
			/* drop the number; keep "as a whole>" or ">" */
			w += strspn(w, "0123456789");
			if (!*w)
				continue;
		}
		n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "", w);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void parse_listing(const char *text, struct lines *l)
{
	char *copy = strdup(text), *save = NULL, entry[1024] = "";
	enum { NONE, FLAT, GRAPH } where = NONE;
	struct lines block = { 0 };

	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char c[1024], key[2200];

		if (strstr(line, "cumulative   self")) {
			where = FLAT;
			continue;
		}
		if (!strncmp(line, "index % time", 12)) {
			where = GRAPH;
			continue;
		}
		if (where == FLAT && !strncmp(line, " time ", 6)) {
			canon(line, c, sizeof(c));
			snprintf(key, sizeof(key), "flat header: %s", c);
			add_line(l, key);
			continue;
		}
		if (where == FLAT && (line[0] == ' ' || (line[0] >= '0' && line[0] <= '9'))) {
			char *mark;

			canon(line, c, sizeof(c));
			/* gprof's flat profile does not mark cycle members */
			mark = strstr(c, " <cycle");
			if (mark)
				*mark = '\0';
			snprintf(key, sizeof(key), "flat: %s", c);
			add_line(l, key);
			continue;
		}
		if (where == FLAT) {
			where = NONE;
			continue;
		}
		if (where != GRAPH)
			continue;
		if (!strncmp(line, "-----", 5) ||
		    (line[0] != ' ' && line[0] != '[')) {
			/* the block is complete: key its lines by its entry */
			for (size_t i = 0; i < block.n; i++) {
				snprintf(key, sizeof(key), "graph: %s | %s", entry,
					 block.v[i]);
				add_line(l, key);
				free(block.v[i]);
			}
			block.n = 0;
			entry[0] = '\0';
			if (strncmp(line, "-----", 5))
				where = NONE;
			continue;
		}
		canon(line, c, sizeof(c));
		if (line[0] == '[') {
			snprintf(entry, sizeof(entry), "%s", c);
			snprintf(key, sizeof(key), "entry: %s", c);
		} else {
			snprintf(key, sizeof(key), "%s %s", entry[0] ? "below:" : "above:", c);
		}
		add_line(&block, key);
	}
	free(block.v);
	free(copy);
	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/*
 * Where we differ from gprof, and are right: tests/gmon/prog.c has a
 * local function named "helper.part.0", as GCC names the part of a
 * function it splits off. gprof 2.40 does not take local names with a
 * '.' for functions (unless the part after it is digits, "clone.N" or
 * "constprop.N": a rule meant for file names and labels), so it gives
 * helper.part.0's time and its 20000 calls from work to the symbol
 * before it, frame_dummy, which runs once at start-up and is never
 * called by work. Its ELF symbol is a function with a size, with its own
 * mcount call; we keep it (resolve_gmon.c). With the name put right in
 * gprof's output, every number agrees: frame_dummy itself has no time
 * and no calls in these files (if it had, it would now be a line we do
 * not have, and the test would fail).
 */
static char *gprof_renamed(char *text)
{
	static const char from[] = "frame_dummy", to[] = "helper.part.0";
	size_t n = 0, len = strlen(text);
	char *out = malloc(len * 2 + 1), *p = text, *hit;

	assert_non_null(out);
	while ((hit = strstr(p, from))) {
		memcpy(out + n, p, (size_t)(hit - p));
		n += (size_t)(hit - p);
		memcpy(out + n, to, sizeof(to) - 1);
		n += sizeof(to) - 1;
		p = hit + sizeof(from) - 1;
	}
	strcpy(out + n, p);
	free(text);
	return out;
}

static void compare_with_gprof_min(const char *gprof_file,
				   const char *const *args, size_t nargs,
				   size_t min_flat, size_t min_graph);

static void compare_with_gprof(const char *gprof_file, const char *const *args,
			       size_t nargs)
{
	/* 5 functions, 7 entries */
	compare_with_gprof_min(gprof_file, args, nargs, 5, 20);
}

static void compare_with_gprof_min(const char *gprof_file,
				   const char *const *args, size_t nargs,
				   size_t min_flat, size_t min_graph)
{
	size_t len;
	char *want = slurp(gprof_file, &len), *ours = run_cganalyze(args, nargs);
	struct lines a = { 0 }, b = { 0 };
	size_t flat = 0, graph = 0;

	assert_non_null(want);
	want = gprof_renamed(want);
	parse_listing(want, &a);
	parse_listing(ours, &b);
	for (size_t i = 0; i < a.n || i < b.n; i++) {
		if (i < a.n && i < b.n && !strcmp(a.v[i], b.v[i])) {
			flat += !strncmp(a.v[i], "flat: ", 6);
			graph += !strncmp(a.v[i], "graph: ", 7);
			continue;
		}
		fail_msg("%s: gprof has '%s', we have '%s'", gprof_file,
			 i < a.n ? a.v[i] : "(nothing)",
			 i < b.n ? b.v[i] : "(nothing)");
	}
	/* the comparison compared something */
	assert_true(flat >= min_flat);
	assert_true(graph >= min_graph);
	free_lines(&a);
	free_lines(&b);
	free(want);
	free(ours);
}

/*
 * The names of a listing's rows in order, one a line: the flat
 * profile's (its numbered rows) and the call graph's entries (lines
 * starting "["), without index numbers, which gprof gives the symbols
 * it does not list too.
 */
static char *row_names(const char *text)
{
	char *copy = strdup(text), *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	bool flat = false;

	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name, *end;

		if (strstr(line, "cumulative   self")) {
			flat = true;
			continue;
		}
		if (flat && !strncmp(line, " time ", 6))
			continue;
		if (flat && !(line[0] == ' ' || (line[0] >= '0' && line[0] <= '9')))
			flat = false;
		if (!flat && line[0] != '[')
			continue;
		/* after the number columns (a blank one has none): no
		 * name starts with a digit */
		name = line + (flat ? 0 : strcspn(line, " "));
		for (;;) {
			name += strspn(name, " ");
			if (!(*name >= '0' && *name <= '9'))
				break;
			name += strcspn(name, " ");
		}
		end = name + strlen(name);
		if (end > name && end[-1] == ']')
			while (end > name && end[-1] != '[')
				end--;
		while (end > name && (end[-1] == ' ' || end[-1] == '['))
			end--;
		fprintf(f, "%.*s\n", (int)(end - name), name);
	}
	fclose(f);
	free(copy);
	return out;
}

/*
 * C++: gprof orders ties by its symbol table's names, mangled, and its
 * call graph's with a name without a leading '_' (main, a_func, c_func)
 * before the C++ ones ("_Z..."): beta(int) (_Z4betai) before Bravo(int)
 * (_Z5Bravoi) before alpha(int) (_Z5alphai), zeta (_ZL4zetai) last of
 * them, and main before spin(long), of the same total. We ordered by the
 * demangled names, and the graph's ties by self cost first.
 */
static void test_gprof_cxx_ties(void **state)
{
	const char *args[] = { "-b", "tests/gmon/cxx-ties", "--brief",
			       "tests/gmon/cxx-ties.gmon" };
	char *want = slurp("tests/gmon/cxx-ties.gprof", NULL);
	char *ours = run_cganalyze(args, 4);
	char *a = row_names(want), *b = row_names(ours);

	(void)state;
	assert_non_null(strstr(a, "main\nspin(long)\na_func\nc_func\n"));
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(want);
	free(ours);
}

static void test_gprof_nopie(void **state)
{
	const char *args[] = { "-b", NOPIE, "--brief", "tests/gmon/nopie.gmon" };

	(void)state;
	compare_with_gprof("tests/gmon/nopie.gprof", args, 4);
	args[3] = "tests/gmon/nopie-2.gmon";
	compare_with_gprof("tests/gmon/nopie-2.gprof", args, 4);
}

/* glibc 2.36 writes a PIE's addresses link-time (its histogram starts at
 * 0), so no load offset is needed and none is found. */
static void test_gprof_pie(void **state)
{
	const char *args[] = { "-b", "tests/gmon/prog-pie", "--brief",
			       "tests/gmon/pie.gmon" };

	(void)state;
	compare_with_gprof("tests/gmon/pie.gprof", args, 4);
}

/*
 * pie.gmon with every address moved up to where a PIE is loaded, as
 * glibc before link-time addresses wrote it: the load offset is found
 * (where the histogram starts, confirmed by the arcs landing at function
 * entries) and everything equals gprof's output on pie.gmon. gprof
 * itself cannot use this file: it finds no time and no calls in it.
 */
static void test_gprof_pie_runtime(void **state)
{
	const char *args[] = { "-b", "tests/gmon/prog-pie", "--brief",
			       "tests/gmon/pie-runtime.gmon" };
	char *out, *notes;

	(void)state;
	compare_with_gprof("tests/gmon/pie.gprof", args, 4);
	/* the load offset found is said on standard error */
	diag_capture_begin();
	out = run_cganalyze(args, 4);
	notes = diag_capture_end();
	assert_non_null(strstr(notes, "load offset 0x555555554000 (where the histogram starts: 11 of 11 arcs reach a function's entry with it, 0 without)"));
	assert_null(strstr(out, "load offset"));
	free(notes);
	free(out);
}

/* The BSD files are nopie.gmon rewritten; gprof reads them too. */
static void test_gprof_bsd(void **state)
{
	const char *args[] = { "-b", NOPIE, "--brief", "tests/gmon/bsd44.gmon" };

	(void)state;
	compare_with_gprof("tests/gmon/bsd44.gprof", args, 4);
	args[3] = "tests/gmon/bsd-old.gmon";
	compare_with_gprof("tests/gmon/bsd-old.gprof", args, 4);
}

/* Two runs summed: as gprof -s then gprof on gmon.sum. */
static void test_gprof_summed(void **state)
{
	const char *args[] = { "-b", NOPIE, "--brief", "tests/gmon/nopie.gmon",
			       "tests/gmon/nopie-2.gmon" };

	(void)state;
	compare_with_gprof("tests/gmon/nopie-sum.gprof", args, 5);
}

/*
 * --sum writes a gmon.out that reads back to the same listing, and that
 * gprof itself reads to exactly what it printed for its own gprof -s
 * (when gprof is installed: it is part of binutils, which the build
 * needs anyway).
 */
static void test_sum_file(void **state)
{
	char dir[] = "/tmp/cga-sum-XXXXXX", sum[64], opt[80], cmd[512];
	const char *args[] = { "-b", NOPIE, "--brief", opt,
			       "tests/gmon/nopie.gmon", "tests/gmon/nopie-2.gmon" };
	const char *again[] = { "-b", NOPIE, "--brief", sum };
	char *first, *second;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sum, sizeof(sum), "%s/gmon.sum", dir);
	snprintf(opt, sizeof(opt), "--sum=%s", sum);
	first = run_cganalyze(args, 6);
	second = run_cganalyze(again, 4);
	/* the same but for the input named in the header line */
	assert_string_equal(strchr(first, '\n'), strchr(second, '\n'));
	compare_with_gprof("tests/gmon/nopie-sum.gprof", again, 4);
	if (system("gprof --version >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd),
			 "gprof -b %s %s | cmp -s - tests/gmon/nopie-sum.gprof",
			 NOPIE, sum);
		assert_int_equal(system(cmd), 0);
	} else {
		print_message("gprof is not installed: not checked with it\n");
	}
	unlink(sum);
	rmdir(dir);
	free(first);
	free(second);
}


/* --- gprof's symspecs against gprof --- */

/*
 * -q, -Q and -k equal gprof's output line for line: -qwork lists work
 * and what it calls (spin, helper.part.0), the others' indexes shown as
 * "(N)"; -qping lists no cycle as a whole (nothing listed calls into
 * it) and not pong, which ping calls only inside their cycle; -Qspin
 * leaves out spin alone; -k deletes the arcs before the analysis: work
 * no longer pays for spin (spin's time goes to ping and pong, its only
 * callers left), and deleting pong -> ping breaks cycle 1.
 */
static void test_gprof_symspecs(void **state)
{
	const char *q[] = { "-b", NOPIE, "--brief", "-qwork",
			    "tests/gmon/nopie.gmon" };
	const char *qq[] = { "-b", NOPIE, "--brief", "-Qspin",
			     "tests/gmon/nopie.gmon" };
	const char *k1[] = { "-b", NOPIE, "--brief", "-k", "work/spin",
			     "tests/gmon/nopie.gmon" };
	const char *k2[] = { "-b", NOPIE, "--brief", "-k", "pong/ping",
			     "tests/gmon/nopie.gmon" };

	(void)state;
	compare_with_gprof_min("tests/gmon/nopie-qwork.gprof", q, 5, 0, 8);
	compare_with_gprof_min("tests/gmon/nopie-Qspin.gprof", qq, 5, 0, 25);
	compare_with_gprof("tests/gmon/nopie-k-work-spin.gprof", k1, 6);
	compare_with_gprof("tests/gmon/nopie-k-pong-ping.gprof", k2, 6);
}

/*
 * -Qmain leaves out main's entry and, as gprof does, the cycle as a
 * whole that only main calls into: a cycle's entry is listed where a
 * listed function calls into it. Its members, which -Q does not name,
 * are listed.
 */
static void test_gprof_Qmain(void **state)
{
	const char *args[] = { "-b", NOPIE, "--brief", "-Qmain",
			       "tests/gmon/nopie.gmon" };

	(void)state;
	compare_with_gprof_min("tests/gmon/nopie-Qmain.gprof", args, 5, 0, 20);
}

/* A flat profile's rows by name: "%time self calls self/call
 * total/call" as printed (the cumulative column left out). */
static void flat_rows(const char *text, struct lines *l)
{
	char *copy = strdup(text), *save = NULL;
	bool in = false;

	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w[8], *s2 = NULL, row[512], *mark = strstr(line, " <cycle");
		int n = 0;

		/* gprof's flat profile does not mark cycle members */
		if (mark)
			*mark = '\0';

		if (!strncmp(line, " time ", 6)) {
			in = true;
			continue;
		}
		if (!in)
			continue;
		if (line[0] != ' ' && (line[0] < '0' || line[0] > '9'))
			break;
		for (char *t = strtok_r(line, " ", &s2); t && n < 8;
		     t = strtok_r(NULL, " ", &s2))
			w[n++] = t;
		if (n == 7)
			snprintf(row, sizeof(row), "%s %s %s %s %s %s", w[6],
				 w[0], w[2], w[3], w[4], w[5]);
		else if (n == 4)
			snprintf(row, sizeof(row), "%s %s %s", w[3], w[0], w[2]);
		else
			fail_msg("a flat profile row of %d words", n);
		add_line(l, row);
	}
	free(copy);
	if (l->n)	/* no rows: l->v is NULL */
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

/*
 * -pSPEC and -PSPEC. gprof lists the rows we list, with the same self
 * time, calls and self time per call. But it does more than leave rows
 * out: it takes the time of what is left out from the total and from
 * every function (gprof's histogram gives a function excluded from the
 * flat profile no time at all), so its percentages are of what is
 * listed (-pwork: work is 100.82%) and its call graph changes with it
 * (-Pspin: work's children fall from 0.16 to 0.05 s, spin shows 0.00).
 * An option that chooses rows of one listing should not change the
 * analysis: ours leaves the rows out and nothing else, so each row is
 * the full listing's row, percentage and total per call included. We
 * check both: gprof's columns that it does not change, and the rest
 * against our own full flat profile.
 */
static void check_flat_selection(const char *gprof_file, const char *opt,
				 size_t nrows)
{
	const char *args[] = { "-b", NOPIE, "--brief", "-p", opt,
			       "tests/gmon/nopie.gmon" };
	const char *all[] = { "-b", NOPIE, "--brief", "-p",
			      "tests/gmon/nopie.gmon" };
	size_t len;
	char *want = gprof_renamed(slurp(gprof_file, &len));
	char *ours = run_cganalyze(args, 6), *full = run_cganalyze(all, 5);
	struct lines g = { 0 }, o = { 0 }, f = { 0 };

	flat_rows(want, &g);
	flat_rows(ours, &o);
	flat_rows(full, &f);
	assert_int_equal(g.n, nrows);
	assert_int_equal(o.n, nrows);
	for (size_t i = 0; i < o.n; i++) {
		char name[128] = "", pct[32] = "", self[32] = "", calls[32] = "",
		     spc[32] = "";
		char gname[128] = "", gpct[32] = "", gself[32] = "",
		     gcalls[32] = "", gspc[32] = "";
		bool found = false;

		/* rows with calls have all columns */
		sscanf(o.v[i], "%127s %31s %31s %31s %31s", name, pct, self,
		       calls, spc);
		sscanf(g.v[i], "%127s %31s %31s %31s %31s", gname, gpct, gself,
		       gcalls, gspc);
		assert_string_equal(name, gname);
		assert_string_equal(self, gself);
		assert_string_equal(calls, gcalls);
		assert_string_equal(spc, gspc);
		for (size_t k = 0; k < f.n; k++)
			found = found || !strcmp(f.v[k], o.v[i]);
		if (!found)
			fail_msg("'%s' is not the full profile's row", o.v[i]);
	}
	free_lines(&g);
	free_lines(&o);
	free_lines(&f);
	free(want);
	free(ours);
	free(full);
}

static void test_gprof_flat_selection(void **state)
{
	(void)state;
	check_flat_selection("tests/gmon/nopie-Pspin.gprof", "-Pspin", 5);
	check_flat_selection("tests/gmon/nopie-pwork.gprof", "-pwork", 1);
	/* main has no time and no calls: no row, in gprof ("no time
	 * accumulated") as in ours */
	check_flat_selection("tests/gmon/nopie-pmain.gprof", "-pmain", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_record),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_other_architecture),
		cmocka_unit_test(test_needs_binary),
		cmocka_unit_test(test_bsd),
		cmocka_unit_test(test_two_files),
		cmocka_unit_test(test_assign_overlap),
		cmocka_unit_test(test_gprof_nopie),
		cmocka_unit_test(test_gprof_cxx_ties),
		cmocka_unit_test(test_gprof_pie),
		cmocka_unit_test(test_gprof_pie_runtime),
		cmocka_unit_test(test_gprof_bsd),
		cmocka_unit_test(test_gprof_summed),
		cmocka_unit_test(test_sum_file),
		cmocka_unit_test(test_gprof_symspecs),
		cmocka_unit_test(test_gprof_Qmain),
		cmocka_unit_test(test_gprof_flat_selection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
