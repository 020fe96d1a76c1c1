/*
 * short_names.c: what a name becomes at each level, and that names
 * which would look alike keep more.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "print/linebuf.h"
#include "print/short_names.h"

static void check(const char *name, int level, const char *want)
{
	char buf[1024];

	buf[shorten_name(name, strlen(name), level, buf)] = '\0';
	assert_string_equal(buf, want);
}

static void test_levels(void **state)
{
	const char *vec = "std::vector<int, std::allocator<int> >::push_back(int const&)";

	(void)state;
	check(vec, SHORT_TEMPLATES, "std::vector<...>::push_back(...)");
	/* "<int>" is as short as "<...>" */
	check(vec, SHORT_NESTED, "std::vector<int, std::allocator<int> >::push_back(...)");
	check("std::map<std::string, std::vector<std::pair<long, long> > >::find(k)",
	      SHORT_NESTED, "std::map<std::string, std::vector<...> >::find(k)");
	check(vec, SHORT_PARAMS, "std::vector<int, std::allocator<int> >::push_back(...)");
	check(vec, SHORT_NONE, vec);
	/* short names stay whole; operators are no brackets */
	check("f(int)", SHORT_TEMPLATES, "f(int)");
	check("bool operator<<(std::basic_ostream<char, std::char_traits<char> >&, a)",
	      SHORT_TEMPLATES, "bool operator<<(...)");
	/* unpaired brackets: shown whole */
	check("a_long_function_name_with_a_stray<bracket_in_it(void)", SHORT_TEMPLATES,
	      "a_long_function_name_with_a_stray<bracket_in_it(void)");
}

static const char *const names[] = {
	"ns::long_function_name_for_testing(std::vector<int, std::allocator<int> > const&)",
	"ns::long_function_name_for_testing(std::map<int, int, std::less<int> > const&)",
	"ns::another_rather_long_function_name(std::string const&, int, int)",
};

static char *make(void *ctx, uint32_t n, int level)
{
	char *s = malloc(strlen(names[n]) + 1);

	(void)ctx;
	assert_non_null(s);
	s[shorten_name(names[n], strlen(names[n]), level, s)] = '\0';
	return s;
}

static void test_unique(void **state)
{
	uint32_t nodes[] = { 0, 1, 2 };
	char *label[3];

	(void)state;
	unique_short_labels(label, nodes, 3, SHORT_NONE, make, NULL, 3);
	/* the two overloads would look alike at every shorter level
	 * (parameters are cut at each): they stay whole; the third is cut
	 * all the way */
	assert_string_equal(label[0], names[0]);
	assert_string_equal(label[1], names[1]);
	assert_string_equal(label[2], "ns::another_rather_long_function_name(...)");
	for (int i = 0; i < 3; i++)
		free(label[i]);
}

/* Labels by node and level, some with a "\0" inside (read up to it). */
struct text {
	const char *s;
	size_t len;
};
#define T(x) { x, sizeof(x) - 1 }
static const struct text texts[5][3] = {
	{ T("a"), T("b"), T("c") },
	{ T("a"), T("x"), T("y") },
	/* its first level is node 0's second */
	{ T("b"), T("z"), T("w") },
	/* alike as C strings at every level */
	{ T("q\0one"), T("same"), T("s2") },
	{ T("q\0two"), T("same"), T("s2\0!") },
};

static int calls[5][3];

static void text(void *ctx, uint32_t n, int level, struct linebuf *lb)
{
	(void)ctx;
	calls[n][level]++;
	lb_putn(lb, texts[n][level].s, texts[n][level].len);
}

static void test_levels_only(void **state)
{
	uint32_t nodes[] = { 4, 2, 0, 3, 1 };
	uint8_t level[6] = { 9, 9, 9, 9, 9, 9 };

	(void)state;
	unique_short_levels(level, nodes, 5, 2, text, NULL, 6);
	/* 0 and 1 alike at 0; then 0 at 1 is 2 at 0; 3 and 4 stop at the
	 * last level allowed, still alike */
	assert_int_equal(level[0], 2);
	assert_int_equal(level[1], 1);
	assert_int_equal(level[2], 1);
	assert_int_equal(level[3], 2);
	assert_int_equal(level[4], 2);
	/* not a node: untouched */
	assert_int_equal(level[5], 9);
	/* the texts are made again, never kept: a few times each */
	for (int n = 0; n < 5; n++)
		for (int l = 0; l < 3; l++)
			assert_true(calls[n][l] <= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_unique),
		cmocka_unit_test(test_levels_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
