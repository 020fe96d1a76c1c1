/*
 * What the Callgrind reader keeps of each part for the profile's parts
 * (profile/parts.h): the pid: and thread: it belongs to, why and when it
 * was dumped, its totals; and which parts --part, --pid and --tid read.
 *
 * valgrind 3.19 heads every part "pid:", "cmd:", "part:", "thread:" (only
 * with --separate-threads=yes), then "desc: Trigger: Program termination"
 * (or "Client Request: NAME", "--dump-every-bb=N", "--dump-before=FN",
 * "--dump-after=FN") and "desc: Timerange: Basic block A - B", the basic
 * blocks run from the start to the first and last of its stretch; a file
 * of --combine-dumps=yes gives pid: and cmd: once
 * (tests/callgrind-threads).
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "callgrind_lex.h"
#include "callgrind_reader.h"
#include "profile/parts.h"

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool callgrind_part_wanted(const struct callgrind_reader *rd)
{
	const struct perf_select *sel = rd->opts->perf_select;
	uint64_t n = rd->part_number ? rd->part_number : rd->part_ordinal;

	if (rd->opts->part && rd->opts->part != n)
		return false;
	if (!sel)
		return true;
	if (sel->npids && !in_ids(sel->pids, sel->npids, rd->pid))
		return false;
	/* a part without a thread: line (tid 0) holds every thread's
	 * costs together: no --tid is its */
	return !sel->ntids || in_ids(sel->tids, sel->ntids, rd->tid);
}

static bool word_is(const char **s, const char *end, const char *word)
{
	size_t len = strlen(word);

	if ((size_t)(end - *s) < len || memcmp(*s, word, len))
		return false;
	*s = skip_space(*s + len, end);
	return true;
}

/* "Basic block A - B"; anything else is left as no range */
static void parse_timerange(struct callgrind_reader *rd, const char *s,
			    const char *end)
{
	uint64_t a, b;

	if (!word_is(&s, end, "Basic block") ||
	    parse_number(&s, end, &a) != NUM_OK)
		return;
	s = skip_space(s, end);
	if (!word_is(&s, end, "-") || parse_number(&s, end, &b) != NUM_OK ||
	    skip_space(s, end) != end || b < a)
		return;
	rd->has_range = true;
	rd->bb_from = a;
	rd->bb_to = b;
}

void callgrind_part_desc(struct callgrind_reader *rd, const char *v,
			 const char *end)
{
	const char *s = v;

	if (word_is(&s, end, "Trigger:")) {
		if (s < end)
			rd->trigger = names_intern(&rd->p->names, s,
						   (size_t)(end - s));
	} else if (word_is(&s, end, "Timerange:")) {
		parse_timerange(rd, s, end);
	}
}

/* the program's file name: cmd:'s first word after its last '/' */
static name_id program_name(struct callgrind_reader *rd)
{
	const char *cmd, *s, *w;

	if (rd->input->cmd == NO_NAME)
		return NO_NAME;
	cmd = profile_str(rd->p, rd->input->cmd);
	s = cmd + strspn(cmd, " \t");
	w = s;
	while (*s && *s != ' ' && *s != '\t') {
		if (*s == '/')
			w = s + 1;
		s++;
	}
	return s > w ? names_intern(&rd->p->names, w, (size_t)(s - w))
		     : NO_NAME;
}

/* The part just ended, alone in the profile (read_opts.part_done: a
 * part left out adds no function or arc), to the caller; then gone */
static void hand_on(struct callgrind_reader *rd)
{
	struct profile part;

	profile_init(&part);
	profile_part_copy(&part, rd->p, (uint32_t)(rd->input - rd->p->inputs));
	rd->opts->part_done(rd->opts->part_ctx, &part,
			    &rd->p->parts[rd->p->nparts - 1]);
	profile_release(&part);
	profile_part_clear(rd->p);
}

void callgrind_end_part(struct callgrind_reader *rd)
{
	struct ppart pt = { 0 };
	const uint64_t *col;
	uint64_t *cost;

	if (!rd->ncols)
		return;		/* no events: yet: nothing to tell */
	pt.input = (uint32_t)(rd->input - rd->p->inputs);
	pt.ordinal = (uint32_t)rd->part_ordinal;
	pt.number = rd->part_number;
	pt.pid = rd->pid;
	pt.tid = rd->tid;
	pt.name = program_name(rd);
	pt.trigger = rd->trigger;
	pt.has_range = rd->has_range;
	pt.bb_from = rd->bb_from;
	pt.bb_to = rd->bb_to;
	pt.selected = callgrind_part_selected(rd);
	/* a part of another writer may have no totals: its cost lines'
	 * sum then, which only a part read has */
	pt.from_totals = rd->has_totals;
	col = rd->has_totals ? rd->part_totals : rd->part_sum;
	cost = xcalloc(rd->p->nevents + 1, sizeof(*cost));
	if (rd->has_totals || pt.selected)
		for (size_t i = 0; i < rd->ncols; i++)
			cost[rd->event_map[i]] = col[i];
	profile_add_part(rd->p, &pt, cost, rd->p->nevents);
	free(cost);
	if (pt.selected && rd->opts->part_done)
		hand_on(rd);
}
