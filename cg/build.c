/*
 * The call graph built from the profile for one event: a node per
 * function with its self cost, an arc per call with its count,
 * and the adjacency lists (as gprof's arcs, cg_arcs.c).
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

void cg_build_without(struct cg *cg, const struct profile *p,
		      uint32_t sort_event, const bool *deleted)
{
	size_t nself = 0;

	memset(cg, 0, sizeof(*cg));
	cg->p = p;
	cg->nevents = p->stride;
	cg->sort_event = sort_event;
	cg->measured = p->calls_have_incl || !p->ncalls;
	cg->nnodes = p->nfuncs;
	cg->nodes = xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof(*cg->nodes));
	for (size_t n = 0; n < cg->nnodes; n++) {
		cg->nodes[n].cycle = NO_ID;
		cg->nodes[n].next_member = NO_ID;
		cg->nodes[n].first_out = NO_ID;
		cg->nodes[n].first_in = NO_ID;
	}
	for (size_t c = 0; c < p->ncalls; c++)
		if (p->calls[c].caller == p->calls[c].callee)
			nself++;
	cg->arcs = xcalloc(p->ncalls - nself + 1, sizeof(*cg->arcs));
	cg->func_incl = p->func_incl;
	/* Insert in reverse so each node's lists come out in file order. */
	for (size_t i = p->ncalls; i-- > 0;) {
		const struct pcall *pc = &p->calls[i];
		struct cg_node *caller = &cg->nodes[pc->caller];
		struct cg_node *callee = &cg->nodes[pc->callee];
		struct cg_arc *a;

		if (pc->caller >= cg->nnodes || pc->callee >= cg->nnodes)
			BUG("call %zu refers to function %u/%u of %zu", i,
			    pc->caller, pc->callee, cg->nnodes);
		if (deleted && deleted[i]) {
			cg->ndeleted++;
			continue;
		}
		if (pc->caller == pc->callee) {
			/* gprof: self-recursion is not an arc of the graph */
			callee->self_calls += pc->count;
			continue;
		}
		callee->calls += pc->count;
		a = &cg->arcs[cg->narcs];
		a->caller = pc->caller;
		a->callee = pc->callee;
		a->call = (uint32_t)i;
		a->next_out = caller->first_out;
		a->next_in = callee->first_in;
		caller->first_out = (uint32_t)cg->narcs;
		callee->first_in = (uint32_t)cg->narcs;
		cg->narcs++;
	}
	if (cg->ndeleted)
		cg->func_incl = NULL;
}

void cg_release(struct cg *cg)
{
	free(cg->nodes);
	free(cg->arcs);
	free(cg->cycles);
	free(cg->child);
	free(cg->cycle_self);
	free(cg->cycle_child);
	free(cg->member_incl);
	free(cg->est_self);
	free(cg->est_child);
	free(cg->est_arc_self);
	free(cg->est_arc_child);
	free(cg->est_cycle_self);
	free(cg->est_cycle_child);
	free(cg->order);
	memset(cg, 0, sizeof(*cg));
}
