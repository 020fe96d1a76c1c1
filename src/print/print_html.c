/*
 * --output=html: one self-contained page. The page, its CSS and its
 * JavaScript are ours, in src/print/html/, compiled in as strings
 * (embed.sh); the analysis goes in as JSON documents, each in its own
 * <script type="application/json"> element, which the script reads and
 * draws from. So nothing of the profile is ever markup: names, paths
 * and source text reach the page as JSON strings, and the script puts
 * them in as text.
 *
 * The first view's document ("cga-data", html_data_first()) comes
 * before the script; the calls, the flame graph's trees and the code
 * (the annotated source, the disassembly) after it, so the browser runs
 * the script and draws the flat profile while it still reads them, and
 * the script parses each only when a view needs it.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_data.h"
#include "disasm_data.h"
#include "disasm_members.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "html_data.h"
#include "html_page.h"
#include "html_samples.h"
#include "inline_chain.h"
#include "json_write.h"
#include "linebuf.h"
#include "print.h"

/* embed.sh's strings, made from src/print/html/ */
extern const char html_asset_report_html[];
extern const char html_asset_report_css[];
extern const char html_asset_report_js[];

/*
 * JSON into a <script> element: the HTML parser ends the element at
 * "</script" and treats "<!--" specially, whatever the JSON means, and
 * U+2028/U+2029 end lines in older JavaScript. '<' is only ever inside
 * a string in JSON, so each becomes \u003c there, and the two line
 * separators \u2028 and \u2029: the same values to JSON.parse.
 */
struct script_json {
	FILE *out;
	unsigned char held[2];	/* the start of a line separator */
	size_t nheld;
};

static void script_json_byte(struct script_json *sj, unsigned char c)
{
	FILE *out = sj->out;

	if (sj->nheld == 2) {
		sj->nheld = 0;
		if (c == 0xa8 || c == 0xa9) {
			fputs(c == 0xa8 ? "\\u2028" : "\\u2029", out);
			return;
		}
		fwrite_unlocked(sj->held, 1, 2, out);
	} else if (sj->nheld == 1) {
		sj->nheld = 0;
		if (c == 0x80) {
			sj->held[1] = c;
			sj->nheld = 2;
			return;
		}
		fputc_unlocked(sj->held[0], out);
	}
	if (c == '<') {
		fputs("\\u003c", out);
	} else if (c == 0xe2) {
		sj->held[0] = c;
		sj->nheld = 1;
	} else {
		fputc_unlocked(c, out);
	}
}

static ssize_t script_json_write(void *cookie, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		script_json_byte(cookie, (unsigned char)buf[i]);
	return (ssize_t)n;
}

static int script_json_close(void *cookie)
{
	struct script_json *sj = cookie;

	fwrite_unlocked(sj->held, 1, sj->nheld, sj->out);
	sj->nheld = 0;
	return 0;
}

/*
 * A stream whose bytes go to out escaped as above: the documents are
 * written through it, not built whole first (a big program's are 50 MB
 * and more, twice that in a growing buffer).
 */
static FILE *script_json_open(struct script_json *sj, FILE *out)
{
	static const cookie_io_functions_t io = {
		.write = script_json_write,
		.close = script_json_close,
	};
	FILE *f;

	sj->out = out;
	sj->nheld = 0;
	f = fopencookie(sj, "w", io);
	if (f)
		setvbuf(f, NULL, _IOFBF, 64 * 1024);
	return f;
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

/* The files the annotated source lists, hottest first, with their
 * text; "lines": null for one whose source is not found, which
 * --annotate lists by line number. */
static void json_sources(FILE *out, const struct cg *cg,
			 const struct print_opts *o)
{
	const struct annotation *a = o->annotation;
	bool first = true;

	fputs(",\n \"sources\": [", out);
	for (size_t i = 0; a && o->annotate && i < a->nfiles; i++) {
		const struct ann_file *f = &a->files[i];

		if (f->fate != ANN_LISTED && f->fate != ANN_NOT_FOUND)
			continue;
		fputs(first ? "\n  {\"path\": " : ",\n  {\"path\": ", out);
		first = false;
		json_name(out, cg->p, f->name);
		if (f->fate == ANN_NOT_FOUND || !f->src || !f->src->found) {
			fputs(", \"lines\": null}", out);
			continue;
		}
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

/* The inline chain of fr[0 .. n) as a JSON string (inline_chain.h) */
static void json_chain(FILE *out, const struct names *names,
		       const struct frame *fr, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		fputs("null", out);
		return;
	}
	inline_chain_put(m, names, fr, n);
	fclose(m);
	json_string(out, text, len);
	free(text);
}

/*
 * The source lines the disassembly interleaves, where --disasm prints
 * them (print_disasm.c print_one()): for each listing of the "disasm"
 * array (disasm_pick()'s, in its order), [instruction index, file,
 * line, text] where the frames at the instruction (symtab_frames():
 * the function, file and line of each inlined one) are not those of the
 * instruction before, text null when the file is not found; inlined
 * code adds a fifth element, the inline chain --disasm prints after
 * file:line (only there: a chain is rare outside optimized code).
 */
static void json_disasm_source(FILE *out, const struct cg *cg,
			       const struct print_opts *o,
			       const struct disasm_pick *picks,
			       const struct disasm_members *m, size_t n)
{
	fputs(",\n \"disasm_source\": [", out);
	for (size_t i = 0; i < n; i++) {
		struct disasm_listing l;
		struct frame prev[DISASM_MAX_FRAMES], cur[DISASM_MAX_FRAMES];
		size_t nprev = 0;
		bool first = true;

		disasm_listing_build(&l, cg, o, picks, m, i);
		fputs(i ? ",\n  [" : "\n  [", out);
		for (size_t k = 0; k < l.code.ninsns; k++) {
			const struct names *names = l.st->names;
			size_t nf = symtab_frames(l.st, l.code.insns[k].addr,
						  cur, DISASM_MAX_FRAMES);
			const struct source_file *src;
			const char *text;
			size_t len;

			if (k && inline_chain_same(cur, nf, prev, nprev))
				continue;
			memcpy(prev, cur, nf * sizeof(*cur));
			nprev = nf;
			if (!nf || cur[0].file == NO_NAME || !cur[0].line)
				continue;
			fprintf(out, "%s[%zu, ", first ? "" : ", ", k);
			first = false;
			json_string(out, names_str(names, cur[0].file),
				    names_len(names, cur[0].file));
			fprintf(out, ", %u, ", cur[0].line);
			src = sources_get(o->sources,
					  names_str(names, cur[0].file));
			text = source_line(src, cur[0].line, &len);
			if (text)
				json_string(out, text, len);
			else
				fputs("null", out);
			if (nf > 1) {
				fputs(", ", out);
				json_chain(out, names, cur, nf);
			}
			fputc(']', out);
		}
		fputc(']', out);
		disasm_listing_release(&l);
	}
	fputc(']', out);
}

/*
 * The functions the "disasm" array lists: disasm_pick()'s, for every
 * document that has them. Without WHAT and with o->disasm_max, all
 * with a cost are picked and the hottest o->disasm_max kept (what
 * disasm_pick() keeps with o: the same order): *more of them are left
 * out, the least cost of one kept is *least, and the page says so and
 * how to list the others (--disasm=NAME).
 */
static void code_picks(const struct cg *cg, const struct print_opts *o,
		       struct disasm_pick **picks, size_t *n, size_t *more,
		       uint64_t *least)
{
	struct print_opts all = *o;
	bool cut = o->disasm_max && !o->disasm_what;

	*picks = NULL;
	*n = *more = 0;
	*least = 0;
	if (!o->disasm || !cg->p->has_instr)
		return;
	if (cut)
		all.disasm_max = SIZE_MAX;
	if (disasm_pick(cg, &all, picks, n) < 0) {
		*n = 0;
		return;
	}
	if (cut && *n > o->disasm_max) {
		*more = *n - o->disasm_max;
		*least = (*picks)[o->disasm_max - 1].cost;
		*n = o->disasm_max;
	}
}

/* The code views' document: the annotated source and the disassembly
 * as --json gives them, the files' text, the lines the disassembly
 * interleaves; whether the profile has instruction addresses at all
 * (the page says what the Disassembly needs), and the events' column
 * titles of those listings. */
static void json_code(FILE *out, const struct cg *cg,
		      const struct print_opts *o)
{
	struct disasm_pick *picks;
	struct disasm_members m;
	size_t n, more;
	uint64_t least;

	fprintf(out, "{\"has_instr\": %s, \"columns\": [",
		cg->p->has_instr ? "true" : "false");
	/* each event's column title, as --annotate and --disasm print it
	 * (gmon.out's "ticks") */
	for (uint32_t e = 0; e < cg->p->nevents; e++) {
		const char *name = event_column_name(cg->p, e);

		if (e)
			fputs(", ", out);
		json_string(out, name, strlen(name));
	}
	fputs("],\n \"annotated\": ", out);
	fputs(o->annotate && o->annotation ? "true" : "false", out);
	if (o->annotate && o->annotation)
		print_annotate_json(out, cg, o);
	code_picks(cg, o, &picks, &n, &more, &least);
	disasm_members_init(&m, cg, o, picks, n);
	fputs(",\n \"disasm\": ", out);
	print_disasm_json_of(out, cg, o, picks, &m, n);
	fprintf(out, ",\n \"disasm_more\": %zu, \"disasm_least\": %llu",
		more, (unsigned long long)least);
	json_sources(out, cg, o);
	json_disasm_source(out, cg, o, picks, &m, n);
	fputs("}\n", out);
	disasm_members_release(&m);
	free(picks);
}

/*
 * The report's document of the page's place `at` ("@@DATA@@" and the
 * like) into m; false when `at` is no document's place.
 */
struct report_docs {
	const struct cg *cg;
	const struct print_opts *o;
	const struct report_keep *k;	/* the functions the page has */
	const char *warnings;
	struct html_begun *b;		/* the flame graph's document */
};

/*
 * The page begun (print.h): the functions it has, and the flame
 * graph's document (html_data_flame()) made on a second thread while
 * this one finishes the analysis (the annotated source's and the
 * disassembly's choices, 0.16 s on many.60's report with its binary,
 * the trees 0.29 s there). Its trees are built from the call graph,
 * which nothing writes to any more. The thread has its own copy of the
 * options (the analysis still sets the code views' in the caller's);
 * the functions and the tree depend only on the sort event and the
 * threshold. The same bytes as from this thread, kept in memory until
 * their turn (150 KB there). The first view's document waits for the
 * thread (flame_doc_wait()): the trees' memory is not held beside its
 * labels'.
 */
struct html_begun {
	const struct cg *cg;
	struct print_opts o;
	struct report_keep k;
	pthread_t thread;
	bool started;
	char *text;
	size_t len;
};

static void *make_flame_doc(void *arg)
{
	struct html_begun *b = arg;
	FILE *m = open_memstream(&b->text, &b->len);

	if (!m)
		abort();	/* no memory, as xmalloc() does */
	html_data_flame(m, b->cg, &b->o, &b->k);
	if (fclose(m))
		abort();
	return NULL;
}

struct html_begun *print_html_begin(const struct cg *cg,
				    const struct print_opts *o)
{
	struct html_begun *b = xcalloc(1, sizeof(*b));

	b->cg = cg;
	b->o = *o;
	/* the functions the page has: at o->threshold (report_keep.h) */
	report_keep_init(&b->k, cg, &b->o);
	b->started = pthread_create(&b->thread, NULL, make_flame_doc, b) == 0;
	return b;
}

void print_html_drop(struct html_begun *b)
{
	if (!b)
		return;
	if (b->started)
		pthread_join(b->thread, NULL);
	free(b->text);
	report_keep_release(&b->k);
	free(b);
}

/* The document into m: the thread's when it made one, else made here. */
static void flame_doc_put(struct html_begun *b, FILE *m)
{
	if (b->started) {
		pthread_join(b->thread, NULL);
		b->started = false;
	}
	if (!b->text) {
		html_data_flame(m, b->cg, &b->o, &b->k);
		return;
	}
	fwrite(b->text, 1, b->len, m);
	free(b->text);
	b->text = NULL;
}

/* The thread's trees done with before the first view's document: its
 * labels (every function's short name made unique, 20 MiB on many.60)
 * and the trees' memory (18) at once took the peak 4 to 11 MiB past the
 * fold's (222-231 MiB in runs at load 2, 25% of the file 235.7). */
static void flame_doc_wait(struct html_begun *b)
{
	if (b->started) {
		pthread_join(b->thread, NULL);
		b->started = false;
	}
}

static bool put_document(FILE *m, const char *at, void *arg)
{
	const struct report_docs *r = arg;

	if (!strncmp(at, "@@DATA@@", 8)) {
		flame_doc_wait(r->b);
		html_data_first(m, r->cg, r->o, r->k, r->warnings);
	} else if (!strncmp(at, "@@CALLS@@", 9))
		html_data_calls(m, r->cg, r->o, r->k);
	else if (!strncmp(at, "@@FLAME@@", 9))
		flame_doc_put(r->b, m);
	else if (!strncmp(at, "@@SAMPLES@@", 11))
		html_samples(m, r->cg, r->o, r->k);
	else if (!strncmp(at, "@@CODE@@", 8))
		json_code(m, r->cg, r->o);
	else
		return false;
	return true;
}

void html_page_write(FILE *out, const char *page, const char *js,
		     const char *title,
		     bool (*put)(FILE *json, const char *at, void *arg),
		     void *arg)
{
	const char *t = page;

	/* the page with its @@NAME@@ places filled */
	for (const char *at; (at = strstr(t, "@@"));) {
		const char *end = strstr(at + 2, "@@");

		if (!end)
			break;
		fwrite(t, 1, (size_t)(at - t), out);
		if (!strncmp(at, "@@TITLE@@", 9)) {
			put_html_text(out, title);
		} else if (!strncmp(at, "@@CSS@@", 7)) {
			fputs(html_asset_report_css, out);
		} else if (!strncmp(at, "@@JS@@", 6)) {
			fputs(js, out);
		} else {
			struct script_json sj;
			FILE *m = script_json_open(&sj, out);
			bool known;

			if (!m)
				abort();	/* no memory, as xmalloc() does */
			known = put(m, at, arg);
			fclose(m);
			if (!known)
				BUG("a report page has an unknown place '%.*s'",
				    (int)(end + 2 - at), at);
		}
		t = end + 2;
	}
	fputs(t, out);
}

void print_html_begun(FILE *out, struct html_begun *b,
		      const struct print_opts *o, const char *title,
		      const char *warnings)
{
	struct report_docs r = { b->cg, o, &b->k, warnings, b };

	html_page_write(out, html_asset_report_html, html_asset_report_js,
			title, put_document, &r);
	print_html_drop(b);
}

void print_html(FILE *out, const struct cg *cg, const struct print_opts *o,
		const char *title, const char *warnings)
{
	print_html_begun(out, print_html_begin(cg, o), o, title, warnings);
}
