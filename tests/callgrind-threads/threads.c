/*
 * A small program for cganalyze's tests of Callgrind's threads, processes
 * and parts (make.sh runs it under valgrind). Two processes (a fork), each
 * with its main thread and two workers of different lengths, so that every
 * thread's and every process's totals differ; with an argument, the parent
 * also asks Callgrind for a dump after each phase (CALLGRIND_DUMP_STATS_AT),
 * making parts over time.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

static volatile unsigned long sink;
/* the main thread and both workers meet here: the workers live at the
 * same time, so valgrind gives each its own thread number (it reuses
 * the number of a thread that has ended) */
static pthread_barrier_t all_started;

static unsigned long spin(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *worker(void *arg)
{
	unsigned long n = (unsigned long)arg;

	pthread_barrier_wait(&all_started);
	sink += spin(n * 1000);
	sink += fib((unsigned)(n / 10 + 10));
	return NULL;
}

/* the main thread's share, and two workers of n and 3n */
static void run(unsigned long n)
{
	pthread_t a, b;

	pthread_barrier_init(&all_started, NULL, 3);
	pthread_create(&a, NULL, worker, (void *)n);
	pthread_create(&b, NULL, worker, (void *)(3 * n));
	pthread_barrier_wait(&all_started);
	sink += spin(n * 500);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_barrier_destroy(&all_started);
}

int main(int argc, char **argv)
{
	int dumps = argc > 1;
	pid_t child;

	if (dumps) {
		/* one process, three phases, each its own dump */
		sink += spin(20000);
		CALLGRIND_DUMP_STATS_AT("phase one");
		run(40);
		CALLGRIND_DUMP_STATS_AT("phase two");
		sink += fib(18);
		return 0;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	run(child ? 20 : 60);
	if (child)
		waitpid(child, NULL, 0);
	return 0;
}
