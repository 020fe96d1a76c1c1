/*
 * The Callgrind reader's header lines, "key: value": version, creator,
 * cmd, pid, thread and part (each part starts here), desc (with our
 * "desc: Unit:"), positions, events and derived events ("event:"),
 * summary and totals. Each key has its function, found in a table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "callgrind_lex.h"
#include "callgrind_reader.h"
#include "read/events_differ.h"

/* part_sum to zero, what it held kept in added_before_part */
static void fold_part_sum(struct callgrind_reader *rd)
{
	if (!rd->part_sum)
		return;
	for (size_t i = 0; i < rd->ncols; i++)
		rd->added_before_part = callgrind_add_upto_max(
			rd->added_before_part, rd->part_sum[i]);
	memset(rd->part_sum, 0, rd->vals_alloc * sizeof(*rd->part_sum));
}

void callgrind_start_part(struct callgrind_reader *rd)
{
	if (rd->part_ordinal)
		callgrind_end_part(rd);
	rd->trigger = NO_NAME;
	rd->has_range = rd->has_totals = rd->part_ended = false;
	rd->in_body = false;
	rd->part_has_cost = false;
	rd->part_number = 0;
	rd->part_ordinal++;
	rd->part_selected = -1;
	memset(rd->pos, 0, sizeof(rd->pos));
	fold_part_sum(rd);
	rd->func = NO_ID;
	rd->ob = rd->fl = rd->file = NO_NAME;
	rd->have_fl = false;
	rd->cob = rd->cfi = rd->cfn = NO_NAME;
	rd->jfi = rd->jfn = NO_NAME;
	rd->input->nparts++;
}

/* ---- header lines: "key: value" ---- */

static int parse_version(struct callgrind_reader *rd, const char *v,
			 const char *end)
{
	uint64_t major;
	const char *s = v, *num = v;

	/* "1", "0.9.6" (Xdebug), "1.0": only the major number matters */
	while (s < end && is_digit(*s))
		s++;
	if (s == v)
		return callgrind_error(rd, "expected a version number after 'version:'");
	if (parse_number(&num, s, &major) != NUM_OK || major > 1)
		return callgrind_error(rd, "format version %.*s is not supported "
				  "(this reader knows version 1 and earlier)",
				  (int)(end - v), v);
	return 0;
}

static int parse_creator(struct callgrind_reader *rd, const char *v,
			 const char *end)
{
	if (rd->input->creator == NO_NAME)
		rd->input->creator =
			names_intern(&rd->p->names, v, (size_t)(end - v));
	return 0;
}

static int parse_cmd(struct callgrind_reader *rd, const char *v,
		     const char *end)
{
	if (rd->input->cmd == NO_NAME)	/* Q2: trimmed */
		rd->input->cmd = names_intern(&rd->p->names, v, (size_t)(end - v));
	return 0;
}

static int parse_target_id(struct callgrind_reader *rd, const char *key,
			   const char *v, const char *end, uint64_t *out)
{
	uint64_t n;
	const char *s = v;

	if (parse_number(&s, end, &n) != NUM_OK || s != end)
		return callgrind_error(rd, "expected a number after '%s:'", key);
	if (out)
		*out = n;
	return 0;
}

/* a process or thread number: 32 bits, as the kernel's and valgrind's */
static int parse_task_id(struct callgrind_reader *rd, const char *key,
			 const char *v, const char *end, uint32_t *out)
{
	uint64_t n;

	if (parse_target_id(rd, key, v, end, &n) < 0)
		return -1;
	if (n > UINT32_MAX)
		return callgrind_error(rd, "'%s: %llu' is past the largest "
				       "number of a %s (%u)", key,
				       (unsigned long long)n,
				       *key == 'p' ? "process" : "thread",
				       UINT32_MAX);
	*out = (uint32_t)n;
	return 0;
}

static int parse_pid(struct callgrind_reader *rd, const char *v,
		     const char *end)
{
	return parse_task_id(rd, "pid", v, end, &rd->pid);
}

static int parse_thread(struct callgrind_reader *rd, const char *v,
			const char *end)
{
	return parse_task_id(rd, "thread", v, end, &rd->tid);
}

static int parse_part(struct callgrind_reader *rd, const char *v,
		      const char *end)
{
	return parse_target_id(rd, "part", v, end, &rd->part_number);
}

/* The units of "desc: Unit:" lines, to the events that exist. */
static void apply_units(struct callgrind_reader *rd)
{
	for (unsigned i = 0; i < rd->nunits; i++) {
		uint32_t e = u64map_get(&rd->p->event_index, rd->units[i].event);

		if (e == U64MAP_NONE)
			continue;
		if (rd->units[i].unit != NO_NAME)
			rd->p->events[e].unit = rd->units[i].unit;
		else
			rd->p->events[e].unit_seconds = rd->units[i].seconds;
	}
}

/* "EVENT is counted in UNIT", UNIT one word: the unit's name. */
static void parse_unit_name(struct callgrind_reader *rd, const char *v,
			    const char *end)
{
	static const char in[] = " is counted in ";
	const char *is = v, *unit;

	while (is < end && !is_space(*is))
		is++;
	if (is == v || (size_t)(end - is) <= sizeof(in) - 1 ||
	    memcmp(is, in, sizeof(in) - 1))
		return;
	for (unit = is + sizeof(in) - 1; unit < end; unit++)
		if (is_space(*unit))
			return;
	unit = is + sizeof(in) - 1;
	if (rd->nunits < sizeof(rd->units) / sizeof(rd->units[0])) {
		rd->units[rd->nunits].event =
			names_intern(&rd->p->names, v, (size_t)(is - v));
		rd->units[rd->nunits].unit =
			names_intern(&rd->p->names, unit, (size_t)(end - unit));
		rd->units[rd->nunits++].seconds = 0;
	}
	apply_units(rd);
}

/*
 * "desc: Unit: one EVENT is N s", which --output=callgrind writes for an
 * event that is a time (a gmon.out tick, IgProf's PERF_TICKS), gives
 * the event its length in seconds back; "desc: Unit: EVENT is counted
 * in UNIT" (a perf.data's cpu-clock in ns, its cycles in events) its
 * unit. It comes before the events: line (callgrind_annotate wants
 * desc: lines first).
 */
static void parse_unit_desc(struct callgrind_reader *rd, const char *v,
			    const char *end)
{
	const char *name, *is;
	char num[64];
	size_t len;
	double sec;
	char *stop;

	if (end - v < 5 || memcmp(v, "one ", 4)) {
		parse_unit_name(rd, v, end);
		return;
	}
	name = v + 4;
	is = name;
	while (is < end && !is_space(*is))
		is++;
	if (end - is < 6 || memcmp(is, " is ", 4))
		return;
	len = (size_t)(end - (is + 4));
	if (len < 3 || len >= sizeof(num) || memcmp(end - 2, " s", 2))
		return;
	memcpy(num, is + 4, len - 2);
	num[len - 2] = '\0';
	sec = strtod(num, &stop);
	if (*stop || !(sec > 0 && sec < 1e9))
		return;
	if (rd->nunits < sizeof(rd->units) / sizeof(rd->units[0])) {
		rd->units[rd->nunits].event =
			names_intern(&rd->p->names, name, (size_t)(is - name));
		rd->units[rd->nunits].unit = NO_NAME;
		rd->units[rd->nunits++].seconds = sec;
	}
	apply_units(rd);
}

static int parse_desc(struct callgrind_reader *rd, const char *v,
		      const char *end)
{
	/* "desc: type: value"; values may be empty or hold colons (Q2).
	 * Descriptions do not change the analysis, but for the unit. */
	static const char *const caches[] = { "I1 cache:", "D1 cache:",
					      "LL cache:" };

	if (end - v > 5 && !memcmp(v, "Unit:", 5))
		parse_unit_desc(rd, skip_space(v + 5, end), end);
	callgrind_part_desc(rd, v, end);
	/* cachegrind's (and callgrind's) "desc: I1 cache:   32768 B, 64 B,
	 * 8-way associative": what tells a cachegrind file (see
	 * check_last_line()) */
	for (size_t i = 0; i < sizeof(caches) / sizeof(*caches); i++)
		if ((size_t)(end - v) >= strlen(caches[i]) &&
		    !memcmp(v, caches[i], strlen(caches[i])) &&
		    memmem(v, (size_t)(end - v), "associative", 11))
			rd->cache_descs = true;
	return 0;
}

static int parse_positions(struct callgrind_reader *rd, const char *v,
			   const char *end)
{
	unsigned n = 0;
	bool seen[3] = { false, false, false };

	while ((v = skip_space(v, end)) < end) {
		const char *w = v;
		enum pos_kind kind;

		while (v < end && !is_space(*v))
			v++;
		if (v - w == 5 && !memcmp(w, "instr", 5))
			kind = POS_INSTR;
		else if (v - w == 2 && !memcmp(w, "bb", 2))
			kind = POS_BB;
		else if (v - w == 4 && !memcmp(w, "line", 4))
			kind = POS_LINE;
		else
			return callgrind_error(rd, "unknown position kind '%.*s' "
					  "(expected instr, bb or line)",
					  (int)(v - w), w);
		if (seen[kind])
			return callgrind_error(rd, "position '%.*s' given twice",
					  (int)(v - w), w);
		seen[kind] = true;
		rd->pos_kind[n++] = kind;
	}
	rd->npos = n;
	memset(rd->pos, 0, sizeof(rd->pos));
	return 0;
}

static void ensure_cols(struct callgrind_reader *rd, size_t ncols)
{
	ARRAY_GROW(rd->event_map, ncols, rd->event_map_alloc);
	if (ncols > rd->vals_alloc) {
		free(rd->vals);
		free(rd->part_sum);
		free(rd->part_totals);
		rd->vals = xcalloc(ncols, sizeof(*rd->vals));
		rd->part_sum = xcalloc(ncols, sizeof(*rd->part_sum));
		rd->part_totals = xcalloc(ncols, sizeof(*rd->part_totals));
		rd->vals_alloc = ncols;
	}
}

static int too_many_events(struct callgrind_reader *rd)
{
	return callgrind_error(rd, "more than %d different events in the profile "
			  "(recorded and derived)", MAX_EVENTS);
}

/* This file's first "events:" line against the files before it (see
 * events_differ.h): said once. */
static void compare_events(struct callgrind_reader *rd, const bool *listed)
{
	if (!rd->input || rd->events_compared)
		return;
	rd->events_compared = true;
	events_differ_warn(rd->p, listed, rd->events_before, rd->lr->path,
			   rd->lr->lineno);
}

static int parse_events(struct callgrind_reader *rd, const char *v,
			const char *end)
{
	struct profile *p = rd->p;
	bool listed[MAX_EVENTS] = { false };	/* by profile event */
	size_t n = 0;

	fold_part_sum(rd);
	while ((v = skip_space(v, end)) < end) {
		const char *w = v;
		name_id name;
		uint32_t e;

		while (v < end && !is_space(*v))
			v++;
		name = names_intern(&p->names, w, (size_t)(v - w));
		if (p->nevents + p->nderived >= MAX_EVENTS &&
		    u64map_get(&p->event_index, name) == U64MAP_NONE)
			return too_many_events(rd);
		e = profile_event(p, name);
		if (e >= MAX_EVENTS)
			BUG("event %u past the limit", e);
		if (listed[e])
			return callgrind_error(rd, "event '%.*s' listed twice",
					  (int)(v - w), w);
		listed[e] = true;
		ensure_cols(rd, n + 1);
		rd->event_map[n++] = e;
	}
	if (!n)
		return callgrind_error(rd, "'events:' names no events");
	compare_events(rd, listed);
	rd->ncols = n;
	rd->identity_map = true;
	for (size_t i = 0; i < n; i++)
		if (rd->event_map[i] != i)
			rd->identity_map = false;
	apply_units(rd);
	return 0;
}

/* The event name at the start of an "event:" value. */
static const char *event_name_end(const char *s, const char *end)
{
	/* '+' ends a name too: the grammar allows "Sum=Ir+Dr" unspaced */
	while (s < end && !is_space(*s) && *s != '=' && *s != ':' && *s != '+')
		s++;
	return s;
}

/* The same formula defined before (each part of a file may repeat its
 * "event:" lines): one definition is enough. */
static bool derived_known(const struct profile *p, name_id name,
			  const struct pterm *terms, size_t nterms)
{
	for (size_t d = 0; d < p->nderived; d++) {
		const struct pderived *dv = &p->derived[d];
		const struct pterm *t = p->terms + dv->first_term;
		size_t i = 0;

		if (dv->name != name || dv->nterms != nterms)
			continue;
		while (i < nterms && t[i].factor == terms[i].factor &&
		       t[i].event == terms[i].event)
			i++;
		if (i == nterms)
			return true;
	}
	return false;
}

/*
 * "event: Name [= Expr] [: long name]" where Expr is terms joined by
 * "+", each "Name", "Number Name" or "Number * Name" (inherited events).
 */
static int parse_event(struct callgrind_reader *rd, const char *v,
		       const char *end)
{
	struct profile *p = rd->p;
	const char *w = v, *s = event_name_end(v, end);
	struct pterm terms[64];
	size_t nterms = 0;
	name_id name;

	if (s == w)
		return callgrind_error(rd, "expected an event name after 'event:'");
	name = names_intern(&p->names, w, (size_t)(s - w));
	s = skip_space(s, end);
	if (s < end && *s == '=') {
		s++;
		for (;;) {
			uint64_t factor = 1;
			const char *t;

			s = skip_space(s, end);
			if (s < end && is_digit(*s)) {
				const char *num_end = s;

				while (num_end < end && (is_digit(*num_end) ||
							 hexval(*num_end) >= 0 ||
							 *num_end == 'x'))
					num_end++;
				if (parse_number(&s, num_end, &factor) != NUM_OK)
					return callgrind_error(rd, "bad factor in the formula of event '%s'",
							  profile_str(p, name));
				s = skip_space(s, end);
				if (s < end && *s == '*')
					s = skip_space(s + 1, end);
			}
			t = event_name_end(s, end);
			if (t == s)
				return callgrind_error(rd, "expected an event name in the formula of event '%s'",
						  profile_str(p, name));
			if (nterms == sizeof(terms) / sizeof(terms[0]))
				return callgrind_error(rd, "formula of event '%s' has too many terms",
						  profile_str(p, name));
			terms[nterms].factor = factor;
			terms[nterms++].event = names_intern(&p->names, s,
							     (size_t)(t - s));
			s = skip_space(t, end);
			if (s < end && *s == '+') {
				s++;
				continue;
			}
			break;
		}
	}
	if (s < end && *s != ':')
		return callgrind_error(rd, "unexpected '%.*s' in 'event:' line",
				  (int)(end - s), s);
	if (nterms && !derived_known(p, name, terms, nterms)) {
		if (p->nevents + p->nderived >= MAX_EVENTS)
			return too_many_events(rd);
		profile_define_derived(p, name, terms, nterms, rd->lr->path,
				       rd->lr->lineno);
	}
	if (s < end) {
		const char *l = skip_space(s + 1, end);

		if (l < end)
			profile_set_long_name(p, name, names_intern(&p->names, l,
					      (size_t)(end - l)));
	}
	return 0;
}

/* Numbers of a summary:/totals: line into rd->vals (missing are 0). */
static int parse_cost_list(struct callgrind_reader *rd, const char *key,
			   const char *v, const char *end)
{
	size_t i = 0;

	if (!rd->ncols)
		return callgrind_error(rd, "'%s:' before 'events:'", key);
	memset(rd->vals, 0, rd->ncols * sizeof(*rd->vals));
	while ((v = skip_space(v, end)) < end) {
		enum num_result r;

		if (i == rd->ncols)
			return callgrind_error(rd, "'%s:' has more numbers than there are events (%zu)",
					  key, rd->ncols);
		r = parse_number(&v, end, &rd->vals[i++]);
		if (r == NUM_OVERFLOW)
			return callgrind_error(rd, "number in '%s:' does not fit in 64 bits", key);
		if (r != NUM_OK)
			return callgrind_error(rd, "expected a number in '%s:'", key);
	}
	return 0;
}

/* the part's totals for its record (callgrind_end_part()): valgrind
 * writes summary: and totals: alike, other writers one of them */
static void keep_totals(struct callgrind_reader *rd)
{
	memcpy(rd->part_totals, rd->vals, rd->ncols * sizeof(*rd->vals));
	rd->has_totals = true;
}

static int parse_summary(struct callgrind_reader *rd, const char *v,
			 const char *end)
{
	uint64_t *row;

	if (parse_cost_list(rd, "summary", v, end) < 0)
		return -1;
	rd->last_is_total = true;	/* cachegrind's last line */
	keep_totals(rd);
	if (!callgrind_part_selected(rd))
		return 0;
	row = xcalloc(rd->p->stride, sizeof(*row));
	for (size_t i = 0; i < rd->ncols; i++)
		row[rd->event_map[i]] = rd->vals[i];
	profile_add_summary(rd->p, row);
	free(row);
	return 0;
}

static int parse_totals(struct callgrind_reader *rd, const char *v,
			const char *end)
{
	if (parse_cost_list(rd, "totals", v, end) < 0)
		return -1;
	rd->last_is_total = true;
	rd->part_ended = true;
	keep_totals(rd);
	if (!callgrind_part_selected(rd))
		return 0;
	for (size_t i = 0; i < rd->ncols; i++) {
		if (rd->vals[i] == rd->part_sum[i])
			continue;
		callgrind_warn_once(rd, ONCE_TOTALS,
			  "'totals:' says %llu %s but the cost lines of this part add up to %llu",
			  (unsigned long long)rd->vals[i],
			  profile_str(rd->p, rd->p->events[rd->event_map[i]].name),
			  (unsigned long long)rd->part_sum[i]);
		break;
	}
	return 0;
}

static const struct header_parser {
	const char *key;
	int (*parse)(struct callgrind_reader *rd, const char *v,
		     const char *end);
	bool starts_part;	/* after body lines, this key opens a new part */
} header_keys[] = {
	{ "version", parse_version, true },
	{ "creator", parse_creator, true },
	{ "cmd", parse_cmd, true },
	{ "pid", parse_pid, true },
	{ "thread", parse_thread, true },
	{ "part", parse_part, true },
	{ "desc", parse_desc, true },
	{ "positions", parse_positions, true },
	{ "events", parse_events, true },
	{ "event", parse_event, true },
	/* Q3: cachegrind and Xdebug put summary: at the end of a part,
	 * callgrind puts totals: there */
	{ "summary", parse_summary, false },
	{ "totals", parse_totals, false },
};

int callgrind_header_line(struct callgrind_reader *rd, const char *key,
			  size_t klen, const char *v, const char *end)
{
	v = skip_space(v, end);
	end = v + trim_len(v, (size_t)(end - v));
	for (size_t i = 0; i < sizeof(header_keys) / sizeof(header_keys[0]); i++) {
		const struct header_parser *h = &header_keys[i];

		if (strlen(h->key) != klen || memcmp(h->key, key, klen))
			continue;
		/* a part of no cost line (a thread idle since the last
		 * dump) ends at its totals: all the same */
		if ((rd->in_body || rd->part_ended) && h->starts_part)
			callgrind_start_part(rd);
		/* valgrind writes C strings: a NUL byte would cut a cmd:
		 * or an event's name in every listing */
		if (memchr(v, '\0', (size_t)(end - v)))
			return callgrind_error(rd, "a NUL byte in the '%s:' line: valgrind writes none (is the file damaged?)",
					       h->key);
		return h->parse(rd, v, end);
	}
	callgrind_warn_once(rd, ONCE_UNKNOWN_HEADER, "unknown header key '%.*s:' ignored",
		  (int)klen, key);
	return 0;
}
