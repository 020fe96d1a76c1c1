/*
 * The line reader (plain, gzip, bzip2; line limits; peek) of src/read/
 * (line_reader.c, decompress.c).
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/mapped_files.h"
#include "read/line_reader.h"

/* decompress.c reads the file in blocks of this size (RAW_CHUNK there). */
#define RAW_CHUNK_SIZE ((size_t)256 << 10)

/* ---- helpers ---- */

struct lines {
	char **v;
	size_t *len;
	size_t n;
	int ret;		/* line_reader_next's last result: 0 or -1 */
	uint64_t lineno;	/* at the end */
	enum input_encoding encoding;
	char *diag;
};

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->len);
	free(l->diag);
	memset(l, 0, sizeof(*l));
}

/* Every line of the file at path; max_line 0 keeps the default limit. */
static void read_lines_path(const char *path, size_t max_line, struct lines *l)
{
	struct line_reader lr;
	size_t alloc = 0;
	char *line;
	size_t len;

	memset(l, 0, sizeof(*l));
	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, path), 0);
	if (max_line)
		line_reader_set_max_line(&lr, max_line);
	while ((l->ret = line_reader_next(&lr, &line, &len)) > 0) {
		if (l->n == alloc) {
			alloc = alloc * 2 + 16;
			l->v = realloc(l->v, alloc * sizeof(*l->v));
			l->len = realloc(l->len, alloc * sizeof(*l->len));
			assert_non_null(l->v);
			assert_non_null(l->len);
		}
		/* NUL-terminated in place, at len */
		assert_int_equal(line[len], '\0');
		l->v[l->n] = malloc(len + 1);
		assert_non_null(l->v[l->n]);
		memcpy(l->v[l->n], line, len + 1);
		l->len[l->n++] = len;
		assert_int_equal(lr.lineno, l->n);
	}
	l->lineno = lr.lineno;
	l->encoding = lr.encoding;
	/* after the end, the end again */
	if (l->ret == 0)
		assert_int_equal(line_reader_next(&lr, &line, &len), 0);
	line_reader_close(&lr);
	l->diag = diag_capture_end();
}

static char *read_lines(const void *data, size_t n, size_t max_line,
			struct lines *l)
{
	char *path = write_temp(data, n);

	read_lines_path(path, max_line, l);
	return path;
}

static void read_lines_tmp(const void *data, size_t n, size_t max_line,
			   struct lines *l)
{
	remove_temp(read_lines(data, n, max_line, l));
}

static void assert_lines(const struct lines *l, const char *const *want,
			 size_t n)
{
	if (l->ret != 0)
		fail_msg("read failed: %s", l->diag);
	assert_string_equal(l->diag, "");
	if (l->n != n)
		fail_msg("got %zu lines, expected %zu", l->n, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(l->v[i], want[i]);
		assert_int_equal(l->len[i], strlen(want[i]));
	}
}

/* ---- plain text ---- */

static const struct text_case {
	const char *text;
	const char *lines[6];
	size_t n;
} text_cases[] = {
	{ "", { NULL }, 0 },
	{ "\n", { "" }, 1 },
	{ "a\nbb\n\nccc\n", { "a", "bb", "", "ccc" }, 4 },
	{ "a\nlast", { "a", "last" }, 2 },		/* no final newline */
	{ "a\r\nb\r\n\r\nc", { "a", "b", "", "c" }, 4 },
	{ "a\rb\r\n", { "a\rb" }, 1 },			/* only "\r\n" is a line end */
	{ "last\r", { "last" }, 1 },
	{ "\n\n\n", { "", "", "" }, 3 },
	{ "  spaced \t\n", { "  spaced \t" }, 1 },
};

static void test_plain_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		const struct text_case *c = &text_cases[i];
		struct lines l;
		char *path = read_lines(c->text, strlen(c->text), 0, &l);
		struct line_reader lr;

		assert_lines(&l, c->lines, c->n);
		assert_int_equal(l.lineno, c->n);
		assert_int_equal(l.encoding, INPUT_PLAIN);
		lines_free(&l);

		/* size and progress count raw bytes */
		assert_int_equal(line_reader_open(&lr, path), 0);
		assert_int_equal(lr.file_size, strlen(c->text));
		line_reader_close(&lr);
		remove_temp(path);
	}
}

static void test_long_line(void **state)
{
	/* longer than the first 1 MiB buffer: the buffer grows */
	size_t n = (size_t)3 << 20;
	char *text = malloc(n + 16);
	struct lines l;

	(void)state;
	assert_non_null(text);
	memcpy(text, "first\n", 6);
	for (size_t i = 0; i < n; i++)
		text[6 + i] = (char)('a' + i % 26);
	memcpy(text + 6 + n, "\nend\n", 5);
	read_lines_tmp(text, n + 11, 0, &l);
	assert_int_equal(l.ret, 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "first");
	assert_int_equal(l.len[1], n);
	assert_memory_equal(l.v[1], text + 6, n);
	assert_string_equal(l.v[2], "end");
	lines_free(&l);
	free(text);
}

static const struct limit_case {
	size_t max, first_len;	/* line 1 is "ok", line 2 is first_len long */
	bool ok;
	const char *phrase;
} limit_cases[] = {
	/* limits under the first buffer's size */
	{ 100, 100, true, NULL },
	{ 100, 101, false, "line longer than 100 bytes" },
	{ 4096, 5000, false, "line longer than 4096 bytes" },
	/* limits that make the buffer stop growing */
	{ (size_t)1 << 20, (size_t)1 << 20, true, NULL },
	{ (size_t)1 << 20, ((size_t)1 << 20) + 1, false, "line longer than 1 MiB" },
	{ (size_t)2 << 20, (size_t)3 << 20, false, "line longer than 2 MiB" },
};

static void test_line_limit(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(limit_cases) / sizeof(limit_cases[0]); i++) {
		const struct limit_case *c = &limit_cases[i];
		size_t n = 3 + c->first_len + 5;
		char *text = malloc(n);
		struct lines l;

		assert_non_null(text);
		memcpy(text, "ok\n", 3);
		memset(text + 3, 'x', c->first_len);
		memcpy(text + 3 + c->first_len, "\nend\n", 5);
		read_lines_tmp(text, n, c->max, &l);
		if (c->ok) {
			assert_int_equal(l.ret, 0);
			assert_int_equal(l.n, 3);
			assert_int_equal(l.len[1], c->first_len);
		} else {
			assert_int_equal(l.ret, -1);
			/* the line before it was read, and the error names line 2 */
			assert_int_equal(l.n, 1);
			assert_non_null(strstr(l.diag, "/profile:2: "));
			if (!strstr(l.diag, c->phrase))
				fail_msg("limit %zu, line %zu: expected '%s' in: %s",
					 c->max, c->first_len, c->phrase, l.diag);
		}
		lines_free(&l);
		free(text);
	}
}

/* The last line, without a newline, is limited too. */
static void test_line_limit_last_line(void **state)
{
	char text[300];
	struct lines l;

	(void)state;
	memset(text, 'y', sizeof(text));
	read_lines_tmp(text, sizeof(text), 299, &l);
	assert_int_equal(l.ret, -1);
	assert_non_null(strstr(l.diag, "/profile:1: line longer than 299 bytes"));
	lines_free(&l);
	read_lines_tmp(text, sizeof(text), 300, &l);
	assert_int_equal(l.ret, 0);
	assert_int_equal(l.len[0], 300);
	lines_free(&l);
}

/* ---- compressed input ---- */

static const char sample[] = "# callgrind format\nevents: Ir\n\nfn=main\n16 20\nlast";
static const char *const sample_lines[] = {
	"# callgrind format", "events: Ir", "", "fn=main", "16 20", "last"
};

typedef unsigned char *(*compress_fn)(const void *, size_t, size_t *);

static const struct codec {
	const char *name;
	compress_fn compress;
	enum input_encoding encoding;
} codecs[] = {
	{ "gzip", gzip_bytes, INPUT_GZIP },
	{ "bzip2", bzip2_bytes, INPUT_BZIP2 },
};

static void test_compressed(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
		size_t n;
		unsigned char *z = codecs[i].compress(sample, strlen(sample), &n);
		struct lines l;

		read_lines_tmp(z, n, 0, &l);
		assert_lines(&l, sample_lines, 6);
		assert_int_equal(l.encoding, codecs[i].encoding);
		lines_free(&l);
		free(z);
	}
}

/* Concatenated members (`cat a.gz b.gz`, pbzip2) are one input; a line
 * may run across the boundary. */
static void test_compressed_concatenated(void **state)
{
	static const char *const want[] = { "a", "bc", "d" };

	(void)state;
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
		size_t n1, n2;
		unsigned char *z1 = codecs[i].compress("a\nb", 3, &n1);
		unsigned char *z2 = codecs[i].compress("c\nd\n", 4, &n2);
		unsigned char *both = malloc(n1 + n2);
		struct lines l;

		memcpy(both, z1, n1);
		memcpy(both + n1, z2, n2);
		read_lines_tmp(both, n1 + n2, 0, &l);
		if (l.ret != 0 || l.n != 3)
			fail_msg("%s: %d, %zu lines: %s", codecs[i].name, l.ret,
				 l.n, l.diag);
		assert_lines(&l, want, 3);
		lines_free(&l);
		free(both);
		free(z1);
		free(z2);
	}
}

/*
 * Many small members, so that one starts `back` bytes before the end of
 * the reader's first block: its magic number is split between two
 * reads. Member sizes a and a + 1 make any total reachable.
 */
static unsigned char *members_until(const struct codec *c, size_t at,
				    size_t *total, size_t *nlines)
{
	unsigned char *z[64] = { NULL };
	size_t zn[64] = { 0 };
	size_t small = 0, big = 0, n, nbig, pos = 0;
	unsigned char *out;

	/* lines of pseudo-random letters compress to sizes that grow by
	 * about a byte per letter: find two one byte apart */
	for (size_t len = 1; len < 64 && !big; len++) {
		char t[64];

		for (size_t k = 0; k + 1 < len; k++)
			t[k] = (char)('a' + (k * 7919 + len * 31) % 26);
		t[len - 1] = '\n';
		z[len] = c->compress(t, len, &zn[len]);
		for (size_t k = 1; k < len && !big; k++) {
			if (zn[k] + 1 == zn[len]) {
				small = k;
				big = len;
			} else if (zn[len] + 1 == zn[k]) {
				small = len;
				big = k;
			}
		}
	}
	assert_true(big != 0);
	n = at / zn[small];
	nbig = at - n * zn[small];
	assert_true(nbig <= n);
	out = malloc(at + zn[big]);
	assert_non_null(out);
	for (size_t k = 0; k < n; k++) {
		size_t m = k < nbig ? big : small;

		memcpy(out + pos, z[m], zn[m]);
		pos += zn[m];
	}
	assert_int_equal(pos, at);
	memcpy(out + pos, z[big], zn[big]);	/* the member that straddles */
	*total = pos + zn[big];
	*nlines = n + 1;
	for (size_t k = 0; k < 64; k++)
		free(z[k]);
	return out;
}

static void test_compressed_magic_across_reads(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
		for (size_t back = 1; back <= 4; back++) {
			size_t total, nlines;
			unsigned char *data = members_until(&codecs[i],
				RAW_CHUNK_SIZE - back, &total, &nlines);
			struct lines l;

			read_lines_tmp(data, total, 0, &l);
			if (l.ret != 0 || l.n != nlines)
				fail_msg("%s, member at block end - %zu: %d, %zu of %zu lines: %s",
					 codecs[i].name, back, l.ret, l.n,
					 nlines, l.diag);
			lines_free(&l);
			free(data);
		}
	}
}

static const struct damage_case {
	const char *codec;
	const char *what;	/* "truncate", "garbage", "corrupt" */
	const char *phrase;
} damage_cases[] = {
	{ "gzip", "truncate", "truncated gzip data" },
	{ "gzip", "garbage", "unexpected data after the end of the gzip stream" },
	{ "gzip", "corrupt", "corrupt gzip data" },
	{ "gzip", "header", "corrupt gzip data" },
	{ "bzip2", "truncate", "truncated bzip2 data" },
	{ "bzip2", "garbage", "unexpected data after the end of the bzip2 stream" },
	{ "bzip2", "corrupt", "corrupt bzip2 data" },
	{ "bzip2", "header", "corrupt bzip2 data" },
};

static void test_compressed_damage(void **state)
{
	char text[4000];

	(void)state;
	/* enough text that damage in the middle is in the compressed data */
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = i % 40 == 39 ? '\n' : (char)('a' + (i * 7) % 26);
	for (size_t i = 0; i < sizeof(damage_cases) / sizeof(damage_cases[0]); i++) {
		const struct damage_case *d = &damage_cases[i];
		const struct codec *c = &codecs[strcmp(d->codec, "gzip") ? 1 : 0];
		size_t n;
		unsigned char *z = c->compress(text, sizeof(text), &n);
		unsigned char *bad = malloc(n + 8);
		size_t bad_n = n;
		struct lines l;
		char *path;

		memcpy(bad, z, n);
		if (!strcmp(d->what, "truncate")) {
			bad_n = n - 5;
		} else if (!strcmp(d->what, "garbage")) {
			memcpy(bad + n, "garbage", 7);
			bad_n = n + 7;
		} else if (!strcmp(d->what, "corrupt")) {
			for (size_t k = n / 2; k < n / 2 + 8; k++)
				bad[k] ^= 0x55;
		} else {
			/* a bad method byte / a bad block magic right after
			 * the stream's magic number */
			bad[c->encoding == INPUT_GZIP ? 2 : 4] ^= 0xff;
		}
		path = read_lines(bad, bad_n, 0, &l);
		if (l.ret != -1 || !strstr(l.diag, d->phrase) || !strstr(l.diag, path))
			fail_msg("%s %s: %d, expected '%s' naming %s in: %s",
				 d->codec, d->what, l.ret, d->phrase, path, l.diag);
		assert_int_equal(l.encoding, c->encoding);
		/* the message is about the file, not one of its lines */
		assert_non_null(strstr(l.diag, ": offset 0x"));
		lines_free(&l);
		remove_temp(path);
		free(bad);
		free(z);
	}
}

/* Trailing data that does not start like a member at all (one byte). */
static void test_gzip_one_trailing_byte(void **state)
{
	size_t n;
	unsigned char *z = gzip_bytes("x\n", 2, &n);
	unsigned char *bad = malloc(n + 1);
	struct lines l;

	(void)state;
	memcpy(bad, z, n);
	bad[n] = '\n';
	read_lines_tmp(bad, n + 1, 0, &l);
	assert_int_equal(l.ret, -1);
	assert_non_null(strstr(l.diag, "unexpected data after the end of the gzip stream"));
	lines_free(&l);
	free(bad);
	free(z);
}

/* ---- peek ---- */

static void test_peek(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(sample);
		unsigned char *z = i ? codecs[i - 1].compress(sample, n, &n)
				     : (unsigned char *)strdup(sample);
		char *path = write_temp(z, n);
		struct line_reader lr;
		const char *data;
		char *line;
		size_t len;

		assert_int_equal(line_reader_open(&lr, path), 0);
		assert_int_equal(line_reader_peek(&lr, 5, &data), 5);
		assert_memory_equal(data, "# cal", 5);
		/* more than there is: all of it, still not consumed */
		assert_int_equal(line_reader_peek(&lr, 2047, &data),
				 (long)strlen(sample));
		assert_memory_equal(data, sample, strlen(sample));
		assert_int_equal(line_reader_next(&lr, &line, &len), 1);
		assert_string_equal(line, "# callgrind format");
		assert_int_equal(lr.lineno, 1);
		assert_int_equal(line_reader_next(&lr, &line, &len), 1);
		assert_string_equal(line, "events: Ir");
		/* progress counts raw (compressed) bytes: all were read */
		assert_int_equal(line_reader_progress(&lr), n);
		line_reader_close(&lr);
		remove_temp(path);
		free(z);
	}
}

static void test_peek_empty_and_errors(void **state)
{
	struct line_reader lr;
	const char *data;
	char *path = write_temp("", 0), *diag;
	char dir[64] = "/tmp/cga-test-XXXXXX";

	(void)state;
	assert_int_equal(line_reader_open(&lr, path), 0);
	assert_int_equal(line_reader_peek(&lr, 100, &data), 0);
	line_reader_close(&lr);
	remove_temp(path);

	assert_non_null(mkdtemp(dir));
	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, dir), -1);
	diag = diag_capture_end();
	assert_non_null(strstr(diag, "is a directory"));
	free(diag);
	strcat(dir, "/missing");
	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, dir), -1);
	diag = diag_capture_end();
	assert_non_null(strstr(diag, "cannot open"));
	assert_non_null(strstr(diag, dir));
	free(diag);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
}

/* ---- a file mapped whole ---- */

/* A file cut short after it was opened is not mapped: reading its
 * mapping past the new end would raise SIGBUS. Said with both sizes. */
static void test_map_shrunk(void **state)
{
	static const char text[8192] = "PERFILE2";
	struct line_reader lr;
	struct input_bytes b;
	char *path = write_temp(text, sizeof(text)), *diag;

	(void)state;
	assert_int_equal(line_reader_open(&lr, path), 0);
	assert_int_equal(truncate(path, 100), 0);
	assert_true(line_reader_shrank(&lr));
	diag_capture_begin();
	assert_int_equal(line_reader_bytes(&lr, 1 << 20, &b), -1);
	diag = diag_capture_end();
	assert_non_null(strstr(diag, path));
	assert_non_null(strstr(diag, "100 bytes, shorter than the 8192"));
	free(diag);
	line_reader_close(&lr);

	/* whole: mapped, and the mapping's file named for a bus error
	 * until it is released */
	assert_int_equal(truncate(path, 8192), 0);
	assert_int_equal(line_reader_open(&lr, path), 0);
	assert_false(line_reader_shrank(&lr));
	assert_int_equal(line_reader_bytes(&lr, 1 << 20, &b), 0);
	assert_true(b.mapped);
	assert_string_equal(mapped_files_path_at(b.data + 8191), path);
	assert_null(mapped_files_path_at(b.data + 8192));
	assert_null(mapped_files_path_at(b.data - 1));
	{
		const unsigned char *was = b.data;

		input_bytes_release(&b);
		assert_null(mapped_files_path_at(was));
	}
	line_reader_close(&lr);
	remove_temp(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_lines),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_line_limit_last_line),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_concatenated),
		cmocka_unit_test(test_compressed_magic_across_reads),
		cmocka_unit_test(test_compressed_damage),
		cmocka_unit_test(test_gzip_one_trailing_byte),
		cmocka_unit_test(test_peek),
		cmocka_unit_test(test_peek_empty_and_errors),
		cmocka_unit_test(test_map_shrunk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
