/*
 * The neutral profile model (see profile.h): events, functions and
 * call arcs with their cost rows, inputs, derived events, and
 * profile_finish() when the readers are done.
 */
#include "profile.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "base/array.h"
#include "base/diag.h"
#include "gmon_data.h"
#include "perf_data.h"
#include "pos_select.h"
#include "profile_index.h"

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	arena_init(&p->arena);
	names_init(&p->names, &p->arena);
	u64map_init(&p->callsite_index);
	u64map_init(&p->pos_files);
	p->pos_last_file = NO_NAME;
	u64map_init(&p->pos_objects);
	p->pos_last_func = NO_ID;
	u64map_init(&p->event_index);
	u64map_init(&p->long_names);
}

void profile_release(struct profile *p)
{
	free(p->events);
	free(p->funcs);
	free(p->func_line);
	free(p->self);
	free(p->calls);
	free(p->big_counts);
	free(p->call_incl);
	free(p->incl_packed);
	free(p->big_incl);
	free(p->totals);
	free(p->summary);
	free(p->inputs);
	free(p->threads);
	free(p->parts);
	free(p->derived);
	free(p->terms);
	free(p->pos);
	free(p->pos_cost);
	free(p->pos_table);
	free(p->callsites);
	free(p->callsite_incl);
	free(p->jumps);
	free(p->jump_table);
	u64map_release(&p->callsite_index);
	u64map_release(&p->pos_files);
	u64map_release(&p->pos_objects);
	pos_select_free(p->pos_select);
	if (p->pos_file_names) {
		names_release(p->pos_file_names);
		free(p->pos_file_names);
	}
	free(p->func_incl);
	free(p->call_self);
	free(p->func_addrs);
	free(p->func_count);
	free(p->func_peak);
	free(p->stacks);
	free(p->leaks);
	free(p->stack_values);
	free(p->stack_calls);
	free(p->est_self);
	gmon_free(p->gmon);
	perf_data_free(p->perf);
	pindex_release(&p->func_index);
	pindex_release(&p->call_index);
	u64map_release(&p->event_index);
	u64map_release(&p->long_names);
	names_release(&p->names);
	arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}

/*
 * Sums the readers did not make themselves (derived events, totals over
 * several files) stop at 2^64 - 1 rather than wrap around to a small
 * number. The readers refuse a file whose own sums pass it.
 */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Make room for `want` rows of `stride` numbers; *alloc counts rows.
 * Mapped apart once big (BIG_ARRAY_GROW in base/array.h). */
static void grow_rows(uint64_t **rows, size_t *alloc, size_t want,
		      size_t stride)
{
	size_t row = (stride ? stride : 1) * sizeof(**rows), n;

	if (want <= *alloc && *rows)
		return;
	n = array_capacity(*alloc, want, row);
	*rows = xreallocarray(*rows, n, row);
	*alloc = n;
}

/* Copy rows of old_stride numbers into rows of new_stride (wider). */
static uint64_t *widen(uint64_t *rows, size_t nrows, size_t alloc,
		       size_t old_stride, size_t new_stride)
{
	uint64_t *out;

	if (!rows)
		return NULL;
	out = xcalloc(alloc ? alloc : 1, new_stride * sizeof(*out));
	for (size_t r = 0; r < nrows; r++)
		memcpy(out + r * new_stride, rows + r * old_stride,
		       old_stride * sizeof(*out));
	free(rows);
	return out;
}

/* Rows of old_stride numbers cut to new_stride (narrower), in place. */
static void narrow(uint64_t *rows, size_t nrows, size_t old_stride,
		   size_t new_stride)
{
	if (!rows)
		return;
	for (size_t r = 0; r < nrows; r++)
		memmove(rows + r * new_stride, rows + r * old_stride,
			new_stride * sizeof(*rows));
}

/*
 * Room for `need` events in every row. Rows grow by half again at
 * least: a file that adds its events one part at a time would
 * otherwise copy every row once per event, which is cubic in its size
 * when each part also adds a function. profile_finish() cuts the rows
 * back to the events there are.
 */
static void set_stride(struct profile *p, size_t need)
{
	size_t old = p->stride, stride = old + old / 2;
	bool packed;

	if (need <= old)
		return;
	packed = p->incl_packed != NULL;
	profile_unpack_incl(p);
	if (stride < need)
		stride = need;
	p->self = widen(p->self, p->nfuncs, p->self_alloc, old, stride);
	p->call_incl = widen(p->call_incl, p->ncalls, p->call_incl_alloc,
			     old, stride);
	p->pos_cost = widen(p->pos_cost, p->npos, p->pos_cost_alloc, old, stride);
	p->callsite_incl = widen(p->callsite_incl, p->ncallsites,
				 p->callsite_incl_alloc, old, stride);
	p->func_incl = widen(p->func_incl, p->nfuncs, p->extras_alloc, old, stride);
	p->call_self = widen(p->call_self, p->ncalls, p->call_self_alloc, old,
			     stride);
	p->func_count = widen(p->func_count, p->nfuncs, p->extras_alloc, old,
			      stride);
	p->func_peak = widen(p->func_peak, p->nfuncs, p->extras_alloc, old, stride);
	if (p->summary) {
		uint64_t *s = xcalloc(stride, sizeof(*s));

		memcpy(s, p->summary, old * sizeof(*s));
		free(p->summary);
		p->summary = s;
	}
	p->stride = stride;
	if (packed)
		profile_pack_incl(p);
}

uint32_t profile_event(struct profile *p, name_id name)
{
	bool added;
	uint32_t e = u64map_get_or_put(&p->event_index, name,
				       (uint32_t)p->nevents, &added);

	if (!added)
		return e;
	ARRAY_GROW(p->events, p->nevents + 1, p->events_alloc);
	p->events[p->nevents].name = name;
	p->events[p->nevents].long_name = u64map_get(&p->long_names, name);
	p->events[p->nevents].derived = false;
	p->events[p->nevents].unit_seconds = 0;
	p->events[p->nevents].unit = NO_NAME;
	p->events[p->nevents].max = false;
	p->events[p->nevents].sample_count = false;
	p->nevents++;
	set_stride(p, p->nevents);
	return e;
}

uint32_t profile_find_event(const struct profile *p, const char *name)
{
	/* by text, event by event: they are few, and once the profile is
	 * read its names have no table to find them by (names_find()) */
	size_t len = strlen(name);

	for (size_t e = 0; e < p->nevents; e++)
		if (names_len(&p->names, p->events[e].name) == len &&
		    !memcmp(profile_str(p, p->events[e].name), name, len))
			return (uint32_t)e;
	return NO_ID;
}

void profile_set_long_name(struct profile *p, name_id name, name_id long_name)
{
	uint32_t e = u64map_get(&p->event_index, name);

	u64map_put(&p->long_names, name, long_name);
	if (e != U64MAP_NONE)
		p->events[e].long_name = long_name;
}

void profile_define_derived(struct profile *p, name_id name,
			    const struct pterm *terms, size_t nterms,
			    const char *path, uint64_t lineno)
{
	struct pderived *d;

	ARRAY_GROW(p->terms, p->nterms + nterms, p->terms_alloc);
	memcpy(p->terms + p->nterms, terms, nterms * sizeof(*terms));
	ARRAY_GROW(p->derived, p->nderived + 1, p->derived_alloc);
	d = &p->derived[p->nderived++];
	d->name = name;
	d->first_term = (uint32_t)p->nterms;
	d->nterms = (uint32_t)nterms;
	d->path = arena_strndup(&p->arena, path, strlen(path));
	d->lineno = lineno;
	p->nterms += nterms;
}

/* The per-function rows of profile_want_func_extras(), room for want. */
static void grow_extras(struct profile *p, size_t want)
{
	uint64_t **rows[] = { &p->func_incl, &p->func_count, &p->func_peak };
	size_t row = (p->stride ? p->stride : 1) * sizeof(uint64_t), n;

	if (!p->func_incl || want <= p->extras_alloc)
		return;
	n = p->extras_alloc / 2 * 3 + 64;
	if (n < want)
		n = want;
	for (size_t i = 0; i < 3; i++) {
		*rows[i] = xreallocarray(*rows[i], n, row);
		memset((char *)*rows[i] + p->extras_alloc * row, 0,
		       (n - p->extras_alloc) * row);
	}
	p->extras_alloc = n;
}

void profile_func_addr_grow(struct profile *p, uint32_t f)
{
	size_t n = p->func_addrs_alloc / 2 * 3 + 64;

	if (n <= f)
		n = (size_t)f + 1;
	p->func_addrs = xreallocarray(p->func_addrs, n, sizeof(*p->func_addrs));
	memset(p->func_addrs + p->func_addrs_alloc, 0,
	       (n - p->func_addrs_alloc) * sizeof(*p->func_addrs));
	p->func_addrs_alloc = n;
}

void profile_want_func_extras(struct profile *p)
{
	if (p->func_incl)
		return;
	p->func_incl = xcalloc(1, sizeof(uint64_t));
	p->func_count = xcalloc(1, sizeof(uint64_t));
	p->func_peak = xcalloc(1, sizeof(uint64_t));
	p->extras_alloc = 0;
	grow_extras(p, p->nfuncs + 1);
}

void profile_want_call_self(struct profile *p)
{
	if (p->call_self)
		return;
	p->call_self_alloc = p->ncalls + 1;
	p->call_self = xcalloc(p->call_self_alloc * (p->stride ? p->stride : 1),
			       sizeof(uint64_t));
}

uint32_t profile_stack(struct profile *p, uint32_t func, uint32_t caller)
{
	if (p->nstacks >= NO_ID - 1)
		BUG("too many stacks");
	ARRAY_GROW(p->stacks, p->nstacks + 1, p->stacks_alloc);
	p->stacks[p->nstacks].func = func;
	p->stacks[p->nstacks].caller = caller;
	return (uint32_t)p->nstacks++;
}

void profile_add_stack_value(struct profile *p, uint32_t stack,
			     uint32_t event, uint64_t value, uint64_t count)
{
	struct pstack_value *v;

	ARRAY_GROW(p->stack_values, p->nstack_values + 1,
		   p->stack_values_alloc);
	v = &p->stack_values[p->nstack_values++];
	v->stack = stack;
	v->event = event;
	v->value = value;
	v->count = count;
}

static uint32_t profile_func_slow(struct profile *p, name_id object,
				  name_id file, name_id name);
static uint32_t profile_call_slow(struct profile *p, uint32_t caller,
				  uint32_t callee);

static inline unsigned cache_slot(uint64_t a, uint64_t b)
{
	return (unsigned)(hash_u64(a * 0x9e3779b97f4a7c15ULL ^ b) &
			  (PROFILE_CACHE_SLOTS - 1));
}

/*
 * A per-name array of the function found last, and a per-callee one of
 * the arc, went before the cache until the tables became tagged 4-byte
 * slots (profile_index.c). Then they saved nothing measurable on
 * many.60, base.out or sc3.out, and 1.8% on the 1 GB file of one
 * profile 64 times read by one thread (interleaved pairs), and held 8 MB
 * of a big program's reading peak.
 */
uint32_t profile_func(struct profile *p, name_id object, name_id file,
		      name_id name)
{
	unsigned slot = cache_slot((uint64_t)object << 32 | file, name);
	uint32_t hit = p->func_cache[slot];

	if (hit && hit <= p->nfuncs) {
		const struct pfunc *pf = &p->funcs[hit - 1];

		if (pf->name == name && pf->file == file && pf->object == object)
			return hit - 1;
	}
	hit = profile_func_slow(p, object, file, name) + 1;
	p->func_cache[slot] = hit;
	return hit - 1;
}

void profile_set_func_line(struct profile *p, uint32_t f, uint32_t line)
{
	size_t old = p->func_line_alloc;

	if (f >= old) {
		size_t n = p->nfuncs > f ? p->nfuncs : (size_t)f + 1;

		p->func_line = xreallocarray(p->func_line, n,
					     sizeof(*p->func_line));
		memset(p->func_line + old, 0, (n - old) * sizeof(*p->func_line));
		p->func_line_alloc = n;
	}
	p->func_line[f] = line;
}

static uint32_t profile_func_slow(struct profile *p, name_id object,
				  name_id file, name_id name)
{
	uint32_t f = func_index_find(p, object, file, name);

	if (f != NO_ID)
		return f;
	if (p->nfuncs >= NO_ID - 1)
		BUG("too many functions");
	f = (uint32_t)p->nfuncs;
	pindex_add(&p->func_index, f);
	BIG_ARRAY_GROW(p->funcs, p->nfuncs + 1, p->funcs_alloc);
	grow_rows(&p->self, &p->self_alloc, p->nfuncs + 1, p->stride);
	memset(profile_self(p, f), 0, p->stride * sizeof(uint64_t));
	grow_extras(p, p->nfuncs + 1);	/* new rows come zeroed */
	p->funcs[f].name = name;
	p->funcs[f].file = file;
	p->funcs[f].object = object;
	p->nfuncs++;
	return f;
}

void profile_func_soon(const struct profile *p, name_id object, name_id file,
		       name_id name)
{
	func_index_prefetch(p, object, file, name);
}

void profile_call_soon(const struct profile *p, uint32_t caller,
		       uint32_t callee)
{
	call_index_prefetch(p, caller, callee);
}

uint32_t profile_func_once(struct profile *p, name_id object, name_id file,
			   name_id name)
{
	return profile_func_slow(p, object, file, name);
}

uint32_t profile_call_once(struct profile *p, uint32_t caller,
			   uint32_t callee)
{
	return profile_call_slow(p, caller, callee);
}

uint32_t profile_call(struct profile *p, uint32_t caller, uint32_t callee)
{
	unsigned slot = cache_slot(caller, callee);
	uint32_t hit = p->call_cache[slot];

	if (!(hit && hit <= p->ncalls && p->calls[hit - 1].caller == caller &&
	      p->calls[hit - 1].callee == callee)) {
		hit = profile_call_slow(p, caller, callee) + 1;
		p->call_cache[slot] = hit;
	}
	return hit - 1;
}

static uint32_t profile_call_slow(struct profile *p, uint32_t caller,
				  uint32_t callee)
{
	uint32_t c = call_index_find(p, caller, callee);

	if (c != NO_ID)
		return c;
	if (p->ncalls >= NO_ID - 1)
		BUG("too many calls");
	c = (uint32_t)p->ncalls;
	pindex_add(&p->call_index, c);
	BIG_ARRAY_GROW(p->calls, p->ncalls + 1, p->calls_alloc);
	if (p->incl_packed) {
		profile_grow_packed_incl(p, p->ncalls + 1);
		memset(p->incl_packed + (size_t)c * p->stride, 0,
		       p->stride * sizeof(*p->incl_packed));
	} else {
		grow_rows(&p->call_incl, &p->call_incl_alloc, p->ncalls + 1,
			  p->stride);
		memset(profile_call_incl(p, c), 0,
		       p->stride * sizeof(uint64_t));
	}
	if (p->call_self) {
		grow_rows(&p->call_self, &p->call_self_alloc, p->ncalls + 1,
			  p->stride);
		memset(profile_call_self(p, c), 0,
		       p->stride * sizeof(uint64_t));
	}
	p->calls[c].caller = caller;
	p->calls[c].callee = callee;
	p->calls[c].count = 0;
	p->ncalls++;
	return c;
}

void profile_call_set_big(struct profile *p, uint32_t c, uint64_t count)
{
	struct pcall *pc = &p->calls[c];

	if (!(pc->count & PCALL_BIG)) {
		/* once big, an arc's count stays in big_counts[] */
		if (p->nbig_counts >= PCALL_BIG)
			BUG("%zu call counts of 2^31 or more", p->nbig_counts);
		ARRAY_GROW(p->big_counts, p->nbig_counts + 1,
			   p->big_counts_alloc);
		pc->count = PCALL_BIG | (uint32_t)p->nbig_counts++;
	}
	p->big_counts[pc->count & ~PCALL_BIG] = count;
}

void profile_add_summary(struct profile *p, const uint64_t *row)
{
	if (!p->summary)
		p->summary = xcalloc(p->stride ? p->stride : 1,
				     sizeof(*p->summary));
	for (size_t e = 0; e < p->stride; e++)
		p->summary[e] += row[e];
}

struct pinput *profile_add_input(struct profile *p, const char *path,
				 const char *format)
{
	struct pinput *in;

	ARRAY_GROW(p->inputs, p->ninputs + 1, p->inputs_alloc);
	in = &p->inputs[p->ninputs++];
	memset(in, 0, sizeof(*in));
	in->path = names_intern(&p->names, path, strlen(path));
	in->format = names_intern(&p->names, format, strlen(format));
	in->creator = NO_NAME;
	in->cmd = NO_NAME;
	in->comm = NO_NAME;
	in->exe = NO_NAME;
	return in;
}

/* Fill column `col` of every row from the derived event's terms. */
static void compute_column(uint64_t *rows, size_t nrows, size_t stride,
			   size_t col, const struct pterm *terms,
			   const uint32_t *term_cols, size_t nterms)
{
	for (size_t r = 0; r < nrows; r++) {
		uint64_t *row = rows + r * stride;
		uint64_t v = 0;

		for (size_t t = 0; t < nterms; t++)
			v = sat_add(v, sat_mul(terms[t].factor,
					       row[term_cols[t]]));
		row[col] = v;
	}
}

/*
 * Derived events may refer to other derived events, in any order of
 * declaration: compute in passes until no more can be computed. What is
 * left refers to an unknown event (or to itself through others).
 */
static void compute_derived(struct profile *p)
{
	size_t ndone = 0, left = p->nderived;
	bool *done = xcalloc(p->nderived ? p->nderived : 1, sizeof(*done));
	uint32_t *cols = NULL;
	size_t cols_alloc = 0;

	for (size_t d = 0; d < p->nderived; d++) {
		uint32_t e = u64map_get(&p->event_index, p->derived[d].name);

		if (e != U64MAP_NONE && !p->events[e].derived) {
			warning_at(p->derived[d].path, p->derived[d].lineno,
				   "event '%s' is both recorded and derived; using the recorded counts",
				   profile_str(p, p->derived[d].name));
			done[d] = true;
			left--;
		}
	}
	while (left) {
		size_t progress = 0;

		for (size_t d = 0; d < p->nderived; d++) {
			const struct pderived *dv = &p->derived[d];
			const struct pterm *terms = p->terms + dv->first_term;
			bool ready = true;
			uint32_t col;

			if (done[d])
				continue;
			ARRAY_GROW(cols, dv->nterms, cols_alloc);
			for (size_t t = 0; t < dv->nterms; t++) {
				uint32_t e = u64map_get(&p->event_index,
							terms[t].event);

				if (e == U64MAP_NONE) {
					ready = false;
					break;
				}
				cols[t] = e;
			}
			if (!ready)
				continue;
			col = profile_event(p, dv->name);
			p->events[col].derived = true;
			compute_column(p->self, p->nfuncs, p->stride, col,
				       terms, cols, dv->nterms);
			compute_column(p->call_incl, p->ncalls, p->stride, col,
				       terms, cols, dv->nterms);
			compute_column(p->pos_cost, p->npos, p->stride, col,
				       terms, cols, dv->nterms);
			compute_column(p->callsite_incl, p->ncallsites,
				       p->stride, col, terms, cols, dv->nterms);
			if (p->call_self)
				compute_column(p->call_self, p->ncalls,
					       p->stride, col, terms, cols,
					       dv->nterms);
			if (p->summary)
				compute_column(p->summary, 1, p->stride, col,
					       terms, cols, dv->nterms);
			done[d] = true;
			left--;
			progress++;
			ndone++;
		}
		if (!progress)
			break;
	}
	for (size_t d = 0; d < p->nderived; d++) {
		if (!done[d])
			warning_at(p->derived[d].path, p->derived[d].lineno,
				   "derived event '%s' refers to an event the profile does not have; left out",
				   profile_str(p, p->derived[d].name));
	}
	(void)ndone;
	free(cols);
	free(done);
}

/* stride == nevents, as the analysis and the printers expect. */
static void fit_stride(struct profile *p)
{
	size_t stride = p->nevents;

	if (p->stride <= stride)
		return;
	narrow(p->self, p->nfuncs, p->stride, stride);
	narrow(p->call_incl, p->ncalls, p->stride, stride);
	narrow(p->pos_cost, p->npos, p->stride, stride);
	narrow(p->callsite_incl, p->ncallsites, p->stride, stride);
	narrow(p->func_incl, p->nfuncs, p->stride, stride);
	narrow(p->call_self, p->ncalls, p->stride, stride);
	narrow(p->func_count, p->nfuncs, p->stride, stride);
	narrow(p->func_peak, p->nfuncs, p->stride, stride);
	narrow(p->summary, 1, p->stride, stride);
	p->stride = stride;
}

/*
 * Memory still in use after reading from which the freed memory goes
 * back to the system (see give_back_freed()).
 */
#define TRIM_FROM_BYTES ((size_t)64 << 20)

/*
 * What reading freed (the stretches read ahead, each a profile of its
 * own until merged, and the tables that found functions and arcs)
 * stays in the heap, and the analysis takes its memory from there.
 * Given back, it is faulted in again page by page as the analysis
 * takes it: a third of a 16 MB profile's run (61 ms against 45 ms)
 * and a fifth of a 100 MB one's, for 1 to 3 MB of peak. A big
 * program's profile gives it back: there it is 13 to 17 MB of the
 * peak, and the faults a few percent of the run.
 */
static void give_back_freed(void)
{
#ifdef __GLIBC__
	struct mallinfo2 m = mallinfo2();

	if (m.uordblks + m.hblkhd >= TRIM_FROM_BYTES)
		malloc_trim(0);
#endif
}

int profile_finish(struct profile *p)
{
	/* the readers are done: what found their functions and arcs
	 * goes (anything added later builds it again) */
	profile_drop_indexes(p);
	/* derived events add, and a narrower stride moves, 8-byte numbers */
	if (p->nderived || p->stride > p->nevents)
		profile_unpack_incl(p);
	/* and the listings look names up by id only */
	names_drop_table(&p->names);
	give_back_freed();
	compute_derived(p);
	fit_stride(p);
	free(p->totals);
	p->totals = xcalloc(p->stride ? p->stride : 1, sizeof(*p->totals));
	for (size_t f = 0; f < p->nfuncs; f++) {
		const uint64_t *row = profile_self(p, (uint32_t)f);

		for (size_t e = 0; e < p->stride; e++)
			p->totals[e] = profile_event_max(p, e)
				? (row[e] > p->totals[e] ? row[e]
							 : p->totals[e])
				: sat_add(p->totals[e], row[e]);
	}
	/* the analysis and the listings only read the arcs' costs */
	profile_pack_incl(p);
	return 0;
}
