/*
 * libprofiler's CPU profile (CPUPROFILE=FILE): the "legacy" binary
 * format pprof reads. It is a sequence of words, 4 or 8 bytes in the
 * byte order of the machine that wrote it:
 *
 *   header     0, 3, 0, period (microseconds), 0
 *   records    count, depth, pc[depth]   (the sampled pc first, then
 *                                         its callers' return addresses)
 *   trailer    0, 1, 0
 *   then the text of the process's /proc/self/maps, to the end.
 *
 * A record's count is the samples of its stack: each is one period of
 * CPU time. The event "cpu" is in nanoseconds (pprof's own "cpu"
 * sample type), each sample a period of it; the samples are kept
 * beside, as pprof's "samples" are.
 *
 * The records come before the mappings that place their addresses, so
 * the records are read twice: once to check them and find the
 * trailer, once, with the mappings read, to add their stacks.
 *
 * Where we follow pprof and where not: a record whose second address
 * is its first again (the signal handler's copy of the sampled pc) has
 * it once, as pprof's cleanupDuplicateLocations() does. Go's pprof also
 * drops the second frame of every stack when nearly all stacks share it
 * (a frame "pushed by the signal handler" in old profilers); libprofiler
 * has not written such frames for years, and on a program whose samples
 * all fall in one function called from main it drops main: we keep it,
 * as google-pprof does.
 */
#include <string.h>

#include "base/diag.h"
#include "gperf_reader.h"

struct layout {
	unsigned size;			/* 4 or 8 */
	bool big_endian;
};

static const struct layout layouts[] = {
	{ 8, false }, { 8, true }, { 4, false }, { 4, true },
};

static uint64_t word_at(const unsigned char *p, const struct layout *l)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < l->size; i++)
		v |= (uint64_t)p[l->big_endian ? l->size - 1 - i : i] << (8 * i);
	return v;
}

/* The layout whose first two words are 0 and 3, or NULL. */
static const struct layout *find_layout(const unsigned char *data, size_t len)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout *l = &layouts[i];

		if (len >= 2 * l->size && word_at(data, l) == 0 &&
		    word_at(data + l->size, l) == 3)
			return l;
	}
	return NULL;
}

bool gperf_cpu_sniff(const char *data, size_t len)
{
	return find_layout((const unsigned char *)data, len) != NULL;
}

struct cpu_reader {
	struct gperf_reader *r;
	const unsigned char *data;
	size_t len;
	const struct layout *l;
	uint64_t period_ns;
	size_t records_end;		/* where the trailer starts, or len */
	size_t maps_start;		/* after the trailer, or len */
	bool have_trailer;
};

static int read_header(struct cpu_reader *c)
{
	const char *path = c->r->path;
	unsigned w = c->l->size;
	uint64_t version, period, pad;

	if (c->len < 5 * w)
		return error_at_offset(path, c->len, "the gperftools CPU "
				       "profile's header is truncated: it needs "
				       "5 words of %u bytes, the file has %zu "
				       "bytes", w, c->len);
	version = word_at(c->data + 2 * w, c->l);
	period = word_at(c->data + 3 * w, c->l);
	pad = word_at(c->data + 4 * w, c->l);
	if (version == 1)
		return error_at_offset(path, 2 * w, "a gperftools CPU profile "
				       "of a Java program (header word 3 is 1): "
				       "only C and C++ profiles (0) are read");
	if (version != 0)
		return error_at_offset(path, 2 * w, "gperftools CPU profile "
				       "version %llu (expected 0)",
				       (unsigned long long)version);
	if (period == 0 || period > UINT64_MAX / 1000)
		return error_at_offset(path, 3 * w, "the sampling period of "
				       "%llu microseconds cannot be (expected "
				       "1 and more; 10000 is 100 samples a "
				       "second)", (unsigned long long)period);
	if (pad != 0)
		return error_at_offset(path, 4 * w, "the header's fifth word "
				       "is %llu (expected 0: the header of a "
				       "gperftools CPU profile is 0, 3, 0, "
				       "period, 0)", (unsigned long long)pad);
	c->period_ns = period * 1000;
	return 0;
}

/*
 * Pass 1: every record within the file, the samples' time within 64
 * bits, and where the trailer and the mappings are.
 */
static int check_records(struct cpu_reader *c)
{
	const char *path = c->r->path;
	unsigned w = c->l->size;
	size_t off = 5 * w;
	uint64_t total = 0;	/* samples */

	while (off < c->len) {
		uint64_t count, depth;
		size_t left = (c->len - off) / w;

		if (left < 2)
			return error_at_offset(path, off, "truncated record: "
					       "its count and depth need %u "
					       "bytes, %zu are left", 2 * w,
					       c->len - off);
		count = word_at(c->data + off, c->l);
		depth = word_at(c->data + off + w, c->l);
		if (depth > left - 2)
			return error_at_offset(path, off + w, "a record's depth "
					       "of %llu addresses is past the "
					       "end of the file (%zu words are "
					       "left)", (unsigned long long)depth,
					       left - 2);
		if (count == 0 && depth == 1 &&
		    word_at(c->data + off + 2 * w, c->l) == 0) {
			c->records_end = off;
			c->maps_start = off + 3 * w;
			c->have_trailer = true;
			return 0;
		}
		if (count > (UINT64_MAX / c->period_ns) - total)
			return error_at_offset(path, off, "a record counts %llu "
					       "samples: with the %llu before, "
					       "at %llu ns each, that is more "
					       "time than 64 bits hold",
					       (unsigned long long)count,
					       (unsigned long long)total,
					       (unsigned long long)c->period_ns);
		total += count;
		off += (size_t)(2 + depth) * w;
	}
	/* a profile whose program died before ProfilerStop() ends here;
	 * one cut mid-record was caught above */
	warning("%s: offset 0x%zx: the CPU profile ends without its "
		"end-of-data record and the mappings after it (the program "
		"was stopped before the profiler was?): its addresses are "
		"in no object, all listed as [unknown]", path, off);
	c->records_end = c->maps_start = c->len;
	return 0;
}

static void read_maps(struct cpu_reader *c)
{
	struct gperf_reader *r = c->r;
	const char *s = (const char *)c->data + c->maps_start;
	const char *end = (const char *)c->data + c->len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;

		gperf_maps_add_line(&r->maps, r->d, &r->p->names, s,
				    (size_t)(eol - s),
				    (uint64_t)(s - (const char *)c->data));
		s = nl ? nl + 1 : end;
	}
	/* libprofiler copies /proc/self/maps, whose lines all end */
	if (c->maps_start < c->len && c->data[c->len - 1] != '\n') {
		const char *last = (const char *)c->data + c->len;

		while (last > (const char *)c->data + c->maps_start &&
		       last[-1] != '\n')
			last--;
		warning("%s: offset 0x%zx: the mappings' last line ends "
			"without a newline: the file is cut short, and objects "
			"mapped after the cut are missing", r->path,
			(size_t)(last - (const char *)c->data));
	}
	gperf_maps_sort(&r->maps);
	if (r->maps.skipped)
		warning("%s: offset 0x%llx: %llu line%s of the mappings %s "
			"not in the form of /proc/self/maps (start-end perms "
			"offset dev inode path): left out", r->path,
			(unsigned long long)r->maps.first_skipped,
			(unsigned long long)r->maps.skipped,
			r->maps.skipped == 1 ? "" : "s",
			r->maps.skipped == 1 ? "is" : "are");
}

/* Pass 2: each record's stack into the tree, with its samples. */
static void add_records(struct cpu_reader *c)
{
	struct gperf_reader *r = c->r;
	unsigned w = c->l->size;
	size_t off = 5 * w;

	while (off < c->records_end) {
		uint64_t count = word_at(c->data + off, c->l);
		size_t depth = (size_t)word_at(c->data + off + w, c->l);
		const unsigned char *pc = c->data + off + 2 * w;
		size_t n = 0;

		gperf_reserve_pcs(r, depth);
		for (size_t i = 0; i < depth; i++) {
			uint64_t a = word_at(pc + i * w, c->l);

			/* the signal handler's copy of the sampled pc */
			if (i == 1 && a == r->pcs[0])
				continue;
			r->pcs[n++] = a;
		}
		if (count && !n && !r->empty_stacks++)
			r->first_empty = off;
		if (count && depth >= GPERF_CPU_MAX_DEPTH && !r->deep++)
			r->first_deep = off;
		if (count && n)
			perf_data_add_samples(r->d, gperf_stack_node(r, n, true),
					      0, count * c->period_ns, count);
		off += (2 + depth) * w;
	}
	if (r->empty_stacks)
		warning("%s: offset 0x%llx: %llu %s samples and no "
			"address: %s samples are left out", r->path,
			(unsigned long long)r->first_empty,
			(unsigned long long)r->empty_stacks,
			r->empty_stacks == 1 ? "record has" : "records have",
			r->empty_stacks == 1 ? "its" : "their");
	if (r->deep)
		warning("%s: offset 0x%llx: %llu %s a stack of %d addresses "
			"or more, the CPU profiler's limit: its outermost "
			"callers may be missing, and those callers' inclusive "
			"costs are low", r->path,
			(unsigned long long)r->first_deep,
			(unsigned long long)r->deep,
			r->deep == 1 ? "record has" : "records have",
			GPERF_CPU_MAX_DEPTH);
	gperf_warn_unmapped(r);
}

int gperf_read_cpu(struct gperf_reader *r, const unsigned char *data,
		   size_t len)
{
	static const char *const names[] = { "cpu" };
	static const char *const units[] = { "ns" };
	struct cpu_reader c = { .r = r, .data = data, .len = len };

	c.l = find_layout(data, len);
	if (!c.l)
		BUG("gperftools CPU profile read without its header");
	if (read_header(&c) < 0 || check_records(&c) < 0)
		return -1;
	gperf_set_events(r, names, units, 1);
	read_maps(&c);
	add_records(&c);
	gperf_add_input(r, "gperftools-cpu");
	return 0;
}
