/*
 * Is a processor free for a second thread (see spare_cpu.h)?
 */
#include "spare_cpu.h"

#include <fcntl.h>
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

bool spare_cpu(void)
{
	char buf[128];
	ssize_t n;
	int fd;

	if (assumed >= 0)
		return assumed;
	fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	return spare_cpu_from(buf, usable_cpus());
}
