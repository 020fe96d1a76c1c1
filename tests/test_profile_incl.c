/* The arcs' inclusive costs packed by profile_finish() (profile_incl.c):
 * every number read back the same, big ones too, a profile added to
 * after it unpacked again, and one added to while packed. */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"

/* A profile of two events and three arcs, some costs past 2^31. */
static void make(struct profile *p, uint32_t call[3])
{
	static const uint64_t want[3][2] = {
		{ 0, 1 }, { 0x7fffffff, 0x80000000 }, { UINT64_MAX, 12345 },
	};
	uint32_t f[4];

	profile_init(p);
	profile_event(p, names_intern(&p->names, "Ir", 2));
	profile_event(p, names_intern(&p->names, "Dr", 2));
	for (int i = 0; i < 4; i++) {
		char name[2] = { (char)('a' + i), 0 };

		f[i] = profile_func(p, NO_NAME, NO_NAME,
				    names_intern(&p->names, name, 1));
	}
	for (int i = 0; i < 3; i++) {
		call[i] = profile_call(p, f[0], f[i + 1]);
		memcpy(profile_call_incl(p, call[i]), want[i], sizeof(want[i]));
	}
	p->calls_have_incl = true;
}

static void test_pack_reads_back(void **state)
{
	struct profile p;
	uint32_t c[3];
	uint64_t buf[2];
	const uint64_t *row;

	(void)state;
	make(&p, c);
	profile_finish(&p);
	assert_non_null(p.incl_packed);
	assert_null(p.call_incl);
	assert_int_equal(p.nbig_incl, 2);	/* 2^31 and 2^64 - 1 */
	assert_int_equal(profile_call_incl_at(&p, c[0], 0), 0);
	assert_int_equal(profile_call_incl_at(&p, c[0], 1), 1);
	assert_int_equal(profile_call_incl_at(&p, c[1], 0), 0x7fffffff);
	assert_int_equal(profile_call_incl_at(&p, c[1], 1), 0x80000000);
	assert_true(profile_call_incl_at(&p, c[2], 0) == UINT64_MAX);
	assert_int_equal(profile_call_incl_at(&p, c[2], 1), 12345);
	row = profile_call_incl_row(&p, c[2], buf);
	assert_ptr_equal(row, buf);
	assert_true(row[0] == UINT64_MAX);
	assert_int_equal(row[1], 12345);
	/* packing twice changes nothing */
	profile_pack_incl(&p);
	assert_int_equal(profile_call_incl_at(&p, c[1], 1), 0x80000000);
	profile_release(&p);
}

static void test_added_to_after_finish(void **state)
{
	struct profile p;
	uint32_t c[3], d;

	(void)state;
	make(&p, c);
	profile_finish(&p);
	/* a second file read in: its costs add to the unpacked rows */
	profile_call_incl(&p, c[1])[1] += 1;
	assert_null(p.incl_packed);
	assert_int_equal(profile_call_incl(&p, c[1])[1], 0x80000001);
	assert_true(profile_call_incl(&p, c[2])[0] == UINT64_MAX);
	assert_int_equal(profile_call_incl_row(&p, c[0], NULL)[1], 1);
	d = profile_call(&p, 3, 1);	/* a new arc, zero */
	assert_int_equal(profile_call_incl_at(&p, d, 0), 0);
	profile_finish(&p);
	assert_non_null(p.incl_packed);
	assert_int_equal(profile_call_incl_at(&p, c[1], 1), 0x80000001);
	assert_int_equal(profile_call_incl_at(&p, c[0], 1), 1);
	assert_int_equal(profile_call_incl_at(&p, d, 1), 0);
	/* an event added after widens, packed again */
	profile_event(&p, names_intern(&p.names, "Dw", 2));
	assert_non_null(p.incl_packed);
	assert_int_equal(profile_call_incl_at(&p, c[1], 1), 0x80000001);
	assert_int_equal(profile_call_incl_at(&p, c[1], 2), 0);
	profile_release(&p);
}

/* As the Callgrind reader adds: packed from the start, numbers growing
 * past 2^31 and 2^64 - 1, arcs and events added on the way. */
static void test_added_while_packed(void **state)
{
	struct profile p;
	uint32_t f[3], c[2];
	const uint32_t swap[2] = { 1, 0 };
	const uint64_t small[2] = { 5, 0x7ffffffe }, one[2] = { 1, 1 };
	const uint64_t huge[2] = { UINT64_MAX - 2000, 0 };

	(void)state;
	profile_init(&p);
	profile_pack_incl(&p);
	assert_non_null(p.incl_packed);
	profile_event(&p, names_intern(&p.names, "Ir", 2));
	profile_event(&p, names_intern(&p.names, "Dr", 2));
	for (int i = 0; i < 3; i++) {
		char name[2] = { (char)('a' + i), 0 };

		f[i] = profile_func(&p, NO_NAME, NO_NAME,
				    names_intern(&p.names, name, 1));
	}
	for (int i = 0; i < 2000; i++) {	/* grown past its first room */
		c[0] = profile_call(&p, f[0], f[1]);
		c[1] = profile_call(&p, f[1], f[2]);
		assert_true(profile_call_incl_add(&p, c[0], NULL, small, 2));
		assert_true(profile_call_incl_add(&p, c[1], swap, one, 2));
	}
	assert_non_null(p.incl_packed);
	assert_null(p.call_incl);
	assert_int_equal(profile_call_incl_at(&p, c[0], 0), 10000);
	assert_true(profile_call_incl_at(&p, c[0], 1) == 2000 * 0x7ffffffeULL);
	assert_int_equal(profile_call_incl_at(&p, c[1], 1), 2000);
	/* 2^64 - 1 is still a number, past it is not */
	assert_true(profile_call_incl_add(&p, c[1], NULL, huge, 2));
	assert_true(profile_call_incl_at(&p, c[1], 0) == UINT64_MAX);
	assert_false(profile_call_incl_add(&p, c[1], NULL, huge, 2));
	/* a new arc starts at zero, among grown rows */
	for (int i = 0; i < 3000; i++)
		profile_call(&p, f[2], f[(unsigned)i % 2]);
	assert_int_equal(profile_call_incl_at(&p, profile_call(&p, f[2], f[0]),
					      1), 0);
	/* an event added on the way widens, and it stays packed */
	profile_event(&p, names_intern(&p.names, "Dw", 2));
	assert_non_null(p.incl_packed);
	assert_true(profile_call_incl_at(&p, c[0], 1) == 2000 * 0x7ffffffeULL);
	assert_int_equal(profile_call_incl_at(&p, c[0], 2), 0);
	profile_finish(&p);
	assert_non_null(p.incl_packed);
	assert_int_equal(profile_call_incl_at(&p, c[0], 0), 10000);
	assert_true(profile_call_incl_at(&p, c[0], 1) == 2000 * 0x7ffffffeULL);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_reads_back),
		cmocka_unit_test(test_added_to_after_finish),
		cmocka_unit_test(test_added_while_packed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
