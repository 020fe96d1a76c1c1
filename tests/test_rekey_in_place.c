/*
 * profile_rekey() in place (src/profile/profile_rekey_in_place.c): where
 * it goes, the profile must be what the rebuild makes of the same one,
 * field by field; where the new identities would merge functions or
 * move a position, it must leave the profile alone for the rebuild.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/profile.h"
#include "profile/profile_rekey.h"

enum { A, B, C, D };	/* "0x1160", "frame_dummy", "main", "helper" */

static name_id intern(struct profile *p, const char *s)
{
	return names_intern(&p->names, s, strlen(s));
}

static void add_call(struct profile *p, uint32_t from, uint32_t to,
		     uint64_t count, uint64_t incl, uint32_t pos)
{
	uint32_t c = profile_call(p, from, to), cs;

	profile_call_set_count(p, c, count);
	profile_call_incl(p, c)[0] = incl;
	if (pos == NO_ID)
		return;
	cs = profile_callsite(p, pos, c);
	p->callsites[cs].count = count;
	profile_callsite_incl(p, cs)[0] = incl;
}

/*
 * Four functions with costs, lines, positions, call sites and a jump;
 * arcs with a count past 2^31, and three of no calls and no cost (one
 * with a call site, one whose count was past 2^31), which the
 * rekeying drops; packed as
 * profile_finish() leaves them, or not, as a reader leaves them.
 */
static void build(struct profile *p, bool packed)
{
	uint32_t pa, pc, pd, big;
	struct pjump j = { 0 };

	profile_init(p);
	profile_event(p, intern(p, "Ir"));
	profile_func(p, NO_NAME, NO_NAME, intern(p, "0x1160"));
	profile_func(p, NO_NAME, intern(p, "a.c"), intern(p, "frame_dummy"));
	profile_func(p, NO_NAME, intern(p, "a.c"), intern(p, "main"));
	profile_func(p, NO_NAME, intern(p, "b.c"), intern(p, "helper"));
	for (uint32_t f = A; f <= D; f++)
		profile_self(p, f)[0] = 10 + f;
	profile_set_func_line(p, C, 7);
	pa = profile_pos(p, A, NO_NAME, 0, 0x1160);
	/* the same instruction, on a line: as crt.c:9 */
	profile_pos_cost(p, profile_pos(p, A, intern(p, "crt.c"), 9, 0x1160))[0] = 1;
	pc = profile_pos(p, C, intern(p, "a.c"), 8, 0x1200);
	pd = profile_pos(p, D, intern(p, "b.c"), 3, 0x1300);
	profile_pos_cost(p, pa)[0] = 10;
	profile_pos_cost(p, pc)[0] = 12;
	profile_pos_cost(p, pd)[0] = 13;
	add_call(p, C, A, 1, 10, pc);
	add_call(p, C, B, 0, 0, pc);		/* empty, with a call site */
	add_call(p, C, D, (uint64_t)1 << 33, 13, pc);
	add_call(p, D, B, 0, 0, NO_ID);		/* empty */
	add_call(p, A, D, 0, 5, pa);		/* no calls, a cost: kept */
	/* empty too, its count in big_counts[] */
	big = profile_call(p, D, A);
	profile_call_set_count(p, big, (uint64_t)1 << 32);
	profile_call_set_count(p, big, 0);
	j.from = pd;
	j.to_file = intern(p, "b.c");
	j.to_line = 4;
	j.to_addr = 0x1310;
	j.executed = 5;
	j.followed = 2;
	j.conditional = true;
	profile_add_jump(p, &j);
	if (packed)
		profile_pack_incl(p);
}

static struct pfunc *idents(const struct profile *p)
{
	struct pfunc *ident = calloc(p->nfuncs, sizeof(*ident));

	memcpy(ident, p->funcs, p->nfuncs * sizeof(*ident));
	return ident;
}

static uint32_t *lines(const struct profile *p)
{
	uint32_t *line = calloc(p->nfuncs, sizeof(*line));

	for (uint32_t f = 0; f < p->nfuncs; f++)
		line[f] = profile_func_line(p, f);
	return line;
}

/* p and q hold the same functions, arcs, positions, sites and jumps. */
static void assert_same(const struct profile *p, const struct profile *q)
{
	assert_int_equal(p->nfuncs, q->nfuncs);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		assert_memory_equal(&p->funcs[f], &q->funcs[f], sizeof(p->funcs[f]));
		assert_int_equal(profile_self(p, f)[0], profile_self(q, f)[0]);
		assert_int_equal(profile_func_line(p, f), profile_func_line(q, f));
	}
	assert_int_equal(p->ncalls, q->ncalls);
	for (uint32_t c = 0; c < p->ncalls; c++) {
		assert_int_equal(p->calls[c].caller, q->calls[c].caller);
		assert_int_equal(p->calls[c].callee, q->calls[c].callee);
		assert_int_equal(profile_call_count(p, c), profile_call_count(q, c));
		assert_int_equal(profile_call_incl_at(p, c, 0),
				 profile_call_incl_at(q, c, 0));
	}
	assert_int_equal(p->npos, q->npos);
	for (uint32_t i = 0; i < p->npos; i++) {
		assert_memory_equal(&p->pos[i], &q->pos[i], sizeof(p->pos[i]));
		assert_int_equal(profile_pos_cost(p, i)[0], profile_pos_cost(q, i)[0]);
	}
	assert_int_equal(p->ncallsites, q->ncallsites);
	for (uint32_t i = 0; i < p->ncallsites; i++) {
		assert_int_equal(p->callsites[i].pos, q->callsites[i].pos);
		assert_int_equal(p->callsites[i].call, q->callsites[i].call);
		assert_int_equal(p->callsites[i].count, q->callsites[i].count);
		assert_int_equal(profile_callsite_incl(p, i)[0],
				 profile_callsite_incl(q, i)[0]);
	}
	assert_int_equal(p->njumps, q->njumps);
	for (uint32_t i = 0; i < p->njumps; i++)
		assert_memory_equal(&p->jumps[i], &q->jumps[i], sizeof(p->jumps[i]));
}

/* Rekeyed in place and by rebuilding, the same; rename() changes the
 * identities (and lines) both get. */
static void check_as_rebuilt(bool packed,
			     void (*rename)(struct profile *, struct pfunc *,
					    uint32_t *, struct ppos *))
{
	struct profile p, q;
	struct pfunc *ident;
	struct ppos *pos;
	uint32_t *line, map[4], qmap[4];

	build(&p, packed);
	build(&q, packed);
	ident = idents(&p);
	line = lines(&p);
	pos = calloc(p.npos, sizeof(*pos));
	memcpy(pos, p.pos, p.npos * sizeof(*pos));
	rename(&p, ident, line, pos);
	assert_true(profile_rekey_in_place(&p, ident, line, pos, map));
	profile_rekey_rebuild(&q, ident, line, pos, qmap);
	/* the positions' table built again finds them where they are */
	for (uint32_t i = 0; i < p.npos; i++)
		assert_int_equal(profile_pos_as_is(&p, p.pos[i].func, p.pos[i].file,
						   p.pos[i].line, p.pos[i].addr,
						   p.pos[i].region), i);
	free(pos);
	assert_same(&p, &q);
	assert_memory_equal(map, qmap, sizeof(map));
	free(ident);
	free(line);
	profile_release(&p);
	profile_release(&q);
}

static void rename_nothing(struct profile *p, struct pfunc *ident,
			   uint32_t *line, struct ppos *pos)
{
	(void)p;
	(void)ident;
	(void)line;
	(void)pos;
}

/* what -b does: 0x1160 named, a file and a line given, and to its
 * position read without them another line of crt.c */
static void rename_some(struct profile *p, struct pfunc *ident, uint32_t *line,
			struct ppos *pos)
{
	pos[0].file = intern(p, "crt.c");
	pos[0].line = 8;
	ident[A].name = intern(p, "_init");
	ident[A].file = intern(p, "crt.c");
	line[A] = 3;
	line[D] = 2;
}

/* every name changed, none the same as another: as demangling does */
static void rename_all(struct profile *p, struct pfunc *ident, uint32_t *line,
		       struct ppos *pos)
{
	(void)line;
	(void)pos;
	/* main's identity, which main leaves for another */
	ident[A].name = p->funcs[C].name;
	ident[A].file = p->funcs[C].file;
	ident[B].name = intern(p, "fd()");
	ident[C].name = intern(p, "main()");
	ident[D].name = intern(p, "helper()");
}

static void test_nothing_renamed(void **state)
{
	(void)state;
	check_as_rebuilt(false, rename_nothing);
	check_as_rebuilt(true, rename_nothing);
}

static void test_some_renamed(void **state)
{
	(void)state;
	check_as_rebuilt(false, rename_some);
	check_as_rebuilt(true, rename_some);
}

static void test_all_renamed(void **state)
{
	(void)state;
	check_as_rebuilt(true, rename_all);
}

/* The empty arcs go with their call site; the others keep their order,
 * and are found again by their fields and by (position, arc). */
static void test_empty_arcs_dropped(void **state)
{
	struct profile p;
	struct pfunc *ident;
	uint32_t c, pc, sites;

	(void)state;
	build(&p, true);
	assert_int_equal(p.ncalls, 6);
	assert_int_equal(p.ncallsites, 4);
	ident = idents(&p);
	assert_true(profile_rekey_in_place(&p, ident, NULL, NULL, NULL));
	free(ident);
	assert_int_equal(p.ncalls, 3);
	assert_int_equal(p.calls[0].callee, A);
	assert_int_equal(p.calls[1].callee, D);
	assert_int_equal(profile_call_count(&p, 1), (uint64_t)1 << 33);
	assert_int_equal(p.calls[2].caller, A);
	assert_int_equal(profile_call_incl_at(&p, 2, 0), 5);
	assert_int_equal(p.ncallsites, 3);
	c = profile_call(&p, C, D);
	assert_int_equal(c, 1);
	assert_int_equal(p.ncalls, 3);
	pc = p.callsites[1].pos;
	sites = (uint32_t)p.ncallsites;
	assert_int_equal(profile_callsite(&p, pc, c), 1);
	assert_int_equal(p.ncallsites, sites);
	/* an arc new after it is added after the others */
	assert_int_equal(profile_call(&p, D, B), 3);
	profile_release(&p);
}

/* A name another function has (0x1160 is frame_dummy), or two renamed
 * to one: merged, which the rebuild does; the profile is left alone. */
static void test_merge_left_to_rebuild(void **state)
{
	struct profile p;
	struct pfunc *ident;

	(void)state;
	build(&p, true);
	ident = idents(&p);
	ident[A].name = p.funcs[B].name;
	ident[A].file = p.funcs[B].file;
	assert_false(profile_rekey_in_place(&p, ident, NULL, NULL, NULL));
	assert_int_equal(p.nfuncs, 4);
	assert_int_equal(p.ncalls, 6);
	assert_int_equal(p.funcs[A].name, intern(&p, "0x1160"));
	/* the merge itself, by profile_rekey() */
	profile_rekey(&p, ident, NULL, NULL, NULL);
	assert_int_equal(p.nfuncs, 3);
	assert_int_equal(profile_self(&p, 0)[0], 10 + 11);
	free(ident);
	profile_release(&p);

	build(&p, false);
	ident = idents(&p);
	ident[C].name = ident[D].name = intern(&p, "same");
	ident[C].file = ident[D].file;
	assert_false(profile_rekey_in_place(&p, ident, NULL, NULL, NULL));
	assert_int_equal(p.funcs[C].name, intern(&p, "main"));
	profile_rekey(&p, ident, NULL, NULL, NULL);
	assert_int_equal(p.nfuncs, 3);
	free(ident);
	profile_release(&p);
}

/* A position given the file and line another position of its function
 * and address has becomes that one: left to the rebuild, which merges
 * the two. Two given the same, alike. */
static void test_position_merge_left_to_rebuild(void **state)
{
	struct profile p;
	struct pfunc *ident;
	struct ppos *pos;

	(void)state;
	build(&p, false);
	ident = idents(&p);
	pos = calloc(p.npos, sizeof(*pos));
	memcpy(pos, p.pos, p.npos * sizeof(*pos));
	assert_int_equal(p.npos, 4);
	pos[0].file = pos[1].file;
	pos[0].line = pos[1].line;
	assert_false(profile_rekey_in_place(&p, ident, NULL, pos, NULL));
	assert_int_equal(p.ncalls, 6);
	assert_int_equal(p.pos[0].line, 0);
	profile_rekey(&p, ident, NULL, pos, NULL);
	assert_int_equal(p.npos, 3);
	assert_int_equal(p.pos[0].line, 9);
	assert_int_equal(profile_pos_cost(&p, 0)[0], 10 + 1);
	assert_int_equal(p.ncalls, 3);
	free(pos);
	free(ident);
	profile_release(&p);

	/* one moved to another function; two given one line */
	build(&p, false);
	pos = calloc(p.npos, sizeof(*pos));
	memcpy(pos, p.pos, p.npos * sizeof(*pos));
	ident = idents(&p);
	pos[2].func = pos[3].func;
	assert_false(profile_rekey_in_place(&p, ident, NULL, pos, NULL));
	pos[2].func = p.pos[2].func;
	assert_true(p.pos[0].addr == p.pos[1].addr);
	pos[0].line = pos[1].line = 7;
	pos[0].file = pos[1].file;
	assert_false(profile_rekey_in_place(&p, ident, NULL, pos, NULL));
	assert_int_equal(p.pos[1].line, 9);
	free(pos);
	free(ident);
	profile_release(&p);
}

/*
 * A profile of whole stacks (call_self): main > work (3 of its own) >
 * an address of work (5), resolved to work. The 5 were spent in work
 * called from main, which only the stacks knew: the exact split is
 * dropped (the ratio then), not left saying main -> work spent 3 of 8
 * itself. Two arcs merged into one other arc add their self parts.
 */
static void test_merge_into_self_call(void **state)
{
	struct profile p;
	struct pfunc *ident;
	uint32_t c;

	(void)state;
	profile_init(&p);
	profile_event(&p, intern(&p, "ticks"));
	profile_func(&p, NO_NAME, NO_NAME, intern(&p, "main"));
	profile_func(&p, NO_NAME, NO_NAME, intern(&p, "work"));
	profile_func(&p, NO_NAME, NO_NAME, intern(&p, "0x12b5"));
	profile_want_call_self(&p);
	add_call(&p, 0, 1, 8, 8, NO_ID);
	add_call(&p, 1, 2, 5, 5, NO_ID);
	profile_call_self(&p, 0)[0] = 3;
	profile_call_self(&p, 1)[0] = 5;
	ident = idents(&p);
	ident[2].name = ident[1].name;
	profile_rekey(&p, ident, NULL, NULL, NULL);
	assert_int_equal(p.nfuncs, 2);
	assert_null(p.call_self);
	free(ident);
	profile_release(&p);

	/* main -> 0x12b5 and main -> work made one: 3 + 5 */
	profile_init(&p);
	profile_event(&p, intern(&p, "ticks"));
	profile_func(&p, NO_NAME, NO_NAME, intern(&p, "main"));
	profile_func(&p, NO_NAME, NO_NAME, intern(&p, "work"));
	profile_func(&p, NO_NAME, NO_NAME, intern(&p, "0x12b5"));
	profile_want_call_self(&p);
	add_call(&p, 0, 1, 3, 3, NO_ID);
	add_call(&p, 0, 2, 5, 5, NO_ID);
	profile_call_self(&p, 0)[0] = 3;
	profile_call_self(&p, 1)[0] = 5;
	ident = idents(&p);
	ident[2].name = ident[1].name;
	profile_rekey(&p, ident, NULL, NULL, NULL);
	assert_non_null(p.call_self);
	c = profile_call(&p, 0, 1);
	assert_int_equal(profile_call_self(&p, c)[0], 8);
	assert_int_equal(profile_call_incl(&p, c)[0], 8);
	free(ident);
	profile_release(&p);
}

/* A stack profile (func_incl) of main -> make -> C1 -> make -> C2, and
 * main -> other -> C3: C1 and C2 made one may share a stack (C1 reaches
 * C2 through make), which profile_rekey() says; C3 and C2 made one may
 * not, and C3 alone, nor functions of no cost. */
static uint32_t stacks_merged(uint32_t into, uint32_t from)
{
	struct profile p;
	struct pfunc *ident;
	const char *names[] = { "main", "make", "C1", "C2", "other", "C3",
				"unused", "unused2" };
	uint32_t twice;

	profile_init(&p);
	profile_event(&p, intern(&p, "ticks"));
	for (size_t f = 0; f < sizeof(names) / sizeof(*names); f++)
		profile_func(&p, NO_NAME, NO_NAME, intern(&p, names[f]));
	profile_want_func_extras(&p);
	for (uint32_t f = 0; f < 6; f++)
		profile_func_row(&p, p.func_incl, f)[0] = 4;
	add_call(&p, 0, 1, 3, 3, NO_ID);
	add_call(&p, 1, 2, 3, 3, NO_ID);
	add_call(&p, 2, 1, 2, 2, NO_ID);
	add_call(&p, 1, 3, 2, 2, NO_ID);
	add_call(&p, 0, 4, 1, 1, NO_ID);
	add_call(&p, 4, 5, 1, 1, NO_ID);
	add_call(&p, 6, 7, 0, 0, NO_ID);
	ident = idents(&p);
	ident[from].name = ident[into].name;
	twice = profile_rekey(&p, ident, NULL, NULL, NULL);
	if (twice != NO_ID)
		assert_int_equal(p.funcs[twice].name, intern(&p, names[into]));
	free(ident);
	profile_release(&p);
	return twice;
}

static void test_merge_on_one_stack(void **state)
{
	(void)state;
	assert_int_not_equal(stacks_merged(2, 3), NO_ID);
	assert_int_not_equal(stacks_merged(3, 2), NO_ID);
	assert_int_equal(stacks_merged(3, 5), NO_ID);
	assert_int_equal(stacks_merged(6, 7), NO_ID);
	/* an arc of main's callee made main's self-call: one stack */
	assert_int_not_equal(stacks_merged(0, 1), NO_ID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_renamed),
		cmocka_unit_test(test_some_renamed),
		cmocka_unit_test(test_all_renamed),
		cmocka_unit_test(test_empty_arcs_dropped),
		cmocka_unit_test(test_merge_left_to_rebuild),
		cmocka_unit_test(test_position_merge_left_to_rebuild),
		cmocka_unit_test(test_merge_into_self_call),
		cmocka_unit_test(test_merge_on_one_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
