/*
 * The lexical pieces of the Callgrind format that the reader
 * (callgrind_*.c) shares with the thread that splits and tokenizes
 * its lines ahead of it (callgrind_split.c): both must take exactly the same
 * lines as fast cost lines.
 */
#ifndef CGA_CALLGRIND_LEX_H
#define CGA_CALLGRIND_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The hot path: every cost line goes through here several times. */
#define HOT static inline __attribute__((always_inline))

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* What a cost line starts with: a digit, '+', '-' or '*' (one load
 * for the test every line takes). */
static const bool cost_line_start[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['+'] = 1, ['-'] = 1,
	['*'] = 1,
};

static inline bool is_cost_start(char c)
{
	return cost_line_start[(unsigned char)c];
}

/* Hex digit values, -1 for anything else: one load per character. */
static const signed char hex_digit[256] = {
	['0'] = 0,  ['1'] = 1,  ['2'] = 2,  ['3'] = 3,  ['4'] = 4,
	['5'] = 5,  ['6'] = 6,  ['7'] = 7,  ['8'] = 8,  ['9'] = 9,
	['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13, ['e'] = 14, ['f'] = 15,
	['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15,
};

static inline int hexval(char c)
{
	unsigned char u = (unsigned char)c;

	/* the table's zeros are "not a digit" except for '0' itself */
	return hex_digit[u] || u == '0' ? hex_digit[u] : -1;
}

/* The hex Number after the "0x" at s, of at most 16 digits, or false. */
static inline bool fast_hex(const char **sp, uint64_t *out)
{
	const char *s = *sp + 2, *start = s;
	uint64_t v = 0;

	for (int h; (h = hexval(*s)) >= 0; s++)
		v = v << 4 | (uint64_t)h;
	if (s - start > 16)
		return false;
	*sp = s;
	*out = v;
	return true;
}

/*
 * A Number of at most 19 decimal or 16 hex digits (which always fit),
 * or false. Most numbers of an instruction-level profile are one digit
 * ("+3 * 1"): that case is settled after two loads.
 */
HOT bool fast_number(const char **sp, uint64_t *out)
{
	const char *s = *sp, *start = s;
	uint64_t v;
	unsigned d = (unsigned)(unsigned char)s[0] - '0';

	if (d > 9)
		return false;
	v = d;
	d = (unsigned)(unsigned char)s[1] - '0';
	if (d > 9) {
		/* c | 0x20 == 'x' holds for 'x' and 'X' alone; a space
		 * after the digit, the commonest, is not looked at again */
		if (s[1] != ' ' && (s[1] | 0x20) == 'x' && v == 0 &&
		    hexval(s[2]) >= 0)
			return fast_hex(sp, out);
		*sp = s + 1;
		*out = v;
		return true;
	}
	/* the line's "\n" stops the loop: no end to check */
	s++;
	do {
		v = v * 10 + d;
		s++;
	} while ((d = (unsigned)(unsigned char)*s - '0') <= 9);
	if (s - start > 19)
		return false;
	*sp = s;
	*out = v;
	return true;
}

/* Past the spaces after a number; NULL if something else follows it. */
HOT const char *fast_gap(const char *s)
{
	/* one space and the next number: the commonest by far */
	if (*s == ' ' && !is_space(s[1]))
		return s + 1;
	if (*s == '\n')
		return s;
	if (!is_space(*s))
		return NULL;
	while (is_space(*s))
		s++;
	return s;
}

/*
 * The keys of body lines ("key=value") the reader knows: positions and
 * their associations take a name, the rest counts and a target.
 */
enum callgrind_key {
	CALLGRIND_KEY_OB,
	CALLGRIND_KEY_FL,
	CALLGRIND_KEY_FI,
	CALLGRIND_KEY_FE,
	CALLGRIND_KEY_FN,
	CALLGRIND_KEY_COB,
	CALLGRIND_KEY_CFI,
	CALLGRIND_KEY_CFL,
	CALLGRIND_KEY_CFN,
	CALLGRIND_KEY_JFI,
	CALLGRIND_KEY_JFN,
	CALLGRIND_KEY_CALLS,
	CALLGRIND_KEY_JUMP,
	CALLGRIND_KEY_JCND,
	CALLGRIND_KEY_NONE = -1
};

static inline bool callgrind_key_takes_name(enum callgrind_key k)
{
	return k >= CALLGRIND_KEY_OB && k <= CALLGRIND_KEY_JFN;
}

/* The key of a body line from its klen letters, or CALLGRIND_KEY_NONE. */
static inline enum callgrind_key callgrind_spec_key(const char *k, size_t klen)
{
#define IS(word) (!memcmp(k, word, sizeof(word) - 1))
	switch (klen) {
	case 2:
		return IS("fn")	  ? CALLGRIND_KEY_FN
		       : IS("fi") ? CALLGRIND_KEY_FI
		       : IS("fe") ? CALLGRIND_KEY_FE
		       : IS("fl") ? CALLGRIND_KEY_FL
		       : IS("ob") ? CALLGRIND_KEY_OB
				  : CALLGRIND_KEY_NONE;
	case 3:
		return IS("cfn")   ? CALLGRIND_KEY_CFN
		       : IS("cfi") ? CALLGRIND_KEY_CFI
		       : IS("cob") ? CALLGRIND_KEY_COB
		       : IS("cfl") ? CALLGRIND_KEY_CFL
		       : IS("jfi") ? CALLGRIND_KEY_JFI
		       : IS("jfn") ? CALLGRIND_KEY_JFN
				   : CALLGRIND_KEY_NONE;
	case 4:
		return IS("jcnd")   ? CALLGRIND_KEY_JCND
		       : IS("jump") ? CALLGRIND_KEY_JUMP
				    : CALLGRIND_KEY_NONE;
	case 5:
		return IS("calls") ? CALLGRIND_KEY_CALLS : CALLGRIND_KEY_NONE;
	default:
		return CALLGRIND_KEY_NONE;
	}
#undef IS
}

/* The letters a key is made of (the reader's general path takes the
 * same: a line of them and "=" is a body line). */
static inline bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Shared by the header and body lines of the reader. */

static inline const char *skip_space(const char *s, const char *end)
{
	while (s < end && is_space(*s))
		s++;
	return s;
}

static inline size_t trim_len(const char *s, size_t len)
{
	while (len && (is_space(s[len - 1]) || s[len - 1] == '\r'))
		len--;
	return len;
}

enum num_result { NUM_OK = 0, NUM_NONE = -1, NUM_OVERFLOW = -2 };

/*
 * A Number of the grammar at *sp: decimal digits, or "0x" and hex
 * digits. Advances *sp past it. The number must end at a space, tab or
 * end of line; "9a" is not a number.
 */
HOT enum num_result parse_number(const char **sp, const char *end,
				 uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;

	if (s >= end || !is_digit(*s))
		return NUM_NONE;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    hexval(s[2]) >= 0) {
		s += 2;
		for (int d; s < end && (d = hexval(*s)) >= 0; s++) {
			if (v >> 60)
				return NUM_OVERFLOW;
			v = v << 4 | (uint64_t)d;
		}
	} else {
		/* 19 digits always fit in 64 bits: check only past them */
		const char *fast_end = end - s > 19 ? s + 19 : end;

		for (; s < fast_end && is_digit(*s); s++)
			v = v * 10 + (unsigned)(*s - '0');
		for (; s < end && is_digit(*s); s++) {
			unsigned d = (unsigned)(*s - '0');

			if (v > (UINT64_MAX - d) / 10)
				return NUM_OVERFLOW;
			v = v * 10 + d;
		}
	}
	if (s < end && !is_space(*s))
		return NUM_NONE;
	*sp = s;
	*out = v;
	return NUM_OK;
}

#endif
