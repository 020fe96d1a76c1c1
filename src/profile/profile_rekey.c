/*
 * Renaming and merging functions after reading (see profile_rekey() in
 * profile.h): in place where nothing merges (profile_rekey_in_place.c),
 * else the tables are rebuilt by adding every old function, arc and
 * position again under its new identity, so merging is the same code
 * as reading.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile.h"
#include "profile_rekey.h"

/* to += from, but the larger of the two for a maximum event: two
 * functions merged into one hold the larger of their largest, as
 * igprof-analyse merges nodes (mergeToNode() with isMax) */
static void add_row(const struct profile *p, uint64_t *to,
		    const uint64_t *from, size_t n)
{
	for (size_t e = 0; e < n; e++)
		profile_combine(p, e, &to[e], from[e]);
}

static size_t unpacked(struct profile *p)
{
	profile_unpack_incl(p);	/* the rows are added again, 8 bytes a number */
	return p->stride;
}

uint32_t profile_rekey(struct profile *p, const struct pfunc *ident,
		       const uint32_t *ident_line, const struct ppos *newpos,
		       uint32_t *map)
{
	if (profile_rekey_in_place(p, ident, ident_line, newpos, map))
		return NO_ID;
	return profile_rekey_rebuild(p, ident, ident_line, newpos, map);
}

/* edges followed, at most, looking for a stack through two functions
 * made one; past it the merge is said to be one that may count twice */
#define TWICE_MAX_STEPS 50000000u

struct twice {
	size_t nfuncs;
	const uint32_t *newid;
	const bool *costed;	/* per old function: some inclusive cost */
	uint32_t *first, *next_edge, *to;	/* old arcs by caller */
	uint32_t *lab1, *lab2;	/* the members that reach a function */
	uint32_t *queue, *qlab, *touched;
	size_t steps;
};

/* Whether one member of group g (the old functions newid makes g)
 * reaches another by the old arcs: each function keeps at most two
 * members that reach it, which is enough to find a member reached by
 * another than itself. */
static bool group_reaches_itself(struct twice *t, uint32_t g,
				 const uint32_t *members, size_t nmembers)
{
	size_t head = 0, tail = 0, ntouched = 0;
	bool found = false;

	for (size_t i = 0; i < nmembers; i++) {
		t->lab1[members[i]] = members[i];
		t->touched[ntouched++] = members[i];
		t->queue[tail] = members[i];
		t->qlab[tail++] = members[i];
	}
	while (head < tail && !found) {
		uint32_t u = t->queue[head], l = t->qlab[head++];

		for (uint32_t e = t->first[u]; e != NO_ID; e = t->next_edge[e]) {
			uint32_t v = t->to[e];

			if (++t->steps > TWICE_MAX_STEPS ||
			    (t->newid[v] == g && t->costed[v] && v != l)) {
				found = true;
				break;
			}
			if (t->lab1[v] == NO_ID) {
				t->lab1[v] = l;
				t->touched[ntouched++] = v;
			} else if (t->lab1[v] != l && t->lab2[v] == NO_ID) {
				t->lab2[v] = l;
			} else {
				continue;
			}
			t->queue[tail] = v;
			t->qlab[tail++] = l;
		}
	}
	for (size_t i = 0; i < ntouched; i++)
		t->lab1[t->touched[i]] = t->lab2[t->touched[i]] = NO_ID;
	return found;
}

/* The first new function (by index) of old functions with inclusive
 * costs from stacks that may share a stack, or NO_ID. */
static uint32_t merged_on_one_stack(size_t nfuncs, size_t nnew,
				    const uint32_t *newid,
				    const uint64_t *func_incl, size_t stride,
				    const struct pcall *calls, size_t ncalls,
				    const uint64_t *call_incl)
{
	uint32_t *nmem = xcalloc(nnew + 1, sizeof(*nmem));
	uint32_t *start = xcalloc(nnew + 2, sizeof(*start));
	uint32_t *members, *fill;
	bool *costed = xcalloc(nfuncs + 1, sizeof(*costed));
	uint32_t found = NO_ID;
	bool any = false;
	struct twice t = { .nfuncs = nfuncs, .newid = newid,
			   .costed = costed };

	for (size_t f = 0; f < nfuncs; f++) {
		costed[f] = !cost_row_zero(func_incl + f * stride, stride);
		if (costed[f] && ++nmem[newid[f]] == 2)
			any = true;
	}
	if (!any) {
		free(nmem);
		free(start);
		free(costed);
		return NO_ID;
	}
	for (size_t g = 0; g < nnew; g++)
		start[g + 1] = start[g] + nmem[g];
	members = xcalloc(start[nnew] + 1, sizeof(*members));
	fill = xcalloc(nnew + 1, sizeof(*fill));
	for (size_t f = 0; f < nfuncs; f++)
		if (costed[f])
			members[start[newid[f]] + fill[newid[f]]++] =
				(uint32_t)f;
	t.first = xreallocarray(NULL, nfuncs + 1, sizeof(*t.first));
	t.next_edge = xreallocarray(NULL, ncalls + 1, sizeof(*t.next_edge));
	t.to = xreallocarray(NULL, ncalls + 1, sizeof(*t.to));
	t.lab1 = xreallocarray(NULL, nfuncs + 1, sizeof(*t.lab1));
	t.lab2 = xreallocarray(NULL, nfuncs + 1, sizeof(*t.lab2));
	/* a function is queued at most twice */
	t.queue = xreallocarray(NULL, 2 * nfuncs + 1, sizeof(*t.queue));
	t.qlab = xreallocarray(NULL, 2 * nfuncs + 1, sizeof(*t.qlab));
	t.touched = xreallocarray(NULL, nfuncs + 1, sizeof(*t.touched));
	for (size_t f = 0; f < nfuncs; f++)
		t.first[f] = t.lab1[f] = t.lab2[f] = NO_ID;
	for (size_t c = 0; c < ncalls; c++) {
		uint32_t from = calls[c].caller;

		t.to[c] = calls[c].callee;
		t.next_edge[c] = NO_ID;
		if (from == calls[c].callee ||
		    cost_row_zero(call_incl + c * stride, stride))
			continue;
		t.next_edge[c] = t.first[from];
		t.first[from] = (uint32_t)c;
	}
	for (size_t g = 0; g < nnew && found == NO_ID; g++)
		if (nmem[g] >= 2 &&
		    group_reaches_itself(&t, (uint32_t)g, members + start[g],
					 nmem[g]))
			found = (uint32_t)g;
	free(t.first);
	free(t.next_edge);
	free(t.to);
	free(t.lab1);
	free(t.lab2);
	free(t.queue);
	free(t.qlab);
	free(t.touched);
	free(members);
	free(fill);
	free(nmem);
	free(start);
	free(costed);
	return found;
}

uint32_t profile_rekey_rebuild(struct profile *p, const struct pfunc *ident,
			       const uint32_t *ident_line,
			       const struct ppos *newpos, uint32_t *map)
{
	size_t stride = unpacked(p), nfuncs = p->nfuncs, ncalls = p->ncalls,
	       npos = p->npos, ncallsites = p->ncallsites, njumps = p->njumps;
	uint64_t *self = p->self, *call_incl = p->call_incl,
		 *pos_cost = p->pos_cost, *callsite_incl = p->callsite_incl;
	uint64_t *func_incl = p->func_incl, *func_count = p->func_count,
		 *func_peak = p->func_peak, *call_self = p->call_self;
	struct paddr_range *func_addrs = p->func_addrs;
	size_t func_addrs_alloc = p->func_addrs_alloc;
	struct pcall *calls = p->calls;
	uint32_t *func_line = p->func_line;
	size_t func_line_alloc = p->func_line_alloc;
	uint64_t *big_counts = p->big_counts;
	struct ppos *pos = p->pos;
	struct pcallsite *callsites = p->callsites;
	struct pjump *jumps = p->jumps;
	uint32_t *newid = xcalloc(nfuncs + 1, sizeof(*newid));
	bool self_lost = false;
	uint32_t twice = NO_ID;
	uint32_t *newcall = xcalloc(ncalls + 1, sizeof(*newcall));
	uint32_t *newpos_id = xcalloc(npos + 1, sizeof(*newpos_id));

	free(p->funcs);
	free(p->pos_table);
	p->funcs = NULL;
	p->func_line = NULL;
	p->func_line_alloc = 0;
	p->self = p->call_incl = p->pos_cost = NULL;
	p->calls = NULL;
	p->big_counts = NULL;
	p->nbig_counts = p->big_counts_alloc = 0;
	p->pos = NULL;
	p->pos_table = NULL;
	p->nfuncs = p->funcs_alloc = p->self_alloc = 0;
	p->ncalls = p->calls_alloc = p->call_incl_alloc = 0;
	p->npos = p->pos_alloc = p->pos_cost_alloc = 0;
	p->pos_mask = 0;
	free(p->jump_table);
	p->callsites = NULL;
	p->callsite_incl = NULL;
	p->jumps = NULL;
	p->jump_table = NULL;
	p->ncallsites = p->callsites_alloc = p->callsite_incl_alloc = 0;
	p->njumps = p->jumps_alloc = p->jump_mask = 0;
	u64map_release(&p->callsite_index);
	p->func_incl = p->func_count = p->func_peak = NULL;
	p->extras_alloc = 0;
	p->func_addrs = NULL;
	p->func_addrs_alloc = 0;
	p->call_self = NULL;
	p->call_self_alloc = 0;
	if (func_incl)
		profile_want_func_extras(p);
	if (call_self)
		profile_want_call_self(p);
	profile_drop_indexes(p);

	for (size_t f = 0; f < nfuncs; f++) {
		uint32_t line;

		newid[f] = profile_func(p, ident[f].object, ident[f].file,
					ident[f].name);
		add_row(p, profile_self(p, newid[f]), self + f * stride, stride);
		line = ident_line ? ident_line[f]
			: f < func_line_alloc ? func_line[f] : 0;
		if (line && !profile_func_line(p, newid[f]))
			profile_set_func_line(p, newid[f], line);
		if (f < func_addrs_alloc) {
			profile_func_addr(p, newid[f], func_addrs[f].lo);
			profile_func_addr(p, newid[f], func_addrs[f].hi);
		}
		if (func_incl) {
			uint64_t *peak = profile_func_row(p, p->func_peak, newid[f]);

			add_row(p, profile_func_row(p, p->func_incl, newid[f]),
				func_incl + f * stride, stride);
			for (size_t e = 0; e < stride; e++)
				profile_func_row(p, p->func_count,
						 newid[f])[e] +=
					func_count[f * stride + e];
			for (size_t e = 0; e < stride; e++)
				if (peak[e] < func_peak[f * stride + e])
					peak[e] = func_peak[f * stride + e];
		}
	}
	for (size_t i = 0; i < p->nstacks; i++)
		p->stacks[i].func = newid[p->stacks[i].func];
	for (size_t c = 0; c < ncalls; c++) {
		uint64_t count = pcall_count(&calls[c], big_counts);
		uint32_t nc;

		/* an arc of no calls and no cost says nothing (calls moved
		 * away by --inlined=callee leave them) */
		newcall[c] = NO_ID;
		if (!count && cost_row_zero(call_incl + c * stride, stride))
			continue;
		nc = profile_call(p, newid[calls[c].caller],
				  newid[calls[c].callee]);
		newcall[c] = nc;
		profile_call_add_count(p, nc, count);
		add_row(p, profile_call_incl(p, nc), call_incl + c * stride, stride);
		/* the self of two arcs made one: as exact as their inclusive
		 * (a stack through both counts once in each) */
		if (call_self)
			add_row(p, profile_call_self(p, nc),
				call_self + c * stride, stride);
		/* an arc with a self part that became a self-call (its
		 * caller merged with its callee: a C++ constructor's two
		 * symbols, two addresses of one function): that self
		 * belongs to the arc from the next other function out,
		 * which only the stacks know; the arcs are then split by
		 * the callee's ratio (cg_arc_share()), as Callgrind's */
		if (call_self && p->calls[nc].caller == p->calls[nc].callee &&
		    calls[c].caller != calls[c].callee &&
		    !cost_row_zero(call_self + c * stride, stride))
			self_lost = true;
	}
	if (self_lost) {
		free(p->call_self);
		p->call_self = NULL;
		p->call_self_alloc = 0;
	}
	for (size_t i = 0; i < npos; i++) {
		const struct ppos *q = newpos ? &newpos[i] : &pos[i];
		uint32_t np = profile_pos_as_is(p, newid[q->func], q->file,
						q->line, q->addr, q->region);

		newpos_id[i] = np;
		add_row(p, profile_pos_cost(p, np), pos_cost + i * stride, stride);
	}
	for (size_t i = 0; i < ncallsites; i++) {
		uint32_t cs;

		if (newcall[callsites[i].call] == NO_ID)
			continue;
		cs = profile_callsite(p, newpos_id[callsites[i].pos],
				      newcall[callsites[i].call]);

		p->callsites[cs].count += callsites[i].count;
		add_row(p, profile_callsite_incl(p, cs), callsite_incl + i * stride,
			stride);
	}
	for (size_t i = 0; i < njumps; i++) {
		struct pjump j = jumps[i];

		j.from = newpos_id[j.from];
		profile_add_jump(p, &j);
	}
	if (map)
		memcpy(map, newid, nfuncs * sizeof(*map));
	if (func_incl)
		twice = merged_on_one_stack(nfuncs, p->nfuncs, newid, func_incl,
					    stride, calls, ncalls, call_incl);
	free(newid);
	free(newcall);
	free(newpos_id);
	free(callsites);
	free(callsite_incl);
	free(jumps);
	free(self);
	free(func_incl);
	free(func_addrs);
	free(func_count);
	free(func_peak);
	free(call_incl);
	free(call_self);
	free(pos_cost);
	free(calls);
	free(func_line);
	free(big_counts);
	free(pos);
	return twice;
}
