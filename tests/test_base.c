/* The base helpers: arena, interned names, the u64 hash map, profile
 * rows (events added late widen every row). */
#include "helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/array.h"
#include "base/diag.h"
#include "base/diag_keep.h"
#include "base/heap_tune.h"
#include "base/utf8.h"
#include "base/hashmap.h"
#include "base/idmap.h"
#include "base/names.h"
#include "base/sorted.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"

static void test_arena_alignment_and_big_blocks(void **state)
{
	struct arena a;
	char *big;

	(void)state;
	arena_init(&a);
	for (int i = 1; i < 2000; i++) {
		void *p = arena_alloc(&a, (size_t)i % 37 + 1);

		assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
		memset(p, 0xab, (size_t)i % 37 + 1);
	}
	big = arena_alloc(&a, 5u << 20);	/* larger than a block */
	memset(big, 1, 5u << 20);
	assert_string_equal(arena_strndup(&a, "hello world", 5), "hello");
	arena_release(&a);
	assert_null(a.head);
}

/* Strings are packed byte after byte; allocations between them are
 * still aligned, and nothing overlaps across blocks. */
static void test_arena_strings_packed(void **state)
{
	struct arena a;
	char *prev = NULL, *s[3000];
	size_t prev_len = 0, bytes = 0;

	(void)state;
	arena_init(&a);
	for (int i = 0; i < 3000; i++) {
		char text[64];
		int len = snprintf(text, sizeof(text), "name%d#%.*s", i,
				   i % 40, "abcdefghijklmnopqrstuvwxyzabcdefghijklmn");
		const struct arena_block *head = a.head;

		s[i] = arena_strndup(&a, text, (size_t)len);
		bytes += (size_t)len + 1;
		/* within a block, right after the string before (the
		 * blocks are small at first: the next can lie just past
		 * this one in the heap) */
		if (prev && a.head == head)
			assert_ptr_equal(s[i], prev + prev_len + 1);
		prev = s[i];
		prev_len = (size_t)len;
		if (i % 100 == 99) {
			void *p = arena_alloc(&a, 24);

			assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
			memset(p, 0xcd, 24);
			bytes += 24;
			prev = NULL;
		}
	}
	for (int i = 0; i < 3000; i++) {
		char text[64];

		snprintf(text, sizeof(text), "name%d#%.*s", i, i % 40,
			 "abcdefghijklmnopqrstuvwxyzabcdefghijklmn");
		assert_string_equal(s[i], text);
	}
	assert_int_equal(a.total, bytes);	/* nothing rounded up */
	arena_release(&a);
}

static void test_names_intern(void **state)
{
	struct arena a;
	struct names n;
	name_id x, y, z;

	(void)state;
	arena_init(&a);
	names_init(&n, &a);
	x = names_intern(&n, "main", 4);
	y = names_intern(&n, "mainly", 4);	/* same bytes: same id */
	z = names_intern(&n, "fib'2", 5);
	assert_int_equal(x, y);
	assert_int_not_equal(x, z);
	assert_string_equal(names_str(&n, z), "fib'2");
	assert_int_equal(names_len(&n, z), 5);
	assert_int_equal(names_find(&n, "fib'2", 5), z);
	assert_int_equal(names_find(&n, "nope", 4), NO_NAME);
	/* embedded NUL and empty names are names too */
	assert_int_not_equal(names_intern(&n, "a\0b", 3), names_intern(&n, "a", 1));
	assert_int_equal(names_len(&n, names_intern(&n, "", 0)), 0);
	/* many names survive rehashing with stable ids */
	for (int i = 0; i < 20000; i++) {
		char buf[32];
		int len = snprintf(buf, sizeof(buf), "sym%d", i);

		assert_int_equal(names_intern(&n, buf, (size_t)len),
				 names_intern(&n, buf, (size_t)len));
	}
	assert_string_equal(names_str(&n, x), "main");
	assert_string_equal(names_str(&n, NO_NAME), "");
	names_release(&n);
	arena_release(&a);
}

/* Enough names to grow the tagged table many times (to 3/4 full each
 * time): every one found again by its bytes, and each a new id. */
static void test_names_many(void **state)
{
	struct arena a;
	struct names n;
	char buf[32];

	(void)state;
	arena_init(&a);
	names_init(&n, &a);
	for (int i = 0; i < 100000; i++) {
		int len = snprintf(buf, sizeof(buf), "name%d", i);

		assert_int_equal(names_intern(&n, buf, (size_t)len), i);
	}
	assert_true(n.nr * 4 <= (n.mask + 1) * 3);
	assert_true((n.mask + 1) * 3 < n.nr * 8);	/* over 3/8: not grown early */
	for (int i = 100000; i-- > 0;) {
		int len = snprintf(buf, sizeof(buf), "name%d", i);

		assert_int_equal(names_intern(&n, buf, (size_t)len), i);
		assert_int_equal(names_find(&n, buf, (size_t)len), i);
	}
	assert_int_equal(names_find(&n, "name100000", 10), NO_NAME);
	names_drop_table(&n);
	assert_int_equal(names_intern(&n, "name77777", 9), 77777);
	assert_int_equal(names_intern(&n, "new", 3), 100000);
	assert_string_equal(names_str(&n, 100000), "new");
	names_release(&n);
	arena_release(&a);
}

/*
 * names_intern_from() gives each name the id names_intern() one by one
 * would: names already there, names new, names twice in the source,
 * names skipped, the table growing on the way (from empty and from
 * dropped), sources shorter and longer than its prefetch distance.
 * Every name is then found again by its text.
 */
static void test_names_intern_from(void **state)
{
	static const size_t sizes[] = { 0, 1, 5, 8, 9, 17, 3000 };
	char buf[32];

	(void)state;
	for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		for (int dropped = 0; dropped < 2; dropped++) {
			struct arena a, fa, ea;
			struct names n, from, expect;
			size_t nr = sizes[t];
			bool *skip = calloc(nr + 1, sizeof(*skip));
			name_id *ids = calloc(nr + 1, sizeof(*ids));

			arena_init(&a);
			arena_init(&fa);
			arena_init(&ea);
			names_init(&n, &a);
			names_init(&from, &fa);
			names_init(&expect, &ea);
			/* some names before: every third of the source's */
			for (size_t i = 0; i < nr; i += 3) {
				int len = snprintf(buf, sizeof(buf), "s%zu", i / 2);

				names_intern(&n, buf, (size_t)len);
				names_intern(&expect, buf, (size_t)len);
			}
			if (dropped)
				names_drop_table(&n);
			/* the source: i / 2 makes pairs of one text (ids
			 * differ in `from` only when the texts do) */
			for (size_t i = 0; i < nr; i++) {
				int len = snprintf(buf, sizeof(buf), "s%zu", i);

				assert_int_equal(names_intern(&from, buf, (size_t)len), i);
				skip[i] = i % 7 == 3;
				ids[i] = 12345;
			}
			names_intern_from(&n, &from, skip, ids);
			for (size_t i = 0; i < nr; i++) {
				const char *s = names_str(&from, (name_id)i);

				if (skip[i]) {
					assert_int_equal(ids[i], 12345);
					continue;
				}
				assert_int_equal(ids[i],
						 names_intern(&expect, s, strlen(s)));
				assert_string_equal(names_str(&n, ids[i]), s);
				assert_int_equal(names_find(&n, s, strlen(s)), ids[i]);
			}
			assert_int_equal(n.nr, expect.nr);
			names_release(&n);
			names_release(&from);
			names_release(&expect);
			arena_release(&a);
			arena_release(&fa);
			arena_release(&ea);
			free(skip);
			free(ids);
		}
	}
}

/*
 * names_intern_many() gives each name the id names_intern() one by one
 * would: names there before, new ones, one text twice in the batch,
 * the table growing on the way, batches shorter and longer than the
 * prefetch distance.
 */
static void test_names_intern_many(void **state)
{
	static const size_t sizes[] = { 0, 1, 7, 8, 9, 3000 };

	(void)state;
	for (size_t t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		size_t nr = sizes[t], at = 0;
		struct arena a, ea;
		struct names n, expect;
		char *buf = malloc(nr * 16 + 1);
		size_t *off = calloc(nr + 1, sizeof(*off));
		size_t *len = calloc(nr + 1, sizeof(*len));
		name_id *ids = calloc(nr + 1, sizeof(*ids));

		arena_init(&a);
		arena_init(&ea);
		names_init(&n, &a);
		names_init(&expect, &ea);
		for (size_t i = 0; i < nr; i += 3) {
			char one[32];
			int l = snprintf(one, sizeof(one), "cc1+0x%zx", i / 2);

			names_intern(&n, one, (size_t)l);
			names_intern(&expect, one, (size_t)l);
		}
		/* i / 2: each text twice in a row */
		for (size_t i = 0; i < nr; i++) {
			off[i] = at;
			len[i] = (size_t)sprintf(buf + at, "cc1+0x%zx", i / 2);
			at += len[i];
		}
		names_intern_many(&n, buf, off, len, nr, ids);
		for (size_t i = 0; i < nr; i++) {
			assert_int_equal(ids[i], names_intern(&expect, buf + off[i],
							      len[i]));
			assert_int_equal(names_len(&n, ids[i]), len[i]);
			assert_memory_equal(names_str(&n, ids[i]), buf + off[i],
					    len[i]);
		}
		assert_int_equal(n.nr, expect.nr);
		names_release(&n);
		names_release(&expect);
		arena_release(&a);
		arena_release(&ea);
		free(buf);
		free(off);
		free(len);
		free(ids);
	}
}

/*
 * Names of every length where their storage changes: the length in one
 * byte or in five (255), a name that just fits the block being filled
 * or just does not, names longer than a block (a block of their own,
 * while the one being filled goes on). Bytes 0 and 255 inside names,
 * short names between the long ones; each name read back whole, with
 * its NUL, and found by its text.
 */
static void test_names_lengths(void **state)
{
	const size_t block = ARENA_BLOCK_BYTES;
	const size_t lens[] = {
		0, 1, 254, 255, 256, 4096, 65535, 65536, block - 7, block - 6,
		block - 5, block - 1, block, block + 1, 300 * 1024, 3, 254,
	};
	const size_t nlens = sizeof(lens) / sizeof(lens[0]);
	struct arena a;
	struct names n;
	name_id ids[2 * sizeof(lens) / sizeof(lens[0])];
	char *buf = malloc(300 * 1024 + 1);

	(void)state;
	assert_int_equal(sizeof(*n.at), 4);
	arena_init(&a);
	names_init(&n, &a);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < nlens; i++) {
			char shorter[16];

			for (size_t b = 0; b < lens[i]; b++)
				buf[b] = (char)((b * 7 + i + (size_t)round) % 256);
			ids[i] = names_intern(&n, buf, lens[i]);
			/* a short name after each, in the block being filled */
			snprintf(shorter, sizeof(shorter), "s%zu.%d", i, round);
			ids[nlens + i] = names_intern(&n, shorter, strlen(shorter));
		}
		for (size_t i = 0; i < nlens; i++) {
			const char *s = names_str(&n, ids[i]);
			char shorter[16];

			for (size_t b = 0; b < lens[i]; b++)
				buf[b] = (char)((b * 7 + i + (size_t)round) % 256);
			assert_int_equal(names_len(&n, ids[i]), lens[i]);
			assert_memory_equal(s, buf, lens[i]);
			assert_int_equal(s[lens[i]], '\0');
			assert_int_equal(names_find(&n, buf, lens[i]), ids[i]);
			snprintf(shorter, sizeof(shorter), "s%zu.%d", i, round);
			assert_string_equal(names_str(&n, ids[nlens + i]), shorter);
		}
	}
	assert_true(n.nblocks > 4);
	/* the first name, found again once many blocks are in use */
	buf[0] = 0;
	assert_int_equal(names_find(&n, buf, 0), ids[0]);
	names_release(&n);
	arena_release(&a);
	free(buf);
}

/*
 * A names table's blocks: a few names take ARENA_FIRST_BYTES, not a
 * whole ARENA_BLOCK_BYTES, the blocks doubling from there; and a first
 * name longer than a block (a block of its own) is not written over by
 * the next.
 */
static void test_names_small_blocks(void **state)
{
	const size_t big = ARENA_BLOCK_BYTES + 100;
	char *buf = malloc(big);
	struct arena a;
	struct names n;
	name_id first, id[3000];
	char s[16];

	(void)state;
	assert_non_null(buf);
	memset(buf, 'x', big);
	arena_init(&a);
	names_init(&n, &a);
	first = names_intern(&n, buf, big);
	assert_int_equal(names_intern(&n, "after", 5), 1);
	assert_int_equal(names_len(&n, first), big);
	assert_memory_equal(names_str(&n, first), buf, big);
	assert_string_equal(names_str(&n, 1), "after");
	assert_int_equal(n.nblocks, 2);
	assert_true(a.total < big + ARENA_FIRST_BYTES + 64);
	names_release(&n);
	arena_release(&a);

	arena_init(&a);
	names_init(&n, &a);
	for (size_t i = 0; i < 3000; i++) {
		snprintf(s, sizeof(s), "name%zu", i);
		id[i] = names_intern(&n, s, strlen(s));
		if (i == 10)	/* about 100 bytes: the first block */
			assert_int_equal(a.total, ARENA_FIRST_BYTES);
	}
	for (size_t i = 0; i < 3000; i++) {
		snprintf(s, sizeof(s), "name%zu", i);
		assert_string_equal(names_str(&n, id[i]), s);
		assert_int_equal(names_find(&n, s, strlen(s)), id[i]);
	}
	/* about 30 KB of names: 4 + 8 + 16 + 32 KiB, not 127 */
	assert_true(a.total <= 60 * 1024);
	names_release(&n);
	arena_release(&a);
	free(buf);
}

/*
 * BIG_ARRAY_GROW: by half again while small; past ARRAY_MAP_FROM bytes
 * at once to ARRAY_MAP_BYTES, then by half again; the elements kept at
 * every step. With the heap set as a run sets it (heap_tune()), the
 * array then lies outside the heap (above its break), mapped apart by
 * glibc, where it grows without leaving holes: not checked under
 * AddressSanitizer, whose malloc places blocks its own way.
 */
/* The sequences a strict UTF-8 parser takes pass; overlong forms,
 * surrogates, code points past U+10FFFF, a lone continuation byte and
 * a sequence cut by the end do not. */
static void test_utf8_seq_len(void **state)
{
	const struct {
		const char *s;
		size_t want;
	} cases[] = {
		{ "\xc3\xa9", 2 },		/* U+00E9 */
		{ "\xe2\x82\xac", 3 },		/* U+20AC */
		{ "\xf0\x9f\x98\x80", 4 },	/* U+1F600 */
		{ "\xf4\x8f\xbf\xbf", 4 },	/* U+10FFFF */
		{ "a", 0 },
		{ "\xc0\xaf", 0 },		/* overlong '/' */
		{ "\xe0\x80\xaf", 0 },		/* overlong */
		{ "\xed\xa0\x80", 0 },		/* a surrogate */
		{ "\xf4\x90\x80\x80", 0 },	/* past U+10FFFF */
		{ "\xf5\x80\x80\x80", 0 },
		{ "\x80", 0 },
		{ "\xe2\x82", 0 },		/* cut short */
		{ "\xe2\x28\xac", 0 },		/* not a continuation */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const unsigned char *u = (const unsigned char *)cases[i].s;

		assert_int_equal(utf8_seq_len(u, 0, strlen(cases[i].s)),
				 cases[i].want);
	}
	/* the length bounds the look, not the NUL */
	assert_int_equal(utf8_seq_len((const unsigned char *)"\xe2\x82\xac", 0,
				      2),
			 0);
}

static void test_big_array_grow(void **state)
{
	uint32_t *a = NULL;
	size_t alloc = 0, steps = 0, jumps = 0;
	const size_t n = ARRAY_MAP_BYTES / sizeof(*a) + 1000;

	(void)state;
	heap_tune(false);
	assert_int_equal(array_capacity(0, 1, 4), 16);
	assert_int_equal(array_capacity(100, 101, 4), 166);
	assert_int_equal(array_capacity(ARRAY_MAP_FROM / 8, ARRAY_MAP_FROM / 8 + 1, 8),
			 ARRAY_MAP_BYTES / 8);
	assert_int_equal(array_capacity(ARRAY_MAP_BYTES / 8, ARRAY_MAP_BYTES / 8 + 1, 8),
			 ARRAY_MAP_BYTES / 8 / 2 * 3 + 16);
	for (size_t i = 0; i < n; i++) {
		size_t was = alloc;

		BIG_ARRAY_GROW(a, i + 1, alloc);
		if (alloc != was) {
			steps++;
			if (alloc * sizeof(*a) == ARRAY_MAP_BYTES) {
				jumps++;
#if !defined(__SANITIZE_ADDRESS__)
				/* mapped apart from the first step that
				 * could have been carved from the heap */
				assert_true((uintptr_t)a > (uintptr_t)sbrk(0));
#endif
			}
			/* nothing lost on the way */
			for (size_t k = 0; k < i; k += 4093)
				assert_int_equal(a[k], (uint32_t)(k * 2654435761u));
		}
		a[i] = (uint32_t)(i * 2654435761u);
	}
	assert_int_equal(jumps, 1);
	assert_true(alloc > ARRAY_MAP_BYTES / sizeof(*a));
	assert_true(steps < 40);
	for (size_t k = 0; k < n; k += 997)
		assert_int_equal(a[k], (uint32_t)(k * 2654435761u));
	free(a);
}

/* Hash tables' memory: zeroed at every size, below TABLE_MAP_BYTES
 * from the heap, from it on mapped apart, at a huge page's boundary
 * from 2 MiB on; written and given back at each. */
static void test_table_memory(void **state)
{
	static const size_t sizes[] = {
		1, 4096, TABLE_MAP_BYTES - 8, TABLE_MAP_BYTES,
		TABLE_MAP_BYTES + 4096, (size_t)2 << 20, ((size_t)5 << 20) + 12,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *t = xcalloc_table(sizes[i]);

		for (size_t b = 0; b < sizes[i]; b += 511)
			assert_int_equal(t[b], 0);
		assert_int_equal(t[sizes[i] - 1], 0);
		if (sizes[i] >= ((size_t)2 << 20))
			assert_int_equal((uintptr_t)t % ((size_t)2 << 20), 0);
		memset(t, 0xab, sizes[i]);
		xfree_table(t, sizes[i]);
	}
	/* with a threshold of its own (idmap's shards): below it from the
	 * heap (free() would fail on a mapping), from it on mapped */
	for (size_t size = 16 << 10; size <= (256 << 10); size *= 2) {
		unsigned char *t = xcalloc_table_from(size, 64 << 10);

		assert_int_equal(t[0], 0);
		assert_int_equal(t[size - 1], 0);
#if !defined(__SANITIZE_ADDRESS__)
		if (size >= (64 << 10))
			assert_true((uintptr_t)t > (uintptr_t)sbrk(0));
#endif
		memset(t, 0xcd, size);
		xfree_table_from(t, size, 64 << 10);
	}
}

/* A table given back with xfree_table_keep() is taken again by the
 * next ones that fit in it, carved from its start in whole huge pages,
 * zeroed however it was written; one too large for it is mapped anew. */
static void test_table_kept(void **state)
{
	const size_t mib = (size_t)1 << 20;
	unsigned char *big = xcalloc_table(7 * mib), *a, *b, *c, *d;

	(void)state;
	memset(big, 0x5a, 7 * mib);
	xfree_table_keep(big, 7 * mib);		/* 8 MiB kept */
	a = xcalloc_table(3 * mib + 5);		/* 4 of them */
	assert_ptr_equal(a, big);
	b = xcalloc_table(TABLE_MAP_BYTES);	/* 2 more */
	assert_ptr_equal(b, big + 4 * mib);
	c = xcalloc_table(3 * mib);		/* 2 left: no */
	assert_true(c < big || c >= big + 8 * mib);
	d = xcalloc_table(2 * mib);		/* the last 2 */
	assert_ptr_equal(d, big + 6 * mib);
	for (size_t i = 0; i < 3 * mib + 5; i += 4093)
		assert_int_equal(a[i], 0);
	assert_int_equal(a[3 * mib + 4], 0);
	assert_int_equal(b[TABLE_MAP_BYTES - 1], 0);
	assert_int_equal(d[2 * mib - 1], 0);
	xfree_table(a, 3 * mib + 5);
	xfree_table(b, TABLE_MAP_BYTES);
	xfree_table(c, 3 * mib);
	xfree_table(d, 2 * mib);
	/* below TABLE_MAP_BYTES: the heap's, freed as usual */
	a = xcalloc_table(4096);
	xfree_table_keep(a, 4096);
}

/* Once the table is dropped, names are still found by text (searched
 * for), and interning builds the table again with every id kept. */
static void test_names_drop_table(void **state)
{
	struct arena a;
	struct names n;
	name_id ids[5000];

	(void)state;
	arena_init(&a);
	names_init(&n, &a);
	names_drop_table(&n);		/* with no names: nothing to do */
	assert_int_equal(names_find(&n, "f", 1), NO_NAME);
	for (int i = 0; i < 5000; i++) {
		char buf[32];
		int len = snprintf(buf, sizeof(buf), "fn%d", i);

		ids[i] = names_intern(&n, buf, (size_t)len);
	}
	names_drop_table(&n);
	assert_null(n.table);
	assert_int_equal(names_find(&n, "fn4321", 6), ids[4321]);
	assert_int_equal(names_find(&n, "fn43", 4), ids[43]);
	assert_int_equal(names_find(&n, "fn", 2), NO_NAME);
	assert_string_equal(names_str(&n, ids[17]), "fn17");
	/* the same text: the same id, with the table built again */
	assert_int_equal(names_intern(&n, "fn4999", 6), ids[4999]);
	assert_non_null(n.table);
	assert_true(n.mask + 1 >= 2 * (n.nr + 1));
	assert_int_equal(names_find(&n, "fn0", 3), ids[0]);
	assert_int_equal(names_intern(&n, "new", 3), 5000);
	for (int i = 0; i < 5000; i++) {
		char buf[32];
		int len = snprintf(buf, sizeof(buf), "fn%d", i);

		assert_int_equal(names_find(&n, buf, (size_t)len), ids[i]);
	}
	names_release(&n);
	arena_release(&a);
}

/*
 * Call counts of 2^31 and more live beside the arcs (struct pcall):
 * each reads back as set and added, across the edge either way, past
 * 2^32, wrapping past 2^64 (reported), and through a rekey that merges
 * two arcs of big counts into one.
 */
static void test_call_counts(void **state)
{
	static const uint64_t big = (uint64_t)1 << 31;
	struct profile p;
	struct pfunc *ident;
	uint32_t f[4], c[6];

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	for (int i = 0; i < 4; i++) {
		char name[8];
		int len = snprintf(name, sizeof(name), "f%d", i);

		f[i] = profile_func(&p, NO_NAME, NO_NAME,
				    names_intern(&p.names, name, (size_t)len));
	}
	for (int i = 0; i < 6; i++)
		c[i] = profile_call(&p, f[i / 3], f[1 + i % 3]);
	assert_int_equal(profile_call_count(&p, c[0]), 0);
	profile_call_set_count(&p, c[0], big - 1);
	assert_int_equal(p.nbig_counts, 0);
	assert_false(profile_call_add_count(&p, c[0], 1));
	assert_int_equal(profile_call_count(&p, c[0]), big);
	assert_int_equal(p.nbig_counts, 1);
	profile_call_set_count(&p, c[1], UINT64_MAX - 5);
	assert_int_equal(profile_call_count(&p, c[1]), UINT64_MAX - 5);
	assert_false(profile_call_add_count(&p, c[1], 5));
	assert_int_equal(profile_call_count(&p, c[1]), UINT64_MAX);
	assert_true(profile_call_add_count(&p, c[1], 3));
	assert_int_equal(profile_call_count(&p, c[1]), 2);	/* wrapped */
	profile_call_set_count(&p, c[2], 7);
	assert_false(profile_call_add_count(&p, c[2], (uint64_t)5 << 32));
	assert_int_equal(profile_call_count(&p, c[2]), ((uint64_t)5 << 32) + 7);
	/* back below the edge, and small ones beside the big */
	profile_call_set_count(&p, c[0], 9);
	assert_int_equal(profile_call_count(&p, c[0]), 9);
	profile_call_set_count(&p, c[0], big + 9);
	assert_int_equal(profile_call_count(&p, c[3]), 0);
	profile_call_set_count(&p, c[3], 40);
	profile_call_set_count(&p, c[4], big * 3);
	assert_int_equal(p.nbig_counts, 4);
	assert_int_equal(profile_call_count(&p, c[0]), big + 9);
	assert_int_equal(profile_call_count(&p, c[2]), ((uint64_t)5 << 32) + 7);
	assert_int_equal(profile_call_count(&p, c[3]), 40);
	assert_int_equal(profile_call_count(&p, c[4]), big * 3);
	assert_int_equal(profile_call_count(&p, c[5]), 0);

	/* f2 becomes f1: f0>f1 and f0>f2 are one arc, f1>f2 a self-call
	 * of f1's, and f1>f1 (c[3], 40) joins it; f0>f3 keeps its count
	 * in a new arc */
	ident = calloc(p.nfuncs, sizeof(*ident));
	for (size_t i = 0; i < p.nfuncs; i++)
		ident[i] = p.funcs[i];
	ident[f[2]].name = p.funcs[f[1]].name;
	profile_rekey(&p, ident, NULL, NULL, NULL);
	free(ident);
	assert_int_equal(profile_call_count(&p, find_call(&p, "f0", "f1")),
			 big + 9 + 2);
	assert_int_equal(profile_call_count(&p, find_call(&p, "f0", "f3")),
			 ((uint64_t)5 << 32) + 7);
	assert_int_equal(profile_call_count(&p, find_call(&p, "f1", "f1")),
			 big * 3 + 40);
	/* no calls and no cost: gone */
	assert_int_equal(find_call(&p, "f1", "f3"), NO_ID);
	assert_int_equal(p.ncalls, 3);
	profile_release(&p);
}

static void test_u64map(void **state)
{
	struct u64map m;
	bool added;

	(void)state;
	u64map_init(&m);
	assert_int_equal(u64map_get(&m, 7), U64MAP_NONE);
	assert_int_equal(u64map_get_or_put(&m, 0, 5, &added), 5);
	assert_true(added);
	assert_int_equal(u64map_get_or_put(&m, 0, 9, &added), 5);
	assert_false(added);
	u64map_put(&m, 0, 6);
	assert_int_equal(u64map_get(&m, 0), 6);
	u64map_put(&m, UINT64_MAX, 1);
	assert_int_equal(u64map_get(&m, UINT64_MAX), 1);
	for (uint64_t k = 1; k < 100000; k++)
		u64map_put(&m, k * 4000000007ULL, (uint32_t)k);
	for (uint64_t k = 1; k < 100000; k++)
		assert_int_equal(u64map_get(&m, k * 4000000007ULL), k);
	assert_int_equal(m.nr, 100001);
	u64map_release(&m);
}

/* the dense map: the same answers, grown past 3/4 full, not 1/2 */
static void test_u64map_dense(void **state)
{
	struct u64map m;
	bool added;

	(void)state;
	u64map_init(&m);
	assert_int_equal(u64map_get_or_put_dense(&m, 0, 5, &added), 5);
	assert_true(added);
	assert_int_equal(u64map_get_or_put_dense(&m, 0, 9, &added), 5);
	assert_false(added);
	for (uint64_t k = 1; k < 48; k++)
		u64map_get_or_put_dense(&m, k * 4000000007ULL, (uint32_t)k,
					NULL);
	assert_int_equal(m.mask + 1, 64);	/* 48 of 64 */
	u64map_get_or_put_dense(&m, 48 * 4000000007ULL, 48, NULL);
	assert_int_equal(m.mask + 1, 128);
	for (uint64_t k = 49; k < 100000; k++)
		assert_int_equal(u64map_get_or_put_dense(&m, k * 4000000007ULL,
							 (uint32_t)k, &added),
				 k);
	for (uint64_t k = 1; k < 100000; k++) {
		assert_int_equal(u64map_get(&m, k * 4000000007ULL), k);
		assert_int_equal(u64map_get_or_put_dense(&m, k * 4000000007ULL,
							 1, &added),
				 k);
		assert_false(added);
	}
	assert_int_equal(m.nr, 100000);
	assert_true(m.nr * 4 <= (m.mask + 1) * 3);
	assert_true(m.nr * 8 > (m.mask + 1) * 3);
	u64map_release(&m);
}

/* idmap against u64map: ids below and above 2^32, overwritten, absent,
 * enough of them that every shard grows many times */
/* hash_bytes() spreads names that differ in a few bytes, at either end
 * or in a tail shorter than a word, as a random function would: the
 * buckets hit twice no more than 10% above what chance gives */
static void test_hash_bytes_spread(void **state)
{
	const unsigned buckets = 1u << 18, n = 100000;
	const char *forms[][2] = {
		{ "f", "" },
		{ "", "'caller'caller'std::vector<int>::push_back" },
		{ "std::map<std::string, std::vector<int> >::operator[](key#c", ")" },
	};
	unsigned *hits = calloc(buckets, sizeof(*hits));

	(void)state;
	assert_non_null(hits);
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		double expected = n - buckets * (1 - exp(-(double)n / buckets));
		unsigned again = 0;
		char name[128];

		memset(hits, 0, buckets * sizeof(*hits));
		for (unsigned i = 0; i < n; i++) {
			int len = snprintf(name, sizeof(name), "%s%u%s",
					   forms[f][0], i, forms[f][1]);

			if (hits[hash_bytes(name, (size_t)len) & (buckets - 1)]++)
				again++;
		}
		assert_true(again < expected * 1.1);
	}
	free(hits);
}

static void test_idmap(void **state)
{
	struct idmap m;
	struct u64map ref;
	uint64_t seed = 99;

	(void)state;
	idmap_init(&m);
	u64map_init(&ref);
	assert_int_equal(idmap_get(&m, 7), U64MAP_NONE);
	idmap_put(&m, 0, 3);
	idmap_put(&m, UINT32_MAX, 4);
	idmap_put(&m, (uint64_t)UINT32_MAX + 1, 5);
	idmap_put(&m, UINT64_MAX, 6);
	assert_int_equal(idmap_get(&m, 0), 3);
	assert_int_equal(idmap_get(&m, UINT32_MAX), 4);
	assert_int_equal(idmap_get(&m, (uint64_t)UINT32_MAX + 1), 5);
	assert_int_equal(idmap_get(&m, UINT64_MAX), 6);
	assert_int_equal(idmap_get(&m, 1), U64MAP_NONE);
	/* the key's low 32 bits alone do not find it */
	assert_int_equal(idmap_get(&m, (uint64_t)3 << 32), U64MAP_NONE);
	u64map_put(&ref, 0, 3);
	u64map_put(&ref, UINT32_MAX, 4);
	u64map_put(&ref, (uint64_t)UINT32_MAX + 1, 5);
	u64map_put(&ref, UINT64_MAX, 6);
	for (uint32_t i = 0; i < 400000; i++) {
		uint64_t id;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		id = i % 5 ? (seed >> 40) : (seed >> 8);	/* some past 2^32 */
		if (id <= UINT32_MAX && id < 2)
			continue;
		idmap_put(&m, id, i);
		u64map_put(&ref, id, i);
	}
	seed = 99;
	for (uint32_t i = 0; i < 400000; i++) {
		uint64_t id;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		id = i % 5 ? (seed >> 40) : (seed >> 8);
		if (id <= UINT32_MAX && id < 2)
			continue;
		assert_int_equal(idmap_get(&m, id), u64map_get(&ref, id));
		assert_int_equal(idmap_get(&m, id + 3000000000ULL),
				 u64map_get(&ref, id + 3000000000ULL));
	}
	idmap_release(&m);
	u64map_release(&ref);
}

/* /proc/loadavg's running count against the usable processors; text
 * it cannot read leaves the second thread on */
static void test_spare_cpu_from(void **state)
{
	(void)state;
	assert_true(spare_cpu_from("0.00 0.01 0.05 1/88 483\n", 2));
	assert_false(spare_cpu_from("1.99 1.94 1.18 2/89 516\n", 2));
	assert_false(spare_cpu_from("3.00 2.00 1.00 3/89 541\n", 2));
	assert_true(spare_cpu_from("7.50 7.00 6.00 3/300 12\n", 8));
	assert_false(spare_cpu_from("0.00 0.00 0.00 1/88 483\n", 1));
	assert_true(spare_cpu_from("0.00 0.00 0.00 x/88 483\n", 2));
	assert_true(spare_cpu_from("", 2));
	assert_true(spare_cpu_from("0.00 0.00 0.00 0/88 1\n", 2));
	(void)spare_cpu();	/* whatever the machine's load: no crash */
	(void)spare_cpu_beside_own();
}

/* The running count less the caller's other running threads: the
 * reader and its reading-ahead thread alone on two processors leave
 * one free; with another program running, none. */
static void test_spare_cpu_own(void **state)
{
	(void)state;
	assert_true(spare_cpu_from_own("0.30 0.20 0.10 2/90 500\n", 2, 1));
	assert_false(spare_cpu_from_own("0.30 0.20 0.10 3/90 500\n", 2, 1));
	assert_false(spare_cpu_from_own("0.30 0.20 0.10 2/90 500\n", 2, 0));
	/* a thread seen running that loadavg no longer counted */
	assert_true(spare_cpu_from_own("0.30 0.20 0.10 1/90 500\n", 2, 2));
	assert_false(spare_cpu_from_own("0.30 0.20 0.10 1/90 500\n", 1, 1));
	assert_true(spare_cpu_from_own("0.30 0.20 0.10 4/90 500\n", 4, 2));
	assert_true(spare_cpu_stat_running("123 (cganalyze) R 1 2 3"));
	assert_false(spare_cpu_stat_running("123 (cganalyze) S 1 2 3"));
	/* a command with a parenthesis and a space: the last ')' counts */
	assert_true(spare_cpu_stat_running("9 (a) S (b) R 1 2"));
	assert_false(spare_cpu_stat_running("9 (a) R (b) S 1 2"));
	assert_false(spare_cpu_stat_running("garbage"));
	assert_false(spare_cpu_stat_running("9 (a)"));
}

static void test_profile_rows_widen(void **state)
{
	struct profile p;
	uint32_t f, g, c, e2;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	f = profile_func(&p, NO_NAME, NO_NAME, names_intern(&p.names, "f", 1));
	g = profile_func(&p, NO_NAME, NO_NAME, names_intern(&p.names, "g", 1));
	assert_int_equal(profile_func(&p, NO_NAME, NO_NAME,
				      names_intern(&p.names, "f", 1)), f);
	/* same name, another object: another function */
	assert_int_not_equal(profile_func(&p, names_intern(&p.names, "libc", 4),
					  NO_NAME, names_intern(&p.names, "f", 1)), f);
	c = profile_call(&p, f, g);
	assert_int_equal(profile_call(&p, f, g), c);
	profile_self(&p, f)[0] = 11;
	profile_call_incl(&p, c)[0] = 22;
	e2 = profile_event(&p, names_intern(&p.names, "Dr", 2));
	assert_int_equal(e2, 1);
	assert_int_equal(p.stride, 2);
	assert_int_equal(profile_self(&p, f)[0], 11);
	assert_int_equal(profile_self(&p, f)[1], 0);
	assert_int_equal(profile_call_incl(&p, c)[0], 22);
	profile_self(&p, g)[1] = 4;
	profile_finish(&p);
	assert_int_equal(p.totals[0], 11);
	assert_int_equal(p.totals[1], 4);
	assert_int_equal(profile_find_event(&p, "Dr"), 1);
	assert_int_equal(profile_find_event(&p, "D1mr"), NO_ID);
	profile_release(&p);
}

static void test_profile_derived(void **state)
{
	struct profile p;
	struct pterm t[2];
	uint32_t f, sum, twice;
	char *diag;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	profile_event(&p, names_intern(&p.names, "Dr", 2));
	f = profile_func(&p, NO_NAME, NO_NAME, names_intern(&p.names, "f", 1));
	profile_self(&p, f)[0] = 10;
	profile_self(&p, f)[1] = 3;
	/* declared before the event it uses: computed in a later pass */
	t[0] = (struct pterm){ 2, names_intern(&p.names, "Sum", 3) };
	profile_define_derived(&p, names_intern(&p.names, "Twice", 5), t, 1, "x", 1);
	t[0] = (struct pterm){ 1, names_intern(&p.names, "Ir", 2) };
	t[1] = (struct pterm){ 2, names_intern(&p.names, "Dr", 2) };
	profile_define_derived(&p, names_intern(&p.names, "Sum", 3), t, 2, "x", 2);
	t[0] = (struct pterm){ 1, names_intern(&p.names, "Nope", 4) };
	profile_define_derived(&p, names_intern(&p.names, "Bad", 3), t, 1, "x", 3);
	diag_capture_begin();
	profile_finish(&p);
	diag = diag_capture_end();
	sum = profile_find_event(&p, "Sum");
	twice = profile_find_event(&p, "Twice");
	assert_int_not_equal(sum, NO_ID);
	assert_int_not_equal(twice, NO_ID);
	assert_true(p.events[sum].derived);
	assert_int_equal(profile_self(&p, f)[sum], 16);
	assert_int_equal(profile_self(&p, f)[twice], 32);
	assert_int_equal(p.totals[twice], 32);
	assert_int_equal(profile_find_event(&p, "Bad"), NO_ID);
	assert_non_null(strstr(diag, "x:3: warning: derived event 'Bad'"));
	free(diag);
	profile_release(&p);
}

static void test_profile_rekey_merges(void **state)
{
	struct profile p;
	struct pfunc *ident;
	uint32_t a, b, c, map[3], ab, pa, pb;
	name_id merged;

	(void)state;
	profile_init(&p);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	a = profile_func(&p, NO_NAME, NO_NAME, names_intern(&p.names, "0x1160", 6));
	b = profile_func(&p, NO_NAME, NO_NAME, names_intern(&p.names, "frame_dummy", 11));
	c = profile_func(&p, NO_NAME, NO_NAME, names_intern(&p.names, "main", 4));
	profile_self(&p, a)[0] = 3;
	profile_self(&p, b)[0] = 4;
	/* profile_call() may move p.calls: index it afterwards */
	ab = profile_call(&p, c, a);
	profile_call_set_count(&p, ab, 1);
	profile_call_incl(&p, ab)[0] = 3;
	ab = profile_call(&p, c, b);
	profile_call_set_count(&p, ab, 2);
	profile_call_incl(&p, ab)[0] = 4;
	pa = profile_pos(&p, a, NO_NAME, 0, 0x1160);
	pb = profile_pos(&p, b, NO_NAME, 0, 0x1160);
	assert_int_not_equal(pa, pb);
	assert_int_equal(profile_pos(&p, a, NO_NAME, 0, 0x1160), pa);
	profile_pos_cost(&p, pa)[0] = 3;
	profile_pos_cost(&p, pb)[0] = 4;

	/* 0x1160 turns out to be frame_dummy: the two become one */
	ident = calloc(p.nfuncs, sizeof(*ident));
	for (size_t f = 0; f < p.nfuncs; f++)
		ident[f] = p.funcs[f];
	merged = names_intern(&p.names, "frame_dummy", 11);
	ident[a].name = merged;
	profile_rekey(&p, ident, NULL, NULL, map);
	free(ident);
	assert_int_equal(p.nfuncs, 2);
	assert_int_equal(map[a], map[b]);
	assert_int_equal(profile_self(&p, map[a])[0], 7);
	assert_int_equal(p.ncalls, 1);
	ab = find_call(&p, "main", "frame_dummy");
	assert_int_not_equal(ab, NO_ID);
	assert_int_equal(profile_call_count(&p, ab), 3);
	assert_int_equal(profile_call_incl(&p, ab)[0], 7);
	assert_int_equal(p.npos, 1);
	assert_int_equal(profile_pos_cost(&p, 0)[0], 7);
	assert_int_equal(p.pos[0].func, map[a]);
	assert_int_equal(map[c], find_func(&p, "main"));
	profile_release(&p);
}

/* The report's messages: kept while the run lasts (the page shows them),
 * printed on stderr only at its end, every one. */
static void test_diag_keep(void **state)
{
	struct diag_keep k;
	FILE *err = tmpfile();
	int saved = dup(2);
	char got[256] = "";
	char *copy;

	(void)state;
	assert_non_null(err);
	fflush(stderr);
	dup2(fileno(err), 2);
	diag_keep_begin(&k);
	warning("kept %d", 1);
	copy = diag_keep_copy(&k);
	fflush(stderr);
	assert_int_equal(ftell(err), 0);	/* not printed yet */
	diag_keep_end(&k);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_non_null(copy);
	assert_non_null(strstr(copy, "warning: kept 1"));
	rewind(err);
	assert_non_null(fgets(got, sizeof(got), err));
	assert_non_null(strstr(got, "warning: kept 1"));
	assert_null(k.f);
	free(copy);
	fclose(err);
}

/* sorted_upto(): how many keys are at most x, duplicates and ends
 * included; an empty (NULL) table has none. */
static void test_sorted_upto(void **state)
{
	static const struct {
		uint32_t pad;
		uint64_t key;
	} v[] = { { 0, 10 }, { 0, 20 }, { 0, 20 }, { 0, 30 } };
	const struct { uint64_t key; } *none = NULL;

	(void)state;
	assert_int_equal(SORTED_UPTO(v, 4, key, 0), 0);
	assert_int_equal(SORTED_UPTO(v, 4, key, 9), 0);
	assert_int_equal(SORTED_UPTO(v, 4, key, 10), 1);
	assert_int_equal(SORTED_UPTO(v, 4, key, 19), 1);
	assert_int_equal(SORTED_UPTO(v, 4, key, 20), 3);
	assert_int_equal(SORTED_UPTO(v, 4, key, 29), 3);
	assert_int_equal(SORTED_UPTO(v, 4, key, UINT64_MAX), 4);
	assert_int_equal(SORTED_UPTO(v, 1, key, 20), 1);
	assert_int_equal(SORTED_UPTO(none, 0, key, 5), 0);

	/* sorted_below_u64(): the first at or above x */
	{
		static const uint64_t u[] = { 10, 20, 20, 30 };

		assert_int_equal(sorted_below_u64(u, 4, 0), 0);
		assert_int_equal(sorted_below_u64(u, 4, 10), 0);
		assert_int_equal(sorted_below_u64(u, 4, 11), 1);
		assert_int_equal(sorted_below_u64(u, 4, 20), 1);
		assert_int_equal(sorted_below_u64(u, 4, 21), 3);
		assert_int_equal(sorted_below_u64(u, 4, 31), 4);
		assert_int_equal(sorted_below_u64(NULL, 0, 5), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena_alignment_and_big_blocks),
		cmocka_unit_test(test_diag_keep),
		cmocka_unit_test(test_sorted_upto),
		cmocka_unit_test(test_arena_strings_packed),
		cmocka_unit_test(test_names_intern),
		cmocka_unit_test(test_names_many),
		cmocka_unit_test(test_names_drop_table),
		cmocka_unit_test(test_names_intern_from),
		cmocka_unit_test(test_names_intern_many),
		cmocka_unit_test(test_names_lengths),
		cmocka_unit_test(test_names_small_blocks),
		cmocka_unit_test(test_table_memory),
		cmocka_unit_test(test_table_kept),
		cmocka_unit_test(test_utf8_seq_len),
		cmocka_unit_test(test_big_array_grow),
		cmocka_unit_test(test_call_counts),
		cmocka_unit_test(test_u64map),
		cmocka_unit_test(test_u64map_dense),
		cmocka_unit_test(test_hash_bytes_spread),
		cmocka_unit_test(test_idmap),
		cmocka_unit_test(test_spare_cpu_from),
		cmocka_unit_test(test_spare_cpu_own),
		cmocka_unit_test(test_profile_rows_widen),
		cmocka_unit_test(test_profile_derived),
		cmocka_unit_test(test_profile_rekey_merges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
