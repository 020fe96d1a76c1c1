/*
 * Inputs that once crashed, leaked or hung the fuzz harnesses
 * (tests/fuzz/), replayed through the same pipelines in the normal
 * build: every file of tests/fuzz/regress/ is run as a profile, as a
 * gmon.out, as a perf.data, as a gperftools profile, as an ELF binary
 * and as a split-DWARF file (its first byte choosing which). Passing
 * means not crashing; under make check's ASan build, also no leak and
 * no undefined behaviour. A few inputs too big
 * to commit are made here instead.
 */
#include "helpers.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_pipeline.h"

#define REGRESS_DIR "tests/fuzz/regress"

static void test_regress_files(void **state)
{
	DIR *d = opendir(REGRESS_DIR);
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[512];
		unsigned char *data;
		size_t len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", REGRESS_DIR, de->d_name);
		data = (unsigned char *)slurp(path, &len);
		assert_non_null(data);
		fuzz_callgrind_one(data, len);
		fuzz_igprof_one(data, len);
		fuzz_symtab_one(data, len);
		fuzz_gmon_one(data, len);
		fuzz_perf_one(data, len);
		fuzz_gperf_one(data, len);
		fuzz_pprof_one(data, len);
		fuzz_dwo_one(data, len);
		free(data);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

/* Append to a growing buffer. */
static void put(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		*cap = (*cap + n + 1) * 2;
		*buf = realloc(*buf, *cap);
		assert_non_null(*buf);
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

/* A call chain 100,000 deep: f0 calls f1 calls f2 ... (no recursion in
 * our code may overflow the stack on it); with loop, the last calls f0
 * back, which makes all of it one cycle. */
static void run_chain(bool loop)
{
	enum { DEPTH = 100000 };
	char *buf = NULL, line[128];
	size_t len = 0, cap = 0;

	put(&buf, &len, &cap, "events: Ir\n");
	for (int i = 0; i < DEPTH; i++) {
		int next = i + 1 < DEPTH ? i + 1 : 0;

		snprintf(line, sizeof(line), "fn=(%d) f%d\n1 1\n", i + 1, i);
		put(&buf, &len, &cap, line);
		if (next == 0 && !loop)
			break;
		snprintf(line, sizeof(line), "cfn=(%d) f%d\ncalls=1 1\n1 %d\n",
			 next + 1, next, DEPTH - i);
		put(&buf, &len, &cap, line);
	}
	fuzz_callgrind_one((const uint8_t *)buf, len);
	free(buf);
}

static void test_deep_chain(void **state)
{
	(void)state;
	run_chain(false);
	run_chain(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regress_files),
		cmocka_unit_test(test_deep_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
