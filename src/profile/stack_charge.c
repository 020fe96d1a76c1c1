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

/* The costs of the stacks strictly below each node, and their samples
 * (parents come before their children) */
static void tree_below(const struct profile *p, const struct stack_tree *t,
		       uint64_t *below, uint64_t *below_samples)
{
	size_t stride = p->stride;

	for (size_t i = t->n; i-- > 0;) {
		uint32_t up = t->parent[i];

		if (up == NO_ID)
			continue;
		if (t->leaf[i] != NO_ID) {
			add_row(below + up * stride, t->cost + i * stride,
				stride);
			below_samples[up] += t->samples[i];
		}
		if (t->func[i] != NO_ID) {
			add_row(below + up * stride, below + i * stride,
				stride);
			below_samples[up] += below_samples[i];
		}
	}
}

/* The stacks ending at node a, its path's functions and arcs counted
 * in fn and cn (a's own not yet): self and count to the leaf, the
 * inclusive costs of a leaf and an arc that no node above has, and
 * the innermost arc of another function's self (first_other[up]: the
 * innermost such arc from up out). */
static void tree_leaf(struct profile *p, const struct stack_tree *t,
		      uint32_t a, const uint32_t *fn, const uint32_t *cn,
		      const uint32_t *first_other)
{
	size_t stride = p->stride;
	const uint64_t *cost = t->cost + a * stride;
	uint32_t f = t->leaf[a], up = t->parent[a], c, s;

	add_row(profile_self(p, f), cost, stride);
	add_row(profile_func_row(p, p->func_count, f),
		t->count + a * stride, stride);
	if (!fn[f])
		add_row(profile_func_row(p, p->func_incl, f), cost, stride);
	if (up == NO_ID)
		return;
	c = t->leaf_call[a];
	if (!cn[c]) {
		add_row(profile_call_incl(p, c), cost, stride);
		profile_call_add_count(p, c, t->samples[a]);
	}
	s = t->func[up] != f ? c : first_other[up];
	if (s != NO_ID)
		add_row(profile_call_self(p, s), cost, stride);
}

/* Node a on the path (enter) or off it again: the stacks below it
 * charged to its function and arc where no node above has them. */
static void tree_pass(struct profile *p, const struct stack_tree *t,
		      uint32_t a, const uint64_t *below,
		      const uint64_t *below_samples, uint32_t *fn,
		      uint32_t *cn, bool enter)
{
	size_t stride = p->stride;
	uint32_t f = t->func[a], c = t->call[a];

	if (!enter) {
		fn[f]--;
		if (c != NO_ID)
			cn[c]--;
		return;
	}
	if (!fn[f]++)
		add_row(profile_func_row(p, p->func_incl, f),
			below + a * stride, stride);
	if (c != NO_ID && !cn[c]++) {
		add_row(profile_call_incl(p, c), below + a * stride, stride);
		profile_call_add_count(p, c, below_samples[a]);
	}
}

void stack_charge_tree(struct profile *p, const struct stack_tree *t)
{
	size_t n = t->n, stride = p->stride, depth = 0;
	uint64_t *below = xcalloc(n * stride + 1, sizeof(*below));
	uint64_t *below_samples = xcalloc(n + 1, sizeof(*below_samples));
	uint32_t *first_other = xmalloc((n + 1) * sizeof(*first_other));
	uint32_t *child = xmalloc((n + 1) * sizeof(*child));
	uint32_t *next = xmalloc((n + 1) * sizeof(*next));
	uint32_t *path = xmalloc((n + 1) * sizeof(*path));
	uint32_t *fn = xcalloc(p->nfuncs + 1, sizeof(*fn));
	uint32_t *cn = xcalloc(p->ncalls + 1, sizeof(*cn));

	profile_want_call_self(p);
	tree_below(p, t, below, below_samples);
	for (size_t i = 0; i < n; i++) {
		uint32_t up = t->parent[i];

		child[i] = NO_ID;
		first_other[i] = NO_ID;
		if (t->func[i] == NO_ID || up == NO_ID)
			continue;
		/* a node a stack passes has a parent it passes too */
		first_other[i] = t->func[up] != t->func[i] ? t->call[i]
							   : first_other[up];
	}
	/* the children lists of the nodes stacks end at or pass */
	for (size_t i = n; i-- > 0;) {
		uint32_t up = t->parent[i];

		if (up == NO_ID ||
		    (t->leaf[i] == NO_ID && t->func[i] == NO_ID))
			continue;
		next[i] = child[up];
		child[up] = (uint32_t)i;
	}
	for (size_t r = 0; r < n; r++) {
		if (t->parent[r] != NO_ID ||
		    (t->leaf[r] == NO_ID && t->func[r] == NO_ID))
			continue;
		path[depth++] = (uint32_t)r;
		if (t->leaf[r] != NO_ID)
			tree_leaf(p, t, (uint32_t)r, fn, cn, first_other);
		if (t->func[r] != NO_ID)
			tree_pass(p, t, (uint32_t)r, below, below_samples,
				  fn, cn, true);
		while (depth) {
			uint32_t a = path[depth - 1], c = child[a];

			if (c == NO_ID) {
				if (t->func[a] != NO_ID)
					tree_pass(p, t, a, below,
						  below_samples, fn, cn, false);
				depth--;
				continue;
			}
			child[a] = next[c];	/* the next one, after c */
			path[depth++] = c;
			if (t->leaf[c] != NO_ID)
				tree_leaf(p, t, c, fn, cn, first_other);
			if (t->func[c] != NO_ID)
				tree_pass(p, t, c, below, below_samples, fn,
					  cn, true);
		}
	}
	free(below);
	free(below_samples);
	free(first_other);
	free(child);
	free(next);
	free(path);
	free(fn);
	free(cn);
}
