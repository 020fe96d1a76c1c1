/*
 * --pid, --tid, --comm, --time, --threads and --parts against each
 * input's format (task_check.h). perf.data has them all but --parts;
 * Callgrind's parts carry a pid: and, with --separate-threads=yes, a
 * thread:, but neither a command per thread nor a time of day; IgProf
 * its process alone (profile/parts.h); the other formats none. --leaks
 * lists IgProf's leak records, which no other format has.
 */
#include <string.h>

#include "base/diag.h"
#include "profile/parts.h"
#include "task_check.h"

enum has { HAS_PID = 1, HAS_TID = 2, HAS_COMM = 4, HAS_TIME = 8,
	   HAS_PARTS = 16, HAS_LEAKS = 32 };

static unsigned format_has(const char *format)
{
	if (!strcmp(format, "perf"))
		return HAS_PID | HAS_TID | HAS_COMM | HAS_TIME;
	if (!strcmp(format, "callgrind"))
		return HAS_PID | HAS_TID | HAS_PARTS;
	if (!strcmp(format, "igprof"))
		return HAS_PID | HAS_PARTS | HAS_LEAKS;
	return 0;
}

static const char *why_not(unsigned need)
{
	switch (need) {
	case HAS_TID:
		return "; IgProf names no thread (its parts are igprof's "
		       "buffers, a thread's each, unnamed): --pid selects "
		       "its profiles";
	case HAS_COMM:
		return "; a Callgrind part names no command of its own: "
		       "--pid and --tid select its parts";
	case HAS_TIME:
		return "; a Callgrind file's dumps over time are its parts: "
		       "--parts lists them, --part reads one";
	case HAS_LEAKS:
		return "; only IgProf's dumps record what was still held "
		       "at exit";
	default:
		return "";
	}
}

/* the first option asked for that the format has not, or 0 */
static unsigned missing(const struct options *o, unsigned has,
			const char **name)
{
	static const struct {
		unsigned need;
		const char *name;
	} opts[] = {
		{ HAS_PID, "--pid" }, { HAS_TID, "--tid" },
		{ HAS_COMM, "--comm" }, { HAS_TIME, "--time" },
		{ HAS_PARTS, "--parts" }, { HAS_PID, "--threads" },
		{ HAS_LEAKS, "--leaks" },
	};
	bool asked[] = { o->npids > 0, o->ntids > 0, o->comms != NULL,
			 o->time != NULL, o->parts, o->threads, o->leaks };

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (asked[i] && !(has & opts[i].need)) {
			*name = opts[i].name;
			return opts[i].need;
		}
	return 0;
}

static int none_selected(const struct options *o, const struct profile *p)
{
	bool any = false;

	for (size_t i = 0; i < p->nparts; i++)
		any = any || p->parts[i].selected;
	if (any || !p->nparts || (!o->npids && !o->ntids))
		return 0;
	error("no part of the %s read is of the processes and threads asked "
	      "for (--pid, --tid); --parts without them lists the pid and "
	      "thread of each", p->ninputs > 1 ? "profiles" : "profile");
	return 1;
}

int task_check(const struct options *o, const struct profile *p)
{
	for (size_t i = 0; i < p->ninputs; i++) {
		const char *format = profile_str(p, p->inputs[i].format);
		const char *name = NULL;
		unsigned need = missing(o, format_has(format), &name);

		if (!need)
			continue;
		error("%s: %s is for %s, and this profile is not one (its "
		      "format is %s)%s", profile_str(p, p->inputs[i].path),
		      name,
		      need == HAS_LEAKS ? "IgProf"
		      : need == HAS_PARTS ? "Callgrind and IgProf"
		      : need == HAS_PID ? "perf.data, Callgrind and IgProf"
		      : need == HAS_TID ? "perf.data and Callgrind"
					: "perf.data",
		      format, why_not(need));
		return 2;
	}
	return none_selected(o, p);
}

/* Whether one of p's inputs is of a format whose name begins a prefix
 * of the list ("perf gperftools-"). */
static bool any_input_of(const struct profile *p, const char *const *formats)
{
	for (size_t i = 0; i < p->ninputs; i++) {
		const char *f = profile_str(p, p->inputs[i].format);

		for (const char *const *w = formats; *w; w++)
			if (!strncmp(f, *w, strlen(*w)))
				return true;
	}
	return false;
}

int hint_check(const struct options *o, const struct profile *p)
{
	static const char *const perf[] = { "perf", NULL };
	static const char *const perf_gperf[] = { "perf", "gperftools-", NULL };
	static const char *const parts[] = { "callgrind", "igprof", NULL };
	static const char *const igprof[] = { "igprof", NULL };
	const struct {
		bool asked;
		const char *name, *is_for;
		const char *const *formats;
	} hints[] = {
		{ o->part != 0, "--part", "Callgrind and IgProf", parts },
		{ o->max_stack != 0, "--max-stack", "perf.data", perf },
		{ o->kallsyms != NULL, "--kallsyms", "perf.data", perf },
		{ o->sysroot != NULL, "--sysroot", "perf.data and gperftools",
		  perf_gperf },
		{ o->no_filter, "--no-filter", "IgProf", igprof },
	};

	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		if (!hints[i].asked || any_input_of(p, hints[i].formats))
			continue;
		if (p->ninputs == 1)
			error("%s: %s is for %s, and this profile is not one "
			      "(its format is %s)",
			      profile_str(p, p->inputs[0].path), hints[i].name,
			      hints[i].is_for,
			      profile_str(p, p->inputs[0].format));
		else
			error("%s is for %s, and none of the profiles is one",
			      hints[i].name, hints[i].is_for);
		return 2;
	}
	return 0;
}
