/*
 * The heap profiler's text (HEAPPROFILE=PREFIX with tcmalloc, which
 * writes PREFIX.0001.heap, ...; also what tcmalloc's sampling and Go's
 * legacy heap endpoint write):
 *
 *   heap profile:  32:  4224000 [    96: 24465600] @ heapprofile
 *       16:  2368000 [    32:  4720000] @ 0x55d10697e171 0x55d10697e1b5 ...
 *   MAPPED_LIBRARIES:
 *   55d10697e000-55d10697f000 r-xp 00001000 00:00 11018922  /tmp/heap
 *
 * The header's pairs are the totals: objects and bytes in use, [objects
 * and bytes allocated since the start]. Each record has the same for
 * one stack of return addresses, the allocator's caller first. The
 * mappings follow "MAPPED_LIBRARIES:" (or "--- Memory map:"); lines
 * starting with '#' are comments (Go writes its MemStats so).
 *
 * Four events, pprof's sample types: inuse_space and alloc_space in
 * bytes, inuse_objects and alloc_objects in objects; a stack's sample
 * count is its objects of that pair. Every address is a return address,
 * looked up one byte before, in the call, as Go's pprof does for heap
 * profiles (google-pprof keeps the first as it is: both land in the
 * same function but where the call to malloc is the last instruction).
 *
 * Sampled profiles are scaled as pprof scales them (Go's pprof,
 * legacy_profile.go, parseHeapHeader() and scaleHeapSample()):
 *   @ heapprofile     the heap profiler saw every allocation: as is;
 *   @ heap_v2/R       (also heapz_v2) sampled by a Poisson process of
 *                     rate R bytes: an allocation of size S was kept
 *                     with the probability 1 - exp(-S/R), so each pair
 *                     (count, bytes) with S = bytes / count is divided
 *                     by it, and truncated to an integer;
 *   @ heap/R          the older sampling, taken as v2 at rate R / 2
 *                     (google-pprof scales it by another rule, R / 2 over
 *                     S where S is less: we follow Go's pprof, which is
 *                     pprof today);
 *   a rate of 0 or 1 (or none) means every allocation: as is.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "gperf_reader.h"

enum { INUSE_SPACE, INUSE_OBJECTS, ALLOC_SPACE, ALLOC_OBJECTS, NVALUES };

struct heap_record {
	uint64_t v[NVALUES];
	size_t first, n;		/* its addresses in addrs[] */
	uint64_t lineno;
};

struct heap_reader {
	struct gperf_reader *r;
	struct line_reader *lr;
	uint64_t rate;			/* 0: not sampled */
	/* the header's totals, and the records' as read (not scaled):
	 * the heap profiler writes the one as the sum of the other */
	uint64_t totals[NVALUES], sums[NVALUES];
	struct heap_record *recs;
	size_t nrecs, recs_alloc;
	uint64_t *addrs;
	size_t naddrs, addrs_alloc;
};

bool gperf_heap_sniff(const char *data, size_t len)
{
	static const char magic[] = "heap profile:";

	return len >= sizeof(magic) - 1 &&
	       !memcmp(data, magic, sizeof(magic) - 1);
}

static const char *blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A decimal number at *s (after blanks); -1 after reporting. */
static int number(struct heap_reader *h, const char **s, uint64_t *v,
		  const char *what)
{
	char *end;

	*s = blanks(*s);
	if (**s == '-')
		return error_at(h->r->path, h->lr->lineno, "%s is negative "
				"('%.20s')", what, *s);
	if (**s < '0' || **s > '9')
		return error_at(h->r->path, h->lr->lineno, "expected %s, a "
				"number, at '%.20s'", what, *s);
	errno = 0;
	*v = strtoull(*s, &end, 10);
	if (errno == ERANGE)
		return error_at(h->r->path, h->lr->lineno, "%s '%.*s' is "
				"beyond 64 bits", what, (int)(end - *s), *s);
	*s = end;
	return 0;
}

static int expect(struct heap_reader *h, const char **s, char c)
{
	*s = blanks(*s);
	if (**s != c)
		return error_at(h->r->path, h->lr->lineno, "expected '%c' at "
				"'%.20s' (a heap profile's line is \"objects: "
				"bytes [objects: bytes] @ addresses\")", c, *s);
	(*s)++;
	return 0;
}

/*
 * "in: inb [al: alb]": v[INUSE_OBJECTS], v[INUSE_SPACE], v[ALLOC_...],
 * each pair scaled by the sampling rate.
 */
static int pairs(struct heap_reader *h, const char **s, uint64_t *v)
{
	if (number(h, s, &v[INUSE_OBJECTS], "the objects in use") < 0 ||
	    expect(h, s, ':') < 0 ||
	    number(h, s, &v[INUSE_SPACE], "the bytes in use") < 0 ||
	    expect(h, s, '[') < 0 ||
	    number(h, s, &v[ALLOC_OBJECTS], "the objects allocated") < 0 ||
	    expect(h, s, ':') < 0 ||
	    number(h, s, &v[ALLOC_SPACE], "the bytes allocated") < 0 ||
	    expect(h, s, ']') < 0 || expect(h, s, '@') < 0)
		return -1;
	return 0;
}

/* pprof's scaleHeapSample() (see the top): -1 after reporting. */
static int scale(struct heap_reader *h, uint64_t *objects, uint64_t *bytes)
{
	double avg, k, o, b;

	if (*objects == 0 && *bytes != 0)
		return error_at(h->r->path, h->lr->lineno, "%llu bytes in 0 "
				"objects", (unsigned long long)*bytes);
	if (h->rate <= 1 || *objects == 0)
		return 0;
	avg = (double)*bytes / (double)*objects;
	k = 1 / (1 - exp(-avg / (double)h->rate));
	o = (double)*objects * k;
	b = (double)*bytes * k;
	/* 2^64 as a double: what is at or past it has no uint64_t */
	if (!(o < 18446744073709551616.0) || !(b < 18446744073709551616.0))
		return error_at(h->r->path, h->lr->lineno, "%llu bytes in %llu "
				"objects, scaled for the sampling rate of %llu "
				"bytes, are beyond 64 bits",
				(unsigned long long)*bytes,
				(unsigned long long)*objects,
				(unsigned long long)h->rate);
	*objects = (uint64_t)o;
	*bytes = (uint64_t)b;
	return 0;
}

static int read_header(struct heap_reader *h, const char *line)
{
	const char *s = line + strlen("heap profile:"), *type;
	size_t tlen;

	if (pairs(h, &s, h->totals) < 0)
		return -1;
	type = s = blanks(s);
	while (*s && *s != '/' && *s != ' ' && *s != '\t')
		s++;
	tlen = (size_t)(s - type);
	if (*s == '/') {
		s++;
		if (number(h, &s, &h->rate, "the sampling rate") < 0)
			return -1;
	}
	if (tlen == 11 && !memcmp(type, "heapprofile", 11)) {
		h->rate = 0;
	} else if (tlen == 4 && !memcmp(type, "heap", 4)) {
		h->rate /= 2;
	} else if (!(tlen == 7 && !memcmp(type, "heap_v2", 7)) &&
		   !(tlen == 8 && !memcmp(type, "heapz_v2", 8))) {
		return error_at(h->r->path, h->lr->lineno, "a heap profile of "
				"the kind '%.*s' (expected heapprofile, heap_v2 "
				"or heap: growth and other profiles are not "
				"read)", (int)(tlen > 40 ? 40 : tlen), type);
	}
	return 0;
}

static int read_record(struct heap_reader *h, const char *line)
{
	const char *s = line;
	struct heap_record *rec;

	ARRAY_GROW(h->recs, h->nrecs + 1, h->recs_alloc);
	rec = &h->recs[h->nrecs];
	memset(rec, 0, sizeof(*rec));
	if (pairs(h, &s, rec->v) < 0)
		return -1;
	for (int i = 0; i < NVALUES; i++)
		h->sums[i] = h->sums[i] + rec->v[i] < h->sums[i]
				     ? UINT64_MAX : h->sums[i] + rec->v[i];
	if (scale(h, &rec->v[INUSE_OBJECTS], &rec->v[INUSE_SPACE]) < 0 ||
	    scale(h, &rec->v[ALLOC_OBJECTS], &rec->v[ALLOC_SPACE]) < 0)
		return -1;
	rec->first = h->naddrs;
	rec->lineno = h->lr->lineno;
	for (;;) {
		char *end;
		uint64_t a;

		s = blanks(s);
		if (!*s)
			break;
		if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
			return error_at(h->r->path, h->lr->lineno, "expected "
					"an address (0x...) at '%.20s'", s);
		errno = 0;
		a = strtoull(s + 2, &end, 16);
		if (end == s + 2 || errno == ERANGE ||
		    (*end && *end != ' ' && *end != '\t'))
			return error_at(h->r->path, h->lr->lineno, "'%.24s' is "
					"not an address of 64 bits", s);
		ARRAY_GROW(h->addrs, h->naddrs + 1, h->addrs_alloc);
		h->addrs[h->naddrs++] = a;
		s = end;
	}
	rec->n = h->naddrs - rec->first;
	h->nrecs++;
	return 0;
}

static bool is_maps_start(const char *line)
{
	return !strncmp(line, "MAPPED_LIBRARIES:", 17) ||
	       !strncmp(line, "--- Memory map:", 15);
}

static int read_lines(struct heap_reader *h)
{
	struct gperf_reader *r = h->r;
	bool maps = false;
	char *line;
	size_t len;
	int ret;

	while ((ret = line_reader_next(h->lr, &line, &len)) > 0) {
		const char *s = blanks(line);

		if (h->lr->lineno == 1) {
			if (read_header(h, line) < 0)
				return -1;
		} else if (maps && h->lr->last_unterminated) {
			/* the heap profiler copies /proc/self/maps, whose
			 * lines all end: a cut one is no mapping (its path
			 * cut too), as the CPU profile's reader says */
			warning("%s:%llu: the mappings' last line ends without "
				"a newline: the file is cut short, and objects "
				"mapped after the cut are missing", r->path,
				(unsigned long long)h->lr->lineno);
		} else if (maps) {
			gperf_maps_add_line(&r->maps, r->d, &r->p->names, line,
					    len, h->lr->lineno);
		} else if (is_maps_start(s)) {
			maps = true;
		} else if (*s && *s != '#' && read_record(h, line) < 0) {
			return -1;
		}
	}
	if (ret < 0)
		return -1;
	gperf_maps_sort(&r->maps);
	if (r->maps.skipped)
		warning("%s:%llu: %llu line%s of the mappings %s not "
			"in the form of /proc/self/maps (start-end perms "
			"offset dev inode path): left out", r->path,
			(unsigned long long)r->maps.first_skipped,
			(unsigned long long)r->maps.skipped,
			r->maps.skipped == 1 ? "" : "s",
			r->maps.skipped == 1 ? "is" : "are");
	if (memcmp(h->totals, h->sums, sizeof(h->sums)))
		warning("%s:1: the header's totals (%llu: %llu [%llu: %llu]) are "
			"not what the records add up to (%llu: %llu [%llu: %llu]): "
			"the file may be cut short or edited", r->path,
			(unsigned long long)h->totals[INUSE_OBJECTS],
			(unsigned long long)h->totals[INUSE_SPACE],
			(unsigned long long)h->totals[ALLOC_OBJECTS],
			(unsigned long long)h->totals[ALLOC_SPACE],
			(unsigned long long)h->sums[INUSE_OBJECTS],
			(unsigned long long)h->sums[INUSE_SPACE],
			(unsigned long long)h->sums[ALLOC_OBJECTS],
			(unsigned long long)h->sums[ALLOC_SPACE]);
	if (!maps && h->nrecs)
		warning("%s: the heap profile has no MAPPED_LIBRARIES section: "
			"its addresses are in no object, all listed as [unknown]",
			r->path);
	return 0;
}

static void add_records(struct heap_reader *h)
{
	struct gperf_reader *r = h->r;

	for (size_t i = 0; i < h->nrecs; i++) {
		const struct heap_record *rec = &h->recs[i];
		uint32_t node;

		if (!rec->n) {
			if (!r->empty_stacks++)
				r->first_empty = rec->lineno;
			continue;
		}
		if (rec->n >= GPERF_HEAP_MAX_DEPTH && !r->deep++)
			r->first_deep = rec->lineno;
		gperf_reserve_pcs(r, rec->n);
		memcpy(r->pcs, h->addrs + rec->first,
		       rec->n * sizeof(*r->pcs));
		node = gperf_stack_node(r, rec->n, false);
		/* events in the order of the names in gperf_read_heap();
		 * the samples of a space are its objects */
		for (uint32_t e = 0; e < NVALUES; e++) {
			uint32_t objs = e == INUSE_SPACE ? INUSE_OBJECTS
					: e == ALLOC_SPACE ? ALLOC_OBJECTS : e;

			if (rec->v[e])
				perf_data_add_samples(r->d, node, e, rec->v[e],
						      rec->v[objs]);
		}
	}
	if (r->empty_stacks)
		warning("%s:%llu: %llu %s no address: %s objects are left "
			"out", r->path, (unsigned long long)r->first_empty,
			(unsigned long long)r->empty_stacks,
			r->empty_stacks == 1 ? "record has" : "records have",
			r->empty_stacks == 1 ? "its" : "their");
	if (r->deep)
		warning("%s:%llu: %llu %s a stack of %d addresses, the heap "
			"profiler's limit: its outermost callers may be "
			"missing, and those callers' inclusive costs are low",
			r->path, (unsigned long long)r->first_deep,
			(unsigned long long)r->deep,
			r->deep == 1 ? "record has" : "records have",
			GPERF_HEAP_MAX_DEPTH);
	gperf_warn_unmapped(r);
}

int gperf_read_heap(struct gperf_reader *r, struct line_reader *lr)
{
	/* in the order of the enum; in-use space first, pprof's default */
	static const char *const names[] = { "inuse_space", "inuse_objects",
					     "alloc_space", "alloc_objects" };
	static const char *const units[] = { "bytes", "objects", "bytes",
					     "objects" };
	struct heap_reader h = { .r = r, .lr = lr };
	int ret = -1;

	gperf_set_events(r, names, units, NVALUES);
	if (read_lines(&h) < 0)
		goto out;
	add_records(&h);
	gperf_add_input(r, "gperftools-heap");
	ret = 0;
out:
	free(h.recs);
	free(h.addrs);
	return ret;
}
