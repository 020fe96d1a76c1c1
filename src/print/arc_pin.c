/*
 * A focus's total pinned to its function's measured inclusive cost
 * (arc_pin.h).
 *
 *   main (inclusive 164,390)           the stacks under main add up to
 *     histogram_of                     164,174: malloc's self spread
 *       operator new > malloc  787 -> +m    by its paths' totals put 216
 *   _dl_start > ... > malloc    ...  -> -m  more of it outside main than
 *                                           the tree's estimate has
 *
 * The 216 go back from the stacks outside main to those under it, of
 * the functions that have both (malloc, _int_malloc, _dl_fixup, ...),
 * each function in proportion to what it has outside, so each
 * function's self cost over all its stacks stays the profile's.
 */
#include "arc_pin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "select/name_match.h"

/* f's name without its recursion level: fib for fib'2 */
static size_t level_free(const struct profile *p, uint32_t f, char **buf)
{
	const char *name = profile_str(p, p->funcs[f].name);
	size_t len = strlen(name);

	*buf = xmalloc(len + 1);
	return fold_recursion_suffix(name, len, *buf);
}

/* a and b are one function's recursion levels */
static bool same_levels(const struct profile *p, uint32_t a, uint32_t b)
{
	char *x, *y;
	size_t nx = level_free(p, a, &x), ny = level_free(p, b, &y);
	bool same = nx == ny && !memcmp(x, y, nx) &&
		    p->funcs[a].file == p->funcs[b].file &&
		    p->funcs[a].object == p->funcs[b].object;

	free(x);
	free(y);
	return same;
}

uint32_t arc_pin_func(const struct cg *cg, const char *glob)
{
	const struct profile *p = cg->p;
	uint32_t f = NO_ID, first = NO_ID;

	if (!cg->child || !strncmp(glob, "obj:", 4) ||
	    !strncmp(glob, "file:", 5))
		return NO_ID;
	for (uint32_t g = 0; g < p->nfuncs; g++) {
		const char *name = profile_str(p, p->funcs[g].name);
		char *bare;
		size_t n;

		if (!symspec_name_matches(glob, name))
			continue;
		if (first == NO_ID)
			first = g;
		else if (!same_levels(p, first, g))
			return NO_ID;
		n = level_free(p, g, &bare);
		if (n == strlen(name))
			f = g;	/* the level of none: fib */
		free(bare);
	}
	if (f == NO_ID || f >= cg->nnodes || cg->nodes[f].cycle != NO_ID)
		return NO_ID;
	return f;
}

/* per function: its self on each side of f's boundary, and the running
 * sums of the moves */
struct side {
	uint64_t in, out;
	uint64_t move;		/* what goes across */
	uint64_t cum_give, given, cum_take, taken;
};

void arc_pin(const struct flame *fl, uint32_t nfuncs, uint32_t f,
	     uint64_t incl, uint64_t *whole)
{
	bool *inside = xcalloc(fl->nnodes + 1, sizeof(*inside));
	struct side *s = xcalloc((size_t)nfuncs + 1, sizeof(*s));
	uint64_t sum_in = 0, need, cap = 0, moved = 0, cum = 0;
	bool up;	/* cost goes into the stacks holding f */

	/* per function (cycles' nodes at nfuncs): its running sum */
	double *sum = xcalloc((size_t)nfuncs + 1, sizeof(*sum));
	uint64_t *given = xcalloc((size_t)nfuncs + 1, sizeof(*given));

	for (size_t i = 0; i < fl->nnodes; i++) {
		const struct flame_node *n = &fl->nodes[i];
		uint32_t g = n->func == NO_ID || n->func >= nfuncs ? nfuncs
								     : n->func;

		inside[i] = n->func == f ||
			    (n->parent != NO_ID && inside[n->parent]);
		/* whole units as a running sum over each function's nodes,
		 * so that each function's self over its stacks is the
		 * profile's, and one wholly under f puts all of it there */
		whole[i] = 0;
		if (n->self > 0) {
			uint64_t upto;

			sum[g] += n->self;
			upto = (uint64_t)llround(sum[g]);
			if (upto > given[g]) {
				whole[i] = upto - given[g];
				given[g] = upto;
			}
		}
		if (inside[i])
			sum_in += whole[i];
		if (g == nfuncs)
			continue;
		if (inside[i])
			s[g].in += whole[i];
		else
			s[g].out += whole[i];
	}
	free(sum);
	free(given);
	if (sum_in == incl)
		goto out;
	up = incl > sum_in;
	need = up ? incl - sum_in : sum_in - incl;
	for (uint32_t g = 0; g < nfuncs; g++)
		if (s[g].in && s[g].out)
			cap += up ? s[g].out : s[g].in;
	if (!cap)
		goto out;
	if (need > cap)
		need = cap;
	/* each function's share of the move, by what it can give */
	for (uint32_t g = 0; g < nfuncs; g++) {
		uint64_t upto;

		if (!s[g].in || !s[g].out)
			continue;
		cum += up ? s[g].out : s[g].in;
		upto = (uint64_t)llround((double)need * (double)cum / (double)cap);
		s[g].move = upto - moved;
		moved = upto;
	}
	/* each node's share of its function's move, by its self */
	for (size_t i = 0; i < fl->nnodes; i++) {
		uint32_t g = fl->nodes[i].func;
		struct side *x;
		uint64_t upto;

		if (g == NO_ID || g >= nfuncs || !s[g].move)
			continue;
		x = &s[g];
		if (inside[i] != up) {	/* the giving side */
			x->cum_give += whole[i];
			upto = (uint64_t)llround((double)x->move *
						 (double)x->cum_give /
						 (double)(up ? x->out : x->in));
			whole[i] -= upto - x->given;
			x->given = upto;
		} else {
			x->cum_take += whole[i];
			upto = (uint64_t)llround((double)x->move *
						 (double)x->cum_take /
						 (double)(up ? x->in : x->out));
			whole[i] += upto - x->taken;
			x->taken = upto;
		}
	}
out:
	free(inside);
	free(s);
}
