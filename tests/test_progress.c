/*
 * The progress line (src/base/progress.c) on a fake terminal: a memstream
 * and a clock the test moves by hand. tests/progress-tty runs the real
 * binary on a pseudo-terminal.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/progress.h"
#include "read/line_reader.h"

#define MB ((uint64_t)1000000)

static double fake_now;
static int clock_reads;

static double fake_clock(void)
{
	clock_reads++;
	return fake_now;
}

struct tty {
	char *buf;
	size_t len;
	FILE *f;
};

static void tty_open(struct tty *t, unsigned columns, double delay)
{
	memset(t, 0, sizeof(*t));
	t->f = open_memstream(&t->buf, &t->len);
	assert_non_null(t->f);
	fake_now = 100;
	clock_reads = 0;
	progress_enable(t->f, columns, delay, fake_clock);
}

/* What was written since the last call, as a malloc'd string. */
static char *tty_take(struct tty *t)
{
	char *s;

	fflush(t->f);
	s = strndup(t->buf, t->len);
	fseek(t->f, 0, SEEK_SET);
	fflush(t->f);
	t->len = 0;
	return s;
}

static void tty_close(struct tty *t)
{
	progress_disable();
	fclose(t->f);
	free(t->buf);
}

static void assert_taken(struct tty *t, const char *want)
{
	char *got = tty_take(t);

	assert_string_equal(got, want);
	free(got);
}

/* "\r", as many blanks as `line` has characters, "\r": its erasure */
static const char *erasing(const char *line)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "\r%*s\r", (int)strlen(line), "");
	return buf;
}

static void test_nothing_before_the_delay(void **state)
{
	struct tty t;

	(void)state;
	tty_open(&t, 80, 1.0);
	progress_begin("big.out", 1105 * MB);
	progress_update(1 * MB);
	fake_now += 0.99;
	progress_update(100 * MB);
	assert_taken(&t, "");
	fake_now += 0.02;
	progress_update(412 * MB);
	assert_taken(&t, "\rcganalyze: reading big.out: 37% (412 of 1105 MB)");
	/* the end erases the line: as many blanks as it had characters */
	progress_end();
	assert_taken(&t, erasing("cganalyze: reading big.out: 37% (412 of 1105 MB)"));
	/* a quick load shows nothing, not even an erasure */
	progress_begin("small.out", 50 * MB);
	progress_update(50 * MB);
	progress_end();
	assert_taken(&t, "");
	tty_close(&t);
}

static void test_at_most_ten_a_second(void **state)
{
	struct tty t;
	char *s;
	int draws = 0;

	(void)state;
	tty_open(&t, 80, 0);
	progress_begin("f", 1000 * MB);
	/* 10 MB a millisecond for 100 ms: one draw, then none for 0.1 s */
	for (int i = 1; i < 100; i++) {
		progress_update((uint64_t)i * 10 * MB);
		fake_now += 0.001;
	}
	s = tty_take(&t);
	for (char *p = s; (p = strchr(p, '\r')); p++)
		draws++;
	assert_int_equal(draws, 1);
	assert_string_equal(s, "\rcganalyze: reading f: 1% (10 of 1000 MB)");
	free(s);
	fake_now += 0.1;
	progress_update(1000 * MB);
	/* a longer line: drawn over the old one, nothing to pad */
	assert_taken(&t, "\rcganalyze: reading f: 100% (1000 of 1000 MB)");
	progress_end();
	tty_close(&t);
}

static void test_clock_read_once_a_megabyte(void **state)
{
	struct tty t;

	(void)state;
	tty_open(&t, 80, 0);
	progress_begin("f", 1000 * MB);
	clock_reads = 0;
	/* 256 KiB blocks, as the line reader reads: four blocks a check */
	for (uint64_t done = 256 << 10; done <= 64 << 20; done += 256 << 10)
		progress_update(done);
	assert_int_equal(clock_reads, 64);
	progress_end();
	free(tty_take(&t));
	tty_close(&t);
}

static void test_units_and_sizes(void **state)
{
	static const struct {
		uint64_t done, total;
		const char *want;
	} cases[] = {
		{ 300, 900, ": 33% (300 of 900 bytes)" },
		{ 5000, 20000, ": 25% (5 of 20 kB)" },
		{ 9999999, 9999999, ": 100% (9999 of 9999 kB)" },
		{ 3 * MB, 12 * MB, ": 25% (3 of 12 MB)" },
		{ 12000 * MB, 24000 * MB, ": 50% (12 of 24 GB)" },
		/* a file that grew while it was read stops at 100% */
		{ 20 * MB, 10 * MB, ": 100% (10 of 10 MB)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tty t;
		char want[128];

		tty_open(&t, 80, 0);
		progress_begin("p", cases[i].total);
		progress_update(cases[i].done);
		snprintf(want, sizeof(want), "\rcganalyze: reading p%s",
			 cases[i].want);
		assert_taken(&t, want);
		progress_end();
		free(tty_take(&t));
		tty_close(&t);
	}
}

/* A line wider than the terminal would wrap, and "\r" would then redraw
 * only its last row: the path is shortened from the left. */
static void test_long_path_fits_the_terminal(void **state)
{
	struct tty t;
	char *s;

	(void)state;
	tty_open(&t, 50, 0);
	progress_begin("/home/someone/projects/big/callgrind.out.4242", 20000);
	progress_update(10000);
	s = tty_take(&t);
	assert_string_equal(s, "\rcganalyze: reading ...out.4242: 50% (10 of 20 kB)");
	assert_int_equal(strlen(s) - 1, 49);
	free(s);
	progress_end();
	free(tty_take(&t));
	/* narrower than the fixed part: cut at the width, never wrapped */
	progress_enable(t.f, 20, 0, fake_clock);
	progress_begin("/a/b", 20000);
	progress_update(10000);
	assert_taken(&t, "\rcganalyze: reading ");
	tty_close(&t);
}

/* A warning while the line is shown erases it first; the next update
 * draws it again below the message. */
static void test_messages_erase_the_line(void **state)
{
	struct tty t;
	char want[512];

	(void)state;
	tty_open(&t, 80, 0);
	diag_set_sink(t.f);
	progress_begin("f", 100 * MB);
	progress_update(10 * MB);
	warning("something");
	snprintf(want, sizeof(want), "%s%s%s",
		 "\rcganalyze: reading f: 10% (10 of 100 MB)",
		 erasing("cganalyze: reading f: 10% (10 of 100 MB)"),
		 "cganalyze: warning: something\n");
	assert_taken(&t, want);
	fake_now += 1;
	progress_update(50 * MB);
	assert_taken(&t, "\rcganalyze: reading f: 50% (50 of 100 MB)");
	diag_set_sink(NULL);
	tty_close(&t);
}

/* Unknown size (a pipe), or never enabled (not a terminal): nothing.
 * The line reader reports a regular file's bytes as it reads them. */
static void test_silent_cases(void **state)
{
	struct tty t;
	struct line_reader lr;
	char *path = write_temp("# callgrind format\nevents: Ir\n", 30);
	char *line;
	size_t len;

	(void)state;
	tty_open(&t, 80, 0);
	progress_begin("<stdin>", 0);
	progress_update(500 * MB);
	progress_end();
	assert_taken(&t, "");
	assert_int_equal(line_reader_open(&lr, path), 0);
	while (line_reader_next(&lr, &line, &len) == 1)
		;
	line_reader_close(&lr);
	line = tty_take(&t);
	assert_non_null(strstr(line, "/profile: 100% (30 of 30 bytes)\r"));
	assert_int_equal(line[strlen(line) - 1], '\r');
	free(line);
	progress_disable();
	/* disabled: the same calls write nothing anywhere (no stream) */
	progress_begin("f", 100 * MB);
	progress_update(100 * MB);
	progress_clear();
	progress_end();
	fclose(t.f);
	free(t.buf);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_before_the_delay),
		cmocka_unit_test(test_at_most_ten_a_second),
		cmocka_unit_test(test_clock_read_once_a_megabyte),
		cmocka_unit_test(test_units_and_sizes),
		cmocka_unit_test(test_long_path_fits_the_terminal),
		cmocka_unit_test(test_messages_erase_the_line),
		cmocka_unit_test(test_silent_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
