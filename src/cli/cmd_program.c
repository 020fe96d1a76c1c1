/*
 * The program of a recorded command line (see cmd_program.h). perf
 * records its whole argv: the options of perf record that take their
 * argument as the next word must be known to find where the program's
 * words begin (perf record -h, perf 6.1: "-c <n>", "--call-graph
 * <mode>"). An option it does not know taken for one without an
 * argument makes its value the "program": the warning that follows
 * names both words, so the user sees why.
 */
#include "cmd_program.h"

#include <stdbool.h>
#include <string.h>

/* perf record's short options with a required argument. */
static const char short_arg[] = "cCDeFGjkmoprtu";
/* and its long ones (an optional argument is attached with '='). */
static const char *const long_arg[] = {
	"count", "cpu", "delay", "event", "freq", "cgroup", "branch-filter",
	"clockid", "mmap-pages", "output", "pid", "realtime", "tid", "uid",
	"affinity", "call-graph", "clang-opt", "clang-path", "control",
	"filter", "max-size", "mmap-flush", "num-thread-synthesize",
	"proc-map-timeout", "switch-max-files", "switch-output-event",
	"synth", "vmlinux",
};

/* The word at *s (blanks before it skipped); *s moved past it. */
static const char *word(const char **s, size_t *len)
{
	const char *w = *s + strspn(*s, " \t");

	*len = strcspn(w, " \t");
	*s = w + *len;
	return *len ? w : NULL;
}

static bool is(const char *w, size_t len, const char *want)
{
	return len == strlen(want) && !memcmp(w, want, len);
}

/* perf, or a versioned name (perf_5.10, as Debian's linux-perf-5.10
 * installed it beside a /usr/bin/perf that runs it) */
static bool is_perf(const char *w, size_t len)
{
	return len >= 4 && !memcmp(w, "perf", 4) &&
	       (len == 4 || w[4] == '_' || w[4] == '-');
}

/* Whether option word w (after its dashes) takes the next word. */
static bool takes_next(const char *w, size_t len)
{
	if (len > 2 && w[1] == '-') {
		if (memchr(w, '=', len))
			return false;
		for (size_t i = 0; i < sizeof(long_arg) / sizeof(*long_arg); i++)
			if (is(w + 2, len - 2, long_arg[i]))
				return true;
		return false;
	}
	/* grouped short options ("-qF 499", "-F499"): the first that takes
	 * an argument takes the rest of the word, or the next word */
	for (size_t i = 1; i < len; i++)
		if (strchr(short_arg, w[i]))
			return i + 1 == len;
	return false;
}

/* Whether option word w records every process (-a, --all-cpus; -C,
 * --cpu: all of some CPUs'), grouped short options ("-ag") included. */
static bool system_wide(const char *w, size_t len)
{
	if (len > 2 && w[1] == '-')
		return is(w, len, "--all-cpus") || is(w, len, "--cpu") ||
		       (len > 6 && !memcmp(w, "--cpu=", 6));
	for (size_t i = 1; i < len; i++) {
		if (w[i] == 'a' || w[i] == 'C')
			return true;
		if (strchr(short_arg, w[i]))
			return false;	/* the rest is its argument */
	}
	return false;
}

/* Whether option word w records processes already running (-p, --pid,
 * -t, --tid; -u, --uid: a user's), grouped short options ("-gp")
 * included: a command after it only sets how long, as after -a. */
static bool existing_processes(const char *w, size_t len)
{
	static const char *const longs[] = { "--pid", "--tid", "--uid" };

	if (len > 2 && w[1] == '-') {
		for (size_t i = 0; i < sizeof(longs) / sizeof(*longs); i++) {
			size_t n = strlen(longs[i]);

			if (len >= n && !memcmp(w, longs[i], n) &&
			    (len == n || w[n] == '='))
				return true;
		}
		return false;
	}
	for (size_t i = 1; i < len; i++) {
		if (w[i] == 'p' || w[i] == 't' || w[i] == 'u')
			return true;
		if (strchr(short_arg, w[i]))
			return false;	/* the rest is its argument */
	}
	return false;
}

const char *cmd_program(const char *cmd, size_t *len)
{
	static const char every[] = "every process (perf record -a)";
	const char *s = cmd, *first = word(&s, len), *base, *w;
	size_t first_len = *len;
	bool all = false, running = false;

	if (!first)
		return NULL;
	base = memrchr(first, '/', first_len);
	base = base ? base + 1 : first;
	if (!is_perf(base, (size_t)(first + first_len - base)))
		return first;
	w = word(&s, len);
	if (!w || !is(w, *len, "record")) {
		*len = first_len;
		return first;
	}
	while ((w = word(&s, len)) && w[0] == '-' && *len > 1) {
		if (is(w, *len, "--")) {
			w = word(&s, len);
			break;
		}
		all = all || system_wide(w, *len);
		running = running || existing_processes(w, *len);
		if (takes_next(w, *len) && !word(&s, len))
			return NULL;
	}
	/* the command of "perf record -a sleep 5" only sets how long:
	 * every process is what was recorded, in either run */
	if (all) {
		*len = sizeof(every) - 1;
		return every;
	}
	/* and that of "perf record -p PID -- sleep 5" too: the process
	 * recorded is not named here */
	return running ? NULL : w;
}
