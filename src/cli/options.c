/*
 * The command line: every option parsed into struct options, checked
 * against the others, and --help and --version.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/time_slice.h"
#include "base/xalloc.h"
#include "options.h"
#include "option_guess.h"
#include "symtab/symtab.h"

#define CGANALYZE_VERSION "0.1"

static const char usage_text[] =
"Usage: cganalyze [OPTION]... PROFILE...\n"
"Read a profile and print a flat profile and a gprof-style call graph,\n"
"in the profile's own events (Ir, Dr, D1mr, ... or ticks).\n"
"\n"
"PROFILE is a Callgrind-format file (valgrind's callgrind and cachegrind,\n"
"Xdebug, pprof -callgrind, ...), an IgProf profile, gprof's gmon.out\n"
"(GNU or BSD format; give the program with -b), Linux perf's perf.data\n"
"(perf record -g or --call-graph dwarf, a file or -o - pipe output), a\n"
"gperftools CPU or heap profile (CPUPROFILE=, HEAPPROFILE=) or a pprof\n"
"profile.proto (Go's runtime/pprof, async-profiler, ...), plain, gzip\n"
"or bzip2 compressed; the format is found from the content.\n"
"\"-\" reads standard input. Several profiles of one format are added\n"
"together (threads, parts, runs).\n"
"\n"
"Listings:\n"
"  -p, --flat-profile[=SPEC]  print the flat profile (and no call graph\n"
"                         unless -q asks for it); with SPEC, only the\n"
"                         functions SPEC names (repeatable)\n"
"  -P, --no-flat-profile[=SPEC]  no flat profile; with SPEC, the flat\n"
"                         profile leaves out what SPEC names\n"
"  -q, --graph[=SPEC]     print the call graph (and no flat profile unless\n"
"                         -p asks for it); with SPEC, only the entries of\n"
"                         the functions SPEC names and of those they call\n"
"  -Q, --no-graph[=SPEC]  no call graph; with SPEC, the call graph leaves\n"
"                         out the entries SPEC names (a left-out entry's\n"
"                         index is shown as (N))\n"
"  -k, --delete-arcs=FROM/TO  delete the calls from functions FROM names to\n"
"                         functions TO names before the analysis: their\n"
"                         cost flows to no caller ('*/f': f's cost stays\n"
"                         out of every caller's). FROM or TO may hold a\n"
"                         path (-k src/a.c:f/g): of the ways to split at a\n"
"                         '/', the first with such calls is taken\n"
"      SPEC is gprof's: NAME (a function, or every function of a file or\n"
"      object), FILE:FUNC or FILE:LINE; a name may be a glob ('std::*'),\n"
"      and fib names valgrind's recursion levels fib'2, fib'3 too.\n"
"      Short options take it attached (-pmain). What -p or -q names is\n"
"      listed even if -P or -Q leaves it out. Percentages stay of the\n"
"      whole profile. -p/-P SPEC choose for --annotate and --disasm too\n"
"      (what -p names is listed whatever its cost, without --threshold).\n"
"      --json             print the whole analysis as one JSON document\n"
"      --output=FORMAT    text (the default), json (as --json), callgrind:\n"
"                         the profile (every input, summed and resolved) as\n"
"                         one Callgrind file for callgrind_annotate and\n"
"                         KCachegrind, folded: collapsed stacks for flame\n"
"                         graph tools (estimated from the arcs for Callgrind\n"
"                         and gmon.out), html: one self-contained report to\n"
"                         open in a browser, or pprof: a gzip'd\n"
"                         profile.proto for pprof (html and pprof with\n"
"                         -o FILE or to a pipe, not to a terminal)\n"
"  -o, --output-file=FILE write the output to FILE instead of standard output\n"
"                         (-o - is standard output)\n"
"      --brief            leave out the explanations under the listings\n"
"      --no-digit-groups  print counts as 8800280, not 8,800,280 (for scripts)\n"
"      --short-names      shorten long C++ names in the text listings: template\n"
"                         arguments and parameter lists as <...> and (...),\n"
"                         as far as names stay distinct (as --dot does)\n"
"      --leaks            list IgProf's leak records (resources still held\n"
"                         at exit), largest first; only them unless -p or -q\n"
"      --tree             print the call tree from the roots down, one line\n"
"                         per call path, indented under its caller, the\n"
"                         heaviest first: total and self cost in percent of\n"
"                         the total and as numbers (paths below --threshold\n"
"                         are counted, not shown); only it unless -p or -q.\n"
"                         Exact for IgProf, perf.data, gperftools and pprof,\n"
"                         estimated from the call arcs for Callgrind and\n"
"                         gmon.out\n"
"\n"
"Transforms (in the order given, for every listing and output):\n"
"      --focus=GLOB       keep only the call stacks through a function GLOB\n"
"                         names (as -p names it), each cut to start at its\n"
"                         outermost such frame: the total becomes its\n"
"                         inclusive cost\n"
"      --ignore=GLOB      drop the call stacks through a function GLOB\n"
"                         names: the total drops by its inclusive cost\n"
"      --hide=GLOB        take the frames of the functions GLOB names out\n"
"                         of every stack: their cost goes to their caller,\n"
"                         their callees become its callees\n"
"      --fold-recursion   count recursion levels as their function: fib'2\n"
"                         is fib (valgrind --separate-recs names), and\n"
"                         fib > fib > fib in a stack is one fib\n"
"      Each may be given several times. GLOB may be obj:GLOB or file:GLOB,\n"
"      the functions of an object or of a source file. Every listing is\n"
"      then made from the stacks left; the first line (and --json's\n"
"      \"transforms\") says what share of the total is in view. A profile\n"
"      without stacks (Callgrind, gmon.out) is transformed on the paths\n"
"      the flame graph estimates from its call arcs, and says so.\n"
"\n"
"Costs:\n"
"      --sort=EVENT       rank by EVENT (default: the first event)\n"
"      --show=EV1,EV2     events shown in the flat profile (default: all)\n"
"      --counter=NAME     IgProf: rank by counter NAME (PERF_TICKS, MEM_TOTAL,\n"
"                         MEM_LIVE, ...; default: the first in the file);\n"
"                         call counts are its count field\n"
"      --no-filter        IgProf: keep the frames folded into their callers\n"
"                         by default (allocators for memory counters,\n"
"                         IgProf's own), as igprof-analyse -nf does\n"
"      --threshold=PCT    leave out entries below PCT percent of the total\n"
"                         (flat profile: self cost; call graph and\n"
"                         --tree: total; --dot, --svg: inclusive, as\n"
"                         --node-threshold; --output=html: self or\n"
"                         inclusive, with callers and callees);\n"
"                         a line counts them. Default 0.5 in the text\n"
"                         listings and the report (none with a -p/-q SPEC\n"
"                         or gmon.out); --threshold=0 lists everything\n"
"\n"
"Reading:\n"
"      --part=N           read only part N of multi-part profiles (the\n"
"                         'part:' number; default: all parts, summed;\n"
"                         --parts lists them)\n"
"      --sum[=FILE]       gmon.out input: also write the summed profile to\n"
"                         FILE (default gmon.sum) in gmon.out format, as\n"
"                         gprof -s does\n"
"      --lenient          read on past an undefined compressed name id\n"
"                         (named \"(undefined id N)\") and past extra costs\n"
"                         on a cost line, with a warning; by default both\n"
"                         are errors\n"
"      --no-progress      no progress line while a profile loads (by\n"
"                         default it is shown on standard error when that\n"
"                         is a terminal and the load takes over a second)\n"
"\n"
"Symbols (the binary the profile was taken from):\n"
"  -b, --binary=FILE      resolve addresses against FILE (an executable or\n"
"                         shared object; repeat for each object). It names\n"
"                         code the profile knows only by address, fills in\n"
"                         files and lines, and is checked against the\n"
"                         profile's addresses. It applies to the object of\n"
"                         its file name; -b OBJECT=FILE names the object\n"
"                         (a path or a file name) when the names differ\n"
"      --load-offset=ADDR the object was loaded ADDR above its link-time\n"
"                         address (default: found by matching function\n"
"                         names with the symbol table)\n"
"      --debug-dir=DIR    look for separate debug files under DIR (default\n"
"                         /usr/lib/debug, where symbols are looked for after\n"
"                         DIR too)\n"
"      --pid=PID[,PID...] perf.data: only the samples of these processes;\n"
"                         Callgrind: only the parts of these (pid:);\n"
"                         IgProf: only the profiles of these (P=(ID=))\n"
"      --tid=TID[,TID...] perf.data: only the samples of these threads;\n"
"                         Callgrind: only the parts of these (thread:,\n"
"                         valgrind's thread number, 1 the main thread:\n"
"                         run it with --separate-threads=yes)\n"
"      --comm=NAME[,NAME...]  perf.data: only the samples of threads of\n"
"                         this command name (as ps shows it) at the time\n"
"      --time=START,END   perf.data: only the samples recorded from START to\n"
"                         END, as perf report's --time: seconds as perf\n"
"                         script prints the timestamps (1234.5,1235);\n"
"                         +SECONDS counts from the first sample (+0.5,+2);\n"
"                         either end may be empty; several ranges are\n"
"                         separated by spaces. Also A%-B% (10%-20%) and\n"
"                         P%/N (10%/2: the 2nd tenth) of the time from the\n"
"                         first sample to the last, several with commas\n"
"      --threads          perf.data: list the threads (pid, tid, command\n"
"                         name) with their samples and costs, as perf\n"
"                         report --sort pid -n, and each process's sum;\n"
"                         Callgrind, IgProf: each thread's and process's\n"
"                         totals, from the parts' pid: and thread:\n"
"      --parts            Callgrind, IgProf: list the parts read in the\n"
"                         order dumped (process, part number, thread):\n"
"                         basic blocks run, totals, trigger, file\n"
"      --max-stack=N      perf.data: use the N innermost frames of each\n"
"                         sample's stack, as perf report's --max-stack\n"
"                         (default: all, up to the recording's limit)\n"
"      --sysroot=DIR      perf.data, gperftools: look for the recorded objects\n"
"                         under DIR (a copy of the recording machine's files;\n"
"                         its build-id cache DIR/.debug, as perf's --symfs)\n"
"      --kallsyms=FILE    perf.data: the kernel's symbols, a copy of the\n"
"                         recording machine's /proc/kallsyms (default: this\n"
"                         machine's, when the recording was made on its\n"
"                         running kernel, else the recorded kernel's copy\n"
"                         in perf's build-id cache, ~/.debug)\n"
"      --no-demangle      show C++ and Rust names as the symbol table (or an\n"
"                         IgProf profile) has them\n"
"      --force-binary     use a -b binary that does not match the profile\n"
"                         (another build), with a warning\n"
"      --inlined=WHERE    charge inlined code to the function it was inlined\n"
"                         into (caller, the default) or to the inlined\n"
"                         function (callee); needs instruction addresses\n"
"                         in the profile (valgrind --dump-instr=yes);\n"
"                         on a perf.data, inlined frames join the stacks\n"
"      --resolve          print where each address is, as addr2line -f -p -a\n"
"                         does: cganalyze --resolve -b FILE [ADDR...]\n"
"                         (addresses from standard input when none given)\n"
"      --inlines          with --resolve: each inlined frame's caller too,\n"
"                         as addr2line -i\n"
"\n"
"Annotated listings (alone, unless -p or -q asks for more):\n"
"      --annotate[=WHAT]  source files with each line's cost, and under a\n"
"                         line that calls, each callee's calls and\n"
"                         inclusive cost; WHAT is a file or a function\n"
"                         (default: every file with at least the\n"
"                         --threshold of the total, 1% if not given,\n"
"                         hottest first)\n"
"      --context=N        lines shown around hot lines (default 8)\n"
"  -I, --include=DIR      look for sources under DIR too (repeatable)\n"
"      --source-map=OLD=NEW  a source path starting with OLD is looked for\n"
"                         starting with NEW (profiles from another machine)\n"
"      --inline-calls     with -b: cost of inlined code also at the line\n"
"                         of the caller it was inlined into\n"
"      --disasm[=FUNC]    the machine code of FUNC (a name or a glob;\n"
"                         default: the functions with at least the\n"
"                         threshold) with each instruction's cost, calls\n"
"                         and jumps (needs valgrind --dump-instr=yes,\n"
"                         and --collect-jumps=yes for jumps); from -b, or\n"
"                         without it the object file the profile records\n"
"\n"
"Call graph picture (Graphviz):\n"
"      --dot              print the call graph in Graphviz's DOT language,\n"
"                         alone: a node per function (inclusive and self\n"
"                         cost in percent, calls), coloured from blue\n"
"                         (cold) to red (hot) by inclusive cost, an edge\n"
"                         per call arc (calls, inclusive cost), cycles as\n"
"                         clusters\n"
"      --svg=FILE         draw that graph into FILE with Graphviz's dot\n"
"                         (alone, unless -p, -q or --json asks for more)\n"
"      --node-threshold=PCT  leave out functions below PCT percent of the\n"
"                         total, inclusive (default: --threshold's PCT,\n"
"                         else 0.5)\n"
"      --edge-threshold=PCT  leave out call arcs below PCT percent\n"
"                         (default 0.1, or the node threshold if lower)\n"
"\n"
"Comparing two profiles (cganalyze --diff [OPTION]... BASE NEW):\n"
"      --diff             per-function changes of self and inclusive cost\n"
"                         from BASE to NEW in one event (--sort's, default\n"
"                         BASE's first), largest change first (--json: as\n"
"                         JSON; --threshold=PCT: changes of at least PCT\n"
"                         percent of BASE's total; --output=html -o FILE:\n"
"                         a report of the change, with a differential\n"
"                         flame graph). --pid, --tid, --comm and --time\n"
"                         select both perf.data's samples. To compare sums\n"
"                         of several files, write each sum with\n"
"                         --output=callgrind -o FILE first\n"
"      --diff-lines       also each source line's change, under the first\n"
"                         10 functions (needs line positions)\n"
"      --strip-path-prefix=P  match files and objects without the leading\n"
"                         P (repeatable: the first that fits is taken off),\n"
"                         for profiles of two checkouts or machines; with\n"
"                         --fold-recursion fib'2 is fib on both sides\n"
"\n"
"  -h, --help             print this help and exit\n"
"  -V, --version          print the version and exit\n"
"\n"
"Exit status: 0 on success, 1 when an input cannot be read, 2 on a usage\n"
"error.\n";

enum {
	OPT_JSON = 256,
	OPT_BRIEF,
	OPT_SORT,
	OPT_SHOW,
	OPT_THRESHOLD,
	OPT_PART,
	OPT_FOLD,
	OPT_LENIENT,
	OPT_NO_DEMANGLE,
	OPT_NO_DIGIT_GROUPS,
	OPT_SHORT_NAMES,
	OPT_FORCE_BINARY,
	OPT_LOAD_OFFSET,
	OPT_DEBUG_DIR,
	OPT_KALLSYMS,
	OPT_SYSROOT,
	OPT_PID,
	OPT_TID,
	OPT_COMM,
	OPT_TIME,
	OPT_THREADS,
	OPT_PARTS,
	OPT_MAX_STACK,
	OPT_INLINED,
	OPT_RESOLVE,
	OPT_INLINES,
	OPT_ANNOTATE,
	OPT_CONTEXT,
	OPT_INLINE_CALLS,
	OPT_SOURCE_MAP,
	OPT_DISASM,
	OPT_COUNTER,
	OPT_LEAKS,
	OPT_NO_FILTER,
	OPT_SUM,
	OPT_NO_PROGRESS,
	OPT_DOT,
	OPT_SVG,
	OPT_NODE_THRESHOLD,
	OPT_EDGE_THRESHOLD,
	OPT_OUTPUT,
	OPT_DIFF,
	OPT_DIFF_LINES,
	OPT_STRIP_PREFIX,
	OPT_FOCUS,
	OPT_IGNORE,
	OPT_HIDE,
	OPT_TREE,
};

static const struct option long_options[] = {
	{ "flat-profile", optional_argument, NULL, 'p' },
	{ "no-flat-profile", optional_argument, NULL, 'P' },
	{ "graph", optional_argument, NULL, 'q' },
	{ "no-graph", optional_argument, NULL, 'Q' },
	{ "delete-arcs", required_argument, NULL, 'k' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "output-file", required_argument, NULL, 'o' },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "diff-lines", no_argument, NULL, OPT_DIFF_LINES },
	{ "strip-path-prefix", required_argument, NULL, OPT_STRIP_PREFIX },
	{ "brief", no_argument, NULL, OPT_BRIEF },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "show", required_argument, NULL, OPT_SHOW },
	{ "counter", required_argument, NULL, OPT_COUNTER },
	{ "leaks", no_argument, NULL, OPT_LEAKS },
	{ "no-filter", no_argument, NULL, OPT_NO_FILTER },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "part", required_argument, NULL, OPT_PART },
	{ "fold-recursion", no_argument, NULL, OPT_FOLD },
	{ "focus", required_argument, NULL, OPT_FOCUS },
	{ "ignore", required_argument, NULL, OPT_IGNORE },
	{ "hide", required_argument, NULL, OPT_HIDE },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "lenient", no_argument, NULL, OPT_LENIENT },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "sum", optional_argument, NULL, OPT_SUM },
	{ "binary", required_argument, NULL, 'b' },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "no-digit-groups", no_argument, NULL, OPT_NO_DIGIT_GROUPS },
	{ "short-names", no_argument, NULL, OPT_SHORT_NAMES },
	{ "force-binary", no_argument, NULL, OPT_FORCE_BINARY },
	{ "load-offset", required_argument, NULL, OPT_LOAD_OFFSET },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "parts", no_argument, NULL, OPT_PARTS },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "inlined", required_argument, NULL, OPT_INLINED },
	{ "resolve", no_argument, NULL, OPT_RESOLVE },
	{ "inlines", no_argument, NULL, OPT_INLINES },
	{ "annotate", optional_argument, NULL, OPT_ANNOTATE },
	{ "context", required_argument, NULL, OPT_CONTEXT },
	{ "inline-calls", no_argument, NULL, OPT_INLINE_CALLS },
	{ "include", required_argument, NULL, 'I' },
	{ "source-map", required_argument, NULL, OPT_SOURCE_MAP },
	{ "disasm", optional_argument, NULL, OPT_DISASM },
	{ "dot", no_argument, NULL, OPT_DOT },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "node-threshold", required_argument, NULL, OPT_NODE_THRESHOLD },
	{ "edge-threshold", required_argument, NULL, OPT_EDGE_THRESHOLD },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* ':' first: a missing argument is told apart from an unknown option */
#define SHORT_OPTIONS ":p::P::q::Q::k:hVb:I:o:"

static int usage_error(const char *fmt, ...) CGA_PRINTF(1, 2);

static int usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error("%s (try 'cganalyze --help')", msg);
	return OPTIONS_USAGE;
}

/* strtoull() skips blanks and takes a sign: " -1" is ULLONG_MAX, "+5" is 5.
 * The numbers of the command line start with a digit. */
static bool starts_digit(const char *s)
{
	return *s >= '0' && *s <= '9';
}

/* A comma-separated list of process or thread ids, added to *ids:
 * 0, or OPTIONS_USAGE after saying what is wrong. */
static int parse_ids(const char *arg, const char *opt, uint32_t **ids,
		     size_t *n)
{
	const char *s = arg;

	do {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno || end == s || (*end && *end != ',') || !starts_digit(s) ||
		    v > UINT32_MAX)
			return usage_error("%s wants numbers separated by "
					   "commas, not '%s'", opt, arg);
		*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = (uint32_t)v;
		s = *end ? end + 1 : end;
	} while (*s);
	return 0;
}

/*
 * getopt_long() said '?'. optopt is 0 for an unknown long option, a
 * long option's code for one given an argument it does not take (a
 * short letter when it has one: "--graph=x" says 'q'), and an unknown
 * short letter otherwise. Only for long options is `arg`
 * (argv[optind - 1]) the offending word: in "-zp", optind has not
 * moved past it yet.
 */
static int bad_option(const char *arg)
{
	bool known_short = optopt > ' ' && optopt < 127 && optopt != ':' &&
			   strchr(SHORT_OPTIONS, optopt);

	if (optopt == 0) {
		char guess[256];

		if (option_guess(long_options, arg, guess, sizeof(guess)))
			return usage_error("option '%.*s' %s%s",
					   (int)strcspn(arg, "="), arg,
					   strncmp(guess, "did", 3) ? ""
								   : "is unknown: ",
					   guess);
		return usage_error("unknown option '%s'", arg);
	}
	if (optopt >= 256 || known_short)
		return usage_error("option '%.*s' takes no argument",
				   (int)strcspn(arg, "="), arg);
	return usage_error("unknown option '-%c'", optopt);
}

/* A comma-separated list with at least one name in it. */
static bool has_name(const char *list)
{
	for (; *list; list++)
		if (*list != ',')
			return true;
	return false;
}

/*
 * A percentage from 0 to 100 written in decimal: digits with at most one
 * '.' among or after them ("1", "0.5", "2."). strtod() alone would also
 * take "0x10" (16), "1e1", " 5", "+5", "inf" and "nan".
 */
static bool parse_percent(const char *arg, double *out)
{
	size_t digits = strspn(arg, "0123456789");
	const char *p = arg + digits;
	char *end;

	if (*p == '.') {
		p++;
		digits += strspn(p, "0123456789");
		p += strspn(p, "0123456789");
	}
	if (!digits || *p)
		return false;
	errno = 0;
	*out = strtod(arg, &end);
	return !errno && !*end && *out >= 0 && *out <= 100;
}

void options_release(struct options *o)
{
	for (size_t i = 0; i < o->nspecs; i++)
		symspec_opt_release(&o->specs[i]);
	free(o->specs);
	o->specs = NULL;
	o->nspecs = 0;
	for (int i = 0; i < o->nbinaries && o->binary_objects; i++)
		free(o->binary_objects[i]);
	free(o->binary_objects);
	o->binary_objects = NULL;
	free(o->binaries);
	free(o->source_dirs);
	free(o->source_maps);
	free(o->strip_prefixes);
	o->strip_prefixes = NULL;
	free(o->pids);
	free(o->tids);
	free(o->time);
	free(o->transforms);
	o->transforms = NULL;
	o->ntransforms = 0;
	o->pids = o->tids = NULL;
	o->time = NULL;
	o->binaries = NULL;
	o->source_dirs = NULL;
	o->source_maps = NULL;
}

static void add_transform(struct options *o, enum transform_kind kind,
			  const char *glob)
{
	o->transforms = xreallocarray(o->transforms, o->ntransforms + 1,
				      sizeof(*o->transforms));
	o->transforms[o->ntransforms].kind = kind;
	o->transforms[o->ntransforms++].glob = glob;
}

/* -p/-P/-q/-Q with SPEC, or -k: the symspec, or a usage error. */
static int add_spec(struct options *o, enum symspec_use use, int letter,
		    const char *arg)
{
	struct symspec_opt *so;
	const char *why = "";
	int r;

	o->specs = xreallocarray(o->specs, o->nspecs + 1, sizeof(*o->specs));
	so = &o->specs[o->nspecs];
	memset(so, 0, sizeof(*so));
	so->use = use;
	r = use == SPEC_ARC ? symspec_parse_arcs(arg, so, &why)
			    : symspec_parse(arg, &so->spec, &why);
	if (r < 0)
		return usage_error("-%c wants %s, not '%s': %s", letter,
				   use == SPEC_ARC ? "FROM/TO (two symspecs)"
						   : "a symspec (NAME, FILE:FUNC or FILE:LINE)",
				   arg, why);
	o->nspecs++;
	return 0;
}


/*
 * valgrind --separate-threads=yes leaves the file it was given empty
 * beside FILE-01, FILE-02, ...; "cganalyze callgrind.out.*" names it with
 * them, and the empty one stopped the run ("the file is empty"). An empty
 * operand whose FILE-01 is an operand too is left out, with a note.
 */
static void drop_thread_stubs(struct options *o)
{
	int kept = 0;

	for (int i = 0; i < o->ninputs; i++) {
		const char *f = o->inputs[i];
		size_t len = strlen(f);
		struct stat sb;
		bool stub = false;

		if (stat(f, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0)
			for (int k = 0; k < o->ninputs && !stub; k++)
				stub = strlen(o->inputs[k]) == len + 3 &&
				       !strncmp(o->inputs[k], f, len) &&
				       !strcmp(o->inputs[k] + len, "-01");
		if (stub)
			note("%s: empty, as valgrind --separate-threads=yes "
			     "leaves it: its threads' profiles (%s-01, ...) are "
			     "read", f, f);
		else
			o->inputs[kept++] = o->inputs[i];
	}
	o->ninputs = kept;
}

enum options_result options_parse(struct options *o, int argc, char **argv,
				  FILE *out)
{
	/* gprof's: -p/-q (with or without SPEC) and -PSPEC/-QSPEC ask for
	 * a listing, a bare -P/-Q turns it off */
	bool flat_on = false, flat_off = false, graph_on = false,
	     graph_off = false;
	bool node_given = false, edge_given = false;
	/* the option that chose o->mode: two that choose differently are
	 * a mistake to name, not one to drop for the last */
	const char *mode_by = NULL;
	enum output_mode mode_was;
	char mode_buf[2][48];
	int mode_nbuf = 0;
	int c;

	memset(o, 0, sizeof(*o));
	o->context = 8;
	o->node_threshold = 0.5;	/* gprof2dot's defaults */
	o->edge_threshold = 0.1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, SHORT_OPTIONS, long_options,
				NULL)) != -1) {
		char *end;

		switch (c) {
		case 'p':
		case 'P':
		case 'q':
		case 'Q': {
			bool flat = c == 'p' || c == 'P';
			bool on = c == 'p' || c == 'q' || optarg;

			if (!optarg)
				o->bare_option = c == 'p' ? "-p" : c == 'P' ? "-P"
						: c == 'q' ? "-q" : "-Q";
			if (optarg && add_spec(o, c == 'p' ? SPEC_FLAT_ONLY
						: c == 'P' ? SPEC_FLAT_NOT
						: c == 'q' ? SPEC_GRAPH_ONLY
						: SPEC_GRAPH_NOT, c, optarg) != OPTIONS_OK)
				return OPTIONS_USAGE;
			*(flat ? (on ? &flat_on : &flat_off)
			       : (on ? &graph_on : &graph_off)) = true;
			break;
		}
		case 'k':
			if (add_spec(o, SPEC_ARC, 'k', optarg) != OPTIONS_OK)
				return OPTIONS_USAGE;
			break;
		case OPT_JSON:
			mode_was = o->mode;
			o->mode = OUT_JSON;
			if (mode_by && mode_was != o->mode)
				return usage_error("'%s' and '--json' both say "
						   "what to print: give one",
						   mode_by);
			mode_by = "--json";
			break;
		case OPT_OUTPUT:
			mode_was = o->mode;
			if (!strcmp(optarg, "text"))
				o->mode = OUT_TEXT;
			else if (!strcmp(optarg, "json"))
				o->mode = OUT_JSON;
			else if (!strcmp(optarg, "callgrind"))
				o->mode = OUT_CALLGRIND;
			else if (!strcmp(optarg, "folded"))
				o->mode = OUT_FOLDED;
			else if (!strcmp(optarg, "html"))
				o->mode = OUT_HTML;
			else if (!strcmp(optarg, "pprof"))
				o->mode = OUT_PPROF;
			else if (!strcmp(optarg, "dot") || !strcmp(optarg, "svg"))
				return usage_error("--output=%s: the call graph's picture is --dot (Graphviz's text) or --svg FILE (drawn by Graphviz's dot)",
						   optarg);
			else
				return usage_error("--output wants 'text', 'json', 'callgrind', 'folded', 'html' or 'pprof', not '%s'",
						   optarg);
			snprintf(mode_buf[mode_nbuf], sizeof(mode_buf[0]),
				 "--output=%s", optarg);
			if (mode_by && mode_was != o->mode)
				return usage_error("'%s' and '%s' both say what "
						   "to print: give one", mode_by,
						   mode_buf[mode_nbuf]);
			mode_by = mode_buf[mode_nbuf];
			mode_nbuf ^= 1;
			break;
		case 'o':
			if (!*optarg)
				return usage_error("-o wants a file name");
			/* "-" is standard output, as an input "-" is standard
			 * input (a file named so: -o ./-) */
			o->output_file = strcmp(optarg, "-") ? optarg : NULL;
			break;
		case OPT_DIFF:
			o->diff = true;
			break;
		case OPT_DIFF_LINES:
			o->diff_lines = true;
			break;
		case OPT_STRIP_PREFIX:
			o->strip_prefixes = xreallocarray(o->strip_prefixes,
							  o->nstrip_prefixes + 1,
							  sizeof(*o->strip_prefixes));
			o->strip_prefixes[o->nstrip_prefixes++] = optarg;
			break;
		case OPT_BRIEF:
			o->brief = true;
			break;
		case OPT_SORT:
			o->sort_event = optarg;
			break;
		case OPT_SHOW:
			if (!has_name(optarg))
				return usage_error("--show wants event names separated by commas, not '%s'",
						   optarg);
			o->show = optarg;
			break;
		case OPT_COUNTER:
			o->counter = optarg;
			break;
		case OPT_LEAKS:
			o->leaks = true;
			break;
		case OPT_NO_FILTER:
			o->no_filter = true;
			break;
		case OPT_THRESHOLD:
			o->threshold_given = true;
			if (!parse_percent(optarg, &o->threshold))
				return usage_error("--threshold wants a percentage from 0 to 100 in decimal (0.5, 2), not '%s'",
						   optarg);
			break;
		case OPT_PART:
			errno = 0;
			o->part = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || !o->part ||
			    !starts_digit(optarg))
				return usage_error("--part wants a part number from 1 up, not '%s'",
						   optarg);
			break;
		case OPT_FOLD:
			o->fold_recursion = true;
			add_transform(o, TRANSFORM_FOLD, NULL);
			break;
		case OPT_FOCUS:
		case OPT_IGNORE:
		case OPT_HIDE:
			if (!*optarg)
				return usage_error("--%s wants a function name or glob",
						   c == OPT_FOCUS ? "focus"
						   : c == OPT_IGNORE ? "ignore" : "hide");
			add_transform(o, c == OPT_FOCUS ? TRANSFORM_FOCUS
					 : c == OPT_IGNORE ? TRANSFORM_IGNORE
					 : TRANSFORM_HIDE, optarg);
			break;
		case OPT_TREE:
			o->tree = true;
			break;
		case OPT_LENIENT:
			o->lenient = true;
			break;
		case OPT_NO_PROGRESS:
			o->no_progress = true;
			break;
		case OPT_SUM:
			o->sum = optarg ? optarg : "gmon.sum";
			if (!*o->sum)
				return usage_error("--sum wants a file name");
			break;
		case 'b': {
			/* OBJECT=FILE, unless a file has the whole name */
			const char *eq = strrchr(optarg, '=');
			struct stat sb;
			char *object = NULL;

			if (eq && eq > optarg && eq[1] && stat(optarg, &sb) != 0) {
				object = xmalloc((size_t)(eq - optarg) + 1);
				memcpy(object, optarg, (size_t)(eq - optarg));
				object[eq - optarg] = '\0';
				optarg = (char *)eq + 1;
			}
			o->binaries = xreallocarray(o->binaries, (size_t)o->nbinaries + 1,
						    sizeof(*o->binaries));
			o->binary_objects = xreallocarray(o->binary_objects,
							  (size_t)o->nbinaries + 1,
							  sizeof(*o->binary_objects));
			o->binary_objects[o->nbinaries] = object;
			o->binaries[o->nbinaries++] = optarg;
			break;
		}
		case OPT_NO_DEMANGLE:
			o->no_demangle = true;
			break;
		case OPT_NO_DIGIT_GROUPS:
			o->no_digit_groups = true;
			break;
		case OPT_SHORT_NAMES:
			o->short_names = true;
			break;
		case OPT_FORCE_BINARY:
			o->force_binary = true;
			break;
		case OPT_LOAD_OFFSET:
			errno = 0;
			o->load_offset = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || !starts_digit(optarg))
				return usage_error("--load-offset wants an address (0x... or decimal), not '%s'",
						   optarg);
			o->have_load_offset = true;
			break;
		case OPT_DEBUG_DIR:
			o->debug_dir = optarg;
			break;
		case OPT_KALLSYMS:
			o->kallsyms = optarg;
			break;
		case OPT_SYSROOT:
			o->sysroot = optarg;
			break;
		case OPT_PID:
			if (parse_ids(optarg, "--pid", &o->pids, &o->npids))
				return OPTIONS_USAGE;
			break;
		case OPT_TID:
			if (parse_ids(optarg, "--tid", &o->tids, &o->ntids))
				return OPTIONS_USAGE;
			break;
		case OPT_COMM:
			o->comms = optarg;
			break;
		case OPT_TIME: {
			char why[600];

			if (!o->time)
				o->time = xmalloc(sizeof(*o->time));
			if (time_spec_parse(optarg, o->time, why, sizeof(why)))
				return usage_error("%s", why);
			break;
		}
		case OPT_THREADS:
			o->threads = true;
			break;
		case OPT_PARTS:
			o->parts = true;
			break;
		case OPT_MAX_STACK: {
			char *stop;
			unsigned long long v;

			errno = 0;
			v = strtoull(optarg, &stop, 10);
			if (errno || stop == optarg || *stop || !starts_digit(optarg) ||
			    v == 0 || v > UINT32_MAX)
				return usage_error("--max-stack wants a number of "
						   "frames from 1 on, not '%s'",
						   optarg);
			o->max_stack = (uint32_t)v;
			break;
		}
		case OPT_INLINED:
			if (!strcmp(optarg, "callee"))
				o->inlined_callee = true;
			else if (!strcmp(optarg, "caller"))
				o->inlined_callee = false;
			else
				return usage_error("--inlined wants 'caller' or 'callee', not '%s'",
						   optarg);
			break;
		case OPT_RESOLVE:
			o->resolve_mode = true;
			break;
		case OPT_INLINES:
			o->inlines = true;
			break;
		case OPT_ANNOTATE:
			o->annotate = true;
			o->annotate_what = optarg && *optarg ? optarg : NULL;
			if (!optarg)
				o->bare_option = "--annotate";
			break;
		case OPT_CONTEXT: {
			unsigned long long n;

			errno = 0;
			n = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || !starts_digit(optarg) ||
			    n > 100000)
				return usage_error("--context wants a number of lines from 0 to 100000, not '%s'",
						   optarg);
			o->context = (uint32_t)n;
			break;
		}
		case OPT_INLINE_CALLS:
			o->inline_calls = true;
			break;
		case 'I':
			o->source_dirs = xreallocarray(o->source_dirs,
						       o->nsource_dirs + 1,
						       sizeof(*o->source_dirs));
			o->source_dirs[o->nsource_dirs++] = optarg;
			break;
		case OPT_SOURCE_MAP:
			o->source_maps = xreallocarray(o->source_maps,
						       o->nsource_maps + 1,
						       sizeof(*o->source_maps));
			if (source_map_parse(optarg,
					     &o->source_maps[o->nsource_maps]) < 0)
				return usage_error("--source-map wants OLD=NEW (a path prefix and its replacement), not '%s'",
						   optarg);
			o->nsource_maps++;
			break;
		case OPT_DISASM:
			o->disasm = true;
			o->disasm_what = optarg && *optarg ? optarg : NULL;
			if (!optarg)
				o->bare_option = "--disasm";
			break;
		case OPT_DOT:
			o->dot = true;
			break;
		case OPT_SVG:
			if (!*optarg)
				return usage_error("--svg wants a file name");
			o->svg = optarg;
			break;
		case OPT_NODE_THRESHOLD:
		case OPT_EDGE_THRESHOLD:
			if (!parse_percent(optarg, c == OPT_NODE_THRESHOLD
						   ? &o->node_threshold
						   : &o->edge_threshold))
				return usage_error("--%s-threshold wants a percentage from 0 to 100 in decimal (0.5, 2), not '%s'",
						   c == OPT_NODE_THRESHOLD ? "node" : "edge",
						   optarg);
			o->dot_threshold_given = true;
			*(c == OPT_NODE_THRESHOLD ? &node_given : &edge_given) = true;
			break;
		case 'h':
			fputs(usage_text, out);
			return OPTIONS_EXIT_OK;
		case 'V':
			fprintf(out, "cganalyze %s\n", CGANALYZE_VERSION);
			return OPTIONS_EXIT_OK;
		case ':':
			/* the option ended its word: optind is past it */
			if (strncmp(argv[optind - 1], "--", 2))
				return usage_error("option '-%c' needs an argument",
						   optopt);
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		case '?':
		default:
			return bad_option(argv[optind - 1]);
		}
	}
	if (o->resolve_mode) {
		if (o->nbinaries != 1)
			return usage_error("--resolve wants exactly one -b FILE");
		o->inputs = argv + optind;
		o->ninputs = argc - optind;
		return OPTIONS_OK;
	}
	if (o->inlines)
		return usage_error("--inlines goes with --resolve");
	if (o->inlined_callee && !o->nbinaries)
		return usage_error("--inlined=callee needs -b FILE");
	if (o->inline_calls && !o->nbinaries)
		return usage_error("--inline-calls needs -b FILE");
	if (o->dot && (o->mode == OUT_JSON || flat_on || graph_on ||
		       o->annotate || o->disasm || o->leaks))
		return usage_error("--dot prints the graph alone; it does not go with --json, -p, -q, --annotate, --disasm or --leaks (--svg=FILE does)");
	if (o->dot_threshold_given && !o->dot && !o->svg)
		return usage_error("--node-threshold and --edge-threshold go with --dot or --svg");
	/* --threshold leaves out call graph entries below PCT percent
	 * total: in the picture, functions below PCT inclusive, and no arc
	 * kept by a higher bar than they are (so that the functions shown
	 * stay joined); --node-threshold and --edge-threshold, when given,
	 * say otherwise */
	if (o->threshold_given && (o->dot || o->svg)) {
		if (!node_given)
			o->node_threshold = o->threshold;
		if (!edge_given && o->edge_threshold > o->node_threshold)
			o->edge_threshold = o->node_threshold;
	}
	if (o->tree && (o->mode != OUT_TEXT || o->dot))
		return usage_error("--tree is a text listing: it does not go with --json, --output=FORMAT or --dot");
	for (size_t i = 0; o->diff && i < o->ntransforms; i++)
		if (o->transforms[i].kind != TRANSFORM_FOLD)
			return usage_error("--diff compares two whole profiles: it does not go with --focus, --ignore or --hide");
	if (o->diff && o->tree)
		return usage_error("--diff prints only the differences: it does not go with --tree");
	/* --threads and --parts are listings of their own; --pid, --tid,
	 * --comm and --time select both profiles' samples or parts (diff.c) */
	if (o->diff && (o->threads || o->parts))
		return usage_error("--diff compares two profiles: it does not go with %s",
				   o->threads ? "--threads" : "--parts");
	if ((o->diff_lines || o->nstrip_prefixes) && !o->diff)
		return usage_error("--diff-lines and --strip-path-prefix go with --diff");
	/* not left out without a word: the page has no lines */
	if (o->diff_lines && o->mode == OUT_HTML)
		return usage_error("--diff-lines lists lines in the text and --json; "
				   "the diff report (--output=html) has functions only");
	if (o->diff) {
		if (o->mode == OUT_CALLGRIND || o->mode == OUT_FOLDED ||
		    o->mode == OUT_PPROF ||
		    o->nbinaries > 2 || flat_on ||
		    graph_on || flat_off || graph_off || o->dot || o->svg || o->annotate || o->disasm || o->leaks || o->sum ||
		    o->part || o->counter)
			return usage_error("--diff prints only the differences: it does not "
					   "go with -p, -q, --annotate, --disasm, --leaks, "
					   "--sum, --part, --counter, --output=callgrind, folded or pprof or "
					   "more than two -b (one for both profiles, or "
					   "BASE's then NEW's; write a summed profile with "
					   "--output=callgrind -o FILE first)");
		if (argc - optind != 2)
			return usage_error("--diff wants two profiles, BASE and NEW (%d given)",
					   argc - optind);
		o->inputs = argv + optind;
		o->ninputs = 2;
		return OPTIONS_OK;
	}
	if ((o->mode == OUT_CALLGRIND || o->mode == OUT_PPROF) &&
	    (flat_on || graph_on || o->annotate || o->disasm || o->leaks ||
	     o->threads || o->parts || o->dot || o->svg))
		return usage_error("--output=%s writes the profile itself, "
				   "without listings (-p, -q, --annotate, --disasm, --leaks, --threads, --parts, --dot, --svg)",
				   o->mode == OUT_PPROF ? "pprof" : "callgrind");
	if ((o->mode == OUT_FOLDED || o->mode == OUT_HTML) &&
	    (flat_on || graph_on || flat_off || graph_off || o->annotate ||
	     o->disasm || o->leaks || o->threads || o->parts || o->dot || o->svg))
		return usage_error("--output=%s writes the %s alone, without "
				   "-p, -q, --annotate, --disasm, --leaks, --threads, --parts, --dot or --svg",
				   o->mode == OUT_FOLDED ? "folded" : "html",
				   o->mode == OUT_FOLDED ? "stacks" : "report (which has every view)");
	if (optind >= argc)
		return usage_error("no profile given");
	/* the annotated listings, the leaks or the picture alone, unless -p
	 * or -q asks for more; a bare -P or -Q wins */
	o->flat = flat_on;
	o->graph = graph_on;
	if (!flat_on && !graph_on && !o->annotate && !o->disasm && !o->leaks &&
	    !o->dot && !o->svg && !o->tree && !o->threads && !o->parts)
		o->flat = o->graph = true;
	o->flat = o->flat && !flat_off;
	o->graph = o->graph && !graph_off;
	o->inputs = argv + optind;
	o->ninputs = argc - optind;
	drop_thread_stubs(o);
	return OPTIONS_OK;
}

read_demangler *options_read_demangler(const struct options *o)
{
	return o->no_demangle || o->nbinaries ? NULL : symtab_demangle_mangled;
}
