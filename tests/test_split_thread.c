/*
 * The Callgrind reader with its splitting thread (callgrind_split.h) against
 * the reader alone: the same profile, the same messages in the same
 * order at the same line numbers, whatever goes wrong and wherever. The
 * thread is forced on (and off) by read_opts.thread, as it is for the
 * whole end-to-end suite by CGANALYZE_READER_THREAD in `make e2e`.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "read/callgrind/callgrind_split.h"
#include "read/line_reader.h"

struct res {
	struct profile p;
	char *diag;
	int ret;
};

/* The file at path read with the thread on or off; max_line 0 is the
 * line reader's own limit. */
static void rd(struct res *r, const char *path, bool thread, size_t max_line,
	       const struct read_opts *o)
{
	struct read_opts none = { 0 }, ro = o ? *o : none;
	struct line_reader lr;

	ro.thread = thread ? READ_THREAD_ON : READ_THREAD_OFF;
	profile_init(&r->p);
	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, path), 0);
	if (max_line)
		line_reader_set_max_line(&lr, max_line);
	r->ret = read_callgrind(&r->p, &lr, &ro);
	line_reader_close(&lr);
	r->diag = diag_capture_end();
}

/* The line number in the last message of diag (0 if none), to check
 * that a test's error is where it means it to be: past the first
 * blocks. */
static unsigned long last_line;

static unsigned long last_line_named(const char *diag)
{
	const char *at = NULL, *q = diag;

	while ((q = strstr(q, "/profile:")))
		at = q++;
	return at ? strtoul(at + 9, NULL, 10) : 0;
}

/* The file's bytes read both ways; returns the (shared) result code. */
static int both_ways(const void *data, size_t len, size_t max_line,
		     const char *want_in_diag)
{
	struct read_opts pos = { .want_positions = true };
	char *path = write_temp(data, len);
	int ret = 0;

	for (int o = 0; o < 2; o++) {
		struct res a, b;

		rd(&a, path, false, max_line, o ? &pos : NULL);
		rd(&b, path, true, max_line, o ? &pos : NULL);
		assert_int_equal(a.ret, b.ret);
		assert_string_equal(a.diag, b.diag);
		if (want_in_diag && !strstr(a.diag, want_in_diag))
			fail_msg("'%s' not in: %s", want_in_diag, a.diag);
		last_line = last_line_named(a.diag);
		if (a.ret == 0)
			assert_same_profile(&a.p, &b.p);
		ret = a.ret;
		free(a.diag);
		free(b.diag);
		profile_release(&a.p);
		profile_release(&b.p);
	}
	remove_temp(path);
	return ret;
}

/* A profile of `parts` parts of many lines each (a few MiB: several
 * blocks), cost lines of every kind the tokenizer knows and some it
 * leaves to the general path; `tail` is added at the end. */
static char *many_lines(unsigned parts, const char *tail, size_t *len)
{
	size_t cap = (size_t)8 << 20, n = 0;
	char *s = malloc(cap);

	n += (size_t)snprintf(s + n, cap - n,
			      "# callgrind format\nversion: 1\n"
			      "creator: callgrind-3.19.0\n"
			      "positions: instr line\nevents: Ir Dr\n");
	for (unsigned part = 0; part < parts; part++) {
		if (part)
			n += (size_t)snprintf(s + n, cap - n,
					      "totals: 1\npart: %u\n", part + 1);
		n += (size_t)snprintf(s + n, cap - n,
				      "ob=(1) /bin/x\nfl=(1) x.c\n");
		for (unsigned f = 0; f < 50; f++)
			n += (size_t)snprintf(s + n, cap - n,
					      "fn=(%u) f%u\n0x%x 1000 1 1\n",
					      f + 1, f, 0x1000 + f);
		for (unsigned i = 0; i < 40000 && n + 512 < cap; i++) {
			unsigned f = i % 50;

			if (i % 100 == 0)
				n += (size_t)snprintf(s + n, cap - n,
					"fn=(%u)\n0x%x %u %u %u\n",
					f + 1, 0x4000 + i, 1000 + i % 70, i % 7, i % 5);
			else if (i % 100 == 1)
				n += (size_t)snprintf(s + n, cap - n,
					"fn=(%u)\n", f + 1);
			switch (i % 9) {
			case 0:
				n += (size_t)snprintf(s + n, cap - n,
					"+%u -%u %u\n", i % 5, i % 4, i % 11);
				break;
			case 1:
				n += (size_t)snprintf(s + n, cap - n,
					"* *\t%u  %u\n", i, i % 3);
				break;
			case 2:
				n += (size_t)snprintf(s + n, cap - n,
					"cfn=(%u)\ncalls=%u +1 +2\n+1 * %u 4\n",
					(f + 1) % 50 + 1, i % 4 + 1, i % 100);
				break;
			case 3:
				/* hex cost, "\r\n": the general path */
				n += (size_t)snprintf(s + n, cap - n,
					"+2 +1 0x%x\r\n", i % 16);
				break;
			case 4:
				n += (size_t)snprintf(s + n, cap - n,
					"jump=%u +3 *\n+1 -1 %u\n", i % 3, i % 9);
				break;
			case 7:
				/* body lines tokenized, and in forms left
				 * to the general path */
				n += (size_t)snprintf(s + n, cap - n,
					"jcnd=%u/%u -1 +2\n* * 1\n"
					"jcnd=%u %u 0x%x\n+1 * 1\n"
					"cob=(2) /lib/y.so\ncfi=(%u) y%u.c \n"
					"cfn= (%u)\ncalls=%u *\t* \n* * 3\n"
					"fi=inl.h\r\n+1 +1 1\nfe=(1)\n"
					"jump=1 -999999\n+1 * 1\n",
					i % 4, i % 5, i % 6, i % 3, 0x4000 + i,
					i % 7 + 2, i % 7, f + 1, i % 3);
				break;
			case 5:
				n += (size_t)snprintf(s + n, cap - n,
					"\n# a comment\n-1 +1\n");
				break;
			default:
				n += (size_t)snprintf(s + n, cap - n,
					"0x%x %u %u\n", 0x4000 + i % 999,
					1000 + i % 40, i % 13);
			}
		}
	}
	n += (size_t)snprintf(s + n, cap - n, "%s", tail);
	*len = n;
	return s;
}

/* The tokens of lines, one by one. */
static void test_tokens(void **state)
{
	static const char text[] =
		"fn=(12) main\n"		/* 0 */
		"cfn=(12)\n"			/* 1 */
		"fl= x.c \t\n"		/* 2 */
		"fi=(3)inl.h\n"		/* 3 */
		"calls=2 0x10 +3 \n"		/* 4 */
		"jcnd=1/3 +4 *\n"		/* 5 */
		"jcnd=3 1 -4\n"			/* 6 */
		"jump=5\n"			/* 7 */
		"\n"				/* 8 */
		"# c\n"				/* 9 */
		"+3 * 0x1f 2\n"			/* 10 */
		/* left to the general path */
		"calls= 1 2\n"			/* 11 */
		"calls=1 2\r\n"			/* 12 */
		"jcnd=1 /2 3\n"			/* 13 */
		"fn=(99999999999999999999) x\n"	/* 14 */
		"fn=(12 x\n"			/* 15 */
		"foo=1\n"			/* 16 */
		"calls=1 2 junk\n"		/* 17 */
		"Fn=x\n"			/* 18 */
		"events: Ir\n"			/* 19 */
		"jcnd=1/2/3\n"			/* 20 */
		" fn=x\n";			/* 21 */
	struct callgrind_block b = {0};
	const struct callgrind_tok *t;
	const uint64_t *v;

	(void)state;
	callgrind_split_tokenize(&b, text, sizeof(text) - 1);
	assert_int_equal(b.ntoks, 22);
	t = b.toks;
	v = b.vals;
	assert_int_equal(t[0].kind, CALLGRIND_TOK_NAME);
	assert_int_equal(t[0].key, CALLGRIND_KEY_FN);
	assert_int_equal(t[0].form, CALLGRIND_NAME_DEF);
	assert_int_equal(v[t[0].first], 12);
	assert_memory_equal(b.text + v[t[0].first + 1], "main", 4);
	assert_int_equal(v[t[0].first + 2], 4);
	assert_int_equal(t[1].key, CALLGRIND_KEY_CFN);
	assert_int_equal(t[1].form, CALLGRIND_NAME_REF);
	assert_int_equal(v[t[1].first], 12);
	/* trimmed as parse_name() trims */
	assert_int_equal(t[2].form, CALLGRIND_NAME_PLAIN);
	assert_memory_equal(b.text + v[t[2].first], "x.c", 3);
	assert_int_equal(v[t[2].first + 1], 3);
	assert_int_equal(t[3].form, CALLGRIND_NAME_DEF);
	assert_int_equal(t[3].key, CALLGRIND_KEY_FI);
	assert_memory_equal(b.text + v[t[3].first + 1], "inl.h", 5);
	assert_int_equal(t[4].kind, CALLGRIND_TOK_COUNTS);
	assert_int_equal(t[4].key, CALLGRIND_KEY_CALLS);
	assert_int_equal(t[4].nfields, 2);
	assert_int_equal(v[t[4].first], 2);
	assert_int_equal(v[t[4].first + 1], 0x10);
	assert_int_equal(v[t[4].first + 2], 3);
	assert_int_equal(t[4].tags,
			 CALLGRIND_FIELD_ABS | CALLGRIND_FIELD_PLUS << 2);
	/* executed, followed: whichever way written */
	assert_int_equal(t[5].key, CALLGRIND_KEY_JCND);
	assert_int_equal(v[t[5].first], 3);
	assert_int_equal(v[t[5].first + 1], 1);
	assert_int_equal(t[5].nfields, 2);
	assert_int_equal(t[5].tags,
			 CALLGRIND_FIELD_PLUS | CALLGRIND_FIELD_STAR << 2);
	assert_int_equal(v[t[6].first], 3);
	assert_int_equal(v[t[6].first + 1], 1);
	assert_int_equal(t[6].tags, CALLGRIND_FIELD_MINUS);
	assert_int_equal(t[7].kind, CALLGRIND_TOK_COUNTS);
	assert_int_equal(t[7].key, CALLGRIND_KEY_JUMP);
	assert_int_equal(t[7].nfields, 0);
	assert_int_equal(t[8].kind, CALLGRIND_TOK_NOTHING);
	assert_int_equal(t[9].kind, CALLGRIND_TOK_NOTHING);
	assert_int_equal(t[10].kind, CALLGRIND_TOK_COST);
	assert_int_equal(t[10].nfields, 4);
	for (size_t i = 11; i < 22; i++) {
		if (t[i].kind != CALLGRIND_TOK_TEXT)
			fail_msg("line %zu is not left as text", i);
	}
	assert_memory_equal(b.text + t[21].off, " fn=x\n", 6);
	free(b.text);
	free(b.toks);
	free(b.vals);
}

static void test_same_profile(void **state)
{
	size_t len;
	char *s = many_lines(4, "totals: 1\n", &len);

	(void)state;
	assert_true(len > 2 * CALLGRIND_BLOCK_BYTES);
	assert_int_equal(both_ways(s, len, 0, NULL), 0);
	free(s);
}

/* Errors of the reader, found by the main thread in a late block: the
 * thread is stopped (no hang), nothing after the line is said. */
static void test_reader_errors(void **state)
{
	static const char *const tails[] = {
		"fn=(77\n",				/* bad name */
		"+1 +1 1 2 3\n",			/* too many costs */
		"-999999 * 1\n",			/* below zero */
		"calls=1 2\nfn=(1)\n",			/* no call cost */
		"99999999999999999999 1 1\n",		/* overflow */
		"1 1 18446744073709551615\n1 1 1\n",	/* sum overflow */
		"what is this\n",
		"cfn=(4000)\ncalls=1 2\n1 1 1\n",	/* undefined id */
		"fn=(1)\ncalls=1 2\n1 1 1\n",	/* no cfn= after fn= */
		"cfn=(1)\ncalls=1 +18446744073709551615\n1 1 1\n",
		"fn=(1) f0\ncfn=(2)\ncalls=1 2\ncfn=(3)\n",
	};

	(void)state;
	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		size_t len;
		char *s = many_lines(2, tails[t], &len);

		/* and more lines after the error, in a later block */
		s = realloc(s, len + 100000 * 6 + 1);
		for (int i = 0; i < 100000; i++)
			len += (size_t)sprintf(s + len, "+1 1\n");
		if (both_ways(s, len, 0, ":") != -1)
			fail_msg("no error for '%s'", tails[t]);
		assert_true(last_line > 100000);
		free(s);
	}
}

/* Errors of the input, found by the thread: reported by the main
 * thread when it gets there, once, after the warnings before them. */
static void test_input_errors(void **state)
{
	size_t len, zlen;
	/* a warning near the start, said before the thread's error */
	char *s = many_lines(2, "", &len);
	unsigned char *z;

	(void)state;
	memcpy(strstr(s, "version: 1\n"), "vxrsion: 1\n", 11);
	z = gzip_bytes(s, len, &zlen);
	/* cut short: "truncated gzip data" at a byte offset */
	assert_int_equal(both_ways(z, zlen / 2, 0, "truncated gzip data"), -1);
	/* damaged in the middle */
	z[zlen / 2] ^= 0x55;
	z[zlen / 2 + 1] ^= 0x55;
	assert_int_equal(both_ways(z, zlen, 0, NULL), -1);
	free(z);
	/* a line over a small limit, its number counted by the thread */
	s = realloc(s, len + 300);
	len += (size_t)sprintf(s + len, "fn=(1) %0200d\n1 1 1\n", 7);
	assert_int_equal(both_ways(s, len, 150, "line longer than 150 bytes"),
			 -1);
	assert_true(last_line > 100000);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_same_profile),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_input_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
