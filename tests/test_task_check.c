/*
 * task_check() (src/cli/task_check.c): each of --pid, --tid, --comm,
 * --time, --threads and --parts is honoured or refused for each format
 * read, with the reason; and --pid/--tid that keep no part of the
 * Callgrind or IgProf inputs are an error, not an empty listing.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "base/time_slice.h"
#include "cli/task_check.h"
#include "profile/parts.h"

enum ask { PID = 1, TID = 2, COMM = 4, TIME = 8, THREADS = 16, PARTS = 32 };

static void set_options(struct options *o, unsigned ask,
			struct time_spec *ts)
{
	static uint32_t ids[] = { 7 };

	memset(o, 0, sizeof(*o));
	if (ask & PID) {
		o->pids = ids;
		o->npids = 1;
	}
	if (ask & TID) {
		o->tids = ids;
		o->ntids = 1;
	}
	if (ask & COMM)
		o->comms = "prog";
	if (ask & TIME)
		o->time = ts;
	o->threads = ask & THREADS;
	o->parts = ask & PARTS;
}

static void test_formats(void **state)
{
	static const struct {
		const char *format;
		unsigned ask;
		int ret;
		const char *msg;	/* in the message, or NULL: none */
	} cases[] = {
		{ "perf", PID | TID | COMM | TIME | THREADS, 0, NULL },
		{ "perf", PARTS, 2, "--parts is for Callgrind and IgProf" },
		{ "callgrind", PID | TID | THREADS | PARTS, 0, NULL },
		{ "callgrind", COMM, 2, "names no command of its own" },
		{ "callgrind", TIME, 2, "--parts lists them" },
		{ "igprof", PID | THREADS | PARTS, 0, NULL },
		{ "igprof", TID, 2, "IgProf names no thread" },
		{ "gmon", THREADS, 2, "--threads is for perf.data, Callgrind and IgProf" },
		{ "gmon", PID, 2, "--pid is for perf.data, Callgrind and IgProf" },
		{ "pprof", TID, 2, "--tid is for perf.data and Callgrind" },
		{ "gperf", COMM, 2, "--comm is for perf.data" },
		{ "gmon", 0, 0, NULL },
	};
	struct time_spec ts;

	(void)state;
	memset(&ts, 0, sizeof(ts));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct profile p;
		struct options o;
		struct ppart pt = { .pid = 7, .tid = 7, .selected = true,
				    .name = NO_NAME, .trigger = NO_NAME };
		char *msg;
		int ret;

		profile_init(&p);
		profile_add_input(&p, "in", cases[i].format);
		profile_add_part(&p, &pt, NULL, 0);
		set_options(&o, cases[i].ask, &ts);
		diag_capture_begin();
		ret = task_check(&o, &p);
		msg = diag_capture_end();
		if (ret != cases[i].ret ||
		    (cases[i].msg ? !strstr(msg, cases[i].msg) : *msg != '\0'))
			fail_msg("case %zu (%s): returned %d, said '%s'", i,
				 cases[i].format, ret, msg);
		free(msg);
		profile_release(&p);
	}
}

/* --pid/--tid that keep no part: an error naming --parts; a part kept,
 * or no --pid/--tid, none */
static void test_none_selected(void **state)
{
	static const struct {
		bool selected;
		unsigned ask;
		int ret;
	} cases[] = {
		{ false, TID, 1 }, { false, PID, 1 }, { true, TID, 0 },
		{ false, THREADS, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct profile p;
		struct options o;
		struct ppart pt = { .pid = 9, .tid = 2,
				    .selected = cases[i].selected,
				    .name = NO_NAME, .trigger = NO_NAME };
		char *msg;
		int ret;

		profile_init(&p);
		profile_add_input(&p, "in", "callgrind");
		profile_add_part(&p, &pt, NULL, 0);
		set_options(&o, cases[i].ask, NULL);
		diag_capture_begin();
		ret = task_check(&o, &p);
		msg = diag_capture_end();
		if (ret != cases[i].ret ||
		    (ret && !strstr(msg, "--parts without them lists")))
			fail_msg("case %zu: returned %d, said '%s'", i, ret,
				 msg);
		free(msg);
		profile_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_none_selected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
