/*
 * Writing JSON values: strings, names and cost arrays, for every
 * listing's JSON form. Calls nothing of the listings back.
 */
#include "json_write.h"

#include <stdbool.h>

/*
 * Whether u[i..] starts a UTF-8 sequence a strict parser takes, of
 * more than one byte: its length, else 0. RFC 3629: no overlong forms,
 * no surrogates, nothing past U+10FFFF.
 */
static size_t utf8_len(const unsigned char *u, size_t i, size_t len)
{
	unsigned char c = u[i];
	size_t need = c >= 0xf0 && c <= 0xf4 ? 3
		    : c >= 0xe0 && c < 0xf0 ? 2
		    : c >= 0xc2 && c < 0xe0 ? 1 : 0;

	if (!need || i + need >= len)
		return 0;
	for (size_t k = 1; k <= need; k++)
		if ((u[i + k] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && u[i + 1] < 0xa0) || (c == 0xed && u[i + 1] > 0x9f) ||
	    (c == 0xf0 && u[i + 1] < 0x90) || (c == 0xf4 && u[i + 1] > 0x8f))
		return 0;
	return need + 1;
}

/* Written in runs of the bytes that need no escape, one fwrite() each
 * (a byte at a time was 14 ms of a big perf.data's --json). */
void json_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	fputc('"', out);
	while (i < len) {
		size_t run = i, n;
		unsigned char c;

		for (;;) {
			if (i == len)
				break;
			c = u[i];
			if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
				i++;
				continue;
			}
			if (c < 0x80 || !(n = utf8_len(u, i, len)))
				break;
			i += n;
		}
		if (i > run)
			fwrite(u + run, 1, i - run, out);
		if (i == len)
			break;
		c = u[i++];
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
		} else {
			/* a control character, DEL, or a byte of no valid
			 * UTF-8 sequence */
			fprintf(out, "\\u%04x", c);
		}
	}
	fputc('"', out);
}

void json_name(FILE *out, const struct profile *p, name_id id)
{
	if (id == NO_NAME)
		fputs("null", out);
	else
		json_string(out, profile_str(p, id), names_len(&p->names, id));
}

void json_row(FILE *out, const uint64_t *row, size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%llu", i ? ", " : "", (unsigned long long)row[i]);
	fputc(']', out);
}
