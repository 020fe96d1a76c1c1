/*
 * The gperftools reader on small profiles made here: the mappings'
 * lines, pprof's scaling of sampled heap profiles (the figures are Go
 * pprof's scaleHeapSample() worked out in doubles and truncated, as it
 * truncates), the CPU profile in its four layouts, and the frames a
 * stack becomes (the sampled pc exact, callers return addresses).
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "profile/perf_data.h"
#include "read/gperf/gperf_maps.h"

static const struct {
	const char *line;
	bool added;
	uint64_t start, end, pgoff;
	enum perf_object_kind kind;
	const char *path;
} map_cases[] = {
	{ "55d1-55d2 r-xp 00001000 00:00 11018922    /tmp/heap", true,
	  0x55d1, 0x55d2, 0x1000, PERF_OBJ_FILE, "/tmp/heap" },
	{ "7f00-7f10 r-xp 00000000 08:01 42 /opt/my lib.so (deleted)", true,
	  0x7f00, 0x7f10, 0, PERF_OBJ_FILE, "/opt/my lib.so (deleted)" },
	{ "1000-2000 r--p 00000000 00:00 11 /tmp/heap", false, 0, 0, 0,
	  PERF_OBJ_FILE, NULL },	/* not executable */
	{ "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]",
	  true, 0xffffffffff600000, 0xffffffffff601000, 0, PERF_OBJ_ANON,
	  "[vsyscall]" },
	{ "3000-4000 rwxp 00000000 00:00 0", true, 0x3000, 0x4000, 0,
	  PERF_OBJ_ANON, "//anon" },
	{ "build=/tmp/x", false, 0, 0, 0, PERF_OBJ_FILE, NULL },
	{ "2000-1000 r-xp 00000000 00:00 1 /a", false, 0, 0, 0,
	  PERF_OBJ_FILE, NULL },	/* ends before it starts */
	{ "10000000000000000-1 r-xp 0 00:00 1 /a", false, 0, 0, 0,
	  PERF_OBJ_FILE, NULL },	/* 17 digits */
};

static void test_maps_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
		struct perf_data *d = perf_data_new();
		struct arena arena;
		struct names names;
		struct gperf_maps m;
		const char *line = map_cases[i].line;

		arena_init(&arena);
		names_init(&names, &arena);
		gperf_maps_init(&m);
		gperf_maps_add_line(&m, d, &names, line, strlen(line), 7);
		assert_int_equal(m.n, map_cases[i].added);
		if (m.n) {
			const struct perf_object *ob = &d->objects[m.maps[0].object];

			assert_true(m.maps[0].start == map_cases[i].start);
			assert_true(m.maps[0].end == map_cases[i].end);
			assert_true(m.maps[0].pgoff == map_cases[i].pgoff);
			assert_int_equal(ob->kind, map_cases[i].kind);
			assert_string_equal(names_str(&names, ob->path),
					    map_cases[i].path);
		}
		gperf_maps_release(&m);
		perf_data_free(d);
		names_release(&names);
		arena_release(&arena);
	}
}

/* A file offset through the mapping; outside every one, the address. */
static void test_maps_frames(void **state)
{
	struct perf_data *d = perf_data_new();
	struct arena arena;
	struct names names;
	struct gperf_maps m;
	static const char *const lines[] = {
		"7000-8000 r-xp 00002000 00:00 1 /lib/b.so",
		"1000-2000 r-xp 00001000 00:00 1 /bin/a",
	};
	uint32_t unknown, f;

	(void)state;
	arena_init(&arena);
	names_init(&names, &arena);
	gperf_maps_init(&m);
	unknown = perf_data_object(d, &names, "[unknown]", 9, PERF_OBJ_UNKNOWN);
	for (int i = 0; i < 2; i++)
		gperf_maps_add_line(&m, d, &names, lines[i], strlen(lines[i]), 0);
	gperf_maps_sort(&m);
	f = gperf_maps_frame(&m, d, unknown, 0x1234);
	assert_string_equal(names_str(&names, d->objects[d->frames[f].object].path),
			    "/bin/a");
	assert_true(d->frames[f].offset == 0x1234 - 0x1000 + 0x1000);
	f = gperf_maps_frame(&m, d, unknown, 0x7ffe);
	assert_true(d->frames[f].offset == 0x7ffe - 0x7000 + 0x2000);
	f = gperf_maps_frame(&m, d, unknown, 0x8000);	/* one past */
	assert_int_equal(d->frames[f].object, unknown);
	assert_true(d->frames[f].offset == 0x8000);
	f = gperf_maps_frame(&m, d, unknown, 0x10);
	assert_int_equal(d->frames[f].object, unknown);
	gperf_maps_release(&m);
	perf_data_free(d);
	names_release(&names);
	arena_release(&arena);
}

/* The event's total of a heap profile of one record. */
static const struct {
	const char *header, *record;
	uint64_t inuse_space, inuse_objects, alloc_space, alloc_objects;
} scale_cases[] = {
	/* not sampled: as is */
	{ "@ heapprofile", "16: 1600000 [ 32: 4000000]", 1600000, 16,
	  4000000, 32 },
	/* v2 at 512 KiB: 100 bytes had a 1 in 5243.4 chance */
	{ "@ heap_v2/524288", "1: 100 [ 1: 100]", 524338, 5243, 524338, 5243 },
	{ "@ heap_v2/524288", "16: 1600000 [ 0: 0]", 9214023, 92, 0, 0 },
	{ "@ heapz_v2/524288", "1: 100 [ 1: 100]", 524338, 5243, 524338, 5243 },
	/* the older "heap/R": v2 at R / 2 */
	{ "@ heap/1048576", "3: 3000000 [ 3: 3000000]", 3523084, 3, 3523084, 3 },
	/* a rate of 1, or none: every allocation */
	{ "@ heap_v2/1", "1: 100 [ 1: 100]", 100, 1, 100, 1 },
	{ "@ heap_v2", "1: 100 [ 1: 100]", 100, 1, 100, 1 },
	{ "@ heap_v2/2", "10: 10 [ 0: 0]", 25, 25, 0, 0 },
};

static uint64_t event_total(const struct profile *p, const char *name)
{
	const struct perf_data *d = p->perf;

	for (size_t e = 0; e < d->nevents; e++)
		if (!strcmp(names_str((struct names *)&p->names,
				      d->events[e].name), name))
			return d->events[e].period;
	fail_msg("no event %s", name);
	return 0;
}

static void test_heap_scaling(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(scale_cases) / sizeof(scale_cases[0]); i++) {
		struct read_opts o = { 0 };
		struct profile p;
		char text[512], *diag;

		/* the header's totals are the record's, as written */
		snprintf(text, sizeof(text), "heap profile: %s %s\n"
			 "%s @ 0x1010 0x1020\nMAPPED_LIBRARIES:\n"
			 "1000-2000 r-xp 00000000 00:00 1 /bin/a\n",
			 scale_cases[i].record, scale_cases[i].header,
			 scale_cases[i].record);
		profile_init(&p);
		assert_int_equal(read_text(&p, text, -1, &o, &diag), 0);
		assert_string_equal(diag, "");
		assert_true(event_total(&p, "inuse_space") ==
			    scale_cases[i].inuse_space);
		assert_true(event_total(&p, "inuse_objects") ==
			    scale_cases[i].inuse_objects);
		assert_true(event_total(&p, "alloc_space") ==
			    scale_cases[i].alloc_space);
		assert_true(event_total(&p, "alloc_objects") ==
			    scale_cases[i].alloc_objects);
		free(diag);
		profile_release(&p);
	}
}

/*
 * The other section heading, a "build=" line (no mapping: said once), a
 * comment line, and a record of no address (said, left out); the
 * stack's addresses are all return addresses.
 */
static void test_heap_memory_map(void **state)
{
	static const char text[] =
		"heap profile: 2: 20 [ 2: 20] @ heapprofile\n"
		"   1:    10 [   1:    10] @ 0x1010 0x1020\n"
		"# a comment\n"
		"   1:    10 [   1:    10] @\n"
		"--- Memory map: ---\n"
		"build=/tmp/x\n"
		"1000-2000 r-xp 00000000 00:00 1 /bin/a\n";
	struct read_opts o = { 0 };
	struct profile p;
	const struct perf_data *d;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_text(&p, text, -1, &o, &diag), 0);
	assert_non_null(strstr(diag, ":6: 1 line of the mappings is not in "
			       "the form of /proc/self/maps"));
	assert_non_null(strstr(diag, ":4: 1 record has no address: its "
			       "objects are left out"));
	d = p.perf;
	assert_int_equal(d->nnodes, 2);
	for (size_t n = 0; n < d->nnodes; n++) {
		const struct perf_frame *f = &d->frames[d->nodes[n].frame];

		assert_false(d->nodes[n].exact);
		assert_string_equal(names_str(&p.names,
					      d->objects[f->object].path), "/bin/a");
	}
	assert_true(event_total(&p, "inuse_space") == 10);
	free(diag);
	profile_release(&p);
}

/* A heap profile cut short after a whole line: its header's totals are
 * not its records' sum. */
static void test_heap_cut(void **state)
{
	static const char text[] =
		"heap profile: 2: 20 [ 3: 30] @ heapprofile\n"
		"   1:    10 [   1:    10] @ 0x1010 0x1020\n";
	struct read_opts o = { 0 };
	struct profile p;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_text(&p, text, -1, &o, &diag), 0);
	assert_non_null(strstr(diag, ":1: the header's totals (2: 20 [3: 30]) "
			       "are not what the records add up to (1: 10 [1: "
			       "10]): the file may be cut short"));
	assert_non_null(strstr(diag, "has no MAPPED_LIBRARIES section"));
	free(diag);
	profile_release(&p);
}

/* Words in one of the four layouts. */
struct buf {
	unsigned char data[1024];
	size_t len;
};

static void put(struct buf *b, uint64_t v, unsigned size, bool be)
{
	for (unsigned i = 0; i < size; i++)
		b->data[b->len + (be ? size - 1 - i : i)] =
			(unsigned char)(v >> (8 * i));
	b->len += size;
}

/*
 * header (period 10 ms); 3 samples of a > main; 2 of main alone, its
 * pc given twice (the signal handler's copy); the trailer; the maps
 */
static void cpu_profile(struct buf *b, unsigned size, bool be)
{
	static const uint64_t words[] = {
		0, 3, 0, 10000, 0,
		3, 2, 0x1100, 0x1205,
		2, 2, 0x1300, 0x1300,
		0, 1, 0,
	};
	static const char maps[] =
		"1000-2000 r-xp 00000000 00:00 1 /bin/a\n";

	b->len = 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		put(b, words[i], size, be);
	memcpy(b->data + b->len, maps, sizeof(maps) - 1);
	b->len += sizeof(maps) - 1;
}

static void test_cpu_layouts(void **state)
{
	(void)state;
	for (int l = 0; l < 4; l++) {
		struct read_opts o = { 0 };
		struct profile p;
		struct buf b;
		char *diag;
		const struct perf_data *d;
		size_t exact = 0, ret = 0;

		cpu_profile(&b, l < 2 ? 8 : 4, l & 1);
		profile_init(&p);
		assert_int_equal(read_text(&p, (const char *)b.data,
					   (long)b.len, &o, &diag), 0);
		assert_string_equal(diag, "");
		d = p.perf;
		assert_int_equal(d->nevents, 1);
		assert_true(d->events[0].period == 5 * 10000000ull);
		assert_true(d->events[0].samples == 5);
		assert_string_equal(names_str(&p.names, d->events[0].unit), "ns");
		/* a > main: 2 nodes; main's copy dropped: 1 more */
		assert_int_equal(d->nnodes, 3);
		for (size_t n = 0; n < d->nnodes; n++) {
			const struct perf_frame *f = &d->frames[d->nodes[n].frame];

			if (d->nodes[n].exact) {
				exact++;
				assert_true(f->offset == 0x100 || f->offset == 0x300);
			} else {
				ret++;
				assert_true(f->offset == 0x205);
			}
		}
		assert_int_equal(exact, 2);
		assert_int_equal(ret, 1);
		free(diag);
		profile_release(&p);
	}
}

/* A record of samples and no address (at offset 0x28, after the header's
 * five words): left out, said in the singular for one. */
static void test_cpu_empty_stack(void **state)
{
	static const uint64_t words[] = {
		0, 3, 0, 10000, 0,
		2, 0,
		3, 2, 0x1100, 0x1205,
		0, 1, 0,
	};
	static const char maps[] =
		"1000-2000 r-xp 00000000 00:00 1 /bin/a\n";
	struct read_opts o = { 0 };
	struct profile p;
	struct buf b = { .len = 0 };
	char *diag;

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		put(&b, words[i], 8, false);
	memcpy(b.data + b.len, maps, sizeof(maps) - 1);
	b.len += sizeof(maps) - 1;
	profile_init(&p);
	assert_int_equal(read_text(&p, (const char *)b.data, (long)b.len, &o,
				   &diag), 0);
	assert_non_null(strstr(diag, ": offset 0x28: 1 record has samples and "
			       "no address: its samples are left out"));
	assert_true(p.perf->events[0].samples == 3);
	free(diag);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_lines),
		cmocka_unit_test(test_maps_frames),
		cmocka_unit_test(test_heap_scaling),
		cmocka_unit_test(test_heap_memory_map),
		cmocka_unit_test(test_heap_cut),
		cmocka_unit_test(test_cpu_layouts),
		cmocka_unit_test(test_cpu_empty_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
