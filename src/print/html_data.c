/*
 * The HTML report's data documents (html_data.h): the functions for the
 * first view, the calls for the function view, the flame graph's trees.
 * Columns, not objects: a JSON array of 11,000 numbers parses many
 * times faster than 11,000 objects of ten keys, and is a third of their
 * size, and the first view must be drawn within a second of opening
 * the page (doc/PERFORMANCE.md).
 */
#include "html_data.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "json_write.h"
#include "linebuf.h"
#include "start_function.h"

/* The flame graph keeps paths down to this share of the total, and at
 * most this many: a browser draws what is a pixel wide, and the file
 * stays small. */
#define HTML_FLAME_MIN_SHARE 2e-5
#define HTML_FLAME_MAX_NODES 100000

/* Exact costs are whole; estimates (gmon.out) keep their digits. */
static void put_cost(FILE *out, double v, bool exact)
{
	fprintf(out, exact ? "%.0f" : "%.17g", v);
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
static void put_paths(FILE *out, const struct profile *p, uint32_t **file,
		      uint32_t **object)
{
	struct u64map seen;
	name_id *order = xcalloc(2 * (size_t)p->nfuncs + 1, sizeof(*order));
	uint32_t n = 0;

	u64map_init(&seen);
	*file = xcalloc(p->nfuncs + 1, sizeof(**file));
	*object = xcalloc(p->nfuncs + 1, sizeof(**object));
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		name_id ids[2] = { p->funcs[f].file, p->funcs[f].object };
		uint32_t *to[2] = { &(*file)[f], &(*object)[f] };

		for (int k = 0; k < 2; k++) {
			bool added;

			if (ids[k] == NO_NAME) {
				*to[k] = NO_ID;
				continue;
			}
			*to[k] = u64map_get_or_put(&seen, ids[k], n, &added);
			if (added)
				order[n++] = ids[k];
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

static void put_functions(FILE *out, const struct cg *cg,
			  const struct print_opts *o)
{
	const struct profile *p = cg->p;
	size_t n = p->nfuncs, ne = p->stride;
	bool exact = cg->child != NULL;
	double *self = xcalloc(n * ne + 1, sizeof(*self));
	double *incl = xcalloc(n * ne + 1, sizeof(*incl));
	/* the call graph's children (cg_node_child()), for put_children() */
	double *child = xcalloc(n * ne + 1, sizeof(*child));
	double *samples = xcalloc(n * ne + 1, sizeof(*samples));
	double *num = xcalloc(3 * n + 1, sizeof(*num));
	uint64_t *row = xcalloc(ne + 1, sizeof(*row));
	uint32_t *file, *object, *cycle = xcalloc(n + 1, sizeof(*cycle));
	uint32_t start;

	put_paths(out, p, &file, &object);
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
		num[3 * f] = profile_func_line(p, (uint32_t)f);
		num[3 * f + 1] = (double)node->calls;
		num[3 * f + 2] = (double)cg_node_self_calls(cg, (uint32_t)f);
		cycle[f] = node->cycle == NO_ID ? 0 : cg->cycles[node->cycle].number;
	}
	fputs(",\n \"functions\": {\"name\": [", out);
	for (size_t f = 0; f < n; f++) {
		fputs(f ? ",\n  " : "\n  ", out);
		json_name(out, p, p->funcs[f].name);
	}
	fputc(']', out);
	put_ids(out, "file", file, n);
	put_ids(out, "object", object, n);
	put_column(out, "line", num, n, 3, true);
	put_column(out, "calls", num + 1, n, 3, true);
	put_column(out, "self_calls", num + 2, n, 3, true);
	put_ids(out, "cycle", cycle, n);
	put_event_columns(out, "self", self, n, ne, exact);
	put_event_columns(out, "inclusive", incl, n, ne, exact);
	put_children(out, self, incl, child, n, ne, exact);
	if (p->sampled)
		put_event_columns(out, "samples", samples, n, ne, true);
	fputc('}', out);
	/* the Function view's first function: of the event shown first */
	start = start_function(p, incl + o->sort_event, ne);
	fprintf(out, ",\n \"start_function\": %ld",
		start == NO_ID ? -1L : (long)start);
	free(self);
	free(incl);
	free(child);
	free(samples);
	free(num);
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
			  const struct name_labels *nl,
			  const struct name_labels *skip)
{
	const struct profile *p = cg->p;
	struct linebuf lb = { 0 }, other = { 0 };
	bool first = true;

	fprintf(out, ",\n \"%s\": {", key);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
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
		fprintf(out, "%s\"%u\": ", first ? "\n  " : ",\n  ", f);
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
		       const struct print_opts *o)
{
	struct print_opts whole = *o, shortened = *o;
	struct name_labels *full, *brief;

	whole.short_names = false;
	shortened.short_names = true;
	full = name_labels_new(cg, &whole);
	brief = name_labels_new(cg, &shortened);
	put_label_map(out, "labels", cg, full, NULL);
	put_label_map(out, "short_labels", cg, brief, full);
	fprintf(out, ",\n \"short_names\": %s",
		o->short_names ? "true" : "false");
	name_labels_free(brief);
	name_labels_free(full);
}

/* The demangled form of each mangled name (--no-demangle, or a
 * profile written with mangled names), which the filter matches as -p
 * does. */
static void put_demangled(FILE *out, const struct profile *p)
{
	bool first = true;

	fputs(",\n \"demangled\": {", out);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const char *name = profile_str(p, p->funcs[f].name);
		char *d;

		d = symtab_demangle_mangled(name);
		if (!d)
			continue;
		fprintf(out, "%s\"%u\": ", first ? "\n  " : ",\n  ", f);
		json_string(out, d, strlen(d));
		first = false;
		free(d);
	}
	fputc('}', out);
}

void html_data_first(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const char *warnings)
{
	fputc('{', out);
	print_json_head(out, cg, o);
	put_functions(out, cg, o);
	put_labels(out, cg, o);
	put_demangled(out, cg->p);
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

void html_data_calls(FILE *out, const struct cg *cg,
		     const struct print_opts *o)
{
	const struct profile *p = cg->p;
	size_t n = p->ncalls, ne = p->stride;
	bool exact = p->calls_have_incl;
	double *incl = xcalloc(n * ne + 1, sizeof(*incl));
	double *num = xcalloc(3 * n + 1, sizeof(*num));
	double *share = xcalloc(2 * n + 1, sizeof(*share));
	bool first = true;

	for (size_t c = 0; c < n; c++) {
		num[3 * c] = p->calls[c].caller;
		num[3 * c + 1] = p->calls[c].callee;
		num[3 * c + 2] = (double)profile_call_count(p, (uint32_t)c);
		for (size_t e = 0; exact && e < ne; e++)
			incl[c * ne + e] =
				(double)profile_call_incl_at(p, (uint32_t)c, e);
	}
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
	fputs("{\"calls\": {\"n\": ", out);
	fprintf(out, "%zu, \"estimated\": %s", n, exact ? "false" : "true");
	put_column(out, "caller", num, n, 3, true);
	put_column(out, "callee", num + 1, n, 3, true);
	put_column(out, "count", num + 2, n, 3, true);
	put_event_columns(out, "inclusive", incl, n, ne, exact);
	if (!exact) {
		put_column(out, "self_share", share, n, 2, false);
		put_column(out, "child_share", share + 1, n, 2, false);
	}
	fputs("},\n \"deleted\": [", out);
	for (size_t c = 0; o->arc_deleted && c < n; c++)
		if (o->arc_deleted[c]) {
			fprintf(out, first ? "%zu" : ",%zu", c);
			first = false;
		}
	fputs("],\n ", out);
	print_json_cycles(out, cg, o);
	put_cycle_children(out, cg, o, cg->child != NULL);
	fputs("}\n", out);
	free(incl);
	free(num);
	free(share);
}

/* One event's tree. Not the nodes' self costs: the page draws none, and
 * each is its total less its children's. */
static void put_tree(FILE *out, const struct cg *cg, uint32_t ev)
{
	const struct profile *p = cg->p;
	struct flame fl;
	double *col;

	flame_build(&fl, cg, ev, (double)p->totals[ev] * HTML_FLAME_MIN_SHARE,
		    HTML_FLAME_MAX_NODES);
	col = xcalloc(3 * fl.nnodes + 1, sizeof(*col));
	for (size_t i = 0; i < fl.nnodes; i++) {
		const struct flame_node *n = &fl.nodes[i];

		col[3 * i] = n->func != NO_ID ? (double)n->func
			: -(double)cg->cycles[n->cycle].number;
		col[3 * i + 1] = n->parent == NO_ID ? -1 : (double)n->parent;
		col[3 * i + 2] = n->total;
	}
	fputs("{\"event\": ", out);
	json_name(out, p, p->events[ev].name);
	fprintf(out, ", \"estimated\": %s, \"cut\": %zu, \"full\": %s, \"total\": ",
		fl.estimated ? "true" : "false", fl.cut, fl.full ? "true" : "false");
	put_cost(out, fl.total, !fl.estimated);
	put_column(out, "unit", col, fl.nnodes, 3, true);
	put_column(out, "parent", col + 1, fl.nnodes, 3, true);
	put_column(out, "value", col + 2, fl.nnodes, 3, !fl.estimated);
	fputc('}', out);
	free(col);
	flame_release(&fl);
}

void html_data_flame(FILE *out, const struct cg *cg,
		     const struct print_opts *o)
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
			put_tree(out, cg, e);
		else
			fputs("null", out);
	}
	fputs("]}\n", out);
}
