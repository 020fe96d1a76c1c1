/*
 * The HTML report's data documents (html_data.h): the functions for the
 * first view, the calls for the function view, the flame graph's trees.
 * Columns, not objects: a JSON array of 11,000 numbers parses many
 * times faster than 11,000 objects of ten keys, and is a third of their
 * size, and the first view must be drawn within a second of opening
 * the page (doc/PERFORMANCE.md).
 */
#include "html_data.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "html_folded.h"
#include "json_write.h"
#include "linebuf.h"
#include "report_keep.h"
#include "start_function.h"

/* Exact costs are whole; estimates (gmon.out) keep their digits. A
 * whole number below 2^63 is written as an integer, which is what
 * "%.0f" writes of it, in a tenth of the time: a big program's report
 * has tens of millions of them. */
static void put_cost(FILE *out, double v, bool exact)
{
	char buf[24], *e = buf + sizeof(buf), *d = e;
	uint64_t u;

	if (!exact || v != v || v >= 0x1p63 || v <= -0x1p63 ||
	    v != (double)(int64_t)v || (v == 0 && signbit(v))) {
		fprintf(out, exact ? "%.0f" : "%.17g", v);
		return;
	}
	u = v < 0 ? (uint64_t)-(int64_t)v : (uint64_t)v;
	do {
		*--d = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--d = '-';
	fwrite_unlocked(d, 1, (size_t)(e - d), out);
}

/* "key": [v[0], v[stride], v[2 * stride], ...] for n values */
static void put_column(FILE *out, const char *key, const double *v,
		       size_t n, size_t stride, bool exact)
{
	fprintf(out, ",\n  \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		put_cost(out, v[i * stride], exact);
	}
	fputc(']', out);
}

/* "key": [[event 0's n values], [event 1's], ...] from an n x ne
 * matrix */
static void put_event_columns(FILE *out, const char *key, const double *m,
			      size_t n, size_t ne, bool exact)
{
	fprintf(out, ",\n  \"%s\": [", key);
	for (size_t e = 0; e < ne; e++) {
		fputs(e ? ",\n   [" : "\n   [", out);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			put_cost(out, m[i * ne + e], exact);
		}
		fputc(']', out);
	}
	fputc(']', out);
}

/* "paths": every file and object name of the functions once; file[f]
 * and object[f] their indexes in it, or NO_ID. */
static void put_paths(FILE *out, const struct profile *p,
		      const struct report_keep *k, uint32_t **file,
		      uint32_t **object)
{
	struct u64map seen;
	name_id *order = xcalloc(2 * k->nkept + 1, sizeof(*order));
	uint32_t n = 0;

	u64map_init(&seen);
	*file = xcalloc(k->nkept + 1, sizeof(**file));
	*object = xcalloc(k->nkept + 1, sizeof(**object));
	for (size_t i = 0; i < k->nkept; i++) {
		uint32_t f = report_func(k, i);
		name_id ids[2] = { p->funcs[f].file, p->funcs[f].object };
		uint32_t *to[2] = { &(*file)[i], &(*object)[i] };

		for (int w = 0; w < 2; w++) {
			bool added;

			if (ids[w] == NO_NAME) {
				*to[w] = NO_ID;
				continue;
			}
			*to[w] = u64map_get_or_put(&seen, ids[w], n, &added);
			if (added)
				order[n++] = ids[w];
		}
	}
	fputs(",\n \"paths\": [", out);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_name(out, p, order[i]);
	}
	fputc(']', out);
	u64map_release(&seen);
	free(order);
}

static void put_ids(FILE *out, const char *key, const uint32_t *v, size_t n)
{
	fprintf(out, ",\n  \"%s\": [", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, i ? ",%ld" : "%ld",
			v[i] == NO_ID ? -1L : (long)v[i]);
	fputc(']', out);
}

/*
 * "children": {"F": [a value per event]} for the functions whose call
 * graph children (child) are not inclusive - self as the page computes
 * it in doubles, as these are: a cycle member's where the graph worked
 * its children out from arcs (-q prints those, leaving out the calls
 * inside the cycle), or an estimate's last bit. Few functions: a map,
 * not a column the size of the others.
 */
static void put_children(FILE *out, const double *self, const double *incl,
			 const double *child, size_t n, size_t ne, bool exact)
{
	bool first = true;

	fputs(",\n  \"children\": {", out);
	for (size_t f = 0; f < n; f++) {
		const double *s = self + f * ne, *i = incl + f * ne;
		const double *c = child + f * ne;
		size_t e = 0;

		while (e < ne && i[e] - s[e] == c[e])
			e++;
		if (e == ne)
			continue;
		fprintf(out, "%s\"%zu\": [", first ? "" : ",", f);
		for (e = 0; e < ne; e++) {
			if (e)
				fputc(',', out);
			put_cost(out, c[e], exact);
		}
		fputc(']', out);
		first = false;
	}
	fputc('}', out);
}

/* Rows [report_func(k, i) * ne, + ne) of m to rows i, in place: the
 * page's functions' (page ids keep the profile's order). */
static void keep_rows(double *m, const struct report_keep *k, size_t ne)
{
	for (size_t i = 0; m && !report_keeps_all(k) && i < k->nkept; i++)
		memmove(m + i * ne, m + (size_t)report_func(k, i) * ne,
			ne * sizeof(*m));
}

static void put_functions(FILE *out, const struct cg *cg,
			  const struct print_opts *o,
			  const struct report_keep *k)
{
	const struct profile *p = cg->p;
	size_t n = p->nfuncs, ne = p->stride, nk = k->nkept;
	bool exact = cg->child != NULL;
	double *self = xcalloc(n * ne + 1, sizeof(*self));
	double *incl = xcalloc(n * ne + 1, sizeof(*incl));
	/* the call graph's children (cg_node_child()), for put_children() */
	double *child = xcalloc(n * ne + 1, sizeof(*child));
	double *samples = p->sampled ? xcalloc(n * ne + 1, sizeof(*samples))
				     : NULL;
	double *col = xcalloc(n + 1, sizeof(*col));
	uint64_t *row = xcalloc(ne + 1, sizeof(*row));
	uint32_t *file, *object, *cycle = xcalloc(n + 1, sizeof(*cycle));
	uint32_t start;

	put_paths(out, p, k, &file, &object);
	for (size_t f = 0; f < n; f++) {
		const struct cg_node *node = &cg->nodes[f];

		if (exact) {
			cg_inclusive_row(cg, (uint32_t)f, row);
			for (size_t e = 0; e < ne; e++) {
				self[f * ne + e] = (double)profile_self(p, (uint32_t)f)[e];
				incl[f * ne + e] = (double)row[e];
				/* a maximum's as the call graph prints
				 * it: the largest of the calls */
				child[f * ne + e] =
					profile_event_max(p, e)
					? (double)cg_node_largest_call(
						  cg, (uint32_t)f, (uint32_t)e)
					: cg_node_child(cg, (uint32_t)f,
							(uint32_t)e);
				if (samples)
					samples[f * ne + e] = (double)func_samples(
						p, (uint32_t)f, (uint32_t)e);
			}
		} else {
			/* estimated for the sort event only, 0 for the rest,
			 * as --json */
			double s = cg_node_self(cg, (uint32_t)f, o->sort_event);

			self[f * ne + o->sort_event] = s;
			child[f * ne + o->sort_event] =
				cg_node_child(cg, (uint32_t)f, o->sort_event);
			incl[f * ne + o->sort_event] = s +
				child[f * ne + o->sort_event];
		}
		cycle[f] = node->cycle == NO_ID ? 0 : cg->cycles[node->cycle].number;
	}
	/* the Function view's first function: of the event shown first */
	start = start_function(p, incl + o->sort_event, ne);
	if (start != NO_ID)
		start = report_page_id(k, start);
	keep_rows(self, k, ne);
	keep_rows(incl, k, ne);
	keep_rows(child, k, ne);
	keep_rows(samples, k, ne);
	for (size_t i = 0; !report_keeps_all(k) && i < nk; i++)
		cycle[i] = cycle[report_func(k, i)];
	fputs(",\n \"functions\": {\"name\": [", out);
	for (size_t i = 0; i < nk; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_name(out, p, p->funcs[report_func(k, i)].name);
	}
	fputc(']', out);
	put_ids(out, "file", file, nk);
	put_ids(out, "object", object, nk);
	/* one column at a time: a big program has a million functions */
	for (size_t i = 0; i < nk; i++)
		col[i] = profile_func_line(p, report_func(k, i));
	put_column(out, "line", col, nk, 1, true);
	for (size_t i = 0; i < nk; i++)
		col[i] = (double)cg->nodes[report_func(k, i)].calls;
	put_column(out, "calls", col, nk, 1, true);
	for (size_t i = 0; i < nk; i++)
		col[i] = (double)cg_node_self_calls(cg, report_func(k, i));
	put_column(out, "self_calls", col, nk, 1, true);
	put_ids(out, "cycle", cycle, nk);
	put_event_columns(out, "self", self, nk, ne, exact);
	put_event_columns(out, "inclusive", incl, nk, ne, exact);
	put_children(out, self, incl, child, nk, ne, exact);
	if (p->sampled)
		put_event_columns(out, "samples", samples, nk, ne, true);
	/* the profile's ids, which the code views' document has */
	if (!report_keeps_all(k))
		put_ids(out, "id", k->func, nk);
	fputc('}', out);
	fprintf(out, ",\n \"start_function\": %ld",
		start == NO_ID ? -1L : (long)start);
	free(self);
	free(incl);
	free(child);
	free(samples);
	free(col);
	free(row);
	free(file);
	free(object);
	free(cycle);
}

/* f's label in nl, without the " <cycle N>" of a cycle member, which
 * the page adds from "cycle": a large program's cycles have thousands
 * of members. */
static void label_of(struct linebuf *lb, const struct name_labels *nl,
		     const struct cg *cg, uint32_t f)
{
	uint32_t cycle = cg->nodes[f].cycle;

	lb->len = 0;
	lb_func_label(lb, nl, cg, f, false);
	if (cycle != NO_ID) {
		char suffix[32];
		size_t n = (size_t)snprintf(suffix, sizeof(suffix), " <cycle %u>",
					    cg->cycles[cycle].number);

		if (lb->len >= n && !memcmp(lb->s + lb->len - n, suffix, n))
			lb->len -= n;
	}
}

/* Where nl's label differs from skip's (NULL: from the profile's
 * name), those labels by id, as "key". */
static void put_label_map(FILE *out, const char *key, const struct cg *cg,
			  const struct report_keep *k,
			  const struct name_labels *nl,
			  const struct name_labels *skip)
{
	const struct profile *p = cg->p;
	struct linebuf lb = { 0 }, other = { 0 };
	bool first = true;

	fprintf(out, ",\n \"%s\": {", key);
	for (uint32_t i = 0; i < k->nkept; i++) {
		uint32_t f = report_func(k, i);
		const char *same = profile_str(p, p->funcs[f].name);
		size_t same_len = same ? strlen(same) : 0;

		label_of(&lb, nl, cg, f);
		if (skip) {
			label_of(&other, skip, cg, f);
			same = other.s;
			same_len = other.len;
		}
		if (same && lb.len == same_len && !memcmp(lb.s, same, lb.len))
			continue;
		fprintf(out, "%s\"%u\": ", first ? "\n  " : ",\n  ", i);
		json_string(out, lb.s, lb.len);
		first = false;
	}
	fputc('}', out);
	lb_free(&lb);
	lb_free(&other);
}

/* The names the listings show: "labels" (a name two functions share
 * told apart by object and file) and "short_labels", as --short-names
 * shortens them, where they differ; "short_names", the run's choice,
 * is the page's toggle's default. */
static void put_labels(FILE *out, const struct cg *cg,
		       const struct print_opts *o, const struct report_keep *k)
{
	struct print_opts whole = *o, shortened = *o;
	struct name_labels *full, *brief;

	whole.short_names = false;
	shortened.short_names = true;
	full = name_labels_new(cg, &whole);
	brief = name_labels_new(cg, &shortened);
	put_label_map(out, "labels", cg, k, full, NULL);
	put_label_map(out, "short_labels", cg, k, brief, full);
	fprintf(out, ",\n \"short_names\": %s",
		o->short_names ? "true" : "false");
	name_labels_free(brief);
	name_labels_free(full);
}

/* The demangled form of each mangled name (--no-demangle, or a
 * profile written with mangled names), which the filter matches as -p
 * does. */
static void put_demangled(FILE *out, const struct profile *p,
			  const struct report_keep *k)
{
	bool first = true;

	fputs(",\n \"demangled\": {", out);
	for (uint32_t i = 0; i < k->nkept; i++) {
		const char *name = profile_str(p, p->funcs[report_func(k, i)].name);
		char *d;

		d = symtab_demangle_mangled(name);
		if (!d)
			continue;
		fprintf(out, "%s\"%u\": ", first ? "\n  " : ",\n  ", i);
		json_string(out, d, strlen(d));
		first = false;
		free(d);
	}
	fputc('}', out);
}

void html_data_first(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const struct report_keep *k,
		     const char *warnings)
{
	fputc('{', out);
	print_json_head(out, cg, o);
	put_functions(out, cg, o, k);
	put_labels(out, cg, o, k);
	put_demangled(out, cg->p, k);
	/* what the page leaves out: it says so where a list is cut */
	if (!report_keeps_all(k))
		fprintf(out, ",\n \"cut\": {\"threshold\": %.17g, "
			"\"functions\": %zu, \"more\": %zu, \"flame_pixels\": %d}",
			k->threshold, k->nfuncs, k->nfuncs - k->nkept,
			REPORT_FLAME_PIXELS);
	/* an estimate's call graph is of the time the functions got
	 * (print_seconds.c), which the page can no longer add up */
	if (!report_keeps_all(k) && !cg->child) {
		double got = 0;

		for (uint32_t f = 0; f < cg->nnodes; f++)
			got += cg_node_self(cg, f, o->sort_event);
		fputs(",\n \"graph_total\": ", out);
		put_cost(out, got, false);
	}
	fputs(",\n \"warnings\": ", out);
	json_string(out, warnings ? warnings : "", warnings ? strlen(warnings) : 0);
	fputs("}\n", out);
}

/*
 * "cycle_children": each cycle's children as the call graph prints
 * them (cg_cycle_child()), by cycle number, a value per event: what the
 * cycle's entry shows, which its "inclusive" less its "self" need not
 * be to the last bit where they are estimates.
 */
static void put_cycle_children(FILE *out, const struct cg *cg,
			       const struct print_opts *o, bool exact)
{
	uint32_t *by_number = xcalloc(cg->ncycles + 1, sizeof(*by_number));
	size_t ne = cg->p->stride;

	for (uint32_t c = 0; c < cg->ncycles; c++)
		by_number[cg->cycles[c].number - 1] = c;
	fputs(",\n \"cycle_children\": [", out);
	for (uint32_t k = 0; k < cg->ncycles; k++) {
		fputs(k ? ",[" : "[", out);
		for (size_t e = 0; e < ne; e++) {
			if (e)
				fputc(',', out);
			/* estimates are of the sort event only, as --json's */
			put_cost(out, !exact && e != o->sort_event ? 0
				 : profile_event_max(cg->p, e)
				 ? (double)cg_cycle_largest_call(
					   cg, by_number[k], (uint32_t)e)
				 : cg_cycle_child(cg, by_number[k], (uint32_t)e),
				 exact);
		}
		fputc(']', out);
	}
	fputc(']', out);
	free(by_number);
}

/*
 * Where the page leaves functions out: "cut_callers" and "cut_callees",
 * by page id, how many of a function's calls from and to functions the
 * page does not have, for the Function view's "N more" lines.
 */
static void put_cut_calls(FILE *out, const struct profile *p,
			  const struct report_keep *k, const char *key,
			  bool callers)
{
	uint32_t *more = xcalloc(k->nkept + 1, sizeof(*more));
	bool first = true;

	for (uint32_t c = 0; c < p->ncalls; c++) {
		uint32_t here = callers ? p->calls[c].callee : p->calls[c].caller;
		uint32_t there = callers ? p->calls[c].caller : p->calls[c].callee;

		if (k->page[here] != NO_ID && k->page[there] == NO_ID)
			more[k->page[here]]++;
	}
	fprintf(out, ",\n \"%s\": {", key);
	for (size_t i = 0; i < k->nkept; i++)
		if (more[i]) {
			fprintf(out, "%s\"%zu\": %u", first ? "" : ",", i, more[i]);
			first = false;
		}
	fputc('}', out);
	free(more);
}

/*
 * "self_sparse": a profile of whole stacks splits each call exactly
 * (profile.call_self, cg_arc_share()): per event, the page's calls
 * with a self part as pairs [gap, self], gap the call's index less the
 * one before's (the first's from -1). Most calls have none (only the
 * calls into a function with samples of its own), so pairs are smaller
 * than a column; the page's split is then the text's, not the ratio.
 * Calls into a cycle are left out: the text splits them by the
 * cycle's ratio, as function.js does.
 */
static void put_arc_self(FILE *out, const struct cg *cg,
			 const uint32_t *kept, size_t nk)
{
	const struct profile *p = cg->p;

	fputs(",\n  \"self_sparse\": [", out);
	for (size_t e = 0; e < p->stride; e++) {
		long last = -1;
		bool first = true;

		fputs(e ? ",\n   [" : "\n   [", out);
		for (size_t i = 0; i < nk; i++) {
			uint64_t v = profile_call_self(p, kept[i])[e];

			/* into a cycle: split by its ratio (function.js) */
			if (!v || cg->nodes[p->calls[kept[i]].callee].cycle !=
					  NO_ID)
				continue;
			fprintf(out, first ? "%ld," : ",%ld,", (long)i - last);
			put_cost(out, (double)v, true);
			last = (long)i;
			first = false;
		}
		fputc(']', out);
	}
	fputc(']', out);
}

void html_data_calls(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const struct report_keep *k)
{
	const struct profile *p = cg->p;
	size_t n = p->ncalls, ne = p->stride, nk = 0;
	/* the page's calls (both ends in the page), by profile call */
	uint32_t *kept = xcalloc(n + 1, sizeof(*kept));
	bool exact = p->calls_have_incl;
	double *incl = xcalloc(n * ne + 1, sizeof(*incl));
	/* the columns one at a time, and the shares only where there are
	 * any: a big program's millions of arcs made these 5 doubles an
	 * arc of the report's peak (issue 33) */
	double *col = xcalloc(n + 1, sizeof(*col));
	double *share = exact ? NULL : xcalloc(2 * n + 1, sizeof(*share));
	bool first = true;

	for (size_t c = 0; c < n; c++)
		if (report_page_id(k, p->calls[c].caller) != NO_ID &&
		    report_page_id(k, p->calls[c].callee) != NO_ID)
			kept[nk++] = (uint32_t)c;
	for (size_t c = 0; exact && c < n; c++)
		for (size_t e = 0; e < ne; e++)
			incl[c * ne + e] =
				(double)profile_call_incl_at(p, (uint32_t)c, e);
	/* estimated: gprof's share of the sort event, for the graph's
	 * arcs, and its self part as the call graph prints it (the page
	 * splits a measured arc by the callee's ratio as cg_arc_share()
	 * does, but cannot an estimate: gprof's split is not that one) */
	for (size_t c = 0; !exact && c < n; c++) {
		double s = 0, ch = 0;

		if (cg_is_arc(cg, c))
			cg_arc_share(cg, (uint32_t)c, o->sort_event, &s, &ch);
		incl[c * ne + o->sort_event] = s + ch;
		share[2 * c] = s;
		share[2 * c + 1] = ch;
	}
	/* the page's calls only, in place (kept[i] >= i) */
	for (size_t i = 0; nk < n && i < nk; i++) {
		memmove(incl + i * ne, incl + (size_t)kept[i] * ne,
			ne * sizeof(*incl));
		if (share)
			memmove(share + 2 * i, share + 2 * (size_t)kept[i],
				2 * sizeof(*share));
	}
	fputs("{\"calls\": {\"n\": ", out);
	fprintf(out, "%zu, \"estimated\": %s", nk, exact ? "false" : "true");
	for (size_t i = 0; i < nk; i++)
		col[i] = report_page_id(k, p->calls[kept[i]].caller);
	put_column(out, "caller", col, nk, 1, true);
	for (size_t i = 0; i < nk; i++)
		col[i] = report_page_id(k, p->calls[kept[i]].callee);
	put_column(out, "callee", col, nk, 1, true);
	for (size_t i = 0; i < nk; i++)
		col[i] = (double)profile_call_count(p, kept[i]);
	put_column(out, "count", col, nk, 1, true);
	put_event_columns(out, "inclusive", incl, nk, ne, exact);
	if (p->call_self)
		put_arc_self(out, cg, kept, nk);
	if (!exact) {
		put_column(out, "self_share", share, nk, 2, false);
		put_column(out, "child_share", share + 1, nk, 2, false);
	}
	fputs("},\n \"deleted\": [", out);
	for (size_t i = 0; o->arc_deleted && i < nk; i++)
		if (o->arc_deleted[kept[i]]) {
			fprintf(out, first ? "%zu" : ",%zu", i);
			first = false;
		}
	fputs("],\n ", out);
	print_json_cycles_of(out, cg, o, k->page);
	put_cycle_children(out, cg, o, cg->child != NULL);
	if (!report_keeps_all(k)) {
		put_cut_calls(out, p, k, "cut_callers", true);
		put_cut_calls(out, p, k, "cut_callees", false);
	}
	fputs("}\n", out);
	free(incl);
	free(col);
	free(share);
	free(kept);
}

/* "more_parent", "more_n", "more_value": report_keep_nodes()'s frames, by
 * the new index of their parent (-1: at the roots). */
static void put_more(FILE *out, const uint32_t *more_n,
		     const double *more_value, size_t nkept, bool exact)
{
	static const char *const keys[] = { "more_parent", "more_n", "more_value" };

	for (int key = 0; key < 3; key++) {
		bool first = true;

		fprintf(out, ",\n  \"%s\": [", keys[key]);
		for (size_t s = 0; s <= nkept; s++) {
			if (!more_n[s])
				continue;
			if (!first)
				fputc(',', out);
			first = false;
			if (key == 0)
				fprintf(out, "%ld", (long)s - 1);
			else if (key == 1)
				fprintf(out, "%u", more_n[s]);
			else
				put_cost(out, more_value[s], exact);
		}
		fputc(']', out);
	}
}

/* An event's tree as the page has it: where k leaves functions out,
 * which nodes it draws (at[], NULL: every one), the "N more" frames,
 * and the merged nodes kept for the figures (h, when hidden). */
struct page_tree {
	struct flame fl;
	uint32_t *at, *more_n;
	double *more_value;
	size_t nout;
	struct report_hidden h;
	bool hidden;
};

static void page_tree_build(struct page_tree *t, const struct cg *cg,
			    uint32_t ev, const struct report_keep *k)
{
	const struct profile *p = cg->p;

	memset(t, 0, sizeof(*t));
	flame_build(&t->fl, cg, ev, (double)p->totals[ev] * HTML_FLAME_MIN_SHARE,
		    HTML_FLAME_MAX_NODES);
	t->nout = t->fl.nnodes;
	if (report_keeps_all(k))
		return;
	t->at = xcalloc(t->fl.nnodes + 1, sizeof(*t->at));
	t->more_n = xcalloc(t->fl.nnodes + 1, sizeof(*t->more_n));
	t->more_value = xcalloc(t->fl.nnodes + 1, sizeof(*t->more_value));
	t->nout = report_keep_nodes(k, &t->fl, t->at, t->more_n, t->more_value);
	t->hidden = report_keep_hidden(k, &t->fl, t->at, t->nout,
				       REPORT_HIDDEN_MAX, &t->h) == 0;
}

static void page_tree_release(struct page_tree *t)
{
	free(t->at);
	free(t->more_n);
	free(t->more_value);
	report_hidden_release(&t->h);
	flame_release(&t->fl);
}

/* A node's unit: a page function id, or -N for cycle N as a whole */
static double node_unit(const struct cg *cg, const struct report_keep *k,
			const struct flame_node *n)
{
	return n->func != NO_ID ? (double)report_page_id(k, n->func)
		: -(double)cg->cycles[n->cycle].number;
}

/* "hidden_unit", "hidden_parent", "hidden_value": the merged nodes as
 * report_keep_hidden() keeps them, numbered after the drawn ones (the
 * unit of the functions the page leaves out: one past its last
 * function); or "hidden_max" where there would be more of them. */
static void put_hidden(FILE *out, const struct cg *cg,
		       const struct report_keep *k, const struct page_tree *t)
{
	const struct report_hidden *h = &t->h;
	double *col;

	if (!t->hidden) {
		fprintf(out, ",\n  \"hidden_max\": %d", REPORT_HIDDEN_MAX);
		return;
	}
	col = xcalloc(3 * h->n + 1, sizeof(*col));
	for (size_t x = 0; x < h->n; x++) {
		col[3 * x] = h->other[x] ? (double)k->nkept
			: node_unit(cg, k, &t->fl.nodes[h->first[x]]);
		col[3 * x + 1] = h->parent[x] == NO_ID ? -1 : (double)h->parent[x];
		col[3 * x + 2] = h->value[x];
	}
	put_column(out, "hidden_unit", col, h->n, 3, true);
	put_column(out, "hidden_parent", col + 1, h->n, 3, true);
	put_column(out, "hidden_value", col + 2, h->n, 3, !t->fl.estimated);
	free(col);
}

/* One event's tree. Not the nodes' self costs: the page draws none, and
 * each is its total less its children's. */
static void put_tree(FILE *out, const struct cg *cg, uint32_t ev,
		     const struct report_keep *k)
{
	const struct profile *p = cg->p;
	struct page_tree t;
	const struct flame *fl = &t.fl;
	double *col;

	page_tree_build(&t, cg, ev, k);
	col = xcalloc(3 * t.nout + 1, sizeof(*col));
	for (size_t i = 0, j = 0; i < fl->nnodes; i++) {
		const struct flame_node *n = &fl->nodes[i];

		if (t.at && t.at[i] == NO_ID)
			continue;
		col[3 * j] = node_unit(cg, k, n);
		col[3 * j + 1] = n->parent == NO_ID ? -1
			: (double)(t.at ? t.at[n->parent] : n->parent);
		col[3 * j + 2] = n->total;
		j++;
	}
	fputs("{\"event\": ", out);
	json_name(out, p, p->events[ev].name);
	fprintf(out, ", \"estimated\": %s, \"cut\": %zu, \"full\": %s, \"total\": ",
		fl->estimated ? "true" : "false", fl->cut, fl->full ? "true" : "false");
	put_cost(out, fl->total, !fl->estimated);
	put_column(out, "unit", col, t.nout, 3, true);
	put_column(out, "parent", col + 1, t.nout, 3, true);
	put_column(out, "value", col + 2, t.nout, 3, !fl->estimated);
	if (t.at) {
		put_more(out, t.more_n, t.more_value, t.nout, !fl->estimated);
		put_hidden(out, cg, k, &t);
	}
	fputc('}', out);
	free(col);
	page_tree_release(&t);
}

uint32_t *html_flame_page_nodes(const struct cg *cg, uint32_t ev,
				const struct report_keep *k, size_t n)
{
	struct page_tree t;
	uint32_t *map;

	if (report_keeps_all(k))
		return NULL;
	/* the tree put_tree() writes, cut as it cuts it */
	page_tree_build(&t, cg, ev, k);
	map = xcalloc(n + 1, sizeof(*map));
	/* parents come before their children */
	for (size_t i = 0; i < n; i++) {
		uint32_t up = i < t.fl.nnodes ? t.fl.nodes[i].parent : NO_ID;

		if (i < t.fl.nnodes && t.hidden)
			map[i] = t.h.node[i];
		else if (i < t.fl.nnodes && t.at[i] != NO_ID)
			map[i] = t.at[i];
		else
			map[i] = up == NO_ID ? NO_ID : map[up];
	}
	page_tree_release(&t);
	return map;
}

void html_data_flame(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const struct report_keep *k)
{
	const struct profile *p = cg->p;
	/* an estimate (gmon.out's) is of the sort event only; a tree from
	 * stacks or measured calls can be of any event */
	bool every = cg->child != NULL || p->nstack_values;

	fputs("{\"trees\": [", out);
	for (uint32_t e = 0; e < p->nevents; e++) {
		fputs(e ? ",\n" : "\n", out);
		/* none of a maximum (MEM_MAX): a frame's width is what the
		 * stacks under it add up to, and the largest of them is no
		 * width (print_folded() refuses it too) */
		if ((every || e == o->sort_event) && !p->events[e].max)
			put_tree(out, cg, e, k);
		else
			fputs("null", out);
	}
	fputs("]", out);
	/* the trees of the recursion levels folded, for the page's fold */
	html_folded(out, cg, o, k);
	fputs("}\n", out);
}
