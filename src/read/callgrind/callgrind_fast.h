/*
 * The cost lines' fast path (callgrind_body.c): a line's positions and
 * costs read straight from the buffer, shared by the loops over a
 * block's lines there and the run of POS_SELECT's (callgrind_select.c).
 */
#ifndef CGA_CALLGRIND_FAST_H
#define CGA_CALLGRIND_FAST_H

#include "callgrind_lex.h"
#include "callgrind_reader.h"

/*
 * Position k of a cost line at *sp into *pos (its value on the line
 * before in, the new one out): false for the general path.
 */
HOT bool fast_position(const char **sp, unsigned k, uint64_t *pos,
		       unsigned *unknown)
{
	const char *s = *sp;
	uint64_t v;

	if (fast_number(&s, &v)) {
		*pos = v;
		*unknown &= ~(1u << k);
	} else if (*unknown >> k & 1) {
		return false;	/* reading ahead: relative to before the stretch */
	} else if (*s == '*') {
		s++;
	} else if (*s == '+' || *s == '-') {
		char sign = *s++;

		if (!fast_number(&s, &v))
			return false;
		if (sign == '+') {
			if (__builtin_add_overflow(*pos, v, pos))
				return false;
		} else {
			if (v > *pos)
				return false;
			*pos -= v;
		}
	} else {
		return false;
	}
	if (!(s = fast_gap(s)))
		return false;
	*sp = s;
	return true;
}

/* A cost line's positions as they stand after the line before. */
struct line_pos {
	uint64_t p[MAX_POSITIONS];
	unsigned unknown;	/* rd->pos_unknown */
};

/*
 * The cost line at s (its first character is a digit, '+', '-' or '*';
 * a "\n" ends it) into *lp and vals. Returns the start of the next
 * line, with the number of costs in *n, or NULL for the general path
 * (*lp then unchanged).
 */
HOT const char *fast_cost_line(const char *s, unsigned npos, size_t ncols,
			       struct line_pos *lp, uint64_t *vals, long *n)
{
	/* locals: the compiler keeps them in registers, where stores
	 * through vals[] would make it load them again at every number */
	uint64_t p0 = lp->p[0], p1 = lp->p[1], p2 = lp->p[2];
	unsigned unknown = lp->unknown;
	size_t i = 0;

	if (npos > 0 && !fast_position(&s, 0, &p0, &unknown))
		return NULL;
	if (npos > 1 && !fast_position(&s, 1, &p1, &unknown))
		return NULL;
	if (npos > 2 && !fast_position(&s, 2, &p2, &unknown))
		return NULL;
	while (*s != '\n') {
		if (i == ncols || !fast_number(&s, &vals[i]))
			return NULL;
		i++;
		if (!(s = fast_gap(s)))
			return NULL;
	}
	lp->p[0] = p0;
	lp->p[1] = p1;
	lp->p[2] = p2;
	lp->unknown = unknown;
	*n = (long)i;
	return s + 1;
}

#endif
