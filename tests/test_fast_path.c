/*
 * The Callgrind reader's fast paths (issue 8): line_reader_lines(), which
 * hands out blocks of whole lines, the cost-line parser that reads
 * straight from the block, and compressed ids looked up by index. Each
 * must give what the general path gives: the same lines, the same
 * costs, the same messages at the same line numbers.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "read/line_reader.h"

/* ---- line_reader_lines() against line_reader_next() ---- */

/* The lines of data as line_reader_next() gives them, joined by "\n";
 * *nlines their number, *diag its messages. */
static char *lines_by_next(const char *path, size_t max_line,
			   unsigned long *nlines, int *ret, char **diag)
{
	struct line_reader lr;
	size_t cap = 64, n = 0, len;
	char *out = malloc(cap), *line;

	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, path), 0);
	if (max_line)
		line_reader_set_max_line(&lr, max_line);
	while ((*ret = line_reader_next(&lr, &line, &len)) > 0) {
		while (n + len + 2 > cap)
			out = realloc(out, cap *= 2);
		memcpy(out + n, line, len);
		n += len;
		out[n++] = '\n';
	}
	out[n] = '\0';
	*nlines = lr.lineno;
	line_reader_close(&lr);
	*diag = diag_capture_end();
	return out;
}

/* The same through line_reader_lines(), split and counted as the
 * Callgrind reader does. */
static char *lines_by_block(const char *path, size_t max_line,
			    unsigned long *nlines, int *ret, char **diag)
{
	struct line_reader lr;
	size_t cap = 64, n = 0, len;
	char *out = malloc(cap), *data;

	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, path), 0);
	if (max_line)
		line_reader_set_max_line(&lr, max_line);
	while ((*ret = line_reader_lines(&lr, &data, &len)) > 0) {
		char *s = data, *end = data + len;

		assert_true(len > 0);
		assert_int_equal(end[-1], '\n');
		while (s < end) {
			char *nl = memchr(s, '\n', (size_t)(end - s));
			size_t l = (size_t)(nl - s);

			assert_non_null(nl);
			if (l && s[l - 1] == '\r')
				l--;
			while (n + l + 2 > cap)
				out = realloc(out, cap *= 2);
			memcpy(out + n, s, l);
			n += l;
			out[n++] = '\n';
			lr.lineno++;
			s = nl + 1;
		}
	}
	out[n] = '\0';
	*nlines = lr.lineno;
	line_reader_close(&lr);
	*diag = diag_capture_end();
	return out;
}

static void same_lines(const char *data, size_t n, size_t max_line)
{
	char *path = write_temp(data, n), *d1, *d2, *a, *b;
	unsigned long n1, n2;
	int r1, r2;
	char *slash;

	a = lines_by_next(path, max_line, &n1, &r1, &d1);
	b = lines_by_block(path, max_line, &n2, &r2, &d2);
	assert_int_equal(r1, r2);
	assert_string_equal(d1, d2);
	if (r1 == 0) {
		assert_int_equal(n1, n2);
		assert_string_equal(a, b);
	}
	free(a);
	free(b);
	free(d1);
	free(d2);
	unlink(path);
	slash = strrchr(path, '/');
	*slash = '\0';
	rmdir(path);
	free(path);
}

static void test_lines_blocks(void **state)
{
	static const char *const texts[] = {
		"", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\r\n\r\n",
		"a\n\n\nb\n", "x\ry\n", "last\r",
	};
	size_t big_len = (size_t)3 << 20;
	char *big = malloc(big_len);

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		same_lines(texts[i], strlen(texts[i]), 0);
	/* lines of every length up to 4000 bytes, across many refills
	 * and a buffer that grows, some with "\r" */
	for (size_t i = 0, len = 0; i < big_len; len = (len * 7 + 13) % 4001) {
		for (size_t j = 0; j < len && i < big_len; j++, i++)
			big[i] = (char)('a' + (i + j) % 26);
		if (i < big_len && len % 3 == 0)
			big[i++] = '\r';
		if (i < big_len)
			big[i++] = '\n';
	}
	same_lines(big, big_len, 0);
	/* a line of 2 MiB: longer than the first buffer */
	memset(big, 'x', big_len);
	big[100] = '\n';
	big[(size_t)2 << 20] = '\n';
	same_lines(big, big_len, 0);
	/* a small limit: the same line is refused, at the same number */
	same_lines("ab\nabcdef\nabcdefghij\nabc\n", 26, 6);
	same_lines("ab\nabcdef\r\nabc\n", 16, 6);
	same_lines("abcdefghij\nab\n", 14, 6);
	free(big);
}

/* ---- the fast paths against the general one ---- */

struct res {
	struct profile p;
	char *diag;
	int ret;
};

static void rd(struct res *r, const char *text)
{
	profile_init(&r->p);
	r->ret = read_text(&r->p, text, -1, NULL, &r->diag);
}

static void rd_opts(struct res *r, const char *text,
		    const struct read_opts *o)
{
	profile_init(&r->p);
	r->ret = read_text(&r->p, text, -1, o, &r->diag);
}

static void rd_done(struct res *r)
{
	profile_release(&r->p);
	free(r->diag);
}

/* A line the fast paths may take: a cost line, or "key=" a body line. */
static bool fast_candidate(const char *s)
{
	const char *k = s;

	if ((*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '*')
		return true;
	while ((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
	       *k == '_')
		k++;
	return k > s && *k == '=';
}

/*
 * The text with every cost line and key=value line indented by a
 * space: parse_line() skips it, the fast paths do not take such a
 * line. So this reads the same profile through the general path only.
 */
static char *indent_fast_lines(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(2 * n + 2), *o = out;
	const char *s = text;

	while (*s) {
		if (fast_candidate(s))
			*o++ = ' ';
		while (*s && *s != '\n')
			*o++ = *s++;
		if (*s)
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

/* Messages without the scratch directory, which differs between reads:
 * "cganalyze: /tmp/cga-test-XXXXXX/profile:4: ..." -> "...profile:4: ..." */
static void strip_dirs(char *diag)
{
	char *s;

	while ((s = strstr(diag, "/tmp/cga-test-")) != NULL) {
		char *slash = strchr(s + 1, '/');

		slash = strchr(slash + 1, '/');
		memmove(s, slash + 1, strlen(slash + 1) + 1);
	}
}

/* Both paths, with positions (and jumps) kept and without: the same
 * result and the same messages. */
static void both_paths(const char *text)
{
	char *slow_text = indent_fast_lines(text);

	for (int keep = 0; keep < 2; keep++) {
		struct read_opts o = { .want_positions = keep };
		struct res fast, slow;

		rd_opts(&fast, text, &o);
		rd_opts(&slow, slow_text, &o);
		strip_dirs(fast.diag);
		strip_dirs(slow.diag);
		if (fast.ret != slow.ret || strcmp(fast.diag, slow.diag))
			fail_msg("for (positions %s):\n%s\nfast path: %d\n%s\n"
				 "general path: %d\n%s",
				 keep ? "kept" : "not kept", text, fast.ret,
				 fast.diag, slow.ret, slow.diag);
		if (fast.ret == 0)
			assert_same_profile(&fast.p, &slow.p);
		rd_done(&fast);
		rd_done(&slow);
	}
	free(slow_text);
}

static void test_cost_lines(void **state)
{
	static const char *const texts[] = {
		/* the shapes valgrind writes, with jumps and calls */
		"positions: instr line\nevents: Ir Dr\nfn=(1) main\n"
		"0x400000 12 3 1\n+4 * 1\n+3 -2 2 7\njcnd=1/2 +4 0\n* 0\n"
		"cfn=(2) f\ncalls=2 0x500000 30\n+5 13 40 4\n-8 +1 1\n"
		"fn=(2)\n0x500000 30 20 2\n",
		/* tabs, trailing blanks, costs left out, hex costs */
		"events: A B C\nfn=m\n1\t2 3 \n2 \n3 0x10 0X1f 4\t\n",
		/* the general path's business: each is still read right */
		"events: Ir\nfn=m\n1 2\r\n3 4\r\n",
		"events: Ir\nfn=m\n1 18446744073709551615\n",
		"events: Ir\nfn=m\n0x0000000000000001 1\n",
		"positions: instr\nevents: Ir\nfn=m\n0xffffffffffffffff 1\n",
		"events: Ir\nfn=m\n5 1\n-5 1\n*\n+0 0\n",
		"events: Ir\n1 1\nfn=m\n1 1\n",
		/* errors, at the same line */
		"events: Ir\nfn=m\n5 1\n-6 1\n",
		"positions: instr line\nevents: Ir\nfn=m\n1 1 1\n+1 -2 1\n",
		"events: Ir\nfn=m\n1 1\n1 18446744073709551616\n",
		"events: Ir\nfn=m\n1 000000000000000000001\n",
		"positions: instr\nevents: Ir\nfn=m\n"
		"0xffffffffffffffff 1\n+1 1\n",
		"positions: instr\nevents: Ir\nfn=m\n0x10000000000000000 1\n",
		"events: Ir\nfn=m\n1 1 2\n",
		"events: Ir\nfn=m\n1 1x\n",
		/* one digit, then what the hex test looks at */
		"events: Ir\nfn=m\n1 0x\n",
		"events: Ir\nfn=m\n1 0xg\n",
		"events: Ir\nfn=m\n0x 1\n",
		"events: Ir\nfn=m\n1 0X\n",
		"events: Ir\nfn=m\n1 10x1\n",
		"events: Ir\nfn=m\n1 1xa\n",
		"events: Ir\nfn=m\n1 0x0\n+1 0xffffffffffffffff\n",
		"events: Ir\nfn=m\n1 0x00000000000000001\n",
		/* 19 digits (the fast path's) and 20 (the general path's) */
		"events: Ir\nfn=m\n1 1000000000000000000\n"
		"2 10000000000000000000\n",
		/* gaps: one space, two, a space and a tab, one before "\n" */
		"events: A B\nfn=m\n1 2 3\n1  2  3\n1 \t2\t 3\n1 2 \n",
		"events: Ir\nfn=m\n1x 1\n",
		"events: Ir\nfn=m\n* 1\n+ 1\n",
		"events: Ir\nfn=m\n1 -1\n",
		"events: Ir\nfn=m\n1 18446744073709551615\n1 1\n",
		"events: Ir\nfn=m\ncfn=f\ncalls=1 1\n1 5\n1 1\n",
		"events: Ir\nfn=m\ncfn=f\ncalls=1 1\nfn=g\n",
		"1 1\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		both_paths(texts[i]);
}

/* Jump, call and name-reference lines: the forms the fast path takes
 * and the ones it leaves, each read as the general path reads it. */
static void test_spec_lines(void **state)
{
	static const char *const head =
		"positions: instr line\nevents: Ir\nfl=(1) a.c\nfn=(1) m\n"
		"0x100 10 1\n";
	static const char *const bodies[] = {
		/* valgrind's forms */
		"jcnd=3/5 +4 11\n* * 2\njump=2 -8 9\n+2 * 1\n"
		"cob=(1) lib.so\ncfi=(2) b.c\ncfn=(2) f\ncalls=2 0x900 7\n"
		"* * 30\ncob=(1)\ncfi=(2)\ncfn=(2)\ncalls=1 +0x10 -2\n"
		"+1 * 4\nfn=(2)\n0x900 7 1\nfn=(1)\n0x104 * 1\n",
		/* targets left out, '*' targets, absolute, hex counts */
		"jcnd=1/1\n* * 1\njump=0x10 * *\n+1 * 1\ncfn=(2) f\n"
		"calls=3\n* * 5\ncfn=(2)\ncalls=1 *\n* * 1\n",
		/* a jump and then no cost line: its source is the last one */
		"jump=4 +8 12\ncfn=(3) g\ncalls=1 0x200 3\n+1 * 9\n"
		"jcnd=1/2 +1 *\nfn=(4) h\n0x300 1 1\n",
		/* jumps followed by jumps and references */
		"cfn=(2) f\njump=1 +1 1\ncfn=(2)\ncalls=1 +1\n* * 1\n"
		"jcnd=1/2 +1 1\njump=3 +2 2\n+1 * 1\njump=1 +1 1\nfn=(1)\n",
		/* the general path's forms: spaces, "\r", other spellings */
		"jcnd=2 3 +4 11\n* * 1\njcnd= 1/2 +4 1\n* * 1\n"
		"jump=1 +4 1 \r\n* * 1\ncfn=(2) f\ncalls=1 +1 1 7\n* * 1\n"
		"cfn=( 2)\ncalls=1\n* * 1\ncfn=(2) \ncalls=1\n* * 1\n"
		"cfl=(2)\ncfn=(2)\ncalls=1 +1 1\n* * 1\nfi=(2)\nfe=(1)\n"
		"+1 * 1\njfi=(2)\njfn=(1)\njump=1 0x100 10\n* * 1\n",
		/* ids: a huge one, one with 20 digits, one not defined */
		"cfn=(1099511627776) far\ncalls=1 0x100\n* * 1\n"
		"cfn=(1099511627776)\ncalls=1 0x100\n* * 1\n",
		"cfn=(00000000000000000002)\n",
		"cfn=(7)\ncalls=1 +1\n* * 1\n",
		/* errors and warnings, at the same line */
		"jcnd=1/2 -0x200 1\n* * 1\n",
		"jump=1 +18446744073709551615 1\n",
		"jcnd=1/x +1 1\n",
		"jcnd=18446744073709551616/1\n",
		"jump=99999999999999999999 +1\n",
		"calls=1 +1 1\n* * 1\n",
		"cfn=(2) f\ncalls=1 +1 1\ncfn=(2)\n",
		"cfn=(2) f\ncalls=1 +1 1\njump=1 +1 1\n",
		"cfn=(2) f\ncalls=1 +1 1\n\n# c\n* * 3\n",
		"cfn=(2) f\ncalls=x\n",
		"cfn=(2\n",
		"cfn=(2)x\n",
		"frob=(2)\n+1 * 1\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		size_t n = strlen(head) + strlen(bodies[i]) + 1;
		char *text = malloc(n);

		snprintf(text, n, "%s%s", head, bodies[i]);
		both_paths(text);
		free(text);
	}
	/* with one position, and with none */
	both_paths("positions: line\nevents: Ir\nfn=m\n5 1\njcnd=1/2 +3\n"
		   "* 1\ncfn=f\ncalls=2 -1\n+1 4\njump=1 *\n+1 1\n");
	both_paths("positions:\nevents: Ir\nfn=m\n1\njcnd=1/2\n2\ncfn=f\n"
		   "calls=2\n4\njump=1\n1\n");
}

/* A long pseudo-random profile: every subposition form, several
 * functions and calls, numbers of every length up to 14 digits (5000
 * of them add up to less than 2^64). */
static void test_cost_lines_random(void **state)
{
	size_t cap = (size_t)1 << 20, n = 0;
	char *text = malloc(cap);
	uint64_t x = 88172645463325252ULL;

	(void)state;
	n += (size_t)snprintf(text + n, cap - n,
			      "positions: instr line\nevents: Ir Dr Dw\n");
	for (int i = 0; i < 5000; i++) {
		uint64_t r;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r = x;
		if (r % 50 == 0)
			n += (size_t)snprintf(text + n, cap - n, "fn=(%u) f%u\n",
					      (unsigned)(r >> 8) % 40,
					      (unsigned)(r >> 8) % 40);
		else if (r % 50 == 1)
			n += (size_t)snprintf(text + n, cap - n,
					      "cfn=(%u) f%u\ncalls=%u +3 *\n",
					      (unsigned)(r >> 8) % 40,
					      (unsigned)(r >> 8) % 40,
					      (unsigned)(r >> 20) % 9 + 1);
		switch ((r >> 4) % 4) {
		case 0:
			n += (size_t)snprintf(text + n, cap - n, "0x%llx ",
					      (unsigned long long)(r >> 40));
			break;
		case 1:
			n += (size_t)snprintf(text + n, cap - n, "+%u ",
					      (unsigned)(r >> 50));
			break;
		case 2:
			n += (size_t)snprintf(text + n, cap - n, "* ");
			break;
		default:
			n += (size_t)snprintf(text + n, cap - n, "%u ",
					      (unsigned)(r >> 45));
		}
		n += (size_t)snprintf(text + n, cap - n, "%s %llu %llu\n",
				      (r >> 6) % 2 ? "*" : "+1",
				      (unsigned long long)(r >> (r % 64)) % 100000000000000ULL,
				      (unsigned long long)(r % 1000));
	}
	both_paths(text);
	/* and it was read: a profile, not two equal errors */
	{
		struct res r;

		rd(&r, text);
		assert_int_equal(r.ret, 0);
		assert_true(r.p.nfuncs > 30 && r.p.ncalls > 30);
		rd_done(&r);
	}
	free(text);
}

/* ---- compressed ids: by index below 2^20, hashed above ---- */

static void test_small_and_large_ids(void **state)
{
	struct res r;

	(void)state;
	rd(&r, "events: Ir\n"
	   "fn=(1048575) below\n1 1\n"
	   "fn=(1048576) at\n1 2\n"
	   "fn=(1099511627776) far\n1 3\n"
	   "fn=(0) zero\n1 4\n"
	   "fn=(1048575)\n1 10\n"
	   "fn=(1048576)\n1 20\n"
	   "fn=(1099511627776)\n1 30\n"
	   "fn=(0)\n1 40\n");
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	assert_int_equal(r.p.nfuncs, 4);
	assert_int_equal(profile_self(&r.p, find_func(&r.p, "below"))[0], 11);
	assert_int_equal(profile_self(&r.p, find_func(&r.p, "at"))[0], 22);
	assert_int_equal(profile_self(&r.p, find_func(&r.p, "far"))[0], 33);
	assert_int_equal(profile_self(&r.p, find_func(&r.p, "zero"))[0], 44);
	rd_done(&r);

	/* undefined: inside the array, past its end, in the map */
	static const char *const undefined[] = {
		"events: Ir\nfn=(5) a\nfn=(6)\n",
		"events: Ir\nfn=(5) a\nfn=(500000)\n",
		"events: Ir\nfn=(5) a\nfn=(5000000)\n",
	};
	for (size_t i = 0; i < 3; i++) {
		rd(&r, undefined[i]);
		assert_int_equal(r.ret, -1);
		assert_non_null(strstr(r.diag, "/profile:3: "));
		assert_non_null(strstr(r.diag, "which was never defined"));
		rd_done(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_blocks),
		cmocka_unit_test(test_cost_lines),
		cmocka_unit_test(test_spec_lines),
		cmocka_unit_test(test_cost_lines_random),
		cmocka_unit_test(test_small_and_large_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
