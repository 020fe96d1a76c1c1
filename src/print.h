/*
 * The listings. Each printer writes to `out` and reads the analysed
 * call graph (and through it the profile); none of them reads a file.
 */
#ifndef CGA_PRINT_H
#define CGA_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cg.h"
#include "resolve.h"

struct print_opts {
	uint32_t sort_event;	/* flat profile and graph rank by this */
	const uint32_t *show;	/* events the flat profile shows */
	size_t nshow;
	double threshold;	/* percent; smaller entries are left out */
	bool brief;		/* no explanations */
	bool indexes;		/* names carry the graph's [N] */
	const struct resolve_report *reports;	/* what -b did, or NULL */
	size_t nreports;
	enum inline_mode inlined;
};

void print_flat(FILE *out, const struct cg *cg, const struct print_opts *o);
void print_graph(FILE *out, const struct cg *cg, const struct print_opts *o);
void print_json(FILE *out, const struct cg *cg, const struct print_opts *o);

/* The two listings in gprof's columns, for an event that is a time
 * (unit_seconds set); print_flat and print_graph call them. */
void print_flat_seconds(FILE *out, const struct cg *cg,
			const struct print_opts *o);
void print_graph_seconds(FILE *out, const struct cg *cg,
			 const struct print_opts *o);

/* Shared by the printers (print_names.c). */

/*
 * A function's name as listings show it: the profile's name, then, when
 * another function has the same name (two "(below main)"s, Q5), where it
 * comes from, then " <cycle N>" for a cycle member and " [N]" when
 * o->indexes. Written to buf; returns buf.
 */
struct name_labels;
struct name_labels *name_labels_new(const struct cg *cg);
void name_labels_free(struct name_labels *nl);
const char *func_label(const struct name_labels *nl, const struct cg *cg,
		       uint32_t func, bool index, char *buf, size_t size);

/* The event's name, with its long name in parentheses if it has one. */
void fprint_event_title(FILE *out, const struct profile *p, uint32_t event);

/* Explanations of the columns (blurbs.c). */
extern const char flat_blurb[];
extern const char graph_blurb[];
extern const char flat_seconds_blurb[];
extern const char graph_seconds_blurb[];

#endif
