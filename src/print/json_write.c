/*
 * Writing JSON values: strings, names and cost arrays, for every
 * listing's JSON form. Calls nothing of the listings back.
 */
#include "json_write.h"

#include <stdbool.h>

#include "base/utf8.h"

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
			if (c < 0x80 || !(n = utf8_seq_len(u, i, len)))
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
