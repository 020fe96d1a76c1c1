/*
 * The time read_profile() alone takes on a file: the least wall and
 * CPU (user + sys) seconds of N runs, with the Callgrind reader's
 * splitting thread forced on (1), no second thread (0), or as the
 * reader chooses (auto: large plain files are read ahead); with
 * "positions", keeping them as -b and the listings do. For the figures
 * in doc/PERFORMANCE.md, with `perf record` splitting the CPU
 * time by thread; not part of the build:
 *
 *   make && cc -O2 -std=c11 -D_GNU_SOURCE -pthread -Isrc -I. \
 *	-o build/read-time bench/read-time.c build/libcganalyze.a \
 *	-ldwarf -ldw -lelf -lbfd -lz -lbz2 -lm
 *   build/read-time FILE 1 3
 *   build/read-time FILE auto 3 positions
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "read/read.h"

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	double best_wall = 1e30, best_cpu = 1e30;
	struct read_stats stats = { 0 };
	int runs;

	if (argc != 4 && !(argc == 5 && !strcmp(argv[4], "positions"))) {
		fprintf(stderr, "usage: read-time FILE 0|1|auto RUNS [positions]\n");
		return 2;
	}
	runs = atoi(argv[3]);
	for (int i = 0; i < runs; i++) {
		struct read_opts o = { .thread = !strcmp(argv[2], "auto")
						 ? READ_THREAD_AUTO
						 : atoi(argv[2]) ? READ_THREAD_ON
						 : READ_THREAD_OFF,
				       .want_positions = argc == 5,
				       .stats = &stats };
		struct profile p;
		double w = wall_seconds(), c = cpu_seconds();

		profile_init(&p);
		if (read_profile(&p, argv[1], &o) < 0)
			return 1;
		w = wall_seconds() - w;
		c = cpu_seconds() - c;
		profile_release(&p);
		if (w < best_wall)
			best_wall = w;
		if (c < best_cpu)
			best_cpu = c;
	}
	printf("%.3f s wall, %.3f s CPU", best_wall, best_cpu);
	if (stats.stretches_added || stats.stretches_dropped)
		printf("; per run, %llu stretches read ahead and added in, "
		       "%llu read again", (unsigned long long)stats.stretches_added / (unsigned)runs,
		       (unsigned long long)stats.stretches_dropped / (unsigned)runs);
	printf("\n");
	return 0;
}
