/*
 * perf.data's samples (see perf_samples.h). Samples are read with every
 * mapping they could find known, as perf report sorts its events by
 * time before it uses them (perf_records.c says when).
 */
#include "perf_samples.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "perf_par.h"
#include "perf_reader.h"
#include "perf_unwind.h"

#define HEADER_SIZE PERF_RECORD_HEADER_SIZE
#define CPUMODE_MASK PERF_CPUMODE_MASK

/* The frames the kernel puts in a call chain at most, by default
 * (kernel.perf_event_max_stack; markers not counted). */
#define PERF_CHAIN_LIMIT 127

/* Addresses at or above this in a call chain are context markers. */
#define CONTEXT_MAX ((uint64_t)-4095)

/* The attr a record belongs to, from its id, or the first one. */
const struct perf_attr *perf_attr_by_id(const struct perf_reader *r,
					uint64_t id, bool has_id)
{
	uint32_t i;

	if (r->nattrs == 1 || !has_id)
		return &r->attrs[0];
	i = u64map_get(&r->id_attr, id);
	return i == U64MAP_NONE ? NULL : &r->attrs[i];
}

/*
 * Consecutive samples of a thread share most of their frames (all but
 * the few innermost): the answers of frame_of() are kept by process and
 * address, each with the times its mapping holds for, so that a frame
 * seen before is neither looked up in the mappings nor in the frames
 * again. Direct-mapped: a slot is the last address hashed to it. Exact:
 * a slot answers only within its span, and only while the process's
 * mappings are the same (r->maps_gen: in one pass, they are added to
 * between samples), or changed only elsewhere (perf_maps_same()).
 */
#define FRAME_CACHE_BITS 12

/*
 * A sample's node's cost was two cache misses (the node's first cost,
 * then the cost: 2-3% of the main thread on the 1 GB recording); added
 * COSTS_LATER at a time, each is asked for COSTS_AHEAD samples ahead,
 * its cost half that (the node is in the cache by then).
 */
#define COSTS_LATER 256
#define COSTS_AHEAD 16

static struct perf_frame_slot *frame_slot(struct perf_reader *r,
					  uint32_t pid, uint64_t addr)
{
	uint64_t h = (addr ^ (uint64_t)pid << 40) * 0x9e3779b97f4a7c15ull;

	if (!r->frame_cache)
		r->frame_cache = xcalloc((size_t)1 << FRAME_CACHE_BITS,
					 sizeof(*r->frame_cache));
	return &r->frame_cache[h >> (64 - FRAME_CACHE_BITS)];
}

/*
 * The frame of offset off in object obj, made if new. The frame
 * cache's misses are mostly a process's first samples (on the bench
 * recording, 408,000 of 500,000 a (process, address) never seen), whose
 * frames other processes running the same code had: by (object,
 * offset), direct-mapped, they are found without a look-up in the
 * object's frames (megabytes: a cache miss each).
 */
#define OFFSET_CACHE_BITS 12

static uint32_t offset_frame(struct perf_reader *r, uint32_t obj,
			     uint64_t off)
{
	uint64_t h = (off ^ (uint64_t)obj << 44) * 0x9e3779b97f4a7c15ull;
	struct perf_offset_slot *slot;
	uint32_t frame;
	bool first;

	if (!r->offset_cache)
		r->offset_cache = xcalloc((size_t)1 << OFFSET_CACHE_BITS,
					  sizeof(*r->offset_cache));
	slot = &r->offset_cache[h >> (64 - OFFSET_CACHE_BITS)];
	if (slot->frame1 && slot->offset == off && slot->object == obj)
		return slot->frame1 - 1;
	first = !r->d->objects[obj].frames.nr;
	frame = perf_data_frame(r->d, obj, off);
	if (first && r->opts->perf_object_seen)
		r->opts->perf_object_seen(r->opts->perf_object_ctx,
					  &r->p->names, r->d, obj);
	if (frame < UINT32_MAX)
		*slot = (struct perf_offset_slot){ off, obj, frame + 1 };
	return frame;
}

/* frame_of() where its slot does not answer at once: the slot's frame
 * if the process's mappings changed elsewhere only, else the frame
 * found and kept in the slot. Apart, so that the frame_of() a frame
 * (2.5 million on the 1 GB bench recording, most of them answered by
 * the slot) does not save and restore every register this needs:
 * that was 13 instructions of its 74. */
static __attribute__((noinline)) uint32_t
frame_miss(struct perf_reader *r, struct perf_frame_slot *slot, uint32_t pid,
	   uint64_t addr, uint64_t time, bool kernel,
	   const struct perf_unwind_where *where)
{
	const struct perf_map *map;
	uint64_t from = 0, until = UINT64_MAX, off;
	uint32_t frame, obj;

	/* the process's mappings changed elsewhere: still the same */
	if (!kernel && slot->addr == addr && !slot->kernel && slot->until &&
	    slot->pid == pid && slot->from <= time && time < slot->until &&
	    slot->gen < r->maps_gen &&
	    perf_maps_same(&r->maps, pid, slot->gen, addr)) {
		slot->gen = r->maps_gen;
		return slot->frame;
	}
	if (kernel) {
		obj = r->kernel_obj;
		off = addr;
	} else {
		if (where) {
			map = &r->maps.maps[where->map];
			from = where->from;
			until = where->until;
		} else {
			map = perf_maps_find_span(&r->maps, pid, addr, time,
						  &from, &until);
		}
		obj = map ? map->object : r->unknown_obj;
		off = !map ? addr
			   : addr - map->start +
				     (map->file_offsets ? map->pgoff : 0);
	}
	frame = offset_frame(r, obj, off);
	*slot = (struct perf_frame_slot){ addr, from, until, pid, frame,
					  r->maps_gen, kernel };
	return frame;
}

/* The frame of address addr in process pid at time; kernel addresses
 * are their own offsets in the kernel object. where (NULL: none): its
 * mapping as the unwinder found it, with the reader's mappings as they
 * are now. */
static inline uint32_t frame_of(struct perf_reader *r, uint32_t pid,
				uint64_t addr, uint64_t time, bool kernel,
				const struct perf_unwind_where *where)
{
	struct perf_frame_slot *slot = frame_slot(r, kernel ? 0 : pid, addr);

	if (slot->addr == addr && slot->kernel == kernel && slot->until &&
	    (kernel || (slot->pid == pid && slot->from <= time &&
			time < slot->until && slot->gen == r->maps_gen)))
		return slot->frame;
	return frame_miss(r, slot, pid, addr, time, kernel, where);
}

static void stack_room(struct perf_stack *st, size_t n)
{
	if (n <= st->alloc)
		return;
	st->frames = xreallocarray(st->frames, n, sizeof(*st->frames));
	st->exact = xreallocarray(st->exact, n, sizeof(*st->exact));
	st->alloc = n;
}

/*
 * A call chain's context marker a (>= CONTEXT_MAX): whether the
 * addresses after it are the kernel's, or another context's
 * (hypervisor, guest) that has no mappings here.
 */
static void chain_context(uint64_t a, bool *kernel, bool *other)
{
	*kernel = a == (uint64_t)PERF_CONTEXT_KERNEL;
	*other = a != (uint64_t)PERF_CONTEXT_USER && !*kernel;
}

/*
 * The sample's stack: the call chain with its context markers taken
 * out, or the ip alone. Returns the count. The first address after a
 * marker is where that context was interrupted (the sampled ip; in the
 * user part after kernel frames, the user instruction that entered the
 * kernel, or the one after a system call); the others are return
 * addresses.
 */
static size_t sample_frames(struct perf_reader *r,
			    const struct perf_record *rec,
			    const struct perf_sample *s, struct perf_stack *st,
			    bool *user)
{
	bool kernel = (rec->misc & CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	bool other = false;	/* hypervisor or guest: no mappings */
	bool first = true;
	size_t n = 0;
	struct cursor c;

	*user = !kernel;

	if (!s->has_chain) {
		stack_room(st, 1);
		st->frames[0] = frame_of(r, s->pid, s->ip, s->time, kernel,
					 NULL);
		st->exact[0] = true;
		return 1;
	}
	*user = false;
	stack_room(st, s->nchain);
	perf_cursor(r, &c, s->chain, s->nchain * 8);
	for (uint64_t i = 0; i < s->nchain; i++) {
		uint64_t a = 0;

		cursor_u64(&c, &a);
		if (a >= CONTEXT_MAX) {
			chain_context(a, &kernel, &other);
			first = true;
			continue;
		}
		*user |= !kernel && !other;
		st->frames[n] = other ? perf_data_frame(r->d, r->unknown_obj, a)
				      : frame_of(r, s->pid, a, s->time, kernel,
					    NULL);
		st->exact[n++] = first;
		first = false;
	}
	return n;
}

/* The unwinder, made at the first sample with a user stack dump. */
static struct perf_unwind *unwinder(struct perf_reader *r)
{
	if (!r->unwind_made) {
		r->unwind = perf_unwind_new(r);
		r->unwind_made = true;
	}
	return r->unwind;
}

/*
 * --call-graph dwarf: the user frames unwound from the sample's
 * registers and stack dump, added after the n frames of its chain
 * (the kernel's, which the kernel walked itself): unwound here, or by
 * job (perf_par.h). Returns how many.
 */
static size_t unwound_frames(struct perf_reader *r, const struct perf_attr *a,
			     const struct perf_sample *s, struct perf_stack *st,
			     size_t n, const struct perf_par_job *job)
{
	const struct perf_unwind_where *where;
	const uint64_t *pcs;
	const bool *exact;
	size_t m;
	bool same;

	if (!unwinder(r))
		return 0;
	if (job) {
		m = job->n;
		pcs = job->pcs;
		exact = job->exact;
		where = job->where;
		/* the unwinder's mappings are the reader's now */
		same = job->gen == r->maps_gen;
	} else {
		if (!st->pcs) {
			st->pcs = xmalloc(PERF_UNWIND_MAX * sizeof(*st->pcs));
			st->pcs_exact = xmalloc(PERF_UNWIND_MAX *
						sizeof(*st->pcs_exact));
			st->pcs_where = xmalloc(PERF_UNWIND_MAX *
						sizeof(*st->pcs_where));
		}
		m = perf_unwind_sample(r->unwind, a, s, r->maps_gen, st->pcs,
				       st->pcs_exact, st->pcs_where,
				       PERF_UNWIND_MAX);
		pcs = st->pcs;
		exact = st->pcs_exact;
		where = st->pcs_where;
		same = true;
	}
	stack_room(st, n + m);
	for (size_t i = 0; i < m; i++) {
		bool known = same && where[i].map != PERF_UNWIND_NO_MAP;

		st->frames[n + i] = frame_of(r, s->pid, pcs[i], s->time,
					     false, known ? &where[i] : NULL);
		st->exact[n + i] = exact[i];
	}
	return m;
}

/*
 * Whether sample s's call chain has a user frame, as sample_frames()
 * finds it: then the chain holds the user stack and the dump is not
 * unwound.
 */
static bool chain_user(const struct perf_reader *r,
		       const struct perf_record *rec,
		       const struct perf_sample *s)
{
	bool kernel = (rec->misc & CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	bool other = false;
	struct cursor c;

	if (!s->has_chain)
		return false;
	perf_cursor(r, &c, s->chain, s->nchain * 8);
	for (uint64_t i = 0; i < s->nchain; i++) {
		uint64_t a = 0;

		cursor_u64(&c, &a);
		if (a >= CONTEXT_MAX)
			chain_context(a, &kernel, &other);
		else if (!kernel && !other)
			return true;
	}
	return false;
}

static bool in_ids(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* name is one of the comma-separated names of list */
static bool in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *s = list; *s;) {
		size_t n = strcspn(s, ",");

		if (n == len && !memcmp(s, name, n))
			return true;
		s += n + (s[n] == ',');
	}
	return false;
}

/* --pid, --tid, --comm */
static bool selected(const struct perf_reader *r, const struct perf_sample *s)
{
	const struct perf_select *sel = r->opts->perf_select;
	uint32_t comm;

	if (!sel)
		return true;
	if (sel->npids && !in_ids(sel->pids, sel->npids, s->pid))
		return false;
	if (sel->ntids && !in_ids(sel->tids, sel->ntids, s->tid))
		return false;
	if (sel->comms) {
		comm = perf_maps_comm(&r->maps, s->tid, s->time);
		if (comm == UINT32_MAX ||
		    !in_list(sel->comms, names_str(&r->p->names, comm)))
			return false;
	}
	return true;
}

/* --time (after --pid, --tid, --comm): counted for the note */
static bool in_time(struct perf_reader *r, const struct perf_sample *s)
{
	if (!r->timing)
		return true;
	r->time_all++;
	if (!time_ranges_have(r->ranges, r->opts->perf_select->time->n,
			      s->time))
		return false;
	r->time_kept++;
	return true;
}


/*
 * The stack node of the n frames in st (leaf first) of a sample of
 * thread tid: the path from the root, found or added a frame at a time.
 * The outer frames the thread's last sample had too (its caller's
 * callers: most of a stack) end in the nodes that path found: only the
 * rest is looked up. A thread's last path is kept in the slot of its
 * tid, which another thread may take over: then it starts again.
 */
static uint32_t stack_node(struct perf_reader *r, uint32_t tid,
			   const struct perf_stack *st, size_t n)
{
	struct perf_path *pa =
		&r->paths[((tid * 0x9e3779b1u) >> 16) % PERF_PATHS];
	uint32_t node = NO_ID;
	size_t j = 0;

	if (pa->tid != tid)
		pa->n = 0;
	pa->tid = tid;
	while (j < n && j < pa->n && pa->frames[j] == st->frames[n - 1 - j] &&
	       pa->exact[j] == st->exact[n - 1 - j])
		node = pa->nodes[j++];
	if (n > pa->alloc) {
		pa->frames = xreallocarray(pa->frames, n, sizeof(*pa->frames));
		pa->nodes = xreallocarray(pa->nodes, n, sizeof(*pa->nodes));
		pa->exact = xreallocarray(pa->exact, n, sizeof(*pa->exact));
		pa->alloc = n;
	}
	for (size_t i = j; i < n; i++) {
		pa->frames[i] = st->frames[n - 1 - i];
		pa->exact[i] = st->exact[n - 1 - i];
	}
	pa->n = n;
	return perf_data_path(r->d, pa->frames + j, pa->exact + j, n - j, node,
			      pa->nodes + j);
}

/* The event attr of sample rec, by its id; *a NULL when no attr has
 * its id. */
int perf_sample_attr(struct perf_reader *r, const struct perf_record *rec,
		     const struct perf_attr **ap)
{
	const struct perf_attr *a;
	struct cursor c;

	*ap = NULL;
	if (!r->nattrs)
		return perf_fail(r, rec->off, "a sample before any event attr");
	a = &r->attrs[0];
	if (r->nattrs > 1) {
		long idoff = perf_sample_id_offset(a->sample_type);
		uint64_t id = 0;

		if (idoff >= 0) {
			perf_cursor(r, &c, rec->body, rec->len);
			c.p += (size_t)idoff <= rec->len ? (size_t)idoff : rec->len;
			if (!cursor_u64(&c, &id))
				return perf_fail(r, rec->off, "a sample too "
						 "short for its id");
		}
		a = perf_attr_by_id(r, id, idoff >= 0);
	}
	*ap = a;
	return 0;
}


/* Sample rec's fields, counted, filtered and, in one pass, its
 * process's mappings brought up to its time: 0 or -1. */
int perf_sample_parse(struct perf_reader *r, const struct perf_record *rec,
		      struct perf_parsed *ps)
{
	const struct perf_attr *a;
	const char *why;
	struct cursor c;
	size_t at;

	ps->a = NULL;
	if (perf_sample_attr(r, rec, &a) < 0)
		return -1;
	if (!a) {
		if (!r->samples_no_attr++)
			r->first_no_attr_off = r->in_inflated ? r->inflated_from
							      : rec->off;
		return 0;
	}
	perf_cursor(r, &c, rec->body, rec->len);
	if (perf_parse_sample(a, &c, &ps->s, &why, &at) < 0)
		return perf_fail(r, rec->off + HEADER_SIZE + at,
				 "a sample record (%zu bytes at 0x%zx) ends "
				 "inside %s", rec->len + HEADER_SIZE, rec->off,
				 why);
	if (!(a->sample_type & PERF_SAMPLE_PERIOD))
		ps->s.period = a->sample_period;	/* as perf report takes it */
	if (ps->s.dyn_over_size)
		perf_quirk(r, PERF_Q_DYN_SIZE, rec->off);
	/* perf's own samples end at their last field; the sample_id
	 * trailer is not after samples */
	if (ps->s.trailing)
		perf_quirk(r, PERF_Q_SAMPLE_TRAILING, rec->off);
	if (ps->s.has_stack_user)
		r->d->dwarf_stacks = true;
	/* --call-graph lbr: the user part of the stack is in the branch
	 * stack's calls, not in the chain (see report()) */
	if (ps->s.nbranches &&
	    (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		r->lbr_samples++;
	if (!selected(r, &ps->s) || !in_time(r, &ps->s)) {
		r->samples_filtered++;
		return 0;
	}
	if (r->one_pass) {
		/* the mappings noted since the last sample taken in: if
		 * one would change what a sample before found, the file is
		 * read again in two passes (read_perf.c) */
		r->maps_gen = perf_maps_sample(&r->maps, ps->s.pid, ps->s.time);
		if (r->maps.disordered)
			return -1;
	}
	ps->gen = r->maps_gen;
	ps->a = a;
	return 0;
}

/*
 * Parsed sample ps's frames and its cost added to the profile: its
 * user stack unwound here, or by job (which unwound it when the
 * sample has one to unwind). 0 or -1.
 */
int perf_sample_add(struct perf_reader *r, const struct perf_record *rec,
		    const struct perf_parsed *ps, struct perf_stack *st,
		    const struct perf_par_job *job)
{
	const struct perf_attr *a = ps->a;
	struct perf_sample s = ps->s;
	uint32_t node = NO_ID, thread;
	size_t n = 0;
	bool user = false, deep;

	r->maps_gen = ps->gen;
	if (s.has_chain)
		n = sample_frames(r, rec, &s, st, &user);
	r->chain_samples += s.has_chain && !s.stack_size;
	/* the kernel stops a chain at kernel.perf_event_max_stack frames
	 * (127 unless set), markers not counted: deeper stacks lose their
	 * outermost callers, which perf report does not say either */
	deep = n >= PERF_CHAIN_LIMIT;
	/* --call-graph dwarf leaves the user part out of the chain (perf
	 * sets exclude_callchain_user): it is unwound from the dump */
	if (job && job->unwind != (!user && s.stack_size && r->unwind))
		BUG("a sample at 0x%zx unwound on another thread or not, "
		    "against what its chain says", rec->off);
	if (!user && s.stack_size) {
		size_t m;

		r->dwarf_samples++;
		m = unwound_frames(r, a, &s, st, n, job);
		deep |= m >= PERF_UNWIND_MAX;
		n += m;
		if (r->unwind && !perf_unwind_regs_usable(a, &s))
			perf_quirk(r, PERF_Q_NO_REGS, rec->off);
	}
	if (!n && s.has_ip) {
		/* a sample in user code whose stack was not unwound */
		s.has_chain = false;
		n = sample_frames(r, rec, &s, st, &user);
	}
	if (deep)
		perf_quirk(r, PERF_Q_DEEP_STACK, rec->off);
	/* --max-stack, as perf report's: the innermost frames (leaf
	 * first) */
	if (r->opts->perf_max_stack && n > r->opts->perf_max_stack)
		n = r->opts->perf_max_stack;
	if (!n) {
		r->d->samples_no_chain++;
		stack_room(st, 1);
		st->frames[0] = perf_data_frame(r->d, r->unknown_obj, 0);
		st->exact[0] = true;
		n = 1;
	}
	/* every function's inclusive cost is at most its event's total:
	 * past 2^64 here, they could wrap later, where no file or record
	 * is known any more */
	if (r->d->events[a->event].period > UINT64_MAX - s.period)
		return perf_fail(r, rec->off, "the periods of event '%s' add "
				 "up past 2^64 at this sample (of period "
				 "%llu): the recording is damaged",
				 names_str(&r->p->names,
					   r->d->events[a->event].name),
				 (unsigned long long)s.period);
	node = stack_node(r, s.tid, st, n);
	/* the node's cost later, with the next samples' (the events'
	 * totals now: the check above reads them) */
	perf_data_add_event_samples(r->d, a->event, s.period, 1);
	if (r->nlater == COSTS_LATER)
		perf_samples_add_costs(r);
	ARRAY_GROW(r->later, r->nlater + 1, r->later_alloc);
	r->later[r->nlater++] = (struct perf_cost_later){ node, a->event,
							  s.period };
	thread = perf_data_add_thread_sample(r->d, s.pid, s.tid, a->event,
					     s.period);
	if (r->d->logging)
		perf_data_log_sample(r->d, node, thread, a->event, s.period,
				     a->sample_type & PERF_SAMPLE_TIME, s.time);
	return 0;
}

void perf_samples_add_costs(struct perf_reader *r)
{
	const struct perf_cost_later *l = r->later;
	size_t n = r->nlater;

	for (size_t i = 0; i < n; i++) {
		if (i + COSTS_AHEAD < n)
			perf_data_prefetch_costs(r->d, l[i + COSTS_AHEAD].node,
						 0);
		if (i + COSTS_AHEAD / 2 < n)
			perf_data_prefetch_costs(r->d,
						 l[i + COSTS_AHEAD / 2].node, 1);
		perf_data_add_node_samples(r->d, l[i].node, l[i].event,
					   l[i].period, 1);
	}
	r->nlater = 0;
}

int perf_read_sample(struct perf_reader *r, const struct perf_record *rec,
		     struct perf_stack *st)
{
	struct perf_parsed ps;

	if (perf_sample_parse(r, rec, &ps) < 0)
		return -1;
	return ps.a ? perf_sample_add(r, rec, &ps, st, NULL) : 0;
}

bool perf_sample_unwinds(struct perf_reader *r, const struct perf_record *rec,
			 const struct perf_parsed *ps)
{
	return ps->a && ps->s.stack_size && !chain_user(r, rec, &ps->s) &&
	       unwinder(r);
}

void perf_stack_free(struct perf_stack *st)
{
	free(st->frames);
	free(st->exact);
	free(st->pcs);
	free(st->pcs_exact);
	free(st->pcs_where);
}
