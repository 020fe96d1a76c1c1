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
 * been read, and checked; see hold_sample()), in batches whose stacks
 * two threads unwind (read_held(), perf_par.h). A sample's own reading
 * is perf_samples.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "perf_inflate.h"
#include "perf_par.h"
#include "perf_reader.h"
#include "perf_samples.h"
#include "perf_source.h"

#define HEADER_SIZE PERF_RECORD_HEADER_SIZE
#define CPUMODE_MASK PERF_CPUMODE_MASK
#define MISC_MMAP_BUILD_ID (1u << 14)
/* MMAP and MMAP2 of a mapping not executable (perf record --data), and
 * COMM of an exec: one bit, its meaning by the record's type */
#define MISC_MMAP_DATA (1u << 13)
#define MISC_COMM_EXEC (1u << 13)
#define MMAP2_PROT_EXEC 4u

/*
 * The sample_id trailer of a non-sample record. Every attr has the
 * same sample_id layout but IDENTIFIER, when present, is the record's
 * last u64 and names the attr; else the first attr's layout is it.
 */
static void trailer(const struct perf_reader *r, const struct perf_record *rec,
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
		a = perf_attr_by_id(r, id, true);
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

/* Anonymous memory, as perf names it ("//anon", and what it takes for
 * such: a mapping of /dev/zero, a huge page's) */
static bool anon_memory(const char *name, size_t n)
{
	return (n == 6 && !memcmp(name, "//anon", 6)) ||
	       (n >= 9 && !memcmp(name, "/dev/zero", 9)) ||
	       (n >= 14 && !memcmp(name, "/anon_hugepage", 14));
}

/* Whether a mapping record is of code: MMAP2's prot says; perf record
 * writes MMAP (without prot) for code alone, and MMAP or MMAP2 flagged
 * MISC_MMAP_DATA (--data) for data */
static bool exec_mapping(struct perf_reader *r, const struct perf_record *rec)
{
	uint32_t prot = MMAP2_PROT_EXEC;
	struct cursor c;

	if (rec->misc & MISC_MMAP_DATA)
		return false;
	if (rec->type == PERF_RECORD_MMAP2) {
		perf_cursor(r, &c, rec->body + 56, 4);
		cursor_u32(&c, &prot);
	}
	return (prot & MMAP2_PROT_EXEC) != 0;
}

/* The process pid's program, when this executable file mapping is the
 * first since the process started or exec'd: the kernel maps the
 * program before its interpreter and libraries, and /proc/PID/maps,
 * from which perf record -p writes the mappings, lists it first. */
static void note_exe(struct perf_reader *r, uint32_t pid, uint32_t object)
{
	uint32_t v = u64map_get(&r->exe_by_pid, pid);

	if (v == U64MAP_NONE || v == PERF_EXE_AFTER_EXEC)
		u64map_put(&r->exe_by_pid, pid, object);
}

/*
 * A mapping of the kernel's (pid -1): its own, "[kernel.kallsyms]_text"
 * with _text's address in that boot as pgoff (perf record's reference
 * symbol, by which a kallsyms of another boot is told: a kernel placed
 * at random, KASLR, has its symbols elsewhere each boot), or a module's.
 * The first recording's is kept.
 */
static void kernel_mapping(struct perf_reader *r, const struct perf_record *rec,
			   size_t fixed, size_t tsize, uint64_t pgoff)
{
	const char *name = (const char *)rec->body + fixed;
	size_t nlen, klen = strlen(PERF_KERNEL_OBJECT);

	if ((rec->misc & CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    rec->len < fixed + tsize)
		return;
	nlen = strnlen(name, rec->len - fixed - tsize);
	if (nlen < klen || memcmp(name, PERF_KERNEL_OBJECT, klen)) {
		r->d->kernel_modules++;
		return;
	}
	if (nlen > klen && r->d->kernel_ref == NO_NAME) {
		r->d->kernel_ref = names_intern(&r->p->names, name + klen,
						nlen - klen);
		r->d->kernel_ref_addr = pgoff;
	}
}

/*
 * MMAP:  u32 pid, tid; u64 addr, len, pgoff; char filename[]
 * MMAP2: the same up to pgoff, then 24 bytes (device and inode, or a
 *        build-id), u32 prot, flags, then the filename.
 * The filename is NUL-terminated and padded; the trailer follows it.
 */
static int read_mmap(struct perf_reader *r, const struct perf_record *rec)
{
	size_t fixed = rec->type == PERF_RECORD_MMAP2 ? 64 : 32;
	size_t tsize = trailer_size(r), nlen;
	struct perf_trailer t;
	struct perf_map map;
	uint32_t pid, tid;
	uint64_t addr = 0, len = 0;	/* the cursor holds them: read */
	const char *name;
	struct cursor c;
	char jit[32];

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
	    pid == UINT32_MAX) {
		/* the kernel's and its modules': kernel addresses are
		 * named by address */
		kernel_mapping(r, rec, fixed, tsize, map.pgoff);
		return 0;
	}
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
	if (anon_memory(name, nlen) && exec_mapping(r, rec)) {
		/*
		 * Code made at run time (a JIT's): perf names it by the map
		 * its process writes, /tmp/perf-PID.map, at the code's own
		 * addresses: one object per process, whose offsets are the
		 * addresses (pgoff set to the start: the kernel's records
		 * give the address there, perf record -p's give 0), named
		 * from that map (resolve_perf.c). As "//anon", a file of
		 * that name was looked for, and every process's code was
		 * one object.
		 */
		snprintf(jit, sizeof(jit), "/tmp/perf-%u.map", pid);
		map.object = perf_data_object(r->d, &r->p->names, jit,
					      strlen(jit), PERF_OBJ_ANON);
		map.pgoff = map.start;
		map.file_offsets = true;
		perf_maps_add(&r->maps, pid, &map);
		return 0;
	}
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
	if (map.file_offsets && !(rec->misc & MISC_MMAP_DATA)) {
		uint32_t prot = MMAP2_PROT_EXEC;	/* MMAP: exec only */

		if (rec->type == PERF_RECORD_MMAP2) {
			perf_cursor(r, &c, rec->body + 56, 4);
			cursor_u32(&c, &prot);
		}
		if (prot & MMAP2_PROT_EXEC)
			note_exe(r, pid, map.object);
	}
	perf_maps_add(&r->maps, pid, &map);
	return 0;
}

/* FORK and EXIT: u32 pid, ppid, tid, ptid; u64 time. A new process
 * starts with its parent's mappings; a new thread shares them. */
static int read_fork(struct perf_reader *r, const struct perf_record *rec)
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
	if (rec->type != PERF_RECORD_FORK) {
		/* a process's end (its first thread's), for its mappings
		 * to go once no sample of it can come: one pass only,
		 * where records have times */
		if (r->one_pass && pid == tid)
			perf_maps_exit(&r->maps, pid, time);
		return 0;
	}
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
	if (pid != ppid) {
		uint32_t exe = u64map_get(&r->exe_by_pid, ppid);

		perf_maps_fork(&r->maps, ppid, pid, time);
		/* the child runs its parent's program until it execs */
		if (exe != U64MAP_NONE)
			u64map_put(&r->exe_by_pid, pid, exe);
	}
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
static int read_lost(struct perf_reader *r, const struct perf_record *rec)
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
static int read_id_index(struct perf_reader *r, const struct perf_record *rec)
{
	uint64_t nr = 0;
	struct cursor c;

	perf_cursor(r, &c, rec->body, rec->len);
	if (!cursor_u64(&c, &nr) || nr > cursor_left(&c) / 32)
		return perf_fail(r, rec->off, "an id index of %llu entries "
				 "in a record of %zu bytes",
				 (unsigned long long)nr, rec->len + HEADER_SIZE);
	return 0;
}

/* Pipe mode: HEADER_ATTR is the attr, then its ids to the end. */
static int read_header_attr(struct perf_reader *r,
			    const struct perf_record *rec)
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
static int read_header_feature(struct perf_reader *r,
			       const struct perf_record *rec)
{
	uint64_t feat = 0;
	struct cursor c;

	perf_cursor(r, &c, rec->body, rec->len);
	if (!cursor_u64(&c, &feat))
		return perf_fail(r, rec->off, "a feature record without its "
				 "feature number");
	if (feat >= PERF_FEAT_BITS)
		return 0;
	return perf_read_feature(r, (unsigned)feat, rec->off + 16,
				 rec->len - 8);
}

/* COMM: u32 pid, tid; char comm[] (then the trailer). */
static int read_comm(struct perf_reader *r, const struct perf_record *rec)
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
	if ((rec->misc & MISC_COMM_EXEC) && pid == tid)
		u64map_put(&r->exe_by_pid, pid, PERF_EXE_AFTER_EXEC);
	return 0;
}

/*
 * --time, pass 1: the first and last samples' times, which its
 * relative and percentage forms count from. A sample that does not
 * parse is left to pass 2 to report.
 */
static int sample_time(struct perf_reader *r, const struct perf_record *rec)
{
	const struct perf_attr *a;
	struct perf_sample s;
	const char *why;
	struct cursor c;
	size_t at;

	if (perf_sample_attr(r, rec, &a) < 0)
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

/* --- the loop --- */

static void count_unknown(struct perf_reader *r, const struct perf_record *rec)
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

static int first_pass(struct perf_reader *r, const struct perf_record *rec)
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
static int extra_bytes(const struct perf_reader *r,
		       const struct perf_record *rec, uint64_t *extra)
{
	struct cursor c;
	uint64_t n = 0;
	uint32_t n32 = 0;

	*extra = 0;
	perf_cursor(r, &c, rec->body, rec->len);
	if (rec->type == PERF_REC_HEADER_TRACING_DATA) {
		if (!cursor_u32(&c, &n32))
			return perf_fail(r, rec->off, "a tracing-data record "
					 "without its size");
		*extra = ((uint64_t)n32 + 7) & ~(uint64_t)7;
	} else if (rec->type == PERF_REC_AUXTRACE) {
		if (!cursor_u64(&c, &n))
			return perf_fail(r, rec->off, "an AUX trace record "
					 "without its size");
		*extra = n;
	}
	return 0;
}

/* The record header at p (HEADER_SIZE bytes there at least), at
 * offset off of the file or of the decompressed data. */
static void parse_header(const struct perf_reader *r, const unsigned char *p,
			 size_t off, struct perf_record *rec)
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

static int hold_sample(struct perf_reader *r, const struct perf_record *rec)
{
	const struct perf_attr *a;
	/* the file's own bytes are asked for again (perf_source.h); a
	 * compressed record's decompressed ones are copied */
	struct perf_held h = { rec->off, r->inflated_from, 0, r->in_inflated,
			       rec->size,
			       r->in_inflated ? rec->body - HEADER_SIZE : NULL };
	long at;

	if (perf_sample_attr(r, rec, &a) < 0)
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

/* The held samples up to time limit, from the oldest held: on this
 * thread alone. */
static int read_held_here(struct perf_reader *r, uint64_t limit,
			  struct perf_stack *st)
{
	bool in_inflated = r->in_inflated;
	size_t inflated_from = r->inflated_from;
	struct perf_held h;
	int ret = 0;

	while (perf_pending_front(&r->held, &h) && h.time <= limit) {
		struct perf_record rec;

		/* between samples nothing found in the mappings is held */
		if (r->one_pass)
			perf_maps_compact(&r->maps);
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
		ret = perf_read_sample(r, &rec, st);
		if (ret < 0)
			break;
		perf_pending_pop(&r->held);
	}
	r->in_inflated = in_inflated;
	r->inflated_from = inflated_from;
	return ret;
}

/* A batch's records: each held sample's bytes (a copy where the
 * source's answer would not last, copy's own), its header, its
 * fields. */
struct perf_batch {
	struct {
		struct perf_held h;
		struct perf_record rec;
		struct perf_parsed ps;
		unsigned char *copy;
		size_t copy_alloc;
	} e[PERF_PAR_JOBS];
};

/*
 * Up to PERF_PAR_JOBS held samples up to time limit into r->batch, their
 * bytes all to be had at once until the source is asked for others:
 * how many, or -1 after perf_fail().
 */
static long batch_bytes(struct perf_reader *r, uint64_t limit)
{
	struct perf_source *src = r->source;
	struct perf_batch *b = r->batch;
	/* the tests' scripted answers (ask_again()): batches of a few,
	 * for a test recording of 40 samples to have several */
	size_t most = spare_cpu_scripted() ? 4 : PERF_PAR_JOBS;
	struct perf_held h;
	size_t pos, keep, k;
	unsigned moves;

again:
	moves = src->moves;
	pos = 0;
	k = 0;
	/* every held sample's bytes are kept from the first's on */
	if (!perf_pending_first_uncopied(&r->held, &keep))
		keep = SIZE_MAX;
	while (k < most && perf_pending_at(&r->held, &pos, &h) &&
	       h.time <= limit) {
		if (!h.bytes) {
			h.bytes = perf_source_bytes(src, h.off, h.size, keep);
			if (!h.bytes)
				return -1;
			/* the window moved: the bytes answered before may
			 * have; once more from the first, which now all
			 * are in the window */
			if (src->moves != moves)
				goto again;
			if (perf_source_transient(src, h.bytes)) {
				if (b->e[k].copy_alloc < h.size) {
					free(b->e[k].copy);
					b->e[k].copy = xmalloc(h.size);
					b->e[k].copy_alloc = h.size;
				}
				memcpy(b->e[k].copy, h.bytes, h.size);
				h.bytes = b->e[k].copy;
			}
		}
		b->e[k++].h = h;
	}
	return (long)k;
}

/* The second unwinder, when wanted, made at the first sample it
 * would unwind. */
static struct perf_par *par_for(struct perf_reader *r)
{
	if (!r->par_tried && r->unwind) {
		r->par_tried = true;
		r->par = perf_par_start(r);
	}
	return r->par;
}

/*
 * Threads declined at the start for want of a free processor, asked
 * for again every ASK_AGAIN_NS while the records are read (when the
 * threads are chosen that way, by default): the reading ahead, the
 * second unwinder, and the symbol tables' loader through
 * opts->perf_reading. The answer is of one moment, and a "no" held for
 * the whole read: run right after another program (perf report, in
 * bench/perf-dwarf), the 1 GB recording was read on fewer threads at
 * times, 0.75-1.11 s against 0.62-0.92 a second later. Asking costs a
 * look at /proc, tens of microseconds; the clock, a coarse one, about
 * 20 ns a batch.
 */
#define ASK_AGAIN_NS 10000000u

static void ask_again(struct perf_reader *r)
{
	struct timespec t;
	uint64_t now;

	if (r->opts->thread != READ_THREAD_AUTO ||
	    clock_gettime(CLOCK_MONOTONIC_COARSE, &t) != 0)
		return;
	now = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
	if (r->asked_ns && now - r->asked_ns < ASK_AGAIN_NS &&
	    !spare_cpu_scripted())
		return;
	r->asked_ns = now;
	if (r->par_tried && !r->par)
		r->par_tried = false;
	if (r->source)
		perf_source_ask_again(r->source);
	if (r->opts->perf_reading)
		r->opts->perf_reading(r->opts->perf_object_ctx);
}

/* Batch b's first k records added on this thread, popped: 0 or -1. */
static int batch_add_here(struct perf_reader *r, struct perf_batch *b,
			  size_t k, struct perf_stack *st)
{
	for (size_t i = 0; i < k; i++) {
		r->in_inflated = b->e[i].h.inflated;
		r->inflated_from = b->e[i].h.inflated_from;
		if (b->e[i].ps.a &&
		    perf_sample_add(r, &b->e[i].rec, &b->e[i].ps, st, NULL) < 0)
			return -1;
		perf_pending_pop(&r->held);
	}
	return 0;
}

/* The same with par: the jobs filled, run, and each sample added in
 * order once its stack is unwound. */
static int batch_add_par(struct perf_reader *r, struct perf_par *par,
			 struct perf_batch *b, size_t k, struct perf_stack *st)
{
	for (size_t i = 0; i < k; i++) {
		const struct perf_parsed *ps = &b->e[i].ps;
		struct perf_par_job *j = perf_par_job(par, i);

		j->a = ps->a;
		if (ps->a)
			j->s = ps->s;
		j->gen = ps->gen;
		j->unwind = ps->unwind;
	}
	perf_par_run(par, k);
	for (size_t i = 0; i < k; i++) {
		const struct perf_par_job *j = perf_par_wait(par, i);

		r->in_inflated = b->e[i].h.inflated;
		r->inflated_from = b->e[i].h.inflated_from;
		if (b->e[i].ps.a &&
		    perf_sample_add(r, &b->e[i].rec, &b->e[i].ps, st, j) < 0) {
			perf_par_drain(par);
			return -1;
		}
		perf_pending_pop(&r->held);
	}
	return 0;
}

/*
 * A held sample's header and last line asked into the cache ahead of
 * its parse: each sample is 8 KiB of a --call-graph dwarf recording,
 * so each header is on a page of its own, which the processor does not
 * fetch ahead by itself, and the stack dump's dyn_size, read next, is
 * at its end; in a piece read with O_DIRECT neither is in any cache.
 * The words read there (cursor_u32(), cursor_u64()) were 3-5% of the
 * main thread's samples on the 1 GB recording, a quarter less so.
 */
#define PARSE_AHEAD 2

static void fetch_record(const struct perf_held *h)
{
	__builtin_prefetch(h->bytes);
	__builtin_prefetch(h->bytes + h->size - 1);
}

/*
 * The held samples up to time limit, from the oldest held; on two
 * threads once a sample with a stack to unwind comes, if a second
 * unwinder is wanted: up to PERF_PAR_JOBS samples at a time, parsed in
 * order, their stacks unwound by either thread (perf_par.h), then each
 * added in order.
 */
static int read_held(struct perf_reader *r, uint64_t limit,
		     struct perf_stack *st)
{
	bool in_inflated = r->in_inflated;
	size_t inflated_from = r->inflated_from;
	int ret = 0;

	if (!r->batch)
		r->batch = xcalloc(1, sizeof(*r->batch));
	for (;;) {
		struct perf_batch *b = r->batch;
		long k;

		ask_again(r);
		/* between batches nothing found in the mappings is held
		 * (the second unwinder waits) */
		if (r->one_pass)
			perf_maps_compact(&r->maps);
		/* no second unwinder: on in read_held_here(), but for the
		 * tests' scripted answers, asked again at every batch */
		if (r->par_tried && !r->par && !spare_cpu_scripted())
			break;
		k = batch_bytes(r, limit);
		if (k <= 0) {
			ret = (int)k;
			break;
		}
		for (long i = 0; i < k && ret == 0; i++) {
			struct perf_parsed *ps = &b->e[i].ps;

			if (i + PARSE_AHEAD < k)
				fetch_record(&b->e[i + PARSE_AHEAD].h);
			parse_header(r, b->e[i].h.bytes, b->e[i].h.off,
				     &b->e[i].rec);
			r->in_inflated = b->e[i].h.inflated;
			r->inflated_from = b->e[i].h.inflated_from;
			ret = perf_sample_parse(r, &b->e[i].rec, ps);
			ps->unwind = ret == 0 &&
				     perf_sample_unwinds(r, &b->e[i].rec, ps);
			if (ps->unwind)
				par_for(r);
		}
		if (ret == 0 && r->par)
			ret = batch_add_par(r, r->par, b, (size_t)k, st);
		else if (ret == 0)
			ret = batch_add_here(r, b, (size_t)k, st);
		if (ret < 0)
			break;
	}
	r->in_inflated = in_inflated;
	r->inflated_from = inflated_from;
	/* no second unwinder wanted: the rest as before */
	if (ret == 0 && r->par_tried && !r->par)
		ret = read_held_here(r, limit, st);
	return ret;
}

/*
 * With a second unwinder, the samples a round's end allows are read
 * only once there are a batch of them (a round of perf record's holds
 * a few tens): the second thread then wakes a tenth as often, for ten
 * times the work. Reading them later is reading them with more of the
 * records before them taken in, none that a sample's time excludes:
 * what two passes read (the limits only grow). At most PERF_PAR_JOBS
 * samples and HELD_BATCH_BYTES of the file are held for it, well
 * within what is read ahead (perf_ahead.c).
 */
#define HELD_BATCH_BYTES ((size_t)2 << 20)

static bool held_few(const struct perf_reader *r, const struct perf_record *rec)
{
	size_t keep;

	if (r->held.n >= PERF_PAR_JOBS)
		return false;
	if (r->in_inflated || !perf_pending_first_uncopied(&r->held, &keep))
		return true;
	return rec->off - keep < HELD_BATCH_BYTES;
}

static int one_record(struct perf_reader *r, const struct perf_record *rec,
		      int pass, struct perf_stack *st)
{
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (pass == 0)
			return hold_sample(r, rec);
		return pass == 1 ? first_pass(r, rec)
				 : perf_read_sample(r, rec, st);
	}
	if (pass == 0 && rec->type == PERF_REC_FINISHED_ROUND) {
		uint64_t limit = r->round_limit;

		r->round_limit = r->max_time;
		if (r->par && held_few(r, rec))
			return 0;
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
			   const struct perf_record *rec, int pass,
			   struct perf_stack *st)
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
		if (!cursor_u64(&c, &size) || size > rec->len - 8)
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
		struct perf_record in;

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
	struct perf_stack st = { NULL, NULL, 0, NULL, NULL, NULL };
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
		struct perf_record rec;
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
		/* the next header, a page or more on (fetch_record()); an
		 * address past the bytes had is not read, only fetched */
		__builtin_prefetch(p + rec.size);
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
	perf_par_stop(r->par);
	r->par = NULL;
	r->par_tried = false;
	if (r->batch) {
		for (size_t i = 0; i < PERF_PAR_JOBS; i++)
			free(r->batch->e[i].copy);
		free(r->batch);
		r->batch = NULL;
	}
	perf_pending_release(&r->held);
	perf_source_release(&src);
	r->source = NULL;
	perf_inflate_free(&z);
	perf_stack_free(&st);
	return ret;
}
