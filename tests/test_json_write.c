/*
 * json_write.h: a string's escapes, and json_string() writing runs of
 * plain bytes at once byte for byte as writing them one at a time did
 * (the reference below is that writer).
 */
#include "helpers.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/json_write.h"

/* The byte-at-a-time writer json_string() was: the reference. */
static void json_string_ref(FILE *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = u[i];

		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, out);
		} else {
			size_t need = c >= 0xf0 && c <= 0xf4 ? 3
				    : c >= 0xe0 && c < 0xf0 ? 2
				    : c >= 0xc2 && c < 0xe0 ? 1 : 0;
			bool valid = need && i + need < len;

			for (size_t k = 1; valid && k <= need; k++)
				if ((u[i + k] & 0xc0) != 0x80)
					valid = false;
			if (valid && ((c == 0xe0 && u[i + 1] < 0xa0) ||
				      (c == 0xed && u[i + 1] > 0x9f) ||
				      (c == 0xf0 && u[i + 1] < 0x90) ||
				      (c == 0xf4 && u[i + 1] > 0x8f)))
				valid = false;
			if (valid) {
				fwrite(u + i, 1, need + 1, out);
				i += need;
			} else {
				fprintf(out, "\\u%04x", c);
			}
		}
	}
	fputc('"', out);
}

/* What writer writes for s[0..len), in a malloc'd string. */
static char *written(void (*writer)(FILE *, const char *, size_t),
		     const char *s, size_t len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	writer(f, s, len);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* a literal and its length, NUL bytes and all */
#define S(lit) lit, sizeof(lit) - 1

static const struct {
	const char *in;
	size_t len;
	const char *want;
} cases[] = {
	{ S(""), "\"\"" },
	{ S("main"), "\"main\"" },
	{ S("a\"b\\c"), "\"a\\\"b\\\\c\"" },
	{ S("\""), "\"\\\"\"" },
	{ S("t\tn\nx\x1b[31m\x7f"), "\"t\\u0009n\\u000ax\\u001b[31m\\u007f\"" },
	{ S("wo\0rk"), "\"wo\\u0000rk\"" },
	{ S("caf\xc3\xa9"), "\"caf\xc3\xa9\"" },
	{ S("\xf0\x9f\x98\x80!"), "\"\xf0\x9f\x98\x80!\"" },
	/* cut short, overlong, a surrogate, past U+10FFFF, a lone
	 * continuation byte: each byte escaped */
	{ S("ab\xc3"), "\"ab\\u00c3\"" },
	{ S("\xc0\x80"), "\"\\u00c0\\u0080\"" },
	{ S("\xe0\x80\x80"), "\"\\u00e0\\u0080\\u0080\"" },
	{ S("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\"" },
	{ S("\xf4\x90\x80\x80"), "\"\\u00f4\\u0090\\u0080\\u0080\"" },
	{ S("\x80x"), "\"\\u0080x\"" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = written(json_string, cases[i].in, cases[i].len);
		char *ref = written(json_string_ref, cases[i].in,
				    cases[i].len);

		assert_string_equal(got, cases[i].want);
		assert_string_equal(ref, cases[i].want);
		free(got);
		free(ref);
	}
}

/* Random strings, most bytes plain, some of each kind that breaks a
 * run: byte for byte as the reference. */
static void test_random(void **state)
{
	static const unsigned char odd[] = {
		'"', '\\', 0, '\n', 0x1f, 0x7f, 0x80, 0xbf, 0xc2, 0xc3,
		0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x90,
	};
	unsigned long long seed = 42;
	char s[64];

	(void)state;
	for (int n = 0; n < 200000; n++) {
		size_t len;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		len = (size_t)(seed >> 58);
		for (size_t i = 0; i < len; i++) {
			unsigned r;

			seed = seed * 6364136223846793005ull +
			       1442695040888963407ull;
			r = (unsigned)(seed >> 40);
			s[i] = (char)(r % 3 ? 'a' + r % 26
					    : odd[(r >> 8) % sizeof(odd)]);
		}
		{
			char *got = written(json_string, s, len);
			char *ref = written(json_string_ref, s, len);

			assert_string_equal(got, ref);
			free(got);
			free(ref);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
