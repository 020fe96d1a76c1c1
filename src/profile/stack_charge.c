/* One sampled stack charged to functions and arcs (stack_charge.h) */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"
#include "stack_charge.h"

void stack_charge_init(struct stack_charge *sc, struct profile *p)
{
	memset(sc, 0, sizeof(*sc));
	sc->p = p;
	sc->cost = xcalloc(p->stride + 1, sizeof(*sc->cost));
	sc->count = xcalloc(p->stride + 1, sizeof(*sc->count));
	profile_want_call_self(p);
}

void stack_charge_release(struct stack_charge *sc)
{
	free(sc->cost);
	free(sc->count);
	free(sc->fstamp);
	free(sc->cstamp);
	memset(sc, 0, sizeof(*sc));
}

void stack_charge_clear(struct stack_charge *sc)
{
	memset(sc->cost, 0, sc->p->stride * sizeof(*sc->cost));
	memset(sc->count, 0, sc->p->stride * sizeof(*sc->count));
}

/* Whether i (of n so far) was not yet charged in stack gen; marks it. */
static bool mark(uint32_t **stamp, size_t *alloc, size_t n, uint32_t i,
		 uint32_t gen)
{
	if (i >= *alloc) {
		size_t old = *alloc;

		ARRAY_GROW(*stamp, n > i ? n : i + 1, *alloc);
		memset(*stamp + old, 0, (*alloc - old) * sizeof(**stamp));
	}
	if ((*stamp)[i] == gen)
		return false;
	(*stamp)[i] = gen;
	return true;
}

/* row += v, each sum held at UINT64_MAX rather than wrapped */
static void add_row(uint64_t *row, const uint64_t *v, size_t n)
{
	for (size_t e = 0; e < n; e++)
		row[e] = row[e] + v[e] < row[e] ? UINT64_MAX : row[e] + v[e];
}

void stack_charge_leaf(struct stack_charge *sc, uint32_t leaf)
{
	struct profile *p = sc->p;
	size_t stride = p->stride;

	sc->gen++;
	add_row(profile_self(p, leaf), sc->cost, stride);
	add_row(profile_func_row(p, p->func_count, leaf), sc->count, stride);
	mark(&sc->fstamp, &sc->fstamp_alloc, p->nfuncs, leaf, sc->gen);
	add_row(profile_func_row(p, p->func_incl, leaf), sc->cost, stride);
	sc->innermost = true;
}

void stack_charge_arc(struct stack_charge *sc, uint32_t caller,
		      uint32_t callee, uint64_t samples)
{
	struct profile *p = sc->p;
	size_t stride = p->stride;
	uint32_t c = profile_call(p, caller, callee);

	if (mark(&sc->fstamp, &sc->fstamp_alloc, p->nfuncs, caller, sc->gen))
		add_row(profile_func_row(p, p->func_incl, caller), sc->cost,
			stride);
	if (mark(&sc->cstamp, &sc->cstamp_alloc, p->ncalls, c, sc->gen)) {
		add_row(profile_call_incl(p, c), sc->cost, stride);
		profile_call_add_count(p, c, samples);
	}
	/*
	 * The leaf's own cost, spent called from this caller: the self
	 * part of this arc alone, however often the arc recurs further
	 * out (main > A > B > A > B: A -> B's self once, B -> A's none).
	 * Calls of the leaf to itself are passed by (main > A > A: main
	 * -> A's self): they are no arc of the graph, and the cost under
	 * them is the leaf's own.
	 */
	if (sc->innermost && caller != callee) {
		add_row(profile_call_self(p, c), sc->cost, stride);
		sc->innermost = false;
	}
}

/*
 * A sum of costs that cannot wrap: 128 bits, as two halves. A node's
 * stacks below are the leaves' costs added while the walk is under it,
 * the sum when it leaves less the sum when it came.
 */
struct wide {
	uint64_t lo, hi;
};

static void wide_add(struct wide *w, uint64_t v)
{
	w->lo += v;
	w->hi += w->lo < v;
}

/* now - then, held at UINT64_MAX as add_row() holds a sum */
static uint64_t wide_since(const struct wide *now, const struct wide *then)
{
	uint64_t hi = now->hi - then->hi - (now->lo < then->lo);

	return hi ? UINT64_MAX : now->lo - then->lo;
}

/* A node of the walk's path, which stacks pass. */
struct tree_step {
	uint32_t node;
	uint32_t first_other;	/* the innermost arc of another function's
				 * from here out (NO_ID: none) */
	bool new_func, new_call;	/* no node above has them */
};

struct tree_walk {
	struct profile *p;
	const struct stack_tree *t;
	uint32_t *fn, *cn;	/* per function, arc: on the path how often */
	struct wide *sum;	/* the leaves' costs so far (stride), samples */
	struct tree_step *path;
	struct wide *at;	/* per step: sum when it was entered */
	size_t depth, alloc, at_alloc;
};

/* The stacks ending at node a (leaf k), the path's functions and arcs
 * counted (a's own not yet): self and count to the leaf, the inclusive
 * costs of a leaf and an arc that no node above has, the innermost arc
 * of another function's self; and the leaves' sum. */
static void tree_leaf(struct tree_walk *w, uint32_t a, uint32_t k)
{
	struct profile *p = w->p;
	const struct stack_tree *t = w->t;
	size_t stride = p->stride;
	const uint64_t *cost = t->rows + (size_t)k * (2 * stride + 1);
	uint64_t samples = cost[2 * stride];
	uint32_t f = t->leaf_ids[2 * (size_t)k], c, s;

	add_row(profile_self(p, f), cost, stride);
	add_row(profile_func_row(p, p->func_count, f), cost + stride, stride);
	if (!w->fn[f])
		add_row(profile_func_row(p, p->func_incl, f), cost, stride);
	for (size_t e = 0; e < stride; e++)
		wide_add(&w->sum[e], cost[e]);
	w->sum[stride].lo += samples;
	if (t->parent[a] == NO_ID)
		return;
	c = t->leaf_ids[2 * (size_t)k + 1];
	if (!w->cn[c]) {
		add_row(profile_call_incl(p, c), cost, stride);
		profile_call_add_count(p, c, samples);
	}
	s = t->func[t->parent[a]] != f ? c : w->path[w->depth - 1].first_other;
	if (s != NO_ID)
		add_row(profile_call_self(p, s), cost, stride);
}

/* Node a, which stacks pass, onto the path: its function and arc
 * counted there. */
static void tree_enter(struct tree_walk *w, uint32_t a)
{
	const struct stack_tree *t = w->t;
	size_t stride = w->p->stride;
	uint32_t f = t->func[a], c = t->call[a], up = t->parent[a];
	struct tree_step *st;

	ARRAY_GROW(w->path, w->depth + 1, w->alloc);
	ARRAY_GROW(w->at, (w->depth + 1) * (stride + 1), w->at_alloc);
	st = &w->path[w->depth];
	st->node = a;
	st->first_other = NO_ID;
	if (up != NO_ID)	/* then on the path, right above */
		st->first_other = t->func[up] != f
					  ? c : w->path[w->depth - 1].first_other;
	st->new_func = !w->fn[f]++;
	st->new_call = c != NO_ID && !w->cn[c]++;
	memcpy(w->at + w->depth * (stride + 1), w->sum,
	       (stride + 1) * sizeof(*w->sum));
	w->depth++;
}

/* The path's last node off it: the stacks below it charged to its
 * function and arc where no node above had them. */
static void tree_leave(struct tree_walk *w)
{
	struct profile *p = w->p;
	const struct stack_tree *t = w->t;
	size_t stride = p->stride;
	const struct tree_step *st = &w->path[--w->depth];
	const struct wide *at = w->at + w->depth * (stride + 1);
	uint32_t f = t->func[st->node], c = t->call[st->node];

	if (st->new_func || st->new_call) {
		uint64_t *row = st->new_func
					? profile_func_row(p, p->func_incl, f)
					: NULL;
		uint64_t *crow = st->new_call ? profile_call_incl(p, c) : NULL;

		for (size_t e = 0; e < stride; e++) {
			uint64_t below = wide_since(&w->sum[e], &at[e]);

			if (row)
				add_row(&row[e], &below, 1);
			if (crow)
				add_row(&crow[e], &below, 1);
		}
		if (crow)
			profile_call_add_count(p, c,
					       w->sum[stride].lo -
						       at[stride].lo);
	}
	w->fn[f]--;
	if (c != NO_ID)
		w->cn[c]--;
}

/* Node a of the walk: the stacks that end there, and those below. */
static void tree_visit(struct tree_walk *w, uint32_t a)
{
	const struct stack_tree *t = w->t;

	if (t->leaf[a] != NO_ID)
		tree_leaf(w, a, t->leaf[a]);
	if (t->func[a] != NO_ID)
		tree_enter(w, a);
}

size_t stack_tree_order(size_t n, const uint32_t *parent,
			const uint8_t *ends, uint32_t *order)
{
	uint32_t *child = xmalloc((n + 1) * sizeof(*child));
	uint32_t *next = xmalloc((n + 1) * sizeof(*next));
	uint32_t *path = xmalloc((n + 1) * sizeof(*path));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		child[i] = NO_ID;
	/* the lists of the nodes stacks end at or pass (a node that
	 * stacks pass has such a child), made from the last node back:
	 * a node's list is whole when the walk back gets to it */
	for (size_t i = n; i-- > 0;) {
		uint32_t up = parent[i];

		if (up == NO_ID || (!ends[i] && child[i] == NO_ID))
			continue;
		next[i] = child[up];
		child[up] = (uint32_t)i;
	}
	for (size_t r = 0; r < n; r++) {
		size_t depth = 0;

		if (parent[r] != NO_ID || (!ends[r] && child[r] == NO_ID))
			continue;
		order[m++] = (uint32_t)r;
		path[depth++] = (uint32_t)r;
		while (depth) {
			uint32_t a = path[depth - 1], c = child[a];

			if (c == NO_ID) {
				depth--;
				continue;
			}
			child[a] = next[c];	/* the next one, after c */
			order[m++] = c;
			path[depth++] = c;
		}
	}
	free(child);
	free(next);
	free(path);
	return m;
}

void stack_charge_tree(struct profile *p, const struct stack_tree *t)
{
	struct tree_walk w = { .p = p, .t = t };

	profile_want_call_self(p);
	w.fn = xcalloc(p->nfuncs + 1, sizeof(*w.fn));
	w.cn = xcalloc(p->ncalls + 1, sizeof(*w.cn));
	w.sum = xcalloc(p->stride + 1, sizeof(*w.sum));
	for (size_t i = 0; i < t->n; i++) {
		/* the path back to i's parent: i's subtree follows it */
		while (w.depth && w.path[w.depth - 1].node != t->parent[i])
			tree_leave(&w);
		tree_visit(&w, (uint32_t)i);
	}
	while (w.depth)
		tree_leave(&w);
	free(w.fn);
	free(w.cn);
	free(w.sum);
	free(w.path);
	free(w.at);
}
