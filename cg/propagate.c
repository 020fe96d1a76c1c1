/*
 * Cost propagation from callees to callers (gprof's cg_assemble /
 * propagate_time), measured or estimated: see cg.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "cg.h"

static bool same_cycle(const struct cg *cg, uint32_t u, uint32_t v)
{
	uint32_t c = cg->nodes[u].cycle;

	return c != NO_ID && c == cg->nodes[v].cycle;
}

/*
 * Adds a row into an accumulator. A real counter never reaches 2^64, but
 * a damaged profile can give two arcs costs that add up past it; the
 * result would wrap to a small, believable number, so that is an error
 * (naming the function and event) instead.
 */
static int add_row(const struct cg *cg, uint64_t *acc, const uint64_t *row,
		   uint32_t func)
{
	/* a maximum event (pevent.max) takes the larger: a function's
	 * children are then the largest of its calls' (igprof-analyse's
	 * KIDS for a _MAX counter: src/analyse.cc, GProfMainRowBuilder::
	 * build(isMax), the largest of its callees' values) */
	for (size_t e = 0; e < cg->nevents; e++)
		if (!profile_combine(cg->p, e, &acc[e], row[e]))
			return error("the inclusive cost of '%s' in event %s "
				     "adds up past 2^64: the profile's call "
				     "costs are damaged",
				     profile_str(cg->p, cg->p->funcs[func].name),
				     profile_str(cg->p, cg->p->events[e].name));
	return 0;
}

/*
 * Cycle member n's row of member_incl: its rank among the members, the
 * members before its 64-node word and those before it in the word.
 */
static uint64_t *member_row(const struct cg *cg, uint32_t n)
{
	uint64_t below = cg->member_set[n / 64] &
			 (((uint64_t)1 << (n % 64)) - 1);
	size_t slot = cg->member_rank[n / 64] +
		      (size_t)__builtin_popcountll(below);

	return cg->member_incl + slot * cg->nevents;
}

/* member_set and member_rank from the nodes' cycles; the members. */
static size_t index_members(struct cg *cg)
{
	size_t nwords = cg->nnodes / 64 + 1, nmembers = 0;

	free(cg->member_set);
	free(cg->member_rank);
	cg->member_set = xcalloc(nwords, sizeof(*cg->member_set));
	cg->member_rank = xcalloc(nwords, sizeof(*cg->member_rank));
	for (size_t n = 0; n < cg->nnodes; n++)
		if (cg->nodes[n].cycle != NO_ID)
			cg->member_set[n / 64] |= (uint64_t)1 << (n % 64);
	for (size_t w = 0; w < nwords; w++) {
		cg->member_rank[w] = (uint32_t)nmembers;
		nmembers += (size_t)__builtin_popcountll(cg->member_set[w]);
	}
	return nmembers;
}

static int member_inclusive(struct cg *cg)
{
	size_t ne = cg->nevents;
	const uint64_t *exact = cg->func_incl;
	size_t nmembers = index_members(cg);
	uint64_t *buf = xmalloc((ne + 1) * sizeof(*buf));	/* a packed row */

	free(cg->member_incl);
	cg->member_incl = xcalloc(nmembers * ne + 1, sizeof(uint64_t));
	/* A profile of whole stacks (IgProf) knows it exactly; capped below
	 * only in case symbol resolution merged two nested functions. */
	if (exact)
		for (size_t n = 0; n < cg->nnodes; n++)
			if (cg->nodes[n].cycle != NO_ID)
				memcpy(member_row(cg, (uint32_t)n),
				       exact + n * ne, ne * sizeof(uint64_t));
	for (size_t a = exact ? 0 : cg->p->ncalls; a-- > 0;) {
		uint32_t callee = cg_arc_callee(cg, (uint32_t)a);

		if (cg->nodes[callee].cycle == NO_ID || !cg_is_arc(cg, a))
			continue;
		if (add_row(cg, member_row(cg, callee),
			    profile_call_incl_row(cg->p, (uint32_t)a, buf),
			    callee) < 0) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	for (size_t n = 0; n < cg->nnodes; n++) {
		uint32_t cyc = cg->nodes[n].cycle;
		uint64_t *mi;

		if (cyc == NO_ID)
			continue;
		mi = member_row(cg, (uint32_t)n);
		for (size_t e = 0; e < ne; e++) {
			uint64_t whole = cg->cycle_self[cyc * ne + e] +
					 cg->cycle_child[cyc * ne + e];

			if (mi[e] > whole)
				mi[e] = whole;
		}
	}
	return 0;
}

void cg_inclusive_row(const struct cg *cg, uint32_t n, uint64_t *out)
{
	size_t ne = cg->nevents;

	if (cg->nodes[n].cycle != NO_ID) {
		memcpy(out, member_row(cg, n), ne * sizeof(*out));
		return;
	}
	for (size_t e = 0; e < ne; e++)
		out[e] = profile_self(cg->p, n)[e] + cg->child[(size_t)n * ne + e];
}

/*
 * A maximum event's child and cycle_child hold the largest of the calls
 * out (add_row()); the listings take self + child as the inclusive cost
 * (gprof's), which for a maximum is the larger of the two: so child
 * becomes what the largest below exceeds self by, 0 if it does not.
 * The largest of the calls stays to be shown (cg_node_largest_call()).
 */
static void max_as_excess(struct cg *cg)
{
	size_t ne = cg->nevents;

	for (size_t e = 0; e < ne; e++) {
		if (!profile_event_max(cg->p, e))
			continue;
		for (size_t n = 0; n < cg->nnodes; n++) {
			uint64_t self = profile_self(cg->p, (uint32_t)n)[e];
			uint64_t *child = &cg->child[n * ne + e];

			*child = *child > self ? *child - self : 0;
		}
		for (size_t c = 0; c < cg->ncycles; c++) {
			uint64_t self = cg->cycle_self[c * ne + e];
			uint64_t *child = &cg->cycle_child[c * ne + e];

			*child = *child > self ? *child - self : 0;
		}
	}
}

/* The largest of n's calls to other functions, or only of those that
 * leave its cycle. */
static uint64_t largest_call(const struct cg *cg, uint32_t n, uint32_t event,
			     bool leaving)
{
	uint64_t most = 0;

	for (uint32_t k = cg->out_start[n]; k < cg->out_start[n + 1]; k++) {
		uint32_t a = cg->out[k], v = cg_arc_callee(cg, a);
		uint64_t incl;

		if (v == n || (leaving && same_cycle(cg, n, v)))
			continue;
		incl = profile_call_incl_at(cg->p, a, event);
		if (incl > most)
			most = incl;
	}
	return most;
}

uint64_t cg_node_largest_call(const struct cg *cg, uint32_t n,
			      uint32_t event)
{
	/* exact inclusive known: a cycle member's children take in the
	 * calls inside the cycle, as cg_node_child()'s do */
	return largest_call(cg, n, event, !cg->func_incl);
}

uint64_t cg_cycle_largest_call(const struct cg *cg, uint32_t c,
			       uint32_t event)
{
	uint64_t most = 0;

	for (uint32_t m = cg->cycles[c].first_member; m != NO_ID;
	     m = cg->nodes[m].next_member) {
		uint64_t v = largest_call(cg, m, event, true);

		if (v > most)
			most = v;
	}
	return most;
}

int cg_propagate_measured(struct cg *cg)
{
	size_t ne = cg->nevents;
	const struct profile *p = cg->p;
	uint64_t *buf;

	if (!cg->measured)
		BUG("measured propagation of a profile without arc costs");
	free(cg->child);
	free(cg->cycle_self);
	free(cg->cycle_child);
	cg->child = xcalloc(cg->nnodes * ne + 1, sizeof(*cg->child));
	cg->cycle_self = xcalloc(cg->ncycles * ne + 1, sizeof(uint64_t));
	cg->cycle_child = xcalloc(cg->ncycles * ne + 1, sizeof(uint64_t));
	buf = xmalloc((ne + 1) * sizeof(*buf));	/* a packed row */

	for (size_t a = p->ncalls; a-- > 0;) {
		const struct pcall *pc = &p->calls[a];
		const uint64_t *incl;
		uint64_t *child = cg->child + (size_t)pc->caller * ne;
		uint32_t cyc = cg->nodes[pc->caller].cycle;

		/* Calls inside a cycle are not propagated: the cycle as a
		 * whole already holds their cost once. */
		if (!cg_is_arc(cg, a) || same_cycle(cg, pc->caller, pc->callee))
			continue;
		incl = profile_call_incl_row(p, (uint32_t)a, buf);
		if (add_row(cg, child, incl, pc->caller) < 0)
			goto damaged;
		if (cyc != NO_ID &&
		    add_row(cg, cg->cycle_child + (size_t)cyc * ne, incl,
			    pc->caller) < 0)
			goto damaged;
	}
	free(buf);
	for (size_t n = 0; n < cg->nnodes; n++) {
		uint32_t cyc = cg->nodes[n].cycle;
		const uint64_t *self = profile_self(p, (uint32_t)n);
		uint64_t *child = cg->child + n * ne;

		/* self + children is what the listings add up later */
		for (size_t e = 0; e < ne; e++)
			if (self[e] + child[e] < self[e])
				return error("the inclusive cost of '%s' in "
					     "event %s adds up past 2^64: the "
					     "profile's call costs are damaged",
					     profile_str(p, p->funcs[n].name),
					     profile_str(p, p->events[e].name));
		if (cyc == NO_ID)
			continue;
		if (add_row(cg, cg->cycle_self + (size_t)cyc * ne, self,
			    (uint32_t)n) < 0)
			return -1;
	}
	for (size_t n = 0; n < cg->nnodes; n++) {
		uint32_t cyc = cg->nodes[n].cycle;
		const uint64_t *cs = cg->cycle_self + (size_t)cyc * ne;
		const uint64_t *cc = cg->cycle_child + (size_t)cyc * ne;

		if (cyc == NO_ID)
			continue;
		for (size_t e = 0; e < ne; e++)
			if (cs[e] + cc[e] < cs[e])
				return error("the inclusive cost of the cycle "
					     "of '%s' in event %s adds up past "
					     "2^64: the profile's call costs "
					     "are damaged",
					     profile_str(p, p->funcs[n].name),
					     profile_str(p, p->events[e].name));
	}
	max_as_excess(cg);
	return member_inclusive(cg);
damaged:
	free(buf);
	return -1;
}

static int by_topo(const void *a, const void *b, void *arg)
{
	const struct cg *cg = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t tx = cg->topo[x], ty = cg->topo[y];

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x < y ? -1 : x > y;
}

void cg_propagate_estimated(struct cg *cg, const double *self)
{
	size_t n = cg->nnodes;
	uint32_t *order = xreallocarray(NULL, n ? n : 1, sizeof(*order));

	cg->est_self = xcalloc(n + 1, sizeof(double));
	cg->est_child = xcalloc(n + 1, sizeof(double));
	cg->est_arc_self = xcalloc(cg->p->ncalls + 1, sizeof(double));
	cg->est_arc_child = xcalloc(cg->p->ncalls + 1, sizeof(double));
	cg->est_cycle_self = xcalloc(cg->ncycles + 1, sizeof(double));
	cg->est_cycle_child = xcalloc(cg->ncycles + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		cg->est_self[i] = self[i];
		order[i] = (uint32_t)i;
		if (cg->nodes[i].cycle != NO_ID)
			cg->est_cycle_self[cg->nodes[i].cycle] += self[i];
	}
	qsort_r(order, n, sizeof(*order), by_topo, cg);

	/* Callees first: by the time a caller is reached, everything its
	 * callees (and their cycles) cost is known. */
	for (size_t i = 0; i < n; i++) {
		uint32_t u = order[i];
		uint32_t ucyc = cg->nodes[u].cycle;

		for (uint32_t k = cg->out_start[u]; k < cg->out_start[u + 1];
		     k++) {
			uint32_t a = cg->out[k];
			uint32_t v = cg_arc_callee(cg, a);
			uint32_t vcyc = cg->nodes[v].cycle;
			double ncalls, tself, tchild, frac;

			if (same_cycle(cg, u, v))
				continue;
			if (vcyc != NO_ID) {
				ncalls = (double)cg->cycles[vcyc].calls;
				tself = cg->est_cycle_self[vcyc];
				tchild = cg->est_cycle_child[vcyc];
			} else {
				ncalls = (double)cg->nodes[v].calls;
				tself = cg->est_self[v];
				tchild = cg->est_child[v];
			}
			if (ncalls == 0)
				continue;
			frac = (double)cg_arc_count(cg, a) / ncalls;
			cg->est_arc_self[a] = tself * frac;
			cg->est_arc_child[a] = tchild * frac;
			cg->est_child[u] += (tself + tchild) * frac;
			if (ucyc != NO_ID)
				cg->est_cycle_child[ucyc] += (tself + tchild) * frac;
		}
	}
	free(order);
}

double cg_node_self(const struct cg *cg, uint32_t n, uint32_t event)
{
	if (cg->est_self)
		return cg->est_self[n];
	return (double)profile_self(cg->p, n)[event];
}

double cg_node_child(const struct cg *cg, uint32_t n, uint32_t event)
{
	if (cg->est_child)
		return cg->est_child[n];
	/* exact inclusive known: a cycle member's children are the rest of
	 * it, not only the calls that leave the cycle */
	if (cg->func_incl && cg->nodes[n].cycle != NO_ID)
		return (double)(member_row(cg, n)[event] -
				profile_self(cg->p, n)[event]);
	return (double)cg->child[(size_t)n * cg->nevents + event];
}

double cg_cycle_self(const struct cg *cg, uint32_t c, uint32_t event)
{
	if (cg->est_cycle_self)
		return cg->est_cycle_self[c];
	return (double)cg->cycle_self[(size_t)c * cg->nevents + event];
}

double cg_cycle_child(const struct cg *cg, uint32_t c, uint32_t event)
{
	if (cg->est_cycle_child)
		return cg->est_cycle_child[c];
	return (double)cg->cycle_child[(size_t)c * cg->nevents + event];
}

void cg_arc_share(const struct cg *cg, uint32_t a, uint32_t event,
		  double *self, double *child)
{
	uint32_t v = cg_arc_callee(cg, a), vcyc = cg->nodes[v].cycle;
	double incl, tself, ttotal;

	*self = *child = 0;
	if (same_cycle(cg, cg_arc_caller(cg, a), v))
		return;
	if (cg->est_arc_self) {
		*self = cg->est_arc_self[a];
		*child = cg->est_arc_child[a];
		return;
	}
	incl = (double)profile_call_incl_at(cg->p, a, event);
	if (profile_event_max(cg->p, event)) {
		/* no share of a maximum: the largest under the call, as
		 * igprof-analyse's call rows show it */
		*self = incl;
		return;
	}
	if (cg->p->call_self && vcyc == NO_ID) {
		/* whole stacks: what the callee spent itself when called
		 * from this caller, exactly (profile.call_self). Not into a
		 * cycle: the cycle is one unit there, and what its members
		 * spent under this call is known only from the stacks,
		 * which the reader charged before the cycles were found; the
		 * cycle's ratio below keeps the lines of `<cycle N as a
		 * whole>` adding up to its self and children. */
		*self = (double)profile_call_self(cg->p, a)[event];
		if (*self > incl)
			*self = incl;
		*child = incl - *self;
		return;
	}
	if (vcyc != NO_ID) {
		tself = cg_cycle_self(cg, vcyc, event);
		ttotal = tself + cg_cycle_child(cg, vcyc, event);
	} else {
		tself = cg_node_self(cg, v, event);
		ttotal = tself + cg_node_child(cg, v, event);
	}
	*self = ttotal > 0 ? incl * (tself / ttotal) : 0;
	if (*self > incl)
		*self = incl;
	*child = incl - *self;
}
