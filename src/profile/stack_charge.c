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
