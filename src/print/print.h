/*
 * The listings. Each printer writes to `out` and reads the analysed
 * call graph (and through it the profile); none of them reads a file.
 */
#ifndef CGA_PRINT_H
#define CGA_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cg/cg.h"
#include "resolve/resolve.h"
#include "source_files.h"
#include "symtab/symtab.h"

struct annotation;
struct html_parts;

struct print_opts {
	uint32_t sort_event;	/* flat profile and graph rank by this */
	const uint32_t *show;	/* events the flat profile shows */
	size_t nshow;
	double threshold;	/* percent; smaller entries are left out, and
				 * counted in a line after the listing */
	size_t par_chunk;	/* 0, or the flat profile and call graph are
				 * made by two threads in chunks of this many
				 * entries, however few (CGANALYZE_PRINT_CHUNK) */
	bool brief;		/* no explanations */
	bool digit_groups;	/* counts as 8,800,280 in the text listings */
	bool short_names;	/* long C++ names shortened in the text
				 * listings, as far as they stay distinct */
	bool indexes;		/* names carry the graph's [N] */
	const struct resolve_report *reports;	/* what -b did, or NULL */
	size_t nreports;
	enum inline_mode inlined;

	/* the annotated listings */
	struct symtab *const *symtabs;	/* -b binaries, as reports[] */
	struct sources *sources;
	double listing_threshold;	/* percent: files and functions the
					 * listings pick by themselves */
	bool annotate;
	const char *annotate_what;	/* file or function; NULL: hot files */
	const struct annotation *annotation;	/* built when annotate */
	uint32_t context;
	bool inline_calls;
	bool disasm;
	const char *disasm_what;	/* name or glob; NULL: hot functions */
	size_t disasm_max;	/* without WHAT, 0: the functions of
				 * listing_threshold or more (the text);
				 * N: every function with a cost, the N
				 * hottest (the report) */
	bool leaks;		/* JSON: the leak records too */
	bool no_demangle;	/* --no-demangle: symbols in the disassembly
				 * as the symbol table spells them */

	/* gprof's selections (-p/-P, -q/-Q SPEC; -k), NULL when none */
	const bool *flat_listed;	/* per function: in the flat profile */
	const bool *graph_listed;	/* per function: has a graph entry */
	const bool *cycle_listed;	/* per cycle: has a graph entry */
	const bool *arc_deleted;	/* per profile call: -k deleted it */

	/* --focus, --ignore, --hide, --fold-recursion: what is in force
	 * ("focus=main, hide=g"), NULL when nothing; the totals before
	 * them (stride numbers); whether the stacks they worked on were
	 * estimated from the arcs */
	const char *transforms;
	const uint64_t *totals_before;
	bool transforms_estimated;

	/* perf.data: the samples the command line chose (--pid, --tid,
	 * --comm; --time is the profile's time_spec), which the report's
	 * panel of threads prints with its own choice */
	const uint32_t *pids, *tids;
	size_t npids, ntids;
	const char *comms;
	/* Callgrind: the selected parts each read alone, for the report's
	 * threads and dumps (html_parts.h); NULL with why_parts saying why
	 * not (NULL: nothing to say) */
	const struct html_parts *parts;
	size_t nparts;
	const char *why_parts;
	uint64_t part;		/* --part's, or 0 */

	/* the Graphviz call graph: percentages of the total below which
	 * functions (inclusive cost) and call arcs are left out */
	double node_threshold, edge_threshold;
};

void print_flat(FILE *out, const struct cg *cg, const struct print_opts *o);
void print_graph(FILE *out, const struct cg *cg, const struct print_opts *o);
void print_json(FILE *out, const struct cg *cg, const struct print_opts *o);
/* Its first keys, "events" to "binaries" (no braces), which the HTML
 * report's data starts with too. */
void print_json_head(FILE *out, const struct cg *cg,
		     const struct print_opts *o);
/* Its "cycles" key and array. */
void print_json_cycles(FILE *out, const struct cg *cg,
		       const struct print_opts *o);
/* The same with each member's id page[id] (the report's ids), leaving
 * out those of NO_ID and counting them in "more_members"; page NULL:
 * the profile's ids. */
void print_json_cycles_of(FILE *out, const struct cg *cg,
			  const struct print_opts *o, const uint32_t *page);
/* The call graph in Graphviz's DOT language (print_dot.c). */
void print_dot(FILE *out, const struct cg *cg, const struct print_opts *o);
/* The same drawn by `dot -Tsvg` into the file `path`: 0, or -1 after
 * reporting (dot is not installed, or failed). */
int print_svg(const char *path, const struct cg *cg,
	      const struct print_opts *o);
/* Collapsed stacks for flame graph tools (print_folded.c): exact from
 * IgProf's stacks, estimated from the arcs otherwise (and said so in a
 * first line starting with '#'). */
void print_folded(FILE *out, const struct cg *cg, const struct print_opts *o);
/* The report to open in a browser (print_html.c): one page with its
 * CSS, JavaScript and the analysis as data; the annotated source and
 * the disassembly in it when o->annotate and o->disasm. title is the
 * page's; warnings (may be NULL) the run's messages, shown in it. */
void print_html(FILE *out, const struct cg *cg, const struct print_opts *o,
		const char *title, const char *warnings);
/* The same in two steps: print_html_begin() as soon as the call graph
 * is ranked (the page's functions chosen, its flame graph's trees made
 * on a second thread while the caller goes on: o's sort event and
 * threshold are those of the page), print_html_begun() to write the
 * page (o then as print_html()'s; b freed), print_html_drop() where no
 * page is written after all. Nothing may write to the call graph or
 * its profile in between. */
struct html_begun;
struct html_begun *print_html_begin(const struct cg *cg,
				    const struct print_opts *o);
void print_html_begun(FILE *out, struct html_begun *b,
		      const struct print_opts *o, const char *title,
		      const char *warnings);
void print_html_drop(struct html_begun *b);
/* --tree: the top-down call tree as indented text (print_tree.c), one
 * line per call path with its total and self cost, in percent of the
 * total and as numbers; paths below o->threshold are counted, not
 * shown. Exact from stacks, estimated from the arcs (and said so). */
void print_tree(FILE *out, const struct cg *cg, const struct print_opts *o);
/* Annotated source (print_annotate.c) from o->annotation. */
void print_annotate(FILE *out, const struct cg *cg, const struct print_opts *o);
void print_annotate_json(FILE *out, const struct cg *cg,
			 const struct print_opts *o);
/* Disassembly (print_disasm.c). print_disasm_check() is called before
 * anything is printed: 0, or the exit status after reporting (1: the
 * profile has no instruction addresses; 2: WHAT names no function).
 * print_disasm returns 0, or -1 after reporting; print_disasm_json
 * prints the "disasm" array. */
int print_disasm_check(const struct cg *cg, const struct print_opts *o);
int print_disasm(FILE *out, const struct cg *cg, const struct print_opts *o);
void print_disasm_json(FILE *out, const struct cg *cg,
		       const struct print_opts *o);
/* The "disasm" array of picks[0 .. n) (disasm_pick()'s), m their
 * members (disasm_members.h): for a caller with other uses of both. */
struct disasm_pick;
struct disasm_members;
void print_disasm_json_of(FILE *out, const struct cg *cg,
			  const struct print_opts *o,
			  const struct disasm_pick *picks,
			  const struct disasm_members *m, size_t n);
/* The leak records (IgProf LK), largest first. */
void print_leaks(FILE *out, const struct cg *cg, const struct print_opts *o);

/* Leak indexes into cg->p->leaks, largest first (then by address);
 * malloc'd, p->nleaks entries. */
uint32_t *leaks_by_size(const struct profile *p);

/* The two listings in gprof's columns, for an event that is a time
 * (unit_seconds set); print_flat and print_graph call them. */
void print_flat_seconds(FILE *out, const struct cg *cg,
			const struct print_opts *o);
void print_graph_seconds(FILE *out, const struct cg *cg,
			 const struct print_opts *o);

/* gprof's "Index by function name", after the call graph
 * (print_index.c); nl labels the functions. */
struct name_labels;
void print_index(FILE *out, const struct cg *cg, const struct print_opts *o,
		 struct name_labels *nl);

/* Above the text listings: how the inputs were read, where that changes
 * what they show (IgProf frames folded into their callers); nothing
 * otherwise. */
void print_input_notes(FILE *out, const struct profile *p);

/* perf.data's threads and processes with their samples and costs
 * (--threads; print_threads.c). */
void print_threads(FILE *out, const struct profile *p,
		   const struct print_opts *po);

/* The line saying what --time kept of each recording, prefix first;
 * nothing without --time. */
void print_time_header(FILE *out, const struct profile *p,
		       const char *prefix);
/* The same lines as note()s, for outputs with no text header (--json,
 * the page, which shows the run's messages) */
void print_time_notes(const struct profile *p);

/* --json's parts of them: an input's "time" and the "threads" (ne
 * events) */
void json_input_time(FILE *out, const struct profile *p,
		     const struct pinput *in);
void json_threads(FILE *out, const struct profile *p, size_t ne);

/* Callgrind's and IgProf's threads and processes from their parts'
 * headers (--threads), and the parts in the order dumped (--parts);
 * print_parts.c */
void print_part_threads(FILE *out, const struct profile *p,
			const struct print_opts *po);
void print_parts(FILE *out, const struct profile *p,
		 const struct print_opts *po);
/* --json: "threads" of the parts when they name threads, and "parts"
 * when there are several (ne events; null past the recorded ones) */
void json_parts(FILE *out, const struct profile *p, size_t ne);

/* Shared by the printers (labels.c). */

/*
 * A function's name as listings show it: the profile's name, then, when
 * another function has the same name (two "(below main)"s, Q5), where it
 * comes from, then " <cycle N>" for a cycle member and " [N]" when
 * o->indexes. Written to buf; returns buf.
 */
struct name_labels;
/* o->short_names (o may be NULL): names shortened (short_names.h), as
 * far as the profile's names stay distinct */
struct name_labels *name_labels_new(const struct cg *cg,
				    const struct print_opts *o);
/* listed[f] false (-Q, -q): the graph has no entry for f, and its index
 * is shown as gprof shows it then, " (N)". NULL: all are listed. */
void name_labels_set_listed(struct name_labels *nl, const bool *listed);
/* Build every function's label (with its index) once, after the
 * listed ones are set, for listings that write them many times over:
 * each is then one copy from one place, not gathered from five. */
void name_labels_keep(struct name_labels *nl, const struct cg *cg);
void name_labels_free(struct name_labels *nl);
const char *func_label(const struct name_labels *nl, const struct cg *cg,
		       uint32_t func, bool index, char *buf, size_t size);
/* The same, appended to a line (the whole name, however long). */
struct linebuf;
void lb_func_label(struct linebuf *lb, const struct name_labels *nl,
		   const struct cg *cg, uint32_t func, bool index);

/*
 * The flat profile's order (flat_order.c), gprof's: self cost of event
 * ev, then calls, then name. A qsort_r comparator of function ids with a
 * struct flat_order as its argument.
 */
struct flat_order {
	const struct cg *cg;
	uint32_t ev;
};
int cmp_flat_order(const void *x, const void *y, void *arg);
/* rows[0..n) into that order (faster than qsort_r with it: each row's
 * keys are looked up once) */
void sort_flat_order(const struct cg *cg, uint32_t ev, uint32_t *rows,
		     size_t n);

/* A listed entry's total (self + children) of event ev: the call graph's
 * order and what its threshold looks at. */
double entry_total(const struct cg *cg, const struct cg_entry *e, uint32_t ev);

/* After a listing: how many of what (a noun: "function", "entry")
 * o->threshold left out, and how to see them; nothing for none. */
void print_left_out(FILE *out, size_t n, const char *what, double threshold);
/* Whether the entry is below o->threshold (the selection aside). */
bool entry_below(const struct cg *cg, const struct print_opts *o,
		 const struct cg_entry *e, uint32_t ev, double total);
/* Does the call graph list entry e: selected (-q/-Q) and with at least
 * the --threshold of total in event ev? */
bool entry_shown(const struct cg *cg, const struct print_opts *o,
		 const struct cg_entry *e, uint32_t ev, double total);

/* A sampled profile's (profile.sampled) samples of function f in event
 * ev: those that ended in it, perf report's Samples; 0 otherwise. */
uint64_t func_samples(const struct profile *p, uint32_t f, uint32_t ev);

/* Whether the text listings show event e's costs as seconds (gmon.out's
 * histogram ticks: print_seconds.c), cost * unit_seconds with two
 * decimals; the report shows them so too. */
bool listed_in_seconds(const struct profile *p, uint32_t e);

/* An event's total as the listings' titles give it: "408,817,632 in
 * all", with its unit where the profile knows one ("ns in all") and a
 * sampled profile's samples ("in all, 204 samples"); of an event that
 * counts them (pprof's "samples"), "38 samples in all". */
void fprint_total(FILE *out, const struct profile *p, uint32_t ev,
		  bool groups);

/*
 * s with its control characters written as C escapes (\n, \t, \x1b), as
 * the listings write a function's name: s itself when it has none, else
 * buf (cut to size). For the file, object and command names of the
 * listings' titles and tables, bytes of a profile from elsewhere.
 */
const char *name_escaped(const char *s, char *buf, size_t size);

/* The event's name, with its long name in parentheses if it has one. */
void fprint_event_title(FILE *out, const struct profile *p, uint32_t event);

/*
 * What the listings by line and instruction call event e's cost column:
 * its name, except that a gmon.out histogram's costs are counts of clock
 * ticks (the event is its dimension, "seconds"): "ticks".
 */
const char *event_column_name(const struct profile *p, uint32_t event);

/*
 * The unit of event e's costs where the profile says ("ns" for perf's
 * cpu-clock, "events" for a counter's, pprof's "nanoseconds"), for the
 * titles of the listings by line and instruction to put after a cost as
 * fprint_total() does; NULL when the event is its own unit (Ir, ticks).
 */
const char *event_cost_unit(const struct profile *p, uint32_t event);

/* Explanations of the columns (blurbs.c). */
extern const char flat_blurb[];
extern const char graph_blurb[];
extern const char flat_sampled_blurb[];
extern const char graph_sampled_blurb[];
extern const char flat_seconds_blurb[];
extern const char graph_seconds_blurb[];
extern const char max_blurb[];

#endif
