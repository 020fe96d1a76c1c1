/*
 * --output=html: one self-contained page. The page, its CSS and its
 * JavaScript are ours, in src/print/html/, compiled in as strings
 * (embed.sh); the analysis goes in as one JSON document in a
 * <script type="application/json"> element, which the script reads and
 * draws from. So nothing of the profile is ever markup: names, paths
 * and source text reach the page as JSON strings, and the script puts
 * them in as text.
 *
 * The document: {"analysis": what --json prints (with the annotated
 * source and the disassembly when there are lines and a binary),
 * "labels": names as the listings show them where they differ,
 * "flame": the flame graph's tree, "sources": the text of the
 * annotated files, "disasm_source": the source lines the disassembly
 * interleaves, "warnings": the run's messages}.
 */
#include <stdlib.h>
#include <string.h>

#include "annotate_data.h"
#include "disasm_data.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "json_write.h"
#include "linebuf.h"
#include "print.h"

/* embed.sh's strings, made from src/print/html/ */
extern const char html_asset_report_html[];
extern const char html_asset_report_css[];
extern const char html_asset_report_js[];

/* The flame graph keeps paths down to this share of the total, and at
 * most this many: a browser draws what is a pixel wide, and the file
 * stays small. */
#define HTML_FLAME_MIN_SHARE 2e-5
#define HTML_FLAME_MAX_NODES 100000

/*
 * JSON into a <script> element: the HTML parser ends the element at
 * "</script" and treats "<!--" specially, whatever the JSON means, and
 * U+2028/U+2029 end lines in older JavaScript. '<' is only ever inside
 * a string in JSON, so each becomes \u003c there, and the two line
 * separators \u2028 and \u2029: the same values to JSON.parse.
 */
static void put_script_json(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '<') {
			fputs("\\u003c", out);
		} else if (c == 0xe2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
			   ((unsigned char)s[i + 2] == 0xa8 ||
			    (unsigned char)s[i + 2] == 0xa9)) {
			fputs((unsigned char)s[i + 2] == 0xa8 ? "\\u2028" : "\\u2029",
			      out);
			i += 2;
		} else {
			fputc(c, out);
		}
	}
}

/* Text into HTML (the title). */
static void put_html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

/* Where a listing shows another name than the profile's (two functions
 * of one name, cycle members): those labels, by function id. */
static void json_labels(FILE *out, const struct cg *cg)
{
	const struct profile *p = cg->p;
	struct name_labels *nl = name_labels_new(cg, NULL);
	struct linebuf lb = { 0 };
	bool first = true;

	fputs(",\n \"labels\": {", out);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const char *name = profile_str(p, p->funcs[f].name);

		lb.len = 0;
		lb_func_label(&lb, nl, cg, f, false);
		if (lb.len == strlen(name) && !memcmp(lb.s, name, lb.len))
			continue;
		fprintf(out, "%s\"%u\": ", first ? "" : ", ", f);
		json_string(out, lb.s, lb.len);
		first = false;
	}
	fputc('}', out);
	lb_free(&lb);
	name_labels_free(nl);
}

static void json_number(FILE *out, double v, bool exact)
{
	if (exact)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.9g", v);
}

/* The tree as [unit, parent, total, self] rows, parents first: unit is
 * a function id, or -N for cycle N as a whole; parent -1 for a root. */
static void json_flame(FILE *out, const struct cg *cg, uint32_t ev)
{
	const struct profile *p = cg->p;
	struct flame fl;

	flame_build(&fl, cg, ev, (double)p->totals[ev] * HTML_FLAME_MIN_SHARE,
		    HTML_FLAME_MAX_NODES);
	fputs(",\n \"flame\": {\"event\": ", out);
	json_name(out, p, p->events[ev].name);
	fprintf(out, ", \"estimated\": %s, \"cut\": %zu, \"full\": %s, \"total\": ",
		fl.estimated ? "true" : "false", fl.cut, fl.full ? "true" : "false");
	json_number(out, fl.total, !fl.estimated);
	fputs(", \"nodes\": [", out);
	for (size_t i = 0; i < fl.nnodes; i++) {
		const struct flame_node *n = &fl.nodes[i];

		fputs(i ? ",\n" : "\n", out);
		if (n->func != NO_ID)
			fprintf(out, "[%u,", n->func);
		else
			fprintf(out, "[-%u,", cg->cycles[n->cycle].number);
		if (n->parent == NO_ID)
			fputs("-1,", out);
		else
			fprintf(out, "%u,", n->parent);
		json_number(out, n->total, !fl.estimated);
		fputc(',', out);
		json_number(out, n->self, !fl.estimated);
		fputc(']', out);
	}
	fputs("]}", out);
	flame_release(&fl);
}

/* The text of the files the annotated source lists. */
static void json_sources(FILE *out, const struct cg *cg,
			 const struct print_opts *o)
{
	const struct annotation *a = o->annotation;
	bool first = true;

	fputs(",\n \"sources\": [", out);
	for (size_t i = 0; a && o->annotate && i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		if (f->fate != ANN_LISTED || !f->src || !f->src->found)
			continue;
		fputs(first ? "\n  {\"path\": " : ",\n  {\"path\": ", out);
		first = false;
		json_name(out, cg->p, f->name);
		fputs(", \"lines\": [", out);
		for (uint32_t l = 1; l <= f->src->nlines; l++) {
			size_t len;
			const char *s = source_line(f->src, l, &len);

			fputs(l > 1 ? ",\n" : "\n", out);
			json_string(out, s ? s : "", s ? len : 0);
		}
		fputs("]}", out);
	}
	fputc(']', out);
}

/*
 * The source lines the disassembly interleaves, as --disasm does: for
 * each listing of the "disasm" array (disasm_pick()'s, in its order),
 * [instruction index, file, line, text] where the line changes from the
 * instruction before (text null when the file is not found).
 */
static void json_disasm_source(FILE *out, const struct cg *cg,
			       const struct print_opts *o)
{
	struct disasm_pick *picks = NULL;
	size_t n = 0;

	fputs(",\n \"disasm_source\": [", out);
	if (o->disasm && cg->p->has_instr && disasm_pick(cg, o, &picks, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			struct disasm_listing l;
			name_id file = NO_NAME;
			uint32_t line = 0;
			bool first = true;

			disasm_listing_build(&l, cg, o, &picks[i]);
			fputs(i ? ",\n  [" : "\n  [", out);
			for (size_t k = 0; k < l.code.ninsns; k++) {
				const struct line_entry *le =
					symtab_line(l.st, l.code.insns[k].addr);
				const struct source_file *src;
				const char *text;
				size_t len;

				if (!le || le->end_sequence || le->file == NO_NAME ||
				    !le->line || (le->file == file && le->line == line))
					continue;
				file = le->file;
				line = le->line;
				fprintf(out, "%s[%zu, ", first ? "" : ", ", k);
				first = false;
				json_string(out, names_str(l.st->names, file),
					    names_len(l.st->names, file));
				fprintf(out, ", %u, ", line);
				src = sources_get(o->sources, names_str(l.st->names, file));
				text = source_line(src, line, &len);
				if (text)
					json_string(out, text, len);
				else
					fputs("null", out);
				fputc(']', out);
			}
			fputc(']', out);
			disasm_listing_release(&l);
		}
	}
	fputc(']', out);
	free(picks);
}

/* The data document, as put_script_json() writes it. */
static void put_data(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const char *warnings)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&doc, &len);

	if (!m)
		abort();	/* no memory, as xmalloc() does */
	fputs("{\"analysis\": ", m);
	print_json(m, cg, o);
	json_labels(m, cg);
	json_flame(m, cg, o->sort_event);
	json_sources(m, cg, o);
	json_disasm_source(m, cg, o);
	fputs(",\n \"warnings\": ", m);
	json_string(m, warnings ? warnings : "", warnings ? strlen(warnings) : 0);
	fputs("}\n", m);
	fclose(m);
	put_script_json(out, doc, len);
	free(doc);
}

void print_html(FILE *out, const struct cg *cg, const struct print_opts *o,
		const char *title, const char *warnings)
{
	const char *t = html_asset_report_html;

	/* the page with its @@NAME@@ places filled */
	for (const char *at; (at = strstr(t, "@@"));) {
		const char *end = strstr(at + 2, "@@");

		if (!end)
			break;
		fwrite(t, 1, (size_t)(at - t), out);
		if (!strncmp(at, "@@TITLE@@", 9))
			put_html_text(out, title);
		else if (!strncmp(at, "@@CSS@@", 7))
			fputs(html_asset_report_css, out);
		else if (!strncmp(at, "@@JS@@", 6))
			fputs(html_asset_report_js, out);
		else if (!strncmp(at, "@@DATA@@", 8))
			put_data(out, cg, o, warnings);
		else
			BUG("report.html has an unknown place '%.*s'",
			    (int)(end + 2 - at), at);
		t = end + 2;
	}
	fputs(t, out);
}
