/*
 * resolve/names_ahead.c: symbols' names made ahead on two threads at
 * once, each symbol by one of them, and put into their tables: the
 * names symtab_name() makes on one thread. On the committed C++ PIE of
 * tests/resolve/ and a stripped copy (its "prog+0xADDR" CFI functions).
 */
#include "helpers.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "resolve/names_ahead.h"
#include "symtab/symtab.h"

#define PROG "tests/resolve/cxx-O2/prog"

struct claimer {
	struct names_ahead *na;
	const struct symtab *st;
	const struct names *shared;
	unsigned t;
};

/* Every symbol claimed, the second thread from the end back, so that
 * the two meet in the middle and both try the same ones. */
static void *claim_all(void *arg)
{
	struct claimer *c = arg;
	size_t n = c->st->nsyms;

	names_ahead_wait(c->na);
	for (size_t i = 0; i < n; i++) {
		size_t k = c->t ? n - 1 - i : i;

		names_ahead_claim(c->na, c->t, c->st, &c->st->syms[k],
				  c->shared);
	}
	return NULL;
}

/* Table path opened with names of its own and named ahead by two
 * threads; the same names as a table named one symbol at a time.
 * Returns how many were made ahead. */
static size_t named_ahead(const char *path)
{
	struct symtab_opts later = { .demangle = true, .no_dwarf = true,
				     .names_later = true };
	struct arena arena, own_arena;
	struct names names, own;
	struct symtab ref, st;
	struct names_ahead na;
	struct claimer c[2];
	pthread_t second;
	size_t made;

	arena_init(&arena);
	names_init(&names, &arena);
	arena_init(&own_arena);
	names_init(&own, &own_arena);
	assert_int_equal(symtab_open(&ref, path, &later, &names), 0);
	assert_int_equal(symtab_open(&st, path, &later, &own), 0);
	assert_int_equal(ref.nsyms, st.nsyms);
	names_ahead_init(&na);
	for (unsigned t = 0; t < 2; t++)
		c[t] = (struct claimer){ &na, &st, &names, t };
	assert_int_equal(pthread_create(&second, NULL, claim_all, &c[1]), 0);
	names_ahead_quiet(&na);
	claim_all(&c[0]);
	assert_int_equal(pthread_join(second, NULL), 0);
	made = na.n[0] + na.n[1];
	names_ahead_put(&na);
	for (size_t i = 0; i < st.nsyms; i++) {
		assert_int_equal(st.syms[i].names_later, 0);
		assert_string_equal(
			names_str(&own, symtab_name(&st, &st.syms[i], true)),
			names_str(&names, symtab_name(&ref, &ref.syms[i], true)));
		assert_string_equal(
			names_str(&own, symtab_name(&st, &st.syms[i], false)),
			names_str(&names,
				  symtab_name(&ref, &ref.syms[i], false)));
	}
	names_ahead_release(&na);
	symtab_release(&st);
	symtab_release(&ref);
	names_release(&own);
	arena_release(&own_arena);
	names_release(&names);
	arena_release(&arena);
	return made;
}

static void test_two_threads(void **state)
{
	/* the stripped copy over a temporary file (write_temp()) */
	char *stripped = write_temp("", 0), cmd[8500];

	(void)state;
	assert_true(named_ahead(PROG) > 0);
	snprintf(cmd, sizeof(cmd), "objcopy --strip-all '%s' '%s'", PROG,
		 stripped);
	assert_int_equal(system(cmd), 0);
	assert_true(named_ahead(stripped) > 0);
	remove_temp(stripped);
}

/* A table sharing the profile's names is left to the walk; a claim not
 * put is freed. */
static void test_shared_and_left(void **state)
{
	struct symtab_opts later = { .demangle = true, .no_dwarf = true,
				     .names_later = true };
	struct arena arena;
	struct names names;
	struct symtab st;
	struct names_ahead na;
	size_t later_syms = 0;

	(void)state;
	arena_init(&arena);
	names_init(&names, &arena);
	assert_int_equal(symtab_open(&st, PROG, &later, &names), 0);
	names_ahead_init(&na);
	names_ahead_quiet(&na);
	names_ahead_quiet(&na);
	names_ahead_wait(&na);
	for (size_t i = 0; i < st.nsyms; i++) {
		later_syms += st.syms[i].names_later != 0;
		names_ahead_claim(&na, 0, &st, &st.syms[i], &names);
	}
	assert_true(later_syms > 0);
	assert_int_equal(na.n[0], 0);
	/* claimed with no table shared, then released without a put */
	for (size_t i = 0; i < st.nsyms; i++)
		names_ahead_claim(&na, 1, &st, &st.syms[i], NULL);
	assert_int_equal(na.n[1], later_syms);
	names_ahead_release(&na);
	symtab_release(&st);
	names_release(&names);
	arena_release(&arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_shared_and_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
