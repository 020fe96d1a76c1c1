/*
 * Is a processor free for a second thread (see spare_cpu.h)?
 */
#include "spare_cpu.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * /proc/loadavg's fourth field, "running/all", counts the tasks running
 * or ready to run at this moment, the reader among them. The load
 * averages before it are of the last minute: a build that just ended
 * would keep the second thread off for a minute after.
 */
bool spare_cpu_from(const char *loadavg, int cpus)
{
	return spare_cpu_from_own(loadavg, cpus, 0);
}

bool spare_cpu_from_own(const char *loadavg, int cpus, int own)
{
	const char *s = loadavg;
	char *end;
	long running;

	for (int field = 0; field < 3; field++) {
		while (*s && *s != ' ')
			s++;
		while (*s == ' ')
			s++;
	}
	running = strtol(s, &end, 10);
	if (end == s || *end != '/' || running < 1 || cpus < 1)
		return true;
	/* the caller is among the running; its other threads, counted
	 * at another moment, may not be */
	if (own > 0)
		running = running - own < 1 ? 1 : running - own;
	return running < cpus;
}

static int usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

static int assumed = -1;

void spare_cpu_assume(int answer)
{
	assumed = answer;
}

/* Whether the text of a /proc/PID/task/TID/stat says running: its
 * state, the field after the command's closing parenthesis. */
bool spare_cpu_stat_running(const char *stat)
{
	const char *s = NULL;

	for (const char *p = stat; *p; p++)
		if (*p == ')')
			s = p;
	return s && s[1] == ' ' && s[2] == 'R';
}

/* This process's threads running now, other than the caller. */
static int own_running(void)
{
	char path[64], buf[512];
	pid_t self = gettid();
	struct dirent *e;
	int count = 0;
	DIR *d = opendir("/proc/self/task");

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		ssize_t n;
		int fd;

		if (end == e->d_name || *end || tid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", tid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		count += spare_cpu_stat_running(buf);
	}
	closedir(d);
	return count;
}

/*
 * CGANALYZE_SPARE_CPU=N (tests): the first N answers are no, every
 * later one yes, whatever the machine: threads declined at the start
 * and asked for again later (a perf.data's reading ahead, second
 * unwinder and symbol tables' loader) must make the same listing.
 * -1: not set.
 */
static long noes_env(void)
{
	static long noes = -2;
	const char *v;

	if (noes == -2) {
		v = getenv("CGANALYZE_SPARE_CPU");
		noes = v && *v >= '0' && *v <= '9' ? strtol(v, NULL, 10) : -1;
	}
	return noes;
}

bool spare_cpu_scripted(void)
{
	return noes_env() >= 0;
}

static bool ask(bool beside_own)
{
	static long asked;
	char buf[128];
	ssize_t n;
	int fd;

	if (assumed >= 0)
		return assumed;
	if (noes_env() >= 0)
		return __atomic_fetch_add(&asked, 1, __ATOMIC_RELAXED) >=
		       noes_env();
	fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	return spare_cpu_from_own(buf, usable_cpus(),
				  beside_own ? own_running() : 0);
}

bool spare_cpu(void)
{
	return ask(false);
}

bool spare_cpu_beside_own(void)
{
	return ask(true);
}
