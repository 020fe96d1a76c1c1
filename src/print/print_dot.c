/*
 * The call graph as a Graphviz picture (--dot, --svg), drawn from the
 * same analysis as the listings: a node per function with its inclusive
 * and self share of the total, an edge per call arc with its calls and
 * inclusive share, each cycle a cluster. Costs are the exact measured
 * ones where the profile has them (Callgrind arcs, IgProf stacks) and
 * gprof's estimates for gmon.out.
 *
 * Colours, one ramp for nodes and edges: t = sqrt(share), so that 1%
 * is already a tenth of the way and 25% half; hue from blue (t = 0)
 * through cyan, green and yellow to red (t = 1). Nodes are pale when
 * cold and saturated when hot (saturation 0.2 + 0.7 t, full value, so
 * black text reads on all of them), edges darker (saturation 0.9,
 * value 0.75) so they show on white. An edge is 1 + 5 * share points
 * wide.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/xalloc.h"
#include "pipe_to.h"
#include "short_names.h"
#include "print.h"

/* A label longer than this (after shortening) is cut; the tooltip has
 * the whole name, up to TOOLTIP_MAX. */
#define LABEL_MAX 160
#define TOOLTIP_MAX 4096

struct dot_edge {
	uint32_t caller, callee;
	uint64_t count;
	double cost;		/* inclusive cost of the calls */
	bool has_cost;		/* false: the cost is no share of the
				 * total (collect_edges), not shown */
	bool measured;		/* the cost was measured: the threshold
				 * looks at it even when not shown */
};

struct dot_ctx {
	FILE *out;
	const struct cg *cg;
	const struct print_opts *o;
	uint32_t ev;
	double total;
	struct name_labels *nl;
	bool *kept;		/* per node */
	char **label;		/* per kept node: the shown name */
	uint32_t hottest;	/* largest self cost, or NO_ID */
	uint64_t *row;		/* scratch: one cost row */
	struct cg_callers callers;	/* of every node */
	bool sampled;		/* perf.data: samples, no calls */
};

static double pct(const struct dot_ctx *d, double v)
{
	return d->total > 0 ? v * 100 / d->total : 0;
}

/* --- costs, as print_json.c takes them --- */

/* Inclusive cost of a function: exact (measured, IgProf) or gprof's
 * estimate. A cycle member's measured inclusive cost is its own, not
 * gprof's self + calls leaving the cycle (cg.h, member_incl). */
static double node_incl(const struct dot_ctx *d, uint32_t n)
{
	const struct cg *cg = d->cg;

	if (cg->child) {
		cg_inclusive_row(cg, n, d->row);
		return (double)d->row[d->ev];
	}
	return cg_node_self(cg, n, d->ev) + cg_node_child(cg, n, d->ev);
}

/* --- text --- */

/* An HTML entity reference at s[i] ("&lt;", "&#60;"): Graphviz would
 * show the character, not the text. */
static bool entity_at(const char *s, size_t i, size_t len)
{
	size_t k = i + 1;

	while (k < len && k - i <= 32 &&
	       ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
		(s[k] >= '0' && s[k] <= '9') || s[k] == '#'))
		k++;
	return k > i + 1 && k < len && s[k] == ';';
}

/*
 * Text inside a DOT "quoted string" that Graphviz shows as it is: quotes
 * and backslashes escaped (a backslash would start \n, \N, \l ...),
 * entity references' '&' as "&amp;", control characters as the text
 * \xHH, bytes that are not UTF-8 as the Latin-1 characters they would
 * be (as the JSON does). <>{}| need nothing outside record shapes and
 * HTML labels, which we do not use.
 */
static void dot_text(FILE *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = u[i];
		size_t n;

		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
		} else if (c == '&' && entity_at(s, i, len)) {
			fputs("&amp;", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\\\x%02x", c);
		} else if (c < 0x80) {
			fputc(c, out);
		} else if ((n = utf8_seq_len(u, i, len)) != 0) {
			fwrite(u + i, 1, n, out);
			i += n - 1;
		} else {
			fputc(0xc0 | (c >> 6), out);
			fputc(0x80 | (c & 0x3f), out);
		}
	}
}

static void dot_string(FILE *out, const char *s)
{
	dot_text(out, s, strlen(s));
}

/* --- names --- */

/* Cut s (malloc'd) to LABEL_MAX bytes at a character boundary, "...". */
static char *cut_label(char *s)
{
	size_t len = strlen(s), k = LABEL_MAX;

	if (len <= LABEL_MAX)
		return s;
	while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
		k--;
	memcpy(s + k, "...", 4);
	return s;
}

/* The label of node n at a level: its name shortened, then what the
 * listings add to it (where it is from when the name is not unique,
 * its cycle). */
static char *make_label(const struct dot_ctx *d, uint32_t n, int level)
{
	const struct profile *p = d->cg->p;
	const struct pfunc *f = &p->funcs[n];
	size_t nlen = names_len(&p->names, f->name);
	size_t size = nlen + 64 +
		      (f->object != NO_NAME ? names_len(&p->names, f->object) : 0) +
		      (f->file != NO_NAME ? names_len(&p->names, f->file) : 0);
	char *full = xmalloc(size), *s = xmalloc(size + 16);
	size_t k;

	func_label(d->nl, d->cg, n, false, full, size);
	k = shorten_name(full, nlen, level, s);
	snprintf(s + k, size + 16 - k, "%s", full + nlen);
	free(full);
	s = cut_label(s);
	if (level == SHORT_WITH_ID) {
		size_t len = strlen(s);

		snprintf(s + len, size + 16 - len, " #%u", n);
	}
	return s;
}

static char *make_label_cb(void *ctx, uint32_t n, int level)
{
	return make_label(ctx, n, level);
}

/* --- colours --- */

static void hsv_hex(double h, double s, double v, char out[8])
{
	double r, g, b, f, pp, q, t;
	int i;

	h = fmod(h, 1.0) * 6;
	i = (int)h;
	f = h - i;
	pp = v * (1 - s);
	q = v * (1 - s * f);
	t = v * (1 - s * (1 - f));
	switch (i) {
	case 0: r = v; g = t; b = pp; break;
	case 1: r = q; g = v; b = pp; break;
	case 2: r = pp; g = v; b = t; break;
	case 3: r = pp; g = q; b = v; break;
	case 4: r = t; g = pp; b = v; break;
	default: r = v; g = pp; b = q; break;
	}
	snprintf(out, 8, "#%02x%02x%02x", (int)lround(r * 255),
		 (int)lround(g * 255), (int)lround(b * 255));
}

/* The ramp's position of a percentage (see the top of the file). */
static double ramp(double percent)
{
	double t = percent > 0 ? sqrt(percent / 100) : 0;

	return t > 1 ? 1 : t;
}

static double ramp_hue(double t)
{
	return (1 - t) * 2.0 / 3;	/* blue 240 degrees .. red 0 */
}

/* --- the graph --- */

static void print_calls(FILE *out, uint64_t calls, uint64_t self_calls)
{
	if (self_calls)
		fprintf(out, "\\n%llu + %llu calls", (unsigned long long)calls,
			(unsigned long long)self_calls);
	else if (calls)
		fprintf(out, "\\n%llu call%s", (unsigned long long)calls,
			calls == 1 ? "" : "s");
}

/* A cost in the event's units, named where the profile names them (the
 * text listings' "ns", "bytes"), or in seconds for a time. */
static void print_cost(const struct dot_ctx *d, double v)
{
	const struct pevent *ev = &d->cg->p->events[d->ev];

	if (ev->unit_seconds != 0)
		fprintf(d->out, "%.2f s", v * ev->unit_seconds);
	else if (ev->unit != NO_NAME)
		fprintf(d->out, "%.0f %s", v, profile_str(d->cg->p, ev->unit));
	else
		fprintf(d->out, "%.0f", v);
}

static void print_node(struct dot_ctx *d, uint32_t n, const char *indent)
{
	const struct cg *cg = d->cg;
	const struct cg_node *node = &cg->nodes[n];
	const struct profile *p = cg->p;
	double incl = node_incl(d, n), self = cg_node_self(cg, n, d->ev);
	double t = ramp(pct(d, incl));
	char colour[8];
	/* the tooltip (SVG: shown on hovering) has the whole name */
	const char *name = profile_str(p, p->funcs[n].name);
	size_t nlen = names_len(&p->names, p->funcs[n].name);
	const uint32_t *in;

	hsv_hex(ramp_hue(t), 0.2 + 0.7 * t, 1.0, colour);
	fprintf(d->out, "%sf%u [label=\"", indent, n);
	dot_string(d->out, d->label[n]);
	fprintf(d->out, "\\nincl %.2f%%  self %.2f%%", pct(d, incl),
		pct(d, self));
	if (d->sampled) {	/* as the flat profile's column; as calls,
				 * nothing for none */
		uint64_t samples = func_samples(p, n, d->ev);

		if (samples)
			fprintf(d->out, "\\n%llu sample%s",
				(unsigned long long)samples,
				samples == 1 ? "" : "s");
	} else {
		print_calls(d->out, node->calls, cg_node_self_calls(cg, n));
	}
	fputs("\", tooltip=\"", d->out);
	dot_text(d->out, name, nlen > TOOLTIP_MAX ? TOOLTIP_MAX : nlen);
	if (p->funcs[n].file != NO_NAME) {
		fputs("\\n", d->out);
		dot_string(d->out, profile_str(p, p->funcs[n].file));
		if (profile_func_line(p, n))
			fprintf(d->out, ":%u", profile_func_line(p, n));
	}
	fputs("\\n", d->out);
	dot_string(d->out, profile_str(p, p->events[d->ev].name));
	fputs(": incl ", d->out);
	print_cost(d, incl);
	fputs(", self ", d->out);
	print_cost(d, self);
	fprintf(d->out, "\", fillcolor=\"%s\"", colour);
	if (!cg_callers_of(&d->callers, n, &in))
		fputs(", peripheries=2", d->out);	/* an entry */
	if (n == d->hottest)
		fputs(", penwidth=4", d->out);
	fputs("];\n", d->out);
}

static int cmp_index(const void *x, const void *y, void *arg)
{
	const struct cg *cg = arg;
	uint32_t a = cg->nodes[*(const uint32_t *)x].index;
	uint32_t b = cg->nodes[*(const uint32_t *)y].index;

	return a < b ? -1 : a > b;
}

/* A cycle's kept members in a cluster, in listing order; scratch has
 * room for every node. */
static void print_cycle(struct dot_ctx *d, uint32_t c, uint32_t *scratch)
{
	const struct cg *cg = d->cg;
	const struct cg_cycle *cyc = &cg->cycles[c];
	double self = cg_cycle_self(cg, c, d->ev);
	double incl = self + cg_cycle_child(cg, c, d->ev);
	size_t k = 0;

	for (uint32_t m = cyc->first_member; m != NO_ID; m = cg->nodes[m].next_member)
		if (d->kept[m])
			scratch[k++] = m;
	if (!k)
		return;
	qsort_r(scratch, k, sizeof(*scratch), cmp_index, (void *)cg);
	fprintf(d->out, "\tsubgraph cluster_%u {\n"
		"\t\tlabel=\"<cycle %u as a whole>\\nincl %.2f%%  self %.2f%%",
		cyc->number, cyc->number, pct(d, incl), pct(d, self));
	if (!d->sampled)
		print_calls(d->out, cyc->calls, cyc->internal_calls);
	fputs("\";\n\t\tstyle=\"dashed,rounded\"; color=\"#606060\";\n", d->out);
	for (size_t i = 0; i < k; i++)
		print_node(d, scratch[i], "\t\t");
	fputs("\t}\n", d->out);
}

/*
 * Every arc (self-calls too), with its calls and inclusive cost. Calls
 * inside a cycle and recursive calls have no share of the total shown:
 * Callgrind counts their cost again at each level of recursion (a
 * self-call can cost more than the whole run), and gprof shares nothing
 * along them; their cost is in the cycle's or function's. Only a
 * profile of whole stacks (IgProf) counts them once.
 */
static size_t collect_edges(const struct dot_ctx *d, struct dot_edge **out)
{
	const struct cg *cg = d->cg;
	const struct profile *p = cg->p;
	struct dot_edge *e = xcalloc(p->ncalls + 1, sizeof(*e));
	bool measured = !cg->est_arc_self, stacks = p->func_incl != NULL;
	size_t k = 0;

	for (uint32_t a = (uint32_t)p->ncalls; a-- > 0;) {
		const struct pcall *arc = &p->calls[a];
		uint32_t cyc = cg->nodes[arc->caller].cycle;
		double s, c;

		if (!cg_is_arc(cg, a))
			continue;
		e[k].caller = arc->caller;
		e[k].callee = arc->callee;
		e[k].count = profile_call_count(p, a);
		e[k].has_cost = stacks || cyc == NO_ID ||
				cyc != cg->nodes[arc->callee].cycle;
		e[k].measured = measured;
		if (measured) {
			e[k].cost = (double)profile_call_incl_at(p, a, d->ev);
		} else {
			cg_arc_share(cg, a, d->ev, &s, &c);
			e[k].cost = s + c;
		}
		k++;
	}
	/* self-calls are not cg arcs (cg.h) but the profile has them */
	for (uint32_t c = 0; c < p->ncalls; c++) {
		if (p->calls[c].caller != p->calls[c].callee)
			continue;
		e[k].caller = e[k].callee = p->calls[c].caller;
		e[k].count = profile_call_count(p, c);
		e[k].has_cost = stacks;
		e[k].measured = measured;
		e[k].cost = measured ? (double)profile_call_incl_at(p, c, d->ev) : 0;
		k++;
	}
	*out = e;
	return k;
}

static int cmp_edges(const void *x, const void *y, void *arg)
{
	const struct cg *cg = arg;
	const struct dot_edge *a = x, *b = y;
	uint32_t ia = cg->nodes[a->caller].index, ib = cg->nodes[b->caller].index;

	if (ia != ib)
		return ia < ib ? -1 : 1;
	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	ia = cg->nodes[a->callee].index;
	ib = cg->nodes[b->callee].index;
	return ia < ib ? -1 : ia > ib;
}

static void print_edge(struct dot_ctx *d, const struct dot_edge *e)
{
	double share = pct(d, e->cost), t = ramp(share);
	char colour[8];

	/* a sampled profile's arc counts samples of every event, not
	 * calls (print_graph.c): its edge has its cost only */
	if (d->sampled)
		fprintf(d->out, "\tf%u -> f%u [label=\"", e->caller, e->callee);
	else
		fprintf(d->out, "\tf%u -> f%u [label=\"%llu call%s", e->caller,
			e->callee, (unsigned long long)e->count,
			e->count == 1 ? "" : "s");
	if (!e->has_cost) {
		fputs("\", style=dashed];\n", d->out);
		return;
	}
	hsv_hex(ramp_hue(t), 0.9, 0.75, colour);
	fprintf(d->out, "%s%.2f%%\", color=\"%s\", fontcolor=\"%s\", "
		"penwidth=%.2f];\n", d->sampled ? "" : "\\n", share, colour,
		colour, 1 + 5 * (share > 100 ? 100 : share) / 100);
}

/* The graph's caption: what it shows, and what was left out. */
static void print_caption(struct dot_ctx *d, size_t nodes_out,
			  size_t edges_out, bool dashed)
{
	const struct profile *p = d->cg->p;

	fputs("\tlabel=\"Call graph of ", d->out);
	dot_string(d->out, profile_str(p, p->events[d->ev].name));
	if (p->events[d->ev].long_name != NO_NAME) {
		fputs(" (", d->out);
		dot_string(d->out, profile_str(p, p->events[d->ev].long_name));
		fputc(')', d->out);
	}
	fputs(", ", d->out);
	/* a maximum's total is its largest value (MEM_MAX) */
	if (profile_event_max(p, d->ev))
		fputs("the largest ", d->out);
	print_cost(d, d->total);
	/* a sampled profile (perf.data) counted no call: its words are
	 * the stacks' */
	fprintf(d->out, "%s%s\\l"
		"node: function, inclusive and self cost in %% of all, %s\\l"
		"edge: %s inclusive cost in %% of all\\l%s"
		"double border: %s; thick border: the largest self cost\\l"
		"left out: %zu function%s below %g%% inclusive, "
		"%zu %s%s below %g%% or to or from a function left out\\l\";\n",
		profile_event_max(p, d->ev) ? "" : " in all",
		d->cg->est_self ? " (percentages of the time the functions "
		"got, as in gprof's call graph)" : "",
		d->sampled ? "samples in its own code"
			   : "calls (+ recursive calls)",
		d->sampled ? "a caller in the stacks, its"
			   : "calls, their",
		!dashed ? ""
		: d->sampled ? "dashed edge: inside a cycle or to itself, "
			       "its cost in the cycle's or function's\\l"
		: "dashed edge: calls inside a cycle or recursive calls, "
		  "whose cost is in the cycle's or function's\\l",
		d->sampled ? "no caller in any stack" : "called by no function",
		nodes_out, nodes_out == 1 ? "" : "s", d->o->node_threshold,
		edges_out, d->sampled ? "arc" : "call arc",
		edges_out == 1 ? "" : "s", d->o->edge_threshold);
}

void print_dot(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	struct dot_ctx d = { .out = out, .cg = cg, .o = o,
			     .ev = o->sort_event, .hottest = NO_ID };
	uint32_t *nodes = xcalloc(cg->nnodes + 1, sizeof(*nodes));
	uint32_t *scratch = xcalloc(cg->nnodes + 1, sizeof(*scratch));
	uint32_t *by_number = xcalloc(cg->ncycles + 1, sizeof(*by_number));
	struct dot_edge *edges = NULL;
	struct flat_order fo = { cg, o->sort_event };
	size_t nkept = 0, nlisted = 0, nedges, edges_kept = 0;
	bool dashed = false;

	d.total = (double)p->totals[d.ev];
	d.sampled = p->sampled;
	/* gmon.out: percentages of the time functions got, as gprof's call
	 * graph has them (print_seconds.c), not of every tick */
	if (cg->est_self) {
		d.total = 0;
		for (uint32_t n = 0; n < cg->nnodes; n++)
			d.total += cg_node_self(cg, n, d.ev);
	}
	d.nl = name_labels_new(cg, NULL);	/* --dot shortens by itself */
	cg_callers_build(&d.callers, cg, NULL);
	d.kept = xcalloc(cg->nnodes + 1, sizeof(*d.kept));
	d.label = xcalloc(cg->nnodes + 1, sizeof(*d.label));
	d.row = xcalloc(cg->nevents + 1, sizeof(*d.row));

	/* functions the listings list, at least node_threshold inclusive */
	for (size_t i = 0; i < cg->norder; i++) {
		struct cg_entry e = cg_order_entry(cg, i);
		uint32_t n = e.id;

		if (e.is_cycle)
			continue;
		nlisted++;
		if (d.hottest == NO_ID || cmp_flat_order(&n, &d.hottest, &fo) < 0)
			d.hottest = n;
		if (pct(&d, node_incl(&d, n)) < o->node_threshold)
			continue;
		d.kept[n] = true;
		nodes[nkept++] = n;
	}
	if (d.hottest != NO_ID && cg_node_self(cg, d.hottest, d.ev) <= 0)
		d.hottest = NO_ID;
	unique_short_labels(d.label, nodes, nkept, SHORT_WITH_ID, make_label_cb,
			    &d, cg->nnodes);

	nedges = collect_edges(&d, &edges);
	if (nedges > 1)
		qsort_r(edges, nedges, sizeof(*edges), cmp_edges, (void *)cg);

	fputs("digraph callgraph {\n"
	      "\tgraph [labeljust=l, fontsize=10, ranksep=0.3, nodesep=0.25];\n"
	      "\tnode [shape=box, style=\"filled,rounded\", fontsize=10];\n"
	      "\tedge [fontsize=9, arrowsize=0.6];\n", out);
	/* cycles by number, which cg_rank gave 1..ncycles */
	for (uint32_t c = 0; c < cg->ncycles; c++)
		by_number[cg->cycles[c].number - 1] = c;
	for (uint32_t num = 1; num <= cg->ncycles; num++)
		print_cycle(&d, by_number[num - 1], scratch);
	for (size_t i = 0; i < nkept; i++)
		if (cg->nodes[nodes[i]].cycle == NO_ID)
			print_node(&d, nodes[i], "\t");
	for (size_t i = 0; i < nedges; i++) {
		const struct dot_edge *e = &edges[i];

		/* every edge joins two kept nodes */
		if (!d.kept[e->caller] || !d.kept[e->callee])
			continue;
		/* a cost counted again at each level of recursion is more
		 * than the calls' share: an edge it puts below the threshold
		 * is below it */
		if ((e->has_cost || e->measured) &&
		    pct(&d, e->cost) < o->edge_threshold)
			continue;
		print_edge(&d, e);
		edges_kept++;
		dashed |= !e->has_cost;
	}
	print_caption(&d, nlisted - nkept, nedges - edges_kept, dashed);
	fputs("}\n", out);

	for (size_t i = 0; i < nkept; i++)
		free(d.label[nodes[i]]);
	free(d.label);
	free(d.kept);
	free(d.row);
	free(edges);
	free(nodes);
	free(by_number);
	free(scratch);
	name_labels_free(d.nl);
	cg_callers_release(&d.callers);
}

struct dot_job {
	const struct cg *cg;
	const struct print_opts *o;
};

static void emit_dot(FILE *in, const void *arg)
{
	const struct dot_job *job = arg;

	print_dot(in, job->cg, job->o);
}

int print_svg(const char *path, const struct cg *cg,
	      const struct print_opts *o)
{
	struct dot_job job = { cg, o };
	size_t size = strlen(path) + 16;
	char *place = xmalloc(size), *out = xmalloc(size);
	/* "-oFILE" in one word: a FILE that starts with '-' stays a file */
	const char *argv[] = { "dot", "-Tsvg", out, NULL };
	int ret;

	snprintf(place, size, "--svg '%s'", path);
	snprintf(out, size, "-o%s", path);
	ret = pipe_to(place, argv, "install graphviz (apt-get install graphviz)",
		      emit_dot, &job);
	free(place);
	free(out);
	return ret;
}
