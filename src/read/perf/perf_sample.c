/*
 * A perf SAMPLE record's fields, and the sample_id trailer of the other
 * records, parsed by the attr's sample_type (see perf_format.h). The
 * field order is the kernel's (struct perf_event_type's comment for
 * PERF_RECORD_SAMPLE in <linux/perf_event.h>); every length read from
 * the record is checked against what is left of it before it is used.
 */
#include "perf_format.h"

#include <string.h>

struct sparse {
	struct cursor *c;
	const unsigned char *body;
	const char *why;
};

static int fail(struct sparse *sp, const char *why)
{
	sp->why = why;
	return -1;
}

static int u64(struct sparse *sp, uint64_t *v, const char *what)
{
	return cursor_u64(sp->c, v) ? 0 : fail(sp, what);
}

static int skip(struct sparse *sp, uint64_t n, const char *what)
{
	if (cursor_left(sp->c) < n)
		return fail(sp, what);
	sp->c->p += n;
	return 0;
}

/* n u64 words, n read from the record: never trusted for a product. */
static int skip_words(struct sparse *sp, uint64_t n, const char *what)
{
	if (n > cursor_left(sp->c) / 8)
		return fail(sp, what);
	sp->c->p += n * 8;
	return 0;
}

static int skip_regs(struct sparse *sp, uint64_t mask, const char *what)
{
	uint64_t abi;

	if (u64(sp, &abi, what) < 0)
		return -1;
	/* PERF_SAMPLE_REGS_ABI_NONE: no registers follow */
	return abi ? skip_words(sp, (uint64_t)__builtin_popcountll(mask), what)
		   : 0;
}

static int skip_read(struct sparse *sp, uint64_t fmt)
{
	const char *what = "the counter values (READ)";
	uint64_t per = 1 + !!(fmt & PERF_FORMAT_ID) +
		       !!(fmt & PERF_FORMAT_LOST);
	uint64_t times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(fmt & PERF_FORMAT_GROUP))
		return skip_words(sp, per + times, what);
	if (u64(sp, &nr, what) < 0 || skip_words(sp, times, what) < 0)
		return -1;
	if (nr > cursor_left(sp->c) / 8 / per)
		return fail(sp, "the group's counter values (READ): more "
			    "counters than the record holds");
	return skip_words(sp, nr * per, what);
}

static int read_chain(struct sparse *sp, struct perf_sample *s)
{
	uint64_t nr;

	if (u64(sp, &nr, "the call chain's length") < 0)
		return -1;
	if (nr > cursor_left(sp->c) / 8)
		return fail(sp, "the call chain: longer than the record");
	s->chain = sp->c->p;
	s->nchain = nr;
	s->has_chain = true;
	sp->c->p += nr * 8;
	return 0;
}

static int skip_branches(struct sparse *sp, uint64_t branch_type,
			 struct perf_sample *s)
{
	/* from, to, flags; and a u64 of counters each, after them all */
	size_t entry = branch_type & PERF_BRANCH_COUNTERS_BIT ? 32 : 24;
	uint64_t nr;

	if (u64(sp, &nr, "the branch stack's length") < 0)
		return -1;
	if ((branch_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
	    skip(sp, 8, "the branch stack's hw_idx") < 0)
		return -1;
	if (nr > cursor_left(sp->c) / entry)
		return fail(sp, "the branch stack: longer than the record");
	sp->c->p += nr * entry;
	s->nbranches = nr;
	return 0;
}

static int read_regs_user(struct sparse *sp, uint64_t mask,
			  struct perf_sample *s)
{
	const char *what = "the user registers";

	if (u64(sp, &s->regs_abi, what) < 0)
		return -1;
	if (!s->regs_abi)
		return 0;	/* PERF_SAMPLE_REGS_ABI_NONE: none follow */
	s->regs = sp->c->p;
	s->nregs = (uint64_t)__builtin_popcountll(mask);
	return skip_words(sp, s->nregs, what);
}

static int read_stack_user(struct sparse *sp, struct perf_sample *s)
{
	uint64_t size, dyn;
	const unsigned char *at;

	if (u64(sp, &size, "the user stack dump's size") < 0)
		return -1;
	at = sp->c->p;
	if (skip(sp, size, "the user stack dump: longer than the record") < 0)
		return -1;
	if (!size)
		return 0;	/* no dyn_size after an empty dump */
	s->has_stack_user = true;
	if (u64(sp, &dyn, "the user stack dump's dyn_size") < 0)
		return -1;
	/* the record holds size bytes, of which the first dyn_size were
	 * copied from the stack (perf takes dyn_size as the dump's size) */
	s->stack = at;
	s->stack_size = dyn < size ? dyn : size;
	s->dyn_over_size = dyn > size;
	return 0;
}

static int fields(struct sparse *sp, const struct perf_attr *a,
		  struct perf_sample *s)
{
	uint64_t t = a->sample_type, v;
	uint32_t raw;

	if ((t & PERF_SAMPLE_IDENTIFIER) && u64(sp, &s->id, "the id") < 0)
		return -1;
	if (t & PERF_SAMPLE_IP) {
		if (u64(sp, &s->ip, "the ip") < 0)
			return -1;
		s->has_ip = true;
	}
	if (t & PERF_SAMPLE_TID) {
		if (!cursor_u32(sp->c, &s->pid) ||
		    !cursor_u32(sp->c, &s->tid))
			return fail(sp, "the pid and tid");
	}
	if ((t & PERF_SAMPLE_TIME) && u64(sp, &s->time, "the time") < 0)
		return -1;
	if ((t & PERF_SAMPLE_ADDR) && u64(sp, &v, "the data address") < 0)
		return -1;
	if ((t & PERF_SAMPLE_ID) && u64(sp, &s->id, "the id") < 0)
		return -1;
	if ((t & PERF_SAMPLE_STREAM_ID) && u64(sp, &v, "the stream id") < 0)
		return -1;
	if ((t & PERF_SAMPLE_CPU) && u64(sp, &v, "the cpu") < 0)
		return -1;
	if ((t & PERF_SAMPLE_PERIOD) && u64(sp, &s->period, "the period") < 0)
		return -1;
	if ((t & PERF_SAMPLE_READ) && skip_read(sp, a->read_format) < 0)
		return -1;
	if ((t & PERF_SAMPLE_CALLCHAIN) && read_chain(sp, s) < 0)
		return -1;
	if (t & PERF_SAMPLE_RAW) {
		if (!cursor_u32(sp->c, &raw))
			return fail(sp, "the raw data's size");
		if (skip(sp, raw, "the raw data: longer than the record") < 0)
			return -1;
	}
	if ((t & PERF_SAMPLE_BRANCH_STACK) &&
	    skip_branches(sp, a->branch_sample_type, s) < 0)
		return -1;
	if ((t & PERF_SAMPLE_REGS_USER) &&
	    read_regs_user(sp, a->sample_regs_user, s) < 0)
		return -1;
	if ((t & PERF_SAMPLE_STACK_USER) && read_stack_user(sp, s) < 0)
		return -1;
	if ((t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) &&
	    u64(sp, &v, "the weight") < 0)
		return -1;
	if ((t & PERF_SAMPLE_DATA_SRC) && u64(sp, &v, "the data source") < 0)
		return -1;
	if ((t & PERF_SAMPLE_TRANSACTION) && u64(sp, &v, "the transaction") < 0)
		return -1;
	if ((t & PERF_SAMPLE_REGS_INTR) &&
	    skip_regs(sp, a->sample_regs_intr, "the interrupt registers") < 0)
		return -1;
	if ((t & PERF_SAMPLE_PHYS_ADDR) &&
	    u64(sp, &v, "the physical address") < 0)
		return -1;
	if ((t & PERF_SAMPLE_CGROUP) && u64(sp, &v, "the cgroup") < 0)
		return -1;
	if ((t & PERF_SAMPLE_DATA_PAGE_SIZE) &&
	    u64(sp, &v, "the data page size") < 0)
		return -1;
	if ((t & PERF_SAMPLE_CODE_PAGE_SIZE) &&
	    u64(sp, &v, "the code page size") < 0)
		return -1;
	if (t & PERF_SAMPLE_AUX) {
		if (u64(sp, &v, "the AUX data's size") < 0 ||
		    skip(sp, v, "the AUX data: longer than the record") < 0)
			return -1;
	}
	return 0;
}

int perf_parse_sample(const struct perf_attr *a, struct cursor *c,
		      struct perf_sample *s, const char **why, size_t *at)
{
	struct sparse sp = { .c = c, .body = c->p, .why = NULL };

	memset(s, 0, sizeof(*s));
	s->period = 1;
	if (fields(&sp, a, s) < 0) {
		*why = sp.why;
		*at = (size_t)(c->p - sp.body);
		return -1;
	}
	s->trailing = cursor_left(c);
	return 0;
}

size_t perf_trailer_size(const struct perf_attr *a)
{
	uint64_t t = a->sample_type;
	size_t n = 0;

	if (!(a->flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL))
		return 0;
	n += (t & PERF_SAMPLE_TID) ? 8 : 0;
	n += (t & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (t & PERF_SAMPLE_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (t & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (t & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

int perf_parse_trailer(const struct perf_attr *a, const unsigned char *body,
		       size_t len, bool big_endian, struct perf_trailer *t)
{
	size_t n = perf_trailer_size(a);
	uint64_t st = a->sample_type, v;
	struct cursor c;

	memset(t, 0, sizeof(*t));
	if (n > len)
		return -1;
	cursor_init(&c, body + len - n, body + len, big_endian);
	if (!n)
		return 0;
	/* the cursor holds exactly n bytes: none of these reads fails */
	if (st & PERF_SAMPLE_TID) {
		cursor_u32(&c, &t->pid);
		cursor_u32(&c, &t->tid);
	}
	if (st & PERF_SAMPLE_TIME) {
		cursor_u64(&c, &t->time);
		t->has_time = true;
	}
	if (st & PERF_SAMPLE_ID) {
		cursor_u64(&c, &t->id);
		t->has_id = true;
	}
	if (st & PERF_SAMPLE_STREAM_ID)
		cursor_u64(&c, &v);
	if (st & PERF_SAMPLE_CPU)
		cursor_u64(&c, &v);
	if (st & PERF_SAMPLE_IDENTIFIER) {
		cursor_u64(&c, &t->id);
		t->has_id = true;
	}
	return 0;
}

long perf_sample_id_offset(uint64_t sample_type)
{
	long off = 0;

	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(sample_type & PERF_SAMPLE_ID))
		return -1;
	off += (sample_type & PERF_SAMPLE_IP) ? 8 : 0;
	off += (sample_type & PERF_SAMPLE_TID) ? 8 : 0;
	off += (sample_type & PERF_SAMPLE_TIME) ? 8 : 0;
	off += (sample_type & PERF_SAMPLE_ADDR) ? 8 : 0;
	return off;
}

long perf_sample_time_offset(uint64_t sample_type)
{
	long off = 0;

	if (!(sample_type & PERF_SAMPLE_TIME))
		return -1;
	off += (sample_type & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	off += (sample_type & PERF_SAMPLE_IP) ? 8 : 0;
	off += (sample_type & PERF_SAMPLE_TID) ? 8 : 0;
	return off;
}
