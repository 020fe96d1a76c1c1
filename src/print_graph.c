/*
 * The call graph listing, in gprof's layout: for each entry (a function,
 * or a cycle as a whole) its callers above it, the entry itself on the
 * [N] line, its callees below, for the sort event.
 */
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "xalloc.h"

struct graph_ctx {
	FILE *out;
	const struct cg *cg;
	const struct print_opts *o;
	struct name_labels *nl;
	uint32_t ev;
	double total;
	int w;			/* width of a cost column */
	char label[8192];
};

static const char *label(struct graph_ctx *g, uint32_t n)
{
	return func_label(g->nl, g->cg, n, true, g->label, sizeof(g->label));
}

static bool in_same_cycle(const struct cg *cg, uint32_t u, uint32_t v)
{
	return cg->nodes[u].cycle != NO_ID &&
	       cg->nodes[u].cycle == cg->nodes[v].cycle;
}

/* calls into v, or into its cycle: the "/total" of an arc's count */
static uint64_t head_calls(const struct cg *cg, uint32_t v)
{
	uint32_t c = cg->nodes[v].cycle;

	return c != NO_ID ? cg->cycles[c].calls : cg->nodes[v].calls;
}

static void arc_line(struct graph_ctx *g, uint32_t a, uint32_t other)
{
	const struct cg *cg = g->cg;
	const struct cg_arc *arc = &cg->arcs[a];
	char count[64];

	if (in_same_cycle(cg, arc->caller, arc->callee)) {
		snprintf(count, sizeof(count), "%llu",
			 (unsigned long long)arc->count);
		fprintf(g->out, "%13s %*s %*s %17s     %s\n", "", g->w, "", g->w,
			"", count, label(g, other));
		return;
	}
	{
		double s, c;

		cg_arc_share(cg, a, g->ev, &s, &c);
		snprintf(count, sizeof(count), "%llu/%llu",
			 (unsigned long long)arc->count,
			 (unsigned long long)head_calls(cg, arc->callee));
		fprintf(g->out, "%13s %*.0f %*.0f %17s     %s\n", "", g->w, s,
			g->w, c, count, label(g, other));
	}
}

struct arc_sort {
	const struct cg *cg;
	uint32_t ev;
};

static int cmp_arcs(const void *x, const void *y, void *arg)
{
	const struct arc_sort *as = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	double sa, ca, sb, cb;

	cg_arc_share(as->cg, a, as->ev, &sa, &ca);
	cg_arc_share(as->cg, b, as->ev, &sb, &cb);
	if (sa + ca != sb + cb)
		return sa + ca > sb + cb ? -1 : 1;
	if (as->cg->arcs[a].count != as->cg->arcs[b].count)
		return as->cg->arcs[a].count > as->cg->arcs[b].count ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Arcs into (incoming) or out of a set of nodes: one node, or a cycle's
 * members when `cycle` is set (then arcs inside the cycle are left out). */
static size_t collect_arcs(const struct cg *cg, uint32_t node, uint32_t cycle,
			   bool incoming, uint32_t **out, size_t *alloc)
{
	size_t n = 0;
	uint32_t first = cycle != NO_ID ? cg->cycles[cycle].first_member : node;

	for (uint32_t m = first; m != NO_ID;
	     m = cycle != NO_ID ? cg->nodes[m].next_member : NO_ID) {
		uint32_t a = incoming ? cg->nodes[m].first_in : cg->nodes[m].first_out;

		for (; a != NO_ID;
		     a = incoming ? cg->arcs[a].next_in : cg->arcs[a].next_out) {
			uint32_t other = incoming ? cg->arcs[a].caller
						  : cg->arcs[a].callee;

			if (cycle != NO_ID && cg->nodes[other].cycle == cycle)
				continue;
			if (n == *alloc) {
				*alloc = *alloc * 2 + 16;
				*out = xreallocarray(*out, *alloc, sizeof(**out));
			}
			(*out)[n++] = a;
		}
	}
	return n;
}

static void print_primary(struct graph_ctx *g, uint32_t index, double self,
			  double child, uint64_t calls, uint64_t extra,
			  const char *name)
{
	char idx[32], called[64];

	snprintf(idx, sizeof(idx), "[%u]", index);
	if (extra)
		snprintf(called, sizeof(called), "%llu+%llu",
			 (unsigned long long)calls, (unsigned long long)extra);
	else if (calls)
		snprintf(called, sizeof(called), "%llu",
			 (unsigned long long)calls);
	else
		called[0] = '\0';
	fprintf(g->out, "%-6s %6.1f %*.0f %*.0f %8s%9s %s\n", idx,
		g->total > 0 ? (self + child) * 100 / g->total : 0.0, g->w,
		self, g->w, child, called, "", name);
}

/*
 * The caller lines (incoming) or callee lines of a function, or of a
 * cycle's members when cycle != NO_ID; "<spontaneous>" when nothing
 * calls it.
 */
static void print_arcs(struct graph_ctx *g, uint32_t node, uint32_t cycle,
		       bool incoming, uint32_t **arcs, size_t *alloc)
{
	const struct cg *cg = g->cg;
	struct arc_sort as = { cg, g->ev };
	size_t k = collect_arcs(cg, node, cycle, incoming, arcs, alloc);

	if (k > 1)
		qsort_r(*arcs, k, sizeof(**arcs), cmp_arcs, &as);
	if (!k && incoming)
		fprintf(g->out, "%13s %*s %*s %17s     <spontaneous>\n", "",
			g->w, "", g->w, "", "");
	for (size_t i = 0; i < k; i++) {
		const struct cg_arc *arc = &cg->arcs[(*arcs)[i]];

		arc_line(g, (*arcs)[i], incoming ? arc->caller : arc->callee);
	}
}

static void print_node_entry(struct graph_ctx *g, uint32_t n, uint32_t **arcs,
			     size_t *alloc)
{
	const struct cg *cg = g->cg;
	const struct cg_node *node = &cg->nodes[n];

	print_arcs(g, n, NO_ID, true, arcs, alloc);
	print_primary(g, node->index, cg_node_self(cg, n, g->ev),
		      cg_node_child(cg, n, g->ev), node->calls,
		      node->self_calls, label(g, n));
	print_arcs(g, n, NO_ID, false, arcs, alloc);
}

static int cmp_member_index(const void *a, const void *b, void *arg)
{
	const struct cg *cg = arg;
	uint32_t x = cg->nodes[*(const uint32_t *)a].index;
	uint32_t y = cg->nodes[*(const uint32_t *)b].index;

	return x < y ? -1 : x > y;
}

static void print_cycle_entry(struct graph_ctx *g, uint32_t c, uint32_t **arcs,
			      size_t *alloc)
{
	const struct cg *cg = g->cg;
	const struct cg_cycle *cyc = &cg->cycles[c];
	char name[64];
	size_t k;

	print_arcs(g, NO_ID, c, true, arcs, alloc);
	snprintf(name, sizeof(name), "<cycle %u as a whole> [%u]", cyc->number,
		 cyc->index);
	print_primary(g, cyc->index, cg_cycle_self(cg, c, g->ev),
		      cg_cycle_child(cg, c, g->ev), cyc->calls,
		      cyc->internal_calls, name);
	/* the members, each with its own cost, highest first */
	k = 0;
	for (uint32_t m = cyc->first_member; m != NO_ID; m = cg->nodes[m].next_member) {
		if (k == *alloc) {
			*alloc = *alloc * 2 + 16;
			*arcs = xreallocarray(*arcs, *alloc, sizeof(**arcs));
		}
		(*arcs)[k++] = m;
	}
	/*
	 * By index (cg_rank lists every member, so indexes are distinct). A
	 * sort, not a selection: a cycle can have as many members as the
	 * profile has functions, and a 100,000-function loop took 40 seconds
	 * here (test_deep_chain in tests/test_fuzz_regress.c).
	 */
	qsort_r(*arcs, k, sizeof(**arcs), cmp_member_index, (void *)cg);
	for (size_t i = 0; i < k; i++) {
		uint32_t m = (*arcs)[i];
		const struct cg_node *mn = &cg->nodes[m];
		char called[64];

		if (mn->self_calls)
			snprintf(called, sizeof(called), "%llu+%llu",
				 (unsigned long long)mn->calls,
				 (unsigned long long)mn->self_calls);
		else
			snprintf(called, sizeof(called), "%llu",
				 (unsigned long long)mn->calls);
		fprintf(g->out, "%13s %*.0f %*.0f %17s     %s\n", "", g->w,
			cg_node_self(cg, m, g->ev), g->w,
			cg_node_child(cg, m, g->ev), called, label(g, m));
	}
}

void print_graph(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	struct graph_ctx g;
	uint32_t *arcs = NULL;
	size_t alloc = 0;
	char buf[64];
	int w;

	if (cg->est_self) {	/* gmon.out: gprof's own columns */
		print_graph_seconds(out, cg, o);
		return;
	}
	memset(&g, 0, sizeof(g));
	g.out = out;
	g.cg = cg;
	g.o = o;
	g.ev = o->sort_event;
	g.total = (double)p->totals[g.ev];
	g.nl = name_labels_new(cg);
	name_labels_set_listed(g.nl, o->graph_listed);
	w = snprintf(buf, sizeof(buf), "%.0f", g.total);
	g.w = w < 8 ? 8 : w;

	fputs("Call graph of ", out);
	fprint_event_title(out, p, g.ev);
	fprintf(out, ", %llu in all:\n\n", (unsigned long long)p->totals[g.ev]);
	fprintf(out, "%-6s %6s %*s %*s %8s%9s %s\n", "index", "%total", g.w,
		"self", g.w, "children", "called", "", "name");
	for (size_t i = 0; i < cg->norder; i++) {
		const struct cg_entry *e = &cg->order[i];

		if (!entry_shown(cg, o, e, g.ev, g.total))
			continue;
		if (e->is_cycle)
			print_cycle_entry(&g, e->id, &arcs, &alloc);
		else
			print_node_entry(&g, e->id, &arcs, &alloc);
		fputs("-----------------------------------------------\n", out);
	}
	if (!o->brief)
		fprintf(out, "\n%s", graph_blurb);
	free(arcs);
	name_labels_free(g.nl);
}
