/*
 * --output=pprof (see write_pprof.h): the message is built in memory
 * (base/pbwire.h), then gzip'd with zlib as pprof writes it.
 */
#include "write_pprof.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/pbwire.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "profile/program.h"

/* An estimate's paths, at most (as --output=folded's): a compiler's
 * arcs unfold into millions. */
#define PPROF_MAX_NODES 2000000
/* Estimated paths below this share of the total are not followed: with
 * none cut, the breadth-first tree of a big program's arcs filled its
 * nodes with shallow crumbs and cut the heavy deep paths, whose
 * functions flame_exact_self() then placed by their callers alone. On
 * the cc1plus profile of bench/run, pprof's cumulative cost over our
 * inclusive for the 54 heaviest functions was 0.10-2.93 (median 0.89)
 * with no share, 0.21-1.27 (median 1.01, 38 within 10%) with this. */
#define PPROF_MIN_SHARE 1e-6

/* Field numbers: see read/pprof/pprof.h for the schema. */
enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4,
	P_FUNCTION = 5, P_STRING = 6, P_PERIOD_TYPE = 11, P_PERIOD = 12,
	P_COMMENT = 13, P_DEFAULT_TYPE = 14,
};

struct pw {
	const struct profile *p;
	const struct cg *cg;
	struct pb_out out, msg;		/* the profile; one message */
	struct u64map name_str;		/* name_id -> string index */
	size_t nstrings;
	struct pb_out strings;		/* the string table's fields */
	uint32_t *mapping_of;		/* per function: mapping id, 0 none */
	bool *used;			/* per function and cycle */
	uint64_t *locs;			/* one sample's location ids */
	size_t nlocs, locs_alloc;
	uint64_t *values;		/* one per event, and the samples' */
	/* a sampled profile's (perf.data, gperftools) samples written as
	 * a last "samples" type: without it pprof, and we reading the file
	 * back, would count a sample per stack */
	bool samples_type;
	/* per event, what one unit of its values is written as: gmon.out's
	 * ticks as nanoseconds (1e7 for gprof's 0.01 s), so that pprof's
	 * "seconds" are the time gprof and our listings print, not a count
	 * of ticks (go tool pprof said 21 where gprof says 0.21 seconds);
	 * 1 for every other event */
	double *scale;
};

static uint64_t add_string(struct pw *w, const char *s, size_t len)
{
	pb_put_bytes(&w->strings, P_STRING, s, len);
	return w->nstrings++;
}

static uint64_t lit(struct pw *w, const char *s)
{
	return add_string(w, s, strlen(s));
}

/* A profile name's string index (the same string once). */
static uint64_t name_str(struct pw *w, name_id id)
{
	uint32_t i;

	if (id == NO_NAME)
		return 0;
	i = u64map_get(&w->name_str, id);
	if (i == U64MAP_NONE) {
		i = (uint32_t)add_string(w, profile_str(w->p, id),
					 names_len(&w->p->names, id));
		u64map_put(&w->name_str, id, i);
	}
	return i;
}

static void put_value_type(struct pw *w, uint32_t num, uint64_t type,
			   uint64_t unit)
{
	w->msg.len = 0;
	pb_put_uint(&w->msg, 1, type);
	pb_put_uint(&w->msg, 2, unit);
	pb_put_bytes(&w->out, num, w->msg.buf, w->msg.len);
}

/* gmon.out's time, listed in seconds, is written in nanoseconds */
static bool written_in_ns(const struct profile *p, uint32_t e)
{
	return listed_in_seconds(p, e) && p->events[e].unit == NO_NAME;
}

static const char *unit_of(const struct profile *p, uint32_t e)
{
	const char *u;

	if (written_in_ns(p, e))
		return "nanoseconds";
	if (p->events[e].unit == NO_NAME)
		return "count";
	u = profile_str(p, p->events[e].unit);
	if (!strcmp(u, "ns"))
		return "nanoseconds";
	if (!strcmp(u, "events"))
		return "count";
	return u;
}

static void put_header(struct pw *w, const struct print_opts *o,
		       bool estimated)
{
	const struct profile *p = w->p;
	char buf[160];

	lit(w, "");
	for (size_t e = 0; e < p->nevents; e++)
		put_value_type(w, P_SAMPLE_TYPE, name_str(w, p->events[e].name),
			       lit(w, unit_of(p, (uint32_t)e)));
	if (w->samples_type)
		put_value_type(w, P_SAMPLE_TYPE, lit(w, "samples"),
			       lit(w, "count"));
	pb_put_uint(&w->out, P_DEFAULT_TYPE,
		    name_str(w, p->events[o->sort_event].name));
	/* the first time event's tick */
	for (size_t e = 0; e < p->nevents; e++) {
		if (p->events[e].unit_seconds <= 0)
			continue;
		put_value_type(w, P_PERIOD_TYPE, name_str(w, p->events[e].name),
			       lit(w, "nanoseconds"));
		pb_put_uint(&w->out, P_PERIOD,
			    (uint64_t)llround(p->events[e].unit_seconds * 1e9));
		break;
	}
	pb_put_uint(&w->out, P_COMMENT, lit(w, "written by cganalyze"));
	for (size_t i = 0; i < p->ninputs; i++) {
		snprintf(buf, sizeof(buf), "from %s (%s)",
			 profile_str(p, p->inputs[i].path),
			 profile_str(p, p->inputs[i].format));
		pb_put_uint(&w->out, P_COMMENT, lit(w, buf));
	}
	if (estimated)
		pb_put_uint(&w->out, P_COMMENT, lit(w, "stacks estimated from "
			"call arcs: the profile recorded no stacks, so each "
			"function's inclusive cost is shared over its callers "
			"in proportion to the calls' inclusive costs, cycles "
			"as wholes (as cganalyze's flame graph); self costs "
			"are exact, cumulative ones an estimate"));
	/* --focus and the others: what the profile holds is a view of it */
	if (o->transforms) {
		snprintf(buf, sizeof(buf), "transformed: %s", o->transforms);
		pb_put_uint(&w->out, P_COMMENT, lit(w, buf));
	}
}

/* The id of the location (and function) of flame unit u: a function
 * f is f + 1, cycle c is nfuncs + c + 1. */
static uint64_t unit_id(const struct pw *w, uint32_t func, uint32_t cycle)
{
	return func != NO_ID ? (uint64_t)func + 1
			     : (uint64_t)w->p->nfuncs + cycle + 1;
}

/* A function written of the program's object (profile_command_object(),
 * else main's), whose mapping goes first; NO_ID when none. */
static uint32_t program_func(const struct pw *w)
{
	const struct profile *p = w->p;
	name_id ob = profile_command_object(p);

	for (size_t f = 0; f < p->nfuncs; f++) {
		name_id fo = p->funcs[f].object;

		if (w->used[f] && fo != NO_NAME &&
		    (ob != NO_NAME ? fo == ob : profile_is_main(p, (uint32_t)f)))
			return (uint32_t)f;
	}
	return NO_ID;
}

static void put_tables(struct pw *w)
{
	const struct profile *p = w->p;
	size_t nunits = p->nfuncs + w->cg->ncycles;
	struct u64map objects;
	uint32_t nmappings = 0, first;

	u64map_init(&objects);
	w->mapping_of = xcalloc(p->nfuncs + 1, sizeof(*w->mapping_of));
	/* profile.proto: "mapping[0] will be the main binary" (go tool
	 * pprof's "File:" line is its file): the program's object first,
	 * then the others as their functions come (a perf.data's first
	 * function is often the dynamic linker's) */
	first = program_func(w);
	for (size_t k = 0; k <= p->nfuncs; k++) {
		size_t f = k ? k - 1 : first;
		name_id ob;
		bool added;

		if (!k && first == NO_ID)
			continue;
		ob = p->funcs[f].object;

		if (!w->used[f] || ob == NO_NAME)
			continue;
		w->mapping_of[f] = u64map_get_or_put(&objects, ob,
						     nmappings + 1, &added);
		if (!added)
			continue;
		nmappings++;
		w->msg.len = 0;
		pb_put_uint(&w->msg, 1, nmappings);
		pb_put_uint(&w->msg, 5, name_str(w, ob));
		pb_put_uint(&w->msg, 7, 1);	/* has_functions */
		pb_put_uint(&w->msg, 8, 1);	/* has_filenames */
		pb_put_bytes(&w->out, P_MAPPING, w->msg.buf, w->msg.len);
	}
	u64map_release(&objects);
	for (size_t u = 0; u < nunits; u++) {
		bool is_func = u < p->nfuncs;
		uint64_t id = unit_id(w, is_func ? (uint32_t)u : NO_ID,
				      (uint32_t)(u - p->nfuncs));
		struct pb_out line = { 0 };
		uint64_t name;

		if (!w->used[u])
			continue;
		if (is_func) {
			name = name_str(w, p->funcs[u].name);
		} else {
			char buf[64];

			snprintf(buf, sizeof(buf), "<cycle %u as a whole>",
				 w->cg->cycles[u - p->nfuncs].number);
			name = lit(w, buf);
		}
		w->msg.len = 0;
		pb_put_uint(&w->msg, 1, id);
		/* no system_name: ours are demangled names, and pprof
		 * demangles a system_name equal to the name again (which
		 * empties "<cycle 1 as a whole>") */
		pb_put_uint(&w->msg, 2, name);
		if (is_func) {
			pb_put_uint(&w->msg, 4, name_str(w, p->funcs[u].file));
			pb_put_uint(&w->msg, 5,
				    profile_func_line(p, (uint32_t)u));
		}
		pb_put_bytes(&w->out, P_FUNCTION, w->msg.buf, w->msg.len);

		pb_put_uint(&line, 1, id);
		w->msg.len = 0;
		pb_put_uint(&w->msg, 1, id);
		if (is_func)
			pb_put_uint(&w->msg, 2, w->mapping_of[u]);
		pb_put_bytes(&w->msg, 4, line.buf, line.len);
		pb_put_bytes(&w->out, P_LOCATION, w->msg.buf, w->msg.len);
		pb_out_release(&line);
	}
}

static void put_sample(struct pw *w)
{
	w->msg.len = 0;
	pb_put_packed(&w->msg, 1, w->locs, w->nlocs);
	pb_put_packed(&w->msg, 2, w->values,
		      w->p->nevents + (w->samples_type ? 1 : 0));
	pb_put_bytes(&w->out, P_SAMPLE, w->msg.buf, w->msg.len);
}

/* A value of event e as written: whole units of its scale. */
static uint64_t scaled(const struct pw *w, size_t e, double v)
{
	double x = v * w->scale[e];

	if (w->scale[e] == 1)
		return (uint64_t)v;
	return x >= 0x1p64 ? UINT64_MAX : (uint64_t)llround(x);
}

/* Whole stacks: one sample per stack with values. */
static void put_stacks(struct pw *w)
{
	const struct profile *p = w->p;
	size_t ne = p->nevents, nv = ne + (w->samples_type ? 1 : 0);
	uint64_t *rows = xcalloc(p->nstacks * nv + 1, sizeof(*rows));

	for (size_t i = 0; i < p->nstack_values; i++) {
		const struct pstack_value *v = &p->stack_values[i];
		uint64_t *r = &rows[(size_t)v->stack * nv + v->event];

		*r = *r + v->value < *r ? UINT64_MAX : *r + v->value;
		/* a sample is of one event: the stack's samples are its
		 * events' counts added */
		if (w->samples_type) {
			r = &rows[(size_t)v->stack * nv + ne];
			*r = *r + v->count < *r ? UINT64_MAX : *r + v->count;
		}
	}
	/* a stack's callers are stacks of their own */
	for (size_t s = 0; s < p->nstacks; s++)
		w->used[p->stacks[s].func] = true;
	for (size_t s = 0; s < p->nstacks; s++) {
		if (cost_row_zero(&rows[s * nv], ne))
			continue;
		w->nlocs = 0;
		for (uint32_t up = (uint32_t)s; up != NO_ID;
		     up = p->stacks[up].caller) {
			ARRAY_GROW(w->locs, w->nlocs + 1, w->locs_alloc);
			w->locs[w->nlocs++] = (uint64_t)p->stacks[up].func + 1;
		}
		memcpy(w->values, &rows[s * nv], nv * sizeof(*w->values));
		for (size_t e = 0; e < ne; e++)
			w->values[e] = scaled(w, e, (double)w->values[e]);
		put_sample(w);
	}
	free(rows);
}

/*
 * The flame graph's estimated paths of event e. Values are whole units:
 * each function's nodes are rounded as a running sum of their own, in
 * node order, so that a function's samples add up to its self cost
 * rounded (pprof's flat column is our self column; gmon.out's shares of
 * ticks are fractions), and no path is cut by its share (only past
 * PPROF_MAX_NODES nodes).
 */
static void put_estimate(struct pw *w, const struct flame *fl, size_t e)
{
	const struct profile *p = w->p;
	size_t nunits = p->nfuncs + w->cg->ncycles;
	double *sum = xcalloc(nunits + 1, sizeof(*sum));
	uint64_t *written = xcalloc(nunits + 1, sizeof(*written));

	for (size_t i = 0; i < fl->nnodes; i++) {
		const struct flame_node *n = &fl->nodes[i];
		size_t u = n->func != NO_ID ? n->func : p->nfuncs + n->cycle;
		uint64_t upto;

		w->used[u] = true;
		if (n->self <= 0)
			continue;
		sum[u] += n->self * w->scale[e];
		upto = (uint64_t)llround(sum[u]);
		if (upto <= written[u])
			continue;
		w->nlocs = 0;
		for (uint32_t up = (uint32_t)i; up != NO_ID;
		     up = fl->nodes[up].parent) {
			const struct flame_node *a = &fl->nodes[up];

			ARRAY_GROW(w->locs, w->nlocs + 1, w->locs_alloc);
			w->locs[w->nlocs++] = unit_id(w, a->func, a->cycle);
		}
		memset(w->values, 0, p->nevents * sizeof(*w->values));
		w->values[e] = upto - written[u];
		put_sample(w);
		written[u] = upto;
	}
	free(sum);
	free(written);
}

static int gzip_out(FILE *out, const char *where, const struct pb_out *b)
{
	unsigned char buf[1 << 16];
	z_stream z;
	int r;

	memset(&z, 0, sizeof(z));
	/* 16 + 15: a gzip header (mtime 0: the same profile writes the
	 * same bytes) around a deflate stream with a 32 KiB window */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return error("%s: zlib cannot start compressing", where);
	z.next_in = b->buf;
	z.avail_in = (uInt)b->len;
	if (b->len > UINT32_MAX) {
		deflateEnd(&z);
		return error("%s: a profile of %zu bytes is past what pprof "
			     "reads (4 GiB)", where, b->len);
	}
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = deflate(&z, Z_FINISH);
		if (r == Z_STREAM_ERROR) {
			deflateEnd(&z);
			return error("%s: zlib failed compressing", where);
		}
		fwrite(buf, 1, sizeof(buf) - z.avail_out, out);
	} while (r != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

int write_pprof(FILE *out, const char *where, const struct cg *cg,
		const struct print_opts *o)
{
	const struct profile *p = cg->p;
	struct pw w = { .p = p, .cg = cg };
	/* the profile's stacks, whole or estimated from the arcs and
	 * transformed (arc_stacks.h), else the flame graph's estimate */
	bool stacks = p->nstack_values > 0 || p->nstacks > 0;
	bool estimated = !stacks || p->stacks_estimated;
	int ret;

	if (isatty(fileno(out)))
		return error("--output=pprof writes gzip'd binary data: give "
			     "-o FILE, or a pipe, not a terminal");
	u64map_init(&w.name_str);
	w.used = xcalloc(p->nfuncs + cg->ncycles + 1, sizeof(*w.used));
	w.values = xcalloc(p->nevents + 1, sizeof(*w.values));
	w.scale = xcalloc(p->nevents + 1, sizeof(*w.scale));
	for (size_t e = 0; e < p->nevents; e++)
		w.scale[e] = written_in_ns(p, (uint32_t)e)
			? p->events[e].unit_seconds * 1e9 : 1;
	w.samples_type = p->sampled && stacks && !p->stacks_estimated;
	for (size_t e = 0; w.samples_type && e < p->nevents; e++)
		w.samples_type = !p->events[e].sample_count;
	put_header(&w, o, estimated);
	/* the samples first, the tables of what they used after: fields
	 * may come in any order */
	if (stacks) {
		put_stacks(&w);
	} else {
		for (size_t e = 0; e < p->nevents; e++) {
			struct flame fl;

			flame_build(&fl, cg, (uint32_t)e,
				    (double)p->totals[e] * PPROF_MIN_SHARE,
				    PPROF_MAX_NODES);
			/* pprof's flat column is our self column, even where
			 * the node limit cut paths (a big program's) */
			flame_exact_self(&fl, cg);
			put_estimate(&w, &fl, e);
			flame_release(&fl);
		}
	}
	put_tables(&w);
	/* the string table last, as Go writes it: indexes were handed out
	 * as the rest was written */
	pb_put_raw(&w.out, w.strings.buf, w.strings.len);
	ret = gzip_out(out, where, &w.out);
	pb_out_release(&w.out);
	pb_out_release(&w.msg);
	pb_out_release(&w.strings);
	u64map_release(&w.name_str);
	free(w.mapping_of);
	free(w.used);
	free(w.locs);
	free(w.values);
	free(w.scale);
	return ret;
}
