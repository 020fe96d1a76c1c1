/*
 * gprof's "Index by function name", after the call graph: every entry's
 * [N] beside its name, names in alphabetical order down three columns,
 * then the cycles. For gmon.out it is gprof's own, character for
 * character: the functions with time or calls, sorted by their symbols'
 * spelling, a local (static) function followed by its file, "(N)" for
 * one the graph does not list, columns laid out as gprof lays them. For
 * the other inputs it lists the entries the graph printed, and one per
 * line when a name is too long for three columns.
 */
#include <stdlib.h>
#include <string.h>

#include "base/path.h"
#include "base/xalloc.h"
#include "linebuf.h"
#include "print.h"
#include "profile/gmon_data.h"

/* gprof's: a third of an 80-column line, less its last column */
#define INDEX_COLUMN 26

struct index_item {
	const char *key;	/* the order */
	char *text;		/* the name as shown, malloc'd */
	uint32_t index;
	bool listed;		/* "[N]", or "(N)" */
};

static int cmp_items(const void *x, const void *y)
{
	const struct index_item *a = x, *b = y;

	return strcmp(a->key, b->key);
}

/* gmon.out: gprof's name for the index, with " (file)" for a local one */
static char *gprof_name(const struct profile *p, uint32_t f)
{
	const struct pfunc *pf = &p->funcs[f];
	const struct gmon_data *gd = p->gmon;
	const char *name = profile_str(p, pf->name);
	bool local = gd && f < gd->nsyms && gd->syms[f].local;
	size_t size;
	char *s;

	if (!local || pf->file == NO_NAME)
		return xstrdup(name);
	size = strlen(name) + names_len(&p->names, pf->file) + 4;
	s = xmalloc(size);
	snprintf(s, size, "%s (%s)", name, path_base(profile_str(p, pf->file)));
	return s;
}

static const char *gprof_key(const struct profile *p, uint32_t f)
{
	return gmon_sort_name(p, f);
}

/* The items gprof would list, functions then cycles, into *items. */
static size_t collect(const struct cg *cg, const struct print_opts *o,
		      struct name_labels *nl, struct index_item **items)
{
	const struct profile *p = cg->p;
	bool gprof = cg->est_self;
	uint32_t ev = o->sort_event;
	double total = (double)p->totals[ev];
	/* grown as items come: a threshold may leave few of a big
	 * program's 700,000 functions (24 bytes each) to list */
	struct index_item *v = NULL;
	size_t n = 0, alloc = 0;

	for (uint32_t f = 0; f < cg->nnodes; f++) {
		const struct cg_node *node = &cg->nodes[f];
		struct cg_entry e = { .is_cycle = false, .id = f };
		char label[4096];

		if (!node->index)
			continue;
		ARRAY_GROW(v, n + 1, alloc);
		if (gprof) {
			/* gprof leaves out what has neither time nor calls */
			if (!node->calls && cg_node_self(cg, f, ev) == 0)
				continue;
			v[n].key = gprof_key(p, f);
			v[n].text = gprof_name(p, f);
			v[n].listed = !o->graph_listed || o->graph_listed[f];
		} else {
			if (!entry_shown(cg, o, &e, ev, total))
				continue;
			v[n].text = xstrdup(func_label(nl, cg, f, false, label,
						       sizeof(label)));
			v[n].key = v[n].text;
			v[n].listed = true;
		}
		v[n++].index = node->index;
	}
	if (n > 1)	/* v is NULL when there is none */
		qsort(v, n, sizeof(*v), cmp_items);
	for (uint32_t c = 0; c < cg->ncycles; c++) {
		struct cg_entry e = { .is_cycle = true, .id = c };
		char text[48];
		bool listed = !o->cycle_listed || o->cycle_listed[c];

		if (!gprof && !entry_shown(cg, o, &e, ev, total))
			continue;
		snprintf(text, sizeof(text), "<cycle %u>", cg->cycles[c].number);
		ARRAY_GROW(v, n + 1, alloc);
		v[n].text = xstrdup(text);
		v[n].key = v[n].text;
		v[n].index = cg->cycles[c].index;
		v[n++].listed = gprof ? listed : true;
	}
	*items = v;
	return n;
}

void print_index(FILE *out, const struct cg *cg, const struct print_opts *o,
		 struct name_labels *nl)
{
	struct index_item *v;
	size_t n = collect(cg, o, nl, &v), ncols = 3, rows;
	struct linebuf lb = { 0 };

	if (!n) {
		free(v);
		return;
	}
	/* three columns as gprof has them, unless a name would run into
	 * the next column (gprof's own layout stays, for gmon.out) */
	for (size_t i = 0; !cg->est_self && i < n; i++)
		if (strlen(v[i].text) + 12 > INDEX_COLUMN)
			ncols = 1;
	rows = (n + ncols - 1) / ncols;
	fputs("\nIndex by function name\n\n", out);
	for (size_t i = 0; i < rows; i++) {
		/* col counts as gprof counts: the padding puts each
		 * number at five past its column's start, or right after
		 * the name before it when that is longer */
		size_t col = 0, start = 0;

		for (size_t j = i; j < n; j += rows) {
			char num[32];
			int len = snprintf(num, sizeof(num), v[j].listed ? "[%u]" : "(%u)",
					   v[j].index);

			col += (size_t)len;
			for (; col < start + 5; col++)
				lb_putc(&lb, ' ');
			lb_putc(&lb, ' ');
			lb_putn(&lb, num, (size_t)len);
			lb_putc(&lb, ' ');
			lb_puts(&lb, v[j].text);
			col += strlen(v[j].text);
			start += INDEX_COLUMN;
		}
		lb_putc(&lb, '\n');
		lb_flush(&lb, out);
	}
	lb_free(&lb);
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}
