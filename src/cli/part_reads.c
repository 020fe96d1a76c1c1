/*
 * Each selected part of a Callgrind profile (or IgProf's buffer) as
 * read alone, for the report's threads and dumps (part_reads.h): as
 * --part=N --pid=P --tid=T read it, with the whole run's reading
 * options, its messages dropped (the whole read said them once). Each
 * file is read once more for all its parts, each handed on at its end
 * (read_opts.part_done) and reduced there.
 */
#include "part_reads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "profile/parts.h"
#include "read/read.h"
#include "resolve/demangle_names.h"

static bool format_is(const struct profile *p, const char *format)
{
	for (size_t i = 0; i < p->ninputs; i++)
		if (strcmp(profile_str(p, p->inputs[i].format), format))
			return false;
	return p->ninputs > 0;
}

/* A part as read alone, finished, analysed and reduced for the page */
static int reduce_part(struct html_parts *hp, const struct ppart *pt,
		       struct profile *pp, const char *sort)
{
	struct cg pcg;
	uint32_t ev = 0;
	int ret = -1;

	if (profile_finish(pp) < 0 || !pp->nevents)
		return -1;
	for (uint32_t e = 0; e < pp->nevents; e++)
		if (!strcmp(profile_str(pp, pp->events[e].name), sort))
			ev = e;
	cg_build(&pcg, pp, ev);
	cg_find_cycles(&pcg);
	if (cg_propagate_measured(&pcg) == 0) {
		cg_rank(&pcg);
		html_parts_add(hp, pt, pp, &pcg);
		ret = 0;
	}
	cg_release(&pcg);
	return ret;
}

/* The reading options of the whole run, for reading its inputs again */
static struct read_opts again_opts(const struct options *o)
{
	return (struct read_opts){ .part = o->part,
				   .fold_recursion = o->fold_recursion,
				   .lenient = o->lenient,
				   .thread = o->reader_thread,
				   /* IgProf's: its stacks, as the whole's */
				   .want_stacks = true,
				   .counter = o->counter,
				   .no_filter = o->no_filter,
				   .demangle = options_read_demangler(o) };
}

/* One pass over a file: its parts as they end (part_done()) */
struct pass {
	struct html_parts *hp;
	const struct profile *whole;
	uint32_t input;		/* the whole's */
	size_t next;		/* the whole's part looked at next */
	const char *sort;
	size_t budget;		/* entries kept at most (part_reads.h) */
	bool demangle;		/* IgProf's, as analyze.c's load */
	struct read_stats stats;	/* IgProf's stack levels walked */
	bool stop;		/* read_opts.part_stop: why is set */
	const char *why;	/* NULL while all is well */
};

static void take_part(struct pass *ps, struct profile *part,
		      const struct ppart *pt)
{
	const struct profile *w = ps->whole;

	if (ps->why)
		return;		/* the pass reads on, and keeps nothing */
	/* the whole read the same file with the same choice: its parts
	 * come in the same order */
	while (ps->next < w->nparts &&
	       (w->parts[ps->next].input != ps->input ||
		!w->parts[ps->next].selected))
		ps->next++;
	if (ps->next == w->nparts ||
	    w->parts[ps->next].ordinal != pt->ordinal) {
		ps->why = "a part read again was not the one read first "
			  "(did the file change?)";
		return;
	}
	if (ps->demangle)
		demangle_names(part);
	if (reduce_part(ps->hp, &w->parts[ps->next++], part, ps->sort) < 0)
		ps->why = "a part could not be read again alone";
	else if (html_parts_size(ps->hp) > ps->budget)
		ps->why = "the parts' call trees would hold more entries "
			  "than the file has bytes (parts of a few lines "
			  "whose calls make many paths): --pid, --tid or "
			  "--part choose fewer";
	else if (ps->stats.part_levels > PART_READS_LEVELS * ps->budget)
		ps->why = "each IgProf buffer is read with the stack under "
			  "it, and this file's buffers sit under stacks too "
			  "deep for their number: --part chooses one";
}

static void part_done(void *ctx, struct profile *part, const struct ppart *pt)
{
	struct pass *ps = ctx;

	take_part(ps, part, pt);
	/* IgProf's reader stops at the next buffer's end (Callgrind's
	 * reads on: its time is its parts' in any case) */
	ps->stop = ps->why != NULL;
}

/* Whether a part of input i is selected: else it is not read again */
static bool input_chosen(const struct profile *p, uint32_t i)
{
	for (size_t j = 0; j < p->nparts; j++)
		if (p->parts[j].input == i && p->parts[j].selected)
			return true;
	return false;
}

/* The parts' entries kept at most: the inputs' bytes on disk (a
 * compressed file's, fewer than its text's), PART_READS_ENTRIES_MIN at
 * least */
static size_t entries_max(const struct profile *p)
{
	uint64_t bytes = 0;
	struct stat st;

	for (size_t i = 0; i < p->ninputs; i++)
		if (!stat(profile_str(p, p->inputs[i].path), &st))
			bytes += (uint64_t)st.st_size;
	return bytes > PART_READS_ENTRIES_MIN ? (size_t)bytes
					      : PART_READS_ENTRIES_MIN;
}

/* Each selected part of file `input`, read in one pass */
static const char *read_parts_once(struct html_parts *hp,
				   const struct options *o,
				   const struct profile *whole, uint32_t input,
				   const char *sort, size_t budget)
{
	const uint32_t *pids = o->pids, *tids = o->tids;
	struct perf_select sel = { .pids = pids, .npids = o->npids,
				   .tids = tids, .ntids = o->ntids };
	struct read_opts ro = again_opts(o);
	struct pass ps = { .hp = hp, .whole = whole, .input = input,
			   .sort = sort, .budget = budget,
			   .demangle = !o->no_demangle &&
				       !strcmp(profile_str(whole, whole->inputs[
						       input].format),
					       "igprof") };
	struct profile reading;

	/* reading ahead cannot hand parts on: one thread, or the
	 * splitting one */
	if (ro.thread == READ_THREAD_AHEAD)
		ro.thread = READ_THREAD_OFF;
	ro.perf_select = &sel;
	hp->budget = budget;
	ro.part_done = part_done;
	ro.part_ctx = &ps;
	ro.part_stop = &ps.stop;
	ro.stats = &ps.stats;
	profile_init(&reading);
	if (read_profile(&reading, profile_str(whole,
					       whole->inputs[input].path),
			 &ro) < 0 && !ps.why)
		ps.why = "a part could not be read again alone";
	profile_release(&reading);
	return ps.why;
}

/* Whether every input is a regular file, which can be read again: a
 * named pipe's second open waits for a writer that will not come, and
 * standard input was read to its end */
static bool all_files(const struct profile *p)
{
	struct stat st;

	for (size_t i = 0; i < p->ninputs; i++)
		if (stat(profile_str(p, p->inputs[i].path), &st) ||
		    !S_ISREG(st.st_mode))
			return false;
	return true;
}

/* why the report draws no threads or dumps of p, or NULL */
static const char *why_not(const struct options *o, const struct profile *p,
			   size_t nsel)
{
	bool igprof = format_is(p, "igprof");

	if (!format_is(p, "callgrind") && !igprof)
		return "";	/* no parts, or of two formats */
	if (nsel < 2)
		return "";	/* one part: nothing to choose */
	/* the whole profile's names are the binary's, a part's would
	 * be the file's */
	if (o->nbinaries && (igprof || o->inlined_callee))
		return igprof ? "an IgProf profile read with -b names its "
				"functions from the binary, each buffer "
				"alone would not: make the report without -b "
				"for its buffers"
			      : "with --inlined=callee the functions are "
				"the binary's inlined ones, which a part "
				"read alone has not: make the report "
				"without it for the threads and dumps";
	if (!all_files(p))
		return "the profile was read from standard input or a pipe, "
		       "which cannot be read again for each part: give it "
		       "as a file for its threads and dumps";
	if (o->ntransforms)
		return "the report was made with transforms on the command "
		       "line (--focus, --ignore, ...): the parts' costs are "
		       "of the profile before them";
	if (nsel > PART_READS_MAX)
		return "the profile has more than 20000 parts (a file of "
		       "many dumps or IgProf buffers): --pid, --tid or "
		       "--part choose fewer";
	return NULL;
}

void part_reads_load(struct part_reads *pr, const struct options *o,
		     const struct cg *cg, uint32_t sort_event)
{
	const struct profile *whole = cg->p;
	const char *sort = profile_str(whole, whole->events[sort_event].name);
	size_t nsel = 0;
	FILE *quiet, *sink;

	memset(pr, 0, sizeof(*pr));
	for (size_t i = 0; i < whole->nparts; i++)
		nsel += whole->parts[i].selected;
	quiet = fopen("/dev/null", "w");
	sink = diag_sink();
	if (quiet)
		diag_set_sink(quiet);
	pr->why = why_not(o, whole, nsel);
	if (!pr->why)
		html_parts_init(&pr->parts, cg, cg->child != NULL, sort_event);
	for (uint32_t i = 0; i < whole->ninputs && !pr->why; i++)
		if (input_chosen(whole, i))
			pr->why = read_parts_once(&pr->parts, o, whole, i, sort,
						  entries_max(whole));
	if (!pr->why && pr->parts.nparts != nsel)
		pr->why = "a part read again was not the one read first "
			  "(did the file change?)";
	if (quiet) {
		diag_set_sink(sink == stderr ? NULL : sink);
		fclose(quiet);
	}
	if (pr->why)
		part_reads_release(pr);
	else
		html_parts_done(&pr->parts);
}

void part_reads_release(struct part_reads *pr)
{
	const char *why = pr->why;

	html_parts_release(&pr->parts);
	memset(pr, 0, sizeof(*pr));
	pr->why = why;
}
