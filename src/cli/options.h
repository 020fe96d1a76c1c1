/* Command line options. */
#ifndef CGA_OPTIONS_H
#define CGA_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "print/source_files.h"
#include "read/read.h"
#include "select/stack_transform.h"
#include "select/symspec.h"

enum output_mode { OUT_TEXT, OUT_JSON, OUT_CALLGRIND, OUT_FOLDED, OUT_HTML,
		   OUT_PPROF };

struct options {
	enum output_mode mode;
	bool flat, graph;	/* which text listings */
	/* gprof's symspecs: -pSPEC -PSPEC -qSPEC -QSPEC -k FROM/TO, in the
	 * order given */
	struct symspec_opt *specs;
	size_t nspecs;
	bool brief;
	bool fold_recursion;
	/* --focus, --ignore, --hide, --fold-recursion in the order given */
	struct transform *transforms;
	size_t ntransforms;
	bool tree;		/* --tree: the top-down call tree */
	bool lenient;
	bool no_progress;	/* --no-progress: no progress line on a tty */
	size_t print_chunk;	/* CGANALYZE_PRINT_CHUNK, or 0 */
	enum read_thread reader_thread;	/* CGANALYZE_READER_THREAD */
	bool all_positions;	/* CGANALYZE_ALL_POSITIONS=1: --disasm
				 * keeps every position (code_positions.c
				 * chooses none), for the tests */
	bool positions_again;	/* CGANALYZE_ALL_POSITIONS=again: keeps
				 * none whole, so that what --disasm lists
				 * is read again, for the tests */
	bool show_positions;	/* CGANALYZE_SHOW_POSITIONS=1: say how
				 * many functions --disasm kept whole */
	enum perf_unwinder perf_unwinder;	/* CGANALYZE_UNWIND */
	uint64_t part;		/* 0: all parts */
	const char *sort_event;	/* NULL: the first event */
	const char *show;	/* comma-separated events, NULL: all */
	const char *counter;	/* --counter: IgProf counter to rank and
				 * count calls by; NULL: the first */
	bool leaks;		/* --leaks: list the leak records */
	double threshold;
	bool threshold_given;
	const char *sum;	/* --sum: write the summed gmon.out here */
	bool diff;		/* --diff BASE NEW */
	bool diff_lines;	/* --diff-lines: per-line changes too */
	const char **strip_prefixes;	/* --strip-path-prefix, in order */
	size_t nstrip_prefixes;
	const char *output_file;	/* -o: where the output goes; NULL:
					 * standard output */
	char **inputs;
	int ninputs;

	/* symbol resolution */
	const char **binaries;	/* -b, in order: the files */
	int nbinaries;
	/* -b OBJECT=FILE: per binary, the profile object it is for (owned),
	 * or NULL to match by file name */
	char **binary_objects;
	bool no_demangle;
	bool no_digit_groups;	/* --no-digit-groups: 8800280, not 8,800,280 */
	bool short_names;	/* --short-names: C++ names shortened in text */
	bool force_binary;
	bool no_filter;		/* IgProf: no frame folded into its caller */
	/* The last of -p -P -q -Q --annotate --disasm given without its
	 * optional argument ("-p"), for the hint when an operand after it
	 * was meant as that argument; NULL: none. */
	const char *bare_option;	/* a -b binary that does not match: warn */
	bool have_load_offset;
	uint64_t load_offset;
	const char *debug_dir;
	const char *kallsyms;	/* --kallsyms: perf.data's kernel symbols */
	const char *sysroot;	/* --sysroot: where perf.data's objects are */
	uint32_t *pids, *tids;	/* --pid, --tid: perf.data samples kept */
	size_t npids, ntids;
	const char *comms;	/* --comm: comma-separated names, or NULL */
	struct time_spec *time;	/* --time: perf.data's stretches kept;
				 * NULL: all */
	bool threads;		/* --threads: the threads' totals */
	bool parts;		/* --parts: Callgrind's parts in order */
	uint32_t max_stack;	/* --max-stack: frames a perf sample's
				 * stack keeps; 0: all */
	bool inlined_callee;	/* --inlined=callee */
	bool resolve_mode;	/* --resolve: inputs are addresses */
	bool inlines;		/* --inlines */

	/* annotated listings */
	bool annotate;		/* --annotate[=WHAT] */
	const char *annotate_what;	/* a file or function; NULL: hot files */
	uint32_t context;	/* --context: lines around hot lines */
	bool inline_calls;	/* --inline-calls: inlined cost also at the
				 * call line in the caller */
	const char **source_dirs;	/* -I */
	size_t nsource_dirs;
	struct source_map *source_maps;	/* --source-map */
	size_t nsource_maps;
	bool disasm;		/* --disasm[=FUNC] */
	const char *disasm_what;	/* a name or glob; NULL: hot functions */

	/* the Graphviz call graph */
	bool dot;		/* --dot: DOT on standard output, alone */
	const char *svg;	/* --svg FILE: drawn by dot into FILE */
	double node_threshold, edge_threshold;	/* percent */
	bool dot_threshold_given;
};

void options_release(struct options *o);

/* The demangler of the names a reader demangles as it reads them
 * (read_opts.demangle: IgProf's), NULL where they are kept as recorded:
 * --no-demangle, or -b, whose binaries name the functions first. */
typedef char *read_demangler(const char *name);
read_demangler *options_read_demangler(const struct options *o);

enum options_result { OPTIONS_OK, OPTIONS_EXIT_OK, OPTIONS_USAGE };

/*
 * Parse argv into o. OPTIONS_EXIT_OK: --help or --version was printed to
 * out. OPTIONS_USAGE: a usage error was reported.
 */
enum options_result options_parse(struct options *o, int argc, char **argv,
				  FILE *out);

#endif
