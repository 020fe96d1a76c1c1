/*
 * A listing's line built in memory, then written with one fwrite: the
 * call graph of a large profile is hundreds of thousands of lines of
 * padded columns, and building them this way (fmt.h for the numbers)
 * costs a fraction of what fprintf's format parsing and %f do. The
 * functions are named after the printf conversion they stand for.
 */
#ifndef CGA_LINEBUF_H
#define CGA_LINEBUF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "fmt.h"

struct linebuf {
	char *s;
	size_t len, alloc;
};

static inline char *lb_room(struct linebuf *lb, size_t n)
{
	ARRAY_GROW(lb->s, lb->len + n, lb->alloc);
	return lb->s + lb->len;
}

static inline void lb_putn(struct linebuf *lb, const char *s, size_t n)
{
	if (!n)
		return;	/* lb->s may still be NULL */
	memcpy(lb_room(lb, n), s, n);
	lb->len += n;
}

static inline void lb_puts(struct linebuf *lb, const char *s)
{
	lb_putn(lb, s, strlen(s));
}

static inline void lb_putc(struct linebuf *lb, char c)
{
	*lb_room(lb, 1) = c;
	lb->len++;
}

static inline void lb_spaces(struct linebuf *lb, size_t n)
{
	if (!n)
		return;
	memset(lb_room(lb, n), ' ', n);
	lb->len += n;
}

/* "%*s": s right-aligned in width columns */
static inline void lb_right(struct linebuf *lb, const char *s, size_t n,
			    int width)
{
	if (width > 0 && n < (size_t)width)
		lb_spaces(lb, (size_t)width - n);
	lb_putn(lb, s, n);
}

/* "%-*s": s left-aligned in width columns */
static inline void lb_left(struct linebuf *lb, const char *s, size_t n,
			   int width)
{
	lb_putn(lb, s, n);
	if (width > 0 && n < (size_t)width)
		lb_spaces(lb, (size_t)width - n);
}

/* "%*llu" */
static inline void lb_u64(struct linebuf *lb, uint64_t v, int width)
{
	char buf[20];

	lb_right(lb, buf, fmt_u64(buf, v), width);
}

/* "%*.<decimals>f" */
static inline void lb_fixed(struct linebuf *lb, double v, int decimals,
			    int width)
{
	char buf[FMT_NUM_MAX];

	lb_right(lb, buf, fmt_fixed(buf, v, decimals), width);
}

/* v with `decimals` decimals, its whole part grouped when `groups` */
static inline void lb_number(struct linebuf *lb, double v, int decimals,
			     int width, bool groups)
{
	char buf[FMT_NUM_MAX];

	lb_right(lb, buf, fmt_number(buf, v, decimals, groups), width);
}

/* a figure per call (fmt_per_call) */
static inline void lb_per_call(struct linebuf *lb, double v, int width,
			       bool groups)
{
	char buf[FMT_NUM_MAX];

	lb_right(lb, buf, fmt_per_call(buf, v, groups), width);
}

/* The line so far to out; the buffer is then empty for the next. */
static inline void lb_flush(struct linebuf *lb, FILE *out)
{
	if (lb->len)
		fwrite(lb->s, 1, lb->len, out);
	lb->len = 0;
}

static inline void lb_free(struct linebuf *lb)
{
	free(lb->s);
	lb->s = NULL;
	lb->len = lb->alloc = 0;
}

#endif
