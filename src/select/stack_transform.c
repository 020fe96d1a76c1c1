/*
 * The transforms of stack_transform.h on a profile's tree of stacks,
 * and the profile's costs made again from the tree they leave.
 *
 * Each transform maps the tree to a new one, node by node, parents
 * first (a stack's caller comes before it in both): a node's image is
 * a node of the new tree, or "dropped", or "pending" (focus: no match
 * yet on the way from the root; hide: every frame so far hidden). A
 * stack's values go to its node's image; those of a dropped node, and
 * of a node still pending under focus, are gone; those of a node whose
 * frames are all hidden go to a root of its outermost function.
 *
 *   focus=f    main > g > f > h   ->   f > h
 *   ignore=g   main > g > f > h   ->   (gone)
 *   hide=g     main > g > f > h   ->   main > f > h
 *   fold       main > f > f > h   ->   main > f > h
 *
 * Then every stack with values is walked up to its root once: its
 * values are its leaf's self, and count once for each distinct
 * function (inclusive) and each distinct caller -> callee arc on the
 * way, and as self in the arc into the leaf (profile.call_self), as
 * the readers of whole stacks count them (read_igprof.c,
 * stack_charge.c).
 */
#include "stack_transform.h"

#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "name_match.h"

#define DROPPED NO_ID
#define PENDING (NO_ID - 1)

const char *transform_name(enum transform_kind kind)
{
	switch (kind) {
	case TRANSFORM_FOCUS:
		return "focus";
	case TRANSFORM_IGNORE:
		return "ignore";
	case TRANSFORM_HIDE:
		return "hide";
	case TRANSFORM_FOLD:
		return "fold-recursion";
	default:
		BUG("transform kind %d", (int)kind);
	}
}

/* A tree of stacks being made: nodes found by (caller, function). */
struct tree {
	struct pstack *nodes;
	size_t n, alloc;
	struct u64map index;
};

static uint32_t tree_node(struct tree *t, uint32_t caller, uint32_t func)
{
	/* NO_ID + 1 wraps to 0: the roots' key */
	uint64_t key = (uint64_t)(uint32_t)(caller + 1u) << 32 | func;
	bool added;
	uint32_t id = u64map_get_or_put(&t->index, key, (uint32_t)t->n, &added);

	if (!added)
		return id;
	if (t->n >= PENDING)
		BUG("too many stacks");
	ARRAY_GROW(t->nodes, t->n + 1, t->alloc);
	t->nodes[t->n].func = func;
	t->nodes[t->n].caller = caller;
	t->n++;
	return id;
}

/*
 * Does pattern name function f? The name rule of -p (name_match.h);
 * "obj:GLOB" and "file:GLOB" name the functions of an object or a
 * source file, by its whole path or its last component.
 */
static bool path_matches(const char *pattern, const char *path)
{
	const char *base = strrchr(path, '/');

	return *path && (!fnmatch(pattern, path, 0) ||
			 (base && !fnmatch(pattern, base + 1, 0)));
}

static bool func_matches(const struct profile *p, uint32_t f,
			 const char *pattern)
{
	const struct pfunc *fn = &p->funcs[f];

	if (!strncmp(pattern, "obj:", 4))
		return path_matches(pattern + 4, profile_str(p, fn->object));
	if (!strncmp(pattern, "file:", 5))
		return path_matches(pattern + 5, profile_str(p, fn->file));
	return symspec_name_matches(pattern, profile_str(p, fn->name));
}

/* Per function: does pattern name it? NULL (said) when none. */
static bool *match_funcs(const struct profile *p, const struct transform *t)
{
	bool *m = xcalloc(p->nfuncs + 1, sizeof(*m));
	bool any = false;

	for (uint32_t f = 0; f < p->nfuncs; f++)
		any |= m[f] = func_matches(p, f, t->glob);
	if (!any) {
		warning("--%s=%s names no function of the profile",
			transform_name(t->kind), t->glob);
		free(m);
		return NULL;
	}
	return m;
}

/*
 * One transform: img[s] for every node s of the old tree (`old`, n
 * nodes), top[s] the outermost function of a pending hide.
 */
static void map_nodes(struct tree *out, const struct pstack *old, size_t n,
		      enum transform_kind kind, const bool *match,
		      uint32_t *img, uint32_t *top)
{
	for (size_t s = 0; s < n; s++) {
		uint32_t f = old[s].func;
		uint32_t up = old[s].caller == NO_ID ? PENDING : img[old[s].caller];
		bool m = match && match[f];
		bool placed = up != PENDING && up != DROPPED;

		switch (kind) {
		case TRANSFORM_FOCUS:
			/* a stack starts at its outermost match */
			img[s] = placed ? tree_node(out, up, f)
				 : up == DROPPED ? DROPPED
				 : m ? tree_node(out, NO_ID, f) : PENDING;
			break;
		case TRANSFORM_IGNORE:
			img[s] = up == DROPPED || m ? DROPPED
				 : tree_node(out, placed ? up : NO_ID, f);
			break;
		case TRANSFORM_HIDE:
			if (!m) {
				img[s] = tree_node(out, placed ? up : NO_ID, f);
			} else if (placed) {
				img[s] = up;	/* charged to the caller */
			} else {
				img[s] = PENDING;
				top[s] = old[s].caller == NO_ID ? f
					 : top[old[s].caller];
			}
			break;
		case TRANSFORM_FOLD:
			img[s] = placed && out->nodes[up].func == f
					 ? up
					 : tree_node(out, placed ? up : NO_ID, f);
			break;
		default:
			BUG("transform kind %d", (int)kind);
		}
	}
}

/* Estimated stacks' calls (profile.stack_calls) to the new tree: a
 * frame that became its caller (hidden, folded) takes no calls. */
static void move_calls(struct profile *p, const uint32_t *img, size_t n)
{
	double *calls = xcalloc(n + 1, sizeof(*calls));

	for (size_t s = 0; s < p->nstacks; s++) {
		uint32_t up = p->stacks[s].caller;
		uint32_t to = img[s];

		if (to == PENDING || to == DROPPED ||
		    (up != NO_ID && img[up] == to))
			continue;
		calls[to] += p->stack_calls[s];
	}
	free(p->stack_calls);
	p->stack_calls = calls;
}

/* Apply one transform to p's stacks and stack values. */
static void transform_one(struct profile *p, const struct transform *t)
{
	bool *match = t->kind == TRANSFORM_FOLD ? NULL : match_funcs(p, t);
	uint32_t *img, *top;
	struct tree out = { 0 };
	size_t kept = 0;

	if (t->kind != TRANSFORM_FOLD && !match) {
		/* names nothing: focus keeps nothing, the others change
		 * nothing */
		if (t->kind == TRANSFORM_FOCUS)
			p->nstack_values = p->nleaks = 0;
		return;
	}
	img = xcalloc(p->nstacks + 1, sizeof(*img));
	top = xcalloc(p->nstacks + 1, sizeof(*top));
	u64map_init(&out.index);
	map_nodes(&out, p->stacks, p->nstacks, t->kind, match, img, top);
	for (size_t i = 0; i < p->nstack_values; i++) {
		struct pstack_value v = p->stack_values[i];
		uint32_t to = img[v.stack];

		if (to == PENDING && t->kind == TRANSFORM_HIDE)
			to = tree_node(&out, NO_ID, top[v.stack]);
		if (to == PENDING || to == DROPPED)
			continue;
		v.stack = to;
		p->stack_values[kept++] = v;
	}
	p->nstack_values = kept;
	/* a leak was allocated in a stack: it goes where the stack goes */
	kept = 0;
	for (size_t i = 0; i < p->nleaks; i++) {
		struct pleak lk = p->leaks[i];
		uint32_t to = img[lk.stack];

		if (to == PENDING && t->kind == TRANSFORM_HIDE)
			to = tree_node(&out, NO_ID, top[lk.stack]);
		if (to == PENDING || to == DROPPED)
			continue;
		lk.stack = to;
		p->leaks[kept++] = lk;
	}
	p->nleaks = kept;
	if (p->stack_calls)
		move_calls(p, img, out.n);
	free(p->stacks);
	p->stacks = out.nodes;
	p->nstacks = out.n;
	p->stacks_alloc = out.alloc;
	u64map_release(&out.index);
	free(img);
	free(top);
	free(match);
}

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

/* Every cost made again from the stacks (the comment at the top). */
static void recount(struct profile *p)
{
	size_t stride = p->stride, nf = p->nfuncs;
	uint64_t *val = xcalloc(p->nstacks * stride + 1, sizeof(*val));
	uint64_t *cnt = xcalloc(p->nstacks * stride + 1, sizeof(*cnt));
	uint32_t *fstamp = xcalloc(nf + 1, sizeof(*fstamp));
	struct arcs a = { 0 };
	uint32_t gen = 0;

	uint64_t *old_self = xmalloc((nf * stride + 1) * sizeof(*old_self));

	memcpy(old_self, p->self, nf * stride * sizeof(*old_self));
	u64map_init(&a.index);
	/* whole stacks split their arcs exactly (not estimated ones, made
	 * from arcs by the ratio: their profile has no call_self) */
	if (p->call_self)
		a.self = xmalloc(sizeof(uint64_t));
	for (size_t i = 0; i < p->nstack_values; i++) {
		const struct pstack_value *v = &p->stack_values[i];
		size_t at = (size_t)v->stack * stride + v->event;

		val[at] = val[at] + v->value < val[at] ? UINT64_MAX
						       : val[at] + v->value;
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
		add_to(profile_self(p, callee), v, stride);
		add_to(profile_func_row(p, p->func_count, callee), k, stride);
		add_to(profile_func_row(p, p->func_incl, callee), v, stride);
		fstamp[callee] = gen;
		innermost = true;
		for (uint32_t up = p->stacks[s].caller; up != NO_ID;
		     up = p->stacks[up].caller) {
			uint32_t caller = p->stacks[up].func;
			uint32_t c = arc_of(&a, stride, caller, callee);

			/* the leaf's self, to the arc into it from the
			 * nearest other function (stack_charge.c) */
			if (innermost && caller != callee && a.self) {
				add_to(a.self + (size_t)c * stride, v, stride);
				innermost = false;
			}
			if (a.stamp[c] != gen) {
				a.stamp[c] = gen;
				add_to(a.incl + (size_t)c * stride, v, stride);
				a.count[c] += calls;
			}
			if (fstamp[caller] != gen) {
				fstamp[caller] = gen;
				add_to(profile_func_row(p, p->func_incl, caller),
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
	/* a peak is of the stacks ending in a function: of one with none
	 * left, none */
	for (size_t f = 0; f < nf; f++)
		for (size_t e = 0; e < stride; e++)
			if (!profile_self(p, (uint32_t)f)[e])
				profile_func_row(p, p->func_peak, (uint32_t)f)[e] = 0;
	replace_arcs(p, &a);
	scale_positions(p, old_self);
	free(old_self);
	memset(p->totals, 0, stride * sizeof(uint64_t));
	for (size_t f = 0; f < nf; f++)
		add_to(p->totals, profile_self(p, (uint32_t)f), stride);
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

int stack_transform(struct profile *p, const struct transform *t, size_t n)
{
	if (!p->nstacks)
		return error("the profile has no stacks to transform");
	for (size_t i = 0; i < n; i++)
		transform_one(p, &t[i]);
	recount(p);
	return 0;
}

uint64_t stack_matched_cost(const struct profile *p, const char *pattern,
			    uint32_t ev)
{
	bool *in = xcalloc(p->nstacks + 1, sizeof(*in));
	uint64_t sum = 0;

	/* a stack holds a match when it or its caller's does */
	for (size_t s = 0; s < p->nstacks; s++)
		in[s] = func_matches(p, p->stacks[s].func, pattern) ||
			(p->stacks[s].caller != NO_ID && in[p->stacks[s].caller]);
	for (size_t i = 0; i < p->nstack_values; i++)
		if (p->stack_values[i].event == ev && in[p->stack_values[i].stack])
			sum += p->stack_values[i].value;
	free(in);
	return sum;
}
