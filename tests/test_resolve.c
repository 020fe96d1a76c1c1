/*
 * Symbol resolution of a whole profile (src/resolve/resolve.c) on the real
 * sample: samples/recursion/prog and the instruction-level profile
 * valgrind made of it.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "resolve/resolve.h"

struct fixture {
	struct profile p;
	struct symtab st;
	struct symtab *stp;
	struct resolve_report rep;
	char *diag;
};

static void load(struct fixture *fx, const char *profile, const char *binary)
{
	struct read_opts ro = { .want_positions = true };
	struct symtab_opts so = { .demangle = true };

	memset(fx, 0, sizeof(*fx));
	profile_init(&fx->p);
	assert_int_equal(read_path(&fx->p, profile, &ro, &fx->diag), 0);
	free(fx->diag);
	diag_capture_begin();
	assert_int_equal(symtab_open(&fx->st, binary, &so, &fx->p.names), 0);
	fx->diag = diag_capture_end();
	fx->stp = &fx->st;
}

static int resolve(struct fixture *fx, const struct resolve_opts *o)
{
	int ret;

	free(fx->diag);
	diag_capture_begin();
	ret = resolve_profile(&fx->p, &fx->stp, 1, o, &fx->rep);
	fx->diag = diag_capture_end();
	return ret;
}

static void release(struct fixture *fx)
{
	symtab_release(&fx->st);
	profile_release(&fx->p);
	free(fx->diag);
}

static uint32_t func_in(const struct profile *p, const char *name,
			const char *object_suffix)
{
	for (size_t f = 0; f < p->nfuncs; f++) {
		const char *ob = profile_str(p, p->funcs[f].object);
		size_t n = strlen(ob), m = strlen(object_suffix);

		if (!strcmp(profile_str(p, p->funcs[f].name), name) && n >= m &&
		    !strcmp(ob + n - m, object_suffix))
			return (uint32_t)f;
	}
	return NO_ID;
}

/* valgrind names frame_dummy & co. "0x...": -b names them (Q6) */
static void test_names_from_addresses(void **state)
{
	struct fixture fx;
	struct resolve_opts o = { .demangle = true };
	uint64_t before = 0;

	(void)state;
	load(&fx, "samples/recursion/callgrind.instr.out", "samples/recursion/prog");
	before = fx.p.totals[0];
	assert_int_not_equal(func_in(&fx.p, "0x0000000000001170", "/prog"), NO_ID);
	assert_int_equal(resolve(&fx, &o), 0);
	assert_int_equal(func_in(&fx.p, "0x0000000000001170", "/prog"), NO_ID);
	assert_int_not_equal(func_in(&fx.p, "frame_dummy", "/prog"), NO_ID);
	assert_int_not_equal(func_in(&fx.p, "deregister_tm_clones", "/prog"), NO_ID);
	assert_int_equal(fx.rep.load_offset, 0);
	assert_int_equal(fx.rep.outside, 0);
	assert_true(fx.rep.addresses > 200);
	assert_int_equal(fx.rep.named, fx.rep.named_found);
	/* nothing is lost on the way */
	profile_finish(&fx.p);
	assert_int_equal(fx.p.totals[0], before);
	/* other objects keep their names */
	assert_int_not_equal(func_in(&fx.p, "0x000000000001ab70", "ld-linux-x86-64.so.2"),
			     NO_ID);
	release(&fx);
}

/* Runtime addresses (as other profilers write them): the offset is
 * found from where named functions start. */
static void test_offset_found(void **state)
{
	struct fixture fx;
	struct resolve_opts o = { .demangle = true };
	uint32_t prog_fn;
	name_id ob;

	(void)state;
	load(&fx, "samples/recursion/callgrind.instr.out", "samples/recursion/prog");
	prog_fn = func_in(&fx.p, "work", "/prog");
	assert_int_not_equal(prog_fn, NO_ID);
	ob = fx.p.funcs[prog_fn].object;
	for (size_t i = 0; i < fx.p.npos; i++)
		if (fx.p.pos[i].addr && fx.p.funcs[fx.p.pos[i].func].object == ob)
			fx.p.pos[i].addr += 0x555555554000ULL;
	assert_int_equal(resolve(&fx, &o), 0);
	assert_int_equal(fx.rep.load_offset, 0x555555554000ULL);
	assert_int_equal(fx.rep.outside, 0);
	assert_non_null(strstr(fx.rep.offset_reason, "named functions start"));
	release(&fx);
}

static void test_wrong_binary_refused(void **state)
{
	struct fixture fx;
	struct resolve_opts o = { .demangle = true };

	(void)state;
	load(&fx, "samples/recursion/callgrind.instr.out", "tests/resolve/c-pie/prog");
	assert_int_equal(resolve(&fx, &o), -1);
	assert_non_null(strstr(fx.diag, "does not match the profile's"));
	release(&fx);
}

/* --inlined=callee: mix() from work.h gets the cost callgrind_annotate
 * shows as "work.h:work" (4800), through a 0-call arc from work, and
 * work's inclusive cost does not change. */
static void test_inlined_to_callee(void **state)
{
	struct fixture fx;
	struct resolve_opts o = { .demangle = true, .inlined = INLINE_CALLEE };
	uint32_t work, mix, arc;
	uint64_t work_self_before;

	(void)state;
	load(&fx, "samples/recursion/callgrind.instr.out", "samples/recursion/prog");
	work = func_in(&fx.p, "work", "/prog");
	work_self_before = profile_self(&fx.p, work)[0];
	assert_int_equal(resolve(&fx, &o), 0);
	work = func_in(&fx.p, "work", "/prog");
	mix = func_in(&fx.p, "mix", "/prog");
	assert_int_not_equal(mix, NO_ID);
	assert_int_equal(profile_self(&fx.p, mix)[0], 4800);
	assert_int_equal(profile_self(&fx.p, work)[0] + 4800, work_self_before);
	arc = find_call(&fx.p, "work", "mix");
	assert_int_not_equal(arc, NO_ID);
	assert_int_equal(profile_call_count(&fx.p, arc), 0);
	assert_int_equal(profile_call_incl_at(&fx.p, arc, 0), 4800);
	assert_true(fx.rep.inlined_moved > 0);
	release(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_from_addresses),
		cmocka_unit_test(test_offset_found),
		cmocka_unit_test(test_wrong_binary_refused),
		cmocka_unit_test(test_inlined_to_callee),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
