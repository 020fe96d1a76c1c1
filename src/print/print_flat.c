/*
 * The flat profile: one line per function, by self cost of the sort
 * event, with gprof's columns in the profile's own units. A sampled
 * profile (perf.data) counts no calls: its column is the function's
 * samples (perf report's Samples), and it has no per-call columns.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "linebuf.h"
#include "par_format.h"
#include "print.h"

static int width_of(double v, int decimals, bool groups)
{
	char buf[FMT_NUM_MAX];

	return (int)fmt_number(buf, v, decimals, groups);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static bool shown_nonzero(const struct cg *cg, const struct print_opts *o,
			  uint32_t n)
{
	for (size_t i = 0; i < o->nshow; i++)
		if (cg_node_self(cg, n, o->show[i]) != 0)
			return true;
	return cg_node_self(cg, n, o->sort_event) != 0;
}

/* What a row needs, the same for every row (and thread). */
struct flat_rows {
	const struct cg *cg;
	const struct print_opts *o;
	const struct name_labels *nl;
	const uint32_t *rows;
	double *cum;		/* cumulative self cost, by row */
	uint32_t ev;
	double total;
	int wcost, wcall, wcalls;
	const int *wextra;
	bool sampled;		/* samples, not calls and per call */
	bool count_col;		/* sampled: a samples column (none when the
				 * event is their count: self says it) */
};

/* gprof's calls, self/call and total/call of node n */
static void format_calls(struct linebuf *lb, const struct flat_rows *fr,
			 uint32_t n, double self, double child)
{
	const struct cg *cg = fr->cg;
	const struct cg_node *node = &cg->nodes[n];
	bool groups = fr->o->digit_groups;
	char calls[2 * FMT_NUM_MAX];
	size_t clen;

	clen = fmt_calls(calls, node->calls, cg_node_self_calls(cg, n), groups);
	lb_putc(lb, ' ');
	lb_right(lb, calls, clen, fr->wcalls);
	if (node->calls && !profile_event_max(cg->p, fr->ev)) {
		double c = (double)node->calls;

		lb_putc(lb, ' ');
		lb_per_call(lb, self / c, fr->wcall, groups);
		lb_putc(lb, ' ');
		lb_per_call(lb, (self + child) / c, fr->wcall, groups);
	} else {
		lb_spaces(lb, 2 + 2 * (size_t)fr->wcall);
	}
}

/* Row i of the flat profile. */
static void format_row(void *unused, const void *shared, size_t i,
		       struct linebuf *lb)
{
	const struct flat_rows *fr = shared;
	const struct cg *cg = fr->cg;
	const struct print_opts *o = fr->o;
	uint32_t n = fr->rows[i], ev = fr->ev;
	double self = cg_node_self(cg, n, ev);
	double child = cg_node_child(cg, n, ev);
	bool groups = o->digit_groups;

	(void)unused;
	lb_fixed(lb, fr->total > 0 ? self * 100 / fr->total : 0.0, 2, 6);
	lb_putc(lb, ' ');
	lb_number(lb, fr->cum[i], 0, fr->wcost, groups);
	lb_putc(lb, ' ');
	lb_number(lb, self, 0, fr->wcost, groups);
	if (fr->count_col) {
		lb_putc(lb, ' ');
		lb_number(lb, (double)func_samples(cg->p, n, ev), 0,
			  fr->wcalls, groups);
	} else if (!fr->sampled) {
		format_calls(lb, fr, n, self, child);
	}
	for (size_t k = 0; k < o->nshow; k++) {
		if (o->show[k] == ev)
			continue;
		lb_spaces(lb, 2);
		lb_number(lb, cg_node_self(cg, n, o->show[k]), 0,
			  fr->wextra[k], groups);
	}
	lb_puts(lb, "  ");
	lb_func_label(lb, fr->nl, cg, n, o->indexes);
	lb_putc(lb, '\n');
}

void print_flat(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t ev = o->sort_event;
	double total = (double)p->totals[ev], cum = 0;
	uint32_t *rows = xcalloc(cg->nnodes + 1, sizeof(*rows));
	size_t nrows = 0, nbelow = 0;
	struct name_labels *nl = name_labels_new(cg, o);
	const char *evname = profile_str(p, p->events[ev].name);
	bool sampled = p->sampled;
	/* pprof's "samples" sorted by (--sort=samples, go tool pprof's
	 * -sample_index=samples): its self column is the samples' */
	bool count_col = sampled && !p->events[ev].sample_count;
	int wcost, wcall, wcalls = sampled ? 7 : 5;
	int *wextra = xcalloc(o->nshow + 1, sizeof(*wextra));
	char hdr[256];

	/* gmon.out: gprof's own columns (also transformed: no estimate
	 * left in cg, the ticks in the stacks) */
	if (cg->est_self || listed_in_seconds(cg->p, o->sort_event)) {
		free(wextra);
		free(rows);
		name_labels_free(nl);
		print_flat_seconds(out, cg, o);
		return;
	}
	name_labels_set_listed(nl, o->graph_listed);
	for (uint32_t n = 0; n < cg->nnodes; n++) {
		const struct cg_node *node = &cg->nodes[n];

		if (o->flat_listed && !o->flat_listed[n])
			continue;
		/* sampled: the functions samples ended in, as perf report
		 * lists them (an arc's count is no call) */
		if ((sampled || (!node->calls && !cg_node_self_calls(cg, n))) &&
		    !shown_nonzero(cg, o, n))
			continue;
		if (total > 0 && o->threshold > 0 &&
		    cg_node_self(cg, n, ev) * 100.0 / total < o->threshold) {
			nbelow++;
			continue;
		}
		rows[nrows++] = n;
	}
	sort_flat_order(cg, ev, rows, nrows);

	snprintf(hdr, sizeof(hdr), "%s/call", evname);
	wcost = max_int(max_int(width_of(total, 0, o->digit_groups),
				(int)strlen(evname)), 10);
	wcall = max_int(max_int(width_of(total, 2, o->digit_groups),
				(int)strlen(hdr)), 9);
	for (size_t i = 0; i < nrows; i++) {
		char text[2 * FMT_NUM_MAX];
		uint32_t n = rows[i];

		wcalls = max_int(wcalls,
				 sampled ? width_of((double)func_samples(p, n, ev),
						    0, o->digit_groups)
				 : (int)fmt_calls(text, cg->nodes[n].calls,
						  cg_node_self_calls(cg, n),
						  o->digit_groups));
	}
	/* each further event's column says which: "self D1mr" */
	for (size_t i = 0; i < o->nshow; i++)
		wextra[i] = max_int(width_of((double)p->totals[o->show[i]], 0,
					     o->digit_groups),
				    5 + (int)strlen(profile_str(p, p->events[o->show[i]].name)));

	fputs("Flat profile of ", out);
	fprint_event_title(out, p, ev);
	fputs(", ", out);
	fprint_total(out, p, ev, o->digit_groups);
	/* a time measured in ticks (IgProf's PERF_TICKS): say what in */
	if (p->events[ev].unit_seconds != 0)
		fprintf(out, " (ticks of %g s: %.2f s)",
			p->events[ev].unit_seconds,
			(double)p->totals[ev] * p->events[ev].unit_seconds);
	fputs(":\n\n", out);
	if (sampled) {
		fprintf(out, "  %%   %*s %*s\n", wcost, "cumulative", wcost,
			"self");
		fprintf(out, " self  %*s %*s", wcost, evname, wcost, evname);
		if (count_col)
			fprintf(out, " %*s", wcalls, "samples");
	} else {
		fprintf(out, "  %%   %*s %*s %*s %*s %*s\n", wcost,
			"cumulative", wcost, "self", wcalls, "", wcall, "self",
			wcall, "total");
		fprintf(out, " self  %*s %*s %*s %*s %*s", wcost, evname, wcost,
			evname, wcalls, "calls", wcall, hdr, wcall, hdr);
	}
	for (size_t i = 0; i < o->nshow; i++)
		if (o->show[i] != ev) {
			char label[300];

			snprintf(label, sizeof(label), "self %s",
				 profile_str(p, p->events[o->show[i]].name));
			fprintf(out, "  %*s", wextra[i], label);
		}
	fputs("  name\n", out);

	{
		struct flat_rows fr = {
			.cg = cg, .o = o, .nl = nl, .rows = rows,
			.cum = xcalloc(nrows + 1, sizeof(double)), .ev = ev,
			.total = total, .wcost = wcost, .wcall = wcall,
			.wcalls = wcalls, .wextra = wextra,
			.sampled = sampled, .count_col = count_col,
		};
		/* rows of 256: a few tens of kilobytes each */
		struct par_format pf = {
			.format = format_row, .shared = &fr,
			.chunk = 256, .min_units = 2048,
		};

		for (size_t i = 0; i < nrows; i++) {
			double self = cg_node_self(cg, rows[i], ev);

			/* a maximum's cumulative is the largest so far */
			if (!profile_event_max(p, ev))
				cum += self;
			else if (self > cum)
				cum = self;
			fr.cum[i] = cum;
		}
		if (o->par_chunk) {
			pf.chunk = o->par_chunk;
			pf.min_units = 0;
		}
		par_format_run(&pf, out, nrows);
		free(fr.cum);
	}
	print_left_out(out, nbelow, "function", o->threshold);
	if (!o->brief)
		fprintf(out, "\n%s%s", sampled ? flat_sampled_blurb : flat_blurb,
			profile_event_max(p, ev) ? max_blurb : "");
	name_labels_free(nl);
	free(wextra);
	free(rows);
}
