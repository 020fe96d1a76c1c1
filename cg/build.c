/*
 * The call graph built from the profile for one event: a node per
 * function with its self cost, an arc per call with its count,
 * and the adjacency lists (as gprof's arcs, cg_arcs.c), each an array
 * of call indexes per node.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "cg.h"

void cg_build(struct cg *cg, const struct profile *p, uint32_t sort_event)
{
	cg_build_without(cg, p, sort_event, NULL);
}

/* The arcs out of each node, as counted in start[] (start[n + 1] is
 * n's count on entry): in profile order. */
static void fill_lists(const struct cg *cg, uint32_t *list, uint32_t *start)
{
	const struct profile *p = cg->p;
	uint32_t *next = xreallocarray(NULL, cg->nnodes + 1, sizeof(*next));

	for (size_t n = 0; n < cg->nnodes; n++)
		start[n + 1] += start[n];
	memcpy(next, start, cg->nnodes * sizeof(*next));
	for (size_t c = 0; c < p->ncalls; c++)
		if (cg_is_arc(cg, c))
			list[next[p->calls[c].caller]++] = (uint32_t)c;
	free(next);
}

void cg_build_without(struct cg *cg, const struct profile *p,
		      uint32_t sort_event, const bool *deleted)
{
	memset(cg, 0, sizeof(*cg));
	cg->p = p;
	cg->nevents = p->stride;
	cg->sort_event = sort_event;
	cg->measured = p->calls_have_incl || !p->ncalls;
	cg->nnodes = p->nfuncs;
	cg->nodes = xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof(*cg->nodes));
	for (size_t n = 0; n < cg->nnodes; n++) {
		cg->nodes[n].self_call = NO_ID;
		cg->nodes[n].cycle = NO_ID;
		cg->nodes[n].next_member = NO_ID;
	}
	if (p->ncalls >= NO_ID)
		BUG("%zu calls: more than an arc index holds", p->ncalls);
	cg->arc_set = xcalloc(p->ncalls / 64 + 1, sizeof(*cg->arc_set));
	cg->out_start = xcalloc(cg->nnodes + 1, sizeof(*cg->out_start));
	cg->func_incl = p->func_incl;
	for (size_t i = 0; i < p->ncalls; i++) {
		const struct pcall *pc = &p->calls[i];

		if (pc->caller >= cg->nnodes || pc->callee >= cg->nnodes)
			BUG("call %zu refers to function %u/%u of %zu", i,
			    pc->caller, pc->callee, cg->nnodes);
		if (deleted && deleted[i]) {
			cg->ndeleted++;
			continue;
		}
		if (pc->caller == pc->callee) {
			/* gprof: self-recursion is not an arc of the graph;
			 * the profile has one call per caller and callee */
			if (cg->nodes[pc->callee].self_call != NO_ID)
				BUG("function %u calls itself in calls %u "
				    "and %zu", pc->callee,
				    cg->nodes[pc->callee].self_call, i);
			cg->nodes[pc->callee].self_call = (uint32_t)i;
			continue;
		}
		cg->nodes[pc->callee].calls +=
			profile_call_count(p, (uint32_t)i);
		cg->arc_set[i / 64] |= (uint64_t)1 << (i % 64);
		cg->out_start[pc->caller + 1]++;
		cg->narcs++;
	}
	cg->out = xreallocarray(NULL, cg->narcs + 1, sizeof(*cg->out));
	fill_lists(cg, cg->out, cg->out_start);
	if (cg->ndeleted)
		cg->func_incl = NULL;
}

void cg_release(struct cg *cg)
{
	free(cg->nodes);
	free(cg->topo);
	free(cg->out);
	free(cg->out_start);
	free(cg->arc_set);
	free(cg->cycles);
	free(cg->child);
	free(cg->cycle_self);
	free(cg->cycle_child);
	free(cg->member_incl);
	free(cg->member_set);
	free(cg->member_rank);
	free(cg->est_self);
	free(cg->est_child);
	free(cg->est_arc_self);
	free(cg->est_arc_child);
	free(cg->est_cycle_self);
	free(cg->est_cycle_child);
	free(cg->order);
	memset(cg, 0, sizeof(*cg));
}
