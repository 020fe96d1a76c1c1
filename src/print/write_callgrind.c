/*
 * --output=callgrind: the analysed profile written as a Callgrind
 * file (see write_callgrind.h).
 */
#include "write_callgrind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"

/* The three spaces of compressed names (FORMAT-NOTES Q4). */
enum { SPACE_OB, SPACE_FILE, SPACE_FN, NSPACES };

/* The key of "no name" (NO_NAME, or an empty name): written as "???",
 * valgrind's own word for it, since an empty name cannot be written. */
#define UNKNOWN_KEY (1ULL << 32)

struct writer {
	FILE *out;
	const struct profile *p;
	const struct cg *cg;
	uint32_t *raw;		/* recorded (not derived) events */
	size_t nraw;
	uint32_t ticks;		/* the event written as "ticks", or NO_ID */
	bool instr, line;	/* the positions: columns */
	bool write_ob, write_fl;	/* some function has an object/file */

	struct u64map ids[NSPACES];	/* name key -> compressed id */
	uint32_t next_id[NSPACES];
	bool have_ob, have_fl;	/* an ob=/fl= was written */
	uint64_t cur_ob, cur_fl, cur_file;	/* name keys */

	/* positions by function, call sites and jumps by position: index
	 * lists (first[i] .. first[i + 1] into order[]) */
	uint32_t *pos_first, *pos_order;
	uint32_t *cscall_first, *cscall_order;	/* call sites by call */
	uint32_t *jump_first, *jump_order;
	uint32_t *entry_pos;	/* function -> its lowest position or NO_ID */

	uint64_t last_addr, last_line;	/* of the last cost line */
	bool have_last;
	uint64_t *row, *totals;	/* nraw numbers each */
};

static uint64_t name_key(const struct profile *p, name_id id)
{
	if (id == NO_NAME || names_len(&p->names, id) == 0)
		return UNKNOWN_KEY;
	return id;
}

/* A name on one line: a line end inside it would end the line. */
static void put_name(struct writer *w, uint64_t key)
{
	const char *s;

	if (key == UNKNOWN_KEY) {
		fputs("???", w->out);
		return;
	}
	for (s = profile_str(w->p, (name_id)key); *s; s++)
		putc(*s == '\n' || *s == '\r' ? '?' : *s, w->out);
}

/* "key=(id) name" the first time a name is written in its space,
 * "key=(id)" after. */
static void put_spec(struct writer *w, const char *key, int space,
		     uint64_t name)
{
	bool added;
	uint32_t id = u64map_get_or_put(&w->ids[space], name,
					w->next_id[space] + 1, &added);

	fprintf(w->out, "%s=(%u)", key, id);
	if (added) {
		w->next_id[space]++;
		putc(' ', w->out);
		put_name(w, name);
	}
	putc('\n', w->out);
}

/* ---- indexes ---- */

/* first[] (n + 1 entries) and order[] listing, for each owner, the
 * items owned by it in item order: a counting sort. */
static void bucket(size_t n, size_t nitems, const void *items, size_t size,
		   size_t offset, uint32_t **first, uint32_t **order)
{
	const char *base = items;
	uint32_t *f = xcalloc(n + 2, sizeof(*f));
	uint32_t *o = xcalloc(nitems + 1, sizeof(*o));

	for (size_t i = 0; i < nitems; i++) {
		uint32_t owner;

		memcpy(&owner, base + i * size + offset, sizeof(owner));
		f[owner + 2]++;
	}
	for (size_t i = 2; i < n + 2; i++)
		f[i] += f[i - 1];
	for (size_t i = 0; i < nitems; i++) {
		uint32_t owner;

		memcpy(&owner, base + i * size + offset, sizeof(owner));
		o[f[owner + 1]++] = (uint32_t)i;
	}
	*first = f;
	*order = o;
}

/*
 * Positions in address order (callgrind's); without addresses, the
 * function's own file first, then by file and line, so that fi=/fe=
 * switch once per file rather than at every line.
 */
static int cmp_pos(const void *x, const void *y, void *arg)
{
	const struct writer *w = arg;
	const struct profile *p = w->p;
	const struct ppos *a = &p->pos[*(const uint32_t *)x];
	const struct ppos *b = &p->pos[*(const uint32_t *)y];

	if (!w->instr) {
		name_id own = p->funcs[a->func].file;
		bool ao = a->file == own || a->file == NO_NAME;
		bool bo = b->file == own || b->file == NO_NAME;

		if (ao != bo)
			return ao ? -1 : 1;
		if (!ao && a->file != b->file)
			return a->file < b->file ? -1 : 1;
		if (a->line != b->line)
			return a->line < b->line ? -1 : 1;
	}
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return 0;
}

static void index_profile(struct writer *w)
{
	const struct profile *p = w->p;

	bucket(p->nfuncs, p->npos, p->pos, sizeof(*p->pos),
	       offsetof(struct ppos, func), &w->pos_first, &w->pos_order);
	bucket(p->ncalls, p->ncallsites, p->callsites, sizeof(*p->callsites),
	       offsetof(struct pcallsite, call), &w->cscall_first,
	       &w->cscall_order);
	bucket(p->npos, p->njumps, p->jumps, sizeof(*p->jumps),
	       offsetof(struct pjump, from), &w->jump_first, &w->jump_order);
	/* fl= always: callgrind_annotate needs a file for each function
	 * ("???", as valgrind names an unknown one) */
	w->write_fl = true;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].object != NO_NAME)
			w->write_ob = true;
	for (size_t i = 0; i < p->npos; i++) {
		if (p->pos[i].addr)
			w->instr = true;
		if (p->pos[i].line)
			w->line = true;
	}
	for (size_t f = 0; f < p->nfuncs; f++)
		if (profile_func_line(p, (uint32_t)f))
			w->line = true;
	w->instr |= p->has_instr;
	w->line |= p->has_line || !w->instr;
	w->entry_pos = xreallocarray(NULL, p->nfuncs + 1, sizeof(uint32_t));
	for (size_t f = 0; f < p->nfuncs; f++) {
		uint32_t *o = w->pos_order + w->pos_first[f];
		size_t n = w->pos_first[f + 1] - w->pos_first[f];

		qsort_r(o, n, sizeof(*o), cmp_pos, w);
		w->entry_pos[f] = n ? o[0] : NO_ID;
	}
}

/* ---- lines ---- */

/* Trailing zeros are left out, as callgrind does (Q16). */
static void put_costs(struct writer *w, const uint64_t *row)
{
	size_t n = w->nraw;

	while (n && !row[n - 1])
		n--;
	for (size_t i = 0; i < n; i++)
		fprintf(w->out, " %llu", (unsigned long long)row[i]);
	putc('\n', w->out);
}

static void put_rel(FILE *out, uint64_t v, uint64_t last)
{
	if (v == last)
		fputs("*", out);
	else if (v > last)
		fprintf(out, "+%llu", (unsigned long long)(v - last));
	else
		fprintf(out, "-%llu", (unsigned long long)(last - v));
}

/*
 * A line's positions: relative to the last cost line's where allowed
 * (subposition compression), absolute otherwise: at a function's first
 * line, and on call cost lines and jump sources, whose position some
 * readers take from the calls= target (Q13); absolute is read alike by
 * all of them.
 */
static void put_position(struct writer *w, uint64_t addr, uint64_t line,
			 bool relative)
{
	relative = relative && w->have_last;
	if (w->instr) {
		if (relative)
			put_rel(w->out, addr, w->last_addr);
		else
			fprintf(w->out, "0x%llx", (unsigned long long)addr);
	}
	if (w->line) {
		if (w->instr)
			putc(' ', w->out);
		if (relative)
			put_rel(w->out, line, w->last_line);
		else
			fprintf(w->out, "%llu", (unsigned long long)line);
	}
	w->last_addr = addr;
	w->last_line = line;
	w->have_last = true;
}

/* A target: absolute, never moving the position (Q13). */
static void put_target(struct writer *w, uint64_t addr, uint64_t line)
{
	if (w->instr)
		fprintf(w->out, " 0x%llx", (unsigned long long)addr);
	if (w->line)
		fprintf(w->out, " %llu", (unsigned long long)line);
	putc('\n', w->out);
}

/* The raw events of a full row, into w->row. */
static const uint64_t *raw_row(struct writer *w, const uint64_t *full)
{
	for (size_t i = 0; i < w->nraw; i++)
		w->row[i] = full ? full[w->raw[i]] : 0;
	return w->row;
}

/* Switch to the file of the next cost line: fi= into another file,
 * fe= back to the function's own. */
static void set_file(struct writer *w, uint64_t func_file, uint64_t file)
{
	if (!w->write_fl || file == w->cur_file)
		return;
	put_spec(w, file == func_file ? "fe" : "fi", SPACE_FILE, file);
	w->cur_file = file;
}

static void put_self_line(struct writer *w, uint64_t addr, uint64_t line,
			  const uint64_t *full_row, bool relative)
{
	const uint64_t *row = raw_row(w, full_row);

	put_position(w, addr, line, relative);
	put_costs(w, row);
	for (size_t i = 0; i < w->nraw; i++)
		w->totals[i] += row[i];
}

/* Where a call goes: the callee's lowest position, or its start line. */
static void call_target(const struct writer *w, uint32_t callee,
			uint64_t *addr, uint64_t *line)
{
	const struct profile *p = w->p;
	uint32_t e = w->entry_pos[callee];

	*addr = e != NO_ID ? p->pos[e].addr : 0;
	*line = profile_func_line(p, callee) ? profile_func_line(p, callee)
		: e != NO_ID ? p->pos[e].line : 0;
}

static void put_call(struct writer *w, uint32_t call, uint64_t count,
		     const uint64_t *incl_raw, uint64_t addr, uint64_t line)
{
	const struct profile *p = w->p;
	const struct pfunc *caller = &p->funcs[p->calls[call].caller];
	const struct pfunc *callee = &p->funcs[p->calls[call].callee];
	uint64_t ob = name_key(p, callee->object);
	uint64_t file = name_key(p, callee->file);
	uint64_t taddr, tline;

	/* cob= and cfi= hold for one call; left out, they are the
	 * caller's object and the current file (Q12) */
	if (w->write_ob && ob != name_key(p, caller->object))
		put_spec(w, "cob", SPACE_OB, ob);
	if (w->write_fl && file != w->cur_file)
		put_spec(w, "cfi", SPACE_FILE, file);
	put_spec(w, "cfn", SPACE_FN, name_key(p, callee->name));
	call_target(w, p->calls[call].callee, &taddr, &tline);
	fprintf(w->out, "calls=%llu", (unsigned long long)count);
	put_target(w, taddr, tline);
	put_position(w, addr, line, false);
	put_costs(w, incl_raw);
}

static void put_jump(struct writer *w, const struct pjump *j,
		     uint64_t func_file, const struct ppos *from)
{
	uint64_t to_file = j->to_file == NO_NAME ? func_file
			   : name_key(w->p, j->to_file);

	if (w->write_fl && to_file != w->cur_file)
		put_spec(w, "jfi", SPACE_FILE, to_file);
	if (j->conditional)	/* valgrind's form, which KCachegrind reads */
		fprintf(w->out, "jcnd=%llu/%llu",
			(unsigned long long)j->followed,
			(unsigned long long)j->executed);
	else
		fprintf(w->out, "jump=%llu", (unsigned long long)j->executed);
	put_target(w, j->to_addr, j->to_line);
	/* the source: a position line without costs */
	put_position(w, from->addr, from->line, false);
	putc('\n', w->out);
}

/* The inclusive cost of a call, for the raw events: measured, or gprof's
 * estimate (rounded) in the event it was made for. */
static const uint64_t *call_incl(struct writer *w, uint32_t call)
{
	const struct cg *cg = w->cg;

	if (w->p->calls_have_incl) {
		for (size_t i = 0; i < w->nraw; i++)
			w->row[i] = profile_call_incl_at(w->p, call, w->raw[i]);
		return w->row;
	}
	raw_row(w, NULL);
	if (cg->est_arc_self && cg_is_arc(cg, call)) {
		double v = cg->est_arc_self[call] + cg->est_arc_child[call];

		for (size_t i = 0; i < w->nraw; i++)
			if (w->raw[i] == cg->sort_event && v > 0)
				w->row[i] = (uint64_t)llround(v);
	}
	return w->row;
}

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Cost lines of function f from here on: ob=, fl= where they change
 * (fl= also after an fi=), fn=. */
static void start_block(struct writer *w, uint32_t f)
{
	const struct profile *p = w->p;
	const struct pfunc *fn = &p->funcs[f];
	uint64_t ob = name_key(p, fn->object), fl = name_key(p, fn->file);

	putc('\n', w->out);
	if (w->write_ob && (!w->have_ob || ob != w->cur_ob)) {
		put_spec(w, "ob", SPACE_OB, ob);
		w->cur_ob = ob;
		w->have_ob = true;
	}
	if (w->write_fl && (!w->have_fl || fl != w->cur_fl ||
			    w->cur_file != w->cur_fl)) {
		put_spec(w, "fl", SPACE_FILE, fl);
		w->cur_fl = w->cur_file = fl;
		w->have_fl = true;
	}
	put_spec(w, "fn", SPACE_FN, name_key(p, fn->name));
	w->have_last = false;
}

static uint64_t pos_file(const struct writer *w, const struct ppos *q)
{
	const struct profile *p = w->p;

	return name_key(p, q->file == NO_NAME ? p->funcs[q->func].file
					       : q->file);
}

/* Function f's self cost, at its positions, and its jumps. */
static void put_function(struct writer *w, uint32_t f)
{
	const struct profile *p = w->p;
	const struct pfunc *fn = &p->funcs[f];
	uint64_t fl = name_key(p, fn->file);
	size_t stride = p->stride;
	uint64_t *rest = xcalloc(stride + 1, sizeof(*rest));

	start_block(w, f);
	/* self cost at positions; what they do not hold is "rest" */
	memcpy(rest, profile_self(p, f), stride * sizeof(*rest));
	for (uint32_t i = w->pos_first[f]; i < w->pos_first[f + 1]; i++) {
		uint32_t pos = w->pos_order[i];
		const struct ppos *q = &p->pos[pos];
		const uint64_t *cost = profile_pos_cost(p, pos);
		bool jumps = w->jump_first[pos] != w->jump_first[pos + 1];

		for (size_t e = 0; e < stride; e++)
			rest[e] = sat_sub(rest[e], cost[e]);
		if (cost_row_zero(raw_row(w, cost), w->nraw) && !jumps)
			continue;
		set_file(w, fl, pos_file(w, q));
		put_self_line(w, q->addr, q->line, cost, true);
		for (uint32_t k = w->jump_first[pos]; k < w->jump_first[pos + 1]; k++)
			put_jump(w, &p->jumps[w->jump_order[k]], fl, q);
	}
	/* what no position holds: at the function's start */
	set_file(w, fl, fl);
	if (!cost_row_zero(raw_row(w, rest), w->nraw))
		put_self_line(w, 0, profile_func_line(p, f), rest, true);
	free(rest);
}

/*
 * Call c, from each position it was made at, then what of its count
 * and cost no position holds, from the caller's start line.
 */
static void put_calls_of(struct writer *w, uint32_t c, uint64_t *left)
{
	const struct profile *p = w->p;
	const struct pfunc *caller = &p->funcs[p->calls[c].caller];
	uint64_t fl = name_key(p, caller->file);
	uint64_t count = profile_call_count(p, c);
	size_t stride = p->stride;
	bool any = false;

	for (size_t e = 0; e < stride; e++)
		left[e] = profile_call_incl_at(p, c, e);
	for (uint32_t k = w->cscall_first[c]; k < w->cscall_first[c + 1]; k++) {
		uint32_t cs = w->cscall_order[k];
		const struct ppos *q = &p->pos[p->callsites[cs].pos];
		const uint64_t *incl = profile_callsite_incl(p, cs);

		count = sat_sub(count, p->callsites[cs].count);
		for (size_t e = 0; e < stride; e++)
			left[e] = sat_sub(left[e], incl[e]);
		set_file(w, fl, pos_file(w, q));
		put_call(w, c, p->callsites[cs].count, raw_row(w, incl),
			 q->addr, q->line);
		any = true;
	}
	if (!p->calls_have_incl) {
		call_incl(w, c);
	} else {
		raw_row(w, left);
		if (any && !count && cost_row_zero(w->row, w->nraw))
			return;
	}
	set_file(w, fl, fl);
	put_call(w, c, count, w->row, 0,
		 profile_func_line(p, p->calls[c].caller));
}

/*
 * Calls in the profile's order, each in a block of its caller: a reader
 * that numbers functions and arcs as they come (ours does) numbers them
 * as the profile did, so listings break ties alike. Functions were all
 * named before, in their order.
 */
static void put_calls(struct writer *w)
{
	const struct profile *p = w->p;
	uint64_t *left = xcalloc(p->stride + 1, sizeof(*left));
	uint32_t block = NO_ID;

	for (uint32_t c = 0; c < p->ncalls; c++) {
		if (p->calls[c].caller != block) {
			block = p->calls[c].caller;
			start_block(w, block);
		}
		put_calls_of(w, c, left);
	}
	free(left);
}

/* ---- header ---- */

static const struct pderived *find_derived(const struct profile *p,
					   name_id name)
{
	for (size_t d = 0; d < p->nderived; d++)
		if (p->derived[d].name == name)
			return &p->derived[d];
	return NULL;
}

/*
 * An event whose units are ticks of a clock (gmon.out's histogram: its
 * unit_seconds) but whose name is the time unit ("seconds", from the
 * histogram's dimension) is written as "ticks", with the tick's length
 * in its long name: callgrind_annotate and
 * KCachegrind take an event's numbers as they are, and would show 1
 * "seconds" for each 0.01 s tick. Our reader takes the tick's length
 * from "desc: Unit:" either way.
 */
static bool is_time_unit(const char *name)
{
	static const char *const units[] = { "seconds", "second", "s",
					     "sec", "secs" };

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (!strcasecmp(name, units[i]))
			return true;
	return false;
}

static uint32_t find_ticks_event(const struct profile *p)
{
	uint32_t found = NO_ID;

	for (size_t e = 0; e < p->nevents; e++) {
		const char *name = profile_str(p, p->events[e].name);

		if (!strcmp(name, "ticks"))
			return NO_ID;	/* the name is taken: leave it all */
		if (found == NO_ID && p->events[e].unit_seconds > 0 &&
		    p->events[e].unit_seconds != 1 && is_time_unit(name))
			found = (uint32_t)e;
	}
	return found;
}

/* The name event e is written under. */
static const char *event_name(const struct writer *w, uint32_t e)
{
	return e == w->ticks ? "ticks" : profile_str(w->p, w->p->events[e].name);
}

/* The name an event's name id is written under (derived terms). */
static const char *event_name_of(const struct writer *w, name_id name)
{
	if (w->ticks != NO_ID && name == w->p->events[w->ticks].name)
		return "ticks";
	return profile_str(w->p, name);
}

static void put_event_lines(struct writer *w)
{
	const struct profile *p = w->p;

	for (size_t e = 0; e < p->nevents; e++) {
		const struct pevent *ev = &p->events[e];
		const struct pderived *d = ev->derived
			? find_derived(p, ev->name) : NULL;

		if (d) {
			fprintf(w->out, "event: %s =", event_name(w, (uint32_t)e));
			for (uint32_t t = 0; t < d->nterms; t++) {
				const struct pterm *term = &p->terms[d->first_term + t];

				fputs(t ? " + " : " ", w->out);
				if (term->factor != 1)
					fprintf(w->out, "%llu ",
						(unsigned long long)term->factor);
				fputs(event_name_of(w, term->event), w->out);
			}
			if (ev->long_name != NO_NAME)
				fprintf(w->out, " : %s", profile_str(p, ev->long_name));
			putc('\n', w->out);
		} else if (e == w->ticks) {
			fprintf(w->out, "event: ticks : clock ticks of %g s\n",
				ev->unit_seconds);
		} else if (ev->long_name != NO_NAME) {
			fprintf(w->out, "event: %s : %s\n",
				profile_str(p, ev->name),
				profile_str(p, ev->long_name));
		}
	}
	fputs("events:", w->out);
	for (size_t i = 0; i < w->nraw; i++)
		fprintf(w->out, " %s", event_name(w, w->raw[i]));
	putc('\n', w->out);
}

static void put_header(struct writer *w)
{
	const struct profile *p = w->p;

	fputs("# callgrind format\nversion: 1\n"
	      "creator: cganalyze --output=callgrind\n", w->out);
	for (size_t i = 0; i < p->ninputs; i++) {
		const struct pinput *in = &p->inputs[i];

		fprintf(w->out, "# from %s (%s", profile_str(p, in->path),
			profile_str(p, in->format));
		if (in->creator != NO_NAME)
			fprintf(w->out, "; creator: %s",
				profile_str(p, in->creator));
		fputs(")\n", w->out);
	}
	for (size_t i = 0; i < p->ninputs; i++) {
		if (p->inputs[i].cmd != NO_NAME) {
			fprintf(w->out, "cmd: %s\n",
				profile_str(p, p->inputs[i].cmd));
			break;
		}
	}
	/* desc: before positions: and events:, as callgrind_annotate
	 * wants them */
	for (size_t e = 0; e < p->nevents; e++)
		if (p->events[e].unit_seconds > 0)
			fprintf(w->out, "desc: Unit: one %s is %.17g s\n",
				event_name(w, (uint32_t)e),
				p->events[e].unit_seconds);
		else if (p->events[e].unit != NO_NAME)
			/* what a perf.data's cpu-clock counts (ns) or its
			 * cycles (events), gperftools' and pprof's units:
			 * an events: name alone says none, and
			 * callgrind_annotate ignores event: lines but
			 * prints the desc: ones */
			fprintf(w->out, "desc: Unit: %s is counted in %s\n",
				event_name(w, (uint32_t)e),
				profile_str(p, p->events[e].unit));
	if (w->cg->est_arc_self)
		fputs("desc: Calls: the inclusive cost of a call is gprof's "
		      "estimate (the callee's time shared by call counts), "
		      "rounded to whole units\n", w->out);
	/* a sampled profile (perf.data, gperftools, pprof) has samples
	 * through each call, not calls: KCachegrind shows the count as
	 * "calls" all the same */
	if (p->sampled)
		fputs("desc: Calls: a call's count is the number of samples "
		      "whose stack holds it (a sampled profile counts no "
		      "calls)\n", w->out);
	if (p->stacks_estimated)
		fputs("desc: Costs: transformed on the paths the flame graph "
		      "estimates from the call arcs (--focus and the others), "
		      "rounded to whole units\n", w->out);
	fprintf(w->out, "positions:%s%s\n", w->instr ? " instr" : "",
		w->line ? " line" : "");
	put_event_lines(w);
}

/* The totals of what put_function() will write: the self rows. */
static void summary_row(struct writer *w, uint64_t *out)
{
	const struct profile *p = w->p;

	if (p->summary) {
		for (size_t i = 0; i < w->nraw; i++)
			out[i] = p->summary[w->raw[i]];
		return;
	}
	for (size_t f = 0; f < p->nfuncs; f++) {
		const uint64_t *row = profile_self(p, (uint32_t)f);

		for (size_t i = 0; i < w->nraw; i++)
			out[i] += row[w->raw[i]];
	}
}

int write_callgrind(FILE *out, const char *where, const struct cg *cg)
{
	const struct profile *p = cg->p;
	struct writer w = { .out = out, .p = p, .cg = cg };
	uint64_t *summary;

	w.ticks = find_ticks_event(p);
	w.raw = xcalloc(p->nevents + 1, sizeof(*w.raw));
	for (size_t e = 0; e < p->nevents; e++) {
		/* Callgrind's readers add every cost up (callgrind_annotate,
		 * KCachegrind, ours): a maximum written there would read as
		 * a sum of largest values, which is no one's cost */
		if (p->events[e].max) {
			warning("%s: %s is a maximum (the largest value, not a "
				"sum), which the Callgrind format cannot hold: "
				"left out", where,
				profile_str(p, p->events[e].name));
			continue;
		}
		if (!p->events[e].derived)
			w.raw[w.nraw++] = (uint32_t)e;
	}
	if (!w.nraw) {
		free(w.raw);
		return error("%s: no event to write in the Callgrind format",
			     where);
	}
	w.row = xcalloc(w.nraw + 1, sizeof(*w.row));
	w.totals = xcalloc(w.nraw + 1, sizeof(*w.totals));
	summary = xcalloc(w.nraw + 1, sizeof(*summary));
	for (int s = 0; s < NSPACES; s++)
		u64map_init(&w.ids[s]);
	index_profile(&w);

	put_header(&w);
	summary_row(&w, summary);
	fputs("summary:", out);
	put_costs(&w, summary);
	for (size_t f = 0; f < p->nfuncs; f++)
		put_function(&w, (uint32_t)f);
	put_calls(&w);
	fputs("\ntotals:", out);
	put_costs(&w, w.totals);

	for (int s = 0; s < NSPACES; s++)
		u64map_release(&w.ids[s]);
	free(w.raw);
	free(w.row);
	free(w.totals);
	free(summary);
	free(w.pos_first);
	free(w.pos_order);
	free(w.cscall_first);
	free(w.cscall_order);
	free(w.jump_first);
	free(w.jump_order);
	free(w.entry_pos);
	/* write errors are the caller's to report, once: main() checks
	 * the stream it opened */
	return 0;
}
