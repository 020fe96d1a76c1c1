/*
 * resolve/perf_jitmap.c: a JIT's /tmp/perf-PID.map (perf report's
 * names for code made at run time), its lines as JITs write them (hex
 * with and without 0x, names with spaces, CRLF), the lines that are not
 * entries skipped, the look-up at each entry's bounds, and the map's
 * path told from other paths.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "resolve/perf_jitmap.h"

static const char *name_at(const struct jitmap *m, uint64_t addr)
{
	const struct jit_sym *s = jitmap_lookup(m, addr);

	return s ? jitmap_name(m, s) : NULL;
}

static void test_load_and_lookup(void **state)
{
	/* node's, the JVM agent's and Python's forms; a hostile line or
	 * two; an entry of size 0; one wrapping past 2^64 */
	static const char text[] =
		"7f0000001000 20 jitted_hot\n"
		"0x7f0000001040 0x10 LazyCompile:*cold /app/x.js:3\r\n"
		"\n"
		"garbage line\n"
		"7f0000002000 zz not_a_size\n"
		"7f0000003000 0 empty\n"
		"ffffffffffffff00 1000 wraps\n"
		"7f0000004000 100\n"
		"7f0000005000\t8\tpy::f:/x.py\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct jitmap m;

	(void)state;
	assert_int_equal(jitmap_load(&m, path), 0);
	assert_int_equal(m.n, 3);
	assert_null(name_at(&m, 0x7f0000000fff));
	assert_string_equal(name_at(&m, 0x7f0000001000), "jitted_hot");
	assert_string_equal(name_at(&m, 0x7f000000101f), "jitted_hot");
	assert_null(name_at(&m, 0x7f0000001020));
	assert_string_equal(name_at(&m, 0x7f0000001045),
			    "LazyCompile:*cold /app/x.js:3");
	assert_null(name_at(&m, 0x7f0000001050));
	assert_null(name_at(&m, 0x7f0000003000));
	assert_string_equal(name_at(&m, 0x7f0000005007), "py::f:/x.py");
	assert_null(name_at(&m, UINT64_MAX));
	jitmap_release(&m);
	remove_temp(path);
}

static void test_absent(void **state)
{
	struct jitmap m;

	(void)state;
	assert_int_equal(jitmap_load(&m, "/nonexistent/perf-1.map"), 1);
	assert_int_equal(m.n, 0);
	assert_null(jitmap_lookup(&m, 0x1000));
	jitmap_release(&m);
}

/* Not a regular file (a FIFO: no wait for a writer, a directory):
 * refused with a message, nothing loaded. */
static void test_not_a_file(void **state)
{
	char dir[] = "/tmp/cga-test-XXXXXX", fifo[64];
	struct jitmap m;
	char *notes;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/perf-1.map", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	diag_capture_begin();
	assert_int_equal(jitmap_load(&m, fifo), -1);
	assert_int_equal(jitmap_load(&m, dir), -1);
	notes = diag_capture_end();
	assert_non_null(strstr(notes, "not a JIT's symbol map"));
	free(notes);
	jitmap_release(&m);
	unlink(fifo);
	rmdir(dir);
}

static void test_is_path(void **state)
{
	(void)state;
	assert_true(jitmap_is_path("/tmp/perf-1234.map"));
	assert_false(jitmap_is_path("/tmp/perf-.map"));
	assert_false(jitmap_is_path("/tmp/perf-12x.map"));
	assert_false(jitmap_is_path("/tmp/perf-12.map.old"));
	assert_false(jitmap_is_path("//anon"));
	assert_false(jitmap_is_path("/usr/lib/perf-1.map"));
}

/* The per-object maps: a missing one is said once, and names nothing. */
static void test_jitmaps(void **state)
{
	static const char text[] = "1000 10 f\n";
	char *path = write_temp(text, sizeof(text) - 1);
	char *dir = strdup(path), *slash = strrchr(dir, '/');
	struct jitmaps j = { 0 };
	uint32_t len = 0;
	const char *name;
	char *notes;

	(void)state;
	*slash = '\0';
	/* the map at DIR/tmp/perf-7.map is not there; at its own path
	 * neither: a warning, once */
	diag_capture_begin();
	assert_null(jitmaps_name(&j, 2, 0, "/tmp/perf-7.map", dir, 0x1000,
				 &len));
	assert_null(jitmaps_name(&j, 2, 0, "/tmp/perf-7.map", dir, 0x1004,
				 &len));
	notes = diag_capture_end();
	assert_non_null(strstr(notes, "/tmp/perf-7.map: not here: the code "
				      "process 7 made at run time"));
	assert_null(strstr(strstr(notes, "not here") + 1, "not here"));
	free(notes);
	/* object 1 at the temporary file's path, no sysroot */
	name = jitmaps_name(&j, 2, 1, path, NULL, 0x100f, &len);
	assert_non_null(name);
	assert_int_equal(len, 1);
	assert_memory_equal(name, "f", 1);
	assert_null(jitmaps_name(&j, 2, 1, path, NULL, 0x1010, &len));
	/* past the objects: nothing */
	assert_null(jitmaps_name(&j, 2, 5, path, NULL, 0x1000, &len));
	jitmaps_release(&j);

	/* recorded on another machine: its pid's map here is another
	 * process's, not read (said once); with a sysroot it is read */
	j.recorded_on = "there";
	j.here = "here";
	diag_capture_begin();
	assert_null(jitmaps_name(&j, 2, 1, path, NULL, 0x100f, &len));
	assert_null(jitmaps_name(&j, 2, 1, path, NULL, 0x1000, &len));
	notes = diag_capture_end();
	assert_non_null(strstr(notes, "not read: the recording was made on "
				      "there, not on this machine (here)"));
	assert_null(strstr(strstr(notes, "not read") + 1, "not read"));
	free(notes);
	jitmaps_release(&j);
	j.recorded_on = "here";
	j.here = "here";
	assert_non_null(jitmaps_name(&j, 2, 1, path, NULL, 0x100f, &len));
	jitmaps_release(&j);
	free(dir);
	remove_temp(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_and_lookup),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_not_a_file),
		cmocka_unit_test(test_is_path),
		cmocka_unit_test(test_jitmaps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
