/*
 * inline_chain.c: the short names of an inline chain, as --disasm and
 * the report print them ("norm2 <- operator() at prog.cpp:65"), against
 * what addr2line -f -i -C names the same frames.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/names.h"
#include "print/inline_chain.h"

static const struct {
	const char *name, *want;
} cases[] = {
	{ "fib", "fib" },
	{ "fib(int)", "fib" },
	{ "foo<int>", "foo" },
	{ "ns::bar<int>(int)", "bar" },
	/* a method's qualifiers (were shown as "const") */
	{ "sample::Point::norm2() const", "norm2" },
	{ "Matrix<double>::mul(Matrix<double> const&) const", "mul" },
	{ "S::get() const &&", "get" },
	{ "S::f() noexcept", "f" },
	/* GCC's clones */
	{ "void std::__introsort_loop<int*, long>(int*, int*, long) "
	  "[clone .isra.0]", "__introsort_loop" },
	{ "helper(int) [clone .part.0] [clone .cold]", "helper" },
	/* an operator keeps its symbol (a lambda's was "operator") */
	{ "operator()", "operator()" },
	{ "sample::sort_points(std::vector<Point>&)::{lambda(sample::Point "
	  "const&, sample::Point const&)#1}::operator()(sample::Point const&, "
	  "sample::Point const&) const", "operator()" },
	{ "bool __gnu_cxx::__ops::_Iter_comp_iter<L>::operator()<P, P>(P, P)",
	  "operator()" },
	{ "bool operator<(Point const&, Point const&)", "operator<" },
	{ "std::istream& operator>>(std::istream&, X&)", "operator>>" },
	{ "std::vector<int>::operator[](unsigned long)", "operator[]" },
	{ "X::operator->() const", "operator->" },
	{ "sample::Point& std::vector<sample::Point>::emplace_back<"
	  "sample::Point>(sample::Point&&)", "emplace_back" },
};

static char *chain(struct names *n, const char *name)
{
	struct frame fr = { .func = names_intern(n, name, strlen(name)),
			    .file = NO_NAME };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	inline_chain_put(f, n, &fr, 1);
	fclose(f);
	return buf;
}

static void test_short_names(void **state)
{
	struct arena a;
	struct names n;

	(void)state;
	arena_init(&a);
	names_init(&n, &a);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = chain(&n, cases[i].name);

		if (strcmp(got, cases[i].want))
			fail_msg("'%s': '%s', want '%s'", cases[i].name, got,
				 cases[i].want);
		free(got);
	}
	names_release(&n);
	arena_release(&a);
}

static void test_chain(void **state)
{
	struct arena a;
	struct names n;
	struct frame fr[2] = { { .file = NO_NAME } };
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	(void)state;
	arena_init(&a);
	names_init(&n, &a);
	fr[0].func = names_intern(&n, "sample::Point::norm2() const", 28);
	fr[1].func = names_intern(&n, "operator()", 10);
	fr[1].file = names_intern(&n, "/src/prog.cpp", 13);
	fr[1].line = 65;
	f = open_memstream(&buf, &size);
	assert_non_null(f);
	inline_chain_put(f, &n, fr, 2);
	fclose(f);
	assert_string_equal(buf, "norm2 <- operator() at prog.cpp:65");
	free(buf);
	names_release(&n);
	arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
