/*
 * The annotated source listing: each chosen file with the cost of every
 * line beside it, the calls made from a line under it, hot regions with
 * context and the skipped ranges marked, and at the end where all of the
 * cost went. The data comes from annotate_data.c.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_data.h"
#include "base/xalloc.h"
#include "fmt.h"
#include "json_write.h"

static const char rule[] =
	"--------------------------------------------------------------------------------\n";

struct columns {
	const struct annotation *a;
	const struct print_opts *o;
	int *width;		/* per shown event */
	int line_width;		/* of the line numbers */
	int execs_width;	/* of the block counts; 0: no such column */
	struct name_labels *nl;
};

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* v's width as the listing prints it */
static int count_width(uint64_t v, bool groups)
{
	char buf[FMT_NUM_MAX];

	return (int)strlen(fmt_count(buf, v, groups));
}

static void print_costs(FILE *out, const struct columns *c, const uint64_t *row)
{
	char buf[FMT_NUM_MAX];

	for (size_t i = 0; i < c->o->nshow; i++) {
		uint64_t v = row ? row[c->o->show[i]] : 0;

		if (v)
			fprintf(out, "%*s ", c->width[i],
				fmt_count(buf, v, c->o->digit_groups));
		else
			fprintf(out, "%*s ", c->width[i], ".");
	}
}

/* The block-count column (gmon.out), when there is one: a source line's
 * count or '.', blank on the other rows (execs NULL). */
static void print_execs(FILE *out, const struct columns *c,
			const uint64_t *execs)
{
	char buf[FMT_NUM_MAX];

	if (!c->execs_width)
		return;
	if (execs && *execs)
		fprintf(out, "%*s ", c->execs_width,
			fmt_count(buf, *execs, c->o->digit_groups));
	else
		fprintf(out, "%*s ", c->execs_width, execs ? "." : "");
}

/* Source text with tabs expanded from its own first column, so the
 * cost columns in front do not shift its indentation. */
static void print_text(FILE *out, const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\t') {
			do
				fputc(' ', out);
			while (++col % 8);
		} else {
			fputc(s[i], out);
			col++;
		}
	}
}

static double pct(const struct annotation *a, const uint64_t *row)
{
	double total = (double)a->total[a->sort_event];

	return total > 0 ? (double)row[a->sort_event] * 100.0 / total : 0.0;
}

struct by_cost {
	const uint64_t *rows;
	size_t stride;
	uint32_t event;
};

static int cmp_by_cost(const void *x, const void *y, void *arg)
{
	const struct by_cost *bc = arg;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	uint64_t a = bc->rows[i * bc->stride + bc->event],
		 b = bc->rows[j * bc->stride + bc->event];

	if (a != b)
		return a < b ? 1 : -1;
	return (i > j) - (i < j);
}

/* The entries of a list (first, next[]) ordered by cost, highest first. */
static size_t sorted_list(uint32_t first, const void *items, size_t size,
			  size_t next_offset, const uint64_t *rows,
			  const struct annotation *a, uint32_t **out)
{
	size_t n = 0, alloc = 0;
	struct by_cost bc = { rows, a->stride, a->sort_event };

	*out = NULL;
	for (uint32_t k = first; k != NO_ID;) {
		if (n == alloc) {
			alloc = alloc * 2 + 4;
			*out = xreallocarray(*out, alloc, sizeof(**out));
		}
		(*out)[n++] = k;
		memcpy(&k, (const char *)items + k * size + next_offset, sizeof(k));
	}
	if (n > 1)
		qsort_r(*out, n, sizeof(**out), cmp_by_cost, &bc);
	return n;
}

/* Lines under a source line: its calls, then inlined code's cost, each
 * most costly first. */
static void print_line_extras(FILE *out, const struct columns *c,
			      const struct ann_line *l, const struct cg *cg)
{
	const struct annotation *a = c->a;
	const struct profile *p = a->p;
	const struct print_opts *o = c->o;
	char label[4096], num[FMT_NUM_MAX];
	uint32_t *order;
	size_t n;

	n = sorted_list(l->first_call, a->calls, sizeof(*a->calls),
			offsetof(struct ann_call, next), a->call_incl, a, &order);
	for (size_t i = 0; i < n; i++) {
		const struct ann_call *call = &a->calls[order[i]];

		print_costs(out, c, ann_row(a->call_incl, a, order[i]));
		print_execs(out, c, NULL);
		fprintf(out, "%*s  => %s (", c->line_width, "",
			func_label(c->nl, cg, call->callee, false, label,
				   sizeof(label)));
		if (call->count)
			fprintf(out, "%s call%s%s",
				fmt_count(num, call->count, o->digit_groups),
				call->count == 1 ? "" : "s",
				call->recursive ? ", " : "");
		if (call->recursive)
			fprintf(out, "%s recursive, counted in the outer call",
				fmt_count(num, call->recursive, o->digit_groups));
		fputs(")\n", out);
	}
	free(order);
	n = sorted_list(l->first_inlined, a->inlined, sizeof(*a->inlined),
			offsetof(struct ann_inlined, next), a->inlined_cost, a,
			&order);
	for (size_t i = 0; i < n; i++) {
		print_costs(out, c, ann_row(a->inlined_cost, a, order[i]));
		print_execs(out, c, NULL);
		fprintf(out, "%*s  ~> inlined %s\n", c->line_width, "",
			profile_str(p, a->inlined[order[i]].func));
	}
	free(order);
}

static void print_source_line(FILE *out, const struct columns *c,
			      const struct ann_file *f, uint32_t n,
			      const struct ann_line *l, const struct cg *cg)
{
	size_t len = 0;
	const char *text = f->src ? source_line(f->src, n, &len) : NULL;

	print_costs(out, c, l ? ann_row(c->a->line_cost, c->a,
					 (size_t)(l - c->a->lines))
			      : NULL);
	if (c->execs_width) {
		uint64_t none = 0;

		print_execs(out, c, l ? &c->a->line_execs[l - c->a->lines] : &none);
	}
	fprintf(out, "%*u  ", c->line_width, n);
	if (text)
		print_text(out, text, len);
	fputc('\n', out);
	if (l)
		print_line_extras(out, c, l, cg);
}

static void print_skip(FILE *out, uint32_t from, uint32_t to)
{
	if (from == to)
		fprintf(out, "-- line %u: no cost --\n", from);
	else
		fprintf(out, "-- lines %u-%u: no cost --\n", from, to);
}

/* A found file: regions of context around the lines with cost. */
static void print_found(FILE *out, const struct columns *c,
			const struct ann_file *f, const struct cg *cg)
{
	const struct annotation *a = c->a;
	uint32_t nlines = f->src->nlines, ctx = c->o->context, shown = 0;
	size_t i = 0;

	while (i < f->nlines && a->lines[f->lines[i]].line <= nlines) {
		uint32_t first = a->lines[f->lines[i]].line, last = first;
		uint32_t from = first > ctx ? first - ctx : 1, to;

		/* extend the region while the next hot line's context meets
		 * this one's */
		while (i + 1 < f->nlines &&
		       a->lines[f->lines[i + 1]].line <= nlines &&
		       a->lines[f->lines[i + 1]].line - last <= 2 * ctx + 1) {
			i++;
			last = a->lines[f->lines[i]].line;
		}
		to = nlines - last > ctx ? last + ctx : nlines;
		if (from > shown + 1)
			print_skip(out, shown + 1, from - 1);
		for (uint32_t n = from, j = (uint32_t)(i + 1); n <= to; n++) {
			const struct ann_line *l = NULL;

			/* the hot lines of this region, in order */
			for (size_t k = j; k > 0; k--) {
				const struct ann_line *cand = &a->lines[f->lines[k - 1]];

				if (cand->line == n) {
					l = cand;
					break;
				}
				if (cand->line < n)
					break;
			}
			print_source_line(out, c, f, n, l, cg);
		}
		shown = to;
		i++;
	}
	if (shown < nlines)
		print_skip(out, shown + 1, nlines);
	if (f->past_end) {
		fprintf(out, "-- %u line%s with cost past the end of the file (it has %u line%s): "
			"the source does not match the profile --\n",
			f->past_end, f->past_end == 1 ? "" : "s", nlines,
			nlines == 1 ? "" : "s");
		for (; i < f->nlines; i++) {
			const struct ann_line *l = &a->lines[f->lines[i]];

			print_source_line(out, c, f, l->line, l, cg);
		}
	}
}

/* A file not found: its lines with cost, by number only. */
static void print_not_found(FILE *out, const struct columns *c,
			    const struct ann_file *f, const struct cg *cg)
{
	for (size_t i = 0; i < f->nlines; i++) {
		const struct ann_line *l = &c->a->lines[f->lines[i]];

		print_source_line(out, c, f, l->line, l, cg);
	}
}

static void print_header_row(FILE *out, const struct columns *c)
{
	const struct profile *p = c->a->p;

	for (size_t i = 0; i < c->o->nshow; i++)
		fprintf(out, "%*s ", c->width[i],
			event_column_name(p, c->o->show[i]));
	if (c->execs_width)
		fprintf(out, "%*s ", c->execs_width, "execs");
}

static void print_file(FILE *out, const struct columns *c,
		       const struct ann_file *f, size_t index,
		       const struct cg *cg)
{
	const struct annotation *a = c->a;
	const struct profile *p = a->p;
	const uint64_t *cost = ann_row(a->file_cost, a, index);
	const char *unit = event_cost_unit(p, a->sort_event);
	char num[FMT_NUM_MAX], name[4096];

	fputs(rule, out);
	fprintf(out, "-- %s  (%s %s%s%s, %.2f%% of the total)\n",
		name_escaped(profile_str(p, f->name), name, sizeof(name)),
		event_column_name(p, a->sort_event),
		fmt_count(num, cost[a->sort_event], c->o->digit_groups),
		unit ? " " : "", unit ? unit : "", pct(a, cost));
	if (f->fate == ANN_NOT_FOUND)
		fprintf(out, "-- note: source not found (%s); its lines are listed "
			"by number (give its directory with -I DIR, or "
			"--source-map OLD=NEW)\n",
			strerror(f->src->err));
	else if (strcmp(f->src->found, f->src->asked))
		fprintf(out, "-- read from %s\n", f->src->found);
	if (f->fate == ANN_LISTED && f->src->stale)
		fputs("-- note: the source was modified after the profile was "
		      "written: its lines may not match\n", out);
	fputs(rule, out);
	print_header_row(out, c);
	fprintf(out, "%*s\n", c->line_width, "line");
	if (f->fate == ANN_LISTED)
		print_found(out, c, f, cg);
	else
		print_not_found(out, c, f, cg);
	fputc('\n', out);
}

static void print_fate(FILE *out, const struct columns *c, enum ann_fate fate,
		       const char *what, bool always)
{
	const struct annotation *a = c->a;
	const uint64_t *row = ann_row(a->fate_cost, a, fate);
	uint32_t nf = a->fate_files[fate];
	bool any = false;

	for (size_t e = 0; e < a->stride; e++)
		any |= row[e] != 0;
	if (!any && !always)
		return;
	print_costs(out, c, row);
	print_execs(out, c, NULL);
	fprintf(out, "%6.2f%%  %s", pct(a, row), what);
	if (fate != ANN_NO_LINE && nf)
		fprintf(out, " (%u file%s)", nf, nf == 1 ? "" : "s");
	fputc('\n', out);
}

/* Where the cost of what was not chosen is: --annotate=WHAT chose
 * files or functions, -p/-P SPEC functions. */
static const char *not_chosen_text(const struct annotation *a)
{
	bool by_file = a->selected_by && !strcmp(a->selected_by, "file");

	if (by_file && a->by_symspecs)
		return "in other files and in functions -p/-P left out";
	if (by_file)
		return "in other files";
	if (a->selected_by)
		return "in other functions";
	return "in functions -p/-P left out";
}

/*
 * Whether an object with no line has no debug info: valgrind looked its
 * lines up (every input is Callgrind's), or -b gave it. An IgProf or
 * gmon.out object that -b did not give has no lines for want of -b.
 */
static bool lines_were_looked_for(const struct profile *p,
				  const struct print_opts *o, name_id object)
{
	bool all_callgrind = p->ninputs > 0;

	for (size_t i = 0; i < p->ninputs; i++)
		if (strcmp(profile_str(p, p->inputs[i].format), "callgrind"))
			all_callgrind = false;
	if (all_callgrind)
		return true;
	for (size_t b = 0; b < o->nreports; b++)
		if (o->reports[b].object == object)
			return true;
	return false;
}

static void print_summary(FILE *out, const struct columns *c)
{
	const struct annotation *a = c->a;

	fputs(rule, out);
	fputs("-- Where the cost went\n", out);
	fputs(rule, out);
	print_header_row(out, c);
	fputc('\n', out);
	print_costs(out, c, a->total);
	print_execs(out, c, NULL);
	fprintf(out, "%6.2f%%  in all\n", a->total[a->sort_event] ? 100.0 : 0.0);
	print_fate(out, c, ANN_LISTED, "listed with source", true);
	print_fate(out, c, ANN_NOT_FOUND, "listed without source (not found)",
		   false);
	print_fate(out, c, ANN_NO_LINE,
		   "on no source line (code without line information)", false);
	print_fate(out, c, ANN_BELOW, "in files below the threshold", false);
	print_fate(out, c, ANN_NOT_CHOSEN, not_chosen_text(a), false);
}

void print_annotate(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct annotation *a = o->annotation;
	const struct profile *p = cg->p;
	struct columns c = { .a = a, .o = o };
	uint32_t maxline = 4;
	size_t listed = 0;

	c.width = xcalloc(o->nshow + 1, sizeof(*c.width));
	for (size_t i = 0; i < o->nshow; i++) {
		int w = count_width(a->total[o->show[i]], o->digit_groups);
		int nw = (int)strlen(event_column_name(p, o->show[i]));

		c.width[i] = w > nw ? w : nw;
	}
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		if (f->fate != ANN_LISTED && f->fate != ANN_NOT_FOUND)
			continue;
		listed++;
		if (f->src->found && f->src->nlines > maxline)
			maxline = f->src->nlines;
		for (size_t l = 0; l < f->nlines; l++)
			if (a->lines[f->lines[l]].line > maxline)
				maxline = a->lines[f->lines[l]].line;
	}
	c.line_width = digits(maxline);
	if (a->line_execs) {
		c.execs_width = 5;	/* "execs" */
		for (size_t l = 0; l < a->nlines; l++)
			if (count_width(a->line_execs[l], o->digit_groups) > c.execs_width)
				c.execs_width = count_width(a->line_execs[l],
							    o->digit_groups);
	}
	c.nl = name_labels_new(cg, o);
	if (p->est_self && p->events[a->sort_event].unit_seconds > 0)
		fprintf(out, "-- gmon.out: a tick is %g seconds; a call shows its "
			"count only (gmon.out measures no time per call)%s\n\n",
			p->events[a->sort_event].unit_seconds,
			a->line_execs ? "; execs: the basic-block count of the "
					"line (its most executed block)" : "");
	/* an object of 1% or more with no line at all, though others have
	 * lines (the profile was not made with --dump-line=no): say so */
	if (a->no_line_object != NO_NAME && a->any_line &&
	    lines_were_looked_for(p, o, a->no_line_object) &&
	    a->no_line_object_cost * 100 >= a->total[a->sort_event] &&
	    a->total[a->sort_event])
		fprintf(out, "-- note: %.1f%% of the cost has no source line: "
			"%.1f%% is in '%s', which has no debug info (build "
			"it with -g and profile it again)\n\n",
			100.0 * (double)ann_row(a->fate_cost, a,
						ANN_NO_LINE)[a->sort_event] /
				(double)a->total[a->sort_event],
			100.0 * (double)a->no_line_object_cost /
				(double)a->total[a->sort_event],
			profile_str(p, a->no_line_object));
	if (!a->nlines && a->any_line)
		fputs("-- the functions chosen have no cost on a source line\n\n",
		      out);
	else if (!a->nlines)	/* -b may have given positions their lines */
		fputs("-- note: the profile has no line numbers (valgrind "
		      "--dump-line=no, or a binary without DWARF line tables): "
		      "there is nothing to annotate\n\n", out);
	else if (!listed)
		fprintf(out, "-- no source file has %.4g%% of the total or more "
			"(--threshold=PCT chooses)\n\n", o->listing_threshold);
	for (size_t i = 0; i < a->nfiles; i++)
		if (a->files[i].fate == ANN_LISTED ||
		    a->files[i].fate == ANN_NOT_FOUND)
			print_file(out, &c, &a->files[i], i, cg);
	print_summary(out, &c);
	name_labels_free(c.nl);
	free(c.width);
}

static const char *fate_name(enum ann_fate f)
{
	switch (f) {
	case ANN_LISTED:
		return "listed";
	case ANN_NOT_FOUND:
		return "not_found";
	case ANN_BELOW:
		return "below_threshold";
	case ANN_NO_LINE:
		return "no_line";
	case ANN_NOT_CHOSEN:
	default:
		return "not_chosen";
	}
}

void print_annotate_json(FILE *out, const struct cg *cg,
			 const struct print_opts *o)
{
	const struct annotation *a = o->annotation;
	const struct profile *p = cg->p;
	bool first = true;

	fputs(",\n \"annotation\": {\"chosen_by\": ", out);
	if (a->selected_by)
		json_string(out, a->selected_by, strlen(a->selected_by));
	else
		fputs("null", out);
	fprintf(out, ", \"by_symspecs\": %s, \"threshold\": %.17g, \"total\": ",
		a->by_symspecs ? "true" : "false", o->listing_threshold);
	json_row(out, a->total, a->stride);
	fputs(", \"where\": {", out);
	for (int f = 0; f < ANN_FATES; f++) {
		fprintf(out, "%s\"%s\": ", f ? ", " : "", fate_name((enum ann_fate)f));
		json_row(out, ann_row(a->fate_cost, a, (size_t)f), a->stride);
	}
	fputs("},\n  \"files\": [", out);
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		fputs(i ? ",\n   " : "\n   ", out);
		fputs("{\"path\": ", out);
		json_name(out, p, f->name);
		fprintf(out, ", \"status\": \"%s\", \"found\": ", fate_name(f->fate));
		if (f->src && f->src->found)
			json_string(out, f->src->found, strlen(f->src->found));
		else
			fputs("null", out);
		fprintf(out, ", \"stale\": %s, \"lines_past_end\": %u, \"cost\": ",
			f->src && f->src->stale ? "true" : "false", f->past_end);
		json_row(out, ann_row(a->file_cost, a, i), a->stride);
		fputc('}', out);
	}
	fputs("]},\n \"lines\": [", out);
	for (size_t i = 0; i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		if (f->fate != ANN_LISTED && f->fate != ANN_NOT_FOUND)
			continue;
		for (size_t k = 0; k < f->nlines; k++) {
			const struct ann_line *l = &a->lines[f->lines[k]];

			fputs(first ? "\n   " : ",\n   ", out);
			first = false;
			fputs("{\"file\": ", out);
			json_name(out, p, f->name);
			fprintf(out, ", \"line\": %u, \"cost\": ", l->line);
			json_row(out, ann_row(a->line_cost, a, f->lines[k]), a->stride);
			if (a->line_execs)
				fprintf(out, ", \"execs\": %llu", (unsigned long long)
					a->line_execs[f->lines[k]]);
			fputs(", \"calls\": [", out);
			for (uint32_t c = l->first_call; c != NO_ID; c = a->calls[c].next) {
				fprintf(out, "%s{\"callee\": %u, \"count\": %llu, \"recursive\": %llu, \"inclusive\": ",
					c == l->first_call ? "" : ", ", a->calls[c].callee,
					(unsigned long long)a->calls[c].count,
					(unsigned long long)a->calls[c].recursive);
				json_row(out, ann_row(a->call_incl, a, c), a->stride);
				fputc('}', out);
			}
			fputs("], \"inlined\": [", out);
			for (uint32_t c = l->first_inlined; c != NO_ID;
			     c = a->inlined[c].next) {
				fprintf(out, "%s{\"function\": ",
					c == l->first_inlined ? "" : ", ");
				json_name(out, p, a->inlined[c].func);
				fputs(", \"cost\": ", out);
				json_row(out, ann_row(a->inlined_cost, a, c), a->stride);
				fputc('}', out);
			}
			fputs("]}", out);
		}
	}
	fputs("]", out);
}
