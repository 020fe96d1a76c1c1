/*
 * Long C++ names shortened (short_names.h): template argument and
 * parameter lists replaced by "<...>" and "(...)", brackets matched with
 * operator<, operator() and the like told apart from them.
 */
#include "short_names.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"

/* "operator<", "operator()" ...: the symbol after "operator" at s[i],
 * whose brackets are no template or parameter list. Its length, or 0. */
static size_t operator_token(const char *s, size_t i, size_t len)
{
	static const char *const tokens[] = {
		"<<=", ">>=", "<=>", "->*", "<<", ">>", "<=", ">=", "->",
		"()", "[]", "<", ">",
	};
	size_t k;

	if (i < 8 || memcmp(s + i - 8, "operator", 8) ||
	    (i > 8 && (s[i - 9] == '_' || (s[i - 9] >= 'a' && s[i - 9] <= 'z') ||
		       (s[i - 9] >= 'A' && s[i - 9] <= 'Z') ||
		       (s[i - 9] >= '0' && s[i - 9] <= '9'))))
		return 0;
	for (k = 0; k < sizeof(tokens) / sizeof(tokens[0]); k++) {
		size_t n = strlen(tokens[k]);

		if (i + n <= len && !memcmp(s + i, tokens[k], n))
			return n;
	}
	return 0;
}

/* Where the bracket group opened at s[i] closes (the index of its '>' or
 * ')'), or len when it does not: then the name is not one we understand
 * and is shown whole. */
static size_t group_end(const char *s, size_t i, size_t len)
{
	size_t depth = 0;

	for (; i < len; i++) {
		size_t op = operator_token(s, i, len);

		if (op) {
			i += op - 1;
		} else if (s[i] == '<' || s[i] == '(') {
			depth++;
		} else if (s[i] == '>' || s[i] == ')') {
			if (!depth)
				return len;
			if (--depth == 0)
				return i;
		}
	}
	return len;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * name (len bytes) shortened at `level` into buf (len + 1 bytes; the
 * result is never longer): parameter lists become "(...)", and template
 * arguments "<...>" from the outermost (SHORT_TEMPLATES) or from those
 * inside another's (SHORT_NESTED) on. "(anonymous namespace)" and
 * "(below main)" are no parameter lists: those follow a name, a
 * template or an operator. A name whose brackets do not pair up is
 * shown whole.
 */
size_t shorten_name(const char *name, size_t len, int level, char *buf)
{
	size_t n = 0, depth = 0;	/* template arguments kept open */
	bool after_op = false;		/* an operator's symbol just copied */

	if (level >= SHORT_NONE || len <= SHORT_NAME) {
		memcpy(buf, name, len);
		return len;
	}
	for (size_t i = 0; i < len; i++) {
		size_t op = operator_token(name, i, len), end;
		char c = name[i];
		bool params, templ;

		if (op) {
			memcpy(buf + n, name + i, op);
			n += op;
			i += op - 1;
			after_op = true;
			continue;
		}
		templ = c == '<' && level < SHORT_PARAMS &&
			depth >= (size_t)(level == SHORT_TEMPLATES ? 0 : 1);
		params = c == '(' && n > 0 &&
			 (after_op || ident_char(buf[n - 1]) ||
			  buf[n - 1] == '>' || buf[n - 1] == ')' ||
			  buf[n - 1] == ']');
		after_op = false;
		if (!templ && !params) {
			if (c == '<')
				depth++;
			else if (c == '>' && depth)
				depth--;
			buf[n++] = c;
			continue;
		}
		end = group_end(name, i, len);
		if (end == len) {
			memcpy(buf, name, len);
			return len;
		}
		if (end - i - 1 <= 3) {	/* "<T>", "()": no shorter */
			memcpy(buf + n, name + i, end - i + 1);
			n += end - i + 1;
		} else {
			buf[n++] = c;
			memcpy(buf + n, "...", 3);
			n += 3;
			buf[n++] = name[end];
		}
		i = end;
	}
	return n;
}

/* Labels in an order that puts equal ones side by side: by a hash of
 * the text first, which settles all but equal texts without strcmp() (a
 * big program's report sorted a million labels by text, 8% of its
 * run); only which labels are equal is used, never the order. */
struct label_order {
	char **label;
	const uint64_t *hash;	/* by node */
};

static int cmp_labels(const void *x, const void *y, void *arg)
{
	const struct label_order *lo = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int r;

	if (lo->hash[a] != lo->hash[b])
		return lo->hash[a] < lo->hash[b] ? -1 : 1;
	r = strcmp(lo->label[a], lo->label[b]);
	return r ? r : (a < b ? -1 : a > b);
}

/*
 * Labels whose texts collide go up a level together, until none do or
 * they reach max_level (--dot's last level has the function's id, which
 * no other label ends with, so it stops there).
 */
void unique_short_labels(char **label, const uint32_t *nodes, size_t k,
			 int max_level,
			 char *(*make)(void *ctx, uint32_t n, int level),
			 void *ctx, size_t nnodes)
{
	int *level = xcalloc(nnodes + 1, sizeof(*level));
	uint32_t *sorted = xcalloc(k + 1, sizeof(*sorted));
	uint64_t *hash = xcalloc(nnodes + 1, sizeof(*hash));
	struct label_order lo = { label, hash };
	bool changed = true;

	for (size_t i = 0; i < k; i++)
		label[nodes[i]] = make(ctx, nodes[i], 0);
	while (changed) {
		changed = false;
		for (size_t i = 0; i < k; i++)
			hash[nodes[i]] = hash_bytes(label[nodes[i]],
						    strlen(label[nodes[i]]));
		memcpy(sorted, nodes, k * sizeof(*sorted));
		qsort_r(sorted, k, sizeof(*sorted), cmp_labels, &lo);
		for (size_t i = 0; i < k;) {
			size_t j = i + 1;

			while (j < k && !strcmp(label[sorted[i]], label[sorted[j]]))
				j++;
			for (size_t m = i; j - i > 1 && m < j; m++) {
				uint32_t n = sorted[m];

				if (level[n] >= max_level)
					continue;
				level[n]++;
				free(label[n]);
				label[n] = make(ctx, n, level[n]);
				changed = true;
			}
			i = j;
		}
	}
	free(sorted);
	free(hash);
	free(level);
}
