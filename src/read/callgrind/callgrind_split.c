/*
 * The Callgrind reader's splitting thread (see callgrind_split.h):
 * reading, decompressing, splitting into lines and tokenizing them a
 * block ahead of the reader.
 */
#include "callgrind_split.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/progress.h"
#include "base/xalloc.h"
#include "callgrind_lex.h"

/*
 * The numbers of the cost line at s into vals (room for
 * CALLGRIND_TOK_MAX_FIELDS), their kinds into *tags. Returns the next line, or
 * NULL when the line is not one the fast path reads.
 */
HOT const char *tokenize_cost_line(const char *s, uint64_t *vals,
				      uint32_t *tags, uint8_t *nfields)
{
	unsigned n = 0;
	uint32_t t = 0;

	while (*s != '\n') {
		enum callgrind_field f = CALLGRIND_FIELD_ABS;
		uint64_t v = 0;

		if (n == CALLGRIND_TOK_MAX_FIELDS)
			return NULL;
		if (*s == '*') {
			s++;
			f = CALLGRIND_FIELD_STAR;
		} else {
			if (*s == '+' || *s == '-')
				f = *s++ == '+' ? CALLGRIND_FIELD_PLUS
						: CALLGRIND_FIELD_MINUS;
			if (!fast_number(&s, &v))
				return NULL;
		}
		vals[n] = v;
		t |= (uint32_t)f << (2 * n);
		n++;
		if (!(s = fast_gap(s)))
			return NULL;
	}
	*tags = t;
	*nfields = (uint8_t)n;
	return s + 1;
}

/*
 * The value of a name line at v ("(12) main", "(12)", "main"), read
 * as parse_name() in callgrind_body.c reads it, into t and vals (room
 * for 3). Returns the next line, or NULL for the general path (an id
 * too large, no ')'): what it says there depends on nothing else.
 */
static const char *tokenize_name(struct callgrind_tok *t, uint64_t *vals,
				 const char *text, const char *v,
				 const char *text_end)
{
	const char *nl = memchr(v, '\n', (size_t)(text_end - v));
	const char *end = nl, *s;
	uint64_t id = 0;

	while (is_space(*v))
		v++;
	while (end > v && (is_space(end[-1]) || end[-1] == '\r'))
		end--;
	if (end - v < 2 || v[0] != '(' || !is_digit(v[1])) {
		t->form = CALLGRIND_NAME_PLAIN;
		vals[0] = (uint64_t)(v - text);
		vals[1] = (uint64_t)(end - v);
		return nl + 1;
	}
	for (s = v + 1; s < end && is_digit(*s); s++) {
		if (id > (UINT64_MAX - 9) / 10)
			return NULL;
		id = id * 10 + (uint64_t)(*s - '0');
	}
	if (s == end || *s != ')')
		return NULL;
	for (s++; s < end && is_space(*s); s++)
		;
	vals[0] = id;
	if (s == end) {
		t->form = CALLGRIND_NAME_REF;
		return nl + 1;
	}
	t->form = CALLGRIND_NAME_DEF;
	vals[1] = (uint64_t)(s - text);
	vals[2] = (uint64_t)(end - s);
	return nl + 1;
}

/*
 * The value of a calls=, jump= or jcnd= line at s, as valgrind writes
 * it ("1 0x3df40 30", "1/2 +4 0"), into t and vals (room for 2 +
 * CALLGRIND_TOK_MAX_FIELDS). Returns the next line, or NULL for the general
 * path: anything else, spaces before the count or a '/' out of place
 * included.
 */
static const char *tokenize_counts(struct callgrind_tok *t, uint64_t *vals,
				   const char *s)
{
	uint64_t a, b;

	if (!fast_number(&s, &a))
		return NULL;
	vals[0] = a;
	if (t->key == CALLGRIND_KEY_JCND) {
		/* "followed/executed" (valgrind) or "executed followed" */
		if (*s == '/') {
			s++;
			if (!fast_number(&s, &b))
				return NULL;
			vals[0] = b;
			vals[1] = a;
		} else {
			if (!(s = fast_gap(s)) || !fast_number(&s, &b))
				return NULL;
			vals[1] = b;
		}
	}
	if (!(s = fast_gap(s)))
		return NULL;
	return tokenize_cost_line(s, vals + callgrind_tok_ncounts(t->key),
				  &t->tags, &t->nfields);
}

/* A body line "key=value" at s into t; NULL for the general path. */
static const char *tokenize_spec_line(struct callgrind_block *b,
				      struct callgrind_tok *t, const char *s,
				      const char *end)
{
	const char *k = s;
	enum callgrind_key key;

	while (is_key_char(*s))
		s++;
	if (*s != '=' || (key = callgrind_spec_key(k, (size_t)(s - k))) ==
				 CALLGRIND_KEY_NONE)
		return NULL;
	t->key = (uint8_t)key;
	if (callgrind_key_takes_name(key)) {
		t->kind = CALLGRIND_TOK_NAME;
		s = tokenize_name(t, b->vals + b->nvals, b->text, s + 1,
				  end);
		if (s)
			b->nvals += t->form == CALLGRIND_NAME_DEF ? 3 : 2;
		return s;
	}
	t->kind = CALLGRIND_TOK_COUNTS;
	s = tokenize_counts(t, b->vals + b->nvals, s + 1);
	if (s)
		b->nvals += callgrind_tok_ncounts(key) + t->nfields;
	return s;
}

void callgrind_split_tokenize(struct callgrind_block *b, const char *data,
			      size_t len)
{
	const char *s, *end;

	if (b->len + len > b->cap) {
		b->cap = b->len + len;
		b->text = xreallocarray(b->text, b->cap, 1);
	}
	memcpy(b->text + b->len, data, len);
	s = b->text + b->len;
	b->len += len;
	end = b->text + b->len;
	while (s < end) {
		struct callgrind_tok *t;
		const char *next = NULL;
		char c = *s;

		ARRAY_GROW(b->toks, b->ntoks + 1, b->toks_alloc);
		ARRAY_GROW(b->vals, b->nvals + 2 + CALLGRIND_TOK_MAX_FIELDS,
			   b->vals_alloc);
		t = &b->toks[b->ntoks++];
		t->off = (uint32_t)(s - b->text);
		t->first = (uint32_t)b->nvals;
		if (is_cost_start(c)) {
			t->kind = CALLGRIND_TOK_COST;
			next = tokenize_cost_line(s, b->vals + b->nvals,
						  &t->tags, &t->nfields);
			if (next)
				b->nvals += t->nfields;
		} else if (c >= 'a' && c <= 'z') {
			next = tokenize_spec_line(b, t, s, end);
		}
		if (next) {
			s = next;
			continue;
		}
		t->kind = c == '\n' || c == '#' ? CALLGRIND_TOK_NOTHING
						: CALLGRIND_TOK_TEXT;
		s = (const char *)memchr(s, '\n', (size_t)(end - s)) + 1;
	}
}

/* The thread: fill the blocks in turn until the input ends or fails,
 * or the reader says stop. */
static void *split_lines(void *arg)
{
	struct callgrind_split *sp = arg;
	struct line_reader *lr = sp->lr;
	uint64_t lines = 0;
	unsigned i = 0;

	diag_set_thread_sink(sp->msgs);
	for (;;) {
		struct callgrind_block *b = &sp->block[i];
		char *data;
		size_t len;
		int r;

		pthread_mutex_lock(&sp->lock);
		while (b->full && !sp->stop)
			pthread_cond_wait(&sp->cond, &sp->lock);
		r = sp->stop;
		pthread_mutex_unlock(&sp->lock);
		if (r)
			break;
		/* the line reader's blocks are a quarter of a megabyte:
		 * gather a few, for fewer handoffs; but the first alone,
		 * which the reader waits for with nothing else to do */
		b->len = b->ntoks = b->nvals = 0;
		do {
			/* the reader counts its lines: a line too long
			 * is named by its number */
			lr->lineno = lines + b->ntoks;
			r = line_reader_lines(lr, &data, &len);
			if (r > 0)
				callgrind_split_tokenize(b, data, len);
		} while (r > 0 && lines && b->len < CALLGRIND_BLOCK_BYTES);
		lines += b->ntoks;
		b->status = r;
		b->progress = line_reader_progress(lr);
		if (r < 0) {
			fflush(sp->msgs);
			b->msg = xstrndup(sp->msg_buf, sp->msg_len);
		}
		pthread_mutex_lock(&sp->lock);
		b->full = true;
		pthread_cond_broadcast(&sp->cond);
		pthread_mutex_unlock(&sp->lock);
		if (r <= 0)
			break;
		i ^= 1;
	}
	diag_set_thread_sink(NULL);
	return NULL;
}

int callgrind_split_start(struct callgrind_split *sp, struct line_reader *lr)
{
	int r;

	memset(sp, 0, sizeof(*sp));
	sp->lr = lr;
	sp->msgs = open_memstream(&sp->msg_buf, &sp->msg_len);
	if (!sp->msgs)
		return error_errno("%s: cannot start the reading thread",
				   lr->path);
	pthread_mutex_init(&sp->lock, NULL);
	pthread_cond_init(&sp->cond, NULL);
	lr->progress_by_caller = true;
	r = pthread_create(&sp->thread, NULL, split_lines, sp);
	if (r) {
		errno = r;
		lr->progress_by_caller = false;
		pthread_mutex_destroy(&sp->lock);
		pthread_cond_destroy(&sp->cond);
		fclose(sp->msgs);
		free(sp->msg_buf);
		return error_errno("%s: cannot start the reading thread",
				   lr->path);
	}
	return 0;
}

struct callgrind_block *callgrind_split_next(struct callgrind_split *sp)
{
	struct callgrind_block *b = &sp->block[sp->next];

	pthread_mutex_lock(&sp->lock);
	if (sp->held) {
		sp->held->full = false;
		sp->held = NULL;
		pthread_cond_broadcast(&sp->cond);
	}
	while (!b->full)
		pthread_cond_wait(&sp->cond, &sp->lock);
	pthread_mutex_unlock(&sp->lock);
	sp->held = b;
	sp->next ^= 1;
	progress_update(b->progress);
	return b;
}

int callgrind_split_end(const struct callgrind_block *b)
{
	if (b->status < 0) {
		FILE *out = diag_sink();

		progress_clear();
		fputs(b->msg, out);
		fflush(out);
	}
	return b->status;
}

void callgrind_split_stop(struct callgrind_split *sp)
{
	pthread_mutex_lock(&sp->lock);
	sp->stop = true;
	pthread_cond_broadcast(&sp->cond);
	pthread_mutex_unlock(&sp->lock);
	pthread_join(sp->thread, NULL);
	pthread_mutex_destroy(&sp->lock);
	pthread_cond_destroy(&sp->cond);
	for (int i = 0; i < 2; i++) {
		free(sp->block[i].text);
		free(sp->block[i].toks);
		free(sp->block[i].vals);
		free(sp->block[i].msg);
	}
	fclose(sp->msgs);
	free(sp->msg_buf);
	sp->lr->progress_by_caller = false;
}
