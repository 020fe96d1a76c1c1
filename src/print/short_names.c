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
#include "linebuf.h"

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
 * the text, which settles all but equal texts without making them again
 * (a big program's report sorted a million labels by text, 8% of its
 * run); only which labels are equal is used, never the order. Within a
 * run of one hash's upper half (by_upper_half()), by the whole hash. */
static int cmp_hashes(const void *x, const void *y, void *arg)
{
	const uint64_t *hash = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	if (hash[a] != hash[b])
		return hash[a] < hash[b] ? -1 : 1;
	return (a > b) - (a < b);
}

/* A node and the upper half of its label's hash. */
struct upper {
	uint32_t half, node;
};

/*
 * v[0..k) in the order of their halves (tmp: room for k more; the
 * result is one of the two), by two passes of 16 bits, least
 * significant first: each reads and writes every pair once, where
 * qsort_r() of the nodes, comparing through the hash array, was 3.5% of
 * a big program's report (674,580 labels, sorted again each round). A
 * pass whose digit is one for every pair is skipped.
 */
static struct upper *by_upper_half(struct upper *v, struct upper *tmp,
				   size_t k, size_t *count)
{
	for (int shift = 0; shift < 32; shift += 16) {
		size_t sum = 0;
		bool one = false;

		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < k; i++)
			count[v[i].half >> shift & 0xffff]++;
		for (size_t d = 0; d < 65536; d++) {
			size_t c = count[d];

			one |= c == k;
			count[d] = sum;
			sum += c;
		}
		if (one)
			continue;
		for (size_t i = 0; i < k; i++)
			tmp[count[v[i].half >> shift & 0xffff]++] = v[i];
		{
			struct upper *t = v;

			v = tmp;
			tmp = t;
		}
	}
	return v;
}

struct levels {
	uint8_t *level;
	uint64_t *hash;		/* by node: of its label at its level */
	int max_level;
	void (*text)(void *ctx, uint32_t n, int level, struct linebuf *lb);
	void *ctx;
	struct linebuf a, b;
	bool changed;
};

/* Node n's label into lb (emptied first); its length as a C string. */
static size_t label_text(struct levels *lv, uint32_t n, struct linebuf *lb)
{
	lb->len = 0;
	lv->text(lv->ctx, n, lv->level[n], lb);
	return lb->len ? strnlen(lb->s, lb->len) : 0;
}

static void label_hash(struct levels *lv, uint32_t n)
{
	size_t len = label_text(lv, n, &lv->a);

	lv->hash[n] = hash_bytes(len ? lv->a.s : "", len);
}

/* Nodes whose labels are alike go up a level. */
static void go_up(struct levels *lv, const uint32_t *nodes, size_t r)
{
	for (size_t m = 0; m < r; m++) {
		uint32_t n = nodes[m];

		if (lv->level[n] >= lv->max_level)
			continue;
		lv->level[n]++;
		label_hash(lv, n);
		lv->changed = true;
	}
}

static int cmp_texts(const void *x, const void *y)
{
	const char *const *a = x, *const *b = y;
	int r = strcmp(a[0], b[0]);

	return r ? r : (a[1] > b[1]) - (a[1] < b[1]);
}

/* r > 1 nodes of one hash whose labels are not all alike (64 bits that
 * collide: it may never happen): their texts made, sorted, and those
 * alike go up. */
static void split_run(struct levels *lv, const uint32_t *nodes, size_t r)
{
	/* (text, node as a pointer-sized number) pairs */
	const char **pair = xcalloc(2 * r, sizeof(*pair));
	uint32_t *alike = xcalloc(r, sizeof(*alike));

	for (size_t m = 0; m < r; m++) {
		size_t len = label_text(lv, nodes[m], &lv->a);
		char *s = xmalloc(len + 1);

		memcpy(s, lv->a.s ? lv->a.s : "", len);
		s[len] = '\0';
		pair[2 * m] = s;
		pair[2 * m + 1] = (const char *)(uintptr_t)nodes[m];
	}
	qsort(pair, r, 2 * sizeof(*pair), cmp_texts);
	for (size_t m = 0; m < r;) {
		size_t j = m + 1;

		while (j < r && !strcmp(pair[2 * m], pair[2 * j]))
			j++;
		for (size_t q = m; q < j; q++)
			alike[q - m] = (uint32_t)(uintptr_t)pair[2 * q + 1];
		if (j - m > 1)
			go_up(lv, alike, j - m);
		m = j;
	}
	for (size_t m = 0; m < r; m++)
		free((char *)pair[2 * m]);
	free(pair);
	free(alike);
}

/* r > 1 nodes of one hash: alike (nearly always) or not. */
static void settle_run(struct levels *lv, const uint32_t *nodes, size_t r)
{
	size_t len = label_text(lv, nodes[0], &lv->a);

	for (size_t m = 1; m < r; m++) {
		size_t lm = label_text(lv, nodes[m], &lv->b);

		if (lm != len || (len && memcmp(lv->a.s, lv->b.s, len))) {
			split_run(lv, nodes, r);
			return;
		}
	}
	go_up(lv, nodes, r);
}

/*
 * Labels whose texts collide go up a level together, until none do or
 * they reach max_level (--dot's last level has the function's id, which
 * no other label ends with, so it stops there). A round compares each
 * label with the first of its hash, made again: two texts at a time
 * are all it holds.
 */
void unique_short_levels(uint8_t *level, const uint32_t *nodes, size_t k,
			 int max_level,
			 void (*text)(void *ctx, uint32_t n, int level,
				      struct linebuf *lb),
			 void *ctx, size_t nnodes)
{
	uint32_t *sorted = xcalloc(k + 1, sizeof(*sorted));
	struct upper *a = xcalloc(k + 1, sizeof(*a));
	struct upper *b = xcalloc(k + 1, sizeof(*b));
	size_t *count = xcalloc(65536, sizeof(*count));
	struct levels lv = { level, xcalloc(nnodes + 1, sizeof(uint64_t)),
			     max_level, text, ctx, { 0 }, { 0 }, true };

	for (size_t i = 0; i < k; i++) {
		level[nodes[i]] = 0;
		label_hash(&lv, nodes[i]);
	}
	while (lv.changed) {
		const struct upper *v;

		lv.changed = false;
		for (size_t i = 0; i < k; i++)
			a[i] = (struct upper){ (uint32_t)(lv.hash[nodes[i]] >> 32),
					       nodes[i] };
		v = by_upper_half(a, b, k, count);
		for (size_t h = 0; h < k;) {
			size_t e = h + 1, r;

			while (e < k && v[e].half == v[h].half)
				e++;
			if (e - h == 1) {	/* most: a hash of its own */
				h = e;
				continue;
			}
			/* a run of one upper half: by the whole hash */
			for (r = 0; r < e - h; r++)
				sorted[r] = v[h + r].node;
			qsort_r(sorted, r, sizeof(*sorted), cmp_hashes,
				lv.hash);
			for (size_t i = 0; i < r;) {
				size_t j = i + 1;

				while (j < r &&
				       lv.hash[sorted[j]] == lv.hash[sorted[i]])
					j++;
				if (j - i > 1)
					settle_run(&lv, sorted + i, j - i);
				i = j;
			}
			h = e;
		}
	}
	free(lv.a.s);
	free(lv.b.s);
	free(lv.hash);
	free(sorted);
	free(a);
	free(b);
	free(count);
}

struct make_ctx {
	char *(*make)(void *ctx, uint32_t n, int level);
	void *ctx;
};

static void made_text(void *ctx, uint32_t n, int level, struct linebuf *lb)
{
	struct make_ctx *mc = ctx;
	char *s = mc->make(mc->ctx, n, level);

	lb_puts(lb, s);
	free(s);
}

void unique_short_labels(char **label, const uint32_t *nodes, size_t k,
			 int max_level,
			 char *(*make)(void *ctx, uint32_t n, int level),
			 void *ctx, size_t nnodes)
{
	uint8_t *level = xcalloc(nnodes + 1, sizeof(*level));
	struct make_ctx mc = { make, ctx };

	unique_short_levels(level, nodes, k, max_level, made_text, &mc,
			    nnodes);
	for (size_t i = 0; i < k; i++)
		label[nodes[i]] = make(ctx, nodes[i], level[nodes[i]]);
	free(level);
}
