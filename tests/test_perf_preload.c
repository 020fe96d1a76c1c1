/*
 * resolve/perf_preload.c: symbol tables loaded on a second thread with
 * names of their own, then taken with their names moved into the
 * profile's. What is taken must be what symtab_open() would have made
 * in its place: every id the same, and the orders that ids decide.
 * (kallsyms, loaded there too, interns no names: tests/test_kallsyms.c.)
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/spare_cpu.h"
#include "profile/perf_data.h"
#include "resolve/perf_preload.h"
#include "symtab/symtab.h"

/* with DWARF: lines and inlined frames have names too */
#define BINARY "tests/resolve/cxx-O2/prog"

/* Names the profile had before: some a table has too, so that ids
 * there differ from its own table's. */
static void prefill(struct names *n)
{
	static const char *const before[] = { "zzz", "main", "qqq", "_init",
					      "printf", "www" };

	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++)
		names_intern(n, before[i], strlen(before[i]));
}

struct two {
	struct arena a1, a2, a3;
	struct names seq, own, moved;	/* one thread; the helper's; after */
};

static void two_init(struct two *t)
{
	arena_init(&t->a1);
	arena_init(&t->a2);
	arena_init(&t->a3);
	names_init(&t->seq, &t->a1);
	names_init(&t->own, &t->a2);
	names_init(&t->moved, &t->a3);
	prefill(&t->seq);
	prefill(&t->moved);
}

static void two_release(struct two *t)
{
	names_release(&t->seq);
	names_release(&t->own);
	names_release(&t->moved);
	arena_release(&t->a1);
	arena_release(&t->a2);
	arena_release(&t->a3);
}

static name_id *move_names(struct two *t)
{
	bool *skip = calloc(t->own.nr + 1, sizeof(*skip));
	name_id *ids = malloc((t->own.nr + 1) * sizeof(*ids));

	names_intern_from(&t->moved, &t->own, skip, ids);
	free(skip);
	return ids;
}

/* Every name id a table gives out is the one-thread table's. */
static void same_tables(const struct symtab *a, const struct symtab *b)
{
	struct frame fa[8], fb[8];

	assert_int_equal(a->nsyms, b->nsyms);
	assert_int_equal(a->nlines, b->nlines);
	assert_true(a->nlines > 0);
	for (size_t i = 0; i < a->nsyms; i++) {
		assert_int_equal(a->syms[i].name, b->syms[i].name);
		assert_int_equal(a->syms[i].raw, b->syms[i].raw);
		const struct sym *fa_ = symtab_find(a, a->syms[i].raw);
		const struct sym *fb_ = symtab_find(b, b->syms[i].raw);

		assert_true((fa_ == NULL) == (fb_ == NULL));
		if (fa_)
			assert_int_equal(fa_ - a->syms, fb_ - b->syms);
	}
	for (size_t i = 0; i < a->nlines; i++)
		assert_int_equal(a->lines[i].file, b->lines[i].file);
	for (size_t i = 0; i < a->nsyms; i++) {
		size_t na = symtab_frames(a, a->syms[i].addr, fa, 8);
		size_t nb = symtab_frames(b, b->syms[i].addr, fb, 8);

		assert_int_equal(na, nb);
		for (size_t k = 0; k < na; k++) {
			assert_int_equal(fa[k].func, fb[k].func);
			assert_int_equal(fa[k].file, fb[k].file);
		}
	}
}

/* symtab_rename(): a table loaded with names of its own, moved, is the
 * table symtab_open() makes with the profile's (fails if a name_id field
 * is left out: the lines' files, the inlined frames' names, by_name). */
static void test_symtab_rename(void **state)
{
	struct symtab_opts so = { .demangle = true };
	struct symtab seq, own;
	struct two t;
	name_id *ids;

	(void)state;
	two_init(&t);
	assert_int_equal(symtab_open(&seq, BINARY, &so, &t.seq), 0);
	assert_int_equal(symtab_open(&own, BINARY, &so, &t.own), 0);
	ids = move_names(&t);
	symtab_rename(&own, &t.moved, ids);
	assert_int_equal(t.moved.nr, t.seq.nr);
	for (name_id i = 0; i < t.seq.nr; i++)
		assert_string_equal(names_str(&t.seq, i), names_str(&t.moved, i));
	same_tables(&seq, &own);
	free(ids);
	symtab_release(&seq);
	symtab_release(&own);
	two_release(&t);
}

/* The preloader itself: a recorded object's file loaded on the helper
 * and taken, with names of its own (none interned into the caller's),
 * the table symtab_open() makes, name for name; a path it did not load
 * is not; a file whose loading said something is not taken (the caller
 * opens it again, for the message to come in its place), and the helper
 * printed nothing. */
static void test_preload_take(void **state)
{
	struct resolve_opts o;
	/* as perf_preload.c and bind_recorded() open them */
	struct symtab_opts so = { .demangle = true, .no_dwarf = true,
				  .names_later = true };
	struct perf_preload *pl;
	struct perf_data *d = perf_data_new();
	struct symtab seq, *taken;
	char *junk = write_temp("not an ELF file\n", 16);
	uint32_t ob, bad;
	size_t moved;
	struct two t;
	char *said;

	(void)state;
	memset(&o, 0, sizeof(o));
	two_init(&t);
	ob = perf_data_object(d, &t.moved, BINARY, strlen(BINARY),
			      PERF_OBJ_FILE);
	bad = perf_data_object(d, &t.moved, junk, strlen(junk), PERF_OBJ_FILE);
	names_intern(&t.seq, BINARY, strlen(BINARY));
	names_intern(&t.seq, junk, strlen(junk));
	pl = perf_preload_new(&o, true);
	diag_capture_begin();
	perf_preload_object(pl, &t.moved, d, ob);
	perf_preload_object(pl, &t.moved, d, bad);
	perf_preload_finish(pl);
	said = diag_capture_end();
	assert_string_equal(said, "");
	free(said);
	assert_null(perf_preload_take(pl, ob, "tests/resolve/c-pie/prog"));
	assert_null(perf_preload_take(pl, bad, junk));
	moved = t.moved.nr;
	taken = perf_preload_take(pl, ob, BINARY);
	assert_non_null(taken);
	assert_int_equal(t.moved.nr, moved);
	assert_true(taken->names != &t.moved);
	assert_int_equal(symtab_open(&seq, BINARY, &so, &t.seq), 0);
	assert_int_equal(taken->nsyms, seq.nsyms);
	/* each name, raw and demangled (made when asked), the same */
	for (size_t i = 0; i < seq.nsyms; i++) {
		assert_true(taken->syms[i].addr == seq.syms[i].addr);
		assert_string_equal(
			names_str(taken->names,
				  symtab_name(taken, &taken->syms[i], false)),
			names_str(&t.seq,
				  symtab_name(&seq, &seq.syms[i], false)));
		assert_string_equal(
			names_str(taken->names,
				  symtab_name(taken, &taken->syms[i], true)),
			names_str(&t.seq, symtab_name(&seq, &seq.syms[i], true)));
	}
	symtab_release(taken);
	free(taken);
	symtab_release(&seq);
	perf_preload_free(pl);
	perf_data_free(d);
	two_release(&t);
	remove_temp(junk);
}

/* At most 256 objects are loaded ahead (each load holds a names table
 * of its own until taken): the 257th is left to the main thread. */
static void test_preload_bounded(void **state)
{
	struct resolve_opts o;
	struct perf_preload *pl;
	struct perf_data *d = perf_data_new();
	struct arena arena;
	struct names names;
	uint32_t last = 0;
	char path[64];

	(void)state;
	memset(&o, 0, sizeof(o));
	arena_init(&arena);
	names_init(&names, &arena);
	pl = perf_preload_new(&o, true);
	for (int i = 0; i < 256; i++) {
		uint32_t ob;

		snprintf(path, sizeof(path), "/nonexistent/lib%d.so", i);
		ob = perf_data_object(d, &names, path, strlen(path),
				      PERF_OBJ_FILE);
		perf_preload_object(pl, &names, d, ob);
	}
	last = perf_data_object(d, &names, BINARY, strlen(BINARY),
				PERF_OBJ_FILE);
	perf_preload_object(pl, &names, d, last);
	perf_preload_finish(pl);
	assert_null(perf_preload_take(pl, last, BINARY));
	perf_preload_free(pl);
	perf_data_free(d);
	names_release(&names);
	arena_release(&arena);
}

/* An object of the build-id table (perf_preload_listed()) is loaded
 * once the helper runs, behind the objects given a frame, and once only
 * when it gets a frame too; listed alone, nothing starts. */
static void test_preload_listed(void **state)
{
	struct resolve_opts o;
	struct perf_preload *pl;
	struct perf_data *d = perf_data_new();
	struct arena arena;
	struct names names;
	struct symtab *st;
	uint32_t ob, other;

	(void)state;
	memset(&o, 0, sizeof(o));
	arena_init(&arena);
	names_init(&names, &arena);
	ob = perf_data_object(d, &names, BINARY, strlen(BINARY),
			      PERF_OBJ_FILE);
	other = perf_data_object(d, &names, "/nonexistent/lib.so", 19,
				 PERF_OBJ_FILE);

	/* listed, never started */
	pl = perf_preload_new(&o, true);
	perf_preload_listed(pl, &names, d, ob);
	perf_preload_finish(pl);
	assert_null(perf_preload_take(pl, ob, BINARY));
	perf_preload_free(pl);

	/* listed, the helper started by another object, then given a
	 * frame itself: one load, taken once */
	pl = perf_preload_new(&o, true);
	perf_preload_listed(pl, &names, d, ob);
	perf_preload_listed(pl, &names, d, ob);
	perf_preload_object(pl, &names, d, other);
	perf_preload_object(pl, &names, d, ob);
	perf_preload_finish(pl);
	st = perf_preload_take(pl, ob, BINARY);
	assert_non_null(st);
	assert_true(st->nsyms > 0);
	assert_null(perf_preload_take(pl, ob, BINARY));
	symtab_release(st);
	free(st);
	perf_preload_free(pl);

	perf_data_free(d);
	names_release(&names);
	arena_release(&arena);
}

/* No processor free when the first object comes: nothing starts, and
 * the objects given a frame meanwhile wait; asked again
 * (perf_preload_reading()) while none is, still nothing; once one is,
 * the helper starts with them and they are loaded. */
static void test_preload_asked_again(void **state)
{
	struct resolve_opts o;
	struct perf_preload *pl;
	struct perf_data *d = perf_data_new();
	struct arena arena;
	struct names names;
	struct symtab *st;
	uint32_t ob, other;

	(void)state;
	memset(&o, 0, sizeof(o));
	arena_init(&arena);
	names_init(&names, &arena);
	other = perf_data_object(d, &names, "/nonexistent/lib.so", 19,
				 PERF_OBJ_FILE);
	ob = perf_data_object(d, &names, BINARY, strlen(BINARY),
			      PERF_OBJ_FILE);

	/* never a processor: nothing is loaded ahead */
	spare_cpu_assume(0);
	pl = perf_preload_new(&o, false);
	perf_preload_object(pl, &names, d, other);
	perf_preload_object(pl, &names, d, ob);
	perf_preload_reading(pl);
	perf_preload_finish(pl);
	assert_null(perf_preload_take(pl, ob, BINARY));
	perf_preload_free(pl);

	/* one comes free after both objects were seen */
	pl = perf_preload_new(&o, false);
	perf_preload_object(pl, &names, d, other);
	perf_preload_object(pl, &names, d, ob);
	perf_preload_reading(pl);
	spare_cpu_assume(1);
	perf_preload_reading(pl);
	perf_preload_finish(pl);
	st = perf_preload_take(pl, ob, BINARY);
	assert_non_null(st);
	assert_true(st->nsyms > 0);
	symtab_release(st);
	free(st);
	perf_preload_free(pl);
	spare_cpu_assume(-1);

	perf_data_free(d);
	names_release(&names);
	arena_release(&arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symtab_rename),
		cmocka_unit_test(test_preload_take),
		cmocka_unit_test(test_preload_bounded),
		cmocka_unit_test(test_preload_listed),
		cmocka_unit_test(test_preload_asked_again),
	};

	return cmocka_run_group_tests(tests, 0, NULL);
}
