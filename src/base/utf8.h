#ifndef CGA_UTF8_H
#define CGA_UTF8_H

#include <stddef.h>

/*
 * Whether s[i..len) starts a UTF-8 sequence of more than one byte that
 * a strict parser takes: its length, else 0 (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF). For the listings that
 * pass such sequences through and escape every other byte: JSON's
 * strings, Graphviz's labels.
 */
static inline size_t utf8_seq_len(const unsigned char *s, size_t i,
				  size_t len)
{
	unsigned char c = s[i];
	size_t need = c >= 0xf0 && c <= 0xf4 ? 3
		    : c >= 0xe0 && c < 0xf0 ? 2
		    : c >= 0xc2 && c < 0xe0 ? 1 : 0;

	if (!need || i + need >= len)
		return 0;
	for (size_t k = 1; k <= need; k++)
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] > 0x9f) ||
	    (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] > 0x8f))
		return 0;
	return need + 1;
}

#endif
