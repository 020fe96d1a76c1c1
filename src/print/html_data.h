/*
 * The HTML report's data (html_data.c): the documents print_html.c puts
 * in the page, each one JSON value in its own element, so that the page
 * parses only what the view drawn needs. Their shapes are the report's
 * own, read by src/print/html/report.js alone: columns of numbers
 * rather than an object per function or call, which browsers parse
 * several times faster.
 */
#ifndef CGA_HTML_DATA_H
#define CGA_HTML_DATA_H

#include <stdio.h>

#include "flame_data.h"
#include "print.h"
#include "report_keep.h"

/*
 * What the first view (the flat profile) and the header need:
 * print_json_head()'s keys, "paths" (every file and object name once),
 * "functions" as columns ("name", "file" and "object" as indexes into
 * paths or -1, "line" or 0, "calls", "self_calls", "cycle" or 0, and
 * "self", "inclusive" and, for a sampled profile, "samples" as one
 * column per event, and "children", the call graph's children of the
 * few functions whose are not inclusive - self, a cycle member's
 * (put_children())), "labels" (the names the listings show without
 * --short-names, by function id, where they are not the profile's: two
 * functions of one name), "short_labels" (those --short-names shows,
 * where they differ from "labels"), "short_names" (the run's
 * --short-names: the page's toggle's default), "start_function" (the
 * function the Function view opens on, by start_function() for
 * --sort's event, or -1: none),
 * "demangled" (the demangled form of the names that are mangled), and
 * "warnings" (may be NULL: none).
 *
 * Every function id is the page's (report_keep.h): where k leaves
 * functions out, "functions" has the page's alone, "id" their profile
 * ids, and "cut" says what is left out: "threshold" (percent),
 * "functions" (the profile's), "more" (those left out) and
 * "flame_pixels" (the flame graph's merged frames are narrower than
 * one of so many across the whole).
 */
void html_data_first(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const struct report_keep *k,
		     const char *warnings);

/* The calls, for the function view: "estimated" (gmon.out's shares),
 * "caller", "callee", "count" and "inclusive" (one column per event)
 * by profile call, and when estimated "self_share" and "child_share"
 * (the sort event's share, cg_arc_share()'s, in its two parts), and
 * for a profile of whole stacks "self_sparse" (each call's exact self
 * part, profile.call_self, as pairs: put_arc_self()),
 * "deleted" (the calls -k left out), print_json_cycles()'s "cycles",
 * and "cycle_children" (each cycle's children as the call graph has
 * them, by number, a value per event). Where k leaves functions out,
 * the calls between the page's functions, and "cut_callers" and
 * "cut_callees": by page id, the calls from and to functions it leaves
 * out. */
void html_data_calls(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const struct report_keep *k);

/* The flame graph keeps paths down to this share of the total, and at
 * most this many: a browser draws what is a pixel wide, and the file
 * stays small. The share is --tree's (print_tree.c): a path cut puts its
 * cost in its caller's self, so a cut at 2e-5 showed callers with more
 * self than --tree gives them (a Callgrind profile's call tree: fill()
 * 28,373,021 where --tree says 28,368,752). */
#define HTML_FLAME_MIN_SHARE FLAME_TREE_MIN_SHARE
#define HTML_FLAME_MAX_NODES 100000

/*
 * The flame graph's trees, one per event ("trees", null for an event
 * whose costs the analysis estimated only for --sort's): "event",
 * "estimated", "cut", "full", "total", and per node, parents first,
 * "unit" (a function id, or -N for cycle N as a whole), "parent" (-1 at
 * a root) and "value" (its total; its self cost is that less its
 * children's). Where k leaves functions out, the nodes narrower than
 * a pixel of a 1200-pixel view or of a function left out are merged:
 * "more_parent" (a node, -1: the roots), "more_n" (how many merged
 * under it), "more_value" (their totals' sum); and kept, not drawn, for
 * the figures (report_keep_hidden()): "hidden_unit" (a page function,
 * -N for a cycle, or the number of page functions: those left out),
 * "hidden_parent" (a node, numbered after the drawn ones; -1 at a
 * root) and "hidden_value", or past REPORT_HIDDEN_MAX "hidden_max".
 */
void html_data_flame(FILE *out, const struct cg *cg,
		     const struct print_opts *o, const struct report_keep *k);

/*
 * For event ev's tree from stacks (flame_stack_nodes()' numbering, n
 * nodes), each node's node in the page's tree of that event: itself
 * renumbered, or where k merged it into an "N more" frame, its hidden
 * node (numbered after the drawn ones), or past REPORT_HIDDEN_MAX its
 * nearest ancestor the page draws (NO_ID for a merged root). Where the
 * page keeps every node, NULL: the numbering is the page's.
 */
uint32_t *html_flame_page_nodes(const struct cg *cg, uint32_t ev,
				const struct report_keep *k, size_t n);

#endif
