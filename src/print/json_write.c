/*
 * Writing JSON values: strings, names and cost arrays, for every
 * listing's JSON form. Calls nothing of the listings back.
 */
#include "json_write.h"

#include <stdbool.h>

void json_string(FILE *out, const char *s, size_t len)
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
			/* RFC 3629: no overlong forms, no surrogates, nothing
			 * past U+10FFFF; strict parsers refuse them */
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
