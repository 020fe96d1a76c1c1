/*
 * symtab/line_files.c: the rows of a DWARF 5 line program before each
 * sequence's first DW_LNS_set_file, on hand-made programs: GCC's shape
 * (no set_file where the first .loc is file 1), clang's (set_file 0 at
 * once: those rows are file 0, not at the default), a set_file amid a
 * sequence, and programs cut short or garbled, which are refused.
 */
#include "helpers.h"

#include <stdint.h>
#include <string.h>

#include "symtab/line_files.h"

/* A 32-bit DWARF 5 header with no directories or files (their formats'
 * counts 0), opcode_base 13, then the program p[n]; into out, returns the
 * size. */
static size_t make_unit(unsigned char *out, const unsigned char *p, size_t n)
{
	static const unsigned char lengths[12] = { 0, 1, 1, 1, 1, 0, 0, 0,
						   1, 0, 0, 1 };
	unsigned char h[64];
	size_t hn = 0, len;

	h[hn++] = 1;		/* minimum_instruction_length */
	h[hn++] = 1;		/* maximum_operations_per_instruction */
	h[hn++] = 1;		/* default_is_stmt */
	h[hn++] = (unsigned char)-5;	/* line_base */
	h[hn++] = 14;		/* line_range */
	h[hn++] = 13;		/* opcode_base */
	memcpy(h + hn, lengths, 12);
	hn += 12;
	h[hn++] = 0;		/* directory_entry_format_count */
	h[hn++] = 0;		/* directories_count */
	h[hn++] = 0;		/* file_name_entry_format_count */
	h[hn++] = 0;		/* file_names_count */
	len = 2 + 1 + 1 + 4 + hn + n;
	out[0] = (unsigned char)len;
	out[1] = (unsigned char)(len >> 8);
	out[2] = out[3] = 0;
	out[4] = 5;		/* version */
	out[5] = 0;
	out[6] = 8;		/* address_size */
	out[7] = 0;		/* segment_selector_size */
	out[8] = (unsigned char)hn;	/* header_length */
	out[9] = out[10] = out[11] = 0;
	memcpy(out + 12, h, hn);
	memcpy(out + 12 + hn, p, n);
	return 12 + hn + n;
}

#define SET_ADDR 0, 9, 2, 0x40, 0x11, 0, 0, 0, 0, 0, 0
#define END_SEQ 0, 1, 1
#define COPY 1
#define SPECIAL 0x20
#define SET_FILE(f) 4, f

static void scan(const unsigned char *p, size_t n, struct line_seqs *ls,
		 bool want)
{
	unsigned char buf[256];
	size_t size = make_unit(buf, p, n);

	assert_int_equal(line_seqs_scan(buf, size, 0, false, ls), want);
}

static void test_gcc_shape(void **state)
{
	/* sequence 1: three rows at file 1 by default, then set_file 2 and
	 * two more; sequence 2: all rows before any set_file */
	static const unsigned char p[] = {
		SET_ADDR, COPY, SPECIAL, SPECIAL, SET_FILE(2), SPECIAL,
		2, 4, END_SEQ,	/* advance_pc 4, end_sequence */
		SET_ADDR, COPY, 3, 0x7f, SPECIAL, 9, 0x10, 0, END_SEQ,
	};
	struct line_seqs ls = { 0 };

	(void)state;
	scan(p, sizeof(p), &ls, true);
	assert_int_equal(ls.nseq, 2);
	assert_int_equal(ls.seq[0].rows, 5);
	assert_int_equal(ls.seq[0].before_file, 3);
	assert_int_equal(ls.seq[1].rows, 3);
	assert_int_equal(ls.seq[1].before_file, 3);
	assert_int_equal(ls.total, 8);
	/* the rows in turn: the first three, then none of sequence 1, then
	 * all of sequence 2 (the register is reset at end_sequence) */
	for (int i = 0; i < 8; i++)
		assert_int_equal(line_seqs_at_default(&ls, i == 4 || i == 7),
				 i < 3 || i >= 5);
	assert_false(line_seqs_at_default(&ls, false));
	line_seqs_release(&ls);
}

static void test_clang_shape(void **state)
{
	/* set_file 0 before the first row: no row is at the default, so a
	 * row libdwarf gives as file 0 stays file 0 */
	static const unsigned char p[] = {
		SET_FILE(0), SET_ADDR, 5, 3, COPY, SPECIAL, SET_FILE(1),
		SPECIAL, END_SEQ,
	};
	struct line_seqs ls = { 0 };

	(void)state;
	scan(p, sizeof(p), &ls, true);
	assert_int_equal(ls.nseq, 1);
	assert_int_equal(ls.seq[0].rows, 4);
	assert_int_equal(ls.seq[0].before_file, 0);
	line_seqs_release(&ls);
}

static void test_unknown_opcodes_and_extended(void **state)
{
	/* set_discriminator (extended 4) and an unknown extended opcode
	 * 0x80 carrying 3 bytes are skipped; a last sequence without
	 * end_sequence still counts */
	static const unsigned char p[] = {
		SET_ADDR, 0, 2, 4, 7, COPY, 0, 4, 0x80, 1, 2, 3, SPECIAL,
		END_SEQ, SPECIAL, SPECIAL,
	};
	struct line_seqs ls = { 0 };

	(void)state;
	scan(p, sizeof(p), &ls, true);
	assert_int_equal(ls.nseq, 2);
	assert_int_equal(ls.seq[0].rows, 3);
	assert_int_equal(ls.seq[1].rows, 2);
	assert_int_equal(ls.seq[1].before_file, 2);
	line_seqs_release(&ls);
}

static void test_refused(void **state)
{
	static const unsigned char good[] = {
		SET_ADDR, COPY, SPECIAL, END_SEQ,
	};
	/* an extended opcode longer than the program; a ULEB128 cut
	 * short; a fixed_advance_pc without its two bytes */
	static const unsigned char long_ext[] = { SET_ADDR, COPY, 0, 50, 1 };
	static const unsigned char cut_uleb[] = { SET_ADDR, COPY, 2, 0x80 };
	static const unsigned char cut_fixed[] = { SET_ADDR, COPY, 9, 1 };
	struct line_seqs ls = { 0 };
	unsigned char buf[256];
	size_t size;

	(void)state;
	scan(long_ext, sizeof(long_ext), &ls, false);
	assert_int_equal(ls.nseq, 0);
	scan(cut_uleb, sizeof(cut_uleb), &ls, false);
	scan(cut_fixed, sizeof(cut_fixed), &ls, false);
	assert_false(line_seqs_at_default(&ls, false));

	size = make_unit(buf, good, sizeof(good));
	assert_true(line_seqs_scan(buf, size, 0, false, &ls));
	/* the unit longer than the section; the offset past it */
	assert_false(line_seqs_scan(buf, size - 1, 0, false, &ls));
	assert_false(line_seqs_scan(buf, size, size, false, &ls));
	assert_false(line_seqs_scan(NULL, 0, 0, false, &ls));
	/* DWARF 4: not read (libdwarf has its file register right) */
	buf[4] = 4;
	assert_false(line_seqs_scan(buf, size, 0, false, &ls));
	buf[4] = 5;
	/* header_length past the unit */
	buf[8] = 0xf0;
	assert_false(line_seqs_scan(buf, size, 0, false, &ls));
	buf[8] = (unsigned char)(size - 12 - sizeof(good));
	/* set_file said to take two operands: not DWARF 5's opcodes */
	buf[12 + 6 + 3] = 2;
	assert_false(line_seqs_scan(buf, size, 0, false, &ls));
	buf[12 + 6 + 3] = 1;
	/* opcode_base 0 */
	buf[12 + 5] = 0;
	assert_false(line_seqs_scan(buf, size, 0, false, &ls));
	buf[12 + 5] = 13;
	/* a reserved unit length */
	memcpy(buf, "\xf0\xff\xff\xff", 4);
	assert_false(line_seqs_scan(buf, size, 0, false, &ls));
	line_seqs_release(&ls);
}

static void test_64bit_and_garbage(void **state)
{
	/* the 64-bit form, then every prefix of it and every byte changed:
	 * an answer or a refusal, never a read past the buffer (run
	 * under the sanitizers by make sanitize-check) */
	static const unsigned char p[] = {
		SET_ADDR, COPY, SPECIAL, SET_FILE(3), SPECIAL, END_SEQ,
	};
	unsigned char u32[256], u64[280];
	size_t n32 = make_unit(u32, p, sizeof(p)), n64;
	uint64_t len = (n32 - 4) + 4;	/* header_length 8 bytes now */
	struct line_seqs ls = { 0 };

	(void)state;
	memcpy(u64, "\xff\xff\xff\xff", 4);
	for (int i = 0; i < 8; i++)
		u64[4 + i] = (unsigned char)(len >> (8 * i));
	memcpy(u64 + 12, u32 + 4, 4);	/* version, sizes */
	memset(u64 + 16, 0, 8);
	u64[16] = u32[8];		/* header_length */
	memcpy(u64 + 24, u32 + 12, n32 - 12);
	n64 = 24 + n32 - 12;
	assert_true(line_seqs_scan(u64, n64, 0, false, &ls));
	assert_int_equal(ls.nseq, 1);
	assert_int_equal(ls.seq[0].rows, 4);
	assert_int_equal(ls.seq[0].before_file, 2);
	for (size_t cut = 0; cut < n64; cut++)
		assert_false(line_seqs_scan(u64, cut, 0, false, &ls));
	for (size_t i = 0; i < n64; i++) {
		unsigned char keep = u64[i];

		for (int b = 0; b < 256; b += 17) {
			u64[i] = (unsigned char)b;
			if (line_seqs_scan(u64, n64, 0, false, &ls))
				assert_true(ls.total <= n64);
		}
		u64[i] = keep;
	}
	line_seqs_release(&ls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc_shape),
		cmocka_unit_test(test_clang_shape),
		cmocka_unit_test(test_unknown_opcodes_and_extended),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_64bit_and_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
