/*
 * The perf.data reader (src/read/perf/) on byte
 * buffers built here, in both byte orders: a sample with every
 * sample_type field, the trailer, a whole file and a pipe-mode stream
 * (header, attrs, mappings, samples with call chains, features), every
 * truncation of them, records that lie about their sizes, and perf
 * record -z's compressed records (a record cut between two of them at
 * every byte, corrupt and oversized data). Each
 * error must name the file and an offset, and nothing may be read past
 * the end (make check runs this under ASan too).
 */
#include "helpers.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "profile/perf_data.h"
#include "read/perf/perf_format.h"
#include "base/xalloc.h"
#include "read/perf/perf_maps.h"

/* --- a byte builder in either byte order --- */

struct buf {
	unsigned char *p;
	size_t n, cap;
	bool be;
};

static void put(struct buf *b, uint64_t v, unsigned size)
{
	if (b->n + size > b->cap) {
		b->cap = (b->n + size) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	for (unsigned i = 0; i < size; i++) {
		unsigned shift = b->be ? 8 * (size - 1 - i) : 8 * i;

		b->p[b->n++] = (unsigned char)(v >> shift);
	}
}

static void put8(struct buf *b, uint64_t v) { put(b, v, 8); }
static void put4(struct buf *b, uint64_t v) { put(b, v, 4); }

static void put_bytes(struct buf *b, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put(b, ((const unsigned char *)s)[i], 1);
}

static void patch8(struct buf *b, size_t at, uint64_t v)
{
	size_t n = b->n;

	b->n = at;
	put8(b, v);
	b->n = n;
}

/* A record header; returns where it starts, for end_record(). */
static size_t begin_record(struct buf *b, uint32_t type, uint16_t misc)
{
	size_t at = b->n;

	put4(b, type);
	put(b, misc, 2);
	put(b, 0, 2);		/* size, set by end_record() */
	return at;
}

static void end_record(struct buf *b, size_t at)
{
	size_t n = b->n;

	b->n = at + 6;
	put(b, n - at, 2);
	b->n = n;
}

/* A perf_event_attr of 128 bytes: cpu-clock, these sample fields. */
#define TEST_SAMPLE_TYPE                                                     \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |                \
	 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD)
#define SAMPLE_ID_ALL_BIT 18

static void put_attr(struct buf *b)
{
	uint64_t flags = 1ull << SAMPLE_ID_ALL_BIT;
	size_t start = b->n;

	put4(b, PERF_TYPE_SOFTWARE);
	put4(b, 128);
	put8(b, PERF_COUNT_SW_CPU_CLOCK);
	put8(b, 1000);			/* sample_period */
	put8(b, TEST_SAMPLE_TYPE);
	put8(b, 0);			/* read_format */
	/* bitfields: a big-endian writer starts at the top bit */
	put8(b, b->be ? 1ull << (63 - SAMPLE_ID_ALL_BIT) : flags);
	while (b->n < start + 128)
		put(b, 0, 1);
}

/* The sample_id trailer of TEST_SAMPLE_TYPE: pid, tid, time. */
static void put_trailer(struct buf *b, uint32_t pid, uint64_t time)
{
	put4(b, pid);
	put4(b, pid);
	put8(b, time);
}

static void put_mmap2(struct buf *b, uint32_t pid, uint64_t start,
		      uint64_t len, uint64_t pgoff, const char *name,
		      uint64_t time)
{
	size_t at = begin_record(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	size_t nlen = strlen(name) + 1;

	put4(b, pid);
	put4(b, pid);
	put8(b, start);
	put8(b, len);
	put8(b, pgoff);
	put4(b, 8);			/* maj, min, ino, ino_generation */
	put4(b, 1);
	put8(b, 1234);
	put8(b, 0);
	put4(b, 5);			/* prot, flags */
	put4(b, 2);
	put_bytes(b, name, nlen);
	while (nlen++ % 8)
		put(b, 0, 1);
	put_trailer(b, pid, time);
	end_record(b, at);
}

/* A kernel mapping as perf record writes it (pid -1, MMAP, the
 * kernel's cpumode), at time 0. */
static void put_kernel_mmap(struct buf *b, uint64_t start, uint64_t len,
			    uint64_t pgoff, const char *name)
{
	size_t at = begin_record(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	size_t nlen = strlen(name) + 1;

	put4(b, UINT32_MAX);
	put4(b, 0);
	put8(b, start);
	put8(b, len);
	put8(b, pgoff);
	put_bytes(b, name, nlen);
	while (nlen++ % 8)
		put(b, 0, 1);
	put_trailer(b, UINT32_MAX, 0);
	end_record(b, at);
}

static void put_sample(struct buf *b, uint16_t misc, uint32_t pid,
		       uint64_t time, const uint64_t *chain, size_t n,
		       uint64_t period)
{
	size_t at = begin_record(b, PERF_RECORD_SAMPLE, misc);

	put8(b, chain[1]);		/* ip: the first after the marker */
	put4(b, pid);
	put4(b, pid);
	put8(b, time);
	put8(b, period);
	put8(b, n);
	for (size_t i = 0; i < n; i++)
		put8(b, chain[i]);
	end_record(b, at);
}

#define KADDR 0xffffffff81000010ull

/* The records both layouts share: a process mapping /x/prog twice over
 * (a second mapping at time 10 moves the file), three samples. */
static void put_records(struct buf *b)
{
	const uint64_t user[] = { PERF_CONTEXT_USER, 0x400010, 0x400100 };
	const uint64_t kern[] = { PERF_CONTEXT_KERNEL, KADDR,
				  PERF_CONTEXT_USER, 0x400020 };
	const uint64_t later[] = { PERF_CONTEXT_USER, 0x400010 };
	size_t at;

	put_mmap2(b, 100, 0x400000, 0x1000, 0x2000, "/x/prog", 0);
	put_mmap2(b, 100, 0x400000, 0x1000, 0x3000, "/x/other", 10);
	put_sample(b, PERF_RECORD_MISC_USER, 100, 5, user, 3, 1000);
	put_sample(b, PERF_RECORD_MISC_KERNEL, 100, 6, kern, 4, 500);
	put_sample(b, PERF_RECORD_MISC_USER, 100, 20, later, 2, 250);
	at = begin_record(b, PERF_REC_FINISHED_ROUND, 0);
	end_record(b, at);
}

static void put_string(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 7) / 8 * 8;

	put4(b, padded);
	put_bytes(b, s, n);
	for (size_t i = n; i < padded; i++)
		put(b, 0, 1);
}

/* A PERFILE2 file: header, one attr with its id, the records
 * records() puts, and one feature section (HOSTNAME). */
static void build_file_of(struct buf *b, bool be,
			  void (*records)(struct buf *))
{
	size_t attrs_at = 104, ids_at, data_at, feat_at;

	memset(b, 0, sizeof(*b));
	b->be = be;
	put_bytes(b, be ? "2ELIFREP" : "PERFILE2", 8);
	put8(b, 104);
	put8(b, 128 + 16);		/* attr entry: attr, ids section */
	put8(b, attrs_at);
	put8(b, 128 + 16);
	put8(b, 0);			/* data: patched below */
	put8(b, 0);
	put8(b, 0);			/* event types: unused */
	put8(b, 0);
	put8(b, 1ull << PERF_FEAT_HOSTNAME);
	put8(b, 0);
	put8(b, 0);
	put8(b, 0);
	put_attr(b);
	ids_at = b->n + 16;
	put8(b, ids_at);
	put8(b, 8);
	put8(b, 7);			/* the attr's id */
	data_at = b->n;
	records(b);
	patch8(b, 40, data_at);
	patch8(b, 48, b->n - data_at);
	feat_at = b->n + 16;
	put8(b, feat_at);
	put8(b, 4 + 16);
	put_string(b, "testhost");
}

static void build_file(struct buf *b, bool be)
{
	build_file_of(b, be, put_records);
}

/* The same as perf record -o - writes it: the attr and the feature as
 * records of their own. */
/* A pipe stream's start: its header, the attr, the HOSTNAME feature. */
static void put_pipe_start(struct buf *b, bool be)
{
	size_t at;

	memset(b, 0, sizeof(*b));
	b->be = be;
	put_bytes(b, be ? "2ELIFREP" : "PERFILE2", 8);
	put8(b, 16);
	at = begin_record(b, PERF_REC_HEADER_ATTR, 0);
	put_attr(b);
	put8(b, 7);
	end_record(b, at);
	at = begin_record(b, PERF_REC_HEADER_FEATURE, 0);
	put8(b, PERF_FEAT_HOSTNAME);
	put_string(b, "testhost");
	end_record(b, at);
}

static void build_pipe(struct buf *b, bool be)
{
	put_pipe_start(b, be);
	put_records(b);
}

struct res {
	struct profile p;
	char *diag;
	int ret;
};

static void rd(struct res *r, const struct buf *b, size_t len)
{
	struct read_opts o = { 0 };

	profile_init(&r->p);
	r->ret = read_text(&r->p, (const char *)b->p, (long)len, &o, &r->diag);
}

static void rd_done(struct res *r)
{
	profile_release(&r->p);
	free(r->diag);
}

static uint32_t object_named(const struct res *r, const char *path)
{
	const struct perf_data *d = r->p.perf;

	for (uint32_t i = 0; i < d->nobjects; i++)
		if (!strcmp(profile_str(&r->p, d->objects[i].path), path))
			return i;
	return NO_ID;
}

static bool has_frame(const struct res *r, const char *object,
		      uint64_t offset)
{
	const struct perf_data *d = r->p.perf;
	uint32_t ob = object_named(r, object);

	for (size_t f = 0; f < d->nframes; f++)
		if (d->frames[f].object == ob && d->frames[f].offset == offset)
			return true;
	return false;
}

static void check_read(const struct buf *b)
{
	struct res r;
	const struct perf_data *d;

	rd(&r, b, b->n);
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	d = r.p.perf;
	assert_non_null(d);
	assert_int_equal(d->nevents, 1);
	assert_string_equal(profile_str(&r.p, d->events[0].name), "cpu-clock");
	assert_int_equal(d->events[0].samples, 3);
	assert_int_equal(d->events[0].period, 1750);
	assert_string_equal(profile_str(&r.p, d->hostname), "testhost");
	/* ip 0x400010 in the mapping of /x/prog at file offset 0x2000 */
	assert_true(has_frame(&r, "/x/prog", 0x2010));
	assert_true(has_frame(&r, "/x/prog", 0x2100));
	assert_true(has_frame(&r, "/x/prog", 0x2020));
	assert_true(has_frame(&r, PERF_KERNEL_OBJECT, KADDR));
	/* the sample at time 20 is in the mapping made at time 10 */
	assert_true(has_frame(&r, "/x/other", 0x3010));
	/* stacks: leaf <- caller, kernel <- user, one alone */
	assert_int_equal(d->nnodes, 2 + 2 + 1);
	rd_done(&r);
}

/* The kernel's own mapping and a module's, then the usual records. */
static void put_kernel_records(struct buf *b)
{
	put_kernel_mmap(b, 0xffffffff81000000ull, 0x1200000,
			0xffffffff81000000ull, "[kernel.kallsyms]_text");
	put_kernel_mmap(b, 0xffffffffc0000000ull, 0x4000, 0, "[ext4]");
	put_records(b);
}

/* The kernel's reference symbol and its address in the recording's
 * boot, and the modules counted, for choosing and checking kallsyms
 * (resolve_perf.c); read as before otherwise. */
static void test_kernel_mapping(void **state)
{
	struct res r;
	struct buf b;

	(void)state;
	build_file_of(&b, false, put_records);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.perf->kernel_ref, NO_NAME);
	assert_int_equal(r.p.perf->kernel_modules, 0);
	rd_done(&r);
	free(b.p);
	build_file_of(&b, false, put_kernel_records);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	assert_string_equal(profile_str(&r.p, r.p.perf->kernel_ref), "_text");
	assert_int_equal(r.p.perf->kernel_ref_addr, 0xffffffff81000000ull);
	assert_int_equal(r.p.perf->kernel_modules, 1);
	assert_true(has_frame(&r, PERF_KERNEL_OBJECT, KADDR));
	rd_done(&r);
	free(b.p);
}

static void test_file_both_orders(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct buf b;

		build_file(&b, be);
		check_read(&b);
		free(b.p);
	}
}

static void test_pipe_both_orders(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct buf b;

		build_pipe(&b, be);
		check_read(&b);
		free(b.p);
	}
}

/* Every prefix of the file is refused with a message naming the file,
 * and never read past (ASan); the pipe stream's prefixes that end
 * between records are whole streams and read, the others refused. */
static void test_truncated(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct buf b;

		build_file(&b, be);
		for (size_t len = 0; len < b.n; len++) {
			struct res r;

			rd(&r, &b, len);
			assert_int_equal(r.ret, -1);
			assert_non_null(strstr(r.diag, "profile"));
			rd_done(&r);
		}
		free(b.p);
		build_pipe(&b, be);
		for (size_t len = 8; len < b.n; len++) {
			struct res r;

			rd(&r, &b, len);
			if (r.ret < 0)
				assert_non_null(strstr(r.diag, "profile: offset 0x"));
			rd_done(&r);
		}
		free(b.p);
	}
}

/* The records of the pipe stream start after its 16-byte header: the
 * first is the attr's. */
static const size_t first_rec = 16;

static void expect_error(struct buf *b, const char *what)
{
	struct res r;

	rd(&r, b, b->n);
	assert_int_equal(r.ret, -1);
	if (!strstr(r.diag, what))
		fail_msg("expected '%s' in: %s", what, r.diag);
	assert_non_null(strstr(r.diag, "offset 0x"));
	rd_done(&r);
}

static void test_lying_sizes(void **state)
{
	struct buf b;

	(void)state;
	/* a record of size 0 (a reader must not loop on it) */
	build_pipe(&b, false);
	b.p[first_rec + 6] = 0;
	b.p[first_rec + 7] = 0;
	expect_error(&b, "smaller than its header");
	free(b.p);
	/* a record larger than what is left */
	build_pipe(&b, false);
	b.p[first_rec + 6] = 0xff;
	b.p[first_rec + 7] = 0xff;
	expect_error(&b, "truncated");
	free(b.p);
	/* an attr whose size field says more than its record holds */
	build_pipe(&b, false);
	b.p[first_rec + 8 + 4] = 0xf0;
	expect_error(&b, "attr size disagrees");
	free(b.p);
	/* a call chain longer than its sample */
	{
		const uint64_t chain[] = { PERF_CONTEXT_USER, 1, 2 };
		size_t at;

		build_pipe(&b, true);
		at = b.n;
		put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 3, 1);
		/* nr is the u64 before the chain's 3 entries */
		b.n = b.n - 4 * 8;
		put8(&b, 1000000);
		b.n += 3 * 8;
		(void)at;
		expect_error(&b, "call chain");
		free(b.p);
	}
	/* the data section past the end of the file */
	build_file(&b, false);
	patch8(&b, 48, (uint64_t)1 << 40);
	expect_error(&b, "data section");
	free(b.p);
	/* an absurd attr entry size */
	build_file(&b, true);
	patch8(&b, 16, (uint64_t)1 << 33);
	expect_error(&b, "attr entry size");
	free(b.p);
}

static void test_unknown_record(void **state)
{
	struct buf b;
	struct res r;
	size_t at;

	(void)state;
	build_pipe(&b, false);
	at = begin_record(&b, 4000, 0);
	put8(&b, 1);
	end_record(&b, at);
	at = begin_record(&b, 4001, 0);
	end_record(&b, at);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	/* one warning for both */
	assert_non_null(strstr(r.diag, "2 records of types cganalyze does "
				       "not know were skipped (the first, of "
				       "type 4000"));
	assert_null(strstr(strstr(r.diag, "skipped") + 1, "skipped"));
	rd_done(&r);
	free(b.p);
}

/* LOST and LOST_SAMPLES: one warning each, with the counts summed */
static void test_lost(void **state)
{
	struct buf b;
	struct res r;
	size_t at;

	(void)state;
	build_pipe(&b, true);
	for (int i = 0; i < 2; i++) {
		at = begin_record(&b, PERF_RECORD_LOST, 0);
		put8(&b, 7);		/* id */
		put8(&b, 10);		/* lost */
		put_trailer(&b, 100, 30);
		end_record(&b, at);
	}
	at = begin_record(&b, PERF_RECORD_LOST_SAMPLES, 0);
	put8(&b, 5);
	put_trailer(&b, 100, 31);
	end_record(&b, at);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	assert_non_null(strstr(r.diag, "perf lost 20 events in 2 chunks"));
	assert_non_null(strstr(r.diag, "perf lost 5 samples"));
	assert_int_equal(r.p.perf->lost_events, 20);
	rd_done(&r);
	free(b.p);
}

/* --- a sample with every field --- */

static const uint64_t all_fields =
	PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
	PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
	PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
	PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
	PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
	PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
	PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP |
	PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;

/* counters: the branch stack has a u64 of counters per entry
 * (PERF_SAMPLE_BRANCH_COUNTERS) */
static void build_full_sample(struct buf *b, bool be, struct perf_attr *a,
			      bool counters)
{
	memset(b, 0, sizeof(*b));
	memset(a, 0, sizeof(*a));
	b->be = be;
	a->sample_type = all_fields;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			 PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX |
				(counters ? PERF_BRANCH_COUNTERS_BIT : 0);
	a->sample_regs_user = 0x5;	/* two registers */
	a->sample_regs_intr = 0x7;	/* three, but abi 0: none */
	put8(b, 42);			/* identifier */
	put8(b, 0x1234);		/* ip */
	put4(b, 7);			/* pid, tid */
	put4(b, 8);
	put8(b, 99);			/* time */
	put8(b, 0xdead);		/* addr */
	put8(b, 42);			/* id */
	put8(b, 3);			/* stream id */
	put4(b, 1);			/* cpu, res */
	put4(b, 0);
	put8(b, 777);			/* period */
	put8(b, 2);			/* read: nr, time enabled, */
	put8(b, 10);			/* then value, id, lost each */
	for (int i = 0; i < 6; i++)
		put8(b, (uint64_t)i);
	put8(b, 2);			/* callchain */
	put8(b, PERF_CONTEXT_USER);
	put8(b, 0x1234);
	put4(b, 4);			/* raw */
	put4(b, 0);
	put8(b, 1);			/* branch stack: nr, hw_idx, entry */
	put8(b, 0);
	for (int i = 0; i < 3; i++)
		put8(b, 0);
	if (counters)
		put8(b, 0x55);		/* the entry's counters */
	put8(b, 2);			/* regs user: abi 64, 2 regs */
	put8(b, 1);
	put8(b, 2);
	put8(b, 16);			/* stack user: size, data, dyn */
	put8(b, 0);
	put8(b, 0);
	put8(b, 16);
	put8(b, 5);			/* weight */
	put8(b, 6);			/* data src */
	put8(b, 7);			/* transaction */
	put8(b, 0);			/* regs intr: abi none */
	put8(b, 8);			/* phys addr */
	put8(b, 10);			/* cgroup */
	put8(b, 4096);			/* data page size */
	put8(b, 4096);			/* code page size */
	put8(b, 9);			/* aux, last: size, 9 bytes */
	put8(b, 0);
	put(b, 0, 1);
}

static void test_sample_every_field(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		bool be = v & 1, counters = v & 2;
		struct perf_attr a;
		struct perf_sample s;
		struct cursor c;
		const char *why = NULL;
		size_t at = 0;
		struct buf b;

		build_full_sample(&b, be, &a, counters);
		cursor_init(&c, b.p, b.p + b.n, be);
		if (perf_parse_sample(&a, &c, &s, &why, &at) < 0)
			fail_msg("%s at %zu", why, at);
		assert_int_equal(cursor_left(&c), 0);
		assert_int_equal(s.id, 42);
		assert_int_equal(s.ip, 0x1234);
		assert_int_equal(s.pid, 7);
		assert_int_equal(s.tid, 8);
		assert_int_equal(s.time, 99);
		assert_int_equal(s.period, 777);
		assert_int_equal(s.nchain, 2);
		assert_int_equal(s.nbranches, 1);
		assert_true(s.has_stack_user);
		/* every shorter body fails inside some field, never past */
		for (size_t len = 0; len < b.n; len++) {
			cursor_init(&c, b.p, b.p + len, be);
			why = NULL;
			assert_int_equal(perf_parse_sample(&a, &c, &s, &why, &at),
					 -1);
			assert_non_null(why);
			assert_true(at <= len);
		}
		free(b.p);
	}
}

static void test_trailer(void **state)
{
	struct perf_attr a = { 0 };
	struct perf_trailer t;
	struct buf b = { 0 };

	(void)state;
	a.sample_type = TEST_SAMPLE_TYPE | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER;
	a.flags = PERF_ATTR_FLAG_SAMPLE_ID_ALL;
	assert_int_equal(perf_trailer_size(&a), 40);
	b.be = true;
	put8(&b, 0xabcdef);		/* the record's own fields */
	put4(&b, 5);			/* pid, tid */
	put4(&b, 6);
	put8(&b, 1000);			/* time */
	put8(&b, 11);			/* id */
	put8(&b, 0);			/* cpu */
	put8(&b, 12);			/* identifier, last */
	assert_int_equal(perf_parse_trailer(&a, b.p, b.n, true, &t), 0);
	assert_int_equal(t.pid, 5);
	assert_int_equal(t.tid, 6);
	assert_int_equal(t.time, 1000);
	assert_int_equal(t.id, 12);
	assert_int_equal(perf_parse_trailer(&a, b.p, 39, true, &t), -1);
	a.flags = 0;
	assert_int_equal(perf_trailer_size(&a), 0);
	assert_int_equal(perf_sample_id_offset(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					       PERF_SAMPLE_ID), 16);
	assert_int_equal(perf_sample_id_offset(PERF_SAMPLE_IP |
					       PERF_SAMPLE_IDENTIFIER), 0);
	assert_int_equal(perf_sample_id_offset(PERF_SAMPLE_IP), -1);
	free(b.p);
}

/* Of the mappings holding an address, the newest at the sample's time;
 * a forked child starts with what its parent held at the FORK's time,
 * whatever the file order (perf report sorts the records by time). */
static void test_maps_by_time(void **state)
{
	struct perf_maps m;
	struct perf_map a = { .start = 0x1000, .end = 0x2000, .object = 1,
			      .time = 0 };
	struct perf_map b = { .start = 0x1000, .end = 0x3000, .object = 2,
			      .time = 50 };
	struct perf_map c = { .start = 0x5000, .end = 0x6000, .object = 3,
			      .time = 30 };
	const struct perf_map *got;

	(void)state;
	perf_maps_init(&m);
	perf_maps_add(&m, 10, &b);	/* file order is not time order */
	perf_maps_add(&m, 12, &c);	/* pid 12's first process */
	perf_maps_fork(&m, 10, 11, 45);
	perf_maps_fork(&m, 10, 12, 40);	/* and its second */
	perf_maps_add(&m, 10, &a);
	got = perf_maps_find(&m, 10, 0x1800, 40);
	assert_non_null(got);
	assert_int_equal(got->object, 1);
	got = perf_maps_find(&m, 10, 0x1800, 60);
	assert_int_equal(got->object, 2);
	assert_null(perf_maps_find(&m, 10, 0x2800, 40));
	assert_null(perf_maps_find(&m, 13, 0x1800, 60));
	/* b came after the FORK in time, a before it in the file */
	got = perf_maps_find(&m, 11, 0x1800, 60);
	assert_non_null(got);
	assert_int_equal(got->object, 1);
	/* before the FORK into it, pid 12 is its first process */
	got = perf_maps_find(&m, 12, 0x5800, 35);
	assert_non_null(got);
	assert_int_equal(got->object, 3);
	assert_null(perf_maps_find(&m, 12, 0x5800, 41));
	assert_int_equal(perf_maps_find(&m, 12, 0x1800, 41)->object, 1);
	perf_maps_release(&m);
}

/*
 * The trees shared between forked processes and the names in a tree
 * per thread answer as a copy at each FORK and a walk of every name
 * do (kept here as the reference): random mappings, overlapping, out
 * of time order, forks into fresh and reused pids, names set and
 * looked up at random times. The reference takes the records in time
 * order (stable) as perf report does; a FORK into a pid that held
 * mappings starts a new epoch there, a copy of the parent's.
 */
enum { REF_MAPS = 400, REF_EPOCHS = 200 };

struct ref_epoch {
	uint32_t pid;
	uint64_t time;
	struct perf_map maps[REF_MAPS];
	size_t n;
};

struct ref_op {
	uint64_t time;
	uint32_t order, pid, parent;	/* parent UINT32_MAX: a mapping */
	struct perf_map map;
};

static struct ref_epoch ref_epochs[REF_EPOCHS];
static size_t ref_nepochs;

/* pid's newest epoch, a new empty one at time 0 if it has none */
static struct ref_epoch *ref_current(uint32_t pid)
{
	for (size_t i = ref_nepochs; i-- > 0;)
		if (ref_epochs[i].pid == pid)
			return &ref_epochs[i];
	assert_true(ref_nepochs < REF_EPOCHS);
	ref_epochs[ref_nepochs] = (struct ref_epoch){ .pid = pid };
	return &ref_epochs[ref_nepochs++];
}

static int ref_by_time(const void *a, const void *b)
{
	const struct ref_op *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void ref_take(struct ref_op *ops, size_t n)
{
	uint32_t seq = 0;

	qsort(ops, n, sizeof(*ops), ref_by_time);
	for (size_t i = 0; i < n; i++) {
		struct ref_epoch *to = ref_current(ops[i].pid), *from;

		if (ops[i].parent == UINT32_MAX) {
			to->maps[to->n] = ops[i].map;
			to->maps[to->n++].seq = seq++;
			continue;
		}
		from = ref_current(ops[i].parent);
		to = ref_current(ops[i].pid);	/* may have been added */
		if (to->n) {
			assert_true(ref_nepochs < REF_EPOCHS);
			ref_epochs[ref_nepochs] = (struct ref_epoch){
				.pid = ops[i].pid, .time = ops[i].time };
			to = &ref_epochs[ref_nepochs++];
		}
		memcpy(to->maps, from->maps, from->n * sizeof(from->maps[0]));
		to->n = from->n;
	}
}

static const struct perf_map *ref_find(uint32_t pid, uint64_t addr,
				       uint64_t time)
{
	const struct ref_epoch *e = NULL;
	const struct perf_map *best = NULL;

	for (size_t i = 0; i < ref_nepochs; i++)
		if (ref_epochs[i].pid == pid &&
		    (!e || ref_epochs[i].time <= time))
			e = &ref_epochs[i];
	for (size_t i = 0; e && i < e->n; i++) {
		const struct perf_map *m = &e->maps[i];

		if (m->start <= addr && addr < m->end && m->time <= time &&
		    (!best || m->time > best->time ||
		     (m->time == best->time && m->seq > best->seq)))
			best = m;
	}
	return best;
}

struct ref_comm { uint64_t time; uint32_t name, tid; };

static uint32_t ref_comm(const struct ref_comm *c, size_t n, uint32_t tid,
			 uint64_t time)
{
	const struct ref_comm *best = NULL, *first = NULL;

	/* newest first: between equal times the last set stays */
	for (size_t i = n; i-- > 0;) {
		if (c[i].tid != tid)
			continue;
		if (!first || c[i].time < first->time)
			first = &c[i];
		if (c[i].time <= time && (!best || c[i].time > best->time))
			best = &c[i];
	}
	if (!best)
		best = first;
	return best ? best->name : UINT32_MAX;
}

static uint32_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static void test_maps_shared_as_copied(void **state)
{
	enum { PIDS = 6, OPS = 400 };

	(void)state;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		static struct ref_op ops[OPS];
		static struct ref_comm rc[OPS];
		size_t nrc = 0, nops = 0;
		struct perf_maps m;
		uint64_t s = seed;

		ref_nepochs = 0;
		perf_maps_init(&m);
		/* the records, as pass 1 reads them, and names looked up
		 * on the way as a FORK does */
		for (int op = 0; op < OPS; op++) {
			uint32_t pid = lcg(&s) % PIDS, other = lcg(&s) % PIDS;
			uint64_t t = lcg(&s) % 8, a = lcg(&s) % 64;
			uint32_t k = lcg(&s) % 10;

			if (k < 4) {
				struct perf_map mp = {
					.start = a, .end = a + 1 + lcg(&s) % 24,
					.time = t, .object = (uint32_t)op };

				if (k == 0)	/* the huge one */
					mp.end = UINT64_MAX;
				perf_maps_add(&m, pid, &mp);
				ops[nops] = (struct ref_op){
					t, (uint32_t)nops, pid, UINT32_MAX, mp };
				nops++;
			} else if (k < 7) {
				perf_maps_fork(&m, other, pid, t);
				if (other == pid)
					continue;
				ops[nops] = (struct ref_op){
					.time = t, .order = (uint32_t)nops,
					.pid = pid, .parent = other };
				nops++;
			} else if (k < 9) {
				uint32_t name = lcg(&s) % 1000;

				perf_maps_set_comm(&m, pid, t, name);
				rc[nrc++] = (struct ref_comm){ t, name, pid };
			} else {
				assert_int_equal(perf_maps_comm(&m, pid, t),
						 ref_comm(rc, nrc, pid, t));
			}
		}
		ref_take(ops, nops);
		/* then the samples' look-ups */
		for (int q = 0; q < 300; q++) {
			uint32_t pid = lcg(&s) % (PIDS + 1);
			uint64_t t = lcg(&s) % 9, a = lcg(&s) % 90;
			const struct perf_map *got =
				perf_maps_find(&m, pid, a, t);
			const struct perf_map *want = ref_find(pid, a, t);

			if (!want) {
				assert_null(got);
				continue;
			}
			assert_non_null(got);
			assert_int_equal(got->object, want->object);
		}
		perf_maps_release(&m);
	}
}

/*
 * Work bounded whatever the file says: fn run in a child process with
 * its address space capped at 256 MiB must finish, in under a second
 * of CPU time. Under AddressSanitizer (whose shadow memory alone passes
 * any such cap) only the time is checked, ten times as generously.
 */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static void run_bounded(const char *what, void (*fn)(void *), void *arg)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;
	double secs, limit = UNDER_ASAN ? 10.0 : 1.0;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit as = { 256u << 20, 256u << 20 };
		struct rlimit cpu = { 20, 20 };

		if (!UNDER_ASAN)
			setrlimit(RLIMIT_AS, &as);
		setrlimit(RLIMIT_CPU, &cpu);
		fn(arg);
		_exit(0);
	}
	assert_int_equal(wait4(pid, &status, 0, &ru), pid);
	secs = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("%s: the child %s %d after %.2f s (256 MiB cap)", what,
			 WIFEXITED(status) ? "exited" : "died of signal",
			 WIFEXITED(status) ? WEXITSTATUS(status)
					   : WTERMSIG(status), secs);
	if (secs > limit)
		fail_msg("%s: %.2f s of CPU, over %.0f", what, secs, limit);
}

/* one mapping of 2^63 bytes among 100,000: every look-up once scanned
 * them all */
static void huge_mapping(void *arg)
{
	struct perf_maps m;
	struct perf_map big = { .start = 0, .end = 1ull << 63, .object = 1 };

	(void)arg;
	perf_maps_init(&m);
	perf_maps_add(&m, 1, &big);
	for (uint64_t i = 0; i < 100000; i++) {
		struct perf_map small = { .start = 0x10000 + i * 0x1000,
					  .end = 0x10000 + i * 0x1000 + 0x800,
					  .object = 2 };

		perf_maps_add(&m, 1, &small);
	}
	for (uint64_t i = 0; i < 100000; i++) {
		const struct perf_map *got =
			perf_maps_find(&m, 1, 0x10000 + i * 0x1000 + 0x900, 0);

		if (!got || got->object != 1)
			_exit(3);
	}
	perf_maps_release(&m);
}

/* 50,000 names of one thread set in reverse time order, each looked up
 * (a FORK looks up its parent's): once a walk of them all each */
static void many_names(void *arg)
{
	struct perf_maps m;

	(void)arg;
	perf_maps_init(&m);
	for (uint32_t i = 0; i < 50000; i++) {
		perf_maps_set_comm(&m, 7, 50000 - i, i);
		if (perf_maps_comm(&m, 7, 50000 - i) != i)
			_exit(3);
	}
	perf_maps_release(&m);
}

/* 8,000 mappings, inherited by each of 8,000 children in a chain, by
 * 2,000 processes that had a mapping of their own (pids reused), each
 * forked into twice, and two processes forking into each other 40
 * times, each with a mapping of its own between: once 64 million
 * copies, 16 million, and 2^40; then 32 million (a second FORK into a
 * process copied) */
static void many_forks(void *arg)
{
	struct perf_maps m;

	(void)arg;
	perf_maps_init(&m);
	for (uint64_t i = 0; i < 8000; i++) {
		struct perf_map map = { .start = i * 0x1000,
					.end = i * 0x1000 + 0x1000,
					.object = (uint32_t)i };

		perf_maps_add(&m, 1, &map);
	}
	for (uint32_t i = 0; i < 8000; i++)
		perf_maps_fork(&m, i ? 1000 + i - 1 : 1, 1000 + i, 5);
	for (uint32_t i = 0; i < 2000; i++) {
		struct perf_map own = { .start = 1ull << 40,
					.end = (1ull << 40) + 0x1000,
					.object = 100000 + i, .time = 2 };
		struct perf_map later = { .start = 1ull << 41,
					  .end = (1ull << 41) + 0x1000,
					  .object = 200000 + i, .time = 8 };

		perf_maps_add(&m, 20000 + i, &own);
		perf_maps_fork(&m, 1, 20000 + i, 5);
		perf_maps_add(&m, 20000 + i, &later);
		perf_maps_fork(&m, 1000 + i, 20000 + i, 6);
	}
	for (uint32_t i = 0; i < 40; i++) {
		struct perf_map own = { .start = 1ull << 42,
					.end = (1ull << 42) + 0x1000,
					.object = 300000 + i, .time = 7 };

		perf_maps_fork(&m, i % 2 ? 3 : 2, i % 2 ? 2 : 3, 7);
		perf_maps_add(&m, i % 2 ? 3 : 2, &own);
	}
	perf_maps_fork(&m, 1, 2, 7);
	for (uint32_t i = 0; i < 40; i++)
		perf_maps_fork(&m, i % 2 ? 3 : 2, i % 2 ? 2 : 3, 7);
	for (uint32_t i = 0; i < 8000; i++) {
		const struct perf_map *got =
			perf_maps_find(&m, 1000 + i, i * 0x1000 + 1, 9);

		if (!got || got->object != i)
			_exit(3);
	}
	for (uint32_t i = 0; i < 2000; i++) {
		const struct perf_map *own =
			perf_maps_find(&m, 20000 + i, (1ull << 40) + 1, 3);
		const struct perf_map *old =
			perf_maps_find(&m, 20000 + i, 0x1001, 5);
		const struct perf_map *now =
			perf_maps_find(&m, 20000 + i, 0x1001, 9);

		const struct perf_map *later =
			perf_maps_find(&m, 20000 + i, (1ull << 41) + 1, 9);

		/* its first process's, then pid 1's, then pid 1000+i's
		 * (which hold the same) with its mapping of time 8,
		 * noted before that FORK in the file, after it in time */
		if (!own || own->object != 100000 + i || !old ||
		    old->object != 1 || !now || now->object != 1 ||
		    !later || later->object != 200000 + i ||
		    perf_maps_find(&m, 20000 + i, (1ull << 40) + 1, 9) ||
		    perf_maps_find(&m, 20000 + i, (1ull << 41) + 1, 7))
			_exit(5);
	}
	if (!perf_maps_find(&m, 3, 0x1001, 9) ||
	    !perf_maps_find(&m, 2, 0x1001, 9))
		_exit(4);
	/* a node a mapping, and a path's copies (a treap of 8,000 is
	 * about 20 deep) for each of the 4,040 added to a shared tree */
	if (m.nnodes > 8000 + 4040 * 40)
		_exit(6);
	perf_maps_release(&m);
}

/*
 * 100,000 mappings whose starts are in the order of the priorities a
 * treap seeded as perf_maps.c once was (0x9e3779b9) gives them: with
 * that seed the treap was a chain, each insert and look-up a walk of
 * it and a recursion as deep (perf_maps.c now seeds from the run's
 * secret).
 */
static int by_prio(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x >> 32) < (*y >> 32) ? -1 : (*x >> 32) > (*y >> 32);
}

static void chosen_order(void *arg)
{
	enum { N = 100000 };
	uint64_t *order = malloc(N * sizeof(*order));
	uint32_t *start = malloc(N * sizeof(*start));
	uint32_t x = 0x9e3779b9u;
	struct perf_maps m;

	(void)arg;
	if (!order || !start)
		_exit(2);
	for (uint32_t i = 0; i < N; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		order[i] = (uint64_t)x << 32 | i;
	}
	qsort(order, N, sizeof(*order), by_prio);
	for (uint32_t k = 0; k < N; k++)
		start[(uint32_t)order[k]] = k;
	perf_maps_init(&m);
	for (uint32_t i = 0; i < N; i++) {
		struct perf_map map = { .start = (uint64_t)start[i] << 12,
					.end = ((uint64_t)start[i] << 12) + 0x800,
					.object = i };

		perf_maps_add(&m, 1, &map);
	}
	for (uint32_t i = 0; i < N; i++) {
		const struct perf_map *got =
			perf_maps_find(&m, 1, ((uint64_t)start[i] << 12) + 1, 0);

		if (!got || got->object != i)
			_exit(3);
	}
	perf_maps_release(&m);
	free(order);
	free(start);
}

static void test_maps_chosen_order(void **state)
{
	(void)state;
	run_bounded("100,000 mappings in a fixed seed's priority order",
		    chosen_order, NULL);
}

static void test_maps_huge_mapping(void **state)
{
	(void)state;
	run_bounded("a mapping of 2^63 bytes", huge_mapping, NULL);
}

static void test_maps_many_names(void **state)
{
	(void)state;
	run_bounded("a thread named 50,000 times", many_names, NULL);
}

static void test_maps_many_forks(void **state)
{
	(void)state;
	run_bounded("8,000 mappings and forks", many_forks, NULL);
}

/* 4,096 events and 200,000 stack nodes, a sample of one event ending
 * on each: once a row of every event per node (13 GB) */
static void many_events(void *arg)
{
	struct perf_data *d = perf_data_new();
	struct profile p;
	uint32_t node = NO_ID;

	(void)arg;
	profile_init(&p);
	perf_data_object(d, &p.names, "/x", 2, PERF_OBJ_FILE);
	perf_data_set_events(d, 4096);
	for (uint32_t i = 0; i < 200000; i++) {
		node = perf_data_node(d, perf_data_frame(d, 0, i), node, true);
		perf_data_add_sample(d, node, i % 4096, 3);
		perf_data_add_sample(d, node, i % 4096, 4);
	}
	if (d->ncosts != 200000 || d->events[5].samples != 2 * 49 ||
	    d->costs[d->nodes[5].cost].period != 7 ||
	    d->costs[d->nodes[5].cost].next != NO_ID)
		_exit(3);
	perf_data_free(d);
	profile_release(&p);
}

static void test_costs_sparse(void **state)
{
	(void)state;
	run_bounded("4,096 events by 200,000 nodes", many_events, NULL);
}

/*
 * A node's costs: walked from the node up to 8 of them, found through
 * cost_index past that (perf_data.c). One node of 40 events and one of
 * 8 exactly, each event sampled in turns, with a sample of another
 * node between: each (node, event) has one cost, of all its samples.
 */
static void test_costs_many_events(void **state)
{
	struct perf_data *d = perf_data_new();
	struct profile p;
	uint32_t a, b, other, ne = 40;

	(void)state;
	profile_init(&p);
	perf_data_object(d, &p.names, "/x", 2, PERF_OBJ_FILE);
	perf_data_set_events(d, ne);
	a = perf_data_node(d, perf_data_frame(d, 0, 1), NO_ID, true);
	b = perf_data_node(d, perf_data_frame(d, 0, 2), NO_ID, true);
	other = perf_data_node(d, perf_data_frame(d, 0, 3), NO_ID, true);
	for (uint32_t round = 0; round < 5; round++)
		for (uint32_t i = 0; i < ne; i++) {
			/* the events in a different order each round */
			uint32_t e = (i * 7 + round * 3) % ne;

			perf_data_add_samples(d, a, e, e + 1, 1);
			if (e < 8)
				perf_data_add_samples(d, b, e, 2, 2);
			perf_data_add_sample(d, other, 0, 1);
		}
	assert_int_equal(d->ncosts, ne + 8 + 1);
	for (uint32_t n = 0; n < 2; n++) {
		uint32_t node = n ? b : a, seen = 0;

		for (uint32_t c = d->nodes[node].cost; c != NO_ID;
		     c = d->costs[c].next) {
			uint32_t e = d->costs[c].event;

			assert_false(seen >> (e % 32) & (e < 32));
			seen |= e < 32 ? 1u << e : 0;
			assert_true(d->costs[c].period ==
				    (n ? 10u : 5u * (e + 1)));
			assert_true(d->costs[c].samples == (n ? 10u : 5u));
		}
	}
	assert_true(d->costs[d->nodes[other].cost].samples == 5 * ne);
	perf_data_free(d);
	profile_release(&p);
}

/*
 * perf_data_cut_stacks(): which samples' stacks look cut. Stacks, the
 * outermost frame first (K: kernel, U: no mapping, F: a file; an
 * exact frame is marked '):
 *   F main, F work, F' leaf    whole                      2 samples
 *   U 0x7, F' leaf             ends in no mapping         3 samples
 *   F' leaf                    the sampled function alone 5 samples
 *   K' idle                    a kernel thread: whole     7 samples
 */
static void test_cut_stacks(void **state)
{
	struct perf_data *d = perf_data_new();
	struct profile p;
	uint32_t f, u, k, whole, under_u, lone, kern;
	uint64_t cut, all;

	(void)state;
	profile_init(&p);
	f = perf_data_object(d, &p.names, "/bin/x", 6, PERF_OBJ_FILE);
	u = perf_data_object(d, &p.names, "[unknown]", 9, PERF_OBJ_UNKNOWN);
	k = perf_data_object(d, &p.names, "[k]", 3, PERF_OBJ_KERNEL);
	perf_data_set_events(d, 1);
	whole = perf_data_node(d, perf_data_frame(d, f, 0x10), NO_ID, false);
	whole = perf_data_node(d, perf_data_frame(d, f, 0x20), whole, false);
	whole = perf_data_node(d, perf_data_frame(d, f, 0x30), whole, true);
	under_u = perf_data_node(d, perf_data_frame(d, u, 0x7), NO_ID, false);
	under_u = perf_data_node(d, perf_data_frame(d, f, 0x30), under_u,
				 true);
	lone = perf_data_node(d, perf_data_frame(d, f, 0x30), NO_ID, true);
	kern = perf_data_node(d, perf_data_frame(d, k, 0x99), NO_ID, true);
	perf_data_add_samples(d, whole, 0, 20, 2);
	perf_data_add_samples(d, under_u, 0, 30, 3);
	perf_data_add_samples(d, lone, 0, 50, 5);
	perf_data_add_samples(d, kern, 0, 70, 7);

	perf_data_cut_stacks(d, true, &cut, &all);
	assert_int_equal(all, 17);
	assert_int_equal(cut, 3 + 5);
	/* an unwinder's outermost frame is exact: only no mapping counts */
	perf_data_cut_stacks(d, false, &cut, &all);
	assert_int_equal(all, 17);
	assert_int_equal(cut, 3);
	perf_data_free(d);
	profile_release(&p);
}

/*
 * perf_data_path() finds and makes the nodes perf_data_node() would, a
 * frame at a time, in the same order: the index it uses is placed by
 * the path's hash, not the key's, and fetched ahead. Paths of shared
 * prefixes, exact bits that differ, a path continued from a node found
 * before, an empty one, and enough nodes to grow the index many times.
 */
static void test_path_as_nodes(void **state)
{
	struct perf_data *a = perf_data_new(), *b = perf_data_new();
	struct profile p;
	uint32_t frames[40], nodes[40], seed = 12345;
	bool exact[40];

	(void)state;
	profile_init(&p);
	perf_data_object(a, &p.names, "/x", 2, PERF_OBJ_FILE);
	perf_data_object(b, &p.names, "/x", 2, PERF_OBJ_FILE);
	for (int k = 0; k < 20000; k++) {
		size_t n, split;
		uint32_t na = NO_ID, nb = NO_ID;

		seed = seed * 1103515245u + 12345u;
		n = (seed >> 8) % 40;
		split = n ? (seed >> 16) % n : 0;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* few frames near the root, more further in */
			frames[i] = (seed >> 8) % (2 + 3 * (uint32_t)i);
			exact[i] = !((seed >> 20) % 7);
		}
		for (size_t i = 0; i < n; i++) {
			perf_data_frame(a, 0, frames[i]);
			perf_data_frame(b, 0, frames[i]);
			na = perf_data_node(a, frames[i], na, exact[i]);
			if (i < split) {
				nb = perf_data_node(b, frames[i], nb, exact[i]);
				assert_int_equal(na, nb);
			}
		}
		nb = perf_data_path(b, frames + split, exact + split, n - split,
				    nb, nodes);
		assert_int_equal(na, nb);
		if (n > split)
			assert_int_equal(nodes[n - split - 1], nb);
	}
	assert_true(a->nnodes > 100000);
	assert_int_equal(a->nnodes, b->nnodes);
	for (size_t i = 0; i < a->nnodes; i++) {
		assert_int_equal(a->nodes[i].frame, b->nodes[i].frame);
		assert_int_equal(a->nodes[i].parent, b->nodes[i].parent);
		assert_int_equal(a->nodes[i].exact, b->nodes[i].exact);
	}
	assert_int_equal(perf_data_path(b, frames, exact, 0, 7, nodes), 7);
	perf_data_free(a);
	perf_data_free(b);
	profile_release(&p);
}

/*
 * The node index keeps every node findable as it grows (to a load of
 * 3/4), with path hashes spread, gathered at the end of the table as it is (runs
 * wrapping past its end, and at its doubling half of them moving to
 * the new end, half staying), or there and at its start, and all one
 * value.
 */
static void check_index_all(struct perf_node_index *ix, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		bool added = true;

		assert_int_equal(perf_node_index_get_or_put(ix, k, k ^ 0x55,
							    ix->path_hash[k],
							    (uint32_t)ix->nr,
							    &added), k);
		assert_false(added);
	}
}

/* the keys check_index_all() looks for */
static uint64_t test_node_key(const void *ctx, uint32_t node)
{
	(void)ctx;
	return node | (uint64_t)(node ^ 0x55) << 32;
}

static void test_node_index_grows(void **state)
{
	(void)state;
	for (int pattern = 0; pattern < 4; pattern++) {
		struct perf_node_index ix;
		uint32_t seed = 99, n = pattern == 3 ? 1500 : 6000;
		size_t cap = 0;

		perf_node_index_init(&ix);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t h;
			bool added = false;

			perf_node_index_reserve(&ix, 1, test_node_key, NULL);
			seed = seed * 1103515245u + 12345u;
			/* the end of the table as it is, the bits above
			 * (where it doubles to) at random */
			h = ((uint32_t)ix.mask - (seed >> 8) % 7) |
			    (seed & ~(uint32_t)ix.mask);
			switch (pattern) {
			case 0: h = seed; break;
			case 1: break;
			case 2: if (!((seed >> 8) % 3))
					h = (seed >> 8) % 9;
				break;
			default: h = UINT32_MAX; break;
			}
			if (ix.mask + 1 != cap) {
				cap = ix.mask + 1;
				check_index_all(&ix, k);
			}
			assert_int_equal(perf_node_index_get_or_put(&ix, k,
								    k ^ 0x55, h,
								    k, &added),
					 k);
			assert_true(added);
		}
		check_index_all(&ix, n);
		perf_node_index_release(&ix);
	}
}

/* An allocation that fails while a file is read names the file. */
static void test_oom_names_file(void **state)
{
	int fds[2], status = 0;
	char msg[256] = "";
	ssize_t got;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		xalloc_set_context("hostile.data");
		/* a size past SIZE_MAX: refused before malloc() (which
		 * AddressSanitizer would answer itself) */
		free(xreallocarray(NULL, SIZE_MAX / 2, 4));
		_exit(0);
	}
	close(fds[1]);
	got = read(fds[0], msg, sizeof(msg) - 1);
	close(fds[0]);
	waitpid(pid, &status, 0);
	assert_true(got > 0);
	assert_true(WIFSIGNALED(status));
	if (!strstr(msg, "hostile.data: out of memory while reading it"))
		fail_msg("got: %s", msg);
}

static void put_fork(struct buf *b, uint32_t parent, uint32_t child,
		     uint64_t time)
{
	size_t at = begin_record(b, PERF_RECORD_FORK, 0);

	put4(b, child);
	put4(b, parent);
	put4(b, child);
	put4(b, parent);
	put8(b, time);
	put_trailer(b, child, time);
	end_record(b, at);
}

static void put_comm(struct buf *b, uint32_t pid, const char *name,
		     uint64_t time)
{
	size_t at = begin_record(b, PERF_RECORD_COMM, 0);
	size_t n = strlen(name) + 1;

	put4(b, pid);
	put4(b, pid);
	put_bytes(b, name, n);
	while (n++ % 8)
		put(b, 0, 1);
	put_trailer(b, pid, time);
	end_record(b, at);
}

/* perf record -a's start: each running process's FORK from its parent
 * and then its COMM, all at time 0; then a sample of it, and one of the
 * idle task (pid 0), which no record names. */
static void put_running_processes(struct buf *b)
{
	const uint64_t user[] = { PERF_CONTEXT_USER, 0x400010 };
	const uint64_t idle[] = { PERF_CONTEXT_KERNEL, KADDR };
	size_t at;

	put_comm(b, 1, "init", 0);
	put_fork(b, 1, 100, 0);
	put_comm(b, 100, "prog", 0);
	put_mmap2(b, 100, 0x400000, 0x1000, 0, "/x/prog", 0);
	put_sample(b, PERF_RECORD_MISC_USER, 100, 5, user, 2, 1000);
	put_sample(b, PERF_RECORD_MISC_KERNEL, 0, 6, idle, 2, 1000);
	at = begin_record(b, PERF_REC_FINISHED_ROUND, 0);
	end_record(b, at);
}

static const char *thread_comm(const struct res *r, uint32_t tid)
{
	const struct perf_data *d = r->p.perf;

	for (size_t i = 0; i < d->nthreads; i++)
		if (d->threads[i].tid == tid)
			return d->threads[i].comm == NO_NAME
				       ? "(none)"
				       : profile_str(&r->p, d->threads[i].comm);
	return "(not sampled)";
}

/*
 * Names as perf report gives them: between a FORK's name (its
 * parent's) and a COMM at one time, the later in the file (every
 * process running when perf record -a started was named as init, the
 * root of its parents, in --threads and for --comm); the idle task is
 * swapper (it was "[unknown]").
 */
static void test_names_at_one_time(void **state)
{
	struct buf b;
	struct res r;

	(void)state;
	build_file_of(&b, false, put_running_processes);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	assert_string_equal(thread_comm(&r, 100), "prog");
	assert_string_equal(thread_comm(&r, 0), "swapper");
	rd_done(&r);
	free(b.p);
}

/* a file read in run_bounded(): it must be read, and quickly */
static void read_ok(void *arg)
{
	struct res r;

	rd(&r, arg, ((struct buf *)arg)->n);
	if (r.ret != 0)
		_exit(3);
	rd_done(&r);
}

/*
 * Files of 10 KB at most cannot make the reader take more than 256 MiB
 * or a second: two processes forking into each other (each FORK once
 * doubled their mappings), a chain of forks under a mapping of 2^63
 * bytes with samples of deep stacks, and one thread forked into again
 * and again (each FORK looking up the parent's every name).
 */
static void test_hostile_10k(void **state)
{
	uint64_t chain[120];
	struct buf b;

	(void)state;
	put_pipe_start(&b, false);
	for (uint64_t i = 0; i < 30; i++)
		put_mmap2(&b, 1, 0x400000 + i * 0x1000, 0x1000, 0, "/x/a", 1);
	for (uint32_t i = 0; i < 60; i++)
		put_fork(&b, i % 2 ? 2 : 1, i % 2 ? 1 : 2, 2 + i);
	put_records(&b);
	assert_true(b.n <= 10240);
	run_bounded("forks back and forth", read_ok, &b);
	free(b.p);

	put_pipe_start(&b, false);
	put_mmap2(&b, 100, 0, 1ull << 63, 0, "/x/huge", 0);
	for (uint64_t i = 0; i < 30; i++)
		put_mmap2(&b, 100, 0x400000 + i * 0x1000, 0x1000, 0, "/x/a", 1);
	for (uint32_t i = 0; i < 40; i++)
		put_fork(&b, i ? 1000 + i - 1 : 100, 1000 + i, 2);
	chain[0] = PERF_CONTEXT_USER;
	for (size_t i = 1; i < 120; i++)
		chain[i] = 0x400000 + i * 0x1000 + 8;
	for (int i = 0; i < 3; i++)
		put_sample(&b, PERF_RECORD_MISC_USER, 1039, 5, chain, 120, 1);
	assert_true(b.n <= 10240);
	run_bounded("a chain of forks under a huge mapping", read_ok, &b);
	free(b.p);

	put_pipe_start(&b, false);
	for (uint32_t tid = 5; tid < 7; tid++) {
		size_t at = begin_record(&b, PERF_RECORD_COMM, 0);

		put4(&b, tid);
		put4(&b, tid);
		put_bytes(&b, "sh\0\0\0\0\0\0", 8);
		put_trailer(&b, tid, 1000);
		end_record(&b, at);
	}
	for (uint32_t i = 0; i < 190; i++)
		put_fork(&b, 5 + (i % 2), 6 - (i % 2), 200 - i);
	put_records(&b);
	assert_true(b.n <= 10240);
	run_bounded("two threads forked into each other 190 times", read_ok, &b);
	free(b.p);
}

/* A pipe stream's start with one attr of this sample_type and user
 * registers (and its id 7), and the HOSTNAME feature. */
static void put_pipe_start_type(struct buf *b, bool be, uint64_t type,
				uint64_t regs)
{
	size_t at, attr_at;

	put_pipe_start(b, be);
	/* the attr record is the first: rewrite its attr */
	b->n = 16;
	at = begin_record(b, PERF_REC_HEADER_ATTR, 0);
	attr_at = b->n;
	put_attr(b);
	put8(b, 7);
	end_record(b, at);
	patch8(b, attr_at + 24, type);
	patch8(b, attr_at + 80, regs);
	at = begin_record(b, PERF_REC_HEADER_FEATURE, 0);
	put8(b, PERF_FEAT_HOSTNAME);
	put_string(b, "testhost");
	end_record(b, at);
}

/* a sample of TEST_SAMPLE_TYPE with REGS_USER and STACK_USER: regs of
 * ABI abi (two of them), a stack dump of 16 bytes with this dyn_size */
static void put_dwarf_sample(struct buf *b, uint64_t abi, uint64_t dyn)
{
	size_t at = begin_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

	put8(b, 0x400010);		/* ip */
	put4(b, 100);
	put4(b, 100);
	put8(b, 5);			/* time */
	put8(b, 1000);			/* period */
	put8(b, 2);			/* chain: the kernel's part only */
	put8(b, PERF_CONTEXT_KERNEL);
	put8(b, KADDR);
	put8(b, abi);
	put8(b, 0x7ff0);		/* sp, ip */
	put8(b, 0x400010);
	put8(b, 16);			/* the dump */
	put8(b, 0);
	put8(b, 0);
	put8(b, dyn);
	end_record(b, at);
}

static void expect_warning(struct buf *b, const char *what, int times)
{
	struct res r;
	const char *at;

	rd(&r, b, b->n);
	assert_int_equal(r.ret, 0);
	at = strstr(r.diag, what);
	if (!at)
		fail_msg("expected '%s' in: %s", what, r.diag);
	/* once, with the count and the first one's offset */
	assert_null(strstr(at + 1, what));
	{
		char count[64];

		snprintf(count, sizeof(count), ": %d ", times);
		assert_non_null(strstr(r.diag, count));
	}
	assert_non_null(strstr(at, "(the first at offset 0x"));
	rd_done(&r);
	free(b->p);
}

/*
 * What the reader reads on past is said, once a kind, with a count and
 * the first one's offset (perf report passes over most of these without
 * a word; it clamps dyn_size too).
 */
static void test_quirks_said(void **state)
{
	const uint64_t dwarf = TEST_SAMPLE_TYPE | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER;
	struct buf b;
	size_t at;

	(void)state;
	/* samples with 8 bytes after their fields */
	build_pipe(&b, false);
	for (int i = 0; i < 2; i++) {
		const uint64_t chain[] = { PERF_CONTEXT_USER, 0x400010 };

		at = b.n;
		put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 2, 1);
		put8(&b, 0);
		b.p[at + 6] = (unsigned char)(b.n - at);	/* its size */
	}
	expect_warning(&b, "samples have bytes after the last field", 2);

	/* a FORK whose size takes in 8 bytes more */
	build_pipe(&b, true);
	at = begin_record(&b, PERF_RECORD_FORK, 0);
	put4(&b, 101);
	put4(&b, 100);
	put4(&b, 101);
	put4(&b, 100);
	put8(&b, 3);
	put8(&b, 0);
	put_trailer(&b, 101, 3);
	end_record(&b, at);
	expect_warning(&b, "record is longer than the fields held", 1);

	/* mappings of length 0, and one past 2^64 in the file */
	build_pipe(&b, false);
	put_mmap2(&b, 100, 0x500000, 0, 0, "/x/empty", 0);
	put_mmap2(&b, 100, 0x600000, 0x2000, UINT64_MAX - 0x1000, "/x/far", 0);
	expect_warning(&b, "mapping has a length of 0", 1);
	build_pipe(&b, false);
	put_mmap2(&b, 100, 0x600000, 0x2000, UINT64_MAX - 0x1000, "/x/far", 0);
	expect_warning(&b, "mapping has a page offset that passes 2^64", 1);

	/* lost counts that would wrap */
	build_pipe(&b, false);
	for (int i = 0; i < 3; i++) {
		at = begin_record(&b, PERF_RECORD_LOST_SAMPLES, 0);
		put8(&b, 1ull << 63);
		put_trailer(&b, 100, 1);
		end_record(&b, at);
	}
	expect_warning(&b, "bring the lost counts past 2^64", 2);

	/* sample_type bits past the known ones */
	put_pipe_start_type(&b, false, TEST_SAMPLE_TYPE | 1ull << 40, 0);
	expect_warning(&b, "sample_type bits cganalyze does not know", 1);

	/* a stack dump whose dyn_size is over its size */
	put_pipe_start_type(&b, false, dwarf, 1ull << 7 | 1ull << 8);
	put_dwarf_sample(&b, PERF_SAMPLE_REGS_ABI_64, 32);
	expect_warning(&b, "dyn_size is over the dump's size", 1);
}

/* Samples with a stack dump but no registers to unwind it from: a
 * 32-bit process's, or a mask without the stack pointer (x86_64, with
 * libdw: the only unwinder there is). */
static void test_no_regs_said(void **state)
{
	const uint64_t dwarf = TEST_SAMPLE_TYPE | PERF_SAMPLE_REGS_USER |
			       PERF_SAMPLE_STACK_USER;
	struct buf b;

	(void)state;
#ifndef __x86_64__
	skip();
#endif
	put_pipe_start_type(&b, false, dwarf, 1ull << 7 | 1ull << 8);
	put_dwarf_sample(&b, PERF_SAMPLE_REGS_ABI_32, 16);
	put_dwarf_sample(&b, PERF_SAMPLE_REGS_ABI_32, 16);
	expect_warning(&b, "lack the registers to unwind it", 2);
	/* bits 6 and 8: bp and ip, no sp */
	put_pipe_start_type(&b, false, dwarf, 1ull << 6 | 1ull << 8);
	put_dwarf_sample(&b, PERF_SAMPLE_REGS_ABI_64, 16);
	expect_warning(&b, "lacks the registers to unwind it", 1);
}

/* Two events whose samples carry no id, or one id in both, cannot be
 * told apart: an error (perf report: "non matching sample_type"), not
 * every sample taken for the first event. */
static void test_events_told_apart(void **state)
{
	struct buf b;
	size_t at, attr_at;

	(void)state;
	for (int dup = 0; dup < 2; dup++) {
		put_pipe_start(&b, false);
		at = begin_record(&b, PERF_REC_HEADER_ATTR, 0);
		attr_at = b.n;
		put_attr(&b);
		put8(&b, dup ? 7 : 8);
		end_record(&b, at);
		if (dup) {
			/* both with IDENTIFIER: the first's too */
			patch8(&b, attr_at + 24, TEST_SAMPLE_TYPE |
						 PERF_SAMPLE_IDENTIFIER);
			patch8(&b, 16 + 8 + 24, TEST_SAMPLE_TYPE |
						PERF_SAMPLE_IDENTIFIER);
		}
		put_records(&b);
		expect_error(&b, dup ? "is event attr 0's too"
				     : "the samples carry no id");
		free(b.p);
	}
}

/*
 * A recording perf record did not finish (killed: the header's data
 * size still 0, no feature sections): read to the end of the file, a
 * record cut there left out, with a warning each. perf report warns
 * the same way ("The perf.data file's data size field is 0 which is
 * unexpected. Was the 'perf record' command properly terminated?") and
 * reads on (on one killed here after 1.5 s, perf 6.1 then stopped with
 * "failed to process sample"; cganalyze read its 2 samples). It read as
 * an empty profile.
 */
static void test_unfinished_recording(void **state)
{
	(void)state;
	for (int cut = 0; cut < 2; cut++) {
		struct buf b;
		struct res r;

		build_file(&b, cut);
		patch8(&b, 48, 0);		/* data size */
		patch8(&b, 104 - 32, 0);	/* features */
		b.n -= 16 + 4 + 16;		/* their table and HOSTNAME */
		if (cut)
			b.n -= 8 + 5;	/* the FINISHED_ROUND, and into
					 * the last sample */
		rd(&r, &b, b.n);
		assert_int_equal(r.ret, 0);
		assert_non_null(strstr(r.diag, "profile: offset 0x28: the "
					       "data section's size is 0"));
		assert_true(!cut == !strstr(r.diag, "ends inside a record"));
		assert_int_equal(r.p.perf->events[0].samples, cut ? 2 : 3);
		rd_done(&r);
		free(b.p);
	}
}

/* Messages that name a place: samples of no event (the first one's
 * offset), and periods adding up past 2^64 (the sample where they do:
 * it was said later, by the call graph, with neither file nor offset) */
static void test_messages_placed(void **state)
{
	const uint64_t chain[] = { PERF_CONTEXT_USER, 0x400010 };
	struct buf b;
	struct res r;
	size_t at, first;

	(void)state;
	/* two attrs with IDENTIFIER; samples of id 9, which is neither's */
	put_pipe_start(&b, false);
	at = begin_record(&b, PERF_REC_HEADER_ATTR, 0);
	put_attr(&b);
	put8(&b, 8);
	end_record(&b, at);
	patch8(&b, at + 8 + 24, TEST_SAMPLE_TYPE | PERF_SAMPLE_IDENTIFIER);
	patch8(&b, 16 + 8 + 24, TEST_SAMPLE_TYPE | PERF_SAMPLE_IDENTIFIER);
	put_mmap2(&b, 100, 0x400000, 0x1000, 0, "/x/prog", 0);
	first = b.n;
	for (int i = 0; i < 2; i++) {
		at = begin_record(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put8(&b, 9);
		put8(&b, 0x400010);
		put4(&b, 100);
		put4(&b, 100);
		put8(&b, 5);
		put8(&b, 1);
		put8(&b, 2);
		put8(&b, chain[0]);
		put8(&b, chain[1]);
		end_record(&b, at);
	}
	rd(&r, &b, b.n);
	{
		char want[160];

		snprintf(want, sizeof(want), "2 samples name no event of the "
			 "file (their id is in no event attr's ids; the first "
			 "at offset 0x%zx)", first);
		if (!strstr(r.diag, want))
			fail_msg("expected '%s' in: %s", want, r.diag);
	}
	rd_done(&r);
	free(b.p);

	build_pipe(&b, false);
	first = b.n;
	for (int i = 0; i < 2; i++)
		put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 2,
			   1ull << 63);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, -1);
	{
		char want[160];

		/* the second brings 1750 + 2 * 2^63 past 2^64 */
		snprintf(want, sizeof(want), "profile: offset 0x%zx: the "
			 "periods of event 'cpu-clock' add up past 2^64",
			 first + (b.n - first) / 2);
		if (!strstr(r.diag, want))
			fail_msg("expected '%s' in: %s", want, r.diag);
	}
	rd_done(&r);
	free(b.p);
}

/*
 * Stacks at the recording's limit (127 frames, the kernel's default
 * kernel.perf_event_max_stack) are counted and said: their outermost
 * callers may be missing (perf report says nothing). --max-stack=N, as
 * perf report's, keeps the N innermost frames: perf report
 * --no-children -g callee --max-stack=2 on tests/perf/fp.data shows
 * leaf's callers one deep, as we do. perf report --children instead
 * walks the chain caller first and keeps the N outermost (with 2, main
 * and __libc_start_call_main keep their 73.04% and hot drops out),
 * which makes arcs no program has; we differ on purpose.
 */
static void test_deep_stacks(void **state)
{
	uint64_t chain[1 + 127];
	struct buf b;
	struct res r;
	struct read_opts o = { .perf_max_stack = 2 };

	(void)state;
	chain[0] = PERF_CONTEXT_USER;
	for (size_t i = 1; i <= 127; i++)
		chain[i] = 0x400000 + 16 * i;
	build_pipe(&b, false);
	put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 127, 1);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	assert_null(strstr(r.diag, "127 frames"));	/* 126: not said */
	rd_done(&r);
	put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 128, 1);
	put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 128, 1);
	expect_warning(&b, "samples have a call chain of 127 frames, the "
			   "recording's limit", 2);

	/* --max-stack=2: the leaf and its caller only */
	build_pipe(&b, false);
	put_sample(&b, PERF_RECORD_MISC_USER, 100, 5, chain, 6, 1);
	profile_init(&r.p);
	r.ret = read_text(&r.p, (const char *)b.p, (long)b.n, &o, &r.diag);
	assert_int_equal(r.ret, 0);
	/* build_pipe's 5 nodes, then 0x400010 <- 0x400020 (a return
	 * address, a node of its own): 2 of the 5 */
	assert_int_equal(r.p.perf->nnodes, 5 + 2);
	rd_done(&r);
	free(b.p);
}

/*
 * perf record --call-graph lbr: the user stack is in the branch stack,
 * which is not read (no LBR hardware to record a real file with): the
 * samples are read, their stack is the ip, and a note says so once.
 */
static void test_lbr_note(void **state)
{
	const uint64_t type = TEST_SAMPLE_TYPE | PERF_SAMPLE_BRANCH_STACK;
	struct buf b = { 0 };
	struct res r;
	size_t at, attr_at;

	(void)state;
	put_bytes(&b, "PERFILE2", 8);
	put8(&b, 16);
	at = begin_record(&b, PERF_REC_HEADER_ATTR, 0);
	attr_at = b.n;
	put_attr(&b);
	b.n = attr_at + 24;
	put8(&b, type);
	b.n = attr_at + 72;		/* branch_sample_type */
	put8(&b, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK);
	b.n = attr_at + 128;
	put8(&b, 7);
	end_record(&b, at);
	put_mmap2(&b, 100, 0x400000, 0x1000, 0, "/x/prog", 0);
	for (int i = 0; i < 2; i++) {
		at = begin_record(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put8(&b, 0x400010);	/* ip, pid, tid, time, period */
		put4(&b, 100);
		put4(&b, 100);
		put8(&b, 5);
		put8(&b, 1000);
		put8(&b, 0);		/* chain: empty (user part excluded) */
		put8(&b, 2);		/* branch stack: 2 calls */
		for (int k = 0; k < 6; k++)
			put8(&b, 0x400100 + (uint64_t)k);
		end_record(&b, at);
	}
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	if (!strstr(r.diag, "2 samples hold LBR call stacks"))
		fail_msg("got: %s", r.diag);
	assert_true(has_frame(&r, "/x/prog", 0x10));
	assert_int_equal(r.p.perf->events[0].samples, 2);
	rd_done(&r);
	free(b.p);
}

/* What a period counts, by the attr's type and config: the clocks'
 * nanoseconds, the other events' counts (the listings and the report
 * show it beside the costs). */
static const struct {
	uint32_t type;
	uint64_t config;
	const char *name, *unit;
} unit_cases[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", "ns" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", "ns" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", "events" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", "events" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", "events" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache-misses", "events" },
	{ PERF_TYPE_TRACEPOINT, 316, "event-2:0x13c", "events" },
};

static void test_event_units(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(unit_cases) / sizeof(unit_cases[0]); i++) {
		struct buf b;
		struct res r;
		size_t end;

		build_file(&b, false);
		end = b.n;
		b.n = 104;		/* the attr: type, size, config */
		put4(&b, unit_cases[i].type);
		b.n = 104 + 8;
		put8(&b, unit_cases[i].config);
		b.n = end;
		rd(&r, &b, b.n);
		assert_int_equal(r.ret, 0);
		assert_string_equal(profile_str(&r.p, r.p.perf->events[0].name),
				    unit_cases[i].name);
		assert_string_equal(profile_str(&r.p, r.p.perf->events[0].unit),
				    unit_cases[i].unit);
		rd_done(&r);
		free(b.p);
	}
}

/* --- perf record -z: compressed records --- */

/* How a -z stream is built: where its records' bytes are cut between
 * the two compressed records, which record type holds them, and what
 * the COMPRESSED feature says. */
struct zspec {
	size_t split;			/* of the records' bytes */
	bool v2;			/* COMPRESSED2 */
	uint32_t method, mmap_len;
	bool second;			/* write the second compressed record */
};

/* One compressed record holding the next n bytes at src of cs's
 * stream, flushed, as perf writes them. */
static void put_compressed(struct buf *b, ZSTD_CStream *cs,
			   const unsigned char *src, size_t n, bool v2)
{
	size_t at = begin_record(b, v2 ? PERF_REC_COMPRESSED2
				       : PERF_REC_COMPRESSED, 0);
	size_t size_at = b->n;
	static unsigned char out[1 << 16];
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer o = { out, sizeof(out), 0 };

	if (v2)
		put8(b, 0);
	while (in.pos < in.size)
		assert_false(ZSTD_isError(ZSTD_compressStream(cs, &o, &in)));
	while (ZSTD_flushStream(cs, &o) > 0)
		;
	put_bytes(b, out, o.pos);
	if (v2) {
		patch8(b, size_at, o.pos);
		while ((b->n - at) % 8)
			put(b, 0, 1);
	}
	end_record(b, at);
}

/* The pipe stream of build_pipe() with its records compressed (but the
 * FINISHED_ROUND, which perf writes outside them), after a COMPRESSED
 * feature record. Returns the offset of the first compressed record. */
static size_t build_zpipe(struct buf *b, bool be, const struct zspec *z)
{
	struct buf recs = { NULL, 0, 0, be };
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t at, first;

	assert_non_null(cs);
	assert_false(ZSTD_isError(ZSTD_initCStream(cs, 1)));
	put_pipe_start(b, be);
	at = begin_record(b, PERF_REC_HEADER_FEATURE, 0);
	put8(b, PERF_FEAT_COMPRESSED);
	put4(b, 1);			/* version */
	put4(b, z->method);
	put4(b, 1);			/* level */
	put4(b, 8);			/* ratio */
	put4(b, z->mmap_len);
	end_record(b, at);
	put_records(&recs);
	recs.n -= 8;			/* the FINISHED_ROUND */
	assert_true(z->split <= recs.n);
	first = b->n;
	put_compressed(b, cs, recs.p, z->split, z->v2);
	if (z->second)
		put_compressed(b, cs, recs.p + z->split, recs.n - z->split,
			       z->v2);
	at = begin_record(b, PERF_REC_FINISHED_ROUND, 0);
	end_record(b, at);
	ZSTD_freeCStream(cs);
	free(recs.p);
	return first;
}

static const struct zspec zplain = { 0, false, PERF_COMP_ZSTD, 1 << 20, true };

/* The records' bytes cut between the two compressed records at every
 * byte (inside headers, fields, chains) read as the uncompressed
 * stream is, in both byte orders and both record types */
static void test_compressed_split(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++)
		for (int v2 = 0; v2 < 2; v2++) {
			struct zspec z = zplain;
			struct buf b;
			size_t total;

			z.v2 = v2;
			z.split = SIZE_MAX;
			{
				struct buf recs = { NULL, 0, 0, be };

				put_records(&recs);
				total = recs.n - 8;
				free(recs.p);
			}
			for (z.split = 0; z.split <= total; z.split++) {
				build_zpipe(&b, be, &z);
				check_read(&b);
				free(b.p);
			}
		}
}

static void expect_z_error(const struct zspec *z, const char *what,
			   void (*spoil)(struct buf *, size_t))
{
	struct buf b;
	size_t first = build_zpipe(&b, false, z);

	if (spoil)
		spoil(&b, first);
	expect_error(&b, what);
	free(b.p);
}

/* bytes in the first compressed record's zstd data overwritten */
static void spoil_data(struct buf *b, size_t first)
{
	for (size_t i = first + 8 + 4; i < first + 8 + 12; i++)
		b->p[i] ^= 0x5a;
}

/* a build-id record, perf's own, inside the compressed data */
static void add_build_id_inside(struct buf *b, size_t first)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	struct buf rec = { NULL, 0, 0, false };
	size_t at = begin_record(&rec, PERF_REC_HEADER_BUILD_ID, 0);

	put4(&rec, 100);
	for (int i = 0; i < 24; i++)
		put(&rec, 0xab, 1);
	put_bytes(&rec, "/x/prog", 8);
	end_record(&rec, at);
	ZSTD_initCStream(cs, 1);
	b->n = first;
	put_compressed(b, cs, rec.p, rec.n, false);
	ZSTD_freeCStream(cs);
	free(rec.p);
}

/* Bad -z data: each refused with a message naming the file, an offset
 * and what is wrong; nothing read past the end, no loop */
static void test_compressed_bad(void **state)
{
	struct zspec z = zplain;
	struct buf b;

	(void)state;
	z.split = 100;
	expect_z_error(&z, "zstd data is corrupt", spoil_data);
	/* more output than the ring buffer the feature names */
	z.mmap_len = 64;
	expect_z_error(&z, "decompresses to more than 64 bytes", NULL);
	z.mmap_len = 1 << 20;
	/* the data stops inside a record: the second piece is missing */
	z.second = false;
	expect_z_error(&z, "ends inside a record", NULL);
	z.second = true;
	z.method = 2;
	expect_z_error(&z, "not zstd's", NULL);
	z.method = PERF_COMP_ZSTD;
	expect_z_error(&z, "in compressed data, where perf puts only",
		       add_build_id_inside);
	/* the error inside names the compressed record and the offset in
	 * the decompressed stream */
	{
		struct res r;
		size_t first;

		z.split = 0;
		first = build_zpipe(&b, false, &z);
		/* the second record's data: spoil a record size inside by
		 * recompressing records whose first size is 4 */
		{
			struct buf recs = { NULL, 0, 0, false };
			ZSTD_CStream *cs = ZSTD_createCStream();

			put_records(&recs);
			recs.p[6] = 4;
			recs.p[7] = 0;
			ZSTD_initCStream(cs, 1);
			b.n = first;
			put_compressed(&b, cs, recs.p, recs.n - 8, false);
			ZSTD_freeCStream(cs);
			free(recs.p);
		}
		rd(&r, &b, b.n);
		assert_int_equal(r.ret, -1);
		if (!strstr(r.diag, "smaller than its header (at offset 0x0 "
				    "of the data decompressed"))
			fail_msg("got: %s", r.diag);
		{
			char want[64];

			snprintf(want, sizeof(want), "offset 0x%zx:", first);
			assert_non_null(strstr(r.diag, want));
		}
		rd_done(&r);
		free(b.p);
	}
	/* a COMPRESSED2 whose data size is past its record */
	z.v2 = true;
	{
		size_t first = build_zpipe(&b, false, &z);

		patch8(&b, first + 8, 1 << 20);
		expect_error(&b, "whose data would be");
		free(b.p);
	}
}

/*
 * perf record -z data that decompresses to over 1000 times its size: a
 * few KB of compressed records making 70 MiB of FINISHED_ROUNDs (each
 * piece within the ring buffer's size) is refused at the record where
 * it passes the cap, not read (perf itself would read on: it has no
 * cap, but its own files compress 10 to 30 times).
 */
static void test_compressed_ratio_capped(void **state)
{
	enum { PIECE = 1 << 20, PIECES = 70 };
	ZSTD_CStream *cs = ZSTD_createCStream();
	struct buf recs = { 0 }, b;
	struct res r;
	size_t at;

	(void)state;
	assert_non_null(cs);
	assert_false(ZSTD_isError(ZSTD_initCStream(cs, 1)));
	while (recs.n < PIECE) {
		at = begin_record(&recs, PERF_REC_FINISHED_ROUND, 0);
		end_record(&recs, at);
	}
	put_pipe_start(&b, false);
	at = begin_record(&b, PERF_REC_HEADER_FEATURE, 0);
	put8(&b, PERF_FEAT_COMPRESSED);
	put4(&b, 1);
	put4(&b, PERF_COMP_ZSTD);
	put4(&b, 1);
	put4(&b, 8);
	put4(&b, PIECE);
	end_record(&b, at);
	put_records(&b);
	for (int i = 0; i < PIECES; i++)
		put_compressed(&b, cs, recs.p, recs.n, false);
	assert_true(b.n < 64 << 10);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, -1);
	if (!strstr(r.diag, "more than 1000 times their size"))
		fail_msg("no cap: %s", r.diag);
	assert_non_null(strstr(r.diag, "profile: offset 0x"));
	rd_done(&r);
	ZSTD_freeCStream(cs);
	free(recs.p);
	free(b.p);
}

/*
 * A compressed record whose zstd data is cut short inside a block: the
 * records of that block never come out of the decoder. An error, where
 * the reader kept the samples of the blocks before and said nothing
 * (perf report reads on without them too, or stops with "Couldn't
 * decompress data" when nothing came out).
 */
static void test_compressed_cut_short(void **state)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	struct buf recs = { 0 }, zb = { 0 }, b;
	size_t at;

	(void)state;
	assert_non_null(cs);
	assert_false(ZSTD_isError(ZSTD_initCStream(cs, 1)));
	put_records(&recs);
	put_compressed(&zb, cs, recs.p, recs.n, false);
	put_pipe_start(&b, false);
	at = begin_record(&b, PERF_REC_HEADER_FEATURE, 0);
	put8(&b, PERF_FEAT_COMPRESSED);
	put4(&b, 1);
	put4(&b, PERF_COMP_ZSTD);
	put4(&b, 1);
	put4(&b, 8);
	put4(&b, 1 << 20);
	end_record(&b, at);
	at = b.n;
	put_bytes(&b, zb.p, zb.n - 5);		/* 5 bytes short */
	b.p[at + 6] = (unsigned char)((zb.n - 5) & 0xff);
	b.p[at + 7] = (unsigned char)((zb.n - 5) >> 8);
	expect_error(&b, "ends inside a block");
	free(b.p);

	/* not cut: a whole zstd frame in the record (perf never ends its
	 * frame, but a frame that ends is no cut), of 64 KiB of records,
	 * which fill the first output buffer exactly: the decoder, called
	 * once more, asks for a next frame's header then */
	{
		struct buf rounds = { 0 };
		size_t bound, got;
		unsigned char *frame;
		struct res r;

		while (rounds.n < 64 << 10) {
			at = begin_record(&rounds, PERF_REC_FINISHED_ROUND, 0);
			end_record(&rounds, at);
		}
		bound = ZSTD_compressBound(rounds.n);
		frame = malloc(bound);
		assert_non_null(frame);
		got = ZSTD_compress(frame, bound, rounds.p, rounds.n, 3);
		free(rounds.p);
		assert_false(ZSTD_isError(got));
		put_pipe_start(&b, false);
		at = begin_record(&b, PERF_REC_HEADER_FEATURE, 0);
		put8(&b, PERF_FEAT_COMPRESSED);
		put4(&b, 1);
		put4(&b, PERF_COMP_ZSTD);
		put4(&b, 1);
		put4(&b, 8);
		put4(&b, 1 << 20);
		end_record(&b, at);
		at = begin_record(&b, PERF_REC_COMPRESSED, 0);
		put_bytes(&b, frame, got);
		end_record(&b, at);
		put_records(&b);
		rd(&r, &b, b.n);
		if (r.ret != 0)
			fail_msg("a whole frame refused: %s", r.diag);
		assert_int_equal(r.p.perf->events[0].samples, 3);
		rd_done(&r);
		free(frame);
		free(b.p);
	}
	ZSTD_freeCStream(cs);
	free(recs.p);
	free(zb.p);
}

/* Every prefix of a -z stream: read or refused, never read past */
static void test_compressed_truncated(void **state)
{
	struct zspec z = zplain;
	struct buf b;

	(void)state;
	z.split = 77;
	build_zpipe(&b, true, &z);
	for (size_t len = 8; len < b.n; len++) {
		struct res r;

		rd(&r, &b, len);
		if (r.ret < 0)
			assert_non_null(strstr(r.diag, "profile: offset 0x"));
		rd_done(&r);
	}
	free(b.p);
}

/*
 * An EVENT_DESC feature whose attr size is 0xfffffff8, as a pipe
 * stream's feature record and as a file's feature section: an error at
 * the section, not a division by attr_size + 8 wrapped to 0 (SIGFPE).
 */
static void put_event_desc(struct buf *b, uint32_t attr_size)
{
	put4(b, 1);			/* one event */
	put4(b, attr_size);
	put4(b, 0);			/* what follows: too little for it */
	put4(b, 0);
}

static void test_event_desc_attr_size_wraps(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct buf b;
		struct res r;
		size_t at, feat_at;

		/* pipe mode: a HEADER_FEATURE record */
		put_pipe_start(&b, be);
		at = begin_record(&b, PERF_REC_HEADER_FEATURE, 0);
		put8(&b, PERF_FEAT_EVENT_DESC);
		put_event_desc(&b, 0xfffffff8u);
		end_record(&b, at);
		put_records(&b);
		rd(&r, &b, b.n);
		assert_int_equal(r.ret, -1);
		assert_non_null(strstr(r.diag, "EVENT_DESC"));
		assert_non_null(strstr(r.diag, "offset 0x"));
		rd_done(&r);
		free(b.p);

		/* a file: the HOSTNAME section replaced by an EVENT_DESC one */
		build_file(&b, be);
		patch8(&b, 104 - 32, 1ull << PERF_FEAT_EVENT_DESC);
		b.n -= 4 + 16;		/* the hostname string */
		feat_at = b.n - 16;
		put_event_desc(&b, 0xfffffff8u);
		patch8(&b, feat_at + 8, 16);
		rd(&r, &b, b.n);
		assert_int_equal(r.ret, -1);
		assert_non_null(strstr(r.diag, "EVENT_DESC"));
		rd_done(&r);
		free(b.p);
	}
}

/*
 * A -z file of a few KB holding many mappings and FORKs (compressed,
 * they take next to nothing): 8,000 mappings of one process, 1,000
 * children each forked into twice (the second FORK once copied the
 * parent's 8,000: 2,000 processes took 486 MB), and 3,000 FORKs back
 * and forth between processes that hold mappings (each once cost a walk
 * of the parent's). Read in 256 MiB and a second, with the samples of
 * a child found in the parent's mappings.
 */
static void test_hostile_forks_z(void **state)
{
	struct buf recs = { NULL, 0, 0, false }, b;
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t at, half;

	(void)state;
	assert_non_null(cs);
	assert_false(ZSTD_isError(ZSTD_initCStream(cs, 19)));
	put_pipe_start(&b, false);
	at = begin_record(&b, PERF_REC_HEADER_FEATURE, 0);
	put8(&b, PERF_FEAT_COMPRESSED);
	put4(&b, 1);			/* version */
	put4(&b, PERF_COMP_ZSTD);
	put4(&b, 19);			/* level */
	put4(&b, 8);			/* ratio */
	put4(&b, 1 << 20);		/* mmap_len */
	end_record(&b, at);
	for (int i = 0; i < 8000; i++)
		put_mmap2(&recs, 1, 0x400000, 0x1000, 0, "/x/prog", 1);
	for (uint32_t i = 0; i < 1000; i++) {
		put_fork(&recs, 1, 5000 + i, 2);
		put_fork(&recs, 1, 5000 + i, 3);
	}
	for (uint32_t i = 0; i < 1000; i++) {
		put_fork(&recs, 1, 2, 4);
		put_fork(&recs, 2, 3, 4);
		put_fork(&recs, 3, 2, 4);
	}
	{
		const uint64_t chain[] = { PERF_CONTEXT_USER, 0x400010 };

		for (uint32_t i = 0; i < 3; i++)
			put_sample(&recs, PERF_RECORD_MISC_USER, 5999, 5,
				   chain, 2, 1);
	}
	/* two records, each within the ring buffer's 1 MiB */
	half = 0;
	while (half < recs.n / 2) {
		uint16_t len = (uint16_t)(recs.p[half + 6] |
					  recs.p[half + 7] << 8);

		half += len;
	}
	put_compressed(&b, cs, recs.p, half, false);
	put_compressed(&b, cs, recs.p + half, recs.n - half, false);
	at = begin_record(&b, PERF_REC_FINISHED_ROUND, 0);
	end_record(&b, at);
	ZSTD_freeCStream(cs);
	free(recs.p);
	assert_true(b.n <= 10240);
	run_bounded("8,000 mappings and 5,000 forks in a -z file", read_ok, &b);
	{
		struct res r;

		rd(&r, &b, b.n);
		assert_int_equal(r.ret, 0);
		assert_true(has_frame(&r, "/x/prog", 0x10));
		rd_done(&r);
	}
	free(b.p);
}

/* The period of the samples whose leaf frame is in object path. */
static uint64_t leaf_period(const struct res *r, const char *path)
{
	const struct perf_data *d = r->p.perf;
	uint32_t ob = object_named(r, path);
	uint64_t sum = 0;

	for (size_t n = 0; n < d->nnodes; n++) {
		if (d->frames[d->nodes[n].frame].object != ob)
			continue;
		for (uint32_t c = d->nodes[n].cost; c != NO_ID;
		     c = d->costs[c].next)
			sum += d->costs[c].period;
	}
	return sum;
}

/*
 * A sample's frames are looked up once per process and address while
 * the mapping holding it stays (perf_records.c's cache of frame_of(),
 * and a thread's last path): an address mapped over between two samples
 * is the new object's after, the old one's for a sample before, however
 * the samples come; and a second process's same address is its own.
 */
static void test_frames_cached_exactly(void **state)
{
	static const struct { uint32_t pid; uint64_t time, period; } smp[] = {
		{ 100, 5, 1 }, { 100, 15, 2 }, { 100, 7, 4 }, { 100, 15, 8 },
		{ 101, 15, 16 }, { 100, 9, 32 }, { 100, 10, 64 },
	};
	const uint64_t chain[] = { PERF_CONTEXT_USER, 0x400010, 0x400100 };
	struct buf b;
	struct res r;

	(void)state;
	put_pipe_start(&b, false);
	put_mmap2(&b, 100, 0x400000, 0x1000, 0, "/x/a", 1);
	put_mmap2(&b, 100, 0x400000, 0x1000, 0, "/x/b", 10);
	put_mmap2(&b, 101, 0x400000, 0x1000, 0, "/x/c", 1);
	for (size_t i = 0; i < sizeof(smp) / sizeof(smp[0]); i++)
		put_sample(&b, PERF_RECORD_MISC_USER, smp[i].pid, smp[i].time,
			   chain, 3, smp[i].period);
	rd(&r, &b, b.n);
	assert_int_equal(r.ret, 0);
	/* /x/a before time 10: 1 + 4 + 32; /x/b from 10 on: 2 + 8 + 64 */
	assert_int_equal(leaf_period(&r, "/x/a"), 37);
	assert_int_equal(leaf_period(&r, "/x/b"), 74);
	assert_int_equal(leaf_period(&r, "/x/c"), 16);
	rd_done(&r);
	free(b.p);
}

/* --- one pass (read_perf.c's one_pass_ok(), perf_records.c) --- */

static void put_round(struct buf *b)
{
	end_record(b, begin_record(b, PERF_REC_FINISHED_ROUND, 0));
}

static const uint64_t one_user[] = { PERF_CONTEXT_USER, 0x400010 };

/*
 * A sample read before an older mapping of its process, in the same
 * round: perf's CPUs' buffers are written one after the other, and a
 * process that moved to a CPU written first has its samples before
 * its mappings. The sample is held until the rounds end: found in the
 * mapping.
 */
static void sample_then_mapping(struct buf *b)
{
	put_sample(b, PERF_RECORD_MISC_USER, 100, 50, one_user, 2, 1000);
	put_mmap2(b, 100, 0x400000, 0x1000, 0x2000, "/x/prog", 40);
	put_round(b);
}

/* The same mapping rounds late, which perf's rule says cannot come
 * (perf report itself would take it after the sample, out of order,
 * with a warning): the one pass has read the sample by then, sees
 * that it would have found the mapping, and the file is read again in
 * two passes. */
static void mapping_rounds_late(struct buf *b)
{
	put_sample(b, PERF_RECORD_MISC_USER, 100, 50, one_user, 2, 1000);
	put_round(b);
	put_round(b);
	put_round(b);
	put_mmap2(b, 100, 0x400000, 0x1000, 0x2000, "/x/prog", 40);
	put_round(b);
}

/* A FORK giving the sampled child its parent's mapping, late. */
static void fork_rounds_late(struct buf *b)
{
	put_mmap2(b, 100, 0x400000, 0x1000, 0x2000, "/x/prog", 1);
	put_round(b);
	put_sample(b, PERF_RECORD_MISC_USER, 200, 50, one_user, 2, 1000);
	put_round(b);
	put_round(b);
	put_round(b);
	put_fork(b, 100, 200, 20);
	put_round(b);
}

/* A mapping after the sample, newer than it: it changes nothing the
 * sample found, and the later sample finds it. */
static void newer_mapping_later(struct buf *b)
{
	put_mmap2(b, 100, 0x400000, 0x1000, 0x2000, "/x/prog", 1);
	put_sample(b, PERF_RECORD_MISC_USER, 100, 50, one_user, 2, 1000);
	put_round(b);
	put_round(b);
	put_round(b);
	put_mmap2(b, 100, 0x400000, 0x1000, 0x3000, "/x/other", 60);
	put_sample(b, PERF_RECORD_MISC_USER, 100, 70, one_user, 2, 1000);
	put_round(b);
}

static void read_file_of(struct res *r, void (*records)(struct buf *),
			 bool two_passes)
{
	struct buf b;

	build_file_of(&b, false, records);
	if (two_passes)
		setenv("CGANALYZE_PERF_PASSES", "2", 1);
	rd(r, &b, b.n);
	unsetenv("CGANALYZE_PERF_PASSES");
	free(b.p);
}

static void test_one_pass_as_two(void **state)
{
	void (*files[])(struct buf *) = { sample_then_mapping,
					  mapping_rounds_late,
					  fork_rounds_late,
					  newer_mapping_later };

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct res one, two;
		const struct perf_data *d1, *d2;

		read_file_of(&one, files[i], false);
		read_file_of(&two, files[i], true);
		assert_int_equal(one.ret, 0);
		assert_int_equal(two.ret, 0);
		assert_string_equal(one.diag, two.diag);
		/* the first sample in /x/prog's mapping at 0x2000 */
		assert_true(has_frame(&one, "/x/prog", 0x2010));
		d1 = one.p.perf;
		d2 = two.p.perf;
		assert_int_equal(d1->nframes, d2->nframes);
		assert_int_equal(d1->nnodes, d2->nnodes);
		for (size_t f = 0; f < d1->nframes; f++) {
			assert_int_equal(d1->frames[f].object,
					 d2->frames[f].object);
			assert_int_equal(d1->frames[f].offset,
					 d2->frames[f].offset);
		}
		if (files[i] == newer_mapping_later)
			assert_true(has_frame(&one, "/x/other", 0x3010));
		rd_done(&one);
		rd_done(&two);
	}
}

/* A damaged record after a damaged sample: two passes report the
 * record (the first pass reads it before any sample), and so does a
 * file tried in one pass, which says nothing of its own and is read
 * again in two. */
static void bad_sample_then_bad_mapping(struct buf *b)
{
	size_t at;

	put_mmap2(b, 100, 0x400000, 0x1000, 0x2000, "/x/prog", 1);
	put_sample(b, PERF_RECORD_MISC_USER, 100, 50, one_user, 2, 1000);
	at = begin_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put8(b, 0x400010);		/* its ip, then nothing */
	end_record(b, at);
	put_round(b);
	put_round(b);
	put_round(b);
	at = begin_record(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put8(b, 100);
	end_record(b, at);
}

static void test_one_pass_errors_as_two(void **state)
{
	struct res one, two;

	(void)state;
	read_file_of(&one, bad_sample_then_bad_mapping, false);
	read_file_of(&two, bad_sample_then_bad_mapping, true);
	assert_int_equal(one.ret, -1);
	assert_int_equal(two.ret, -1);
	if (!strstr(two.diag, "a mapping record of 16 bytes"))
		fail_msg("got: %s", two.diag);
	/* the same message, of files at other temporary paths */
	assert_string_equal(strstr(one.diag, "profile: "),
			    strstr(two.diag, "profile: "));
	rd_done(&one);
	rd_done(&two);
}

/*
 * The ops waiting to be taken in: those noted in time order in a queue,
 * the others in a heap, taken in together by time. 1,200 mappings at
 * addresses of their own, every seventh noted 15 before the last (into
 * the heap), taken in as samples of another process move on (the
 * queue's taken part dropped again and again): each found from its
 * time on and not before, none lost or taken twice.
 */
static void test_maps_queue_and_heap(void **state)
{
	enum { N = 1200 };
	struct perf_maps m;
	uint64_t t[N];

	(void)state;
	perf_maps_init(&m);
	for (size_t i = 0; i < N; i++) {
		struct perf_map map = { 0x100000 + i * 0x1000,
					0x100000 + i * 0x1000 + 0x800, 0, 0,
					(uint32_t)i, 0, true };

		t[i] = 1000 + 10 * i - (i % 7 == 3 ? 15 : 0);
		map.time = t[i];
		perf_maps_add(&m, 100, &map);
		if (i % 3 == 2)
			perf_maps_sample(&m, 300, t[i] - 40);
	}
	perf_maps_sample(&m, 300, UINT64_MAX - 1);
	assert_int_equal(m.ntaken, N);
	for (size_t i = 0; i < N; i++) {
		const struct perf_map *got =
			perf_maps_find(&m, 100, 0x100000 + i * 0x1000 + 8, t[i]);

		assert_non_null(got);
		assert_int_equal(got->object, i);
		assert_null(perf_maps_find(&m, 100, 0x100000 + i * 0x1000 + 8,
					   t[i] - 1));
	}
	assert_false(m.disordered);
	perf_maps_release(&m);
}

enum { CHILDREN = 4000, EACH = 20 };
#define MS 1000000ull

/* Process 1000 + i, forked from process 1 at 10 + i ms, maps EACH
 * ranges of its own (objects first, first + 1, ...) and ends half a
 * millisecond later; a sample of it is looked up in between, as the
 * reader does. */
static void short_child(struct perf_maps *m, uint32_t i, uint32_t first)
{
	uint64_t t = 10 + i * MS;

	perf_maps_fork(m, 1, 1000 + i, t);
	for (uint32_t j = 0; j < EACH; j++) {
		struct perf_map map = { 0x10000000 + j * 0x1000,
					0x10000800 + j * 0x1000, 0, t + 1,
					first + j, 0, true };

		perf_maps_add(m, 1000 + i, &map);
	}
	perf_maps_exit(m, 1000 + i, t + MS / 2);
	perf_maps_sample(m, 1000 + i, t + 2);
}

/*
 * perf_maps_compact(): a build's thousands of short processes, each
 * forked from one parent, mapping 20 ranges of its own and ending 0.5
 * ms later, 1 ms apart, looked up in one pass as the reader does. The
 * mappings of the processes that ended a second before the latest
 * sample go (the arrays hold far fewer than were added); every process
 * left answers as before, the parent's tree shared with its children
 * included, under new gens that the caches' old ones do not pass; a
 * sample of a process whose mappings went sets m->disordered (the file
 * is read again in two passes), and a new process in its pid answers
 * from its FORK on.
 */
static void test_maps_compacted(void **state)
{
	struct perf_maps m;
	uint32_t gen, objects = 0;
	bool compacted = false;

	(void)state;
	perf_maps_init(&m);
	for (uint32_t j = 0; j < EACH; j++) {
		struct perf_map map = { 0x400000 + j * 0x1000,
					0x400800 + j * 0x1000, 0, 0,
					objects++, 0, true };

		perf_maps_add(&m, 1, &map);
	}
	gen = perf_maps_sample(&m, 1, 5);
	for (uint32_t i = 0; i < CHILDREN; i++) {
		uint64_t t = 10 + i * MS;

		short_child(&m, i, objects);
		objects += EACH;
		assert_int_equal(
			perf_maps_find(&m, 1000 + i, 0x10000010 + 7 * 0x1000,
				       t + 2)->object,
			EACH + i * EACH + 7);
		/* the parent's, shared */
		assert_int_equal(
			perf_maps_find(&m, 1000 + i, 0x400010, t + 2)->object,
			0);
		/* between samples, as the reader calls it */
		compacted |= perf_maps_compact(&m);
	}
	assert_true(compacted);
	assert_false(m.disordered);
	assert_true(m.nmaps < (size_t)(CHILDREN + 1) * EACH / 2);
	/* the parent, and the children that ended within the second */
	for (uint32_t j = 0; j < EACH; j++)
		assert_int_equal(perf_maps_find(&m, 1, 0x400010 + j * 0x1000,
						CHILDREN * MS)->object, j);
	for (uint32_t i = CHILDREN - 900; i < CHILDREN; i++)
		assert_int_equal(perf_maps_find(&m, 1000 + i,
						0x10000010 + 3 * 0x1000,
						10 + i * MS + 3)->object,
				 EACH + i * EACH + 3);
	/* the caches' old answers ask again, and still do once changes
	 * made since have pushed some of those from before out of the
	 * ring of those kept (which moved the gen it holds from back) */
	assert_int_not_equal(perf_maps_sample(&m, 1, CHILDREN * MS), gen);
	assert_false(perf_maps_same(&m, 1, gen, 0x400010));
	for (uint32_t j = 0; j < 2; j++) {
		struct perf_map map = { 0x800000 + j * 0x1000,
					0x800800 + j * 0x1000, 0,
					CHILDREN * MS + 1, objects++, 0, true };

		perf_maps_add(&m, 1, &map);
	}
	perf_maps_sample(&m, 1, CHILDREN * MS + 2);
	assert_false(perf_maps_same(&m, 1, gen, 0x400010));
	assert_false(m.disordered);
	/* a new process in a pid whose mappings went: from its FORK on */
	perf_maps_fork(&m, 1, 1000, CHILDREN * MS + 10);
	perf_maps_sample(&m, 1000, CHILDREN * MS + 20);
	assert_false(m.disordered);
	assert_int_equal(perf_maps_find(&m, 1000, 0x400010,
					CHILDREN * MS + 20)->object, 0);
	assert_null(perf_maps_find(&m, 1000, 0x10000010,
				   CHILDREN * MS + 20));
	/* a sample of a process whose mappings went */
	perf_maps_sample(&m, 1001, 10 + MS + 3);
	assert_true(m.disordered);
	perf_maps_release(&m);

	/* and in the pid taken again, before the new FORK */
	perf_maps_init(&m);
	for (uint32_t i = 0; i < CHILDREN; i++) {
		short_child(&m, i, 0);
		perf_maps_compact(&m);
	}
	perf_maps_fork(&m, 1, 1000, CHILDREN * MS + 10);
	perf_maps_sample(&m, 1000, CHILDREN * MS + 20);
	assert_false(m.disordered);
	perf_maps_sample(&m, 1000, 10 + 3);
	assert_true(m.disordered);
	perf_maps_release(&m);
}

/* perf_maps_sample(): what a look-up in one pass may not have seen. */
static void test_maps_one_pass_checked(void **state)
{
	struct perf_map map = { 0x400000, 0x401000, 0, 10, 0, 0, true };
	struct perf_maps m;
	uint32_t gen;

	(void)state;
	/* a mapping newer than the samples looked up: fine, and the
	 * process's answers change with it (its gen) */
	perf_maps_init(&m);
	perf_maps_add(&m, 100, &map);
	gen = perf_maps_sample(&m, 100, 50);
	assert_non_null(perf_maps_find(&m, 100, 0x400010, 50));
	map.time = 60;
	perf_maps_add(&m, 100, &map);
	assert_int_not_equal(perf_maps_sample(&m, 100, 70), gen);
	assert_false(m.disordered);
	/* an older one of another process: fine */
	map.time = 5;
	perf_maps_add(&m, 101, &map);
	perf_maps_settle(&m);
	assert_false(m.disordered);
	/* one as old as a sample of its process looked up: not */
	map.time = 70;
	perf_maps_add(&m, 100, &map);
	perf_maps_settle(&m);
	assert_true(m.disordered);
	perf_maps_release(&m);

	/* ops of one process out of their time order */
	perf_maps_init(&m);
	map.time = 30;
	perf_maps_add(&m, 100, &map);
	perf_maps_settle(&m);
	perf_maps_fork(&m, 1, 100, 20);
	perf_maps_settle(&m);
	assert_true(m.disordered);
	perf_maps_release(&m);

	/* a parent's mapping older than a FORK out of it taken before */
	perf_maps_init(&m);
	perf_maps_fork(&m, 100, 200, 20);
	perf_maps_settle(&m);
	map.time = 10;
	perf_maps_add(&m, 100, &map);
	perf_maps_settle(&m);
	assert_true(m.disordered);
	perf_maps_release(&m);

	/* a child's mapping noted before the FORK into it (from two CPUs'
	 * buffers), later than every sample looked up: it waits, and is
	 * taken in after the FORK, as two passes would */
	perf_maps_init(&m);
	map.time = 1;
	perf_maps_add(&m, 100, &map);
	perf_maps_sample(&m, 300, 10);
	map.start = 0x500000;
	map.end = 0x501000;
	map.time = 30;
	perf_maps_add(&m, 200, &map);
	perf_maps_sample(&m, 300, 15);
	perf_maps_fork(&m, 100, 200, 20);
	perf_maps_sample(&m, 300, 40);
	assert_false(m.disordered);
	assert_non_null(perf_maps_find(&m, 200, 0x400010, 25));
	assert_null(perf_maps_find(&m, 200, 0x500010, 25));
	assert_non_null(perf_maps_find(&m, 200, 0x500010, 35));
	assert_non_null(perf_maps_find(&m, 200, 0x400010, 35));
	perf_maps_settle(&m);
	assert_false(m.disordered);
	perf_maps_release(&m);
	map.start = 0x400000;
	map.end = 0x401000;

	/* a first FORK into a process whose samples found nothing: they
	 * would have found what it brings */
	perf_maps_init(&m);
	map.time = 1;
	perf_maps_add(&m, 100, &map);
	perf_maps_sample(&m, 200, 5);
	perf_maps_fork(&m, 100, 200, 20);
	perf_maps_settle(&m);
	assert_true(m.disordered);
	perf_maps_release(&m);
}

/* perf_maps_same(): an answer kept across a process's changes that do
 * not hold its address, and not across those that do, a FORK into it,
 * or more changes than are kept. */
static void test_maps_same(void **state)
{
	struct perf_map map = { 0x400000, 0x401000, 0, 10, 0, 0, true };
	struct perf_maps m;
	uint32_t gen, now;

	(void)state;
	perf_maps_init(&m);
	perf_maps_add(&m, 100, &map);
	gen = perf_maps_sample(&m, 100, 20);
	assert_false(perf_maps_same(&m, 101, gen, 0x400010));
	/* a heap elsewhere */
	map.start = 0x7f0000000000;
	map.end = 0x7f0000010000;
	map.time = 30;
	perf_maps_add(&m, 100, &map);
	now = perf_maps_sample(&m, 100, 40);
	assert_int_not_equal(now, gen);
	assert_true(perf_maps_same(&m, 100, gen, 0x400010));
	assert_false(perf_maps_same(&m, 100, gen, 0x7f0000000010));
	assert_true(perf_maps_same(&m, 100, now, 0x7f0000000010));
	/* another object over the address */
	map.start = 0x400000;
	map.end = 0x402000;
	map.time = 50;
	perf_maps_add(&m, 100, &map);
	now = perf_maps_sample(&m, 100, 60);
	assert_false(perf_maps_same(&m, 100, gen, 0x400010));
	assert_true(perf_maps_same(&m, 100, now, 0x400010));
	/* more changes elsewhere than are kept */
	gen = now;
	for (int i = 0; i < PERF_PROC_CHANGES; i++) {
		map.start = 0x7f0000100000 + (uint64_t)i * 0x10000;
		map.end = map.start + 0x1000;
		map.time = 70 + 10 * (uint64_t)i;
		perf_maps_add(&m, 100, &map);
		now = perf_maps_sample(&m, 100, 75 + 10 * (uint64_t)i);
		assert_true(perf_maps_same(&m, 100, gen, 0x400010));
	}
	map.time = 1000;
	perf_maps_add(&m, 100, &map);
	now = perf_maps_sample(&m, 100, 1005);
	assert_false(perf_maps_same(&m, 100, gen, 0x400010));
	/* a FORK into it: every answer */
	gen = now;
	perf_maps_fork(&m, 1, 100, 1010);
	now = perf_maps_sample(&m, 100, 1020);
	assert_int_not_equal(now, gen);
	assert_false(perf_maps_same(&m, 100, gen, 0x400010));
	assert_false(m.disordered);
	perf_maps_release(&m);
}

/* perf_maps_find_run(): a mapping's addresses answered alike when no
 * other overlaps it, addr's alone when one does. */
static void test_maps_find_run(void **state)
{
	struct perf_map map = { 0x400000, 0x410000, 0, 10, 0, 0, true };
	struct perf_maps m;
	uint64_t from, until, lo, hi;
	const struct perf_map *got;

	(void)state;
	perf_maps_init(&m);
	perf_maps_add(&m, 100, &map);
	map.start = 0x410000;		/* beside it: not overlapping */
	map.end = 0x420000;
	perf_maps_add(&m, 100, &map);
	got = perf_maps_find_run(&m, 100, 0x400010, 20, &from, &until, &lo,
				 &hi);
	assert_non_null(got);
	assert_int_equal(got->start, 0x400000);
	assert_int_equal(lo, 0x400000);
	assert_int_equal(hi, 0x410000);
	assert_int_equal(from, 10);
	assert_int_equal(until, UINT64_MAX);
	/* one over part of it, later: addr's alone, and until then */
	map.start = 0x408000;
	map.end = 0x409000;
	map.time = 30;
	perf_maps_add(&m, 100, &map);
	got = perf_maps_find_run(&m, 100, 0x400010, 20, &from, &until, &lo,
				 &hi);
	assert_int_equal(got->start, 0x400000);
	assert_int_equal(lo, 0x400010);
	assert_int_equal(hi, 0x400011);
	assert_int_equal(until, UINT64_MAX);
	got = perf_maps_find_run(&m, 100, 0x408010, 20, &from, &until, &lo,
				 &hi);
	assert_int_equal(got->start, 0x400000);
	assert_int_equal(until, 30);
	assert_int_equal(hi - lo, 1);
	/* none: addr's alone */
	assert_null(perf_maps_find_run(&m, 100, 0x500000, 20, &from, &until,
				       &lo, &hi));
	assert_int_equal(lo, 0x500000);
	assert_int_equal(hi, 0x500001);
	perf_maps_release(&m);
}

/* Many ops later than every sample looked up wait (a hostile file
 * whose samples' times are all older than its mappings'): they are kept
 * in a heap, taken in by time whatever their file order. A sort of all
 * the waiting ops at each look-up took this file quadratic time. */
static void test_maps_many_waiting(void **state)
{
	struct perf_map map = { 0x400000, 0x401000, 0, 0, 0, 0, true };
	struct perf_maps m;
	const uint32_t n = 200000;

	(void)state;
	perf_maps_init(&m);
	for (uint32_t i = 0; i < n; i++) {
		/* one process's mappings noted newest first, a page each */
		map.start = 0x400000 + (uint64_t)(i % 64) * 0x1000;
		map.end = map.start + 0x1000;
		map.time = 10 * (uint64_t)(n - i);
		perf_maps_add(&m, i % 64 ? 1000 + i : 100, &map);
		perf_maps_sample(&m, 1, 1);
	}
	assert_true(m.nops >= n - 1);
	perf_maps_sample(&m, 100, 20 * (uint64_t)n);
	assert_false(m.disordered);
	assert_int_equal(m.nops, 0);
	/* each of process 100's taken in at its own time */
	assert_non_null(perf_maps_find(&m, 100, 0x400010, 20 * (uint64_t)n));
	assert_null(perf_maps_find(&m, 100, 0x400010, 5));
	assert_non_null(perf_maps_find(&m, 1000 + 1, 0x401010, 20 * (uint64_t)n));
	perf_maps_settle(&m);
	assert_false(m.disordered);
	perf_maps_release(&m);
}

/* 3,000 samples of 2 KB (6 MB: the reader's window of 1 MiB moves
 * while a round's samples are held and asked for again), 60 processes
 * each mapped in the round of its first samples, after some of them. */
static void many_rounds(struct buf *b)
{
	uint64_t chain[256];

	chain[0] = PERF_CONTEXT_USER;
	for (size_t i = 0; i < 3000; i++) {
		uint32_t pid = 1000 + (uint32_t)(i / 50);

		for (size_t k = 1; k < 256; k++)
			chain[k] = 0x400000 + ((i * 13 + k * 7) % 0x1000);
		put_sample(b, PERF_RECORD_MISC_USER, pid, 100 + i, chain, 256,
			   1 + i % 7);
		if (i % 50 == 10)
			put_mmap2(b, pid, 0x400000, 0x1000, 0x1000 * (i / 50),
				  "/x/prog", 100 + i - 10);
		if (i % 100 == 99)
			put_round(b);
	}
}

static void test_one_pass_window_moves(void **state)
{
	struct res one, two;
	const struct perf_data *d1, *d2;

	(void)state;
	read_file_of(&one, many_rounds, false);
	read_file_of(&two, many_rounds, true);
	assert_int_equal(one.ret, 0);
	assert_int_equal(two.ret, 0);
	d1 = one.p.perf;
	d2 = two.p.perf;
	assert_int_equal(d1->events[0].samples, 3000);
	assert_int_equal(d1->events[0].period, d2->events[0].period);
	assert_int_equal(d1->nframes, d2->nframes);
	assert_int_equal(d1->nnodes, d2->nnodes);
	for (size_t f = 0; f < d1->nframes; f++) {
		assert_int_equal(d1->frames[f].object, d2->frames[f].object);
		assert_int_equal(d1->frames[f].offset, d2->frames[f].offset);
	}
	/* the last sample's ip, (2999 * 13 + 7) % 0x1000 into the last
	 * process's mapping, made after its first samples */
	assert_true(has_frame(&one, "/x/prog", 0x3b000 + 0x852));
	rd_done(&one);
	rd_done(&two);
}

/* A build-id record of the BUILD_ID section, for name with misc. */
static void put_build_id(struct buf *b, uint16_t misc, const char *name)
{
	size_t at = begin_record(b, PERF_REC_HEADER_BUILD_ID, misc);
	size_t n = strlen(name) + 1;

	put4(b, 100);
	for (int i = 0; i < 24; i++)
		put(b, i < 20 ? 0xab : 0, 1);
	put_bytes(b, name, n);
	while ((b->n - at) % 8)
		put(b, 0, 1);
	end_record(b, at);
}

struct listed_log {
	const struct profile *p;
	char said[8][32];
	size_t nsaid;
};

static void log_object(struct listed_log *l, const struct perf_data *d,
		       uint32_t obj, const char *how)
{
	const char *path = profile_str(l->p, d->objects[obj].path);

	assert_true(l->nsaid < 8);
	snprintf(l->said[l->nsaid++], sizeof(l->said[0]), "%s %s", how, path);
}

static void listed_hook(void *ctx, const struct names *names,
			const struct perf_data *d, uint32_t obj)
{
	(void)names;
	/* before the first record: no frame yet */
	assert_int_equal(d->objects[obj].frames.nr, 0);
	log_object(ctx, d, obj, "listed");
}

static void seen_hook(void *ctx, const struct names *names,
		      const struct perf_data *d, uint32_t obj)
{
	(void)names;
	log_object(ctx, d, obj, "seen");
}

/* perf_object_listed: the file header's build-id table's user-space
 * files, before the first record; not the kernel, a module (its frames
 * are the kernel's) or [vdso] */
static void test_build_ids_listed(void **state)
{
	static const char *const want[] = {
		"listed /x/prog", "listed /x/lib.so", "seen /x/prog",
		"seen [kernel.kallsyms]", "seen /x/other",
	};
	struct read_opts o = { 0 };
	struct listed_log l = { 0 };
	size_t data_at, feat_at, bid_at;
	struct profile p;
	struct buf b;
	char *diag;

	(void)state;
	memset(&b, 0, sizeof(b));
	put_bytes(&b, "PERFILE2", 8);
	put8(&b, 104);
	put8(&b, 128 + 16);
	put8(&b, 104);
	put8(&b, 128 + 16);
	put8(&b, 0);			/* data: patched below */
	put8(&b, 0);
	put8(&b, 0);
	put8(&b, 0);
	put8(&b, 1ull << PERF_FEAT_BUILD_ID);
	put8(&b, 0);
	put8(&b, 0);
	put8(&b, 0);
	put_attr(&b);
	put8(&b, b.n + 16);
	put8(&b, 8);
	put8(&b, 7);
	data_at = b.n;
	put_records(&b);
	patch8(&b, 40, data_at);
	patch8(&b, 48, b.n - data_at);
	feat_at = b.n;
	put8(&b, 0);			/* the section: patched below */
	put8(&b, 0);
	bid_at = b.n;
	put_build_id(&b, PERF_RECORD_MISC_KERNEL, PERF_KERNEL_OBJECT);
	put_build_id(&b, PERF_RECORD_MISC_USER, "/x/prog");
	put_build_id(&b, PERF_RECORD_MISC_KERNEL, "/lib/modules/m.ko");
	put_build_id(&b, PERF_RECORD_MISC_USER, "[vdso]");
	put_build_id(&b, PERF_RECORD_MISC_USER, "/x/lib.so");
	patch8(&b, feat_at, bid_at);
	patch8(&b, feat_at + 8, b.n - bid_at);

	profile_init(&p);
	l.p = &p;
	o.perf_object_listed = listed_hook;
	o.perf_object_seen = seen_hook;
	o.perf_object_ctx = &l;
	assert_int_equal(read_text(&p, (const char *)b.p, (long)b.n, &o,
				   &diag), 0);
	assert_string_equal(diag, "");
	assert_int_equal(l.nsaid, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < l.nsaid; i++)
		assert_string_equal(l.said[i], want[i]);
	free(diag);
	profile_release(&p);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_both_orders),
		cmocka_unit_test(test_kernel_mapping),
		cmocka_unit_test(test_build_ids_listed),
		cmocka_unit_test(test_pipe_both_orders),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_lying_sizes),
		cmocka_unit_test(test_unknown_record),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_sample_every_field),
		cmocka_unit_test(test_trailer),
		cmocka_unit_test(test_maps_by_time),
		cmocka_unit_test(test_maps_shared_as_copied),
		cmocka_unit_test(test_maps_huge_mapping),
		cmocka_unit_test(test_maps_many_names),
		cmocka_unit_test(test_maps_many_forks),
		cmocka_unit_test(test_maps_chosen_order),
		cmocka_unit_test(test_costs_sparse),
		cmocka_unit_test(test_costs_many_events),
		cmocka_unit_test(test_cut_stacks),
		cmocka_unit_test(test_path_as_nodes),
		cmocka_unit_test(test_node_index_grows),
		cmocka_unit_test(test_oom_names_file),
		cmocka_unit_test(test_hostile_10k),
		cmocka_unit_test(test_names_at_one_time),
		cmocka_unit_test(test_quirks_said),
		cmocka_unit_test(test_no_regs_said),
		cmocka_unit_test(test_events_told_apart),
		cmocka_unit_test(test_unfinished_recording),
		cmocka_unit_test(test_messages_placed),
		cmocka_unit_test(test_deep_stacks),
		cmocka_unit_test(test_lbr_note),
		cmocka_unit_test(test_event_units),
		cmocka_unit_test(test_compressed_split),
		cmocka_unit_test(test_compressed_bad),
		cmocka_unit_test(test_hostile_forks_z),
		cmocka_unit_test(test_frames_cached_exactly),
		cmocka_unit_test(test_compressed_truncated),
		cmocka_unit_test(test_compressed_ratio_capped),
		cmocka_unit_test(test_compressed_cut_short),
		cmocka_unit_test(test_event_desc_attr_size_wraps),
		cmocka_unit_test(test_one_pass_as_two),
		cmocka_unit_test(test_one_pass_errors_as_two),
		cmocka_unit_test(test_maps_queue_and_heap),
		cmocka_unit_test(test_maps_one_pass_checked),
		cmocka_unit_test(test_maps_compacted),
		cmocka_unit_test(test_maps_same),
		cmocka_unit_test(test_maps_find_run),
		cmocka_unit_test(test_maps_many_waiting),
		cmocka_unit_test(test_one_pass_window_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
