/* Command line options. */
#ifndef CGA_OPTIONS_H
#define CGA_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum output_mode { OUT_TEXT, OUT_JSON };

struct options {
	enum output_mode mode;
	bool flat, graph;	/* which text listings */
	bool brief;
	bool fold_recursion;
	bool lenient;
	uint64_t part;		/* 0: all parts */
	const char *sort_event;	/* NULL: the first event */
	const char *show;	/* comma-separated events, NULL: all */
	double threshold;
	const char *sum;	/* --sum: write the summed gmon.out here */
	char **inputs;
	int ninputs;

	/* symbol resolution */
	const char **binaries;	/* -b, in order */
	int nbinaries;
	bool no_demangle;
	bool have_load_offset;
	uint64_t load_offset;
	const char *debug_dir;
	bool inlined_callee;	/* --inlined=callee */
	bool resolve_mode;	/* --resolve: inputs are addresses */
	bool inlines;		/* --inlines */
};

void options_release(struct options *o);

enum options_result { OPTIONS_OK, OPTIONS_EXIT_OK, OPTIONS_USAGE };

/*
 * Parse argv into o. OPTIONS_EXIT_OK: --help or --version was printed to
 * out. OPTIONS_USAGE: a usage error was reported.
 */
enum options_result options_parse(struct options *o, int argc, char **argv,
				  FILE *out);

#endif
