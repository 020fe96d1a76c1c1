/*
 * IgProf's mangled names demangled after reading
 * (src/resolve/demangle_names.c): names, a constructor's two symbols
 * merged with their costs added, stacks and leaks following the merge,
 * and names that are not mangled left alone.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "resolve/demangle_names.h"

/* main calls the constructor by its C1 symbol and by its C2 symbol, and
 * make_points; "_Zbad" looks mangled and is not. */
static const char igprof_text[] =
	"P=(ID=1 N=(./cxx) T=0.01)\n"
	"C1 FN0=(F0=(./cxx)+100 N=(main))+1\n"
	"C2 FN1=(F0+200 N=(_ZN6sample5ShapeC1Ev))+2 V0=(PERF_TICKS):(3,3,3)\n"
	"C2 FN2=(F0+300 N=(_ZN6sample5ShapeC2Ev))+2 V0:(4,4,4)\n"
	"C2 FN3=(F0+400 N=(_ZN6sample11make_pointsEi))+2 V0:(5,5,5)\n"
	"C2 FN4=(F0+500 N=(_Zbad))+2 V0:(1,1,1)\n";

static void test_demangle(void **state)
{
	struct profile p;
	char *diag;
	uint32_t shape, make, bad;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_text(&p, igprof_text, -1, &(struct read_opts){ 0 },
				   &diag), 0);
	free(diag);
	assert_int_equal(p.nfuncs, 5);
	assert_int_equal(demangle_names(&p), 3);
	profile_finish(&p);
	/* C1 and C2 are one function now, of both costs */
	assert_int_equal(p.nfuncs, 4);
	shape = find_func(&p, "sample::Shape::Shape()");
	make = find_func(&p, "sample::make_points(int)");
	bad = find_func(&p, "_Zbad");
	assert_int_not_equal(shape, NO_ID);
	assert_int_not_equal(make, NO_ID);
	assert_int_not_equal(bad, NO_ID);
	assert_int_equal(find_func(&p, "_ZN6sample5ShapeC1Ev"), NO_ID);
	assert_int_equal(profile_self(&p, shape)[0], 7);
	assert_int_equal(profile_self(&p, make)[0], 5);
	assert_int_equal(profile_self(&p, bad)[0], 1);
	/* the two calls are one arc, of both counts */
	assert_int_not_equal(find_call(&p, "main", "sample::Shape::Shape()"), NO_ID);
	/* nothing left to demangle: nothing renamed */
	assert_int_equal(demangle_names(&p), 0);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
