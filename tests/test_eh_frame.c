/*
 * base/eh_frame.c: the DW_EH_PE_* pointers of each format and
 * application, an entry by its offset, and a CIE's header and
 * augmentation: z, R, P, L, S, B and G, "eh", letters not known,
 * versions, both byte orders, bytes that end; .eh_frame_hdr's header.
 * (The cursor it reads with, base/cursor.h, is test_cursor.c's.)
 * Real objects are read by test_perf_fde.c (every address against
 * libdw) and test_symtab.c (a stripped binary's functions).
 */
#include "helpers.h"

#include <string.h>

#include "base/eh_frame.h"

static const struct {
	const char *name;
	unsigned enc;
	unsigned char b[10];
	unsigned len, addr_size;
	bool big;
	bool ok;	/* eh_pointer()'s, at 0x1000, datarel from 0x8000 */
	uint64_t v;
	unsigned used;
	bool value_ok;	/* eh_value()'s */
} ptr_cases[] = {
	{ "absptr 8", EH_PE_ABSPTR, { 1, 2, 3, 4, 5, 6, 7, 8 }, 8, 8, false,
	  true, 0x0807060504030201, 8, true },
	{ "absptr 4", EH_PE_ABSPTR, { 1, 2, 3, 4, 5, 6, 7, 8 }, 8, 4, false,
	  true, 0x04030201, 4, true },
	{ "absptr 4, big", EH_PE_ABSPTR, { 1, 2, 3, 4 }, 4, 4, true,
	  true, 0x01020304, 4, true },
	{ "absptr cut", EH_PE_ABSPTR, { 1, 2, 3 }, 3, 4, false,
	  false, 0, 0, false },
	{ "uleb128", EH_PE_ULEB128, { 0xe5, 0x8e, 0x26 }, 3, 8, false,
	  true, 624485, 3, true },
	{ "uleb128 cut", EH_PE_ULEB128, { 0xe5, 0x8e }, 2, 8, false,
	  false, 0, 0, false },
	{ "udata2", EH_PE_UDATA2, { 0xfe, 0xff }, 2, 8, false,
	  true, 0xfffe, 2, true },
	{ "udata2, big", EH_PE_UDATA2, { 0x12, 0x34 }, 2, 8, true,
	  true, 0x1234, 2, true },
	{ "udata4", EH_PE_UDATA4, { 0xfc, 0xff, 0xff, 0xff }, 4, 8, false,
	  true, 0xfffffffc, 4, true },
	{ "udata4 cut", EH_PE_UDATA4, { 0xfc, 0xff, 0xff }, 3, 8, false,
	  false, 0, 0, false },
	{ "udata8", EH_PE_UDATA8, { 1, 0, 0, 0, 0, 0, 0, 0x80 }, 8, 4, false,
	  true, 0x8000000000000001, 8, true },
	{ "sleb128", EH_PE_SLEB128, { 0x7f }, 1, 8, false,
	  true, UINT64_MAX, 1, true },
	{ "sdata2", EH_PE_SDATA2, { 0xfe, 0xff }, 2, 8, false,
	  true, (uint64_t)-2, 2, true },
	{ "sdata2 cut", EH_PE_SDATA2, { 0xfe }, 1, 8, false,
	  false, 0, 0, false },
	{ "sdata4", EH_PE_SDATA4, { 0xfc, 0xff, 0xff, 0xff }, 4, 8, false,
	  true, (uint64_t)-4, 4, true },
	{ "sdata4, big", EH_PE_SDATA4, { 0xff, 0xff, 0xff, 0xfc }, 4, 8, true,
	  true, (uint64_t)-4, 4, true },
	{ "sdata8", EH_PE_SDATA8, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	  0xff }, 8, 8, false, true, UINT64_MAX, 8, true },
	{ "sdata8 cut", EH_PE_SDATA8, { 0xff }, 1, 8, false,
	  false, 0, 0, false },
	/* formats not defined */
	{ "format 5", 0x05, { 0 }, 8, 8, false, false, 0, 0, false },
	{ "format 0xd", 0x0d, { 0 }, 8, 8, false, false, 0, 0, false },
	{ "omit", EH_PE_OMIT, { 0 }, 8, 8, false, false, 0, 0, false },
	/* applications */
	{ "pcrel sdata4", EH_PE_PCREL | EH_PE_SDATA4,
	  { 0xf0, 0xff, 0xff, 0xff }, 4, 8, false, true, 0x1000 - 16, 4,
	  true },
	{ "pcrel udata2", EH_PE_PCREL | EH_PE_UDATA2, { 0x10, 0 }, 2, 8,
	  false, true, 0x1010, 2, true },
	{ "datarel sdata4", EH_PE_DATAREL | EH_PE_SDATA4, { 8, 0, 0, 0 }, 4,
	  8, false, true, 0x8008, 4, true },
	{ "textrel", EH_PE_TEXTREL | EH_PE_UDATA4, { 8, 0, 0, 0 }, 4, 8,
	  false, false, 0, 0, true },
	{ "funcrel", EH_PE_FUNCREL | EH_PE_UDATA4, { 8, 0, 0, 0 }, 4, 8,
	  false, false, 0, 0, true },
	{ "aligned", EH_PE_ALIGNED, { 8, 0, 0, 0 }, 4, 4, false, false, 0, 0,
	  true },
	{ "application 0x60", 0x60 | EH_PE_UDATA4, { 8, 0, 0, 0 }, 4, 8,
	  false, false, 0, 0, true },
	{ "indirect pcrel", EH_PE_INDIRECT | EH_PE_PCREL | EH_PE_SDATA4,
	  { 8, 0, 0, 0 }, 4, 8, false, false, 0, 0, true },
	{ "indirect absptr", EH_PE_INDIRECT, { 1, 2, 3, 4 }, 4, 4, false,
	  false, 0, 0, true },
};

static void test_pointers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ptr_cases) / sizeof(ptr_cases[0]); i++) {
		const unsigned char *b = ptr_cases[i].b;
		struct eh_ptrs how = { ptr_cases[i].addr_size, LEB_64, true,
				       0x8000 };
		struct cursor c, d;
		uint64_t v = 0;
		bool ok;

		cursor_init(&c, b, b + ptr_cases[i].len, ptr_cases[i].big);
		d = c;
		ok = eh_pointer(&c, ptr_cases[i].enc, 0x1000, &how, &v);
		if (ok != ptr_cases[i].ok ||
		    eh_value(&d, ptr_cases[i].enc, &how, &v) !=
			    ptr_cases[i].value_ok)
			fail_msg("%s: %d", ptr_cases[i].name, ok);
		if (!ok)
			continue;
		cursor_init(&c, b, b + ptr_cases[i].len, ptr_cases[i].big);
		assert_true(eh_pointer(&c, ptr_cases[i].enc, 0x1000, &how, &v));
		if (v != ptr_cases[i].v)
			fail_msg("%s: %#llx", ptr_cases[i].name,
				 (unsigned long long)v);
		assert_ptr_equal(c.p, b + ptr_cases[i].used);
	}
}

/* datarel without a base (symtab's): false, whatever the format */
static void test_datarel_unknown(void **state)
{
	static const unsigned char b[] = { 8, 0, 0, 0 };
	struct eh_ptrs how = { 8, 0, false, 0x8000 };
	struct cursor c;
	uint64_t v;

	(void)state;
	cursor_init(&c, b, b + 4, false);
	assert_false(eh_pointer(&c, EH_PE_DATAREL | EH_PE_UDATA4, 0, &how, &v));
	cursor_init(&c, b, b + 4, false);
	assert_true(eh_pointer(&c, EH_PE_PCREL | EH_PE_UDATA4, 0x10, &how, &v));
	assert_int_equal(v, 0x18);
}

static void test_entry(void **state)
{
	/* a CIE of 12 bytes, then 4 bytes of an FDE's length past the end,
	 * a 64-bit length, a terminator */
	static const unsigned char sec[] = {
		12, 0, 0, 0,  0, 0, 0, 0,  1, 0, 1, 0x78, 16, 0, 0, 0,
		0x40, 0, 0, 0,  0xff, 0xff, 0xff, 0xff,  0, 0, 0, 0,
	};
	static const unsigned char big[] = { 0, 0, 0, 4, 1, 2, 3, 4 };
	struct cursor c;

	(void)state;
	assert_true(eh_entry(sec, sizeof(sec), 0, false, &c));
	assert_ptr_equal(c.p, sec + 4);
	assert_ptr_equal(c.end, sec + 16);
	assert_false(eh_entry(sec, sizeof(sec), 16, false, &c));
	assert_false(eh_entry(sec, sizeof(sec), 20, false, &c));
	assert_false(eh_entry(sec, sizeof(sec), 24, false, &c));
	assert_false(eh_entry(sec, sizeof(sec), sizeof(sec), false, &c));
	assert_false(eh_entry(sec, sizeof(sec), UINT64_MAX, false, &c));
	assert_false(eh_entry(sec, 3, 0, false, &c));
	assert_true(eh_entry(big, sizeof(big), 0, true, &c));
	assert_ptr_equal(c.end, big + 8);
	assert_false(eh_entry(big, sizeof(big), 0, false, &c));
}

/*
 * CIEs as bytes after the length: id, version, augmentation, and the
 * rest; what eh_cie_parse() gives for each (unknown: the letter's
 * offset in the string or -1; ins: the instructions' offset).
 */
static const struct {
	const char *name;
	unsigned char b[24];
	unsigned len, addr_size, leb;
	bool big;
	uint8_t version, fde_enc, lsda_enc, per_enc, per_apply;
	uint64_t caf, ra;
	int64_t daf;
	int unknown;
	bool eh, aug_z, signal, aarch64;
	int ins;
} cie_cases[] = {
	{ "gcc's zR", { 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
	  0x0c, 7, 8 }, 16, 8, LEB_64, false,
	  1, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, -1,
	  false, true, false, false, 13 },
	{ "version 3, ra ULEB", { 0, 0, 0, 0, 3, 'z', 'R', 0, 1, 0x78, 0x80,
	  0x01, 1, 0x1b }, 14, 8, 0, false,
	  3, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 128, -8, -1,
	  false, true, false, false, 14 },
	{ "version 4 read as 3", { 0, 0, 0, 0, 4, 0, 4, 0x7c, 0x81, 0x01 },
	  10, 8, 0, false,
	  4, EH_PE_ABSPTR, EH_PE_OMIT, EH_PE_OMIT, 0, 4, 129, -4, -1,
	  false, false, false, false, 10 },
	{ "no augmentation", { 0, 0, 0, 0, 1, 0, 1, 0x78, 16, 0x0c },
	  10, 8, LEB_64, false,
	  1, EH_PE_ABSPTR, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, -1,
	  false, false, false, false, 9 },
	{ "zPLR of g++", { 0, 0, 0, 0, 1, 'z', 'P', 'L', 'R', 0, 1, 0x78, 16,
	  7, 0x9b, 1, 2, 3, 4, 0x1b, 0x1b, 0x0c }, 22, 8, LEB_64, false,
	  1, 0x1b, 0x1b, 0x9b, 1u << 1, 1, 16, -8, -1,
	  false, true, false, false, 21 },
	{ "P absptr of 4 bytes", { 0, 0, 0, 0, 1, 'z', 'P', 'R', 0, 1, 0x7c,
	  8, 6, 0x00, 1, 2, 3, 4, 0x03 }, 19, 4, 0, false,
	  1, 0x03, EH_PE_OMIT, 0x00, 1, 1, 8, -4, -1,
	  false, true, false, false, 19 },
	{ "P textrel, then P uleb128", { 0, 0, 0, 0, 1, 'z', 'P', 'P', 0, 1,
	  0x78, 16, 8, 0x23, 1, 2, 3, 4, 0x01, 0x80, 0x01 }, 21, 8, 0, false,
	  1, EH_PE_ABSPTR, EH_PE_OMIT, 0x01, 1u << 2 | 1u, 1, 16, -8, -1,
	  false, true, false, false, 21 },
	{ "zRS", { 0, 0, 0, 0, 1, 'z', 'R', 'S', 0, 1, 0x78, 16, 1, 0x1b },
	  14, 8, 0, false,
	  1, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, -1,
	  false, true, true, false, 14 },
	{ "zBR: R read after B", { 0, 0, 0, 0, 1, 'z', 'B', 'R', 0, 4, 0x78,
	  30, 1, 0x1b }, 14, 8, 0, false,
	  1, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 4, 30, -8, -1,
	  false, true, false, true, 14 },
	{ "zGR", { 0, 0, 0, 0, 1, 'z', 'G', 'R', 0, 4, 0x78, 30, 1, 0x1b },
	  14, 8, 0, false,
	  1, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 4, 30, -8, -1,
	  false, true, false, true, 14 },
	{ "zRX: X not known, R kept", { 0, 0, 0, 0, 1, 'z', 'R', 'X', 0, 1,
	  0x78, 16, 3, 0x1b, 9, 9 }, 16, 8, 0, false,
	  1, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, 2,
	  false, true, false, false, 16 },
	{ "zXR: R not read", { 0, 0, 0, 0, 1, 'z', 'X', 'R', 0, 1, 0x78, 16,
	  1, 0x1b }, 14, 8, 0, false,
	  1, EH_PE_ABSPTR, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, 1,
	  false, true, false, false, 14 },
	{ "eh: its pointer skipped", { 0, 0, 0, 0, 1, 'e', 'h', 0, 1, 2, 3, 4,
	  1, 0x7c, 8, 0x0c }, 16, 4, 0, false,
	  1, EH_PE_ABSPTR, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 8, -4, -1,
	  true, false, false, false, 15 },
	{ "a string not known", { 0, 0, 0, 0, 1, 'a', 'b', 0, 1, 0x78, 16 },
	  11, 8, 0, false,
	  1, EH_PE_ABSPTR, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, 0,
	  false, false, false, false, 11 },
	{ "big-endian zR", { 0, 0, 0, 0, 1, 'z', 'R', 0, 4, 0x7c, 65, 1,
	  0x1b }, 13, 4, 0, true,
	  1, 0x1b, EH_PE_OMIT, EH_PE_OMIT, 0, 4, 65, -4, -1,
	  false, true, false, false, 13 },
	/* a caf of 11 bytes: the bits past 64 dropped (LEB_64: an error,
	 * below) */
	{ "caf of 11 bytes", { 0, 0, 0, 0, 1, 0, 0x81, 0x80, 0x80, 0x80,
	  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x78, 16 }, 19, 8, 0,
	  false,
	  1, EH_PE_ABSPTR, EH_PE_OMIT, EH_PE_OMIT, 0, 1, 16, -8, -1,
	  false, false, false, false, 19 },
};

/* eh_cie_parse() on the CIE's bytes b[0, len) */
static bool parse_cie(const unsigned char *b, unsigned len,
		      unsigned addr_size, unsigned leb, bool big,
		      struct eh_cie *k)
{
	struct eh_ptrs how = { addr_size, leb, false, 0 };
	struct cursor c;

	cursor_init(&c, b, b + len, big);
	return eh_cie_parse(c, &how, k);
}

static void test_cie(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cie_cases) / sizeof(cie_cases[0]); i++) {
		const unsigned char *b = cie_cases[i].b;
		struct eh_cie k;

		if (!parse_cie(b, cie_cases[i].len, cie_cases[i].addr_size,
			       cie_cases[i].leb, cie_cases[i].big, &k))
			fail_msg("%s: not read", cie_cases[i].name);
		if (k.version != cie_cases[i].version ||
		    k.fde_enc != cie_cases[i].fde_enc ||
		    k.lsda_enc != cie_cases[i].lsda_enc ||
		    k.per_enc != cie_cases[i].per_enc ||
		    k.per_apply != cie_cases[i].per_apply ||
		    k.caf != cie_cases[i].caf || k.ra != cie_cases[i].ra ||
		    k.daf != cie_cases[i].daf || k.eh != cie_cases[i].eh ||
		    k.aug_z != cie_cases[i].aug_z ||
		    k.signal != cie_cases[i].signal ||
		    k.aarch64 != cie_cases[i].aarch64)
			fail_msg("%s: version %u fde %#x lsda %#x per %#x/%#x "
				 "caf %llu ra %llu daf %lld eh %d z %d S %d "
				 "BG %d", cie_cases[i].name, k.version,
				 k.fde_enc, k.lsda_enc, k.per_enc, k.per_apply,
				 (unsigned long long)k.caf,
				 (unsigned long long)k.ra, (long long)k.daf,
				 k.eh, k.aug_z, k.signal, k.aarch64);
		assert_ptr_equal(k.aug, b + 5);
		if (cie_cases[i].unknown < 0)
			assert_null(k.unknown);
		else
			assert_ptr_equal(k.unknown,
					 k.aug + cie_cases[i].unknown);
		if (k.ins != b + cie_cases[i].ins)
			fail_msg("%s: ins at %td", cie_cases[i].name,
				 k.ins - b);
		assert_ptr_equal(k.ins_end, b + cie_cases[i].len);
	}
}

/* CIEs not read: not a CIE, or the bytes end in what is read */
static const struct {
	const char *name;
	unsigned char b[24];
	unsigned len, addr_size, leb;
	bool big;
} cie_bad[] = {
	{ "an FDE", { 4, 0, 0, 0, 1, 0, 1, 0x78, 16 }, 9, 8, 0, false },
	{ "big-endian id 1", { 0, 0, 0, 1, 1, 0, 1, 0x78, 16 }, 9, 8, 0,
	  true },
	{ "no version", { 0, 0, 0, 0 }, 4, 8, 0, false },
	{ "no NUL", { 0, 0, 0, 0, 1, 'z', 'R' }, 7, 8, 0, false },
	{ "eh cut", { 0, 0, 0, 0, 1, 'e', 'h', 0, 1, 2, 3, 4, 1, 0x78, 16 },
	  15, 8, 0, false },
	{ "caf cut", { 0, 0, 0, 0, 1, 0, 0x81 }, 7, 8, 0, false },
	{ "ra cut", { 0, 0, 0, 0, 1, 0, 1, 0x78 }, 8, 8, 0, false },
	{ "ra ULEB cut", { 0, 0, 0, 0, 3, 0, 1, 0x78, 0x80 }, 9, 8, 0,
	  false },
	{ "z data's length past the end", { 0, 0, 0, 0, 1, 'z', 'R', 0, 1,
	  0x78, 16, 2, 0x1b }, 13, 8, 0, false },
	{ "R past z's data", { 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 0,
	  0x1b }, 13, 8, 0, false },
	{ "L past z's data", { 0, 0, 0, 0, 1, 'z', 'R', 'L', 0, 1, 0x78, 16,
	  1, 0x1b, 0x1b }, 15, 8, 0, false },
	{ "P's pointer past z's data", { 0, 0, 0, 0, 1, 'z', 'P', 0, 1, 0x78,
	  16, 3, 0x1b, 1, 2, 3, 4 }, 17, 8, 0, false },
	{ "P absptr of 8 bytes, data for 4", { 0, 0, 0, 0, 1, 'z', 'P', 0, 1,
	  0x78, 16, 5, 0x00, 1, 2, 3, 4, 5, 6, 7, 8 }, 21, 8, 0, false },
	{ "P of format 0xf", { 0, 0, 0, 0, 1, 'z', 'P', 0, 1, 0x78, 16, 2,
	  0xff, 0 }, 14, 8, 0, false },
	{ "caf of 11 bytes, LEB_64", { 0, 0, 0, 0, 1, 0, 0x81, 0x80, 0x80,
	  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x78, 16 }, 19, 8,
	  LEB_64, false },
};

static void test_cie_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cie_bad) / sizeof(cie_bad[0]); i++) {
		struct eh_cie k;

		if (parse_cie(cie_bad[i].b, cie_bad[i].len,
			      cie_bad[i].addr_size, cie_bad[i].leb,
			      cie_bad[i].big, &k))
			fail_msg("%s: read", cie_bad[i].name);
	}
}

/*
 * .eh_frame_hdr's header as linkers write it (pcrel sdata4 pointer,
 * udata4 count, datarel sdata4 table), in both byte orders; then what
 * it is not read from.
 */
static void test_hdr(void **state)
{
	/* at 0x2000: .eh_frame at 0x2000 + 4 + 0x100, 3 entries */
	static const unsigned char le[] = { 1, 0x1b, 0x03, 0x3b,
					    0x00, 0x01, 0, 0, 3, 0, 0, 0,
					    0xaa, 0xbb };
	static const unsigned char be[] = { 1, 0x1b, 0x03, 0x3b,
					    0, 0, 0x01, 0x00, 0, 0, 0, 3 };
	/* a negative pcrel pointer: .eh_frame before the header */
	static const unsigned char back[] = { 1, 0x1b, 0x03, 0x3b,
					      0xfc, 0xff, 0xff, 0xff,
					      1, 0, 0, 0 };
	unsigned char b[sizeof(le)];
	struct eh_hdr h;

	(void)state;
	assert_true(eh_hdr_parse(le, sizeof(le), 0x2000, false, 8, &h));
	assert_int_equal(h.frame_ptr, 0x2104);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.table_enc, 0x3b);
	assert_ptr_equal(h.table, le + 12);
	assert_true(eh_hdr_parse(be, sizeof(be), 0x2000, true, 8, &h));
	assert_int_equal(h.frame_ptr, 0x2104);
	assert_int_equal(h.count, 3);
	assert_ptr_equal(h.table, be + sizeof(be));
	assert_true(eh_hdr_parse(back, sizeof(back), 0x2000, false, 8, &h));
	assert_int_equal(h.frame_ptr, 0x2000);
	assert_int_equal(h.count, 1);
	/* a version of 2, no count (omit), a count cut short */
	memcpy(b, le, sizeof(le));
	b[0] = 2;
	assert_false(eh_hdr_parse(b, sizeof(b), 0x2000, false, 8, &h));
	memcpy(b, le, sizeof(le));
	b[2] = EH_PE_OMIT;
	assert_false(eh_hdr_parse(b, sizeof(b), 0x2000, false, 8, &h));
	assert_false(eh_hdr_parse(le, 11, 0x2000, false, 8, &h));
	assert_false(eh_hdr_parse(le, 0, 0x2000, false, 8, &h));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_datarel_unknown),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_cie),
		cmocka_unit_test(test_cie_bad),
		cmocka_unit_test(test_hdr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
