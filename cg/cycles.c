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

void cg_find_cycles(struct cg *cg)
{
	size_t n = cg->nnodes;
	uint32_t *idx = xreallocarray(NULL, n ? n : 1, sizeof(*idx));
	uint32_t *low = xreallocarray(NULL, n ? n : 1, sizeof(*low));
	uint32_t *stack = xreallocarray(NULL, n ? n : 1, sizeof(*stack));
	struct frame *frames = xreallocarray(NULL, n ? n : 1, sizeof(*frames));
	bool *on_stack = xcalloc(n ? n : 1, sizeof(*on_stack));
	uint32_t counter = 0, topo = 0;
	size_t sp = 0, cycles_alloc = 0;

	free(cg->topo);
	cg->topo = xreallocarray(NULL, n ? n : 1, sizeof(*cg->topo));

	for (size_t i = 0; i < n; i++)
		idx[i] = UNVISITED;
	for (uint32_t root = 0; root < n; root++) {
		size_t fp = 0;

		if (idx[root] != UNVISITED)
			continue;
		frames[fp++] = (struct frame){ root, cg->out_start[root] };
		idx[root] = low[root] = counter++;
		stack[sp++] = root;
		on_stack[root] = true;
		while (fp) {
			struct frame *f = &frames[fp - 1];
			uint32_t v = f->node;

			if (f->arc < cg->out_start[v + 1]) {
				uint32_t w = cg_arc_callee(cg, cg->out[f->arc++]);

				if (idx[w] == UNVISITED) {
					idx[w] = low[w] = counter++;
					stack[sp++] = w;
					on_stack[w] = true;
					frames[fp++] = (struct frame){
						w, cg->out_start[w]
					};
				} else if (on_stack[w] && idx[w] < low[v]) {
					low[v] = idx[w];
				}
				continue;
			}
			/* all of v's callees are done */
			if (low[v] == idx[v]) {
				uint32_t members = 0, first = NO_ID, w;

				topo++;
				do {
					w = stack[--sp];
					on_stack[w] = false;
					cg->topo[w] = topo;
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

				if (low[v] < low[parent])
					low[parent] = low[v];
			}
		}
	}
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
	free(idx);
	free(low);
	free(stack);
	free(frames);
	free(on_stack);
}
