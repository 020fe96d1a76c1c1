/*
 * The flat profile and call graph of an event that is a time (its
 * unit_seconds is set: gmon.out's histogram ticks, a sampling profiler's
 * ticks), in gprof's columns and precision: seconds with two decimals,
 * per-call times in the SI unit that suits the largest one, percentages
 * as gprof computes them. Costs may be fractional (gmon.out's estimated
 * mode) or whole (measured). print_flat() and print_graph() hand over
 * to these.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "print.h"

static double unit_of(const struct cg *cg, uint32_t ev)
{
	return cg->p->events[ev].unit_seconds;
}

/* --- flat profile --- */

/*
 * The SI prefix for per-call times: the one that puts the largest
 * total time per call in [1, 1000), as gprof picks it; seconds when no
 * function was called. Of every function, also those -p/-P or the
 * threshold leave out, as gprof does: one unit whatever is listed.
 */
static void per_call_unit(const struct cg *cg, uint32_t ev, char *prefix,
			  double *scale)
{
	static const struct {
		char prefix;
		double scale;
	} si[] = {
		{ 'T', 1e-12 }, { 'G', 1e-9 }, { 'M', 1e-6 }, { 'K', 1e-3 },
		{ ' ', 1 }, { 'm', 1e3 }, { 'u', 1e6 }, { 'n', 1e9 },
		{ 'p', 1e12 }, { 'f', 1e15 }, { 'a', 1e18 },
	};
	double top = 0;
	size_t i;

	for (uint32_t n = 0; n < cg->nnodes; n++) {
		double c = (double)cg->nodes[n].calls, t;

		if (!c)
			continue;
		t = (cg_node_self(cg, n, ev) + cg_node_child(cg, n, ev)) / c;
		if (t > top)
			top = t;
	}
	*prefix = ' ';
	*scale = 1;
	if (top <= 0)
		return;
	top *= unit_of(cg, ev);
	for (i = 0; i < sizeof(si) / sizeof(si[0]) - 1; i++)
		if (si[i].scale * top >= 1 && si[i].scale * top < 1000)
			break;
	*prefix = si[i].prefix;
	*scale = si[i].scale;
}

void print_flat_seconds(FILE *out, const struct cg *cg,
			const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t ev = o->sort_event;
	double unit = unit_of(cg, ev), total = (double)p->totals[ev], cum = 0;
	const char *evname = profile_str(p, p->events[ev].name);
	uint32_t *rows = xcalloc(cg->nnodes + 1, sizeof(*rows));
	struct name_labels *nl = name_labels_new(cg, o);
	size_t nrows = 0;
	char prefix, per_call[32], label[8192];
	double scale;

	name_labels_set_listed(nl, o->graph_listed);
	for (uint32_t n = 0; n < cg->nnodes; n++) {
		double self = cg_node_self(cg, n, ev);

		if (o->flat_listed && !o->flat_listed[n])
			continue;
		/* gprof leaves out what was neither called nor sampled */
		if (!cg->nodes[n].calls && self == 0)
			continue;
		if (total > 0 && o->threshold > 0 &&
		    self * 100.0 / total < o->threshold)
			continue;
		rows[nrows++] = n;
	}
	sort_flat_order(cg, ev, rows, nrows);
	per_call_unit(cg, ev, &prefix, &scale);
	snprintf(per_call, sizeof(per_call), "%c%c/call", prefix, evname[0]);

	fprintf(out, "Flat profile of %s (each sample counts as %g %s), %.2f in all:\n\n",
		evname, unit, evname, total * unit);
	fprintf(out, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s",
		"%  ", "cumulative", "self  ", "", "self  ", "total ", "");
	for (size_t k = 0; k < o->nshow; k++)
		if (o->show[k] != ev)
			fprintf(out, " %10s", "self");
	fputc('\n', out);
	fprintf(out, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  ", "time", evname,
		evname, "calls", per_call, per_call);
	for (size_t k = 0; k < o->nshow; k++)
		if (o->show[k] != ev)
			fprintf(out, "%10s ",
				profile_str(p, p->events[o->show[k]].name));
	fputs("name\n", out);

	for (size_t i = 0; i < nrows; i++) {
		uint32_t n = rows[i];
		const struct cg_node *node = &cg->nodes[n];
		double self = cg_node_self(cg, n, ev);

		cum += self;
		fprintf(out, "%6.2f %9.2f %8.2f",
			total > 0 ? 100 * self / total : 0.0, cum * unit,
			self * unit);
		if (node->calls)
			fprintf(out, " %8llu %8.2f %8.2f  ",
				(unsigned long long)node->calls,
				scale * self * unit / (double)node->calls,
				scale * (self + cg_node_child(cg, n, ev)) *
					unit / (double)node->calls);
		else
			fprintf(out, " %8.8s %8.8s %8.8s  ", "", "", "");
		for (size_t k = 0; k < o->nshow; k++)
			if (o->show[k] != ev)
				fprintf(out, "%10.0f ",
					cg_node_self(cg, n, o->show[k]));
		fprintf(out, "%s\n",
			func_label(nl, cg, n, o->indexes, label, sizeof(label)));
	}
	if (!o->brief)
		fprintf(out, "\n%s", flat_seconds_blurb);
	name_labels_free(nl);
	free(rows);
}

/* --- call graph --- */

struct sgraph {
	FILE *out;
	const struct cg *cg;
	struct cg_callers callers;
	struct name_labels *nl;
	uint32_t ev;
	double unit, total;
	char label[8192];
};

static const char *name_of(struct sgraph *g, uint32_t n)
{
	return func_label(g->nl, g->cg, n, true, g->label, sizeof(g->label));
}

static bool inside_cycle(const struct cg *cg, uint32_t a)
{
	uint32_t c = cg->nodes[cg_arc_caller(cg, a)].cycle;

	return c != NO_ID && c == cg->nodes[cg_arc_callee(cg, a)].cycle;
}

struct arc_order {
	const struct cg *cg;
	uint32_t ev;
};

/*
 * gprof's arc order (cg_print.c cmp_arc), ascending: calls inside a
 * cycle before the others, among them fewer calls first; the others by
 * time (self + children), then count.
 */
static int cmp_arc_up(const void *x, const void *y, void *arg)
{
	const struct arc_order *ao = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	bool ia = inside_cycle(ao->cg, a), ib = inside_cycle(ao->cg, b);

	if (ia != ib)
		return ia ? -1 : 1;
	if (!ia) {
		double sa, ca, sb, cb;

		cg_arc_share(ao->cg, a, ao->ev, &sa, &ca);
		cg_arc_share(ao->cg, b, ao->ev, &sb, &cb);
		if (sa + ca != sb + cb)
			return sa + ca < sb + cb ? -1 : 1;
	}
	if (cg_arc_count(ao->cg, a) != cg_arc_count(ao->cg, b))
		return cg_arc_count(ao->cg, a) < cg_arc_count(ao->cg, b) ? -1 : 1;
	/* the later call first, as always (listings are compared) */
	return a > b ? -1 : 1;
}

static int cmp_arc_down(const void *x, const void *y, void *arg)
{
	return -cmp_arc_up(x, y, arg);
}

static uint64_t head_calls(const struct cg *cg, uint32_t v)
{
	uint32_t c = cg->nodes[v].cycle;

	return c != NO_ID ? cg->cycles[c].calls : cg->nodes[v].calls;
}

static void self_arc_line(struct sgraph *g, uint32_t n)
{
	fprintf(g->out, "%6.6s %5.5s %7.7s %7.7s %7llu %7.7s     %s\n", "", "",
		"", "", (unsigned long long)cg_node_self_calls(g->cg, n), "",
		name_of(g, n));
}

/* The caller lines (incoming) or callee lines of node n: gprof lists
 * callers in ascending order and callees in descending order, with a
 * function's calls to itself first among callers, last among callees. */
static void arc_lines(struct sgraph *g, uint32_t n, bool incoming,
		      uint32_t **buf, size_t *alloc)
{
	const struct cg *cg = g->cg;
	struct arc_order ao = { cg, g->ev };
	size_t k = 0;

	const uint32_t *list = cg->out + cg->out_start[n];
	size_t nlist = cg->out_start[n + 1] - cg->out_start[n];

	if (incoming)
		nlist = cg_callers_of(&g->callers, n, &list);
	for (size_t i = 0; i < nlist; i++) {
		if (k == *alloc) {
			*alloc = *alloc * 2 + 16;
			*buf = xreallocarray(*buf, *alloc, sizeof(**buf));
		}
		(*buf)[k++] = list[i];
	}
	if (k > 1)
		qsort_r(*buf, k, sizeof(**buf),
			incoming ? cmp_arc_up : cmp_arc_down, &ao);
	if (incoming && !k && !cg_node_self_calls(cg, n))
		fprintf(g->out, "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
			"", "", "", "", "", "");
	if (incoming && cg_node_self_calls(cg, n))
		self_arc_line(g, n);
	for (size_t i = 0; i < k; i++) {
		uint32_t arc = (*buf)[i];
		uint32_t other = incoming ? cg_arc_caller(cg, arc)
					  : cg_arc_callee(cg, arc);
		double s, c;

		if (inside_cycle(cg, arc)) {
			fprintf(g->out, "%6.6s %5.5s %7.7s %7.7s %7llu %7.7s     %s\n",
				"", "", "", "",
				(unsigned long long)cg_arc_count(cg, arc),
				"", name_of(g, other));
			continue;
		}
		cg_arc_share(cg, arc, g->ev, &s, &c);
		fprintf(g->out, "%6.6s %5.5s %7.2f %7.2f %7llu/%-7llu     %s\n",
			"", "", s * g->unit, c * g->unit,
			(unsigned long long)cg_arc_count(cg, arc),
			(unsigned long long)head_calls(cg, cg_arc_callee(cg, arc)),
			name_of(g, other));
	}
	if (!incoming && cg_node_self_calls(cg, n))
		self_arc_line(g, n);
}

static void called_column(FILE *out, uint64_t calls, uint64_t extra,
			  bool blank_if_none)
{
	if (blank_if_none && !calls && !extra) {
		fprintf(out, " %7.7s %7.7s ", "", "");
		return;
	}
	fprintf(out, " %7llu", (unsigned long long)calls);
	if (extra)
		fprintf(out, "+%-7llu ", (unsigned long long)extra);
	else
		fprintf(out, " %7.7s ", "");
}

static void node_entry(struct sgraph *g, uint32_t n, uint32_t **buf,
		       size_t *alloc)
{
	const struct cg *cg = g->cg;
	const struct cg_node *node = &cg->nodes[n];
	double self = cg_node_self(cg, n, g->ev), child = cg_node_child(cg, n, g->ev);
	char idx[32];

	arc_lines(g, n, true, buf, alloc);
	snprintf(idx, sizeof(idx), "[%u]", node->index);
	fprintf(g->out, "%-6s %5.1f %7.2f %7.2f", idx,
		g->total > 0 ? 100 * (self + child) / g->total : 0.0,
		self * g->unit, child * g->unit);
	called_column(g->out, node->calls, cg_node_self_calls(cg, n), true);
	fprintf(g->out, "%s\n", name_of(g, n));
	arc_lines(g, n, false, buf, alloc);
}

struct member_order {
	const struct cg *cg;
	uint32_t ev;
};

/* gprof's member order: total time, then calls, highest first. */
static int cmp_members(const void *x, const void *y, void *arg)
{
	const struct member_order *mo = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	double ta = cg_node_self(mo->cg, a, mo->ev) + cg_node_child(mo->cg, a, mo->ev);
	double tb = cg_node_self(mo->cg, b, mo->ev) + cg_node_child(mo->cg, b, mo->ev);
	uint64_t ca = mo->cg->nodes[a].calls + cg_node_self_calls(mo->cg, a);
	uint64_t cb = mo->cg->nodes[b].calls + cg_node_self_calls(mo->cg, b);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (ca != cb)
		return ca > cb ? -1 : 1;
	return mo->cg->nodes[a].index < mo->cg->nodes[b].index ? -1 : 1;
}

static void cycle_entry(struct sgraph *g, uint32_t c, uint32_t **buf,
			size_t *alloc)
{
	const struct cg *cg = g->cg;
	const struct cg_cycle *cyc = &cg->cycles[c];
	double self = cg_cycle_self(cg, c, g->ev), child = cg_cycle_child(cg, c, g->ev);
	struct member_order mo = { cg, g->ev };
	char idx[32];
	size_t k = 0;

	snprintf(idx, sizeof(idx), "[%u]", cyc->index);
	fprintf(g->out, "%-6s %5.1f %7.2f %7.2f %7llu", idx,
		g->total > 0 ? 100 * (self + child) / g->total : 0.0,
		self * g->unit, child * g->unit,
		(unsigned long long)cyc->calls);
	if (cyc->internal_calls)
		fprintf(g->out, "+%-7llu", (unsigned long long)cyc->internal_calls);
	else
		fprintf(g->out, " %7.7s", "");
	fprintf(g->out, " <cycle %u as a whole> [%u]\n", cyc->number, cyc->index);
	for (uint32_t m = cyc->first_member; m != NO_ID; m = cg->nodes[m].next_member) {
		if (k == *alloc) {
			*alloc = *alloc * 2 + 16;
			*buf = xreallocarray(*buf, *alloc, sizeof(**buf));
		}
		(*buf)[k++] = m;
	}
	if (k > 1)
		qsort_r(*buf, k, sizeof(**buf), cmp_members, &mo);
	for (size_t i = 0; i < k; i++) {
		uint32_t m = (*buf)[i];
		const struct cg_node *mn = &cg->nodes[m];

		fprintf(g->out, "%6.6s %5.5s %7.2f %7.2f %7llu", "", "",
			cg_node_self(cg, m, g->ev) * g->unit,
			cg_node_child(cg, m, g->ev) * g->unit,
			(unsigned long long)mn->calls);
		if (cg_node_self_calls(cg, m))
			fprintf(g->out, "+%-7llu",
				(unsigned long long)cg_node_self_calls(cg, m));
		else
			fprintf(g->out, " %7.7s", "");
		fprintf(g->out, "     %s\n", name_of(g, m));
	}
}

void print_graph_seconds(FILE *out, const struct cg *cg,
			 const struct print_opts *o)
{
	const struct profile *p = cg->p;
	struct sgraph g;
	uint32_t *buf = NULL;
	size_t alloc = 0;

	memset(&g, 0, sizeof(g));
	g.out = out;
	g.cg = cg;
	g.ev = o->sort_event;
	g.unit = unit_of(cg, g.ev);
	g.nl = name_labels_new(cg, o);
	name_labels_set_listed(g.nl, o->graph_listed);
	cg_callers_build(&g.callers, cg, NULL);
	/* gprof's percentages here are of the time functions got, which
	 * can differ from the flat profile's total of every tick */
	for (uint32_t n = 0; n < cg->nnodes; n++)
		g.total += cg_node_self(cg, n, g.ev);

	fprintf(out, "Call graph of %s, %.2f in all (percentages of the time the functions got):\n\n",
		profile_str(p, p->events[g.ev].name), g.total * g.unit);
	fputs("index % time    self  children    called     name\n", out);
	for (size_t i = 0; i < cg->norder; i++) {
		struct cg_entry entry = cg_order_entry(cg, i);
		const struct cg_entry *e = &entry;

		if (!entry_shown(cg, o, e, g.ev, g.total))
			continue;
		if (e->is_cycle)
			cycle_entry(&g, e->id, &buf, &alloc);
		else
			node_entry(&g, e->id, &buf, &alloc);
		fputs("-----------------------------------------------\n", out);
	}
	print_index(out, cg, o, g.nl);
	if (!o->brief)
		fprintf(out, "\n%s", graph_seconds_blurb);
	free(buf);
	cg_callers_release(&g.callers);
	name_labels_free(g.nl);
}
