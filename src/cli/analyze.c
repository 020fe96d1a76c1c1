/*
 * The analysis command: the pipeline from options to listings, one
 * function per stage (load, choose the events, analyse, print), with
 * one struct run holding what the stages hand on and one place that
 * releases it.
 */
#include "analyze.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/diag_keep.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "cg/cg.h"
#include "code_positions.h"
#include "code_seek.h"
#include "hot_files.h"
#include "one_program.h"
#include "part_reads.h"
#include "task_check.h"
#include "print/annotate_data.h"
#include "print/arc_pin.h"
#include "print/arc_stacks.h"
#include "print/disasm_data.h"
#include "print/fmt.h"
#include "print/print.h"
#include "print/report_disasm.h"
#include "print/write_callgrind.h"
#include "print/write_pprof.h"
#include "print/write_gmon.h"
#include "read/read.h"
#include "resolve/demangle_names.h"
#include "resolve/perf_preload.h"
#include "resolve/resolve.h"
#include "select/selection.h"
#include "select/stack_transform.h"
#include "symtab/symtab.h"

/* Percent of the total below which the text listings leave an entry
 * out by default (counted in a line after the listing). */
#define DEFAULT_LISTING_THRESHOLD 0.5

/*
 * What one run holds, stage by stage. Every stage returns an exit
 * status (analyze_run()'s): 0 to go on.
 */
struct run {
	const struct options *o;
	struct symtab **st;			/* nbin, or NULL */
	int nbin;	/* -b's, or 1: the recorded object --disasm
			 * (or the report) took */
	struct resolve_report *reports;		/* one per binary */
	struct resolve_opts rso;
	struct profile p;
	struct sources sources;
	struct selection sel;
	struct cg cg;
	struct annotation ann;
	struct part_reads parts;	/* the report's threads and dumps */
	struct print_opts po;
	uint32_t *show;				/* po.show's array */
	/* --focus and the others: what is in force, and the totals before
	 * (po.transforms, po.totals_before) */
	char *transforms;
	uint64_t *totals_before;
	/* --output=html: the page begun once the call graph is ranked */
	struct html_begun *page;
	/* --output=html: the page's title, and the messages of the run,
	 * which the report shows too */
	char *title;
	char *messages;
};

static int find_event(const struct profile *p, const char *name, size_t len,
		      uint32_t *out)
{
	for (size_t e = 0; e < p->nevents; e++) {
		const char *n = profile_str(p, p->events[e].name);

		if (strlen(n) == len && !memcmp(n, name, len)) {
			*out = (uint32_t)e;
			return 0;
		}
	}
	return error("the profile has no event '%.*s' (it has: %s%s)", (int)len,
		     name, profile_str(p, p->events[0].name),
		     p->nevents > 1 ? ", ..." : "");
}

/* --counter: an event the profile has, or a usage error naming them all. */
static int find_counter(const struct profile *p, const char *name,
			uint32_t *out)
{
	char list[1024];
	size_t n = 0;

	for (size_t e = 0; e < p->nevents; e++) {
		const char *ev = profile_str(p, p->events[e].name);

		if (!strcmp(ev, name)) {
			*out = (uint32_t)e;
			return 0;
		}
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
					      e ? ", " : "", ev);
	}
	return error("the profile has no counter '%s' (it has: %s%s)", name,
		     list, n >= sizeof(list) ? "..." : "");
}

/* Events for --show: the list given, or all of them but a count of
 * the samples (pprof's "samples"), which the samples column of a
 * sampled profile shows already (go tool pprof -top shows one sample
 * type, and its samples as "Total samples"), unless it is the event
 * sorted by. */
static uint32_t *parse_show(const struct profile *p, const char *show,
			    uint32_t sort_event, size_t *n)
{
	uint32_t *ev = xcalloc(p->nevents + 1, sizeof(*ev));

	*n = 0;
	if (!show) {
		for (size_t e = 0; e < p->nevents; e++)
			if (!(p->sampled && p->events[e].sample_count &&
			      e != sort_event))
				ev[(*n)++] = (uint32_t)e;
		return ev;
	}
	while (*show) {
		const char *comma = strchr(show, ',');
		size_t len = comma ? (size_t)(comma - show) : strlen(show);
		uint32_t e;

		if (len) {
			if (find_event(p, show, len, &e) < 0) {
				free(ev);
				return NULL;
			}
			if (*n < p->nevents)
				ev[(*n)++] = e;
		}
		show += len + (comma ? 1 : 0);
	}
	return ev;
}

/* The newest modification time of the profiles read from files: a
 * source changed after it no longer matches the profile's lines. */
static time_t newest_mtime(const struct options *o)
{
	time_t newest = 0;

	for (int i = 0; i < o->ninputs; i++) {
		struct stat sb;

		if (strcmp(o->inputs[i], "-") && stat(o->inputs[i], &sb) == 0 &&
		    S_ISREG(sb.st_mode) && sb.st_mtime > newest)
			newest = sb.st_mtime;
	}
	return newest;
}

/* Operand i is no file (and not "-"), while an option that takes an
 * optional argument was given without one. */
static bool missing_operand(const struct options *o, int i)
{
	struct stat sb;

	return o->bare_option && strcmp(o->inputs[i], "-") &&
	       stat(o->inputs[i], &sb) != 0 && errno == ENOENT;
}

/* Whether pattern (a name or a glob) names a function of the profile. */
static bool names_a_function(const struct profile *p, const char *pattern)
{
	for (size_t f = 0; f < p->nfuncs; f++)
		if (!fnmatch(pattern, profile_str(p, p->funcs[f].name), 0))
			return true;
	return false;
}

/* gprof's options take their argument attached: say how. */
static int function_hint(const struct options *o, const char *name)
{
	const char *opt = o->bare_option;
	const char *longer = !strcmp(opt, "-p") ? "--flat-profile"
			     : !strcmp(opt, "-P") ? "--no-flat-profile"
			     : !strcmp(opt, "-q") ? "--graph"
			     : !strcmp(opt, "-Q") ? "--no-graph" : NULL;

	if (longer)
		error("cannot open '%s': there is no such file, but the profile "
		      "has a function of that name: %s takes its argument "
		      "attached, %s%s or %s=%s", name, opt, opt, name, longer,
		      name);
	else
		error("cannot open '%s': there is no such file, but the profile "
		      "has a function of that name: %s takes its argument "
		      "attached, %s=%s", name, opt, opt, name);
	return 2;
}

/*
 * --disasm without -b: the object the profile records for the code to
 * list, when that file is here, as perf annotate takes the recorded
 * path. The function --disasm=WHAT names (or the one of most self cost)
 * says which object; resolution then checks it matches, as for -b.
 * Returns 0 (r->st has it, r->nbin is 1), or -1 after saying what to
 * give. quiet (the report, which lists the code it can): -1 with
 * nothing said when the profile records no object that is here.
 */
static int recorded_binary(struct run *r, struct code_positions *cp,
			   bool quiet)
{
	const struct profile *p = &r->p;
	const char *what = r->o->disasm_what;
	uint32_t best = recorded_object_func(p, what);
	const char *path;
	struct stat sb;

	if (best == NO_ID)
		return quiet ? -1
			     : error("--disasm needs the binary: -b FILE (the "
				     "profile records no object%s)",
				     what ? " for that function" : "");
	path = profile_str(p, p->funcs[best].object);
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return quiet ? -1
			     : error("--disasm needs the binary: -b FILE (the "
				     "profile's '%s' is not here)", path);
	r->st = xcalloc(1, sizeof(*r->st));
	r->reports = xcalloc(1, sizeof(*r->reports));
	/* the report's binary may have been opened before the read */
	r->st[0] = code_positions_take(cp, path, &r->p.names);
	if (!r->st[0] && open_binary(r->o, &r->p.names, path, &r->st[0]) < 0) {
		/* said; the report goes on without the view */
		free(r->st);
		free(r->reports);
		r->st = NULL;
		r->reports = NULL;
		return -1;
	}
	r->nbin = 1;
	if (!quiet)
		note("no -b: '%s', the object the profile records, is the "
		     "binary (-b FILE gives another)", path);
	return 0;
}

/*
 * The report's own pick of the recorded object (recorded_binary(r,
 * true)), resolved against: when it is another build than the one
 * profiled, the report goes on without it, as without -b, and says why
 * its Disassembly is missing; the profile is untouched then (the match
 * is checked before anything is renamed). -1 only when resolution
 * failed otherwise.
 */
static int resolve_recorded_quietly(struct run *r)
{
	FILE *sink = diag_sink();
	FILE *quiet = fopen("/dev/null", "w");
	const char *path = r->st[0]->path;
	int ret;

	if (quiet)
		diag_set_sink(quiet);
	ret = resolve_profile(&r->p, r->st, 1, &r->rso, r->reports);
	if (quiet) {
		diag_set_sink(sink == stderr ? NULL : sink);
		fclose(quiet);
	}
	if (ret == 0) {
		note("no -b: '%s', the object the profile records, is the "
		     "binary of the report's Disassembly (-b FILE gives "
		     "another)", path);
		return 0;
	}
	warning("the report has no Disassembly: '%s', the object the profile "
		"records, is not the build that was profiled (-b FILE gives "
		"the one that was)", path);
	close_binaries(r->st, r->nbin);
	free(r->reports);
	r->st = NULL;
	r->reports = NULL;
	r->nbin = 0;
	return 0;
}

/* perf.data's recorded files that hold sampled code, after the -b
 * binaries: the listings of code list theirs too. */
static void add_recorded(struct run *r, struct perf_recorded *kept)
{
	size_t n = (size_t)r->nbin + kept->n;

	if (!kept->n)
		return;
	r->st = xreallocarray(r->st, n, sizeof(*r->st));
	r->reports = xreallocarray(r->reports, n, sizeof(*r->reports));
	memcpy(r->st + r->nbin, kept->st, kept->n * sizeof(*kept->st));
	memcpy(r->reports + r->nbin, kept->reports,
	       kept->n * sizeof(*kept->reports));
	r->nbin = (int)n;
	free(kept->st);
	free(kept->reports);
}

/*
 * The binaries, every input read into one profile, and the profile
 * resolved against the binaries (gmon.out always is: it is addresses).
 */
/* The outputs made from whole stacks where the profile has them: the
 * flame graphs, --tree, and the transforms. */
static bool wants_stacks(const struct options *o)
{
	return o->mode == OUT_FOLDED || o->mode == OUT_HTML ||
	       o->mode == OUT_PPROF || o->tree || o->ntransforms;
}

/* Was an input an IgProf profile? */
static bool read_igprof_input(const struct profile *p)
{
	for (size_t i = 0; i < p->ninputs; i++)
		if (!strcmp(profile_str(p, p->inputs[i].format), "igprof"))
			return true;
	return false;
}

static int load_once(struct run *r, struct code_positions *cp, bool *again)
{
	const struct options *o = r->o;
	struct read_opts ro = { .part = o->part,
				.fold_recursion = o->fold_recursion,
				.lenient = o->lenient,
				/* -b alone needs only each function's
				 * address range: a big program's profile
				 * has tens of millions of positions */
				.want_positions = o->annotate || o->disasm ||
						  o->mode == OUT_CALLGRIND ||
						  o->mode == OUT_HTML ||
						  (o->nbinaries > 0 &&
						   o->inlined_callee),
				.want_func_addrs = o->nbinaries > 0,
				.counter = o->counter,
				.want_leaks = o->leaks,
				/* with -b too: two functions of one stack
				 * that the binary names as one are counted
				 * again from the stacks (resolve.c) */
				.want_stacks = wants_stacks(o) ||
					       o->nbinaries,
				.no_filter = o->no_filter,
				/* IgProf's names demangled as read, the
				 * stacks charged after a merge (with -b the
				 * binary names them, and merges: resolve.c
				 * warns where a stack may count twice) */
				.demangle = options_read_demangler(o),
				.thread = o->reader_thread,
				.perf_unwinder = o->perf_unwinder,
				/* the report's threads and timeline */
				.perf_log_samples = o->mode == OUT_HTML,
				.perf_max_stack = o->max_stack };
	struct perf_select sel = { .pids = o->pids, .npids = o->npids,
				   .tids = o->tids, .ntids = o->ntids,
				   .comms = o->comms, .time = o->time };
	struct perf_files files = {
		.binaries = (const char *const *)o->binaries,
		.objects = (const char *const *)o->binary_objects,
		.nbinaries = (size_t)o->nbinaries,
		.sysroot = o->sysroot,
		.debug_dir = o->debug_dir,
	};
	struct read_target target;
	struct profile *p = &r->p;
	int bad;

	ro.perf_select = &sel;
	ro.perf_files = &files;
	/* binaries first: a gmon.out is read with the binary's address
	 * size and byte order */
	if (o->nbinaries) {
		r->nbin = o->nbinaries;
		r->st = xcalloc((size_t)o->nbinaries, sizeof(*r->st));
		r->reports = xcalloc((size_t)o->nbinaries, sizeof(*r->reports));
		if (open_binaries(o, &p->names, r->st) < 0)
			return 1;
		target.binary = r->st[0]->path;
		target.addr_size = r->st[0]->elf_class == 2 /* ELFCLASS64 */ ? 8 : 4;
		target.big_endian = r->st[0]->big_endian;
		ro.target = &target;
	}
	/* positions only for what is printed */
	if (!code_positions_choose(cp, p, &ro, o, &r->rso,
				   r->nbin ? r->st[0] : NULL))
		hot_files_choose(p, &ro, o);
	/* the seek design's one read keeps where the blocks are */
	ro.seek = code_seek_opts(cp);
	/* a perf.data's symbol tables load on a second thread while its
	 * samples are read: for names only (the listings of code read the
	 * sampled objects' DWARF too), and for the recorded files (-b
	 * binaries take objects the thread could not know of);
	 * CGANALYZE_READER_THREAD=0 keeps it to one thread, 1 makes the
	 * second whether a processor is free or not (main.c) */
	if (!o->nbinaries && o->reader_thread != READ_THREAD_OFF &&
	    !(o->annotate || o->disasm || o->mode == OUT_HTML)) {
		r->rso.preload = perf_preload_new(&r->rso, o->reader_thread !=
						  READ_THREAD_AUTO);
		ro.perf_object_seen = perf_preload_object;
		ro.perf_object_listed = perf_preload_listed;
		ro.perf_reading = perf_preload_reading;
		ro.perf_object_ctx = r->rso.preload;
	}
	/* an operand that is no file may be a function name meant for a
	 * bare -p or --annotate: read the files first, then see */
	for (int i = 0; i < o->ninputs; i++)
		if (!missing_operand(o, i) && read_profile(p, o->inputs[i], &ro) < 0) {
			*again = code_positions_gave_up(cp, p);
			return 1;
		}
	for (int i = 0; i < o->ninputs; i++) {
		if (!missing_operand(o, i))
			continue;
		if (names_a_function(p, o->inputs[i]))
			return function_hint(o, o->inputs[i]);
		if (read_profile(p, o->inputs[i], &ro) < 0)
			return 1;
	}
	/* the one read made what the two reads give, or they follow */
	if (!code_seek_end(cp, p, o, &r->rso)) {
		*again = true;
		return 1;
	}
	if (!code_positions_read_ok(cp, p)) {
		*again = true;
		return 1;
	}
	check_one_program(p);
	/* --pid, --tid, --comm, --time, --threads, --parts: honoured or
	 * refused for each format */
	if ((bad = task_check(o, p)) != 0 || (bad = hint_check(o, p)) != 0)
		return bad;
	if (o->sum && !p->gmon) {
		error("--sum writes gmon.out data, and no input is a gmon.out");
		return 2;
	}
	if (p->gmon && p->nfuncs) {
		error("gmon.out data cannot be added to a profile of another format");
		return 1;
	}
	if (p->perf) {
		/* addresses and stacks: always resolved, -b or not; the
		 * listings of code also list the recorded files' */
		struct perf_recorded kept = { 0 };
		bool code = o->annotate || o->disasm || o->mode == OUT_HTML;
		int ret = resolve_perf_keeping(p, r->st, (size_t)r->nbin,
					       &r->rso, r->reports,
					       code ? &kept : NULL);

		add_recorded(r, &kept);
		if (ret < 0)
			return 1;
		if ((o->annotate || o->disasm) && !r->nbin) {
			error("%s on a perf.data needs the binary of the code to "
			      "list: -b FILE (no object with samples is at its "
			      "recorded path%s)",
			      o->annotate ? "--annotate" : "--disasm",
			      o->sysroot ? " under --sysroot" : "; --sysroot DIR "
			      "says where they are");
			return 2;
		}
	} else if (p->gmon) {
		if (resolve_gmon(p, r->st[0], &r->rso, &r->reports[0]) < 0)
			return 1;
		if (o->sum && gmon_write(p->gmon, o->sum) < 0)
			return 1;
	} else {
		if (!o->nbinaries && o->disasm &&
		    recorded_binary(r, cp, false) < 0)
			return 1;
		/* the report's Disassembly is --disasm's: of the recorded
		 * object when that is here, and without it when not */
		if (!o->nbinaries && !o->disasm && o->mode == OUT_HTML &&
		    p->has_instr && recorded_binary(r, cp, true) == 0) {
			if (resolve_recorded_quietly(r) < 0)
				return 1;
		} else if (r->nbin && resolve_profile(p, r->st,
						      (size_t)r->nbin, &r->rso,
						      r->reports) < 0) {
			/* the one read's counts were against a guessed
			 * load offset and object: the two reads say */
			*again = cp->active && cp->guessed;
			return 1;
		}
		if (cp->active &&
		    (!r->nbin || !code_positions_resolved_ok(cp, p, r->st[0],
							     &r->reports[0], o))) {
			*again = true;
			return 1;
		}
	}
	/* IgProf records the mangled names (after -b, those of the
	 * functions no binary named) */
	if (!o->no_demangle && read_igprof_input(p))
		demangle_names(p);
	if (o->part) {
		uint32_t found = 0;

		for (size_t i = 0; i < p->ninputs; i++)
			found += p->inputs[i].nselected;
		if (!found) {
			error("no part %llu in %s", (unsigned long long)o->part,
			      o->ninputs > 1 ? "any of the profiles" : o->inputs[0]);
			return 1;
		}
	}
	profile_finish(p);
	/* gmon.out: percentages of self time are of every histogram tick,
	 * also those no function got (gprof's total_time) */
	if (p->est_self && p->nevents)
		p->totals[0] = (uint64_t)p->est_total;
	if (!p->nevents) {
		error("no events in the profile");
		return 1;
	}
	return 0;
}

/* What load_once() read and opened, dropped for another load. */
static void unload(struct run *r)
{
	if (r->st)
		close_binaries(r->st, r->nbin);
	free(r->reports);
	r->st = NULL;
	r->reports = NULL;
	r->nbin = 0;
	profile_release(&r->p);
	profile_init(&r->p);
}

/*
 * load_once(), keeping for --disasm the positions of the functions it
 * may list alone where it can (code_positions.h); when what was kept
 * turns out not to be enough, everything is read again with every
 * position, the first attempt's messages dropped.
 */
static int load(struct run *r)
{
	struct code_positions cp;
	bool again = false;
	int ret;

	code_positions_begin(&cp, r->o);
	ret = load_once(r, &cp, &again);
	/* --disasm=WHAT's one read, then its two */
	while (again && code_positions_retry(&cp)) {
		unload(r);
		again = false;
		ret = load_once(r, &cp, &again);
	}
	code_positions_end(&cp, !again);
	if (again) {
		unload(r);
		ret = load_once(r, &cp, &again);
	}
	/* for tests/sh/open-once.sh: the binary opened once */
	if (getenv("CGANALYZE_SHOW_OPENS"))
		fprintf(stderr, "cganalyze: binaries opened: %u\n",
			binaries_opened());
	return ret;
}

/* The sort event, --counter's and --show's, and the rest of the print
 * options; an event the profile lacks is a usage error. */
static int choose_events(struct run *r)
{
	const struct options *o = r->o;
	const struct profile *p = &r->p;
	struct print_opts *po = &r->po;

	if (o->sort_event &&
	    find_event(p, o->sort_event, strlen(o->sort_event), &po->sort_event) < 0)
		return 2;
	if (o->counter) {
		uint32_t e = 0;

		if (find_counter(p, o->counter, &e) < 0)
			return 2;
		if (!o->sort_event)
			po->sort_event = e;
	}
	r->show = parse_show(p, o->show, po->sort_event, &po->nshow);
	if (!r->show)
		return 2;
	po->show = r->show;
	po->pids = o->pids;
	po->npids = o->npids;
	po->tids = o->tids;
	po->ntids = o->ntids;
	po->comms = o->comms;
	po->part = o->part;
	/* The text listings show what a person reads: entries of 0.5% of
	 * the total or more, and a line counting the rest, unless
	 * --threshold or a symspec says what to list. gmon.out's listings
	 * stay gprof's (every function); JSON and the other outputs stay
	 * complete. The report embeds the functions of that threshold with
	 * their callers and callees (print/report_keep.h). */
	po->threshold = o->threshold_given ? o->threshold
			: ((o->mode == OUT_TEXT && !o->dot) || o->mode == OUT_HTML) &&
			  !p->gmon && !o->nspecs
				? DEFAULT_LISTING_THRESHOLD
				: 0;
	po->par_chunk = o->print_chunk;
	po->brief = o->brief;
	po->indexes = o->graph;
	po->reports = r->reports;
	po->nreports = r->reports ? (size_t)(p->gmon ? 1 : r->nbin) : 0;
	po->inlined = r->rso.inlined;
	po->symtabs = r->st;
	po->sources = &r->sources;
	po->annotate = o->annotate;
	po->annotate_what = o->annotate_what;
	po->context = o->context;
	po->inline_calls = o->inline_calls;
	po->disasm = o->disasm;
	po->disasm_what = o->disasm_what;
	po->leaks = o->leaks;
	po->no_demangle = o->no_demangle;
	po->digit_groups = !o->no_digit_groups;
	po->short_names = o->short_names;
	po->node_threshold = o->node_threshold;
	po->edge_threshold = o->edge_threshold;
	return 0;
}

/* Only --fold-recursion: on a profile of arcs, the reader has folded
 * fib'2 into fib, and the arcs' estimated paths hold no function twice
 * in a row (a unit's calls to itself are not followed). */
static bool only_folds(const struct options *o)
{
	for (size_t i = 0; i < o->ntransforms; i++)
		if (o->transforms[i].kind != TRANSFORM_FOLD)
			return false;
	return true;
}

/* The stacks the flame graph estimates from the arcs, put in the
 * profile for the transforms (a Callgrind or gmon.out profile); a
 * first --focus or --ignore of one function with a measured inclusive
 * cost pins them to it (arc_pin.h). A fold before it changes no stack
 * holding it (the reader has folded the levels). */
static int estimate_stacks(struct run *r)
{
	const struct transform *first = r->o->transforms;
	struct cg cg;
	int ret = 0;

	while (first->kind == TRANSFORM_FOLD &&
	       first + 1 < r->o->transforms + r->o->ntransforms)
		first++;

	cg_build(&cg, &r->p, r->po.sort_event);
	cg_find_cycles(&cg);
	if (r->p.est_self)
		cg_propagate_estimated(&cg, r->p.est_self);
	else if (cg_propagate_measured(&cg) < 0)
		ret = -1;
	if (!ret) {
		cg_rank(&cg);	/* the cycles' numbers */
		arc_stacks_make(&r->p, &cg,
				(first->kind == TRANSFORM_FOCUS ||
				 first->kind == TRANSFORM_IGNORE)
					? arc_pin_func(&cg, first->glob)
					: NO_ID);
	}
	cg_release(&cg);
	return ret;
}

/* A total as the listings give it: gmon.out's ticks in seconds. */
static const char *total_text(char *buf, const struct run *r, uint64_t v)
{
	const struct profile *p = &r->p;
	uint32_t ev = r->po.sort_event;
	bool groups = !r->o->no_digit_groups;

	if (listed_in_seconds(p, ev)) {
		buf[fmt_number(buf, (double)v * p->events[ev].unit_seconds, 2,
			       groups)] = '\0';
		return buf;
	}
	return fmt_count(buf, v, groups);
}

/* "focus=main, hide=g" */
static char *describe_transforms(const struct options *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return xstrdup("transforms");
	for (size_t i = 0; i < o->ntransforms; i++) {
		const struct transform *t = &o->transforms[i];

		fprintf(m, "%s%s%s%s", i ? ", " : "", transform_name(t->kind),
			t->glob ? "=" : "", t->glob ? t->glob : "");
	}
	fclose(m);
	return text;
}

/*
 * --focus, --ignore, --hide, --fold-recursion: the profile's stacks
 * rewritten and its costs made again from them, before the analysis,
 * so that every listing shows what they leave. A profile of arcs gets
 * the flame graph's estimated stacks first, and says so.
 */
static int transform(struct run *r)
{
	const struct options *o = r->o;
	struct profile *p = &r->p;
	uint32_t ev = r->po.sort_event;
	char before[2 * FMT_NUM_MAX], after[2 * FMT_NUM_MAX];
	double share;

	if (!o->ntransforms)
		return 0;
	if (!p->nstack_values && only_folds(o))
		return 0;
	r->totals_before = xcalloc(p->stride + 1, sizeof(*r->totals_before));
	memcpy(r->totals_before, p->totals, p->stride * sizeof(*p->totals));
	if (!p->nstack_values && estimate_stacks(r) < 0)
		return 1;
	if (stack_transform(p, o->transforms, o->ntransforms) < 0)
		return 1;
	r->transforms = describe_transforms(o);
	/* the annotated source, the disassembly, the report's views of
	 * them: a stack records no line */
	if (p->npos && !only_folds(o))
		note("%s: each line's and instruction's cost is scaled to its "
		     "function's self cost left (estimated: the stacks record "
		     "no line)", r->transforms);
	r->po.transforms = r->transforms;
	r->po.totals_before = r->totals_before;
	r->po.transforms_estimated = p->stacks_estimated;
	share = r->totals_before[ev]
			? 100.0 * (double)p->totals[ev] / (double)r->totals_before[ev]
			: 0;
	note("%s: %s of %s %s (%.1f%%) in view%s", r->transforms,
	     total_text(after, r, p->totals[ev]),
	     total_text(before, r, r->totals_before[ev]),
	     profile_str(p, p->events[ev].name), share,
	     p->stacks_estimated
		     ? "; estimated from call arcs: the profile records no "
		       "stacks, so the transforms work on the flame graph's "
		       "paths, each function's inclusive cost shared over its "
		       "callers in proportion to the calls' inclusive costs, "
		       "costs rounded to whole units"
		     : "");
	return 0;
}

/* How many of the functions with a cost the report's Disassembly lists
 * (po->disasm_max): report_disasm_count()'s rule. */
static size_t html_disasm_count(struct run *r)
{
	struct print_opts *po = &r->po;
	struct disasm_pick *picks = NULL;
	size_t n = 0, k;
	uint64_t *cost, *size;

	po->disasm_max = SIZE_MAX;
	if (disasm_pick(&r->cg, po, &picks, &n) < 0)
		n = 0;
	cost = xcalloc(n + 1, sizeof(*cost));
	size = xcalloc(n + 1, sizeof(*size));
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = &po->symtabs[picks[i].binary]->syms[picks[i].sym];

		cost[i] = picks[i].cost;
		size[i] = s->end - s->addr;
	}
	k = report_disasm_count(cost, size, n, r->p.totals[po->sort_event],
				po->listing_threshold);
	free(cost);
	free(size);
	free(picks);
	return k ? k : 1;	/* 0 would be the text's rule */
}

/*
 * The report has every view the profile has data for, built by what
 * --annotate and --disasm build: the annotated source of the hot files
 * when its positions have lines (as read, or from the binary), the
 * disassembly when it has addresses and a binary (-b, or the recorded
 * object). A profile without them is a report without the view, not an
 * error: the disassembly check's messages are kept out.
 */
static int html_views(struct run *r)
{
	struct print_opts *po = &r->po;

	if (!r->p.npos)
		return 0;
	if (annotation_build(&r->ann, &r->cg, po) == 0 && r->ann.any_line) {
		po->annotate = true;
		po->annotation = &r->ann;
	}
	if (r->p.has_instr && r->nbin) {
		FILE *quiet = fopen("/dev/null", "w");
		FILE *sink = diag_sink();

		if (quiet)
			diag_set_sink(quiet);
		po->disasm = true;
		po->disasm = print_disasm_check(&r->cg, po) == 0;
		if (po->disasm)
			po->disasm_max = html_disasm_count(r);
		if (quiet) {
			diag_set_sink(sink == stderr ? NULL : sink);
			fclose(quiet);
		}
	}
	return 0;
}

/* The symspecs' selection, the call graph with its cycles, propagated
 * and ranked, and the annotated source's data. */
static int analyse(struct run *r)
{
	const struct options *o = r->o;
	struct print_opts *po = &r->po;

	/* gprof's symspecs: -k deletes calls before the analysis, the
	 * others choose what the listings show */
	selection_init(&r->sel, &r->p, o->specs, o->nspecs);
	/* the listings pick files and functions of 1% or more by
	 * themselves; those -p names are the user's pick, taken whatever
	 * their cost unless --threshold is given */
	po->listing_threshold = o->threshold_given ? o->threshold
				: r->sel.flat_named ? 0.0 : 1.0;
	cg_build_without(&r->cg, &r->p, po->sort_event, r->sel.deleted);
	cg_find_cycles(&r->cg);
	selection_graph(&r->sel, &r->cg);
	po->flat_listed = r->sel.flat;
	po->graph_listed = r->sel.graph;
	po->cycle_listed = r->sel.cycles;
	po->arc_deleted = r->sel.deleted;
	if (r->p.est_self)
		cg_propagate_estimated(&r->cg, r->p.est_self);
	else if (cg_propagate_measured(&r->cg) < 0)
		return 1;
	cg_rank(&r->cg);
	if (o->mode == OUT_HTML) {
		part_reads_load(&r->parts, o, &r->cg, po->sort_event);
		po->parts = &r->parts.parts;
		po->nparts = r->parts.parts.nparts;
		po->why_parts = r->parts.why;
		/* the flame graph's trees made while the analysis goes on */
		r->page = print_html_begin(&r->cg, po);
		return html_views(r);
	}
	if (o->annotate) {
		if (annotation_build(&r->ann, &r->cg, po) < 0)
			return 2;	/* WHAT names nothing, like --sort */
		po->annotation = &r->ann;
	}
	if (o->disasm)
		return print_disasm_check(&r->cg, po);
	return 0;
}

/* The text listings asked for, one after the other, with the notes on
 * the binaries first. */
/* The first word has a capital past its first letter: a name (IgProf). */
static bool name_like(const char *s, size_t n)
{
	for (size_t i = 1; i < n && s[i] != ' ' && s[i] != ':'; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			return true;
	return false;
}

/*
 * The notes on how the inputs were read and resolved, as note()s on
 * standard error, one per line: standard output is the listing alone,
 * for grep and diff. A line's first word is lowercased as messages
 * are ("Symbols from" -> "symbols from"; "IgProf" stays), and its final
 * period dropped.
 */
static void print_notes(struct run *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	print_input_notes(m, &r->p);
	if (r->p.perf)
		resolve_perf_print_notes(m, &r->p, r->reports, (size_t)r->nbin,
					 &r->rso);
	else if (r->p.gmon)
		resolve_gmon_print_notes(m, &r->reports[0]);
	else if (r->nbin)
		resolve_print_notes(m, &r->p, r->reports,
				    (size_t)r->nbin, &r->rso);
	fclose(m);
	for (char *line = text, *nl; line && *line; line = nl + 1) {
		size_t n;

		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		n = (size_t)(nl - line) + (*nl != '\n');
		if (n && line[n - 1] == '.')
			n--;
		if (!n)
			continue;
		if (line[0] >= 'A' && line[0] <= 'Z' && !name_like(line, n))
			line[0] = (char)(line[0] - 'A' + 'a');
		note("%.*s", (int)n, line);
	}
	free(text);
}

/* The listing's first line under transforms: which, and what share of
 * the total is left. prefix starts it ("# " in folded stacks). */
static void print_transform_header(FILE *out, const struct run *r,
				   const char *prefix)
{
	const struct profile *p = &r->p;
	uint32_t ev = r->po.sort_event;
	char before[2 * FMT_NUM_MAX], after[2 * FMT_NUM_MAX];

	if (!r->transforms)
		return;
	fprintf(out, "%sTransformed (%s): %s of %s %s in view (%.1f%%)%s\n",
		prefix, r->transforms, total_text(after, r, p->totals[ev]),
		total_text(before, r, r->totals_before[ev]),
		profile_str(p, p->events[ev].name),
		r->totals_before[ev] ? 100.0 * (double)p->totals[ev] /
					       (double)r->totals_before[ev]
				     : 0.0,
		p->stacks_estimated ? ", estimated from call arcs" : "");
}

static int print_text(struct run *r, FILE *out)
{
	const struct options *o = r->o;

	print_notes(r);
	print_time_header(out, &r->p, "");
	print_transform_header(out, r, "");
	if (r->transforms || r->p.time_spec)
		fputs("\n", out);
	if (o->threads) {
		if (r->p.nthreads)
			print_threads(out, &r->p, &r->po);
		else
			print_part_threads(out, &r->p, &r->po);
		if (o->parts || o->tree || o->flat || o->graph ||
		    o->annotate || o->disasm || o->leaks)
			fputs("\n", out);
	}
	if (o->parts) {
		print_parts(out, &r->p, &r->po);
		if (o->tree || o->flat || o->graph || o->annotate ||
		    o->disasm || o->leaks)
			fputs("\n", out);
	}
	if (o->tree) {
		print_tree(out, &r->cg, &r->po);
		if (o->flat || o->graph)
			fputs("\n", out);
	}
	if (o->flat)
		print_flat(out, &r->cg, &r->po);
	if (o->flat && o->graph)
		fputs("\n", out);
	if (o->graph)
		print_graph(out, &r->cg, &r->po);
	if (o->annotate) {
		if (o->flat || o->graph)
			fputs("\n", out);
		print_annotate(out, &r->cg, &r->po);
	}
	if (o->disasm) {
		if (o->flat || o->graph || o->annotate)
			fputs("\n", out);
		if (print_disasm(out, &r->cg, &r->po) < 0)
			return 1;
	}
	if (o->leaks && (o->flat || o->graph || o->annotate || o->disasm))
		fputs("\n", out);
	if (o->leaks)
		print_leaks(out, &r->cg, &r->po);
	return 0;
}

/* "cganalyze: PROFILE ..." for the report's title. */
static char *page_title(const struct options *o)
{
	size_t len = 16;
	char *t;

	for (int i = 0; i < o->ninputs; i++)
		len += strlen(o->inputs[i]) + 1;
	t = xmalloc(len);
	strcpy(t, "cganalyze:");
	for (int i = 0; i < o->ninputs; i++) {
		strcat(t, " ");
		strcat(t, o->inputs[i]);
	}
	return t;
}

/* What the options ask for, in one output format. */
static int print_output(struct run *r, FILE *out)
{
	const struct options *o = r->o;

	/* the picture first: when dot is missing, nothing else is printed */
	if (o->svg && print_svg(o->svg, &r->cg, &r->po) < 0)
		return 1;
	if (o->mode == OUT_CALLGRIND)
		return write_callgrind(out, o->output_file ? o->output_file
							   : "the standard output",
				       &r->cg) < 0;
	if (o->mode == OUT_PPROF)
		return write_pprof(out, o->output_file ? o->output_file
						       : "the standard output",
				   &r->cg, &r->po) < 0;
	if (o->dot) {
		print_time_header(out, &r->p, "// ");
		print_transform_header(out, r, "// ");
		print_dot(out, &r->cg, &r->po);
	}
	else if (o->mode == OUT_JSON)
		print_json(out, &r->cg, &r->po);
	else if (o->mode == OUT_FOLDED) {
		const struct profile *p = r->cg.p;
		uint32_t ev = r->po.sort_event;

		/* folded stacks are added up by every reader of them
		 * (flamegraph.pl, speedscope): a maximum's would read as a
		 * sum of largest values */
		if (profile_event_max(p, ev)) {
			error("%s is a maximum (the largest single value, not "
			      "a sum), which a flame graph cannot show: its "
			      "widths add up; choose an event that adds up "
			      "with --sort", profile_str(p, p->events[ev].name));
			return 1;
		}
		print_time_header(out, &r->p, "# ");
		print_transform_header(out, r, "# ");
		print_folded(out, &r->cg, &r->po);
	}
	else if (o->mode == OUT_HTML) {
		if (!r->page)
			r->page = print_html_begin(&r->cg, &r->po);
		print_html_begun(out, r->page, &r->po, r->title, r->messages);
		r->page = NULL;
	}
	else if (o->flat || o->graph || o->annotate || o->disasm || o->leaks ||
		 o->tree || o->threads || o->parts)
		return print_text(r, out);
	return 0;
}

int analyze_run(const struct options *o, FILE *out)
{
	struct source_opts so = { .dirs = o->source_dirs,
				  .ndirs = o->nsource_dirs,
				  .maps = o->source_maps,
				  .nmaps = o->nsource_maps,
				  .profile_mtime = newest_mtime(o) };
	struct run r = {
		.o = o,
		.rso = { .have_load_offset = o->have_load_offset,
			 .load_offset = o->load_offset,
			 .inlined = o->inlined_callee ? INLINE_CALLEE
						      : INLINE_CALLER,
			 .demangle = !o->no_demangle,
			 /* the report has the Source and Disassembly
			  * views of what has positions */
			 .want_positions = o->annotate || o->disasm ||
					   o->mode == OUT_HTML,
			 .want_stacks = wants_stacks(o),
			 .force_binary = o->force_binary,
			 .objects = o->binary_objects,
			 .debug_dir = o->debug_dir,
			 .kallsyms = o->kallsyms,
			 .sysroot = o->sysroot,
			 .tail_thread = o->reader_thread == READ_THREAD_OFF ? 0
					: o->reader_thread == READ_THREAD_AUTO
						? -1
						: 1 },
	};
	int ret;
	struct diag_keep msgs = { 0 };

	/* the report shows the run's messages: they are kept, and printed
	 * at the end */
	if (o->mode == OUT_HTML)
		diag_keep_begin(&msgs);
	profile_init(&r.p);
	sources_init(&r.sources, &so);
	ret = load(&r);
	if (!ret)
		ret = choose_events(&r);
	if (!ret)
		ret = transform(&r);
	if (!ret)
		ret = analyse(&r);
	if (!ret && o->mode == OUT_HTML) {
		print_notes(&r);
		/* the page's numbers are of --time's range: its messages
		 * say which, as the text listings' first line does */
		print_time_notes(&r.p);
		r.title = page_title(o);
		r.messages = diag_keep_copy(&msgs);
	}
	if (!ret)
		ret = print_output(&r, out);
	/* a page begun and not written: its thread ended before the call
	 * graph is freed */
	print_html_drop(r.page);
	diag_keep_end(&msgs);
	free(r.title);
	free(r.messages);
	free(r.transforms);
	free(r.totals_before);

	free(r.show);
	selection_release(&r.sel);
	cg_release(&r.cg);
	if (r.st)
		close_binaries(r.st, r.nbin);
	free(r.reports);
	annotation_release(&r.ann);
	part_reads_release(&r.parts);
	sources_release(&r.sources);
	perf_preload_free(r.rso.preload);
	profile_release(&r.p);
	return ret;
}
