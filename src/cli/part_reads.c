/*
 * Each selected part of a Callgrind profile (or IgProf's buffer) read
 * again alone, for the report's threads and dumps (part_reads.h): as
 * --part=N --pid=P --tid=T read it, with the whole run's reading
 * options, its messages dropped (the whole read said them once).
 */
#include "part_reads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "profile/parts.h"
#include "read/line_reader.h"
#include "read/read.h"
#include "resolve/demangle_names.h"

static bool format_is(const struct profile *p, const char *format)
{
	for (size_t i = 0; i < p->ninputs; i++)
		if (strcmp(profile_str(p, p->inputs[i].format), format))
			return false;
	return p->ninputs > 0;
}

static int read_part(struct html_part *hp, const struct options *o,
		     const struct profile *whole, uint32_t sort_event)
{
	const struct ppart *pt = hp->part;
	uint32_t pid = pt->pid, tid = pt->tid;
	/* 0 too (--pid=0, --tid=0: the parts that name none): a part of
	 * no thread: line read with --part alone took in the thread's of
	 * the same number */
	struct perf_select sel = { .pids = &pid, .npids = 1,
				   .tids = &tid, .ntids = 1 };
	struct read_opts ro = { .part = pt->number ? pt->number : pt->ordinal,
				.fold_recursion = o->fold_recursion,
				.lenient = o->lenient,
				.thread = o->reader_thread,
				/* IgProf's: its stacks, as the whole's */
				.want_stacks = true,
				.counter = o->counter,
				.no_filter = o->no_filter,
				.perf_select = &sel };
	bool igprof = !strcmp(profile_str(whole, whole->inputs[pt->input]
					  .format), "igprof");
	const char *sort = profile_str(whole, whole->events[sort_event].name);
	uint32_t ev = 0;

	profile_init(&hp->p);
	if (read_profile(&hp->p, profile_str(whole,
					     whole->inputs[pt->input].path),
			 &ro) < 0)
		return -1;
	/* the names the whole profile has (analyze.c's load) */
	if (igprof && !o->no_demangle)
		demangle_names(&hp->p);
	if (profile_finish(&hp->p) < 0 || !hp->p.nevents)
		return -1;
	for (uint32_t e = 0; e < hp->p.nevents; e++)
		if (!strcmp(profile_str(&hp->p, hp->p.events[e].name), sort))
			ev = e;
	cg_build(&hp->cg, &hp->p, ev);
	cg_find_cycles(&hp->cg);
	if (cg_propagate_measured(&hp->cg) < 0)
		return -1;
	cg_rank(&hp->cg);
	return 0;
}

/* The bytes of text in a file: its size, or a compressed file's
 * decompressed (a 148 KB gzip'd file of 100 dumps held 100 MB of text,
 * and the report read it 100 times over in 78 s); 0 when unreadable */
static uint64_t text_bytes(const char *path)
{
	struct line_reader lr;
	uint64_t n = 0;
	char *line;
	size_t len;
	int r;

	if (line_reader_open(&lr, path) < 0)
		return 0;
	if (lr.encoding == INPUT_PLAIN) {
		n = lr.file_size;
	} else {
		while ((r = line_reader_next(&lr, &line, &len)) > 0)
			n += len + 1;
		if (r < 0)
			n = 0;
	}
	line_reader_close(&lr);
	return n;
}

/* The bytes read again for the parts: each part's file's text once */
static bool too_much(const struct profile *p)
{
	uint64_t in = 0, again = 0;
	uint64_t *text = xcalloc(p->ninputs + 1, sizeof(*text));
	bool many = false;

	/* no file read more than 16 times: not 16 times the inputs, and
	 * no compressed file decompressed to count its text */
	for (size_t i = 0; i < p->nparts; i++)
		if (p->parts[i].selected &&
		    ++text[p->parts[i].input] > PART_READS_FACTOR)
			many = true;
	if (!many) {
		free(text);
		return false;
	}
	for (size_t i = 0; i < p->ninputs; i++) {
		text[i] = text_bytes(profile_str(p, p->inputs[i].path));
		in += text[i];
	}
	for (size_t i = 0; i < p->nparts; i++)
		if (p->parts[i].selected)
			again += text[p->parts[i].input];
	free(text);
	return again > PART_READS_FACTOR * in && again > PART_READS_BYTES;
}

/* Whether two selected parts of one file have one number, process and
 * thread (Xdebug numbers every part 1): --part cannot read them apart */
static bool parts_alike(const struct profile *p)
{
	const struct ppart *sel[PART_READS_MAX];
	size_t n = 0;

	/* called with PART_READS_MAX selected at most */
	for (size_t i = 0; i < p->nparts && n < PART_READS_MAX; i++)
		if (p->parts[i].selected)
			sel[n++] = &p->parts[i];
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (sel[i]->input == sel[j]->input &&
			    (sel[i]->number ? sel[i]->number : sel[i]->ordinal) ==
			    (sel[j]->number ? sel[j]->number : sel[j]->ordinal) &&
			    sel[i]->pid == sel[j]->pid &&
			    sel[i]->tid == sel[j]->tid)
				return true;
	return false;
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
	if (nsel > PART_READS_MAX || too_much(p))
		return "each part is read again alone for the page, and "
		       "this profile's would be read more than 16 times over "
		       "and past 256 MiB (a file of many dumps), or are more "
		       "than 256: --pid or --tid choose fewer";
	if (parts_alike(p))
		return "two parts of one file have the same number, process "
		       "and thread, which --part cannot read apart";
	return NULL;
}

void part_reads_load(struct part_reads *pr, const struct options *o,
		     const struct profile *whole, uint32_t sort_event)
{
	size_t nsel = 0, n = 0;
	FILE *quiet, *sink;

	memset(pr, 0, sizeof(*pr));
	for (size_t i = 0; i < whole->nparts; i++)
		nsel += whole->parts[i].selected;
	quiet = fopen("/dev/null", "w");
	sink = diag_sink();
	if (quiet)
		diag_set_sink(quiet);
	/* quiet too: too_much() reads compressed files through */
	pr->why = why_not(o, whole, nsel);
	/* whole, never grown: each cg points at its profile */
	if (!pr->why)
		pr->parts = xcalloc(nsel, sizeof(*pr->parts));
	for (size_t i = 0; i < whole->nparts && !pr->why; i++) {
		struct html_part *hp = &pr->parts[n];

		if (!whole->parts[i].selected)
			continue;
		hp->part = &whole->parts[i];
		n++;
		if (read_part(hp, o, whole, sort_event) < 0)
			pr->why = "a part could not be read again alone";
	}
	pr->nparts = n;
	if (quiet) {
		diag_set_sink(sink == stderr ? NULL : sink);
		fclose(quiet);
	}
	if (pr->why)
		part_reads_release(pr);
}

void part_reads_release(struct part_reads *pr)
{
	const char *why = pr->why;

	for (size_t i = 0; i < pr->nparts; i++) {
		cg_release(&pr->parts[i].cg);
		profile_release(&pr->parts[i].p);
	}
	free(pr->parts);
	memset(pr, 0, sizeof(*pr));
	pr->why = why;
}
