/*
 * A profile's costs made again from its tree of stacks (p->stacks and
 * p->stack_values): every stack with values is walked up to its root
 * once; its values are its leaf's self, and count once for each
 * distinct function (inclusive) and each distinct caller -> callee arc
 * on the way, and as self in the arc into the leaf (profile.call_self),
 * as the readers of whole stacks count them (read_igprof.c,
 * stack_charge.c); a maximum's (MEM_MAX) costs are the largest, not
 * sums (profile_combine()). For the transforms (stack_transform.c), and
 * for symbol resolution that made two functions of one stack one.
 */
#include "stack_recount.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"

/* What the arcs are made again into. */
struct arcs {
	struct pcall *calls;
	size_t n, alloc;
	uint64_t *incl, *count;		/* n * stride, n */
	size_t incl_alloc, count_alloc;
	/* n * stride, incl_alloc rows: the self parts (profile.call_self),
	 * where the profile had them; else NULL */
	uint64_t *self;
	struct u64map index;
	uint32_t *stamp;		/* per arc: the walk it was charged in */
	size_t stamp_alloc;
	double *dcalls;			/* per arc: estimated stacks' calls */
	size_t dcalls_alloc;
};

static uint32_t arc_of(struct arcs *a, size_t stride, uint32_t caller,
		       uint32_t callee)
{
	bool added;
	uint32_t c = u64map_get_or_put(&a->index,
				       (uint64_t)caller << 32 | callee,
				       (uint32_t)a->n, &added);

	if (!added)
		return c;
	ARRAY_GROW(a->calls, a->n + 1, a->alloc);
	ARRAY_GROW(a->count, a->n + 1, a->count_alloc);
	ARRAY_GROW(a->stamp, a->n + 1, a->stamp_alloc);
	ARRAY_GROW(a->dcalls, a->n + 1, a->dcalls_alloc);
	if (a->n + 1 > a->incl_alloc) {
		size_t rows = a->incl_alloc / 2 * 3 + 64;

		a->incl = xreallocarray(a->incl, rows, stride * sizeof(uint64_t));
		if (a->self)
			a->self = xreallocarray(a->self, rows,
						stride * sizeof(uint64_t));
		a->incl_alloc = rows;
	}
	if (a->self)
		memset(a->self + (size_t)c * stride, 0,
		       stride * sizeof(uint64_t));
	a->calls[c].caller = caller;
	a->calls[c].callee = callee;
	a->calls[c].count = 0;
	memset(a->incl + (size_t)c * stride, 0, stride * sizeof(uint64_t));
	a->count[c] = 0;
	a->stamp[c] = 0;
	a->dcalls[c] = 0;
	a->n++;
	return c;
}

static void add_to(uint64_t *row, const uint64_t *v, size_t n)
{
	for (size_t e = 0; e < n; e++)
		row[e] = row[e] + v[e] < row[e] ? UINT64_MAX : row[e] + v[e];
}

/* add_to() of costs: a maximum's (IgProf's MEM_MAX) the larger, never
 * the sum (profile_combine()) */
static void combine_to(const struct profile *p, uint64_t *row,
		       const uint64_t *v, size_t n)
{
	for (size_t e = 0; e < n; e++)
		row[e] = profile_event_max(p, e) ? (v[e] > row[e] ? v[e] : row[e])
			 : row[e] + v[e] < row[e] ? UINT64_MAX
						  : row[e] + v[e];
}

/*
 * Each position's cost scaled to its function's self cost left
 * (old_self: the rows before), rounded as a running sum per function so
 * that a function's lines still add up to its self cost.
 */
static void scale_positions(struct profile *p, const uint64_t *old_self)
{
	size_t stride = p->stride, n = p->nfuncs * stride;
	double *sum = xcalloc(n + 1, sizeof(*sum));
	uint64_t *given = xcalloc(n + 1, sizeof(*given));

	for (size_t i = 0; i < p->npos; i++) {
		uint32_t f = p->pos[i].func;
		uint64_t *row = profile_pos_cost(p, (uint32_t)i);

		for (size_t e = 0; e < stride; e++) {
			size_t k = (size_t)f * stride + e;
			uint64_t now = profile_self(p, f)[e], upto;

			if (now >= old_self[k])
				continue;	/* all left, or more (hide) */
			sum[k] += (double)row[e] * (double)now / (double)old_self[k];
			upto = (uint64_t)llround(sum[k]);
			row[e] = upto > given[k] ? upto - given[k] : 0;
			given[k] = upto > given[k] ? upto : given[k];
		}
	}
	free(sum);
	free(given);
}

/* The arcs made again replace p's; call sites follow their arc, scaled
 * to its share left, or go with it. */
static void replace_arcs(struct profile *p, struct arcs *a)
{
	size_t stride = p->stride, kept = 0;
	/* per new arc and event, and its count: the running sums */
	double *sum = xcalloc(a->n * (stride + 1) + 1, sizeof(*sum));
	uint64_t *given = xcalloc(a->n * (stride + 1) + 1, sizeof(*given));

	profile_unpack_incl(p);
	for (size_t s = 0; s < p->ncallsites; s++) {
		const struct pcall *old = &p->calls[p->callsites[s].call];
		uint32_t c = u64map_get(&a->index, (uint64_t)old->caller << 32 |
							   old->callee);

		uint64_t *row;

		if (c == U64MAP_NONE)
			continue;
		p->callsites[kept] = p->callsites[s];
		p->callsites[kept].call = c;
		row = profile_callsite_incl(p, (uint32_t)kept);
		memmove(row, profile_callsite_incl(p, (uint32_t)s),
			stride * sizeof(uint64_t));
		/* a call site is its arc's share of what is left, rounded
		 * as a running sum per arc so that the sites still add up
		 * to the arc */
		for (size_t e = 0; e <= stride; e++) {
			size_t k = (size_t)c * (stride + 1) + e;
			uint64_t *v = e < stride ? &row[e]
						 : &p->callsites[kept].count;
			uint64_t now = e < stride ? a->incl[(size_t)c * stride + e]
						  : a->count[c];
			uint64_t before = e < stride
				? profile_call_incl_at(p, p->callsites[s].call, e)
				: profile_call_count(p, p->callsites[s].call);
			uint64_t upto;

			if (now >= before)
				continue;
			sum[k] += (double)*v * (double)now / (double)before;
			upto = (uint64_t)llround(sum[k]);
			*v = upto > given[k] ? upto - given[k] : 0;
			given[k] = upto > given[k] ? upto : given[k];
		}
		kept++;
	}
	p->ncallsites = kept;
	free(sum);
	free(given);
	u64map_release(&p->callsite_index);
	u64map_init(&p->callsite_index);
	for (size_t s = 0; s < kept; s++)
		u64map_put(&p->callsite_index,
			   (uint64_t)p->callsites[s].pos << 32 | p->callsites[s].call,
			   (uint32_t)s);
	p->callsite_hint = 0;

	free(p->calls);
	free(p->call_incl);
	free(p->big_counts);
	p->calls = a->calls;
	p->ncalls = a->n;
	p->calls_alloc = a->alloc;
	p->call_incl = a->incl;
	p->call_incl_alloc = a->incl_alloc;
	free(p->call_self);
	p->call_self = a->self;
	p->call_self_alloc = a->self ? a->incl_alloc : 0;
	a->self = NULL;
	p->big_counts = NULL;
	p->nbig_counts = p->big_counts_alloc = 0;
	for (size_t c = 0; c < a->n; c++)
		profile_call_set_count(p, (uint32_t)c, a->count[c]);
	p->calls_have_incl = true;
	a->calls = NULL;
	a->incl = NULL;
	/* the index of arcs by callers and callees is stale */
	profile_drop_indexes(p);
	profile_pack_incl(p);
}

void profile_recount_stacks(struct profile *p, bool keep_arcs)
{
	size_t stride = p->stride, nf = p->nfuncs;
	uint64_t *val = xcalloc(p->nstacks * stride + 1, sizeof(*val));
	uint64_t *cnt = xcalloc(p->nstacks * stride + 1, sizeof(*cnt));
	uint32_t *fstamp = xcalloc(nf + 1, sizeof(*fstamp));
	struct arcs a = { 0 };
	uint32_t gen = 0;

	uint64_t *old_self = xmalloc((nf * stride + 1) * sizeof(*old_self));
	uint64_t *old_count = NULL, *old_fcount = NULL;

	memcpy(old_self, p->self, nf * stride * sizeof(*old_self));
	u64map_init(&a.index);
	/* whole stacks split their arcs exactly (not estimated ones, made
	 * from arcs by the ratio: their profile has no call_self) */
	if (p->call_self)
		a.self = xmalloc(sizeof(uint64_t));
	/* the arcs in the reader's order, those of no cost included (a
	 * MEM_LIVE stack freed since: (0,0,peak), which no stack value
	 * holds): made first, each stack's walk below finds its own */
	/* ... and their counts, and the functions': those of the stacks
	 * of a count and no value (a MEM_LIVE (2,0,64): zero-size blocks
	 * still held), which the reader keeps no stack value of (storing
	 * them made its walks of many buffers' deep stacks quadratic) */
	if (keep_arcs)
		old_count = xcalloc(p->ncalls + 1, sizeof(*old_count));
	for (size_t c = 0; keep_arcs && c < p->ncalls; c++)
		old_count[arc_of(&a, stride, p->calls[c].caller,
				 p->calls[c].callee)] +=
			profile_call_count(p, (uint32_t)c);
	if (keep_arcs && p->func_count) {
		old_fcount = xmalloc((nf * stride + 1) * sizeof(*old_fcount));
		memcpy(old_fcount, p->func_count,
		       nf * stride * sizeof(*old_fcount));
	}
	for (size_t i = 0; i < p->nstack_values; i++) {
		const struct pstack_value *v = &p->stack_values[i];
		size_t at = (size_t)v->stack * stride + v->event;

		if (profile_event_max(p, v->event))
			val[at] = v->value > val[at] ? v->value : val[at];
		else
			val[at] = val[at] + v->value < val[at]
					  ? UINT64_MAX : val[at] + v->value;
		cnt[at] += v->count;
	}
	profile_want_func_extras(p);
	memset(p->self, 0, nf * stride * sizeof(uint64_t));
	memset(p->func_incl, 0, nf * stride * sizeof(uint64_t));
	memset(p->func_count, 0, nf * stride * sizeof(uint64_t));
	for (size_t s = 0; s < p->nstacks; s++) {
		const uint64_t *v = val + s * stride, *k = cnt + s * stride;
		uint64_t calls = 0;
		uint32_t callee = p->stacks[s].func;
		bool innermost;

		if (cost_row_zero(v, stride) && cost_row_zero(k, stride))
			continue;
		for (size_t e = 0; e < stride; e++)
			if (!p->counts_by_event || e == p->count_event)
				calls += k[e];
		gen++;
		combine_to(p, profile_self(p, callee), v, stride);
		add_to(profile_func_row(p, p->func_count, callee), k, stride);
		combine_to(p, profile_func_row(p, p->func_incl, callee), v,
			   stride);
		fstamp[callee] = gen;
		innermost = true;
		for (uint32_t up = p->stacks[s].caller; up != NO_ID;
		     up = p->stacks[up].caller) {
			uint32_t caller = p->stacks[up].func;
			uint32_t c = arc_of(&a, stride, caller, callee);

			/* the leaf's self, to the arc into it from the
			 * nearest other function (stack_charge.c) */
			if (innermost && caller != callee && a.self) {
				combine_to(p, a.self + (size_t)c * stride, v,
					   stride);
				innermost = false;
			}
			if (a.stamp[c] != gen) {
				a.stamp[c] = gen;
				combine_to(p, a.incl + (size_t)c * stride, v,
					   stride);
				a.count[c] += calls;
			}
			if (fstamp[caller] != gen) {
				fstamp[caller] = gen;
				combine_to(p, profile_func_row(p, p->func_incl,
								 caller),
					   v, stride);
			}
			callee = caller;
		}
	}
	/* estimated stacks: the arcs' calls are their paths' estimated
	 * calls (a path with no cost left makes no arc) */
	for (size_t s = 0; p->stack_calls && s < p->nstacks; s++) {
		uint32_t up = p->stacks[s].caller, c;

		if (up == NO_ID)
			continue;
		c = u64map_get(&a.index, (uint64_t)p->stacks[up].func << 32 |
						 p->stacks[s].func);
		if (c != U64MAP_NONE)
			a.dcalls[c] += p->stack_calls[s];
	}
	for (size_t c = 0; p->stack_calls && c < a.n; c++)
		a.count[c] = (uint64_t)llround(a.dcalls[c]);
	/* an arc or function no stack of a value passes keeps the count
	 * it was read with (one that some do passes loses the counts of
	 * those of none: they are not in the stacks) */
	for (size_t c = 0; old_count && !p->stack_calls && c < a.n; c++)
		if (!a.stamp[c])
			a.count[c] = old_count[c];
	for (size_t f = 0; old_fcount && f < nf; f++)
		if (!fstamp[f])
			memcpy(profile_func_row(p, p->func_count, (uint32_t)f),
			       old_fcount + f * stride,
			       stride * sizeof(uint64_t));
	free(old_count);
	free(old_fcount);
	/* a peak is of the stacks ending in a function: of one with none
	 * left, none (functions only merged keep theirs: the stacks of no
	 * value, whose peaks they are, hold no stack value) */
	for (size_t f = 0; !keep_arcs && f < nf; f++)
		for (size_t e = 0; e < stride; e++)
			if (!profile_self(p, (uint32_t)f)[e])
				profile_func_row(p, p->func_peak, (uint32_t)f)[e] = 0;
	replace_arcs(p, &a);
	scale_positions(p, old_self);
	free(old_self);
	/* (before profile_finish(), which makes them, there are none) */
	if (p->totals)
		memset(p->totals, 0, stride * sizeof(uint64_t));
	for (size_t f = 0; p->totals && f < nf; f++)
		combine_to(p, p->totals, profile_self(p, (uint32_t)f),
			   stride);
	/* what the run's summary lines counted is no longer in view */
	free(p->summary);
	p->summary = NULL;
	u64map_release(&a.index);
	free(a.count);
	free(a.self);
	free(a.stamp);
	free(a.dcalls);
	free(val);
	free(cnt);
	free(fstamp);
}
