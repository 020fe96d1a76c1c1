/*
 * The inputs' parts (parts.h): added as the readers end them, grouped by
 * thread and process for the listings.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "parts.h"
#include "profile_index.h"

struct ppart *profile_add_part(struct profile *p, const struct ppart *part,
			       const uint64_t *cost, size_t ncost)
{
	struct ppart *pt;

	/* zeros at the end are not kept: a file of a thousand events and a
	 * million empty parts holds no more than its size */
	while (ncost && !cost[ncost - 1])
		ncost--;
	ARRAY_GROW(p->parts, p->nparts + 1, p->parts_alloc);
	pt = &p->parts[p->nparts++];
	*pt = *part;
	pt->ncost = (uint32_t)ncost;
	pt->cost = NULL;
	if (ncost) {
		pt->cost = arena_alloc(&p->arena, ncost * sizeof(*cost));
		memcpy(pt->cost, cost, ncost * sizeof(*cost));
	}
	return pt;
}

void part_cost_add(const struct profile *p, size_t e, uint64_t *acc,
		   uint64_t v)
{
	if (e < p->nevents && p->events[e].max)
		*acc = *acc > v ? *acc : v;
	else if (__builtin_add_overflow(*acc, v, acc))
		*acc = UINT64_MAX;	/* costs are 64-bit (Q16) */
}

size_t part_groups(const struct profile *p, bool by_thread, size_t ne,
		   struct part_group **out)
{
	struct part_group *g = NULL;
	struct u64map index;
	size_t n = 0;

	*out = NULL;
	/* (pid, tid) -> group: a damaged file may name a million threads */
	u64map_init(&index);
	for (size_t i = 0; i < p->nparts; i++) {
		const struct ppart *pt = &p->parts[i];
		uint32_t tid = by_thread ? pt->tid : 0;
		uint32_t k;

		if (!pt->selected)
			continue;
		k = u64map_get_or_put(&index, (uint64_t)pt->pid << 32 | tid,
				      (uint32_t)n, NULL);
		if (k == n) {
			if (!g)
				g = xcalloc(p->nparts, sizeof(*g));
			g[n].pid = pt->pid;
			g[n].tid = tid;
			g[n].name = pt->name;
			g[n].cost = xcalloc(ne + 1, sizeof(*g[n].cost));
			n++;
		}
		g[k].nparts++;
		for (size_t e = 0; e < ne; e++)
			part_cost_add(p, e, &g[k].cost[e], ppart_cost(pt, e));
	}
	u64map_release(&index);
	*out = g;
	return n;
}

void part_groups_free(struct part_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].cost);
	free(g);
}

bool parts_have_threads(const struct profile *p)
{
	for (size_t i = 0; i < p->nparts; i++)
		if (p->parts[i].tid)
			return true;
	return false;
}

/* name of `from` in `to` */
static name_id name_in(struct profile *to, const struct profile *from,
		       name_id n)
{
	return n == NO_NAME ? NO_NAME
			    : names_intern(&to->names, profile_str(from, n),
					   names_len(&from->names, n));
}

static void copy_events(struct profile *to, const struct profile *from)
{
	struct pterm *terms = NULL;
	size_t terms_alloc = 0;

	for (size_t e = 0; e < from->nevents; e++) {
		const struct pevent *fe = &from->events[e];
		uint32_t te = profile_event(to, name_in(to, from, fe->name));

		to->events[te].long_name = name_in(to, from, fe->long_name);
		to->events[te].unit_seconds = fe->unit_seconds;
		to->events[te].unit = name_in(to, from, fe->unit);
		to->events[te].max = fe->max;
		to->events[te].sample_count = fe->sample_count;
	}
	for (size_t d = 0; d < from->nderived; d++) {
		const struct pderived *fd = &from->derived[d];
		name_id name = name_in(to, from, fd->name), long_name;

		ARRAY_GROW(terms, fd->nterms + 1, terms_alloc);
		for (size_t t = 0; t < fd->nterms; t++) {
			terms[t] = from->terms[fd->first_term + t];
			terms[t].event = name_in(to, from, terms[t].event);
		}
		profile_define_derived(to, name, terms, fd->nterms, fd->path,
				       fd->lineno);
		/* a derived event's long name waits in long_names (its
		 * pderived.long_name is not set) */
		long_name = u64map_get(&from->long_names, fd->name);
		if (long_name != U64MAP_NONE)
			profile_set_long_name(to, name,
					      name_in(to, from, long_name));
	}
	free(terms);
}

void profile_part_clear(struct profile *p)
{
	/* rows are zeroed as functions and arcs are added again; the
	 * caches before the tables are checked against the arrays */
	p->nfuncs = 0;
	p->ncalls = 0;
	p->nbig_counts = 0;
	p->nbig_incl = 0;
	p->calls_have_incl = false;
	free(p->summary);
	p->summary = NULL;
	pindex_release(&p->func_index);
	pindex_release(&p->call_index);
}

static int id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* new id of from's function f: its place in the sorted ids */
static uint32_t new_id(const uint32_t *ids, size_t n, uint32_t f)
{
	const uint32_t *at = bsearch(&f, ids, n, sizeof(*ids), id_cmp);

	if (!at)
		BUG("a function of the part's arcs or stacks was not copied");
	return (uint32_t)(at - ids);
}

/* funcs, the arcs' ends and the stacks' functions, sorted, each once */
static uint32_t *copied_ids(const struct profile *from,
			    const uint32_t *funcs, size_t nfuncs, size_t *n)
{
	size_t k = nfuncs + 2 * from->ncalls + from->nstacks, m = 0;
	uint32_t *ids = xmalloc((k + 1) * sizeof(*ids));

	memcpy(ids, funcs, nfuncs * sizeof(*ids));
	m = nfuncs;
	for (size_t c = 0; c < from->ncalls; c++) {
		ids[m++] = from->calls[c].caller;
		ids[m++] = from->calls[c].callee;
	}
	for (size_t s = 0; s < from->nstacks; s++)
		ids[m++] = from->stacks[s].func;
	qsort(ids, m, sizeof(*ids), id_cmp);
	*n = 0;
	for (size_t i = 0; i < m; i++)
		if (!*n || ids[*n - 1] != ids[i])
			ids[(*n)++] = ids[i];
	return ids;
}

/* from's function f in the copy: by ids, or as it is without them */
static uint32_t part_id(const uint32_t *ids, size_t n, uint32_t f)
{
	return ids ? new_id(ids, n, f) : f;
}

/*
 * The part `from` read as `input`, into `to`: its functions ids[0..n)
 * (all of them, in their order, when ids is NULL), each new to `to`
 * and taking the next id, then the arcs, stacks and values between
 * them; a Callgrind part has no stacks, an IgProf one no summary.
 */
static void copy_part(struct profile *to, const struct profile *from,
		      uint32_t input, const uint32_t *ids, size_t n)
{
	const struct pinput *fi = &from->inputs[input];
	struct pinput *ti = profile_add_input(to, profile_str(from, fi->path),
					      profile_str(from, fi->format));
	size_t ne = from->nevents, bytes = ne * sizeof(uint64_t), width;
	uint64_t *row;

	ti->creator = name_in(to, from, fi->creator);
	ti->cmd = name_in(to, from, fi->cmd);
	ti->comm = name_in(to, from, fi->comm);
	ti->nparts = ti->nselected = 1;
	copy_events(to, from);
	if (from->func_incl)
		profile_want_func_extras(to);
	if (from->call_self)
		profile_want_call_self(to);
	width = (from->stride > to->stride ? from->stride : to->stride) + 1;
	row = xcalloc(width, sizeof(*row));
	for (size_t i = 0; i < n; i++) {
		uint32_t f = ids ? ids[i] : (uint32_t)i;
		const struct pfunc *pf = &from->funcs[f];
		uint32_t g = profile_func(to, name_in(to, from, pf->object),
					  name_in(to, from, pf->file),
					  name_in(to, from, pf->name));

		memcpy(profile_self(to, g), profile_self(from, f), bytes);
		if (!from->func_incl)
			continue;
		memcpy(profile_func_row(to, to->func_incl, g),
		       profile_func_row(from, from->func_incl, f), bytes);
		memcpy(profile_func_row(to, to->func_count, g),
		       profile_func_row(from, from->func_count, f), bytes);
		memcpy(profile_func_row(to, to->func_peak, g),
		       profile_func_row(from, from->func_peak, f), bytes);
	}
	for (size_t c = 0; c < from->ncalls; c++) {
		const struct pcall *pc = &from->calls[c];
		uint32_t tc = profile_call(to, part_id(ids, n, pc->caller),
					   part_id(ids, n, pc->callee));

		profile_call_set_count(to, tc, pcall_count(pc,
							   from->big_counts));
		profile_call_incl_add(to, tc, NULL,
				      profile_call_incl_row(from, (uint32_t)c,
							    row), ne);
		if (from->call_self)
			memcpy(profile_call_self(to, tc),
			       profile_call_self(from, (uint32_t)c), bytes);
	}
	to->calls_have_incl = from->calls_have_incl;
	/* a node's caller is made before it: the same ids */
	for (size_t s = 0; s < from->nstacks; s++)
		profile_stack(to, part_id(ids, n, from->stacks[s].func),
			      from->stacks[s].caller);
	for (size_t v = 0; v < from->nstack_values; v++) {
		const struct pstack_value *sv = &from->stack_values[v];

		profile_add_stack_value(to, sv->stack, sv->event, sv->value,
					sv->count);
	}
	to->counts_by_event = from->counts_by_event;
	to->count_event = from->count_event;
	if (from->summary) {
		memset(row, 0, width * sizeof(*row));
		memcpy(row, from->summary, bytes);
		profile_add_summary(to, row);
	}
	free(row);
}

void profile_part_copy(struct profile *to, const struct profile *from,
		       uint32_t input)
{
	copy_part(to, from, input, NULL, from->nfuncs);
}

void profile_part_copy_some(struct profile *to, const struct profile *from,
			    uint32_t input, const uint32_t *funcs,
			    size_t nfuncs)
{
	size_t n;
	uint32_t *ids = copied_ids(from, funcs, nfuncs, &n);

	copy_part(to, from, input, ids, n);
	free(ids);
}

void profile_part_clear_some(struct profile *p, const uint32_t *funcs,
			     size_t nfuncs)
{
	size_t bytes = p->stride * sizeof(uint64_t);

	for (size_t i = 0; i < nfuncs; i++) {
		memset(profile_self(p, funcs[i]), 0, bytes);
		if (!p->func_incl)
			continue;
		memset(profile_func_row(p, p->func_incl, funcs[i]), 0, bytes);
		memset(profile_func_row(p, p->func_count, funcs[i]), 0, bytes);
		memset(profile_func_row(p, p->func_peak, funcs[i]), 0, bytes);
	}
	p->ncalls = 0;
	p->nbig_counts = 0;
	p->nbig_incl = 0;
	p->nstacks = 0;
	p->nstack_values = 0;
	pindex_release(&p->call_index);
}
