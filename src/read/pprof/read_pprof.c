/*
 * pprof's profile.proto (gzip'd or plain: the line reader decompresses)
 * read into the profile. There is no magic number: pprof_sniff() takes
 * the data for a profile only when its first bytes parse as the fields
 * profile.proto has, each with its wire type (see there).
 *
 * Every sample type is an event with its unit, pprof's default sample
 * type first (what go tool pprof ranks by: default_sample_type, else the
 * last type), then the others in the file's order. A sample's locations
 * are leaf first, and a location's lines innermost first (the lines
 * after the first are the functions it was inlined into): unfolded, the
 * stack from the root is the last location's last line down to the
 * first location's first line, inlined functions as frames of their
 * own, as pprof shows them. Stacks become a tree (a node per distinct
 * (caller node, function)); a node's samples are charged once: its self
 * cost to the leaf, its inclusive cost once to each distinct function
 * and arc on the way to the root, as for perf.data and IgProf, so
 * inclusive costs are exact however often recursion repeats a function.
 *
 * Functions are (mapping's file, function's file, name). A location
 * without lines is named by its address ("0x4011d6") in its mapping, as
 * pprof names it; a profile none of whose locations has lines is an
 * unsymbolized one, read as addresses for -b (pprof_addr.c).
 *
 * Left out, with a warning: drop_frames and keep_frames (regular
 * expressions pprof applies to function names; every frame is kept
 * here), and labels (ignored). A sample is one stack, whatever the
 * number of samples it aggregates: the "samples" sample type says that
 * number where a profile has one (Go's CPU profiles), and then it is
 * what the listings count as samples; else each Sample counts one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "pprof.h"
#include "pprof_read.h"
#include "profile/stack_charge.h"
#include "read/events_differ.h"
#include "read/read.h"

/* What a file of n bytes may unfold into: frames walked and distinct
 * stack nodes. A real profile's samples take a byte or two a frame; a
 * location of many inlined lines named by many samples could claim
 * far more work and memory than the file's size justifies. */
#define FRAMES_PER_BYTE 64
#define FRAMES_BASE (16u << 20)
#define NODES_PER_BYTE 4
#define NODES_BASE (64u << 10)
/* Cost numbers (a function's, an arc's, a position's, one per event)
 * the profile may hold: a file of many sample types and many functions
 * could claim their product, far more than its size (1 a byte, 2 Mi
 * at least; read_opts.max_costs for tests). */
#define COSTS_PER_BYTE 1
#define COSTS_BASE (2u << 20)

struct pp_node {
	uint32_t func, parent;
	uint32_t row;			/* into rows, NO_ID: no sample ends */
};

struct pp_reader {
	struct profile *p;
	const struct read_opts *opts;
	struct pprof_file *f;
	uint32_t *event_of;		/* sample type -> profile event */
	uint32_t samples_type;		/* the "samples" type, or NO_ID */
	struct u64map func_of;		/* (function, mapping) -> profile */
	struct u64map addr_func_of;	/* location -> profile function */

	struct pp_node *nodes;
	size_t nnodes, nodes_alloc;
	struct u64map node_index;	/* (parent + 1, func) -> node */
	uint64_t *rows;			/* ntypes + 1 a row: the values,
					 * then the samples */
	size_t nrows, rows_alloc;
	uint32_t *frames;		/* of the current sample, root first */
	size_t nframes, frames_alloc;
	uint64_t frames_walked, max_frames, max_nodes, max_costs;
	size_t sample_off;		/* the sample being read */
};

/* Refuse a profile whose rows of costs would grow past max_costs with
 * `more` rows added; off: where in the file, SIZE_MAX none. */
static int check_size(const struct pp_reader *rd, size_t more, size_t off)
{
	const struct profile *p = rd->p;
	uint64_t rows = (uint64_t)p->nfuncs + p->ncalls + p->npos + more;
	char where[64] = "";

	if (rows * p->stride <= rd->max_costs)
		return 0;
	if (off != SIZE_MAX)
		snprintf(where, sizeof(where), ": offset 0x%zx", off);
	return error("%s%s: the profile would need more than %llu KiB for its "
		     "costs (%llu functions, arcs and positions, %zu events), "
		     "more than a file of %zu bytes can hold: refused",
		     rd->f->path, where,
		     (unsigned long long)(rd->max_costs * 8 >> 10),
		     (unsigned long long)rows, p->nevents, rd->f->len);
}

static name_id intern_str(struct pp_reader *rd, uint32_t i)
{
	const struct pprof_str *s = pprof_string(rd->f, i);

	return s->len ? names_intern(&rd->p->names, s->s, s->len) : NO_NAME;
}

static name_id mapping_object(struct pp_reader *rd, uint32_t mapping)
{
	if (mapping == NO_ID)
		return NO_NAME;
	return intern_str(rd, rd->f->mappings[mapping].filename);
}

/* The profile function of pprof function fn in mapping. */
static uint32_t func_of(struct pp_reader *rd, uint32_t fn, uint32_t mapping)
{
	uint64_t key = (uint64_t)fn << 32 | (uint32_t)(mapping + 1);
	uint32_t f = u64map_get(&rd->func_of, key);
	const struct pprof_function *pf = &rd->f->funcs[fn];
	name_id name;

	if (f != U64MAP_NONE)
		return f;
	if (check_size(rd, 1, rd->sample_off) < 0)
		return NO_ID;
	name = intern_str(rd, pf->name);
	if (name == NO_NAME)
		name = intern_str(rd, pf->system_name);
	if (name == NO_NAME) {
		char buf[40];

		snprintf(buf, sizeof(buf), "<function %llu>",
			 (unsigned long long)pf->id);
		name = names_intern(&rd->p->names, buf, strlen(buf));
	}
	f = profile_func(rd->p, mapping_object(rd, mapping),
			 intern_str(rd, pf->filename), name);
	if (pf->start_line > 0 && pf->start_line <= UINT32_MAX &&
	    !profile_func_line(rd->p, f))
		profile_set_func_line(rd->p, f, (uint32_t)pf->start_line);
	u64map_put(&rd->func_of, key, f);
	return f;
}

/* A location without lines: its address in its mapping, as pprof
 * names it. */
static uint32_t addr_func_of(struct pp_reader *rd, uint32_t loc)
{
	const struct pprof_location *l = &rd->f->locations[loc];
	uint32_t f = u64map_get(&rd->addr_func_of, loc);
	char buf[40];

	if (f != U64MAP_NONE)
		return f;
	if (check_size(rd, 1, rd->sample_off) < 0)
		return NO_ID;
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)l->address);
	f = profile_func(rd->p, mapping_object(rd, l->mapping), NO_NAME,
			 names_intern(&rd->p->names, buf, strlen(buf)));
	u64map_put(&rd->addr_func_of, loc, f);
	return f;
}

/* An event's unit: pprof's "count" is what the model says with none
 * (the event is its own unit: "38 samples", not "38 count"). */
static name_id unit_name(struct pp_reader *rd, uint32_t i)
{
	const struct pprof_str *s = pprof_string(rd->f, i);

	if (s->len == 5 && !memcmp(s->s, "count", 5))
		return NO_NAME;
	return intern_str(rd, i);
}

/*
 * The period: each sample stands for `period` of the period type. A
 * time (Go's CPU profiles: cpu, 10,000,000 nanoseconds) makes the
 * "samples" event's unit that time, as IgProf's T= does PERF_TICKS'
 * (the flat profile's title: "ticks of 0.01 s: 0.38 s", pprof's "Total
 * samples = 380ms"). Other periods (a heap profile's sampling rate in
 * bytes) change no figure.
 */
static void set_period(struct pp_reader *rd)
{
	static const struct {
		const char *unit;
		double seconds;
	} units[] = {
		{ "nanoseconds", 1e-9 }, { "microseconds", 1e-6 },
		{ "milliseconds", 1e-3 }, { "seconds", 1 },
	};
	const struct pprof_str *u = pprof_string(rd->f,
						 rd->f->period_type.unit);
	struct pevent *ev;

	if (rd->f->period <= 0 || rd->samples_type == NO_ID)
		return;
	ev = &rd->p->events[rd->event_of[rd->samples_type]];
	if (ev->unit != NO_NAME || ev->unit_seconds != 0)
		return;
	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (u->len == strlen(units[i].unit) &&
		    !memcmp(u->s, units[i].unit, u->len))
			ev->unit_seconds = (double)rd->f->period * units[i].seconds;
}

/* The events, pprof's default first; a unit must agree with the one an
 * earlier file gave the same event. */
static int make_events(struct pp_reader *rd)
{
	const struct pprof_file *f = rd->f;
	struct profile *p = rd->p;
	size_t first = f->ntypes - 1;
	/* this file's input is added: the events of the files before it */
	size_t nbefore = p->ninputs > 1 ? p->nevents : 0;
	bool *listed;

	rd->samples_type = NO_ID;
	for (size_t t = 0; t < f->ntypes; t++) {
		const struct pprof_str *s = pprof_string(f, f->types[t].type);

		if (f->default_type && f->types[t].type == f->default_type)
			first = t;
		if (s->len == 7 && !memcmp(s->s, "samples", 7) &&
		    rd->samples_type == NO_ID)
			rd->samples_type = (uint32_t)t;
		for (size_t u = 0; u < t; u++)
			if (f->types[u].type == f->types[t].type)
				return error("%s: two sample types are called "
					     "'%.*s'", f->path, (int)s->len,
					     s->s);
		if (!s->len)
			return error("%s: sample type %zu has no name",
				     f->path, t + 1);
	}
	for (size_t k = 0; k < f->ntypes; k++) {
		size_t t = k == 0 ? first : k <= first ? k - 1 : k;
		name_id unit = unit_name(rd, f->types[t].unit);
		size_t before = p->nevents;
		uint32_t e = profile_event(p, intern_str(rd, f->types[t].type));

		if (e == before)
			p->events[e].unit = unit;
		else if (p->events[e].unit != unit)
			return error("%s: sample type '%s' is in %s here and in "
				     "%s in an earlier profile: they do not add "
				     "up", f->path, profile_str(p, p->events[e].name),
				     unit == NO_NAME ? "no unit"
						     : profile_str(p, unit),
				     p->events[e].unit == NO_NAME ? "no unit"
				     : profile_str(p, p->events[e].unit));
		rd->event_of[t] = e;
		/* the count stays the samples' only while every file's
		 * "samples" type is what counts them (charge_sample()) */
		if (e == before)
			p->events[e].sample_count = t == rd->samples_type;
		else if (t != rd->samples_type)
			p->events[e].sample_count = false;
	}
	/* a CPU profile added to a heap one (go tool pprof refuses them
	 * as incompatible): said, as for Callgrind's events */
	listed = xcalloc(p->nevents, sizeof(*listed));
	for (size_t t = 0; t < f->ntypes; t++)
		listed[rd->event_of[t]] = true;
	events_differ_warn(p, listed, nbefore, f->path, 0);
	free(listed);
	/* a file without one counts each Sample once, which no event of
	 * the earlier files' counted */
	if (rd->samples_type == NO_ID)
		for (size_t e = 0; e < p->nevents; e++)
			p->events[e].sample_count = false;
	set_period(rd);
	return 0;
}

static void add_sat(uint64_t *a, uint64_t b)
{
	*a = *a + b < *a ? UINT64_MAX : *a + b;
}

/* The frames of sample s, root first, in rd->frames. */
static int unfold(struct pp_reader *rd, const struct pprof_sample *s)
{
	const struct pprof_file *f = rd->f;

	rd->nframes = 0;
	for (size_t i = s->nlocs; i-- > 0;) {
		const struct pprof_location *l = &f->locations[s->locs[i]];
		size_t n = l->nlines ? l->nlines : 1;

		rd->frames_walked += n;
		if (rd->frames_walked > rd->max_frames)
			return error_at_offset(f->path, s->off, "the samples' "
					       "stacks unfold into more than "
					       "%llu frames, more than a file "
					       "of %zu bytes can hold",
					       (unsigned long long)rd->max_frames,
					       f->len);
		ARRAY_GROW(rd->frames, rd->nframes + n, rd->frames_alloc);
		if (!l->nlines) {
			rd->frames[rd->nframes] = addr_func_of(rd, s->locs[i]);
			if (rd->frames[rd->nframes++] == NO_ID)
				return -1;
			continue;
		}
		for (size_t k = l->nlines; k-- > 0;) {
			rd->frames[rd->nframes] = func_of(
				rd, f->lines[l->first_line + k].func,
				l->mapping);
			if (rd->frames[rd->nframes++] == NO_ID)
				return -1;
		}
	}
	return 0;
}

static int node_of(struct pp_reader *rd, uint32_t parent, uint32_t func,
		   size_t off, uint32_t *out)
{
	uint64_t key = (uint64_t)(uint32_t)(parent + 1) << 32 | func;
	bool added;
	uint32_t n = u64map_get_or_put(&rd->node_index, key,
				       (uint32_t)rd->nnodes, &added);

	if (added) {
		if (rd->nnodes >= rd->max_nodes)
			return error_at_offset(rd->f->path, off, "more than %llu "
					       "distinct stacks, more than a "
					       "file of %zu bytes can hold",
					       (unsigned long long)rd->max_nodes,
					       rd->f->len);
		ARRAY_GROW(rd->nodes, rd->nnodes + 1, rd->nodes_alloc);
		rd->nodes[n] = (struct pp_node){ func, parent, NO_ID };
		rd->nnodes++;
	}
	*out = n;
	return 0;
}

/*
 * The leaf's position: its file and line. Not its address: a pprof
 * address is where the code was loaded in the process, and its load
 * offset is in the mapping alone; symbol resolution (-b) would take the
 * lowest sampled address of a function for its start and refuse the
 * binary. So a symbolized profile has source lines and no disassembly.
 */
static void charge_position(struct pp_reader *rd, const struct pprof_sample *s,
			    uint32_t func)
{
	const struct pprof_file *f = rd->f;
	const struct pprof_location *l = &f->locations[s->locs[0]];
	struct profile *p = rd->p;
	name_id file = NO_NAME;
	uint32_t line = 0, pos;
	uint64_t *cost;

	if (!rd->opts->want_positions)
		return;
	if (l->nlines) {
		const struct pprof_line *ln = &f->lines[l->first_line];

		file = intern_str(rd, f->funcs[ln->func].filename);
		if (ln->line > 0 && ln->line <= UINT32_MAX)
			line = (uint32_t)ln->line;
	}
	pos = profile_pos(p, func, file, line, 0);
	cost = profile_pos_cost(p, pos);
	for (size_t t = 0; t < f->ntypes; t++)
		add_sat(&cost[rd->event_of[t]], s->values[t]);
	p->has_line |= line != 0;
}

static int add_sample(struct pp_reader *rd, const struct pprof_sample *s)
{
	size_t width = rd->f->ntypes + 1;
	uint32_t node = NO_ID;
	uint64_t *row;

	if (!s->nlocs)
		return 0;	/* no stack: pprof shows it nowhere either */
	rd->sample_off = s->off;
	if (unfold(rd, s) < 0)
		return -1;
	for (size_t i = 0; i < rd->nframes; i++)
		if (node_of(rd, node, rd->frames[i], s->off, &node) < 0)
			return -1;
	if (rd->nodes[node].row == NO_ID) {
		ARRAY_GROW(rd->rows, (rd->nrows + 1) * width, rd->rows_alloc);
		memset(rd->rows + rd->nrows * width, 0,
		       width * sizeof(*rd->rows));
		rd->nodes[node].row = (uint32_t)rd->nrows++;
	}
	row = rd->rows + (size_t)rd->nodes[node].row * width;
	for (size_t t = 0; t < rd->f->ntypes; t++)
		add_sat(&row[t], s->values[t]);
	add_sat(&row[width - 1], rd->samples_type == NO_ID
				 ? 1 : s->values[rd->samples_type]);
	charge_position(rd, s, rd->frames[rd->nframes - 1]);
	return check_size(rd, 0, s->off);
}

/* The samples of node n (their cost and count in c): self cost to its
 * function, inclusive once to each distinct function and arc up to the
 * root (see the top). */
static void charge_node(struct pp_reader *rd, struct stack_charge *c,
			uint32_t n, uint64_t samples)
{
	uint32_t callee = rd->nodes[n].func;

	stack_charge_leaf(c, callee);
	for (uint32_t up = rd->nodes[n].parent; up != NO_ID;
	     up = rd->nodes[up].parent) {
		stack_charge_arc(c, rd->nodes[up].func, callee, samples);
		callee = rd->nodes[up].func;
	}
}

static int charge(struct pp_reader *rd)
{
	struct profile *p = rd->p;
	size_t width = rd->f->ntypes + 1;
	struct stack_charge c;
	uint32_t *stack_of = NULL;
	int ret = 0;

	profile_want_func_extras(p);
	p->calls_have_incl = true;
	p->sampled = true;
	stack_charge_init(&c, p);
	if (rd->opts->want_stacks)
		stack_of = xmalloc((rd->nnodes + 1) * sizeof(*stack_of));
	/* parents come before their children: a node is made after the
	 * node of its caller */
	for (size_t n = 0; n < rd->nnodes; n++) {
		const struct pp_node *nd = &rd->nodes[n];
		const uint64_t *row;

		if (stack_of)
			stack_of[n] = profile_stack(p, nd->func,
				nd->parent == NO_ID ? NO_ID : stack_of[nd->parent]);
		if (nd->row == NO_ID)
			continue;
		row = rd->rows + (size_t)nd->row * width;
		stack_charge_clear(&c);
		for (size_t t = 0; t < rd->f->ntypes; t++) {
			c.cost[rd->event_of[t]] = row[t];
			if (row[t])
				c.count[rd->event_of[t]] = row[width - 1];
			if (stack_of && row[t])
				profile_add_stack_value(p, stack_of[n],
							rd->event_of[t], row[t],
							row[width - 1]);
		}
		charge_node(rd, &c, (uint32_t)n, row[width - 1]);
		/* the arcs: at most the stack nodes, each with a row */
		if (check_size(rd, 0, SIZE_MAX) < 0) {
			ret = -1;
			break;
		}
	}
	free(stack_of);
	stack_charge_release(&c);
	return ret;
}

static void warn_left_out(const struct pprof_file *f)
{
	if (f->drop_frames || f->keep_frames)
		warning("%s: the profile's drop_frames/keep_frames patterns "
			"are not applied: every frame is kept (go tool pprof "
			"drops the frames they match)", f->path);
}

static int read_symbolized(struct profile *p, struct pprof_file *f,
			   const struct read_opts *opts)
{
	struct pp_reader rd = { .p = p, .opts = opts, .f = f };
	struct pprof_sample s = { 0 };
	size_t off = 0;
	int r, ret = -1;

	rd.event_of = xcalloc(f->ntypes, sizeof(*rd.event_of));
	rd.max_frames = (uint64_t)f->len * FRAMES_PER_BYTE + FRAMES_BASE;
	rd.max_nodes = (uint64_t)f->len * NODES_PER_BYTE + NODES_BASE;
	if (rd.max_nodes > UINT32_MAX - 2)
		rd.max_nodes = UINT32_MAX - 2;
	rd.max_costs = opts->max_costs ? opts->max_costs
		: (uint64_t)f->len * COSTS_PER_BYTE + COSTS_BASE;
	u64map_init(&rd.func_of);
	u64map_init(&rd.addr_func_of);
	u64map_init(&rd.node_index);
	if (make_events(&rd) < 0)
		goto out;
	while ((r = pprof_next_sample(f, &off, &s)) > 0)
		if (add_sample(&rd, &s) < 0)
			goto out;
	if (r < 0)
		goto out;
	if (charge(&rd) < 0)
		goto out;
	warn_left_out(f);
	ret = 0;
out:
	pprof_sample_release(&s);
	u64map_release(&rd.func_of);
	u64map_release(&rd.addr_func_of);
	u64map_release(&rd.node_index);
	free(rd.event_of);
	free(rd.nodes);
	free(rd.rows);
	free(rd.frames);
	return ret;
}

/* A whole protocol buffers input is at most this large (decompressed). */
#define PPROF_MAX_BYTES ((size_t)1 << 31)

int read_pprof(struct profile *p, struct line_reader *lr,
	       const struct read_opts *opts)
{
	struct input_bytes b;
	struct pprof_file f;
	char *where;
	int ret = -1;

	if (line_reader_bytes(lr, PPROF_MAX_BYTES, &b) < 0)
		return -1;
	/* offsets in messages are of the data decoded: the decompressed
	 * bytes of a gzip'd profile */
	where = xmalloc(strlen(lr->path) + 32);
	sprintf(where, "%s%s", lr->path,
		lr->encoding == INPUT_PLAIN ? "" : " (decompressed)");
	if (pprof_decode(&f, where, b.data, b.len) < 0)
		goto out;
	/* one model per profile: functions, or addresses for -b */
	if ((f.any_lines || !f.nlocations) ? p->perf != NULL
					   : p->nfuncs > 0) {
		error("%s: a pprof profile %s symbols cannot be added to one "
		      "%s them", lr->path, f.any_lines ? "with" : "without",
		      f.any_lines ? "without" : "with");
		goto out;
	}
	profile_add_input(p, lr->path, "pprof");
	if (f.any_lines || !f.nlocations)
		ret = read_symbolized(p, &f, opts);
	else
		ret = pprof_read_addresses(p, &f, opts);
out:
	pprof_file_release(&f);
	free(where);
	input_bytes_release(&b);
	return ret;
}
