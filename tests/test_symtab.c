/*
 * symtab/: the sorted tables built from symbols, line rows and function
 * ranges made up in memory, and symtab_open() on the committed binaries
 * of tests/resolve/ (never on binaries compiled here: another compiler
 * would make other code). Comparison with addr2line address by address
 * is test_resolve_peers.c.
 */
#include "helpers.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "symtab/symtab_int.h"

#define CASES "tests/resolve"

enum { LOCAL = 0, GLOBAL = 1, WEAK = 2 };

struct fixture {
	struct arena arena;
	struct names names;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	arena_init(&fx->arena);
	names_init(&fx->names, &fx->arena);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	names_release(&fx->names);
	arena_release(&fx->arena);
	free(fx);
	return 0;
}

static name_id id(struct fixture *fx, const char *s)
{
	return names_intern(&fx->names, s, strlen(s));
}

/* --- syms[]: sorting, aliases, ends, overlaps, lookup --- */

struct rs {
	const char *name;	/* NULL ends the list */
	uint64_t addr, size, limit;
	uint8_t kind, bind;
};

struct es {
	const char *name;	/* NULL ends the list */
	uint64_t addr, end;
	bool guessed;
};

struct probe {
	uint64_t addr;
	const char *name;	/* "-": no symbol; NULL ends the list */
};

#define LIM 0x10000		/* a section end far away */

static const struct syms_case {
	const char *what;
	struct rs raw[8];
	struct es want[8];
	struct probe probes[12];
} syms_cases[] = {
	{ "empty table", { { NULL } }, { { NULL } },
	  { { 0, "-" }, { 0x1000, "-" }, { UINT64_MAX, "-" }, { 0, NULL } } },
	{ "one sized symbol: first byte, last byte, around",
	  { { "f", 0x100, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "f", 0x100, 0x110, false }, { NULL } },
	  { { 0, "-" }, { 0xff, "-" }, { 0x100, "f" }, { 0x10f, "f" },
	    { 0x110, "-" }, { UINT64_MAX, "-" }, { 0, NULL } } },
	{ "aliases: global over local",
	  { { "lfoo", 0x100, 0x10, LIM, SYM_FUNC, LOCAL },
	    { "foo", 0x100, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "foo", 0x100, 0x110, false }, { NULL } },
	  { { 0x100, "foo" }, { 0x10f, "foo" }, { 0, NULL } } },
	{ "aliases: global over weak over local",
	  { { "l", 0x100, 0, LIM, SYM_OTHER, LOCAL },
	    { "data_start", 0x100, 0, LIM, SYM_OTHER, WEAK },
	    { "__data_start", 0x100, 0, LIM, SYM_OTHER, GLOBAL },
	    { NULL } },
	  { { "__data_start", 0x100, LIM, true }, { NULL } },
	  { { 0x100, "__data_start" }, { 0, NULL } } },
	{ "aliases: function over object, even a local one",
	  { { "obj", 0x200, 0x20, LIM, SYM_OBJECT, GLOBAL },
	    { "fn", 0x200, 0x10, LIM, SYM_FUNC, LOCAL }, { NULL } },
	  { { "fn", 0x200, 0x210, false }, { NULL } },
	  { { 0x20f, "fn" }, { 0x210, "-" }, { 0, NULL } } },
	{ "aliases: object over untyped",
	  { { "__bss_start", 0x300, 0, LIM, SYM_OTHER, GLOBAL },
	    { "completed", 0x300, 1, LIM, SYM_OBJECT, LOCAL }, { NULL } },
	  { { "completed", 0x300, 0x301, false }, { NULL } },
	  { { 0x300, "completed" }, { 0x301, "-" }, { 0, NULL } } },
	{ "aliases: sized over unsized, then larger",
	  { { "a", 0x100, 0, LIM, SYM_FUNC, GLOBAL },
	    { "b", 0x100, 8, LIM, SYM_FUNC, GLOBAL },
	    { "c", 0x100, 16, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "c", 0x100, 0x110, false }, { NULL } },
	  { { 0x10f, "c" }, { 0, NULL } } },
	{ "aliases: equal in all else, the first in the table",
	  { { "second", 0x100, 8, LIM, SYM_FUNC, GLOBAL },
	    { "first", 0x100, 8, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "second", 0x100, 0x108, false }, { NULL } },
	  { { 0x100, "second" }, { 0, NULL } } },
	{ "size 0: up to the next symbol",
	  { { "a", 0x100, 0, LIM, SYM_FUNC, GLOBAL },
	    { "b", 0x180, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "a", 0x100, 0x180, true }, { "b", 0x180, 0x190, false },
	    { NULL } },
	  { { 0x17f, "a" }, { 0x180, "b" }, { 0x190, "-" }, { 0, NULL } } },
	{ "size 0: capped at the end of its section",
	  { { "_init", 0x1000, 0, 0x1017, SYM_FUNC, GLOBAL },
	    { "puts@plt", 0x1030, 0, 0x1050, SYM_PLT, GLOBAL },
	    { "exit@plt", 0x1040, 0, 0x1050, SYM_PLT, GLOBAL },
	    { "main", 0x1060, 0x20, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "_init", 0x1000, 0x1017, true },
	    { "puts@plt", 0x1030, 0x1040, true },
	    { "exit@plt", 0x1040, 0x1050, true },
	    { "main", 0x1060, 0x1080, false }, { NULL } },
	  { { 0x1016, "_init" }, { 0x1017, "-" }, { 0x1020, "-" },
	    { 0x1030, "puts@plt" }, { 0x104f, "exit@plt" }, { 0x1050, "-" },
	    { 0x1060, "main" }, { 0, NULL } } },
	{ "size 0, the last one: to its section's end",
	  { { "_fini", 0x2000, 0, 0x2009, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "_fini", 0x2000, 0x2009, true }, { NULL } },
	  { { 0x2008, "_fini" }, { 0x2009, "-" }, { 0, NULL } } },
	{ "size 0 at its section's end (_edata): holds nothing",
	  { { "_edata", 0x4038, 0, 0x4038, SYM_OTHER, GLOBAL },
	    { "stderr", 0x4040, 8, LIM, SYM_OBJECT, GLOBAL }, { NULL } },
	  { { "_edata", 0x4038, 0x4038, true },
	    { "stderr", 0x4040, 0x4048, false }, { NULL } },
	  { { 0x4038, "-" }, { 0x4040, "stderr" }, { 0, NULL } } },
	{ "empty symbols inside a function and before it (no spans)",
	  { { "f", 0x100, 0x100, LIM, SYM_FUNC, GLOBAL },
	    { "mark", 0x180, 0, 0x180, SYM_OTHER, LOCAL },
	    { "mark2", 0x190, 0, 0x190, SYM_OTHER, LOCAL },
	    { "early", 0x80, 0, 0x80, SYM_OTHER, GLOBAL }, { NULL } },
	  { { "early", 0x80, 0x80, true }, { "f", 0x100, 0x200, false },
	    { "mark", 0x180, 0x180, true }, { "mark2", 0x190, 0x190, true },
	    { NULL } },
	  { { 0x80, "-" }, { 0xff, "-" }, { 0x100, "f" }, { 0x180, "f" },
	    { 0x18f, "f" }, { 0x190, "f" }, { 0x1ff, "f" }, { 0x200, "-" },
	    { 0, NULL } } },
	{ "gaps between sized symbols (disjoint: looked up without spans)",
	  { { "a", 0x100, 0x10, LIM, SYM_FUNC, GLOBAL },
	    { "b", 0x120, 0x10, LIM, SYM_FUNC, LOCAL }, { NULL } },
	  { { "a", 0x100, 0x110, false }, { "b", 0x120, 0x130, false },
	    { NULL } },
	  { { 0xff, "-" }, { 0x100, "a" }, { 0x110, "-" }, { 0x11f, "-" },
	    { 0x120, "b" }, { 0x12f, "b" }, { 0x130, "-" }, { 0, NULL } } },
	{ "nested: the inner one, then the outer one again",
	  { { "outer", 0x100, 0x100, LIM, SYM_OBJECT, GLOBAL },
	    { "inner", 0x140, 0x20, LIM, SYM_OBJECT, GLOBAL }, { NULL } },
	  { { "outer", 0x100, 0x200, false },
	    { "inner", 0x140, 0x160, false }, { NULL } },
	  { { 0x13f, "outer" }, { 0x140, "inner" }, { 0x15f, "inner" },
	    { 0x160, "outer" }, { 0x1ff, "outer" }, { 0x200, "-" },
	    { 0, NULL } } },
	{ "nested twice, ending together",
	  { { "a", 0x100, 0x100, LIM, SYM_FUNC, GLOBAL },
	    { "b", 0x110, 0xf0, LIM, SYM_FUNC, GLOBAL },
	    { "c", 0x120, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "a", 0x100, 0x200, false }, { "b", 0x110, 0x200, false },
	    { "c", 0x120, 0x130, false }, { NULL } },
	  { { 0x10f, "a" }, { 0x110, "b" }, { 0x120, "c" }, { 0x130, "b" },
	    { 0x1ff, "b" }, { 0x200, "-" }, { 0, NULL } } },
	{ "overlapping: the later start owns the overlap",
	  { { "a", 0x100, 0x80, LIM, SYM_FUNC, GLOBAL },
	    { "b", 0x140, 0xc0, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "a", 0x100, 0x180, false }, { "b", 0x140, 0x200, false },
	    { NULL } },
	  { { 0x13f, "a" }, { 0x140, "b" }, { 0x17f, "b" }, { 0x180, "b" },
	    { 0x1ff, "b" }, { 0x200, "-" }, { 0, NULL } } },
	{ "a label inside a function ends with the function",
	  { { "f", 0x100, 0x100, LIM, SYM_FUNC, GLOBAL },
	    { "label", 0x180, 0, LIM, SYM_OTHER, LOCAL },
	    { "g", 0x300, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "f", 0x100, 0x200, false }, { "label", 0x180, 0x200, true },
	    { "g", 0x300, 0x310, false }, { NULL } },
	  { { 0x17f, "f" }, { 0x180, "label" }, { 0x1ff, "label" },
	    { 0x200, "-" }, { 0x300, "g" }, { 0, NULL } } },
	{ "a size reaching past the top of the address space",
	  { { "top", UINT64_MAX - 0xf, 0x100, UINT64_MAX, SYM_OBJECT,
	      GLOBAL }, { NULL } },
	  { { "top", UINT64_MAX - 0xf, UINT64_MAX, false }, { NULL } },
	  { { UINT64_MAX - 0x10, "-" }, { UINT64_MAX - 0xf, "top" },
	    { UINT64_MAX - 1, "top" }, { 0, NULL } } },
	{ "unsorted over several address bytes, aliases among them",
	  { { "hi", 0x7f0000001000, 0x10, LIM, SYM_FUNC, GLOBAL },
	    { "mid_obj", 0x12345600, 0x20, LIM, SYM_OBJECT, GLOBAL },
	    { "lo", 0x1200, 0x10, LIM, SYM_FUNC, GLOBAL },
	    { "mid_weak", 0x12345600, 0x20, LIM, SYM_FUNC, WEAK },
	    { "mid", 0x12345600, 0x20, LIM, SYM_FUNC, GLOBAL },
	    { "mid_local", 0x12345600, 0x20, LIM, SYM_FUNC, LOCAL },
	    { "next", 0x12345700, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "lo", 0x1200, 0x1210, false },
	    { "mid", 0x12345600, 0x12345620, false },
	    { "next", 0x12345700, 0x12345710, false },
	    { "hi", 0x7f0000001000, 0x7f0000001010, false }, { NULL } },
	  { { 0x1200, "lo" }, { 0x1234561f, "mid" }, { 0x12345700, "next" },
	    { 0x7f000000100f, "hi" }, { 0x7f0000001010, "-" },
	    { 0, NULL } } },
	{ "unsorted input",
	  { { "c", 0x300, 0x10, LIM, SYM_FUNC, GLOBAL },
	    { "a", 0x100, 0x10, LIM, SYM_FUNC, GLOBAL },
	    { "b", 0x200, 0x10, LIM, SYM_FUNC, GLOBAL }, { NULL } },
	  { { "a", 0x100, 0x110, false }, { "b", 0x200, 0x210, false },
	    { "c", 0x300, 0x310, false }, { NULL } },
	  { { 0x100, "a" }, { 0x205, "b" }, { 0x30f, "c" }, { 0x310, "-" },
	    { 0, NULL } } },
};

/* A symtab with syms built from the raw list of case c. */
static void build_case(struct fixture *fx, struct symtab *st,
		       const struct rs *raw)
{
	struct raw_sym v[8];
	size_t n = 0;

	symtab_init(st, &fx->names);
	for (; raw[n].name; n++) {
		memset(&v[n], 0, sizeof(v[n]));
		v[n].addr = raw[n].addr;
		v[n].size = raw[n].size;
		v[n].limit = raw[n].limit;
		v[n].name = v[n].raw = id(fx, raw[n].name);
		v[n].order = (uint32_t)n;
		v[n].kind = raw[n].kind;
		v[n].bind = raw[n].bind;
	}
	symtab_build_syms(st, v, n);
}

static void test_build_syms(void **state)
{
	struct fixture *fx = *state;

	for (size_t c = 0; c < sizeof(syms_cases) / sizeof(syms_cases[0]);
	     c++) {
		const struct syms_case *sc = &syms_cases[c];
		struct symtab st;
		size_t n = 0;

		print_message("%s\n", sc->what);
		build_case(fx, &st, sc->raw);
		for (; sc->want[n].name; n++) {
			const struct sym *s = &st.syms[n];

			assert_true(n < st.nsyms);
			assert_string_equal(names_str(&fx->names, s->name),
					    sc->want[n].name);
			assert_int_equal(s->addr, sc->want[n].addr);
			assert_int_equal(s->end, sc->want[n].end);
			assert_int_equal(s->end_guessed, sc->want[n].guessed);
		}
		assert_int_equal(st.nsyms, n);
		for (size_t i = 0; sc->probes[i].name; i++) {
			const struct sym *s =
				symtab_lookup(&st, sc->probes[i].addr);

			if (!strcmp(sc->probes[i].name, "-")) {
				assert_null(s);
				continue;
			}
			assert_non_null(s);
			assert_string_equal(names_str(&fx->names, s->name),
					    sc->probes[i].name);
		}
		symtab_release(&st);
	}
}

static void test_find(void **state)
{
	static const struct rs raw[] = {
		{ "__libc_malloc", 0x100, 0x40, LIM, SYM_FUNC, GLOBAL },
		{ "malloc", 0x100, 0x40, LIM, SYM_FUNC, WEAK },
		{ "helper", 0x200, 0x10, LIM, SYM_FUNC, LOCAL },
		{ NULL },
	};
	static const struct {
		const char *name, *found;	/* found NULL: not found */
	} cases[] = {
		{ "__libc_malloc", "__libc_malloc" },
		{ "malloc", "__libc_malloc" },	/* the alias finds it */
		{ "helper", "helper" },
		{ "nothere", NULL },
	};
	struct fixture *fx = *state;
	struct symtab st;

	build_case(fx, &st, raw);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sym *s = symtab_find(&st, id(fx, cases[i].name));

		if (!cases[i].found) {
			assert_null(s);
			continue;
		}
		assert_non_null(s);
		assert_string_equal(names_str(&fx->names, s->name),
				    cases[i].found);
	}
	assert_null(symtab_find(&st, NO_NAME));
	symtab_release(&st);
}

/* --- lines[] --- */

struct row {
	uint64_t addr;
	uint32_t line;		/* 0 with end: the end of a sequence */
	bool end;
};

#define L(a, l) { a, l, false }	/* a row */
#define E(a) { a, 0, true }		/* the end of a sequence */

static const struct lines_case {
	const char *what;
	struct row rows[12];	/* ends with a row of all 0 */
	struct { uint64_t addr; uint32_t line; } probes[10];	/* line 0:
								 * none */
} lines_cases[] = {
	{ "one sequence",
	  { L(0x100, 1), L(0x104, 2), E(0x110) },
	  { { 0xff, 0 }, { 0x100, 1 }, { 0x103, 1 }, { 0x104, 2 },
	    { 0x10f, 2 }, { 0x110, 0 } } },
	{ "rows at one address: the last counts",
	  { L(0x100, 1), L(0x100, 7), L(0x104, 2), L(0x104, 3),
	    E(0x108) },
	  { { 0x100, 7 }, { 0x104, 3 }, { 0x107, 3 }, { 0x108, 0 } } },
	{ "sequences back to back",
	  { L(0x100, 1), E(0x110), L(0x110, 5),
	    E(0x120) },
	  { { 0x10f, 1 }, { 0x110, 5 }, { 0x11f, 5 }, { 0x120, 0 } } },
	{ "a gap between sequences",
	  { L(0x100, 1), E(0x110), L(0x200, 5),
	    E(0x210) },
	  { { 0x110, 0 }, { 0x1ff, 0 }, { 0x200, 5 }, { 0x210, 0 } } },
	{ "sequences out of order",
	  { L(0x200, 5), E(0x210), L(0x100, 1),
	    E(0x110) },
	  { { 0x100, 1 }, { 0x200, 5 }, { 0x20f, 5 } } },
	{ "a sequence inside another is dropped",
	  { L(0x100, 1), L(0x140, 2), E(0x200), L(0x120, 9),
	    E(0x130) },
	  { { 0x120, 1 }, { 0x12f, 1 }, { 0x140, 2 } } },
	{ "an overlapping sequence is cut where the first ends",
	  { L(0x100, 1), E(0x140), L(0x120, 7), L(0x150, 8),
	    E(0x160) },
	  { { 0x13f, 1 }, { 0x140, 7 }, { 0x14f, 7 }, { 0x150, 8 },
	    { 0x160, 0 } } },
	{ "code the linker dropped, at 0 in every CU",
	  { L(0x0, 3), E(0x10), L(0x0, 4), E(0x20),
	    L(0x1000, 9), E(0x1010) },
	  { { 0x0, 4 }, { 0xf, 4 }, { 0x10, 4 }, { 0x20, 0 },
	    { 0x1000, 9 } } },
	{ "an empty sequence holds nothing",
	  { L(0x100, 1), E(0x100), L(0x200, 2),
	    E(0x204) },
	  { { 0x100, 0 }, { 0x200, 2 } } },
	{ "rows out of order within a sequence",
	  { L(0x108, 3), L(0x100, 1), L(0x104, 2), E(0x110) },
	  { { 0x100, 1 }, { 0x104, 2 }, { 0x108, 3 }, { 0x110, 0 } } },
};

static void test_lines(void **state)
{
	struct fixture *fx = *state;
	name_id file = id(fx, "/src/a.c");

	for (size_t c = 0; c < sizeof(lines_cases) / sizeof(lines_cases[0]);
	     c++) {
		const struct lines_case *lc = &lines_cases[c];
		struct line_entry *rows = calloc(12, sizeof(*rows));
		struct symtab st;
		size_t n = 0;

		print_message("%s\n", lc->what);
		for (; lc->rows[n].line || lc->rows[n].end; n++) {
			rows[n].addr = lc->rows[n].addr;
			rows[n].line = lc->rows[n].line;
			rows[n].file = file;
			rows[n].end_sequence = lc->rows[n].end;
		}
		symtab_init(&st, &fx->names);
		lines_build(&st, rows, n);
		for (size_t i = 1; i < st.nlines; i++)
			assert_true(st.lines[i - 1].addr <= st.lines[i].addr);
		for (size_t i = 0; i < 10 && (i == 0 || lc->probes[i].addr);
		     i++) {
			const struct line_entry *le =
				symtab_line(&st, lc->probes[i].addr);

			if (!lc->probes[i].line) {
				assert_null(le);
				continue;
			}
			assert_non_null(le);
			assert_int_equal(le->line, lc->probes[i].line);
			assert_int_equal(le->file, file);
		}
		symtab_release(&st);
	}
}

/* --- ranges[] and symtab_frames() --- */

struct fn {
	const char *name;	/* NULL ends the list */
	int caller;		/* index in the list, or -1 */
	uint32_t call_line;
	bool linkage;
};

struct piece {
	uint64_t low, high;
	int func;		/* -1 ends the list */
};

static const struct frames_case {
	const char *what;
	struct fn funcs[6];
	struct piece pieces[8];
	struct {
		uint64_t addr;
		const char *chain;	/* "f:line<g:line..." or "" none */
	} probes[10];
} frames_cases[] = {
	{ "a function, an inlined one, one inlined into that",
	  { { "main", -1, 0, true }, { "f", 0, 20, true },
	    { "g", 1, 30, true }, { NULL } },
	  { { 0x100, 0x200, 0 }, { 0x120, 0x180, 1 }, { 0x140, 0x150, 2 },
	    { 0, 0, -1 } },
	  { { 0x100, "main:5" }, { 0x120, "f:5<main:20" },
	    { 0x140, "g:5<f:30<main:20" }, { 0x14f, "g:5<f:30<main:20" },
	    { 0x150, "f:5<main:20" }, { 0x180, "main:5" },
	    { 0x1ff, "main:5" } } },
	{ "an inlined copy in two pieces, the caller in one",
	  { { "main", -1, 0, true }, { "f", 0, 20, true }, { NULL } },
	  { { 0x100, 0x200, 0 }, { 0x110, 0x120, 1 }, { 0x1f0, 0x1f8, 1 },
	    { 0, 0, -1 } },
	  { { 0x10f, "main:5" }, { 0x110, "f:5<main:20" },
	    { 0x120, "main:5" }, { 0x1f7, "f:5<main:20" },
	    { 0x1f8, "main:5" } } },
	{ "equal ranges: the later DIE (the inlined one) wins",
	  { { "main", -1, 0, true }, { "f", 0, 7, true }, { NULL } },
	  { { 0x100, 0x110, 0 }, { 0x100, 0x110, 1 }, { 0, 0, -1 } },
	  { { 0x100, "f:5<main:7" }, { 0x10f, "f:5<main:7" } } },
	{ "no function but a symbol: the symbol, without a file",
	  { { "main", -1, 0, true }, { NULL } },
	  { { 0x100, 0x110, 0 }, { 0, 0, -1 } },
	  { { 0x110, "elfsym:5" },
	    /* bfd ignores the symbol's size: it still names 0xf00 */
	    { 0x0f00, "elfsym:0" }, { 0x50, "" }, { 0x1000, "" } } },
};

/*
 * A symtab with one code section [0, 0x1000) whose line table says line
 * 5 everywhere below 0x300, one ELF symbol "elfsym" at 0x110, and the
 * functions and ranges of the case.
 */
static void build_frames(struct fixture *fx, struct symtab *st,
			 const struct frames_case *fc)
{
	struct dwarf_data d;
	struct line_entry *rows = calloc(2, sizeof(*rows));
	struct fsym *fs = calloc(1, sizeof(*fs));
	size_t n;

	symtab_init(st, &fx->names);
	st->priv->secs = calloc(1, sizeof(*st->priv->secs));
	st->priv->secs[0] = (struct sec){ 0, 0x1000, 1, NO_NAME, true };
	st->priv->nsecs = 1;
	fs[0] = (struct fsym){ 0x110, 1, 1, 1, id(fx, "elfsym"), NO_NAME };
	symtab_build_fsyms(st->priv, fs, 1);
	rows[0] = (struct line_entry){ 0x100, NO_NAME, 5, 0, false };
	rows[1] = (struct line_entry){ 0x300, NO_NAME, 0, 0, true };
	lines_build(st, rows, 2);
	memset(&d, 0, sizeof(d));
	for (n = 0; fc->funcs[n].name; n++)
		;
	d.funcs = calloc(n, sizeof(*d.funcs));
	d.nfuncs = n;
	for (size_t i = 0; i < n; i++) {
		struct dfunc *f = &d.funcs[i];

		f->name = id(fx, fc->funcs[i].name);
		f->caller = fc->funcs[i].caller < 0
				    ? NO_IDX
				    : (uint32_t)fc->funcs[i].caller;
		f->inlined = fc->funcs[i].caller >= 0;
		f->call_line = fc->funcs[i].call_line;
		f->call_file = NO_NAME;
		f->is_linkage = fc->funcs[i].linkage;
	}
	for (n = 0; fc->pieces[n].func >= 0; n++)
		;
	d.pieces = calloc(n ? n : 1, sizeof(*d.pieces));
	d.npieces = n;
	for (size_t i = 0; i < n; i++) {
		d.pieces[i].low = fc->pieces[i].low;
		d.pieces[i].high = fc->pieces[i].high;
		d.pieces[i].func = (uint32_t)fc->pieces[i].func;
		d.pieces[i].die = i;
		if (!d.funcs[d.pieces[i].func].has_low) {
			d.funcs[d.pieces[i].func].has_low = true;
			d.funcs[d.pieces[i].func].low = d.pieces[i].low;
		}
	}
	ranges_build(st, &d);
	dwarf_data_release(&d);
}

static void test_frames(void **state)
{
	struct fixture *fx = *state;

	for (size_t c = 0;
	     c < sizeof(frames_cases) / sizeof(frames_cases[0]); c++) {
		const struct frames_case *fc = &frames_cases[c];
		struct symtab st;

		print_message("%s\n", fc->what);
		build_frames(fx, &st, fc);
		for (size_t i = 0; i < 10 && fc->probes[i].chain; i++) {
			struct frame f[8];
			size_t n = symtab_frames(&st, fc->probes[i].addr, f, 8);
			char got[256] = "";

			for (size_t k = 0; k < n; k++) {
				size_t len = strlen(got);

				snprintf(got + len, sizeof(got) - len,
					 "%s%s:%u", k ? "<" : "",
					 names_str(&fx->names, f[k].func),
					 f[k].line);
			}
			assert_string_equal(got, fc->probes[i].chain);
		}
		/* max bounds the chain */
		{
			struct frame one;

			assert_true(symtab_frames(&st, 0x100, &one, 1) <= 1);
			assert_int_equal(symtab_frames(&st, 0x100, &one, 0), 0);
		}
		symtab_release(&st);
	}
}

/* --- bfd's picks among ELF symbols --- */

static void test_fsyms_pick(void **state)
{
	static const struct {
		uint64_t addr, size;
		uint32_t sec, order;
		const char *name;
	} in[] = {
		{ 0x100, 1, 2, 5, "small" },
		{ 0x100, 40, 2, 9, "large" },	/* the largest wins */
		{ 0x200, 8, 2, 3, "first" },
		{ 0x200, 8, 2, 4, "second" },	/* then the first */
		{ 0x100, 8, 3, 1, "other_section" },
	};
	static const struct {
		uint32_t sec;
		uint64_t addr;
		const char *name;	/* NULL: none */
	} probes[] = {
		{ 2, 0xff, NULL }, { 2, 0x100, "large" },
		{ 2, 0x1ff, "large" },	/* sizes are not looked at */
		{ 2, 0x200, "first" }, { 2, 0x9999, "first" },
		{ 3, 0x100, "other_section" }, { 1, 0x100, NULL },
		{ 4, 0x100, NULL },
	};
	struct fixture *fx = *state;
	struct symtab st;
	struct fsym *v = calloc(5, sizeof(*v));

	symtab_init(&st, &fx->names);
	for (size_t i = 0; i < 5; i++)
		v[i] = (struct fsym){ in[i].addr, in[i].size, in[i].sec,
				      in[i].order, id(fx, in[i].name),
				      NO_NAME };
	symtab_build_fsyms(st.priv, v, 5);
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct fsym *f = fsyms_lookup(st.priv, probes[i].sec,
						    probes[i].addr);

		if (!probes[i].name) {
			assert_null(f);
			continue;
		}
		assert_non_null(f);
		assert_string_equal(names_str(&fx->names, f->name),
				    probes[i].name);
	}
	symtab_release(&st);
}

static void test_xsyms_pick(void **state)
{
	static const struct {
		uint64_t addr;
		uint32_t order;
		bool global;
		const char *name;
	} in[] = {
		{ 0x10, 1, false, "local1" }, { 0x10, 2, false, "local2" },
		{ 0x20, 3, false, "l" }, { 0x20, 4, true, "g1" },
		{ 0x20, 5, true, "g2" },
	};
	struct fixture *fx = *state;
	struct symtab_priv priv;
	struct xsym *v = calloc(5, sizeof(*v));

	memset(&priv, 0, sizeof(priv));
	for (size_t i = 0; i < 5; i++)
		v[i] = (struct xsym){ in[i].addr, 7, in[i].order,
				      id(fx, in[i].name), in[i].global };
	symtab_build_xsyms(&priv, v, 5);
	assert_int_equal(priv.nxsyms, 2);
	/* no global: the last; else the first global */
	assert_string_equal(names_str(&fx->names, priv.xsyms[0].raw),
			    "local2");
	assert_string_equal(names_str(&fx->names, priv.xsyms[1].raw), "g1");
	free(priv.xsyms);
}

/* --- demangling --- */

static void test_demangle(void **state)
{
	static const struct {
		const char *raw, *want;
	} cases[] = {
		{ "main", "main" },
		{ "_Z3fooi", "foo(int)" },
		{ "_ZN4work6square4areaEv", "work::square::area()" },
		{ "_ZNK4work7counter3getEi", "work::counter::get(int) const" },
		{ "_ZL5clampi.constprop.0", "clamp(int) [clone .constprop.0]" },
		{ "_Z3fooi@plt", "foo(int)@plt" },
		{ "puts@plt", "puts@plt" },
		{ "_ZN4core3fmt5write17h0123456789abcdefE",
		  "core::fmt::write" },
		{ "_RNvCs15kBYyAo9fc_7mycrate3foo", "mycrate::foo" },
		{ "_Z", "_Z" },		/* not a valid mangling: as is */
		/* forms other than _Z and _R that bfd_demangle() changes */
		{ "_GLOBAL__I_main", "global constructors keyed to main" },
		{ "._Z3fooi", ".foo(int)" },
		{ "_Z3fooi@plt", "foo(int)@plt" },
		{ "printf", "printf" },
		{ "main@plt", "main@plt" },
		{ "_DYNAMIC", "_DYNAMIC" },
		{ "_GLOBAL_OFFSET_TABLE_", "_GLOBAL_OFFSET_TABLE_" },
		{ "_GLOBAL_.D_foo", "global destructors keyed to foo" },
		{ "_D4test3fooFZv", "_D4test3fooFZv" },	/* D: as bfd leaves it */
		{ "", "" },
	};
	struct fixture *fx = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		name_id d = demangle_name(&fx->names, id(fx, cases[i].raw));

		assert_string_equal(names_str(&fx->names, d), cases[i].want);
	}
}

/* demangles_to_word(): the manglings names_later still demangles as
 * read (a kernel symbol's name can be theirs), and no other; each one
 * bfd_demangle() takes to that word. */
static void test_demangles_to_word(void **state)
{
	static const struct {
		const char *raw;
		const char *word;	/* NULL: not one word */
	} cases[] = {
		{ "_ZL7counter", "counter" },
		{ "_Z7counter", "counter" },
		{ "_ZL4copy", "copy" },
		{ "_ZL7count", NULL },		/* shorter than said */
		{ "_ZL3fooi", NULL },		/* a function: "foo(int)" */
		{ "_ZN3foo3barE", NULL },	/* "foo::bar" */
		{ "_ZL07counter", "counter" },	/* as the demangler reads it */
		{ "_ZL8foo.cold", "foo.cold" },
		{ "_ZL0", NULL },
		{ "_ZL", NULL },
		{ "counter", NULL },
		{ "_RNvCs15kBYyAo9fc_7mycrate3foo", NULL },
		{ "_ZL7counter.lto_priv.0", NULL },
		{ "_ZL99999999999999999999x", NULL },
	};
	struct fixture *fx = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool word = demangles_to_word(cases[i].raw);
		name_id d = demangle_name(&fx->names, id(fx, cases[i].raw));

		assert_int_equal(word, cases[i].word != NULL);
		if (cases[i].word)
			assert_string_equal(names_str(&fx->names, d),
					    cases[i].word);
		else
			assert_true(strchr(names_str(&fx->names, d), '(') ||
				    strchr(names_str(&fx->names, d), ':') ||
				    strchr(names_str(&fx->names, d), ' ') ||
				    d == id(fx, cases[i].raw));
	}
}

/* --- symtab_open() on real files --- */

/* A copy of src at dst (mode kept), or of its first len bytes. */
static void copy_file(const char *src, const char *dst, long len)
{
	size_t n;
	char *data = slurp(src, &n);
	struct stat sb;
	FILE *f;

	assert_non_null(data);
	assert_int_equal(stat(src, &sb), 0);
	if (len >= 0 && (size_t)len < n)
		n = (size_t)len;
	f = fopen(dst, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	chmod(dst, sb.st_mode & 0777);
	free(data);
}

static char *temp_dir(void)
{
	char tmpl[] = "/tmp/cga-symtab-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return strdup(tmpl);
}

static void remove_tree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The table opened both ways, the same symbols; later's names made by
 * symtab_name() as now made them, and kept. */
static size_t same_names_later(struct fixture *fx, const char *path)
{
	struct symtab_opts now = { .demangle = true, .no_dwarf = true };
	struct symtab_opts later = { .demangle = true, .no_dwarf = true,
				     .names_later = true };
	struct symtab a, b;
	size_t made = 0;

	assert_int_equal(symtab_open(&a, path, &now, &fx->names), 0);
	assert_int_equal(symtab_open(&b, path, &later, &fx->names), 0);
	assert_int_equal(a.nsyms, b.nsyms);
	for (size_t i = 0; i < a.nsyms; i++) {
		assert_true(a.syms[i].addr == b.syms[i].addr);
		assert_true(a.syms[i].end == b.syms[i].end);
		/* not made yet: raw, or none at all for a CFI function */
		made += b.syms[i].name != a.syms[i].name;
		assert_true(b.syms[i].name == b.syms[i].raw);
		assert_int_equal(symtab_name(&b, &b.syms[i], false),
				 a.syms[i].raw);
		assert_int_equal(symtab_name(&b, &b.syms[i], true),
				 a.syms[i].name);
		assert_int_equal(b.syms[i].name, a.syms[i].name);
		assert_int_equal(b.syms[i].raw, a.syms[i].raw);
	}
	symtab_release(&a);
	symtab_release(&b);
	return made;
}

/* opts.names_later: a C++ PIE's mangled names (and its @plt stubs'),
 * and the "prog+0xADDR" names of a stripped copy's CFI functions, made
 * when asked as they are made at once. Fails if a name is made at once,
 * or not at all, or differently. */
static void test_names_later(void **state)
{
	struct fixture *fx = *state;
	char *dir = temp_dir(), stripped[4200], cmd[8500];

	assert_true(same_names_later(fx, CASES "/cxx-O2/prog") > 0);
	snprintf(stripped, sizeof(stripped), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "objcopy --strip-all '%s' '%s'",
		 CASES "/cxx-O2/prog", stripped);
	assert_int_equal(system(cmd), 0);
	assert_true(same_names_later(fx, stripped) > 0);
	remove_tree(dir);
	free(dir);
}

static int cmp_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * symtab_load_lines() on two tables of path, one with its lines made
 * ahead (symtab_prepare_lines(), as perf_preload.c's thread makes them)
 * and one without: the same rows, for every function's entry wanted,
 * or every seventh. Returns whether they were made ahead.
 */
static bool same_lines_ahead(struct fixture *fx, const char *path,
			     size_t step)
{
	struct symtab_opts o = { .demangle = true, .no_dwarf = true };
	struct symtab a, b;
	uint64_t *want;
	size_t n = 0, k = 0;
	bool made;

	assert_int_equal(symtab_open(&a, path, &o, &fx->names), 0);
	assert_int_equal(symtab_open(&b, path, &o, &fx->names), 0);
	made = symtab_prepare_lines(&b, NULL);
	want = calloc(a.nsyms + 1, sizeof(*want));
	for (size_t i = 0; i < a.nsyms; i++)
		if (a.syms[i].kind != SYM_OBJECT)
			want[n++] = a.syms[i].addr;
	qsort(want, n, sizeof(*want), cmp_addr);
	for (size_t i = 0; i < n; i += step)
		if (!k || want[k - 1] != want[i])
			want[k++] = want[i];
	assert_int_equal(symtab_load_lines(&a, want, k, NULL), 0);
	assert_int_equal(symtab_load_lines(&b, want, k, NULL), 0);
	assert_true(a.nlines > 0);
	assert_int_equal(a.nlines, b.nlines);
	for (size_t i = 0; i < a.nlines; i++) {
		assert_true(a.lines[i].addr == b.lines[i].addr);
		assert_int_equal(a.lines[i].file, b.lines[i].file);
		assert_int_equal(a.lines[i].line, b.lines[i].line);
		assert_int_equal(a.lines[i].discriminator,
				 b.lines[i].discriminator);
		assert_int_equal(a.lines[i].end_sequence,
				 b.lines[i].end_sequence);
	}
	free(want);
	symtab_release(&a);
	symtab_release(&b);
	return made;
}

/* The lines made ahead: a DWARF 5 PIE's own, and libc's from
 * libc6-dbg where it is installed; a table given none, or made ahead
 * and never asked, releases what was made (the ASan run checks). */
static void test_lines_ahead(void **state)
{
	struct fixture *fx = *state;
	struct symtab_opts o = { .demangle = true, .no_dwarf = true };
	struct symtab st;

	assert_true(same_lines_ahead(fx, CASES "/cxx-O2/prog", 1));
	assert_true(same_lines_ahead(fx, CASES "/cxx-O2/prog", 7));
	if (access("/usr/lib/debug/.build-id", F_OK) == 0) {
		same_lines_ahead(fx, "/lib/x86_64-linux-gnu/libc.so.6", 1);
		same_lines_ahead(fx, "/lib/x86_64-linux-gnu/libc.so.6", 7);
	}
	assert_int_equal(symtab_open(&st, CASES "/cxx-O2/prog", &o,
				     &fx->names), 0);
	assert_true(symtab_prepare_lines(&st, NULL));
	assert_false(symtab_prepare_lines(&st, NULL));	/* made once */
	assert_int_equal(symtab_load_lines(&st, NULL, 0, NULL), 0);
	assert_int_equal(st.nlines, 0);
	symtab_release(&st);
}

/* symtab_open with diagnostics captured into *msg (malloc'd). */
static int open_captured(struct fixture *fx, struct symtab *st,
			 const char *path, const char *debug_dir, char **msg)
{
	struct symtab_opts o = { .demangle = true, .debug_dir = debug_dir };
	int ret;

	diag_capture_begin();
	ret = symtab_open(st, path, &o, &fx->names);
	*msg = diag_capture_end();
	return ret;
}

/* Point section 15 (.text in c-pie/prog) past the end of the file. */
static void break_text_offset(const char *path)
{
	FILE *f = fopen(path, "r+b");
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	long at;

	assert_non_null(f);
	assert_int_equal(fread(&eh, sizeof(eh), 1, f), 1);
	at = (long)(eh.e_shoff + 15 * sizeof(sh));
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fread(&sh, sizeof(sh), 1, f), 1);
	sh.sh_offset = 1 << 20;
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fwrite(&sh, sizeof(sh), 1, f), 1);
	fclose(f);
}

static void test_open_errors(void **state)
{
	static const struct {
		const char *what;
		const char *src;	/* copied; NULL: text below */
		long len;		/* bytes of src kept; -1 all */
		const char *text;
		bool bad_offset;	/* .text's sh_offset past the end */
		const char *msg;	/* expected in the message */
	} cases[] = {
		{ "missing", NULL, 0, NULL, false, "cannot open" },
		{ "text file", NULL, 0, "hello\n", false, "not an ELF file" },
		{ "empty file", NULL, 0, "", false,
		  "the file is empty, not an ELF file" },
		{ "inside the header", CASES "/c-pie/prog", 63, NULL, false,
		  ": offset 0x3f: the file ends inside the ELF header" },
		{ "header only", CASES "/c-pie/prog", 64, NULL, false,
		  "header table (40 entries of 64 bytes) runs past the end "
		  "of the file at 0x40" },
		{ "cut before the section headers", CASES "/c-pie/prog",
		  20000, NULL, false,
		  "the section header table (40 entries of 64 bytes) runs "
		  "past the end of the file at 0x4e20" },
		{ "a section past the end", CASES "/c-pie/prog", -1, NULL,
		  true, ": offset 0x100000: section [15] '.text' (0x" },
	};
	struct fixture *fx = *state;
	char *dir = temp_dir();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256];
		struct symtab st;
		char *msg;

		print_message("%s\n", cases[i].what);
		snprintf(path, sizeof(path), "%s/prog", dir);
		unlink(path);
		if (cases[i].src) {
			copy_file(cases[i].src, path, cases[i].len);
			if (cases[i].bad_offset)
				break_text_offset(path);
		} else if (cases[i].text) {
			FILE *f = fopen(path, "w");

			assert_non_null(f);
			fputs(cases[i].text, f);
			fclose(f);
		}
		assert_int_equal(open_captured(fx, &st, path, NULL, &msg), -1);
		assert_non_null(strstr(msg, cases[i].msg));
		assert_non_null(strstr(msg, path));	/* names the file */
		/* one line: reported once */
		assert_ptr_equal(strchr(msg, '\n'), msg + strlen(msg) - 1);
		free(msg);
	}
	remove_tree(dir);
	free(dir);
}

static void test_open_binaries(void **state)
{
	static const struct {
		const char *path;
		bool is_dyn, has_dwarf, warns;
		const char *debug_suffix;	/* of debug_path; NULL none */
	} cases[] = {
		{ CASES "/c-pie/prog", true, true, false, "c-pie/prog" },
		{ CASES "/c-nopie/prog", false, true, false, "c-nopie/prog" },
		{ CASES "/cxx-O2/prog", true, true, false, "cxx-O2/prog" },
		{ CASES "/shlib/libwork.so", true, true, false,
		  "libwork.so" },
		{ CASES "/stripped/prog", true, true, false,
		  "stripped/prog.debug" },
		{ CASES "/nodwarf/prog", true, false, true, NULL },
	};
	struct fixture *fx = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sym *main_sym;
		struct symtab st;
		char *msg;
		bool plt = false;

		if (access(cases[i].path, R_OK) != 0) {
			print_message("%s: not there, skipped\n",
				      cases[i].path);
			continue;
		}
		print_message("%s\n", cases[i].path);
		assert_int_equal(open_captured(fx, &st, cases[i].path, NULL,
					       &msg), 0);
		if (cases[i].warns) {
			assert_non_null(strstr(msg, "no DWARF"));
			assert_non_null(strstr(msg, cases[i].path));
			assert_ptr_equal(strchr(msg, '\n'),
					 msg + strlen(msg) - 1);
		} else {
			assert_string_equal(msg, "");
		}
		free(msg);
		assert_int_equal(st.elf_class, ELFCLASS64);
		assert_false(st.big_endian);
		assert_int_equal(st.machine, EM_X86_64);
		assert_int_equal(st.is_dyn, cases[i].is_dyn);
		assert_int_equal(st.build_id_len, 20);
		assert_true(st.has_symtab);
		assert_int_equal(st.has_dwarf, cases[i].has_dwarf);
		if (cases[i].debug_suffix) {
			size_t n = strlen(st.debug_path);
			size_t k = strlen(cases[i].debug_suffix);

			assert_true(n >= k);
			assert_string_equal(st.debug_path + n - k,
					    cases[i].debug_suffix);
			assert_true(st.nlines > 0);
			assert_true(st.nranges > 0);
		} else {
			assert_null(st.debug_path);
			assert_int_equal(st.nlines, 0);
		}
		/* sorted, and every sym is found at its first and last byte
		 * unless something nested starts there */
		for (size_t k = 0; k < st.nsyms; k++) {
			const struct sym *s = &st.syms[k];

			if (k)
				assert_true(st.syms[k - 1].addr < s->addr);
			if (s->kind == SYM_PLT)
				plt = true;
			if (s->end > s->addr)
				assert_ptr_equal(symtab_lookup(&st, s->addr),
						 s);
		}
		assert_true(plt);	/* printf@plt and the like */
		assert_true(st.nsegs >= 2);
		main_sym = symtab_find(&st, id(fx, strstr(cases[i].path,
							  "libwork")
							   ? "work_gcd"
							   : "main"));
		assert_non_null(main_sym);
		assert_int_equal(main_sym->kind, SYM_FUNC);
		assert_ptr_equal(symtab_lookup(&st, main_sym->addr), main_sym);
		assert_ptr_equal(symtab_lookup(&st, main_sym->end - 1),
				 main_sym);
		assert_non_null(symtab_segment(&st, main_sym->addr));
		assert_true(symtab_segment(&st, main_sym->addr)->flags & PF_X);
		assert_null(symtab_segment(&st, UINT64_MAX));
		if (cases[i].has_dwarf) {
			const struct line_entry *le =
				symtab_line(&st, main_sym->addr);
			struct frame f[4];

			assert_non_null(le);
			assert_true(le->line > 0);
			assert_int_equal(names_str(&fx->names, le->file)[0],
					 '/');
			assert_true(symtab_frames(&st, main_sym->addr, f, 4) >=
				    1);
		}
		symtab_release(&st);
	}
}

/* --- the separate debug file --- */

static void test_debug_file(void **state)
{
	static const struct {
		const char *what;
		const char *debug_at;	/* where prog.debug goes ("" none) */
		const char *other_at;	/* a wrong file put there */
		const char *found;	/* debug_path suffix; NULL none */
		const char *msg;	/* in the messages; NULL none */
	} cases[] = {
		{ "next to the binary", "bin/prog.debug", NULL,
		  "bin/prog.debug", NULL },
		{ "in its .debug/", "bin/.debug/prog.debug", NULL,
		  "bin/.debug/prog.debug", NULL },
		{ "under the debug directory", "debug/BINDIR/prog.debug", NULL,
		  "/prog.debug", NULL },
		{ "by build-id", "debug/.build-id/BUILDID", NULL,
		  ".debug", NULL },
		{ "a CRC that does not match", "", "bin/prog.debug", NULL,
		  "CRC does not match" },
		{ "a build-id that does not match", "",
		  "debug/.build-id/BUILDID", NULL, "build-id does not match" },
		{ "nowhere", "", NULL, NULL, "no DWARF" },
	};
	struct fixture *fx = *state;

	if (access(CASES "/stripped/prog.debug", R_OK) != 0)
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir = temp_dir(), bin[512], dbg[512], path[1024];
		char bindir[300], buildid[64] = "";
		struct symtab st;
		char *msg, *real;
		const char *places[2] = { cases[i].debug_at,
					  cases[i].other_at };

		print_message("%s\n", cases[i].what);
		snprintf(bindir, sizeof(bindir), "%s/bin", dir);
		mkdir(bindir, 0755);
		snprintf(bin, sizeof(bin), "%s/prog", bindir);
		snprintf(dbg, sizeof(dbg), "%s/debug", dir);
		copy_file(CASES "/stripped/prog", bin, -1);
		assert_int_equal(open_captured(fx, &st, bin, dbg, &msg), 0);
		for (size_t k = 0; k < st.build_id_len; k++)
			sprintf(buildid + 2 * k + (k > 0), k ? "%02x" : "%02x/",
				st.build_id[k]);
		strcat(buildid, ".debug");
		symtab_release(&st);
		free(msg);
		real = realpath(bindir, NULL);
		for (size_t k = 0; k < 2; k++) {
			char rel[512], *p, *slash;
			const char *src = k ? CASES "/c-nopie/prog"
					    : CASES "/stripped/prog.debug";

			if (!places[k] || !*places[k])
				continue;
			snprintf(rel, sizeof(rel), "%s", places[k]);
			if ((p = strstr(rel, "BINDIR")))
				snprintf(p, sizeof(rel) - (size_t)(p - rel),
					 "%s/prog.debug", real + 1);
			if ((p = strstr(rel, "BUILDID")))
				snprintf(p, sizeof(rel) - (size_t)(p - rel),
					 "%s", buildid);
			snprintf(path, sizeof(path), "%s/%s", dir, rel);
			/* make the directories on the way */
			for (slash = strchr(path + strlen(dir) + 1, '/'); slash;
			     slash = strchr(slash + 1, '/')) {
				*slash = '\0';
				mkdir(path, 0755);
				*slash = '/';
			}
			copy_file(src, path, -1);
		}
		free(real);
		assert_int_equal(open_captured(fx, &st, bin, dbg, &msg), 0);
		if (cases[i].found) {
			size_t n = strlen(st.debug_path);
			size_t k = strlen(cases[i].found);

			assert_true(st.has_dwarf);
			assert_true(n >= k);
			assert_string_equal(st.debug_path + n - k,
					    cases[i].found);
			assert_string_equal(msg, "");
		} else {
			assert_false(st.has_dwarf);
			assert_non_null(strstr(msg, cases[i].msg));
		}
		free(msg);
		symtab_release(&st);
		remove_tree(dir);
		free(dir);
	}
}

/* --- corrupt DWARF: errors or warnings, never a crash --- */

/* Offset and size of the named section of an ELF file. */
static bool section_span(const char *path, const char *name, size_t *off,
			 size_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while (!found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name)) {
			*off = sh.sh_offset;
			*size = sh.sh_size;
			found = true;
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* Write src with len bytes at offset off of section sec replaced; false
 * when src has no such section. */
static bool write_corrupt(const char *src, const unsigned char *orig,
			  size_t len, const char *path, const char *sec,
			  size_t off, const unsigned char *bytes, size_t n)
{
	unsigned char *copy;
	size_t at, size;
	FILE *f;

	if (!section_span(src, sec, &at, &size) || off >= size)
		return false;
	copy = malloc(len);
	assert_non_null(copy);
	memcpy(copy, orig, len);
	for (size_t k = 0; k < n && off + k < size; k++)
		copy[at + off + k] = bytes[k];
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(copy, 1, len, f), len);
	fclose(f);
	free(copy);
	return true;
}

/* Corruptions that once hung or crashed (found by fuzzing), with the
 * warning they give now (NULL: whatever it is, it names the file). */
static const struct {
	const char *section;
	size_t off;
	unsigned char bytes[8];
	size_t n;
	const char *msg;
} corrupt_cases[] = {
	/* abbreviations that turn DW_AT_sibling into a pointer backwards:
	 * the DIE walk went round in circles */
	{ ".debug_abbrev", 2, { 0x2a, 0x08 }, 2, "comes back to" },
	{ ".debug_abbrev", 0x14, { 0x28, 0x38 }, 2, NULL },
	/* a directory count of 0xffffffff: libdwarf allocated 128 GiB */
	{ ".debug_line", 0x20, { 0x69, 0xc6, 0xff, 0xa2, 0xff, 0xff, 0xff },
	  7, "a count larger than its header" },
	/* a range list table longer than its section: libdwarf freed
	 * memory twice */
	{ ".debug_rnglists", 0, { 0xf0, 0xff, 0xff, 0x0f }, 4,
	  "runs past the end of the section" },
	{ ".debug_rnglists", 4, { 0x04 }, 1, "not DWARF 5" },
	/* an entry indexing .debug_addr, which there is none of: libdwarf
	 * leaked the error it made */
	{ ".debug_rnglists", 12, { 0x01 }, 1,
	  "an indexed address without .debug_addr" },
	{ ".debug_rnglists", 12, { 0x09 }, 1, "an unknown range list entry" },
	/* location lists have the same table headers */
	{ ".debug_loclists", 8, { 0xff, 0xff, 0xff, 0xff }, 4,
	  "more offsets than bytes" },
};

static void test_corrupt_dwarf(void **state)
{
	static const char *const sections[] = {
		".debug_info", ".debug_abbrev", ".debug_line",
		".debug_rnglists", ".debug_str", ".debug_line_str",
		".debug_loclists", ".debug_aranges",
	};
	static const unsigned char junk[][4] = {
		{ 0xff, 0xff, 0xff, 0xff }, { 0, 0, 0, 0 },
		{ 0x80, 0x80, 0x80, 0x80 }, { 0x7f, 0x01, 0xfe, 0x13 },
	};
	struct fixture *fx = *state;
	const char *src = CASES "/cxx-O2/prog";
	char *dir = temp_dir(), path[256];
	size_t len, runs = 0, failed = 0;
	unsigned char *orig;
	uint32_t seed = 12345;

	if (access(src, R_OK) != 0)
		goto out;
	orig = (unsigned char *)slurp(src, &len);
	assert_non_null(orig);
	snprintf(path, sizeof(path), "%s/prog", dir);
	for (size_t i = 0;
	     i < sizeof(corrupt_cases) / sizeof(corrupt_cases[0]); i++) {
		struct symtab st;
		char *msg;

		print_message("%s+%zu\n", corrupt_cases[i].section,
			      corrupt_cases[i].off);
		assert_true(write_corrupt(src, orig, len, path,
					  corrupt_cases[i].section,
					  corrupt_cases[i].off,
					  corrupt_cases[i].bytes,
					  corrupt_cases[i].n));
		assert_int_equal(open_captured(fx, &st, path, NULL, &msg), 0);
		if (corrupt_cases[i].msg) {
			assert_non_null(strstr(msg, path));
			assert_non_null(strstr(msg, corrupt_cases[i].msg));
		} else if (*msg) {
			assert_non_null(strstr(msg, path));
		}
		free(msg);
		symtab_release(&st);
	}
	for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
		size_t off, size;

		if (!section_span(src, sections[s], &off, &size) || !size)
			continue;
		for (int t = 0; t < 24; t++) {
			struct symtab st;
			char *msg;
			size_t at;

			/* early bytes (headers) more often than late ones */
			seed = seed * 1103515245u + 12345u;
			at = t < 8 ? (size_t)t * 3 % size : (seed >> 8) % size;
			assert_true(write_corrupt(src, orig, len, path,
						  sections[s], at, junk[t % 4],
						  4));
			if (open_captured(fx, &st, path, NULL, &msg) < 0) {
				failed++;
				assert_non_null(strstr(msg, path));
			} else {
				/* every lookup still answers */
				for (size_t k = 0; k < st.nsyms; k += 7) {
					struct frame fr[16];

					symtab_frames(&st, st.syms[k].addr, fr,
						      16);
				}
				symtab_release(&st);
			}
			if (*msg)
				assert_non_null(strstr(msg, path));
			free(msg);
			runs++;
		}
	}
	print_message("%zu corrupt copies: %zu refused, the rest loaded\n",
		      runs, failed);
	assert_true(runs > 50);
	free(orig);
out:
	remove_tree(dir);
	free(dir);
}

static uint64_t uleb(const unsigned char *p, size_t *at)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		unsigned char b = p[(*at)++];

		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
}

/*
 * Every abbreviation says "has children": each DIE becomes the parent of
 * the next, so the tree is as deep as the CU has DIEs. Loading it must
 * stay bounded (no recursion, no stack growth with depth) and finish.
 */
static void test_degenerate_tree(void **state)
{
	struct fixture *fx = *state;
	const char *src = CASES "/cxx-O2/prog";
	char *dir = temp_dir(), path[256], *msg;
	unsigned char *data;
	size_t len, off, size, at, n = 0;
	struct symtab st;
	FILE *f;

	if (access(src, R_OK) != 0)
		goto out;
	data = (unsigned char *)slurp(src, &len);
	assert_non_null(data);
	assert_true(section_span(src, ".debug_abbrev", &off, &size));
	for (at = 0; at < size;) {
		if (!uleb(data + off, &at))
			continue;	/* the end of one CU's table */
		uleb(data + off, &at);	/* tag */
		data[off + at++] = 1;	/* DW_CHILDREN_yes */
		n++;
		for (;;) {
			uint64_t name = uleb(data + off, &at);
			uint64_t form = uleb(data + off, &at);

			if (form == 0x21)	/* DW_FORM_implicit_const */
				uleb(data + off, &at);
			if (!name && !form)
				break;
		}
	}
	assert_true(n > 100);
	snprintf(path, sizeof(path), "%s/prog", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	free(data);
	assert_int_equal(open_captured(fx, &st, path, NULL, &msg), 0);
	if (*msg)
		assert_non_null(strstr(msg, path));
	assert_true(st.nsyms > 0);	/* the symbols are still there */
	free(msg);
	symtab_release(&st);
out:
	remove_tree(dir);
	free(dir);
}

/*
 * libc's IRELATIVE PLT slots against objdump and readelf: objdump names
 * each "*ABS*+0xADDR@plt", after the ifunc at ADDR the slot calls; we
 * name it after that function ("mempcpy@plt"): of the names readelf
 * lists at ADDR, a public one when there is one (mempcpy, not
 * __mempcpy), and of those a global one (memcmp, not its weak alias
 * bcmp).
 */
static bool names_at(const char *readelf_out, uint64_t addr, const char *name,
		     bool *public_there, bool *global_public_there,
		     bool *is_global)
{
	bool found = false;

	*public_there = *global_public_there = *is_global = false;
	for (const char *l = readelf_out; l && *l; l = strchr(l, '\n'),
	     l = l ? l + 1 : NULL) {
		unsigned long long v;
		char sym[256], bind[16];
		size_t n;
		bool global;

		/* "  102: 000000000009c6a0   265 IFUNC   WEAK   DEFAULT   16 mempcpy@@GLIBC_2.2.5" */
		if (sscanf(l, " %*u: %llx %*s %*s %15s %*s %*s %255s", &v,
			   bind, sym) != 3 || v != addr)
			continue;
		n = strcspn(sym, "@");
		global = !strcmp(bind, "GLOBAL");
		if (sym[0] != '_') {
			*public_there = true;
			*global_public_there |= global;
		}
		if (strlen(name) == n && !strncmp(sym, name, n)) {
			found = true;
			*is_global = global;
		}
	}
	return found;
}

static char *command_output(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	char buf[65536];
	size_t n;

	assert_non_null(f);
	assert_non_null(m);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	pclose(f);
	fclose(m);
	return text;
}

static void test_irelative_plt(void **state)
{
	static const char libc[] = "/lib/x86_64-linux-gnu/libc.so.6";
	struct fixture *fx = *state;
	char cmd[512], *disasm, *syms, *msg;
	struct symtab st;
	size_t slots = 0;

	if (access(libc, R_OK) != 0) {
		print_message("%s: not there, skipped\n", libc);
		return;
	}
	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn %s | "
		 "grep '<\\*ABS\\*+0x[0-9a-f]*@plt>:$'", libc);
	disasm = command_output(cmd);
	snprintf(cmd, sizeof(cmd), "readelf -Ws --dyn-syms %s", libc);
	syms = command_output(cmd);
	assert_int_equal(open_captured(fx, &st, libc, NULL, &msg), 0);
	free(msg);
	for (const char *l = disasm; l && *l; l = strchr(l, '\n'),
	     l = l ? l + 1 : NULL) {
		unsigned long long slot, target;
		const struct sym *s;
		const char *name;
		size_t n;
		bool public_there, global_public_there, is_global;

		if (sscanf(l, "%llx <*ABS*+0x%llx@plt>:", &slot, &target) != 2)
			continue;
		slots++;
		s = symtab_lookup(&st, slot);
		assert_non_null(s);
		assert_int_equal(s->addr, slot);
		name = names_str(&fx->names, s->name);
		n = strlen(name);
		print_message("%#llx *ABS*+%#llx@plt: %s\n", slot, target, name);
		assert_true(n > 4 && !strcmp(name + n - 4, "@plt"));
		assert_null(strstr(name, "*ABS*"));
		{
			char *callee = strndup(name, n - 4);

			assert_true(names_at(syms, target, callee, &public_there,
					     &global_public_there, &is_global));
			if (public_there)
				assert_true(callee[0] != '_');
			if (global_public_there)
				assert_true(is_global);
			free(callee);
		}
	}
	if (!slots)
		print_message("%s: no IRELATIVE slots: nothing compared\n", libc);
	symtab_release(&st);
	free(disasm);
	free(syms);
}

/*
 * A stripped binary's unexported functions from its .eh_frame (cfi_funcs.c):
 * a copy stripped with objcopy --strip-all against the binary's own
 * symbols. Each function the strip took away and .eh_frame describes is
 * found again at its own address with its own end, named
 * "prog+0xADDR" by its link-time address (nm's); those without an FDE
 * are the start-up files' assembly (_init, _start, ...), a few only.
 */
static void test_stripped_cfi_funcs(void **state)
{
	static const char *const bins[] = {
		"tests/resolve/c-nopie/prog",	/* linked at 0x400000 */
		"tests/resolve/cxx-O2/prog",	/* PIE, C++ */
	};
	struct fixture *fx = *state;

	for (size_t b = 0; b < sizeof(bins) / sizeof(bins[0]); b++) {
		char *dir = temp_dir(), stripped[4200], cmd[8500], *msg;
		struct symtab full, bare;
		size_t recovered = 0, missing = 0;

		snprintf(stripped, sizeof(stripped), "%s/prog", dir);
		snprintf(cmd, sizeof(cmd), "objcopy --strip-all '%s' '%s'",
			 bins[b], stripped);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(open_captured(fx, &full, bins[b], NULL, &msg), 0);
		free(msg);
		assert_int_equal(open_captured(fx, &bare, stripped, NULL, &msg), 0);
		free(msg);
		assert_true(full.has_symtab);
		assert_false(bare.has_symtab);
		for (size_t i = 0; i < full.nsyms; i++) {
			const struct sym *s = &full.syms[i], *t;
			char want[64];

			if (s->kind != SYM_FUNC || s->end_guessed)
				continue;
			t = symtab_lookup(&bare, s->addr);
			/* exported: .dynsym still names it */
			if (t && t->addr == s->addr && t->raw == s->raw)
				continue;
			if (!t || t->addr != s->addr) {
				print_message("%s: %s at %#llx: no FDE\n", bins[b],
					      names_str(&fx->names, s->name),
					      (unsigned long long)s->addr);
				missing++;
				continue;
			}
			snprintf(want, sizeof(want), "prog+0x%llx",
				 (unsigned long long)s->addr);
			assert_string_equal(names_str(&fx->names, t->name), want);
			assert_int_equal(t->end, s->end);
			assert_true(t->is_local);
			recovered++;
		}
		print_message("%s: %zu unexported functions found again "
			      "from .eh_frame, %zu without an FDE\n", bins[b],
			      recovered, missing);
		assert_true(recovered >= 3);
		assert_true(missing <= 4);
		symtab_release(&full);
		symtab_release(&bare);
		remove_tree(dir);
		free(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_build_syms, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsyms_pick, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_xsyms_pick, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_demangle, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lines_ahead, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_names_later, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_demangles_to_word, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_open_errors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_open_binaries, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_debug_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_dwarf, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stripped_cfi_funcs, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_irelative_plt, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_degenerate_tree, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
