/*
 * The Callgrind profile format reader (valgrind's callgrind and
 * cachegrind, and other writers: Xdebug, pprof, lsprofcalltree).
 *
 * One function per line kind, found by key: header lines ("key: value")
 * in a table, body specifications ("key=value") by callgrind_spec_key()
 * (callgrind_lex.h), which the splitting thread shares. Cost lines are
 * recognised by their first character. What the spec leaves out and
 * real files do is noted where it is handled, with the quirk's number
 * from FORMAT-NOTES.md (Qn).
 *
 * This file: detection, and the entry point, which chooses how to read
 * (one thread, the splitting thread, or reading ahead) and checks the
 * end of the file. The reader is in callgrind_reader.c (state, ids,
 * messages), callgrind_header.c and callgrind_body.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "callgrind_reader.h"
#include "callgrind_seek.h"
#include "callgrind_split.h"
#include "read/read.h"

/*
 * valgrind's callgrind ends every part with "totals:", and its
 * cachegrind ends the file with "summary:", so a file of theirs that
 * ends otherwise was cut short (a full disk, a copy stopped half-way).
 * Other writers do not always write either. Cachegrind writes no
 * creator: line; its desc: lines about the caches it simulated tell it
 * (callgrind, which writes them too, names itself).
 */
static void check_last_line(struct callgrind_reader *rd)
{
	static const char callgrind[] = "callgrind-";
	const char *creator = NULL, *line;

	if (rd->last_is_total)
		return;
	if (rd->input->creator != NO_NAME)
		creator = profile_str(rd->p, rd->input->creator);
	if (creator && !strncmp(creator, callgrind, sizeof(callgrind) - 1))
		line = "totals:";
	else if (!creator && rd->cache_descs)
		line = "summary:";
	else
		return;
	warning_at(rd->lr->path, rd->lr->lineno,
		   "the file ends without the '%s' line %s writes "
		   "last: it may be truncated", line,
		   creator ? creator : "cachegrind");
}

bool callgrind_sniff(const char *data, size_t len)
{
	/* Q1: "# callgrind format" is optional; like KCachegrind, look for
	 * "events:" at the start of a line. */
	static const char marker[] = "# callgrind format";

	if (len >= sizeof(marker) - 1 && !memcmp(data, marker, sizeof(marker) - 1))
		return true;
	for (size_t i = 0; i + 7 <= len; i++) {
		if ((i == 0 || data[i - 1] == '\n') && !memcmp(data + i, "events:", 7))
			return true;
	}
	return false;
}

/*
 * Input this large is split into lines and tokenized by a second thread
 * (callgrind_split.h) while this one applies the lines. Each then takes about
 * 0.55 to 0.7 of the time one thread takes alone (more of it the
 * smaller the file), for up to 40% more CPU time in all (README,
 * Performance): the wall time gained when the second core is free.
 * Under 4 MiB the wait for the first block eats most of it, and with no
 * processor free (spare_cpu()) the two threads take turns on one, for
 * more time than one thread alone. opts->thread forces
 * it on or off, for the tests: they run the end-to-end suite both ways.
 */
#define SPLIT_THREAD_MIN_BYTES ((uint64_t)4 << 20)

static bool use_split_thread(const struct line_reader *lr,
			     enum read_thread thread)
{
	if (thread != READ_THREAD_AUTO)
		return thread == READ_THREAD_ON;
	/* file_size is 0 for pipes: a regular file only */
	return lr->file_size > SPLIT_THREAD_MIN_BYTES && spare_cpu();
}

/*
 * A plain file this large is read in stretches, each with the next one
 * read ahead on a second thread (callgrind_ahead.c): half the time of one
 * thread, for a few percent more CPU time in all, when a processor is
 * free for it (spare_cpu(), asked there before each stretch: with none,
 * this thread reads the stretch alone). With positions
 * (annotated listings, -b) too: a stretch's positions, call sites and
 * jumps are added in as its functions and arcs are.
 */
#define AHEAD_MIN_BYTES ((uint64_t)2 << 20)

static bool use_ahead(const struct line_reader *lr,
		      const struct read_opts *opts)
{
	const struct perf_select *sel = opts->perf_select;

	/* each part handed on at its end (part_done) needs it read */
	if (opts->part_done)
		return false;
	if (opts->thread == READ_THREAD_AHEAD)
		return true;
	/* a stretch read ahead does not know its part's headers */
	if (opts->part || (sel && (sel->npids || sel->ntids)))
		return false;
	return opts->thread == READ_THREAD_AUTO && lr->encoding == INPUT_PLAIN &&
	       lr->file_size >= 2 * AHEAD_MIN_BYTES;
}

/*
 * Read through the splitting thread. It owns lr until it stops, so the
 * reader's messages take the path and line number from view, a copy of
 * lr whose lineno this thread counts. Returns 0 or -1 after reporting.
 */
static int read_split(struct callgrind_reader *rd, struct line_reader *lr,
		      struct line_reader *view)
{
	struct callgrind_split sp;
	struct callgrind_block *b;
	int r;

	*view = *lr;
	if (callgrind_split_start(&sp, lr) < 0)
		return -1;
	rd->lr = view;
	do {
		b = callgrind_split_next(&sp);
		r = callgrind_read_block(rd, b) < 0 ? -1 : callgrind_split_end(b);
	} while (r > 0);
	callgrind_split_stop(&sp);
	lr->lineno = view->lineno;
	rd->lr = lr;
	return r;
}

int read_callgrind(struct profile *p, struct line_reader *lr,
		   const struct read_opts *opts)
{
	struct callgrind_reader rd;
	struct line_reader view;
	int ret = -1, r;
	char *lines;
	size_t len;

	memset(&rd, 0, sizeof(rd));
	rd.p = p;
	rd.lr = lr;
	rd.opts = opts;
	rd.events_before = p->ninputs ? p->nevents : 0;
	rd.input = profile_add_input(p, lr->path, "callgrind");
	/* the arcs' inclusive costs in 4 bytes a number from the start: a
	 * big program's millions of arcs are read at the peak */
	profile_pack_incl(p);
	for (int i = 0; i < IDS_COUNT; i++)
		idmap_init(&rd.ids[i]);
	rd.npos = 1;
	rd.pos_kind[0] = POS_LINE;	/* "positions:" defaults to line */
	callgrind_start_part(&rd);

	/* the seek design: a plain file read here or ahead, whose lines
	 * are at their offsets in a line reader's buffer */
	rd.seek_rec = opts->seek && lr->encoding == INPUT_PLAIN &&
		      lr->file_size && (use_ahead(lr, opts) ||
					!use_split_thread(lr, opts->thread));
	if (use_ahead(lr, opts)) {
		r = callgrind_read_ahead(&rd, lr,
					 opts->thread == READ_THREAD_AHEAD
						 ? 0
						 : AHEAD_MIN_BYTES);
	} else if (use_split_thread(lr, opts->thread)) {
		r = read_split(&rd, lr, &view);
	} else {
		while ((r = line_reader_lines(lr, &lines, &len)) > 0) {
			if (callgrind_read_lines(&rd, lines, lines + len) < 0)
				goto out;
		}
	}
	if (r < 0)
		goto out;
	if (rd.want_call_cost) {
		error_at(lr->path, rd.calls_lineno,
			 "'calls=' at the end of the file has no cost line");
		goto out;
	}
	if (rd.want_jump_source)
		callgrind_finish_jump(&rd);
	if (!rd.ncols) {
		error("%s: no 'events:' line: not a Callgrind profile", lr->path);
		goto out;
	}
	callgrind_end_part(&rd);
	check_last_line(&rd);
	callgrind_report_repeats(&rd);
	if (opts->seek)
		callgrind_seek_keep(opts->seek, &rd, lr);
	ret = 0;
out:
	callgrind_reader_release(&rd);
	return ret;
}

/* A line of the body: a name definition or a cost line. */
static bool body_line(const char *s, size_t n)
{
	static const char *const names[] = { "ob=", "fl=", "fi=", "fe=",
					     "fn=" };

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (n >= 3 && !memcmp(s, names[i], 3))
			return true;
	return n && (s[0] == '+' || s[0] == '-' || s[0] == '*' ||
		     (s[0] >= '0' && s[0] <= '9'));
}

char *callgrind_cmd_program(const char *data, size_t len)
{
	const char *s = data, *end = data + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *w;
		size_t n;

		if (!nl)
			return NULL;	/* cut: not known */
		n = (size_t)(nl - s);
		if (body_line(s, n))
			return NULL;
		if (n > 4 && !memcmp(s, "cmd:", 4)) {
			for (s += 4; s < nl && (*s == ' ' || *s == '\t'); s++)
				;
			for (w = s; w < nl && *w != ' ' && *w != '\t' &&
				    *w != '\r'; w++)
				;
			return w > s ? xstrndup(s, (size_t)(w - s)) : NULL;
		}
		s = nl + 1;
	}
	return NULL;
}

char *callgrind_file_program(const char *path)
{
	struct line_reader lr;
	const char *data;
	long len;
	char *prog = NULL;
	FILE *quiet = fopen("/dev/null", "w"), *sink = diag_sink();

	if (!quiet)
		return NULL;
	diag_set_sink(quiet);
	if (line_reader_open(&lr, path) == 0) {
		len = line_reader_peek(&lr, 4096, &data);
		if (len > 0 && callgrind_sniff(data, (size_t)len))
			prog = callgrind_cmd_program(data, (size_t)len);
		line_reader_close(&lr);
	}
	diag_set_sink(sink == stderr ? NULL : sink);
	fclose(quiet);
	return prog;
}
