/*
 * cmd_program(): the program of a recorded command line. perf.data's
 * lines (perf report --header-only's "cmdline") all start with perf's
 * own path and options: two recordings of different programs were
 * taken for one program's, and summed without a word.
 */
#include "helpers.h"

#include <string.h>

#include "cli/cmd_program.h"

static void check(const char *cmd, const char *want)
{
	size_t len = 0;
	const char *got = cmd_program(cmd, &len);

	if (!want) {
		if (got)
			fail_msg("'%s': '%.*s', not none", cmd, (int)len, got);
		return;
	}
	if (!got || len != strlen(want) || memcmp(got, want, len))
		fail_msg("'%s': '%.*s', not '%s'", cmd, got ? (int)len : 4,
			 got ? got : "none", want);
}

static void test_plain(void **state)
{
	(void)state;
	check("./prog 5", "./prog");
	check("  /bin/ls -l", "/bin/ls");
	check("", NULL);
	check("perf", "perf");
	check("/usr/bin/perf report -i x", "/usr/bin/perf");
}

/* the committed recordings' lines (tests/perf/make.sh) */
static void test_perf_record(void **state)
{
	(void)state;
	check("/usr/bin/perf record -q -F 499 -g -o fp.data ./prog", "./prog");
	check("/usr/bin/perf record -q -F 99 --call-graph dwarf,4096 "
	      "-o cxx.data ./cxx 40000000", "./cxx");
	check("/usr/bin/perf record -q -z -F 499 -g -o nofp.data ./nofp 2000",
	      "./nofp");
	check("/usr/bin/perf record -q -F 499 -g -o procs.data -- sh -c "
	      "./prog 8000000 & ./prog 8000000; wait", "sh");
	check("perf record -e cpu-clock,task-clock -F499 -qg -o x ./a", "./a");
	check("perf record -qge cycles ./a -o b", "./a");
	check("/usr/bin/perf_6.1 record -g ./a", "./a");
	check("/usr/bin/perfect record -g ./a", "/usr/bin/perfect");
	check("perf record --output=x.data --call-graph=dwarf ./a", "./a");
	check("perf record --switch-output=1s -- ./a", "./a");
	/* nothing run: an existing process */
	check("perf record -p 1234", NULL);
	check("perf record -o", NULL);
}

/*
 * System-wide: every process is the "program", whatever command set how
 * long (perf record -a sleep 3 and -a sleep 5 are one machine's, and
 * "sleep" against ./app was named as two programs, while -a with no
 * command was compared with nothing).
 */
static void test_system_wide(void **state)
{
	static const char every[] = "every process (perf record -a)";

	(void)state;
	check("perf record -a -o x.data", every);
	check("perf record -a -g sleep 3", every);
	check("perf record -ag -F 99 -- sleep 5", every);
	check("perf record --all-cpus ./a", every);
	check("perf record -C 0,1 sleep 1", every);
	check("perf record --cpu=2 sleep 1", every);
	/* an argument that holds an 'a' is no -a */
	check("perf record -o a.data ./a", "./a");
	check("perf record -ea ./b", "./b");
	check("perf record -- ./a -a", "./a");
}

/*
 * Running processes (perf record -p PID, -t TID, -u UID): a command
 * after them only sets how long, so "-p 1 -- sleep 5" and "-p 2 --
 * sleep 5" were one program, "sleep", whatever each process ran; none,
 * and the recording's command names say (analyze.c).
 */
static void test_running(void **state)
{
	(void)state;
	check("perf record -q -z -F 99 -g -o x.data -p 26281 -- sleep 0.5",
	      NULL);
	check("perf record -p 1,2 sleep 1", NULL);
	check("perf record --pid=12 sleep 1", NULL);
	check("perf record --pid 12 -- sleep 1", NULL);
	check("perf record -gp 12 sleep 1", NULL);
	check("perf record -p12 sleep 1", NULL);
	check("perf record -t 7 sleep 1", NULL);
	check("perf record --tid=7", NULL);
	check("perf record -u root sleep 1", NULL);
	check("perf record --uid=0 sleep 1", NULL);
	/* a 'p' in an argument, or a long option that begins alike */
	check("perf record -o p.data ./a", "./a");
	check("perf record -Fp ./a", "./a");
	check("perf record --pidfile ./a", "./a");
	check("perf record -- ./a -p 1", "./a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_perf_record),
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
