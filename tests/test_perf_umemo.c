/*
 * read/perf/perf_umemo.c: a thread's next sample takes the outer frames
 * of its last unwinding only when they hold for it. Unwinding A of
 * three frames (a leaf, its caller, the outermost, whose step reads
 * past the dump) is kept; sample B, a different leaf under the same
 * caller, takes the two outer frames, unless one word its steps read
 * differs in B's dump, the mappings changed between (another gen, a
 * time past a look-up's, another module reported), a register the
 * outer frames depend on differs, or the frame limit would cut them
 * elsewhere. A register they do not depend on may differ.
 */
#include "helpers.h"

#include <string.h>

#include "read/perf/perf_umemo.h"

#define SP_A 0x1000u
#define SP_B 0x0ff0u

/* The rows: rbx the callee's, the return address at CFA - 8, rsp the
 * CFA, which is rsp + 16 (the leaf's and its caller's) or rbp + 16 (the
 * outermost's: rbp then matters to the frames inside it, which carry
 * it). */
static struct cfi_row row_sp, row_bp;

static void rows(void)
{
	struct cfi_row r;

	memset(&r, 0, sizeof(r));
	r.rule[3] = CFI_SAME;
	r.rule[6] = CFI_SAME;
	r.rule[16] = CFI_AT;
	r.off[16] = -8;
	r.rule[7] = CFI_VAL;
	r.off[7] = 0;
	r.nsame = 2;
	r.nat = 1;
	r.nother = 1;
	r.nruled = 4;
	r.ruled[0] = 3;
	r.ruled[1] = 6;
	r.ruled[2] = 16;
	r.ruled[3] = 7;
	r.ra = 16;
	r.cfa_reg = 7;
	r.cfa_off = 16;
	row_sp = r;
	r.cfa_reg = 6;
	row_bp = r;
}

static struct perf_ustate state(uint64_t pc, uint64_t sp, bool initial)
{
	struct perf_ustate st;

	memset(&st, 0, sizeof(st));
	st.pc = pc;
	st.has_pc = true;
	st.initial = initial;
	st.set = initial ? (1u << CFI_NREGS) - 1
			 : (1u << 3 | 1u << 6 | 1u << 7 | 1u << 16);
	st.regs[0] = 0xaaaa;	/* rax: no frame depends on it */
	st.regs[3] = 0xb0b0;
	st.regs[6] = 0x5000;
	st.regs[7] = sp;
	st.regs[16] = pc;
	return st;
}

static const struct perf_unwind_where where_of = { 10, 1000, 4 };

/* The stack dump of a sample at sp: each frame's return address under
 * its caller's stack pointer; the dump ends before the outermost's. */
struct dump {
	unsigned char bytes[0x48];
	struct perf_udump d;
};

static void put_word(struct dump *dm, uint64_t addr, uint64_t v)
{
	memcpy(dm->bytes + (addr - dm->d.sp), &v, 8);
}

static void make_dump(struct dump *dm, uint64_t sp)
{
	memset(dm->bytes, 0, sizeof(dm->bytes));
	dm->d = (struct perf_udump){ dm->bytes, sp,
				     SP_A + 0x28 - sp, false };
	put_word(dm, SP_A + 0x08, 0x400200);	/* the leaf's return */
	put_word(dm, SP_A + 0x18, 0x400300);	/* its caller's */
}

/* An unwinding's frames, as perf_unwind.c keeps them for the memo. */
struct frames {
	struct perf_ustate st[4];
	struct perf_ustep how[4];
	const struct cfi_row *rows[4];
	bool exact[4];
	struct perf_unwind_where where[4];
	size_t n;
};

/* Frame st stepped as perf_unwind.c would: the word its step reads
 * (the return address at its CFA - 8) told, then it. */
static void step(struct frames *fr, struct perf_ureads *l,
		 const struct dump *dm, const struct perf_ustate *st,
		 const struct cfi_row *row, bool exact)
{
	uint64_t v = 0, cfa = st->regs[row->cfa_reg] + 16;
	enum perf_uread how = perf_udump_read(&dm->d, cfa - 8, &v);

	perf_ureads_add(l, cfa - 8, how, v);
	fr->st[fr->n] = *st;
	fr->how[fr->n] = (struct perf_ustep){ where_of.from, where_of.until,
					      (uint32_t)l->n,
					      how == UREAD_PAST };
	fr->rows[fr->n] = row;
	fr->exact[fr->n] = exact;
	fr->where[fr->n] = where_of;
	fr->n++;
}

static const struct perf_umemo_key key_a = { 1, 2, 100, 101, 7 };

/* Unwinding A kept: leaf at SP_A, its caller at + 0x10, the outermost
 * at + 0x20 (rbp + 16 its CFA, rbp SP_A + 0x20 there and in its
 * caller: its return address is read past the dump). */
static struct perf_umemo *unwound_a(void)
{
	struct perf_umemo *m = perf_umemo_new();
	struct frames fr = { .n = 0 };
	struct perf_ustate st;
	struct perf_ureads *l;
	uint64_t pcs[4];
	bool past;
	struct dump dm;

	rows();
	make_dump(&dm, SP_A);
	l = perf_umemo_begin(m, &key_a, &dm.d, 500, 127);
	st = state(0x400100, SP_A, true);
	assert_int_equal(perf_umemo_reuse(m, &st, 0, 2, pcs, fr.exact,
					  fr.where, &past),
			 0);
	step(&fr, l, &dm, &st, &row_sp, true);
	st = state(0x400200, SP_A + 0x10, false);
	st.regs[6] = SP_A + 0x20;
	step(&fr, l, &dm, &st, &row_sp, false);
	st = state(0x400300, SP_A + 0x20, false);
	st.regs[6] = SP_A + 0x20;
	step(&fr, l, &dm, &st, &row_bp, false);
	assert_true(perf_umemo_worth(m, 3));
	perf_umemo_keep(m, fr.rows, 3, fr.st, fr.how, fr.exact, fr.where,
			false, 2);
	return m;
}

/*
 * Sample B of the thread with key k, at time t: a leaf at SP_B (its pc
 * by t), then its caller (A's, with caller as its state): the frames
 * reuse gave (0: none), kept if any. dm may be changed by change
 * before.
 */
static size_t sample_b(struct perf_umemo *m, const struct perf_umemo_key *k,
		       uint64_t t, const struct perf_ustate *caller,
		       void (*change)(struct dump *), uint64_t *pcs,
		       bool *past)
{
	struct perf_ustate leaf = state(0x400100 + t % 0x100, SP_B, true);
	struct frames fr = { .n = 0 };
	struct perf_ureads *l;
	struct dump dm;
	size_t n;

	make_dump(&dm, SP_B);
	put_word(&dm, SP_B + 0x18, 0x400200);
	if (change)
		change(&dm);
	l = perf_umemo_begin(m, k, &dm.d, t, 127);
	assert_int_equal(perf_umemo_reuse(m, &leaf, 0, k->nmods, pcs,
					  fr.exact, fr.where, past),
			 0);
	/* the leaf's CFA is SP_B + 0x20: its caller at SP_A + 0x10 */
	leaf.regs[6] = SP_B + 0x10;
	step(&fr, l, &dm, &leaf, &row_bp, true);
	n = perf_umemo_reuse(m, caller, 1, k->nmods, pcs + 1, fr.exact + 1,
			     fr.where + 1, past);
	if (n) {
		pcs[0] = leaf.pc;
		assert_false(fr.exact[1]);
		assert_int_equal(fr.where[1].map, where_of.map);
		assert_int_equal(fr.where[2].until, where_of.until);
		/* not worth keeping (one frame stepped): kept anyway */
		assert_false(perf_umemo_worth(m, 1));
		perf_umemo_keep(m, fr.rows, 1, fr.st, fr.how, fr.exact,
				fr.where, false, k->nmods);
	} else {
		perf_umemo_drop(m);
	}
	return n;
}

static struct perf_ustate caller_a(void)
{
	struct perf_ustate st = state(0x400200, SP_A + 0x10, false);

	st.regs[6] = SP_A + 0x20;
	return st;
}

static void test_reused(void **state_)
{
	struct perf_umemo *m = unwound_a();
	struct perf_ustate caller = caller_a();
	uint64_t pcs[4], samples, taken;
	bool past = false;

	(void)state_;
	/* rax and rbx differ: no frame outside reads them */
	caller.regs[0] = 0x1234;
	caller.regs[3] = 0x4321;
	assert_int_equal(sample_b(m, &key_a, 600, &caller, NULL, pcs, &past),
			 2);
	assert_int_equal(pcs[1], 0x400200);
	assert_int_equal(pcs[2], 0x400300);
	assert_true(past);	/* the outermost's step read past the dump */
	perf_umemo_counts(m, &samples, &taken);
	assert_int_equal(samples, 1);
	assert_int_equal(taken, 2);
	/* and B kept in turn: its caller's frames again */
	caller = caller_a();
	assert_int_equal(sample_b(m, &key_a, 700, &caller, NULL, pcs, &past),
			 2);
	perf_umemo_free(m);
}

static void change_word(struct dump *dm)
{
	/* the caller's return address, which its step read */
	put_word(dm, SP_A + 0x18, 0x400310);
}

static void change_past(struct dump *dm)
{
	/* the dump goes on: the outermost's read no longer past it */
	dm->d.size += 8;
}

static void test_word_changed(void **state_)
{
	struct perf_umemo *m = unwound_a();
	struct perf_ustate caller = caller_a();
	uint64_t pcs[4];
	bool past;

	(void)state_;
	assert_int_equal(sample_b(m, &key_a, 600, &caller, change_word, pcs,
				  &past),
			 0);
	perf_umemo_free(m);
	m = unwound_a();
	assert_int_equal(sample_b(m, &key_a, 600, &caller, change_past, pcs,
				  &past),
			 0);
	perf_umemo_free(m);
}

static void test_mappings_changed(void **state_)
{
	struct perf_umemo *m = unwound_a();
	struct perf_ustate caller = caller_a();
	struct perf_umemo_key k = key_a;
	uint64_t pcs[4];
	bool past;

	(void)state_;
	/* an mmap between the two: the process's mappings' gen moved */
	k.gen++;
	assert_int_equal(sample_b(m, &k, 600, &caller, NULL, pcs, &past), 0);
	/* a time past where a frame's mapping holds */
	assert_int_equal(sample_b(m, &key_a, 1000, &caller, NULL, pcs, &past),
			 0);
	/* a module reported to the Dwfl since; another Dwfl */
	k = key_a;
	k.nmods++;
	assert_int_equal(sample_b(m, &k, 600, &caller, NULL, pcs, &past), 0);
	k = key_a;
	k.made++;
	assert_int_equal(sample_b(m, &k, 600, &caller, NULL, pcs, &past), 0);
	/* another thread, another process */
	k = key_a;
	k.tid++;
	assert_int_equal(sample_b(m, &k, 600, &caller, NULL, pcs, &past), 0);
	k = key_a;
	k.pid++;
	assert_int_equal(sample_b(m, &k, 600, &caller, NULL, pcs, &past), 0);
	/* none of them kept: A still is */
	assert_int_equal(sample_b(m, &key_a, 600, &caller, NULL, pcs, &past),
			 2);
	perf_umemo_free(m);
}

static void test_state_differs(void **state_)
{
	struct perf_umemo *m = unwound_a();
	struct perf_ustate caller = caller_a();
	uint64_t pcs[4];
	bool past;

	(void)state_;
	/* rbp, which the outermost frame's CFA is made from */
	caller.regs[6] += 8;
	assert_int_equal(sample_b(m, &key_a, 600, &caller, NULL, pcs, &past),
			 0);
	/* rbp unknown */
	caller = caller_a();
	caller.set &= ~(1u << 6);
	assert_int_equal(sample_b(m, &key_a, 600, &caller, NULL, pcs, &past),
			 0);
	/* a signal frame's */
	caller = caller_a();
	caller.signal = true;
	assert_int_equal(sample_b(m, &key_a, 600, &caller, NULL, pcs, &past),
			 0);
	/* another pc at the same stack pointer */
	caller = caller_a();
	caller.pc++;
	assert_int_equal(sample_b(m, &key_a, 600, &caller, NULL, pcs, &past),
			 0);
	perf_umemo_free(m);
}

/* A's frames with a limit of 2 frames: B, one frame deeper at the
 * caller, would have 3. */
static void test_limit(void **state_)
{
	struct perf_umemo *m = unwound_a();
	struct perf_ustate caller = caller_a();
	struct perf_unwind_where where[4];
	struct perf_ureads *l;
	uint64_t pcs[4];
	bool exact[4], past;
	struct dump dm;

	(void)state_;
	make_dump(&dm, SP_B);
	l = perf_umemo_begin(m, &key_a, &dm.d, 600, 2);
	perf_ureads_add(l, SP_B + 0x18, UREAD_OK, 0x400200);
	assert_int_equal(perf_umemo_reuse(m, &caller, 1, 2, pcs, exact, where,
					  &past),
			 0);
	perf_umemo_drop(m);
	/* with room for them, they are taken */
	l = perf_umemo_begin(m, &key_a, &dm.d, 600, 3);
	perf_ureads_add(l, SP_B + 0x18, UREAD_OK, 0x400200);
	assert_int_equal(perf_umemo_reuse(m, &caller, 1, 2, pcs, exact, where,
					  &past),
			 2);
	perf_umemo_drop(m);
	perf_umemo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reused),
		cmocka_unit_test(test_word_changed),
		cmocka_unit_test(test_mappings_changed),
		cmocka_unit_test(test_state_differs),
		cmocka_unit_test(test_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
