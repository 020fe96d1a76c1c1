/*
 * perf.data's records (see perf_reader.h): each starts with a header
 * (u32 type, u16 misc, u16 size), and its size says where the next one
 * starts, so a record of a type we do not know is skipped (with one
 * warning for all of them). A size under the header's 8 bytes, or past
 * the end, is an error: a reader must not loop or read beyond it.
 *
 * The kernel's records (<linux/perf_event.h>, struct perf_event_type)
 * may end with the sample_id trailer (attr.sample_id_all), which says
 * when they happened: mappings are looked up by time. Samples are read
 * with every mapping they could find known, as perf report sorts its
 * events by time before it uses them: in a second pass, or in one pass
 * where the file's rounds allow (held until the rounds after them have
 * been read, and checked; see hold_sample()).
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "perf_inflate.h"
#include "perf_reader.h"
#include "perf_source.h"
#include "perf_unwind.h"

#define HEADER_SIZE 8
#define CPUMODE_MASK 7u
#define MISC_MMAP_BUILD_ID (1u << 14)

/* The frames the kernel puts in a call chain at most, by default
 * (kernel.perf_event_max_stack; markers not counted). */
#define PERF_CHAIN_LIMIT 127

/* Addresses at or above this in a call chain are context markers. */
#define CONTEXT_MAX ((uint64_t)-4095)

struct record {
	uint32_t type;
	uint16_t misc, size;
	size_t off;			/* of the header, in the file */
	const unsigned char *body;	/* after the header */
	size_t len;			/* of the body */
};

/* The attr a record belongs to, from its id, or the first one. */
static const struct perf_attr *attr_by_id(const struct perf_reader *r,
					  uint64_t id, bool has_id)
{
	uint32_t i;

	if (r->nattrs == 1 || !has_id)
		return &r->attrs[0];
	i = u64map_get(&r->id_attr, id);
	return i == U64MAP_NONE ? NULL : &r->attrs[i];
}

/*
 * The sample_id trailer of a non-sample record. Every attr has the
 * same sample_id layout but IDENTIFIER, when present, is the record's
 * last u64 and names the attr; else the first attr's layout is it.
 */
static void trailer(const struct perf_reader *r, const struct record *rec,
		    struct perf_trailer *t)
{
	const struct perf_attr *a;

	memset(t, 0, sizeof(*t));
	if (!r->nattrs)
		return;
	a = &r->attrs[0];
	if ((a->sample_type & PERF_SAMPLE_IDENTIFIER) && rec->len >= 8) {
		struct cursor c;
		uint64_t id = 0;

		perf_cursor(r, &c, rec->body + rec->len - 8, 8);
		cursor_u64(&c, &id);
		a = attr_by_id(r, id, true);
		if (!a)
			a = &r->attrs[0];
	}
	perf_parse_trailer(a, rec->body, rec->len, r->big_endian, t);
}

static size_t trailer_size(const struct perf_reader *r)
{
	return r->nattrs ? perf_trailer_size(&r->attrs[0]) : 0;
}

/* A name of n bytes, with its NUL, padded to 8 as perf and the kernel
 * write it. */
static size_t padded(size_t n)
{
	return (n + 1 + 7) / 8 * 8;
}

static enum perf_object_kind kind_of(const char *name)
{
	return name[0] == '/' ? PERF_OBJ_FILE : PERF_OBJ_ANON;
}

/*
 * MMAP:  u32 pid, tid; u64 addr, len, pgoff; char filename[]
 * MMAP2: the same up to pgoff, then 24 bytes (device and inode, or a
 *        build-id), u32 prot, flags, then the filename.
 * The filename is NUL-terminated and padded; the trailer follows it.
 */
static int read_mmap(struct perf_reader *r, const struct record *rec)
{
	size_t fixed = rec->type == PERF_RECORD_MMAP2 ? 64 : 32;
	size_t tsize = trailer_size(r), nlen;
	struct perf_trailer t;
	struct perf_map map;
	uint32_t pid, tid;
	uint64_t addr, len;
	const char *name;
	struct cursor c;

	if (rec->len < fixed + tsize)
		return perf_fail(r, rec->off, "a mapping record of %zu bytes, "
				 "fewer than its %zu fixed bytes and trailer",
				 rec->len + HEADER_SIZE, fixed + tsize + HEADER_SIZE);
	perf_cursor(r, &c, rec->body, fixed);
	cursor_u32(&c, &pid);
	cursor_u32(&c, &tid);
	cursor_u64(&c, &addr);
	cursor_u64(&c, &len);
	cursor_u64(&c, &map.pgoff);
	if ((rec->misc & CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
	    pid == UINT32_MAX)
		return 0;	/* the kernel's and its modules': kernel
				 * addresses are named by address */
	trailer(r, rec, &t);
	name = (const char *)rec->body + fixed;
	nlen = strnlen(name, rec->len - fixed - tsize);
	if (fixed + padded(nlen) + tsize < rec->len)
		perf_quirk(r, PERF_Q_RECORD_LONG, rec->off);
	if (!len) {
		/* holds no address: nothing to add */
		perf_quirk(r, PERF_Q_MAP_EMPTY, rec->off);
		return 0;
	}
	map.start = addr;
	map.end = addr + len < addr ? UINT64_MAX : addr + len;
	/* an offset in the file past 2^64 at the mapping's end: the
	 * offsets of its addresses would wrap */
	if (map.pgoff > UINT64_MAX - (map.end - map.start))
		perf_quirk(r, PERF_Q_MAP_PGOFF, rec->off);
	map.time = t.time;
	map.object = perf_data_object(r->d, &r->p->names, name, nlen,
				      nlen ? kind_of(name) : PERF_OBJ_ANON);
	map.file_offsets = r->d->objects[map.object].kind == PERF_OBJ_FILE;
	if (rec->type == PERF_RECORD_MMAP2 &&
	    (rec->misc & MISC_MMAP_BUILD_ID)) {
		uint8_t n = rec->body[32];

		if (n > PERF_BUILD_ID_MAX)
			n = PERF_BUILD_ID_MAX;
		if (perf_set_build_id(r, map.object, rec->body + 36, n,
				      rec->off) < 0)
			return -1;
	}
	perf_maps_add(&r->maps, pid, &map);
	return 0;
}

/* FORK and EXIT: u32 pid, ppid, tid, ptid; u64 time. A new process
 * starts with its parent's mappings; a new thread shares them. */
static int read_fork(struct perf_reader *r, const struct record *rec)
{
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
	struct cursor c;

	if (rec->len < 24)
		return perf_fail(r, rec->off, "a fork record of %zu bytes, "
				 "fewer than its 32", rec->len + HEADER_SIZE);
	perf_cursor(r, &c, rec->body, 24);
	cursor_u32(&c, &pid);
	cursor_u32(&c, &ppid);
	cursor_u32(&c, &tid);
	cursor_u32(&c, &ptid);
	cursor_u64(&c, &time);
	if (rec->len > 24 + trailer_size(r))
		perf_quirk(r, PERF_Q_RECORD_LONG, rec->off);
	if (rec->type != PERF_RECORD_FORK)
		return 0;
	/* Without times on the records around it (no sample_id_all),
	 * MMAP and COMM are at time 0: so is the FORK, or the mappings
	 * and names a child got of its own before would be older than
	 * those it inherits, and those taken first (perf_maps.h) */
	{
		struct perf_trailer t;

		trailer(r, rec, &t);
		if (!t.has_time)
			time = 0;
	}
	if (pid != ppid)
		perf_maps_fork(&r->maps, ppid, pid, time);
	/* a new thread or process is called as its parent until its own
	 * COMM (an exec, prctl) */
	{
		uint32_t comm = perf_maps_comm(&r->maps, ptid, time);

		if (comm != UINT32_MAX)
			perf_maps_set_comm(&r->maps, tid, time, comm);
	}
	return 0;
}

/* LOST: u64 id, lost. LOST_SAMPLES: u64 lost. */
static int read_lost(struct perf_reader *r, const struct record *rec)
{
	size_t at = rec->type == PERF_RECORD_LOST ? 8 : 0;
	uint64_t n = 0, *sum;
	struct cursor c;

	if (rec->len < at + 8)
		return perf_fail(r, rec->off, "a lost-events record of %zu "
				 "bytes, too short for its count",
				 rec->len + HEADER_SIZE);
	perf_cursor(r, &c, rec->body + at, 8);
	cursor_u64(&c, &n);
	if (rec->len > at + 8 + trailer_size(r))
		perf_quirk(r, PERF_Q_RECORD_LONG, rec->off);
	/* counts past 2^64 stay at 2^64 - 1, with a word: not wrapped to
	 * a small number */
	sum = rec->type == PERF_RECORD_LOST ? &r->d->lost_events
					    : &r->d->lost_samples;
	if (*sum > UINT64_MAX - n) {
		perf_quirk(r, PERF_Q_LOST_WRAP, rec->off);
		*sum = UINT64_MAX;
	} else {
		*sum += n;
	}
	if (rec->type == PERF_RECORD_LOST)
		r->d->lost_records++;
	return 0;
}

/*
 * ID_INDEX: u64 nr, then nr times u64 id, idx, cpu, tid. Its idx is the
 * ring buffer the id's samples went through (for AUX tracing), not the
 * event: the attrs' own id lists say which event an id is. Only
 * checked.
 */
static int read_id_index(struct perf_reader *r, const struct record *rec)
{
	uint64_t nr = 0;
	struct cursor c;

	perf_cursor(r, &c, rec->body, rec->len);
	if (cursor_u64(&c, &nr) < 0 || nr > cursor_left(&c) / 32)
		return perf_fail(r, rec->off, "an id index of %llu entries "
				 "in a record of %zu bytes",
				 (unsigned long long)nr, rec->len + HEADER_SIZE);
	return 0;
}

/* Pipe mode: HEADER_ATTR is the attr, then its ids to the end. */
static int read_header_attr(struct perf_reader *r, const struct record *rec)
{
	struct perf_attr a;
	size_t used;

	if (perf_parse_attr(r, rec->body, rec->len, rec->off + HEADER_SIZE,
			    &a, &used) < 0)
		return -1;
	return perf_add_attr(r, &a, rec->body + used, (rec->len - used) / 8,
			     rec->off + HEADER_SIZE + used);
}

/* Pipe mode: HEADER_FEATURE is a u64 feature number, then its data. */
static int read_header_feature(struct perf_reader *r, const struct record *rec)
{
	uint64_t feat = 0;
	struct cursor c;

	perf_cursor(r, &c, rec->body, rec->len);
	if (cursor_u64(&c, &feat) < 0)
		return perf_fail(r, rec->off, "a feature record without its "
				 "feature number");
	if (feat >= PERF_FEAT_BITS)
		return 0;
	return perf_read_feature(r, (unsigned)feat, rec->off + 16,
				 rec->len - 8);
}

/* --- samples --- */

/*
 * Consecutive samples of a thread share most of their frames (all but
 * the few innermost): the answers of frame_of() are kept by process and
 * address, each with the times its mapping holds for, so that a frame
 * seen before is neither looked up in the mappings nor in the frames
 * again. Direct-mapped: a slot is the last address hashed to it. Exact:
 * a slot answers only within its span, and only while the process's
 * mappings are the same (r->maps_gen: in one pass, they are added to
 * between samples).
 */
#define FRAME_CACHE_BITS 12

static struct perf_frame_slot *frame_slot(struct perf_reader *r,
					  uint32_t pid, uint64_t addr)
{
	uint64_t h = (addr ^ (uint64_t)pid << 40) * 0x9e3779b97f4a7c15ull;

	if (!r->frame_cache)
		r->frame_cache = xcalloc((size_t)1 << FRAME_CACHE_BITS,
					 sizeof(*r->frame_cache));
	return &r->frame_cache[h >> (64 - FRAME_CACHE_BITS)];
}

/* The frame of address addr in process pid at time; kernel addresses
 * are their own offsets in the kernel object. */
static uint32_t frame_of(struct perf_reader *r, uint32_t pid, uint64_t addr,
			 uint64_t time, bool kernel)
{
	struct perf_frame_slot *slot = frame_slot(r, kernel ? 0 : pid, addr);
	const struct perf_map *map;
	uint64_t from = 0, until = UINT64_MAX, off;
	uint32_t frame, obj;
	bool first;

	if (slot->addr == addr && slot->kernel == kernel &&
	    (kernel || (slot->pid == pid && slot->gen == r->maps_gen &&
			slot->from <= time && time < slot->until)) &&
	    slot->until)
		return slot->frame;
	if (kernel) {
		obj = r->kernel_obj;
		off = addr;
	} else {
		map = perf_maps_find_span(&r->maps, pid, addr, time, &from,
					  &until);
		obj = map ? map->object : r->unknown_obj;
		off = !map ? addr
			   : addr - map->start +
				     (map->file_offsets ? map->pgoff : 0);
	}
	first = !r->d->objects[obj].frames.nr;
	frame = perf_data_frame(r->d, obj, off);
	if (first && r->opts->perf_object_seen)
		r->opts->perf_object_seen(r->opts->perf_object_ctx,
					  &r->p->names, r->d, obj);
	*slot = (struct perf_frame_slot){ addr, from, until, pid, frame,
					  r->maps_gen, kernel };
	return frame;
}

/* A sample's stack, leaf first: frames and whether each is exact;
 * and the unwinder's addresses (PERF_UNWIND_MAX). */
struct stack {
	uint32_t *frames;
	bool *exact;
	size_t alloc;
	uint64_t *pcs;
	bool *pcs_exact;
};

static void stack_room(struct stack *st, size_t n)
{
	if (n <= st->alloc)
		return;
	st->frames = xreallocarray(st->frames, n, sizeof(*st->frames));
	st->exact = xreallocarray(st->exact, n, sizeof(*st->exact));
	st->alloc = n;
}

/*
 * The sample's stack: the call chain with its context markers taken
 * out, or the ip alone. Returns the count. The first address after a
 * marker is where that context was interrupted (the sampled ip; in the
 * user part after kernel frames, the user instruction that entered the
 * kernel, or the one after a system call); the others are return
 * addresses.
 */
static size_t sample_frames(struct perf_reader *r, const struct record *rec,
			    const struct perf_sample *s, struct stack *st,
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
		st->frames[0] = frame_of(r, s->pid, s->ip, s->time, kernel);
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
			kernel = a == (uint64_t)PERF_CONTEXT_KERNEL;
			other = a != (uint64_t)PERF_CONTEXT_USER && !kernel;
			first = true;
			continue;
		}
		*user |= !kernel && !other;
		st->frames[n] = other ? perf_data_frame(r->d, r->unknown_obj, a)
				      : frame_of(r, s->pid, a, s->time, kernel);
		st->exact[n++] = first;
		first = false;
	}
	return n;
}

/*
 * --call-graph dwarf: the user frames unwound from the sample's
 * registers and stack dump, added after the n frames of its chain
 * (the kernel's, which the kernel walked itself). Returns how many.
 */
static size_t unwound_frames(struct perf_reader *r, const struct perf_attr *a,
			     const struct perf_sample *s, struct stack *st,
			     size_t n)
{
	size_t m;

	if (!r->unwind_made) {
		r->unwind = perf_unwind_new(r);
		r->unwind_made = true;
	}
	if (!r->unwind)
		return 0;
	if (!st->pcs) {
		st->pcs = xmalloc(PERF_UNWIND_MAX * sizeof(*st->pcs));
		st->pcs_exact = xmalloc(PERF_UNWIND_MAX *
					sizeof(*st->pcs_exact));
	}
	m = perf_unwind_sample(r->unwind, a, s, st->pcs, st->pcs_exact,
			       PERF_UNWIND_MAX);
	stack_room(st, n + m);
	for (size_t i = 0; i < m; i++) {
		st->frames[n + i] = frame_of(r, s->pid, st->pcs[i], s->time,
					     false);
		st->exact[n + i] = st->pcs_exact[i];
	}
	return m;
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

/* COMM: u32 pid, tid; char comm[] (then the trailer). */
static int read_comm(struct perf_reader *r, const struct record *rec)
{
	size_t tsize = trailer_size(r), nlen;
	struct perf_trailer t;
	uint32_t pid, tid;
	const char *name;
	struct cursor c;

	if (rec->len < 8 + tsize)
		return perf_fail(r, rec->off, "a command-name record of %zu "
				 "bytes, too short for its fields",
				 rec->len + HEADER_SIZE);
	perf_cursor(r, &c, rec->body, 8);
	cursor_u32(&c, &pid);
	cursor_u32(&c, &tid);
	trailer(r, rec, &t);
	name = (const char *)rec->body + 8;
	nlen = strnlen(name, rec->len - 8 - tsize);
	if (8 + padded(nlen) + tsize < rec->len)
		perf_quirk(r, PERF_Q_RECORD_LONG, rec->off);
	perf_maps_set_comm(&r->maps, tid, t.time,
			   names_intern(&r->p->names, name, nlen));
	return 0;
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
			   const struct stack *st, size_t n)
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
static int sample_attr(struct perf_reader *r, const struct record *rec,
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
			if (cursor_u64(&c, &id) < 0)
				return perf_fail(r, rec->off, "a sample too "
						 "short for its id");
		}
		a = attr_by_id(r, id, idoff >= 0);
	}
	*ap = a;
	return 0;
}

/*
 * --time, pass 1: the first and last samples' times, which its
 * relative and percentage forms count from. A sample that does not
 * parse is left to pass 2 to report.
 */
static int sample_time(struct perf_reader *r, const struct record *rec)
{
	const struct perf_attr *a;
	struct perf_sample s;
	const char *why;
	struct cursor c;
	size_t at;

	if (sample_attr(r, rec, &a) < 0)
		return -1;
	if (!a)
		return 0;
	if (!(a->sample_type & PERF_SAMPLE_TIME))
		return perf_fail(r, rec->off, "--time needs the samples' "
				 "times, and this sample has none (its event "
				 "was recorded without PERF_SAMPLE_TIME, as "
				 "perf record -e EVENT/time=0/ records it)");
	perf_cursor(r, &c, rec->body, rec->len);
	if (perf_parse_sample(a, &c, &s, &why, &at) < 0)
		return 0;
	if (!r->time_seen || s.time < r->time_first)
		r->time_first = s.time;
	if (!r->time_seen || s.time > r->time_last)
		r->time_last = s.time;
	r->time_seen = true;
	return 0;
}

static int read_sample(struct perf_reader *r, const struct record *rec,
		       struct stack *st)
{
	const struct perf_attr *a;
	struct perf_sample s;
	const char *why;
	uint32_t node = NO_ID, thread;
	struct cursor c;
	size_t at, n = 0;
	bool user = false, deep;

	if (sample_attr(r, rec, &a) < 0)
		return -1;
	if (!a) {
		if (!r->samples_no_attr++)
			r->first_no_attr_off = r->in_inflated ? r->inflated_from
							      : rec->off;
		return 0;
	}
	perf_cursor(r, &c, rec->body, rec->len);
	if (perf_parse_sample(a, &c, &s, &why, &at) < 0)
		return perf_fail(r, rec->off + HEADER_SIZE + at,
				 "a sample record (%zu bytes at 0x%zx) ends "
				 "inside %s", rec->len + HEADER_SIZE, rec->off,
				 why);
	if (!(a->sample_type & PERF_SAMPLE_PERIOD))
		s.period = a->sample_period;	/* as perf report takes it */
	if (s.dyn_over_size)
		perf_quirk(r, PERF_Q_DYN_SIZE, rec->off);
	/* perf's own samples end at their last field; the sample_id
	 * trailer is not after samples */
	if (s.trailing)
		perf_quirk(r, PERF_Q_SAMPLE_TRAILING, rec->off);
	if (s.has_stack_user)
		r->d->dwarf_stacks = true;
	/* --call-graph lbr: the user part of the stack is in the branch
	 * stack's calls, not in the chain (see report()) */
	if (s.nbranches &&
	    (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		r->lbr_samples++;
	if (!selected(r, &s) || !in_time(r, &s)) {
		r->samples_filtered++;
		return 0;
	}
	if (r->one_pass) {
		/* the mappings noted since the last sample taken in: if
		 * one would change what a sample before found, the file is
		 * read again in two passes (read_perf.c) */
		r->maps_gen = perf_maps_sample(&r->maps, s.pid, s.time);
		if (r->maps.disordered)
			return -1;
	}
	if (s.has_chain)
		n = sample_frames(r, rec, &s, st, &user);
	r->chain_samples += s.has_chain && !s.stack_size;
	/* the kernel stops a chain at kernel.perf_event_max_stack frames
	 * (127 unless set), markers not counted: deeper stacks lose their
	 * outermost callers, which perf report does not say either */
	deep = n >= PERF_CHAIN_LIMIT;
	/* --call-graph dwarf leaves the user part out of the chain (perf
	 * sets exclude_callchain_user): it is unwound from the dump */
	if (!user && s.stack_size) {
		size_t m;

		r->dwarf_samples++;
		m = unwound_frames(r, a, &s, st, n);
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
	perf_data_add_sample(r->d, node, a->event, s.period);
	thread = perf_data_add_thread_sample(r->d, s.pid, s.tid, a->event,
					     s.period);
	if (r->d->logging)
		perf_data_log_sample(r->d, node, thread, a->event, s.period,
				     a->sample_type & PERF_SAMPLE_TIME, s.time);
	return 0;
}

/* --- the loop --- */

static void count_unknown(struct perf_reader *r, const struct record *rec)
{
	if (!r->unknown_records++) {
		r->first_unknown_type = rec->type;
		r->first_unknown_off = r->in_inflated ? r->inflated_from
						      : rec->off;
	}
}

/* Records that need nothing of us, in either pass. */
static bool ignored(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_READ:
	case PERF_RECORD_AUX:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_TEXT_POKE:
	case 21:			/* AUX_OUTPUT_HW_ID */
	case PERF_REC_HEADER_EVENT_TYPE:
	case PERF_REC_FINISHED_ROUND:
	case PERF_REC_AUXTRACE_INFO:
	case PERF_REC_AUXTRACE_ERROR:
	case PERF_REC_THREAD_MAP:
	case PERF_REC_CPU_MAP:
	case PERF_REC_STAT_CONFIG:
	case PERF_REC_STAT:
	case PERF_REC_STAT_ROUND:
	case PERF_REC_EVENT_UPDATE:
	case PERF_REC_TIME_CONV:
	case PERF_REC_FINISHED_INIT:
		return true;
	default:
		return false;
	}
}

static int first_pass(struct perf_reader *r, const struct record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return r->timing ? sample_time(r, rec) : 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return read_mmap(r, rec);
	case PERF_RECORD_COMM:
		return read_comm(r, rec);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return read_fork(r, rec);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		return read_lost(r, rec);
	case PERF_REC_ID_INDEX:
		return read_id_index(r, rec);
	case PERF_REC_HEADER_ATTR:
		/* one pass: the events were set before the first record */
		return r->one_pass ? -1 : read_header_attr(r, rec);
	case PERF_REC_HEADER_FEATURE:
		return r->one_pass ? -1 : read_header_feature(r, rec);
	case PERF_REC_HEADER_BUILD_ID:
		return perf_read_build_id(r, rec->off, rec->size);
	case PERF_REC_HEADER_TRACING_DATA:
		return 0;
	default:
		if (!ignored(rec->type))
			count_unknown(r, rec);
		return 0;
	}
}

/*
 * Data that follows a record outside its size: pipe mode's tracing
 * data (HEADER_TRACING_DATA: u32 size, padded to 8) and AUXTRACE's
 * trace (u64 size at the body's start). 0 for other records.
 */
static int extra_bytes(const struct perf_reader *r, const struct record *rec,
		       uint64_t *extra)
{
	struct cursor c;
	uint64_t n = 0;
	uint32_t n32 = 0;

	*extra = 0;
	perf_cursor(r, &c, rec->body, rec->len);
	if (rec->type == PERF_REC_HEADER_TRACING_DATA) {
		if (cursor_u32(&c, &n32) < 0)
			return perf_fail(r, rec->off, "a tracing-data record "
					 "without its size");
		*extra = ((uint64_t)n32 + 7) & ~(uint64_t)7;
	} else if (rec->type == PERF_REC_AUXTRACE) {
		if (cursor_u64(&c, &n) < 0)
			return perf_fail(r, rec->off, "an AUX trace record "
					 "without its size");
		*extra = n;
	}
	return 0;
}

/* The record header at p (HEADER_SIZE bytes there at least), at
 * offset off of the file or of the decompressed data. */
static void parse_header(const struct perf_reader *r, const unsigned char *p,
			 size_t off, struct record *rec)
{
	struct cursor c;

	perf_cursor(r, &c, p, HEADER_SIZE);
	cursor_u32(&c, &rec->type);
	cursor_u16(&c, &rec->misc);
	cursor_u16(&c, &rec->size);
	rec->off = off;
	rec->body = p + HEADER_SIZE;
	rec->len = rec->size >= HEADER_SIZE ? rec->size - HEADER_SIZE : 0;
}

/*
 * One pass: what a held sample may wait for. perf record writes the
 * kernel's buffers a round at a time, every CPU's in turn, each round
 * ended by a FINISHED_ROUND; a record of one CPU may come after a
 * later one of another in its round, but perf report takes a round's
 * end to mean that nothing older than the previous round's latest
 * event is still to come, and sorts no further back (its ordered
 * events). The samples are held in file order and read, the oldest
 * first, once a round has ended after the round ending past their
 * time; perf_maps_sample() checks that no record then comes that
 * would have changed them (else the file is read in two passes), so a
 * recording that breaks perf's rule is read right all the same.
 */
#define HELD_MAX_BYTES ((size_t)64 << 20)

static int hold_sample(struct perf_reader *r, const struct record *rec)
{
	const struct perf_attr *a;
	/* the file's own bytes are asked for again (perf_source.h); a
	 * compressed record's decompressed ones are copied */
	struct perf_held h = { rec->off, r->inflated_from, 0, r->in_inflated,
			       rec->size,
			       r->in_inflated ? rec->body - HEADER_SIZE : NULL };
	long at;

	if (sample_attr(r, rec, &a) < 0)
		return -1;
	/* a sample of no event waits only for its turn */
	at = a ? perf_sample_time_offset(a->sample_type) : -1;
	if (at >= 0 && (size_t)at + 8 <= rec->len) {
		struct cursor c;

		perf_cursor(r, &c, rec->body + at, 8);
		cursor_u64(&c, &h.time);
	}
	if (h.time > r->max_time)
		r->max_time = h.time;
	perf_pending_push(&r->held, &h);
	/* no rounds, or rounds that do not end: two passes hold nothing */
	return perf_pending_bytes(&r->held) > HELD_MAX_BYTES ? -1 : 0;
}

/* The held samples up to time limit, from the oldest held. */
static int read_held(struct perf_reader *r, uint64_t limit, struct stack *st)
{
	bool in_inflated = r->in_inflated;
	size_t inflated_from = r->inflated_from;
	struct perf_held h;
	int ret = 0;

	while (perf_pending_front(&r->held, &h) && h.time <= limit) {
		struct record rec;

		if (!h.bytes) {
			h.bytes = perf_source_bytes(r->source, h.off, h.size,
						    h.off);
			if (!h.bytes) {
				ret = -1;
				break;
			}
		}
		parse_header(r, h.bytes, h.off, &rec);
		r->in_inflated = h.inflated;
		r->inflated_from = h.inflated_from;
		ret = read_sample(r, &rec, st);
		if (ret < 0)
			break;
		perf_pending_pop(&r->held);
	}
	r->in_inflated = in_inflated;
	r->inflated_from = inflated_from;
	return ret;
}

static int one_record(struct perf_reader *r, const struct record *rec,
		      int pass, struct stack *st)
{
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (pass == 0)
			return hold_sample(r, rec);
		return pass == 1 ? first_pass(r, rec)
				 : read_sample(r, rec, st);
	}
	if (pass == 0 && rec->type == PERF_REC_FINISHED_ROUND) {
		uint64_t limit = r->round_limit;

		r->round_limit = r->max_time;
		return read_held(r, limit, st);
	}
	return pass == 2 ? 0 : first_pass(r, rec);
}

/*
 * perf record -z: a COMPRESSED record's data (COMPRESSED2: a u64 of
 * its size first, the record padded to 8 bytes) decompressed after what
 * the ones before it left (perf_inflate.h), and the whole records there
 * read; a record cut at the end waits for the next one's data. perf
 * puts only what the kernel wrote in them: its own records that say
 * something (types 64 and up: attrs, features, build-ids, data after
 * the record, more compressed data) are refused there, as perf would
 * not have written them; the ones that say nothing to us are passed
 * over as anywhere.
 */
static int read_compressed(struct perf_reader *r, struct perf_inflate *z,
			   const struct record *rec, int pass,
			   struct stack *st)
{
	const unsigned char *src = rec->body;
	size_t n = rec->len, at = 0;
	int ret = 0;

	if (r->comp_known && r->comp_type != PERF_COMP_ZSTD)
		return perf_fail(r, rec->off, "a compressed record of method "
				 "%u (the compression feature's), not zstd's "
				 "(%d), the one cganalyze knows", r->comp_type,
				 PERF_COMP_ZSTD);
	if (rec->type == PERF_REC_COMPRESSED2) {
		struct cursor c;
		uint64_t size = 0;

		perf_cursor(r, &c, rec->body, rec->len);
		if (cursor_u64(&c, &size) < 0 || size > rec->len - 8)
			return perf_fail(r, rec->off, "a compressed record of "
					 "%u bytes whose data would be %llu",
					 rec->size, (unsigned long long)size);
		src += 8;
		n = (size_t)size;
	}
	if (perf_inflate(r, z, src, n, rec->off) < 0)
		return -1;
	r->in_inflated = true;
	r->inflated_from = rec->off;
	while (z->len - at >= HEADER_SIZE) {
		struct record in;

		parse_header(r, z->buf + at, (size_t)z->stream_off + at, &in);
		if (in.size < HEADER_SIZE) {
			ret = perf_fail(r, in.off, "a record of type %u whose "
					"size, %u, is smaller than its header",
					in.type, in.size);
			break;
		}
		if (in.size > z->len - at)
			break;		/* its end is in the next piece */
		if (in.type >= PERF_REC_HEADER_ATTR && !ignored(in.type)) {
			ret = perf_fail(r, in.off, "a record of type %u in "
					"compressed data, where perf puts only "
					"the kernel's records", in.type);
			break;
		}
		ret = one_record(r, &in, pass, st);
		if (ret < 0)
			break;
		at += in.size;
	}
	r->in_inflated = false;
	perf_inflate_drop(z, at);
	return ret;
}

int perf_read_records(struct perf_reader *r, size_t start, size_t end,
		      int pass)
{
	struct stack st = { NULL, NULL, 0, NULL, NULL };
	struct perf_source src;
	struct perf_inflate z;
	size_t at = start, last_compressed = 0;
	const unsigned char *p;
	int ret = -1;

	memset(&z, 0, sizeof(z));
	perf_source_init(&src, r, start, end);
	r->source = &src;
	perf_pending_init(&r->held);
	while (at < end) {
		struct record rec;
		uint64_t extra;
		size_t keep = at;

		if (end - at < HEADER_SIZE) {
			if (r->unfinished)
				break;
			perf_fail(r, at, "a record header truncated: %zu bytes "
				  "of its 8 are there", end - at);
			goto out;
		}
		/* one pass: the held samples' bytes stay to be had */
		if (pass == 0 && perf_pending_first_uncopied(&r->held, &keep) &&
		    keep > at)
			BUG("a held sample at 0x%zx after the record at 0x%zx",
			    keep, at);
		p = perf_source_bytes(&src, at, HEADER_SIZE, keep);
		if (!p)
			goto out;
		parse_header(r, p, at, &rec);
		if (rec.size < HEADER_SIZE) {
			perf_fail(r, at, "a record of type %u whose size, %u, "
				  "is smaller than its header", rec.type,
				  rec.size);
			goto out;
		}
		if (rec.size > end - at) {
			if (r->unfinished)
				break;
			perf_fail(r, at, "a record of type %u and %u bytes "
				  "truncated: %zu bytes are left", rec.type,
				  rec.size, end - at);
			goto out;
		}
		p = perf_source_bytes(&src, at, rec.size, keep);
		if (!p)
			goto out;
		parse_header(r, p, at, &rec);
		if (extra_bytes(r, &rec, &extra) < 0)
			goto out;
		if (extra > end - at - rec.size) {
			perf_fail(r, at, "a record of type %u followed by %llu "
				  "bytes of data, past the end", rec.type,
				  (unsigned long long)extra);
			goto out;
		}
		if (rec.type == PERF_REC_COMPRESSED ||
		    rec.type == PERF_REC_COMPRESSED2) {
			if (read_compressed(r, &z, &rec, pass, &st) < 0)
				goto out;
			last_compressed = at;
		} else if (one_record(r, &rec, pass, &st) < 0) {
			goto out;
		}
		at += rec.size + (size_t)extra;
	}
	/* one pass: the mappings after the last sample may be older than
	 * it */
	if (pass == 0) {
		if (read_held(r, UINT64_MAX, &st) < 0)
			goto out;
		perf_maps_settle(&r->maps);
		if (r->maps.disordered)
			goto out;
	}
	if (z.len) {
		perf_fail(r, last_compressed, "the compressed records' data "
			  "ends inside a record: %zu bytes of it are left "
			  "over, after the data of the compressed record "
			  "here", z.len);
		goto out;
	}
	/* a recording perf record did not finish ends where it was
	 * killed: inside a record, perhaps (said once, in pass 1) */
	if (at < end && pass == 1)
		warning("%s: offset 0x%zx: the unfinished recording ends "
			"inside a record: its last %zu bytes were left out",
			r->path, at, end - at);
	ret = 0;
out:
	perf_pending_release(&r->held);
	perf_source_release(&src);
	r->source = NULL;
	perf_inflate_free(&z);
	free(st.frames);
	free(st.exact);
	free(st.pcs);
	free(st.pcs_exact);
	return ret;
}
