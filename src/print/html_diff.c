/*
 * The diff report's documents (html_diff.h): the rows of --diff as the
 * report's functions, each side's costs, and each side's flame graph
 * tree over the rows, which the page's script lays over each other
 * (diffmodel.js): a call path of NEW is the same path of BASE when its
 * frames are the same rows, outermost first.
 */
#include "html_diff.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "flame_data.h"
#include "html_data.h"
#include "html_page.h"
#include "json_write.h"
#include "print.h"

/* embed.sh's strings, made from src/print/html/ */
extern const char html_asset_diff_html[];
extern const char html_asset_diff_js[];

/* The flame graphs keep what the report's keep (html_data.h): the paths
 * --tree keeps, so that each side's call tree is that side's --tree (at
 * 2e-5, paths of 23 to 45 Ir of a 2,278,007 Ir profile were no rows,
 * their cost in their caller's) */
#define DIFF_FLAME_MIN_SHARE HTML_FLAME_MIN_SHARE
#define DIFF_FLAME_MAX_NODES HTML_FLAME_MAX_NODES

enum { BASE, NEW };

static void put_str(FILE *out, const char *s)
{
	json_string(out, s, strlen(s));
}

/* [side k's self (or inclusive) cost of each row] */
static void put_cost_column(FILE *out, const struct diff_page *dp, bool incl,
			    int k)
{
	fputc('[', out);
	for (size_t i = 0; i < dp->nrows; i++)
		fprintf(out, i ? ",%llu" : "%llu", (unsigned long long)
			(incl ? dp->rows[i].incl[k] : dp->rows[i].self[k]));
	fputc(']', out);
}

/* "key": [n zeros]: the report's columns the comparison has none of */
static void put_zeros(FILE *out, const char *key, size_t n)
{
	fprintf(out, ",\n  \"%s\": [", key);
	for (size_t i = 0; i < n; i++)
		fputs(i ? ",0" : "0", out);
	fputc(']', out);
}

/* The event compared, as --json's "event_info" has it, but in the
 * unit --diff counts it: gmon.out's ticks, not gprof's seconds. */
static void put_event_info(FILE *out, const struct diff_page_side *s)
{
	const struct profile *p = s->cg->p;
	const struct pevent *e = &p->events[s->ev];

	fputs("[{\"name\": ", out);
	json_name(out, p, e->name);
	fputs(", \"long_name\": ", out);
	json_name(out, p, e->long_name);
	if (e->max)
		fputs(", \"maximum\": true", out);
	/* and how long a tick is, which --diff's title and --json say */
	if (listed_in_seconds(p, s->ev))
		fprintf(out, ", \"unit\": \"ticks\", \"unit_seconds\": %.17g",
			e->unit_seconds);
	else if (e->unit != NO_NAME) {
		fputs(", \"unit\": ", out);
		json_name(out, p, e->unit);
	}
	fputs("}]", out);
}

/* A row's label where its name is another row's too: the name and its
 * file or object, which tell them apart ("labels" of html_data.h). */
static int cmp_name(const void *x, const void *y)
{
	const struct diff_page_row *a = *(const struct diff_page_row *const *)x;
	const struct diff_page_row *b = *(const struct diff_page_row *const *)y;

	return strcmp(a->name, b->name);
}

static void put_labels(FILE *out, const struct diff_page *dp)
{
	const struct diff_page_row **by = xcalloc(dp->nrows + 1, sizeof(*by));
	bool *shared = xcalloc(dp->nrows + 1, sizeof(*shared));
	bool first = true;

	for (size_t i = 0; i < dp->nrows; i++)
		by[i] = &dp->rows[i];
	qsort(by, dp->nrows, sizeof(*by), cmp_name);
	for (size_t i = 1; i < dp->nrows; i++)
		if (!strcmp(by[i]->name, by[i - 1]->name))
			shared[by[i] - dp->rows] = shared[by[i - 1] - dp->rows] = true;
	fputs(",\n \"labels\": {", out);
	for (size_t i = 0; i < dp->nrows; i++) {
		const struct diff_page_row *r = &dp->rows[i];
		bool file = *r->file && strcmp(r->file, "???");

		if (!shared[i])
			continue;
		fprintf(out, "%s\"%zu\": ", first ? "\n  " : ",\n  ", i);
		first = false;
		{
			size_t n = strlen(r->name) + strlen(r->file) +
				   strlen(r->object) + 8;
			char *s = xmalloc(n);

			snprintf(s, n, "%s (%s%s%s)", r->name, r->object,
				 file && *r->object ? ": " : "",
				 file ? r->file : "");
			put_str(out, s);
			free(s);
		}
	}
	fputc('}', out);
	free(by);
	free(shared);
}

/* The first document: the rows as the report's functions, NEW's
 * costs (html_diff.h). "paths" has each row's file at 2 * row and its
 * object at 2 * row + 1. */
static void put_first(FILE *out, const struct diff_page *dp)
{
	const struct diff_page_side *nw = &dp->s[NEW];
	const struct profile *np = nw->cg->p;
	size_t n = dp->nrows;

	fputs("{\"events\": [", out);
	json_name(out, np, np->events[nw->ev].name);
	fputs("],\n \"event_info\": ", out);
	put_event_info(out, nw);
	fputs(",\n \"sort_event\": ", out);
	json_name(out, np, np->events[nw->ev].name);
	fprintf(out, ",\n \"totals\": [%llu]", (unsigned long long)nw->total);
	fputs(",\n \"inputs\": [", out);
	for (int k = BASE; k <= NEW; k++) {
		const struct profile *p = dp->s[k].cg->p;

		fputs(k ? ", {\"path\": " : "{\"path\": ", out);
		put_str(out, dp->s[k].path);
		fputs(", \"format\": ", out);
		json_name(out, p, p->ninputs ? p->inputs[0].format : NO_NAME);
		fputc('}', out);
	}
	fputs("],\n \"binaries\": [],\n \"paths\": [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		put_str(out, dp->rows[i].file);
		fputc(',', out);
		put_str(out, dp->rows[i].object);
	}
	fputs("],\n \"functions\": {\"name\": [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		put_str(out, dp->rows[i].name);
	}
	fputs("],\n  \"file\": [", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, i ? ",%ld" : "%ld",
			*dp->rows[i].file ? (long)(2 * i) : -1L);
	fputs("],\n  \"object\": [", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, i ? ",%ld" : "%ld",
			*dp->rows[i].object ? (long)(2 * i + 1) : -1L);
	fputc(']', out);
	put_zeros(out, "line", n);
	put_zeros(out, "calls", n);
	put_zeros(out, "self_calls", n);
	put_zeros(out, "cycle", n);
	fputs(",\n  \"self\": [", out);
	put_cost_column(out, dp, false, NEW);
	fputs("],\n  \"inclusive\": [", out);
	put_cost_column(out, dp, true, NEW);
	fputs("],\n  \"children\": {}}", out);
	put_labels(out, dp);
	fputs(",\n \"short_labels\": {}, \"short_names\": false, "
	      "\"demangled\": {}, \"start_function\": -1,\n \"warnings\": ", out);
	put_str(out, dp->warnings ? dp->warnings : "");
	fputs("}\n", out);
}

/* Side s's flame graph tree over the rows (html_diff.h) */
static void put_tree(FILE *out, const struct diff_page_side *s)
{
	const struct cg *cg = s->cg;
	const struct profile *p = cg->p;
	struct flame fl;
	/* the cycles met, numbered in that order: cg's index -> number,
	 * and number - 1 -> index */
	uint32_t *cyc = xcalloc(cg->ncycles + 1, sizeof(*cyc));
	uint32_t *met = xcalloc(cg->ncycles + 1, sizeof(*met));
	uint32_t ncyc = 0;

	flame_build(&fl, cg, s->ev, (double)p->totals[s->ev] * DIFF_FLAME_MIN_SHARE,
		    DIFF_FLAME_MAX_NODES);
	fprintf(out, "{\"estimated\": %s, \"cut\": %zu, \"full\": %s, "
		"\"total\": %.17g,\n  \"unit\": [",
		fl.estimated ? "true" : "false", fl.cut,
		fl.full ? "true" : "false", fl.total);
	for (size_t i = 0; i < fl.nnodes; i++) {
		const struct flame_node *n = &fl.nodes[i];
		long u;

		if (n->func != NO_ID) {
			u = (long)s->row[n->func];
		} else {
			if (!cyc[n->cycle]) {
				met[ncyc] = n->cycle;
				cyc[n->cycle] = ++ncyc;
			}
			u = -(long)cyc[n->cycle];
		}
		fprintf(out, i ? ",%ld" : "%ld", u);
	}
	fputs("],\n  \"parent\": [", out);
	for (size_t i = 0; i < fl.nnodes; i++)
		fprintf(out, i ? ",%ld" : "%ld", fl.nodes[i].parent == NO_ID
			? -1L : (long)fl.nodes[i].parent);
	fputs("],\n  \"value\": [", out);
	for (size_t i = 0; i < fl.nnodes; i++)
		fprintf(out, i ? ",%.17g" : "%.17g", fl.nodes[i].total);
	fputs("],\n  \"cycles\": [", out);
	for (uint32_t k = 0; k < ncyc; k++) {
		uint32_t c = met[k];
		bool first = true;

		fputs(k ? ",[" : "[", out);
		for (uint32_t m = cg->cycles[c].first_member; m != NO_ID;
		     m = cg->nodes[m].next_member) {
			fprintf(out, first ? "%u" : ",%u", s->row[m]);
			first = false;
		}
		fputc(']', out);
	}
	fputs("]}", out);
	free(cyc);
	free(met);
	flame_release(&fl);
}

static void put_side(FILE *out, const struct diff_page_side *s)
{
	const struct profile *p = s->cg->p;

	fputs("{\"path\": ", out);
	put_str(out, s->path);
	fputs(", \"format\": ", out);
	json_name(out, p, p->ninputs ? p->inputs[0].format : NO_NAME);
	fprintf(out, ", \"total\": %llu}", (unsigned long long)s->total);
}

/* "arcs": the calls between rows as columns (html_diff.h) */
static void put_arcs(FILE *out, const struct diff_arcs *da)
{
	fputs(",\n \"arcs\": {\"caller\": [", out);
	for (size_t i = 0; i < da->n; i++)
		fprintf(out, i ? ",%u" : "%u", da->arcs[i].caller);
	fputs("],\n  \"callee\": [", out);
	for (size_t i = 0; i < da->n; i++)
		fprintf(out, i ? ",%u" : "%u", da->arcs[i].callee);
	fputs("],\n  \"in\": [", out);
	for (size_t i = 0; i < da->n; i++)
		fprintf(out, i ? ",%d" : "%d",
			da->arcs[i].in[BASE] | da->arcs[i].in[NEW] << 1);
	for (int count = 0; count < 2; count++) {
		fprintf(out, "],\n  \"%s\": [", count ? "count" : "cost");
		for (int k = 0; k < 2; k++) {
			fputs(k ? ",[" : "[", out);
			for (size_t i = 0; i < da->n; i++)
				fprintf(out, i ? ",%llu" : "%llu",
					(unsigned long long)(count
						? da->arcs[i].calls[k]
						: da->arcs[i].cost[k]));
			fputc(']', out);
		}
	}
	fputs("]}", out);
}

static void put_diff(FILE *out, const struct diff_page *dp)
{
	uint64_t t[2] = { dp->s[BASE].total, dp->s[NEW].total };

	fputs("{\"base\": ", out);
	put_side(out, &dp->s[BASE]);
	fputs(",\n \"new\": ", out);
	put_side(out, &dp->s[NEW]);
	fprintf(out, ",\n \"delta\": %s%llu", t[NEW] < t[BASE] ? "-" : "",
		(unsigned long long)(t[NEW] < t[BASE] ? t[BASE] - t[NEW]
						     : t[NEW] - t[BASE]));
	fputs(",\n \"main_programs\": ", out);
	if (dp->main_obj[BASE] && dp->main_obj[NEW]) {
		fputs("{\"base\": ", out);
		put_str(out, dp->main_obj[BASE]);
		fputs(", \"new\": ", out);
		put_str(out, dp->main_obj[NEW]);
		fprintf(out, ", \"matched\": %s, \"by\": \"%s\", "
			"\"functions_in_both\": %zu}",
			dp->mains_matched ? "true" : "false",
			dp->mains_by_file ? "name and file" : "name",
			dp->mains_shared);
	} else {
		fputs("null", out);
	}
	fprintf(out, ",\n \"listed\": %zu,\n \"in\": [", dp->listed);
	for (size_t i = 0; i < dp->nrows; i++)
		fprintf(out, i ? ",%d" : "%d",
			dp->rows[i].in[BASE] | dp->rows[i].in[NEW] << 1);
	for (int incl = 0; incl < 2; incl++) {
		fprintf(out, "],\n \"%s\": [", incl ? "inclusive" : "self");
		put_cost_column(out, dp, incl, BASE);
		fputc(',', out);
		put_cost_column(out, dp, incl, NEW);
	}
	fputc(']', out);
	put_arcs(out, dp->arcs);
	/* none of a maximum (MEM_MAX): a path's width is what the
	 * stacks under it add up to (html_data_flame()) */
	if (dp->s[NEW].cg->p->events[dp->s[NEW].ev].max) {
		fputs(",\n \"trees\": null}\n", out);
		return;
	}
	fputs(",\n \"trees\": [", out);
	put_tree(out, &dp->s[BASE]);
	fputs(",\n", out);
	put_tree(out, &dp->s[NEW]);
	fputs("]}\n", out);
}

static bool put_document(FILE *json, const char *at, void *arg)
{
	const struct diff_page *dp = arg;

	if (!strncmp(at, "@@DATA@@", 8))
		put_first(json, dp);
	else if (!strncmp(at, "@@DIFF@@", 8))
		put_diff(json, dp);
	else
		return false;
	return true;
}

void print_html_diff(FILE *out, const struct diff_page *dp)
{
	html_page_write(out, html_asset_diff_html, html_asset_diff_js,
			dp->title, put_document, (void *)dp);
}
