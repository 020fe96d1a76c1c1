/*
 * gmon.out as positions (src/resolve/gmon_pos.c): where a histogram bin's ticks
 * go, where an arc's call site is, and the line totals against
 * `gprof -l -b -p` 2.40, whose output is committed next to the programs
 * (tests/gmon/nopie-lines.gprof, pie-lines.gprof; tests/gmon/make.sh).
 *
 * How our line totals differ from gprof -l's, and why ours are right.
 * glibc's clock counts the interrupted pc in bin
 *     ((pc - low_pc) / 2) * scale / 65536        (profil(), integers)
 * with scale = 2 * nbins / (high_pc - low_pc) * 65536 as a truncated
 * float (monstartup()): 32817 for nopie.gmon, 32816 for pie.gmon. A
 * bin is about 4 bytes. gprof -l inverts that with truncation, so its
 * bins start up to 2 bytes lower than the clock's, and then shares each
 * bin among the lines its bytes overlap. The pc of a tick is where an
 * instruction starts; so the only lines a bin's ticks can be from are
 * those of the instructions that start in the clock's range of the bin.
 * Bins where gprof's answer and that differ, on these files:
 *
 *   nopie.gmon       clock's range        starts in it       gprof -l
 *   bin 1215 (6)     [0x4012f6,0x4012fa)  0x4012f8 line 41   imul 0x4012f4 l.41
 *   bin 1216 (2)     [0x4012fa,0x4012fe)  0x4012fb line 40   1 tick l.41, 1 l.40
 *   bin 1253 (4)     [0x40138e,0x401392)  0x40138f line 40   2 ticks l.41, 2 l.40
 *   bin 1143 (5)     [0x4011d6,0x4011da)  0x4011d6 line 41,  line 41
 *                                          0x4011d9 line 40
 *
 * Bins 1216 and 1253 hold one instruction start each, on line 40: all
 * their 6 ticks are line 40's, where gprof gives line 40 only 3; bin
 * 1143 could be either line (we take the first instruction, gprof the
 * overlap, both say 41). So line 40 has 6 ticks, not gprof's 3, and line
 * 41 25, not 28.
 *
 *   pie.gmon
 *   bin 1167 (18)    [0x1236,0x123a)      0x1238 line 21     0x1235 line 22
 *   bin 1198 (1)     [0x12b2,0x12b6)      0x12b3 line 40     half l.41, half l.40
 *   bin 1225 (2)     [0x131e,0x1322)      0x131e line 40     1 tick l.41, 1 l.40
 *   bin 1262 (6)     [0x13b2,0x13b6)      0x13b2 line 40     line 40
 *   bin 1151 (1)     [0x11f6,0x11fa)      0x11f9 line 41     line 41
 *
 * Bin 1167's only start is the loop's "add $1,%rax", line 21 (the for
 * loop), not the line-22 add before it: the 18 ticks are line 21's,
 * gprof gives them to 22. Line 40: 2 + 1 + 6 = 9 ticks where gprof has
 * 4.5 (bin 1225 half-shared; bin 1198's half), line 41: 18 not 22.5.
 * Everything else is equal: the per-line totals are the same sum (94
 * ticks), spin's line 22 with gprof's 60 on nopie.
 *
 * (Why the clock's samples land on the add after an imul rather than on
 * the imul: the interrupted instruction is the one waiting to complete,
 * usually the one that uses the slow result. perf annotate shows the
 * same skid; gprof's bins, 2 bytes low, put those ticks on the imul.)
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "cli/analyze.h"
#include "cli/options.h"
#include "profile/gmon_data.h"
#include "resolve/resolve.h"
#include "symtab/symtab.h"

#define NOPIE "tests/gmon/prog-nopie"
#define PIE "tests/gmon/prog-pie"

struct run {
	struct profile p;
	struct symtab st;
};

/* Read gmon against prog with positions, as analyze.c does. */
static void run_open(struct run *r, const char *prog, const char *gmon)
{
	struct symtab_opts so = { .demangle = true };
	struct resolve_opts rso = { .want_positions = true };
	struct read_target t;
	struct read_opts ro = { .want_positions = true, .target = &t };
	struct resolve_report rep;
	char *diag;

	profile_init(&r->p);
	assert_int_equal(symtab_open(&r->st, prog, &so, &r->p.names), 0);
	t.binary = prog;
	t.addr_size = 8;
	t.big_endian = false;
	diag_capture_begin();
	assert_int_equal(read_profile(&r->p, gmon, &ro), 0);
	assert_int_equal(resolve_gmon(&r->p, &r->st, &rso, &rep), 0);
	profile_finish(&r->p);
	diag = diag_capture_end();
	assert_string_equal(diag, "");
	free(diag);
}

static void run_close(struct run *r)
{
	symtab_release(&r->st);
	profile_release(&r->p);
}

/* Ticks at link-time address a (every position there). */
static uint64_t ticks_at(const struct run *r, uint64_t a)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->p.npos; i++)
		if (r->p.pos[i].addr == a)
			n += profile_pos_cost(&r->p, (uint32_t)i)[0];
	return n;
}

/* Our ticks on line `line` of prog.c, times two (gprof has halves). */
static uint64_t our_half_ticks(const struct run *r, uint32_t line)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->p.npos; i++) {
		const struct ppos *q = &r->p.pos[i];

		if (q->line == line && q->file != NO_NAME &&
		    strstr(profile_str(&r->p, q->file), "prog.c"))
			n += profile_pos_cost(&r->p, (uint32_t)i)[0];
	}
	return 2 * n;
}

#define MAX_LINE 200

/*
 * gprof -l -p's rows "% time ... name (prog.c:LINE @ addr)" summed by
 * line, in half ticks: % time is of all `total` ticks, to 0.01%.
 */
static void gprof_half_ticks(const char *path, uint64_t total, uint64_t *by_line)
{
	size_t len;
	char *text = slurp(path, &len), *save = NULL;
	size_t rows = 0;

	assert_non_null(text);
	memset(by_line, 0, MAX_LINE * sizeof(*by_line));
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *at = strstr(l, "(prog.c:"), *end;
		double pct = strtod(l, &end);
		unsigned long line;

		if (!at || end == l)
			continue;
		line = strtoul(at + 8, NULL, 10);
		assert_true(line > 0 && line < MAX_LINE);
		by_line[line] += (uint64_t)(pct * (double)total / 50.0 + 0.5);
		rows++;
	}
	assert_true(rows >= 8);	/* it compared something */
	free(text);
}

struct line_want {
	uint32_t line;
	uint64_t ours2, gprof2;	/* half ticks */
};

static void compare_lines(const char *prog, const char *gmon,
			  const char *gprof_file, uint64_t total,
			  const struct line_want *differ, size_t ndiffer)
{
	struct run r;
	uint64_t gp[MAX_LINE], sum = 0;

	run_open(&r, prog, gmon);
	gprof_half_ticks(gprof_file, total, gp);
	for (uint32_t line = 1; line < MAX_LINE; line++) {
		uint64_t ours = our_half_ticks(&r, line);
		size_t k;

		sum += ours;
		for (k = 0; k < ndiffer && differ[k].line != line; k++)
			;
		if (k < ndiffer) {
			assert_int_equal(ours, differ[k].ours2);
			assert_int_equal(gp[line], differ[k].gprof2);
		} else if (ours != gp[line]) {
			fail_msg("%s line %u: gprof -l has %.1f ticks, we have %.1f",
				 gmon, line, (double)gp[line] / 2,
				 (double)ours / 2);
		}
	}
	assert_int_equal(sum, 2 * total);
	run_close(&r);
}

static void test_lines_nopie(void **state)
{
	static const struct line_want differ[] = {
		{ 40, 12, 6 }, { 41, 50, 56 },
	};

	(void)state;
	compare_lines(NOPIE, "tests/gmon/nopie.gmon",
		      "tests/gmon/nopie-lines.gprof", 92, differ, 2);
}

static void test_lines_pie(void **state)
{
	static const struct line_want differ[] = {
		{ 21, 36, 0 }, { 22, 98, 134 }, { 40, 18, 9 }, { 41, 36, 45 },
	};

	(void)state;
	compare_lines(PIE, "tests/gmon/pie.gmon", "tests/gmon/pie-lines.gprof",
		      94, differ, 4);
}

/* The instruction a bin's ticks are put on (see the table above). */
static void test_bins_to_instructions(void **state)
{
	struct run r;

	(void)state;
	run_open(&r, NOPIE, "tests/gmon/nopie.gmon");
	assert_int_equal(ticks_at(&r, 0x4012f8), 6);	/* bin 1215 */
	assert_int_equal(ticks_at(&r, 0x4012fb), 2);	/* bin 1216 */
	assert_int_equal(ticks_at(&r, 0x4012f4), 0);	/* gprof's imul */
	assert_int_equal(ticks_at(&r, 0x40138f), 4);	/* bin 1253 */
	assert_true(r.p.has_instr && r.p.has_line);
	run_close(&r);
}

/*
 * glibc writes an arc's from_pc rounded down to 16 bytes: the call to
 * spin at 0x40133c returns to 0x401341, and the file says 0x401340;
 * the one at 0x401312 returns to 0x401317 and the file says 0x401310,
 * which is on the line before. The call site is the call instruction.
 */
static void test_call_sites(void **state)
{
	static const struct {
		uint64_t addr;
		const char *callee;
		uint64_t count;
	} want[] = {
		{ 0x40133c, "spin", 7500 },
		{ 0x401312, "spin", 45000 },
		{ 0x40131f, "pong", 45000 },
		{ 0x401249, "fib", 3524577 },
		{ 0x401254, "fib", 3524577 },
		{ 0x4013a3, "helper.part.0", 20000 },
		{ 0x401438, "work", 1 },
	};
	struct run r;
	size_t found = 0;

	(void)state;
	run_open(&r, NOPIE, "tests/gmon/nopie.gmon");
	for (size_t i = 0; i < r.p.ncallsites; i++) {
		const struct pcallsite *cs = &r.p.callsites[i];
		const struct ppos *q = &r.p.pos[cs->pos];
		const char *callee =
			profile_str(&r.p, r.p.funcs[r.p.calls[cs->call].callee].name);

		for (size_t k = 0; k < sizeof(want) / sizeof(*want); k++) {
			if (want[k].addr != q->addr)
				continue;
			assert_string_equal(callee, want[k].callee);
			assert_int_equal(cs->count, want[k].count);
			found++;
		}
	}
	assert_int_equal(found, sizeof(want) / sizeof(*want));
	/* every arc became one call site: 12 arcs, 12 sites */
	assert_int_equal(r.p.ncallsites, 12);
	run_close(&r);
}

/* A PIE profile with runtime addresses: the same instructions, at their
 * runtime addresses (the listings take the load offset off). */
static void test_runtime_addresses(void **state)
{
	struct run a, b;
	uint64_t off = 0x555555554000;

	(void)state;
	run_open(&a, PIE, "tests/gmon/pie.gmon");
	run_open(&b, PIE, "tests/gmon/pie-runtime.gmon");
	assert_int_equal(a.p.npos, b.p.npos);
	for (size_t i = 0; i < a.p.npos; i++) {
		assert_int_equal(ticks_at(&a, a.p.pos[i].addr),
				 ticks_at(&b, a.p.pos[i].addr + off));
	}
	assert_int_equal(ticks_at(&a, 0x1238), 18);
	run_close(&a);
	run_close(&b);
}

static char *run_json(const char *prog, const char *gmon)
{
	char *argv[] = { (char *)"cganalyze", (char *)"-b", (char *)prog,
			 (char *)"--annotate", (char *)"--json", (char *)gmon,
			 NULL };
	char *buf = NULL;
	size_t len = 0;
	struct options o;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(options_parse(&o, 6, argv, out), OPTIONS_OK);
	assert_int_equal(analyze_run(&o, out), 0);
	options_release(&o);
	fclose(out);
	return buf;
}

/* The "execs" of line `line` in the JSON "lines", or -1 when none. */
static long long json_execs(const char *json, unsigned line)
{
	char key[64];
	const char *at, *end, *ex;

	snprintf(key, sizeof(key), "\"line\": %u, ", line);
	at = strstr(json, key);
	if (!at)
		return -1;
	end = strchr(at, '\n');
	ex = strstr(at, "\"execs\": ");
	if (!ex || (end && ex > end))
		return -1;
	return strtoll(ex + 9, NULL, 10);
}

/*
 * Basic-block counts (tests/gmon/bb.gmon: two blocks, at 0x401240 and
 * 0x401250 in fib) against gprof -l -A (tests/gmon/bb-annotate.gprof):
 * each on the line its address is in, 30 and 31, with its count. gprof
 * also writes each function's call count on its first line ("7049155
 * -> {" at fib's line 28); we show calls under the lines that make them
 * instead, so those lines have no block count of ours.
 */
static void test_block_counts(void **state)
{
	size_t len;
	char *gp = slurp("tests/gmon/bb-annotate.gprof", &len), *save = NULL;
	char *json = run_json(NOPIE, "tests/gmon/bb.gmon");
	unsigned line = 0, blocks = 0, entries = 0;

	(void)state;
	assert_non_null(gp);
	for (char *l = strtok_r(gp, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(l, " -> ");
		long long count;

		if (!strncmp(l, "*** File", 8)) {
			line = 0;
			continue;
		}
		line++;
		if (!arrow || arrow - l != 12 || strstr(l, "#####"))
			continue;
		count = strtoll(l, NULL, 10);
		if (!strcmp(arrow, " -> {")) {	/* a function's entry */
			assert_int_equal(json_execs(json, line), -1);
			entries++;
			continue;
		}
		assert_int_equal(json_execs(json, line), count);
		blocks++;
	}
	assert_int_equal(blocks, 2);
	assert_int_equal(entries, 5);	/* main, called 0 times, has "#####" */
	assert_int_equal(json_execs(json, 30), 3524577);
	free(gp);
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_nopie),
		cmocka_unit_test(test_lines_pie),
		cmocka_unit_test(test_bins_to_instructions),
		cmocka_unit_test(test_call_sites),
		cmocka_unit_test(test_runtime_addresses),
		cmocka_unit_test(test_block_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
