/*
 * Topological numbering with cycle detection. gprof does this with a
 * recursive depth-first numbering (cg_dfn.c) that collapses cycles as it
 * finds them; we use Tarjan's strongly connected components, which gives
 * the same result (every cycle found, callees numbered before callers)
 * in one pass, written with an explicit stack so that a call chain a
 * million deep in the input cannot overflow ours.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "cg.h"

#define UNVISITED UINT32_MAX

struct frame {
	uint32_t node;
	uint32_t arc;		/* next out-arc to look at: into out[] */
};

/*
 * Tarjan's numbers live in the nodes while the search runs, in fields
 * it sets only at the end: a node's visit number in index (cg_rank()
 * numbers the listing later) and its low link in cycle, written over
 * with its cycle when its component is done. A node is on the stack
 * when visited and not yet numbered topologically. On a big program
 * that is 6 MB less at the analysis' peak than arrays of their own.
 */
#define VISIT(w) (cg->nodes[w].index)
#define LOW(w) (cg->nodes[w].cycle)
#define ON_STACK(w) (VISIT(w) != UNVISITED && !cg->topo[w])

void cg_find_cycles(struct cg *cg)
{
	size_t n = cg->nnodes;
	uint32_t *stack = xreallocarray(NULL, n ? n : 1, sizeof(*stack));
	struct frame *frames = xreallocarray(NULL, n ? n : 1, sizeof(*frames));
	uint32_t counter = 0, topo = 0;
	size_t sp = 0, cycles_alloc = 0;

	free(cg->topo);
	cg->topo = xcalloc(n ? n : 1, sizeof(*cg->topo));

	for (size_t i = 0; i < n; i++)
		VISIT(i) = UNVISITED;
	for (uint32_t root = 0; root < n; root++) {
		size_t fp = 0;

		if (VISIT(root) != UNVISITED)
			continue;
		frames[fp++] = (struct frame){ root, cg->out_start[root] };
		VISIT(root) = LOW(root) = counter++;
		stack[sp++] = root;
		while (fp) {
			struct frame *f = &frames[fp - 1];
			uint32_t v = f->node, low_v;

			if (f->arc < cg->out_start[v + 1]) {
				uint32_t w = cg_arc_callee(cg, cg->out[f->arc++]);

				if (VISIT(w) == UNVISITED) {
					VISIT(w) = LOW(w) = counter++;
					stack[sp++] = w;
					frames[fp++] = (struct frame){
						w, cg->out_start[w]
					};
				} else if (ON_STACK(w) && VISIT(w) < LOW(v)) {
					LOW(v) = VISIT(w);
				}
				continue;
			}
			/* all of v's callees are done */
			low_v = LOW(v);	/* before the cycle field is set */
			if (low_v == VISIT(v)) {
				uint32_t members = 0, first = NO_ID, w;

				topo++;
				do {
					w = stack[--sp];
					cg->topo[w] = topo;
					LOW(w) = NO_ID;
					cg->nodes[w].next_member = first;
					first = w;
					members++;
				} while (w != v);
				if (members > 1) {
					struct cg_cycle *c;

					if (cg->ncycles == cycles_alloc) {
						cycles_alloc = cycles_alloc * 2 + 8;
						cg->cycles = xreallocarray(cg->cycles,
							cycles_alloc, sizeof(*cg->cycles));
					}
					c = &cg->cycles[cg->ncycles];
					memset(c, 0, sizeof(*c));
					c->first_member = first;
					c->nmembers = members;
					c->topo = topo;
					for (w = first; w != NO_ID;
					     w = cg->nodes[w].next_member)
						cg->nodes[w].cycle = (uint32_t)cg->ncycles;
					cg->ncycles++;
				} else {
					cg->nodes[v].next_member = NO_ID;
				}
			}
			fp--;
			if (fp) {
				uint32_t parent = frames[fp - 1].node;

				if (low_v < LOW(parent))
					LOW(parent) = low_v;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		cg->nodes[i].index = 0;
	/* calls into and within each cycle */
	for (size_t a = 0; a < cg->p->ncalls; a++) {
		const struct pcall *pc = &cg->p->calls[a];
		uint32_t cc = cg->nodes[pc->callee].cycle;

		if (cc == NO_ID || !cg_is_arc(cg, a))
			continue;
		if (cg->nodes[pc->caller].cycle == cc)
			cg->cycles[cc].internal_calls +=
				cg_arc_count(cg, (uint32_t)a);
		else
			cg->cycles[cc].calls += cg_arc_count(cg, (uint32_t)a);
	}
	free(stack);
	free(frames);
}
