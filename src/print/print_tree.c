/*
 * --tree: the flame graph's tree of call paths (flame_data.h) as
 * indented text, from the roots down, one line per path:
 *
 *   Call tree of cpu-clock:ppp, 408,817,632 ns in all:
 *
 *    total%   self%         total          self  function
 *    73.04    0.00   298,595,296             0  __libc_start_call_main
 *    73.04    0.00   298,595,296             0    main
 *    40.20    0.00   164,345,072             0      hot
 *
 * A path's children come heaviest first (then by name). Percentages
 * are of the whole total, as perf report -g caller's; paths below
 * --threshold of it are left out with their subtrees and counted in a
 * line under the tree. Deep stacks (recursion 100,000 frames down) are
 * walked without recursion, and the indent stops growing at
 * TREE_MAX_INDENT levels: a deeper line starts with its depth.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "flame_data.h"
#include "fmt.h"
#include "linebuf.h"
#include "print.h"

#define TREE_MAX_INDENT 40

/* An estimate unfolds the arcs into at most this many paths. */
#define TREE_MAX_NODES 2000000

struct tree_sort {
	const struct flame *fl;
	const char *const *names;	/* per node */
};

/* Children of one parent together, heaviest first, then by name. */
static int cmp_nodes(const void *x, const void *y, void *arg)
{
	const struct tree_sort *ts = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const struct flame_node *na = &ts->fl->nodes[a], *nb = &ts->fl->nodes[b];
	int c;

	if (na->parent != nb->parent)
		return na->parent < nb->parent ? -1 : 1;
	if (na->total != nb->total)
		return na->total > nb->total ? -1 : 1;
	c = strcmp(ts->names[a], ts->names[b]);
	return c ? c : (a < b ? -1 : a > b);
}

/* A cost as the listings print it: seconds for gmon.out's ticks, whole
 * units (an estimate's rounded) otherwise. */
static const char *cost_text(char *buf, const struct profile *p, uint32_t ev,
			     double v, bool groups)
{
	if (listed_in_seconds(p, ev))
		buf[fmt_number(buf, v * p->events[ev].unit_seconds, 2,
			       groups)] = '\0';
	else
		fmt_count(buf, v > 0 ? (uint64_t)llround(v) : 0, groups);
	return buf;
}

static void print_line(FILE *out, const struct cg *cg,
		       const struct print_opts *o, const struct flame *fl,
		       uint32_t n, const char *name, size_t depth, double total)
{
	const struct flame_node *fn = &fl->nodes[n];
	const struct profile *p = cg->p;
	char t[2 * FMT_NUM_MAX], s[2 * FMT_NUM_MAX];
	size_t indent = depth < TREE_MAX_INDENT ? depth : TREE_MAX_INDENT;

	fprintf(out, "%7.2f %7.2f %14s %14s  ",
		total > 0 ? 100.0 * fn->total / total : 0.0,
		total > 0 ? 100.0 * fn->self / total : 0.0,
		cost_text(t, p, fl->event, fn->total, o->digit_groups),
		cost_text(s, p, fl->event, fn->self, o->digit_groups));
	for (size_t i = 0; i < indent; i++)
		fputs("  ", out);
	if (depth > TREE_MAX_INDENT)
		fprintf(out, "(%zu) ", depth);
	fputs(name, out);
	fputc('\n', out);
}

/* Every node's name, as the listings label functions. */
static char **node_names(const struct cg *cg, const struct print_opts *o,
			 const struct flame *fl)
{
	struct name_labels *nl = name_labels_new(cg, o);
	char **names = xcalloc(fl->nnodes + 1, sizeof(*names));
	char buf[4096];

	for (size_t i = 0; i < fl->nnodes; i++) {
		const struct flame_node *n = &fl->nodes[i];

		if (n->func == NO_ID)
			snprintf(buf, sizeof(buf), "<cycle %u as a whole>",
				 cg->cycles[n->cycle].number);
		else
			func_label(nl, cg, n->func, false, buf, sizeof(buf));
		names[i] = xstrdup(buf);
	}
	name_labels_free(nl);
	return names;
}

void print_tree(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t ev = o->sort_event;
	double total = (double)p->totals[ev];
	double bar = total * o->threshold / 100.0;
	double of = total;	/* what the percentages are of */
	struct flame fl;
	struct tree_sort ts;
	char **names;
	uint32_t *order, *first, *next, *depth;
	size_t left_out = 0;

	/* an estimate unfolds paths down to what --output=folded does:
	 * one cut sooner would put its cost in its caller's self */
	flame_build(&fl, cg, ev, total * FLAME_TREE_MIN_SHARE, TREE_MAX_NODES);
	names = node_names(cg, o, &fl);
	order = xcalloc(fl.nnodes + 1, sizeof(*order));
	for (size_t i = 0; i < fl.nnodes; i++)
		order[i] = (uint32_t)i;
	ts.fl = &fl;
	ts.names = (const char *const *)names;
	qsort_r(order, fl.nnodes, sizeof(*order), cmp_nodes, &ts);
	/* each parent's children in that order: first[parent + 1], then
	 * next[]; the roots are parent NO_ID, first[0] */
	first = xcalloc(fl.nnodes + 2, sizeof(*first));
	next = xcalloc(fl.nnodes + 1, sizeof(*next));
	depth = xcalloc(fl.nnodes + 1, sizeof(*depth));
	for (size_t i = 0; i < fl.nnodes + 2; i++)
		first[i] = NO_ID;
	for (size_t i = fl.nnodes; i-- > 0;) {
		uint32_t n = order[i];
		uint32_t slot = fl.nodes[n].parent + 1u;	/* NO_ID -> 0 */

		next[n] = first[slot];
		first[slot] = n;
	}

	fputs("Call tree of ", out);
	fprint_event_title(out, p, ev);
	fputs(", ", out);
	/* gmon.out's ticks as the flat profile gives them, in seconds */
	if (listed_in_seconds(p, ev)) {
		char buf[2 * FMT_NUM_MAX];

		fprintf(out, "%s in all", cost_text(buf, p, ev, total,
						    o->digit_groups));
		/*
		 * gprof shares a histogram bin in whole 2-byte units of a
		 * width that need not be whole (resolve_gmon.c): on
		 * tests/gmon/nopie.gmon its functions got 1.0015 times the
		 * 92 ticks, and main, which holds every one, came to
		 * 100.15% of them. gprof's call graph, and ours, give
		 * shares of the time the functions got (main 100.0%),
		 * which is right: a share of the run is at most all of it.
		 * The tree is a call graph: it does the same, total% and
		 * self% alike (a self% of the ticks, the flat profile's,
		 * would come out above its own line's total%).
		 */
		of = 0;
		for (uint32_t n = 0; n < cg->nnodes; n++)
			of += cg_node_self(cg, n, ev);
	} else {
		fprint_total(out, p, ev, o->digit_groups);
	}
	fputs(!fl.estimated ? ":\n\n" : of != total ? " (estimated from call arcs; "
	      "percentages of the time the functions got):\n\n"
	      : " (estimated from call arcs):\n\n", out);
	fprintf(out, "%7s %7s %14s %14s  %s\n", "total%", "self%",
		listed_in_seconds(p, ev) ? "total s" : "total",
		listed_in_seconds(p, ev) ? "self s" : "self", "function");
	/* depth first, without recursion: order[] is only for the
	 * siblings, next[] walks them */
	for (uint32_t n = first[0]; n != NO_ID;) {
		const struct flame_node *fn = &fl.nodes[n];
		uint32_t child = first[n + 1u];
		bool shown = fn->total >= bar && fn->total > 0;

		depth[n] = fn->parent == NO_ID ? 0 : depth[fn->parent] + 1;
		/* a path with none of the event is not below the threshold:
		 * no threshold lists it (nor does the report's call tree),
		 * and "--threshold=0 lists them all" would be untrue */
		if (shown)
			print_line(out, cg, o, &fl, n, names[n], depth[n], of);
		else if (fn->total > 0)
			left_out++;
		if (shown && child != NO_ID) {
			n = child;
			continue;
		}
		while (n != NO_ID && next[n] == NO_ID)
			n = fl.nodes[n].parent;
		if (n != NO_ID)
			n = next[n];
	}
	print_left_out(out, left_out, "call path", o->threshold);
	if (fl.estimated && !o->brief)
		fputs("\nThe profile records no stacks: each function's cost is "
		      "shared over its\ncallers in proportion to the calls' "
		      "inclusive costs, cycles as wholes.\n", out);
	if (!o->brief)
		fputs("\nColumns: total% and self% of the whole total; total is "
		      "the cost of the\ncall path and everything it calls, "
		      "self what it spent itself. A line's\ncallees are under "
		      "it, indented, the heaviest first.\n", out);
	for (size_t i = 0; i < fl.nnodes; i++)
		free(names[i]);
	free(names);
	free(order);
	free(first);
	free(next);
	free(depth);
	flame_release(&fl);
}
