/*
 * pprof's profile.proto: the wire codec (src/base/pbwire.c: varints at
 * their bounds, fields whose lengths run past their message), the sniff
 * that finds the format without a magic (and must not take the other
 * formats' files), and the reader on profiles built here with the
 * encoder: inlined frames, recursion counted once, the default sample
 * type first, and errors naming the offset.
 */
#include "helpers.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pbwire.h"
#include "cg/cg.h"
#include "cli/analyze.h"
#include "cli/options.h"
#include "print/write_pprof.h"
#include "read/read.h"

static const struct {
	const char *bytes;
	size_t len;
	int ret;
	uint64_t value;
} varint_cases[] = {
	{ "\x00", 1, 0, 0 },
	{ "\x7f", 1, 0, 127 },
	{ "\x80\x01", 2, 0, 128 },
	{ "\xac\x02", 2, 0, 300 },
	{ "\xff\xff\xff\xff\x0f", 5, 0, 0xffffffffu },
	/* ten bytes: the last holds bit 63 alone */
	{ "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10, 0, UINT64_MAX },
	{ "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 10, 0, 1ull << 63 },
	{ "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10, -1, 0 },
	{ "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, -1, 0 },
	{ "\x80", 1, -1, 0 },		/* truncated */
	{ "\xff\xff", 2, -1, 0 },
	{ "", 0, -1, 0 },
};

static void test_varints(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(varint_cases) / sizeof(*varint_cases);
	     i++) {
		const unsigned char *p =
			(const unsigned char *)varint_cases[i].bytes;
		const char *why = NULL;
		uint64_t v = 0;
		int r = pb_varint(&p, p + varint_cases[i].len, &v, &why);

		assert_int_equal(r, varint_cases[i].ret);
		if (r == 0) {
			assert_true(v == varint_cases[i].value);
			assert_ptr_equal(p, (const unsigned char *)
				varint_cases[i].bytes + varint_cases[i].len);
		} else {
			assert_non_null(why);
		}
	}
}

/* What is written reads back, and takes the bytes pb_varint_size says. */
static void test_varint_round_trip(void **state)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 16383, 16384,
					 1ull << 35, (1ull << 63) - 1,
					 1ull << 63, UINT64_MAX };
	struct pb_out o = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(vals) / sizeof(*vals); i++) {
		const unsigned char *p;
		const char *why;
		uint64_t v;

		o.len = 0;
		pb_put_varint(&o, vals[i]);
		assert_int_equal(o.len, pb_varint_size(vals[i]));
		p = o.buf;
		assert_int_equal(pb_varint(&p, o.buf + o.len, &v, &why), 0);
		assert_true(v == vals[i]);
	}
	/* a zero field is left out, as proto3 leaves it */
	o.len = 0;
	pb_put_uint(&o, 3, 0);
	assert_int_equal(o.len, 0);
	pb_out_release(&o);
}

static const struct {
	const char *bytes;
	size_t len;
	int ret;		/* of the first pb_next() */
	uint32_t num;
	size_t flen;		/* a length-delimited field's length */
} field_cases[] = {
	{ "\x08\x96\x01", 3, 1, 1, 0 },
	{ "\x12\x03" "abc", 5, 1, 2, 3 },
	{ "\x12\x04" "abc", 5, -1, 0, 0 },	/* length past the end */
	{ "\x12\xff\xff\xff\xff\x0f" "a", 7, -1, 0, 0 },
	{ "\x12", 1, -1, 0, 0 },		/* no length */
	{ "\x00\x01", 2, -1, 0, 0 },		/* field 0 */
	{ "\x0b", 1, -1, 0, 0 },		/* a group */
	{ "\x0e\x00", 2, -1, 0, 0 },		/* wire type 6 */
	{ "\x0d\x01\x02", 3, -1, 0, 0 },	/* fixed32 cut */
	{ "\x0d\x01\x02\x03\x04", 5, 1, 1, 0 },
	{ "", 0, 0, 0, 0 },
};

static void test_fields(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(field_cases) / sizeof(*field_cases);
	     i++) {
		const unsigned char *b =
			(const unsigned char *)field_cases[i].bytes;
		struct pb_in in = pb_sub(b, b, field_cases[i].len);
		struct pb_field f;
		const char *why = NULL;
		int r = pb_next(&in, &f, &why);

		assert_int_equal(r, field_cases[i].ret);
		if (r == 1) {
			assert_int_equal(f.num, field_cases[i].num);
			assert_int_equal(f.len, field_cases[i].flen);
		}
		if (r < 0) {
			assert_non_null(why);
			/* left at the field's key, for the offset */
			assert_int_equal(pb_offset(&in), 0);
		}
	}
}

/* ---- profiles built here ---- */

static void put_msg(struct pb_out *o, uint32_t num, struct pb_out *m)
{
	pb_put_bytes(o, num, m->buf, m->len);
	m->len = 0;
}

static void put_str(struct pb_out *o, const char *s)
{
	pb_put_bytes(o, 6, s, strlen(s));
}

/*
 * Strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 main,
 * 6 fib, 7 inl, 8 prog.c. Functions 1 main, 2 fib, 3 inl. Location 1:
 * main; 2: fib with inl inlined into it (lines innermost first: inl,
 * fib); 3: fib. Samples: fib > fib > main (3 samples, 30 ns), inl in fib >
 * main (1, 10), main (2, 20). default_sample_type: 'samples'.
 */
static void build_profile(struct pb_out *o, uint64_t bad_string)
{
	static const char *const strs[] = { "", "samples", "count", "cpu",
		"nanoseconds", "main", "fib", "inl", "prog.c" };
	struct pb_out m = { 0 }, l = { 0 };
	uint64_t locs[3], vals[2];

	pb_put_uint(&m, 1, 1);
	pb_put_uint(&m, 2, 2);
	put_msg(o, 1, &m);
	pb_put_uint(&m, 1, 3);
	pb_put_uint(&m, 2, 4);
	put_msg(o, 1, &m);
	locs[0] = 3; locs[1] = 3; locs[2] = 1;
	vals[0] = 3; vals[1] = 30;
	pb_put_packed(&m, 1, locs, 3);
	pb_put_packed(&m, 2, vals, 2);
	put_msg(o, 2, &m);
	pb_put_packed(&m, 1, (const uint64_t[]){ 2, 1 }, 2);
	pb_put_packed(&m, 2, (const uint64_t[]){ 1, 10 }, 2);
	put_msg(o, 2, &m);
	pb_put_packed(&m, 1, (const uint64_t[]){ 1 }, 1);
	pb_put_packed(&m, 2, (const uint64_t[]){ 2, 20 }, 2);
	put_msg(o, 2, &m);
	pb_put_uint(&m, 1, 1);
	pb_put_uint(&l, 1, 1);
	pb_put_uint(&l, 2, 4);
	put_msg(&m, 4, &l);
	put_msg(o, 4, &m);
	pb_put_uint(&m, 1, 2);
	pb_put_uint(&l, 1, 3);
	pb_put_uint(&l, 2, 12);
	put_msg(&m, 4, &l);
	pb_put_uint(&l, 1, 2);
	pb_put_uint(&l, 2, 8);
	put_msg(&m, 4, &l);
	put_msg(o, 4, &m);
	pb_put_uint(&m, 1, 3);
	pb_put_uint(&l, 1, 2);
	pb_put_uint(&l, 2, 9);
	put_msg(&m, 4, &l);
	put_msg(o, 4, &m);
	for (uint64_t f = 1; f <= 3; f++) {
		pb_put_uint(&m, 1, f);
		pb_put_uint(&m, 2, f == 3 && bad_string ? bad_string : f + 4);
		pb_put_uint(&m, 4, 8);
		put_msg(o, 5, &m);
	}
	pb_put_uint(o, 14, 1);
	for (size_t i = 0; i < sizeof(strs) / sizeof(*strs); i++)
		put_str(o, strs[i]);
	pb_out_release(&m);
	pb_out_release(&l);
}

static void test_sniff(void **state)
{
	static const struct {
		const char *data;
		size_t len;
	} others[] = {
		{ "events: Ir\n", 11 },
		{ "# callgrind format\nevents: Ir\n", 30 },
		{ "version: 1\ncreator: x\n", 22 },
		{ "P=(ID=1 N=(prog) T=0.01)\n", 25 },
		{ "PERFILE2\x68\0\0\0", 12 },
		{ "gmon\0\0\0\1", 8 },
		{ "heap profile:    1:   64 [   1:   64] @ heapprofile\n", 52 },
		{ "heap_v2/524288\n", 15 },
		/* gperftools' CPU profile: a zero word first */
		{ "\0\0\0\0\0\0\0\0\3\0\0\0\0\0\0\0", 16 },
		/* field 1 must be a message, not a varint */
		{ "\x08\x01\x32\x00", 4 },
		/* a whole file of nothing but one string */
		{ "\x32\x00", 2 },
	};
	struct pb_out o = { 0 };

	(void)state;
	build_profile(&o, 0);
	assert_true(pprof_sniff((const char *)o.buf, o.len, true));
	/* the first bytes of a larger one */
	assert_true(pprof_sniff((const char *)o.buf, 40, false));
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		assert_false(pprof_sniff(others[i].data, others[i].len, true));
	pb_out_release(&o);
}

/* Every committed file of the other formats (profiles, binaries, the
 * fuzzers' corpora, bad inputs, expected outputs, sources),
 * decompressed as the readers see it, is not taken for a pprof; the
 * pprof ones (.pb, .pb.gz) are. */
static size_t nsniffed, nwrong;

static int sniff_one(const char *path, const struct stat *sb, int type,
		     struct FTW *ftw)
{
	size_t len = strlen(path);
	bool want = (len > 3 && !strcmp(path + len - 3, ".pb")) ||
		    (len > 6 && !strcmp(path + len - 6, ".pb.gz"));
	struct line_reader lr;
	const char *data;
	long n;

	(void)sb;
	(void)ftw;
	if (type != FTW_F || line_reader_open(&lr, path) < 0)
		return 0;
	n = line_reader_peek(&lr, 2047, &data);
	if (n > 0 && pprof_sniff(data, (size_t)n, n < 2047) != want) {
		print_message("%s: %s\n", path, want ? "not found" : "taken");
		nwrong++;
	}
	nsniffed++;
	line_reader_close(&lr);
	return 0;
}

static void test_sniff_committed_files(void **state)
{
	static const char *const dirs[] = { "samples", "tests" };

	(void)state;
	diag_capture_begin();
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		nftw(dirs[i], sniff_one, 16, FTW_PHYS);
	free(diag_capture_end());
	assert_true(nsniffed > 1000);
	assert_int_equal(nwrong, 0);
}

static void test_read(void **state)
{
	struct read_opts ro = { .want_stacks = true };
	struct pb_out o = { 0 };
	struct profile p;
	char *diag = NULL;
	uint32_t main_f, fib, inl, c;

	(void)state;
	build_profile(&o, 0);
	profile_init(&p);
	assert_int_equal(read_text(&p, (const char *)o.buf, (long)o.len, &ro,
				   &diag), 0);
	assert_string_equal(diag, "");
	profile_finish(&p);
	/* the default sample type first */
	assert_int_equal(p.nevents, 2);
	assert_string_equal(profile_str(&p, p.events[0].name), "samples");
	assert_string_equal(profile_str(&p, p.events[1].name), "cpu");
	assert_string_equal(profile_str(&p, p.events[1].unit), "nanoseconds");
	assert_int_equal(p.events[0].unit, NO_NAME);	/* "count" */
	main_f = find_func(&p, "main");
	fib = find_func(&p, "fib");
	inl = find_func(&p, "inl");
	assert_int_not_equal(inl, NO_ID);
	/* self: fib 3 (the recursive stack's leaf), inl 1, main 2 */
	assert_int_equal(profile_self(&p, fib)[0], 3);
	assert_int_equal(profile_self(&p, inl)[0], 1);
	assert_int_equal(profile_self(&p, main_f)[1], 20);
	/* inclusive: fib once per stack, however deep: 3 + 1 */
	assert_int_equal(profile_func_row(&p, p.func_incl, fib)[0], 4);
	assert_int_equal(profile_func_row(&p, p.func_incl, main_f)[0], 6);
	/* the inlined function is called from the one it is inlined in */
	c = find_call(&p, "fib", "inl");
	assert_int_not_equal(c, NO_ID);
	assert_int_equal(profile_call_incl_at(&p, c, 1), 10);
	assert_int_equal(profile_func_line(&p, inl), 0);
	/* the stacks: main, main > fib, main > fib > fib, main > fib > inl */
	assert_int_equal(p.nstacks, 4);
	assert_true(p.sampled);
	profile_release(&p);
	free(diag);
	pb_out_release(&o);
}

static void test_read_errors(void **state)
{
	struct read_opts ro = { 0 };
	struct pb_out o = { 0 };
	struct profile p;
	char *diag = NULL;

	(void)state;
	build_profile(&o, 99);
	profile_init(&p);
	assert_int_equal(read_text(&p, (const char *)o.buf, (long)o.len, &ro,
				   &diag), -1);
	assert_non_null(strstr(diag, "string index 99 out of range (the "
			       "string table has 9 strings)"));
	assert_non_null(strstr(diag, ": offset 0x"));
	profile_release(&p);
	free(diag);
	pb_out_release(&o);

	/* cut inside the string table: where it ends */
	build_profile(&o, 0);
	profile_init(&p);
	assert_int_equal(read_text(&p, (const char *)o.buf, (long)o.len - 2,
				   &ro, &diag), -1);
	assert_non_null(strstr(diag, "length past the end"));
	profile_release(&p);
	free(diag);
	pb_out_release(&o);
}

/* Written with --output=pprof and read back: the same events (units
 * too), self and inclusive costs, stacks; the bytes are gzip's. */
static void test_write_read_back(void **state)
{
	struct read_opts ro = { .want_stacks = true };
	struct print_opts po = { 0 };
	struct pb_out o = { 0 };
	struct profile p, q;
	struct cg cg;
	char *diag = NULL, *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	build_profile(&o, 0);
	profile_init(&p);
	assert_int_equal(read_text(&p, (const char *)o.buf, (long)o.len, &ro,
				   &diag), 0);
	free(diag);
	profile_finish(&p);
	memset(&cg, 0, sizeof(cg));
	cg_build(&cg, &p, 1);
	cg_find_cycles(&cg);
	assert_int_equal(cg_propagate_measured(&cg), 0);
	cg_rank(&cg);
	po.sort_event = 1;
	mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	assert_int_equal(write_pprof(mem, "memory", &cg, &po), 0);
	fclose(mem);
	assert_true(len > 20);
	assert_int_equal((unsigned char)buf[0], 0x1f);	/* gzip */
	assert_int_equal((unsigned char)buf[1], 0x8b);

	profile_init(&q);
	assert_int_equal(read_text(&q, buf, (long)len, &ro, &diag), 0);
	assert_string_equal(diag, "");
	profile_finish(&q);
	/* the --sort event is the default type now: first */
	assert_string_equal(profile_str(&q, q.events[0].name), "cpu");
	assert_string_equal(profile_str(&q, q.events[0].unit), "nanoseconds");
	assert_string_equal(profile_str(&q, q.events[1].name), "samples");
	assert_int_equal(q.nstacks, p.nstacks);
	for (size_t f = 0; f < p.nfuncs; f++) {
		const char *name = profile_str(&p, p.funcs[f].name);
		uint32_t g = find_func(&q, name);

		assert_int_not_equal(g, NO_ID);
		assert_int_equal(profile_self(&q, g)[0], profile_self(&p, f)[1]);
		assert_int_equal(profile_self(&q, g)[1], profile_self(&p, f)[0]);
		assert_int_equal(profile_func_row(&q, q.func_incl, g)[0],
				 profile_func_row(&p, p.func_incl, f)[1]);
		assert_string_equal(profile_str(&q, q.funcs[g].file), "prog.c");
	}
	cg_release(&cg);
	profile_release(&p);
	profile_release(&q);
	free(diag);
	free(buf);
	pb_out_release(&o);
}

/*
 * gmon.out's time written and read back: its sample type is "seconds"
 * in nanoseconds, each function's value its ticks times gprof's 0.01 s
 * (gprof -b: spin 0.60 seconds of 0.92). Written as a count of ticks,
 * go tool pprof printed "Type: seconds ... 60" for spin, 100 times the
 * time gprof and our listings give (session 27).
 */
static void test_write_gmon_seconds(void **state)
{
	char dir[] = "/tmp/cga-test-XXXXXX", path[64];
	char *argv[] = { (char *)"cganalyze", (char *)"--output=pprof",
			 (char *)"-b", (char *)"tests/gmon/prog-nopie",
			 (char *)"tests/gmon/nopie.gmon", NULL };
	struct read_opts ro = { .want_stacks = true };
	struct options o;
	struct profile q;
	char *diag = NULL;
	FILE *out;
	uint32_t spin;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gmon.pb.gz", dir);
	out = fopen(path, "wb");
	assert_non_null(out);
	diag_capture_begin();
	assert_int_equal(options_parse(&o, 5, argv, out), OPTIONS_OK);
	assert_int_equal(analyze_run(&o, out), 0);
	free(diag_capture_end());
	options_release(&o);
	assert_int_equal(fclose(out), 0);

	profile_init(&q);
	if (read_path(&q, path, &ro, &diag) < 0)
		fail_msg("%s", diag);
	assert_string_equal(profile_str(&q, q.events[0].name), "seconds");
	assert_string_equal(profile_str(&q, q.events[0].unit), "nanoseconds");
	spin = find_func(&q, "spin");
	assert_int_not_equal(spin, NO_ID);
	/* 60.09 ticks (a bin shared with its neighbour): 600,902,256 ns */
	assert_int_equal(profile_self(&q, spin)[0], 600902256);
	assert_true(q.totals[0] > 910000000 && q.totals[0] < 930000000);
	profile_release(&q);
	free(diag);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varints),
		cmocka_unit_test(test_varint_round_trip),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_sniff_committed_files),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_write_read_back),
		cmocka_unit_test(test_write_gmon_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
