/*
 * check_one_program(): profiles of different programs added up are
 * said to be so, once; runs of one program are not. An input is known
 * by its command line's program, the program its recorded processes ran
 * (perf record -p: their executable mapping, with its build-id) and
 * their command name, which a process can change (prctl PR_SET_NAME):
 * the comm is only the fallback.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "cli/one_program.h"

struct in {
	const char *cmd, *exe, *comm;
	const char *build_id;	/* bytes, or NULL */
};

static name_id nm(struct profile *p, const char *s)
{
	return s ? names_intern(&p->names, s, strlen(s)) : NO_NAME;
}

/* The warning for inputs a and b added up ("" when none). */
static char *warn_of(const struct in *a, const struct in *b)
{
	const struct in *ins[] = { a, b };
	struct profile p;
	char *said;

	profile_init(&p);
	for (int i = 0; i < 2; i++) {
		struct pinput *in = profile_add_input(&p, i ? "b.data" : "a.data",
						      "perf");

		in->cmd = nm(&p, ins[i]->cmd);
		in->exe = nm(&p, ins[i]->exe);
		in->comm = nm(&p, ins[i]->comm);
		if (ins[i]->build_id) {
			in->exe_build_id_len = (uint8_t)strlen(ins[i]->build_id);
			memcpy(in->exe_build_id, ins[i]->build_id,
			       in->exe_build_id_len);
		}
	}
	diag_capture_begin();
	check_one_program(&p);
	said = diag_capture_end();
	profile_release(&p);
	return said;
}

static void same(const struct in *a, const struct in *b)
{
	char *said = warn_of(a, b);

	if (*said)
		fail_msg("said different: %s", said);
	free(said);
}

static void differ(const struct in *a, const struct in *b, const char *want)
{
	char *said = warn_of(a, b);

	if (!strstr(said, want))
		fail_msg("wanted '%s' in: '%s'", want, said);
	free(said);
}

/* the process renamed its main thread: its executable says which */
static void test_renamed(void **state)
{
	struct in cmd = { "perf record -g ./renamer", "/tmp/r/renamer",
			  "srv-main", NULL };
	struct in pid = { "perf record -p 7 -- sleep 1", "/tmp/r/renamer",
			  "srv-main", NULL };
	struct in callgrind = { "./renamer 5", NULL, NULL, NULL };
	struct in other = { "perf record -p 8 -- sleep 1", "/tmp/x/nofp",
			    "nofp", NULL };

	(void)state;
	same(&cmd, &pid);
	same(&callgrind, &pid);
	differ(&pid, &other, "('/tmp/r/renamer' and '/tmp/x/nofp', the "
	       "programs of the processes they recorded)");
}

/* moved (another path) or rebuilt (another build-id): one program;
 * one build-id at two file names: one program too */
static void test_exe(void **state)
{
	struct in a = { NULL, "/a/prog", "prog", "\x01\x02" };
	struct in moved = { NULL, "/b/prog", "prog", "\x01\x02" };
	struct in rebuilt = { NULL, "/a/prog", "prog", "\x03\x04" };
	struct in renamed = { NULL, "/a/prog2", "prog2", "\x01\x02" };
	struct in other = { NULL, "/a/tool", "tool", "\x05\x06" };
	struct in replaced = { NULL, "/a/prog (deleted)", "prog", NULL };

	(void)state;
	same(&a, &moved);
	same(&a, &rebuilt);
	same(&a, &renamed);
	same(&a, &replaced);	/* rebuilt while it ran */
	differ(&a, &other, "'/a/prog' and '/a/tool'");
}

/* no executable recorded: the command name, as before */
static void test_comm_fallback(void **state)
{
	struct in a = { NULL, NULL, "prog", NULL };
	struct in b = { NULL, NULL, "nofp", NULL };
	struct in cmd = { "./prog 3", NULL, NULL, NULL };
	struct in longname = { "./a_very_long_program_name", NULL, NULL, NULL };
	struct in cut = { NULL, NULL, "a_very_long_pro", NULL };

	(void)state;
	differ(&a, &b, "('prog' and 'nofp', the command names of the "
	       "processes they recorded)");
	same(&cmd, &a);
	same(&longname, &cut);
	differ(&cmd, &b, "('./prog' and 'nofp', the second the command "
	       "name of the processes it recorded)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_renamed),
		cmocka_unit_test(test_exe),
		cmocka_unit_test(test_comm_fallback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
