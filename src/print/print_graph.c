/*
 * The call graph listing, in gprof's layout: for each entry (a function,
 * or a cycle as a whole) its callers above it, the entry itself on the
 * [N] line, its callees below, for the sort event.
 *
 * A sampled profile (perf.data) counted no calls, and its listing has
 * no "called" column. Not samples in its place: an entry's own samples
 * are the flat profile's column (and 0 for most entries, which only
 * call), and the samples through an arc are its stacks' count of every
 * event together, not of the event listed; an "N/M" there would read
 * as calls. What the stacks measured per event is in the self and
 * children columns.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "linebuf.h"
#include "par_format.h"
#include "print.h"

/* A thread's: the shared part is read only, the rest its scratch. */
struct graph_ctx {
	const struct cg *cg;
	const struct cg_callers *callers;	/* of the entries shown */
	const struct print_opts *o;
	struct name_labels *nl;
	uint32_t ev;
	double total;
	int w;			/* width of a cost column */
	bool sampled;		/* samples, not calls (profile.sampled) */
	bool max;		/* the event is a maximum (pevent.max) */
	struct linebuf *lb;	/* the entry's text goes here */
	struct arc_key *keys;	/* the arcs of an entry, to sort */
	size_t keys_alloc;
	uint32_t *members;	/* of a cycle, to sort */
	size_t members_alloc;
};

/* The name column and the end of the line. */
static void end_with_label(struct graph_ctx *g, uint32_t n)
{
	lb_func_label(g->lb, g->nl, g->cg, n, true);
	lb_putc(g->lb, '\n');
}

/* "%13s %*s %*s " then the count right-aligned in 17, then 5 spaces:
 * the start of a caller or callee line whose cost columns are s and c
 * (NULL: blank) */
static void arc_columns(struct graph_ctx *g, const double *s, const double *c,
			const char *count, size_t clen)
{
	struct linebuf *lb = g->lb;

	lb_spaces(lb, 14);
	if (s)
		lb_number(lb, *s, 0, g->w, g->o->digit_groups);
	else
		lb_spaces(lb, (size_t)g->w);
	lb_putc(lb, ' ');
	if (c)
		lb_number(lb, *c, 0, g->w, g->o->digit_groups);
	else
		lb_spaces(lb, (size_t)g->w);
	lb_putc(lb, ' ');
	if (!g->sampled) {
		lb_right(lb, count, clen, 17);
		lb_spaces(lb, 5);
	} else {
		lb_spaces(lb, 3);	/* no count: the names indented */
	}
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

/* An arc with its share of the entry's cost, computed once for the sort
 * and the line. */
struct arc_key {
	uint32_t arc;
	double self, child;
};

static void arc_line(struct graph_ctx *g, const struct arc_key *k,
		     uint32_t other)
{
	const struct cg *cg = g->cg;
	const struct pcall *arc = &cg->p->calls[k->arc];
	char count[2 * FMT_NUM_MAX];
	size_t n = strlen(fmt_count(count, cg_arc_count(cg, k->arc),
				     g->o->digit_groups));

	if (in_same_cycle(cg, arc->caller, arc->callee)) {
		arc_columns(g, NULL, NULL, count, n);
	} else {
		count[n++] = '/';
		n += strlen(fmt_count(count + n, head_calls(cg, arc->callee),
				      g->o->digit_groups));
		arc_columns(g, &k->self, &k->child, count, n);
	}
	end_with_label(g, other);
}

static int cmp_arcs(const void *x, const void *y, void *arg)
{
	const struct arc_key *a = x, *b = y;
	const struct cg *cg = arg;
	double ta = a->self + a->child, tb = b->self + b->child;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	uint64_t ca = cg_arc_count(cg, a->arc);
	uint64_t cb = cg_arc_count(cg, b->arc);

	if (ca != cb)
		return ca > cb ? -1 : 1;
	/* the later call first, as always (listings are compared) */
	return a->arc > b->arc ? -1 : a->arc < b->arc;
}

/* Arcs into (incoming) or out of a set of nodes: one node, or a cycle's
 * members when `cycle` is set (then arcs inside the cycle are left out),
 * into g->keys with their shares. */
static size_t collect_arcs(struct graph_ctx *g, uint32_t node, uint32_t cycle,
			   bool incoming)
{
	const struct cg *cg = g->cg;
	size_t n = 0;
	uint32_t first = cycle != NO_ID ? cg->cycles[cycle].first_member : node;

	for (uint32_t m = first; m != NO_ID;
	     m = cycle != NO_ID ? cg->nodes[m].next_member : NO_ID) {
		const uint32_t *list = cg->out + cg->out_start[m];
		size_t nlist = cg->out_start[m + 1] - cg->out_start[m];

		if (incoming)
			nlist = cg_callers_of(g->callers, m, &list);
		for (size_t i = 0; i < nlist; i++) {
			uint32_t a = list[i];
			uint32_t other = incoming ? cg_arc_caller(cg, a)
						  : cg_arc_callee(cg, a);
			struct arc_key *k;

			if (cycle != NO_ID && cg->nodes[other].cycle == cycle)
				continue;
			ARRAY_GROW(g->keys, n + 1, g->keys_alloc);
			k = &g->keys[n++];
			k->arc = a;
			cg_arc_share(cg, a, g->ev, &k->self, &k->child);
		}
	}
	return n;
}

/* "%-6s %6.1f %*.0f %*.0f %8s%9s %s\n": an entry's own line */
/* child is what self adds up with (the percentage); kids the children
 * column: the same, but for a maximum event the largest of the calls
 * (cg_node_largest_call()) */
static void print_primary(struct graph_ctx *g, uint32_t index, double self,
			  double child, double kids, uint64_t calls,
			  uint64_t extra)
{
	struct linebuf *lb = g->lb;
	char idx[32], called[2 * FMT_NUM_MAX];
	size_t n;

	idx[0] = '[';
	n = 1 + fmt_u64(idx + 1, index);
	idx[n++] = ']';
	lb_left(lb, idx, n, 6);
	lb_putc(lb, ' ');
	lb_fixed(lb, g->total > 0 ? (self + child) * 100 / g->total : 0.0, 1, 6);
	lb_putc(lb, ' ');
	lb_number(lb, self, 0, g->w, g->o->digit_groups);
	lb_putc(lb, ' ');
	lb_number(lb, kids, 0, g->w, g->o->digit_groups);
	lb_putc(lb, ' ');
	if (g->sampled) {
		lb_putc(lb, ' ');
		return;
	}
	n = fmt_calls(called, calls, extra, g->o->digit_groups);
	lb_right(lb, called, n, 8);
	lb_spaces(lb, 10);
}

/*
 * The caller lines (incoming) or callee lines of a function, or of a
 * cycle's members when cycle != NO_ID; "<spontaneous>" when nothing
 * calls it.
 */
static void print_arcs(struct graph_ctx *g, uint32_t node, uint32_t cycle,
		       bool incoming)
{
	const struct cg *cg = g->cg;
	size_t k = collect_arcs(g, node, cycle, incoming);

	if (k > 1)
		qsort_r(g->keys, k, sizeof(*g->keys), cmp_arcs, (void *)cg);
	if (!k && incoming) {
		arc_columns(g, NULL, NULL, "", 0);
		lb_puts(g->lb, "<spontaneous>\n");
	}
	for (size_t i = 0; i < k; i++) {
		uint32_t a = g->keys[i].arc;

		arc_line(g, &g->keys[i], incoming ? cg_arc_caller(cg, a)
						  : cg_arc_callee(cg, a));
	}
}

static void print_node_entry(struct graph_ctx *g, uint32_t n)
{
	const struct cg *cg = g->cg;
	const struct cg_node *node = &cg->nodes[n];

	double child = cg_node_child(cg, n, g->ev);

	print_arcs(g, n, NO_ID, true);
	print_primary(g, node->index, cg_node_self(cg, n, g->ev), child,
		      g->max ? (double)cg_node_largest_call(cg, n, g->ev)
			     : child,
		      node->calls, cg_node_self_calls(cg, n));
	end_with_label(g, n);
	print_arcs(g, n, NO_ID, false);
}

static int cmp_member_index(const void *a, const void *b, void *arg)
{
	const struct cg *cg = arg;
	uint32_t x = cg->nodes[*(const uint32_t *)a].index;
	uint32_t y = cg->nodes[*(const uint32_t *)b].index;

	return x < y ? -1 : x > y;
}

static void print_cycle_entry(struct graph_ctx *g, uint32_t c)
{
	const struct cg *cg = g->cg;
	const struct cg_cycle *cyc = &cg->cycles[c];
	char num[20];
	size_t k;

	double child = cg_cycle_child(cg, c, g->ev);
	double kids = g->max ? (double)cg_cycle_largest_call(cg, c, g->ev)
			     : child;

	print_arcs(g, NO_ID, c, true);
	print_primary(g, cyc->index, cg_cycle_self(cg, c, g->ev), child, kids,
		      cyc->calls, cyc->internal_calls);
	lb_puts(g->lb, "<cycle ");
	lb_putn(g->lb, num, fmt_u64(num, cyc->number));
	lb_puts(g->lb, " as a whole> [");
	lb_putn(g->lb, num, fmt_u64(num, cyc->index));
	lb_puts(g->lb, "]\n");
	/* the members, each with its own cost, highest first */
	k = 0;
	for (uint32_t m = cyc->first_member; m != NO_ID; m = cg->nodes[m].next_member) {
		ARRAY_GROW(g->members, k + 1, g->members_alloc);
		g->members[k++] = m;
	}
	/*
	 * By index (cg_rank lists every member, so indexes are distinct). A
	 * sort, not a selection: a cycle can have as many members as the
	 * profile has functions, and a 100,000-function loop took 40 seconds
	 * here (test_deep_chain in tests/test_fuzz_regress.c).
	 */
	qsort_r(g->members, k, sizeof(*g->members), cmp_member_index,
		(void *)cg);
	for (size_t i = 0; i < k; i++) {
		uint32_t m = g->members[i];
		const struct cg_node *mn = &cg->nodes[m];
		double s = cg_node_self(cg, m, g->ev);
		double ch = g->max ? (double)cg_node_largest_call(cg, m, g->ev)
				   : cg_node_child(cg, m, g->ev);
		char called[2 * FMT_NUM_MAX];
		size_t n = strlen(fmt_count(called, mn->calls,
					    g->o->digit_groups));

		if (cg_node_self_calls(cg, m)) {
			called[n++] = '+';
			n += strlen(fmt_count(called + n,
					      cg_node_self_calls(cg, m),
					      g->o->digit_groups));
		}
		arc_columns(g, &s, &ch, called, n);
		end_with_label(g, m);
	}
}

/* Unit i of the listing: the i-th entry shown, and its separator. */
static void format_entry(void *ctx, const void *shown, size_t i,
			 struct linebuf *lb)
{
	struct graph_ctx *g = ctx;
	struct cg_entry e = cg_order_entry(g->cg, ((const uint32_t *)shown)[i]);

	g->lb = lb;
	if (e.is_cycle)
		print_cycle_entry(g, e.id);
	else
		print_node_entry(g, e.id);
	lb_puts(lb, "-----------------------------------------------\n");
}

/* Unit i's lines, about: one per arc in and out of the entry (its
 * members' for a cycle, inside arcs counted too) and its own. */
static size_t entry_weight(void *ctx, const void *shown, size_t i)
{
	const struct graph_ctx *g = ctx;
	const struct cg *cg = g->cg;
	struct cg_entry e = cg_order_entry(cg, ((const uint32_t *)shown)[i]);
	uint32_t m = e.is_cycle ? cg->cycles[e.id].first_member : e.id;
	size_t w = 2;

	for (; m != NO_ID; m = e.is_cycle ? cg->nodes[m].next_member : NO_ID) {
		const uint32_t *in;

		w += 1 + (cg->out_start[m + 1] - cg->out_start[m]) +
		     cg_callers_of(g->callers, m, &in);
	}
	return w;
}

/* A bit per node printed: the functions shown and the shown cycles'
 * members, whose callers the entries list. */
static uint64_t *shown_nodes(const struct cg *cg, const uint32_t *shown,
			     size_t nshown)
{
	uint64_t *bits = xcalloc(cg->nnodes / 64 + 1, sizeof(*bits));

	for (size_t i = 0; i < nshown; i++) {
		struct cg_entry e = cg_order_entry(cg, shown[i]);
		uint32_t m = e.is_cycle ? cg->cycles[e.id].first_member : e.id;

		for (; m != NO_ID;
		     m = e.is_cycle ? cg->nodes[m].next_member : NO_ID)
			bits[m / 64] |= (uint64_t)1 << (m % 64);
	}
	return bits;
}

void print_graph(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	struct graph_ctx g, g2;
	struct cg_callers callers;
	uint64_t *chosen;
	uint32_t *shown;
	size_t nshown = 0, nbelow = 0;
	char buf[FMT_NUM_MAX];
	int w;

	/* gmon.out: gprof's own columns (also transformed: no estimate
	 * left in cg, the ticks in the stacks) */
	if (cg->est_self || listed_in_seconds(cg->p, o->sort_event)) {
		print_graph_seconds(out, cg, o);
		return;
	}
	memset(&g, 0, sizeof(g));
	g.cg = cg;
	g.o = o;
	g.ev = o->sort_event;
	g.total = (double)p->totals[g.ev];
	g.sampled = p->sampled;
	g.max = profile_event_max(p, g.ev);
	g.nl = name_labels_new(cg, o);
	name_labels_set_listed(g.nl, o->graph_listed);
	w = (int)fmt_number(buf, g.total, 0, o->digit_groups);
	g.w = w < 8 ? 8 : w;

	fputs("Call graph of ", out);
	fprint_event_title(out, p, g.ev);
	fputs(", ", out);
	fprint_total(out, p, g.ev, o->digit_groups);
	fputs(":\n\n", out);
	if (g.sampled)
		fprintf(out, "%-6s %6s %*s %*s  %s\n", "index", "%total", g.w,
			"self", g.w, "children", "name");
	else
		fprintf(out, "%-6s %6s %*s %*s %8s%9s %s\n", "index", "%total",
			g.w, "self", g.w, "children", "called", "", "name");
	shown = xcalloc(cg->norder + 1, sizeof(*shown));
	for (size_t i = 0; i < cg->norder; i++) {
		struct cg_entry e = cg_order_entry(cg, i);

		if (entry_shown(cg, o, &e, g.ev, g.total))
			shown[nshown++] = (uint32_t)i;
		else if (entry_below(cg, o, &e, g.ev, g.total))
			nbelow++;
	}
	/* every label made once pays when most entries are printed (each
	 * name is written many times over); for the few entries above a
	 * threshold it would be all of a big program's names kept for
	 * nothing */
	if (nshown >= cg->nnodes / 8)
		name_labels_keep(g.nl, cg);
	chosen = shown_nodes(cg, shown, nshown);
	cg_callers_build(&callers, cg, chosen);
	free(chosen);
	g.callers = &callers;
	g2 = g;
	{
		/* chunks of 64 entries, a few hundred lines each; fewer
		 * where entries are long: 4,096 lines is about 0.5 MB */
		struct par_format pf = {
			.format = format_entry, .shared = shown,
			.ctx = { &g, &g2 }, .chunk = 64, .min_units = 256,
			.weight = entry_weight, .max_weight = 4096,
		};

		if (o->par_chunk) {
			pf.chunk = o->par_chunk;
			pf.min_units = 0;
		}
		par_format_run(&pf, out, nshown);
	}
	print_left_out(out, nbelow, "entry", o->threshold);
	print_index(out, cg, o, g.nl);
	if (!o->brief)
		fprintf(out, "\n%s%s",
			g.sampled ? graph_sampled_blurb : graph_blurb,
			g.max ? max_blurb : "");
	free(shown);
	cg_callers_release(&callers);
	free(g.keys);
	free(g.members);
	free(g2.keys);
	free(g2.members);
	name_labels_free(g.nl);
}
