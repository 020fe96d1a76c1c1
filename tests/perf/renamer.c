/*
 * A program that renames its main thread (prctl PR_SET_NAME, as servers
 * do) and spins: a recording of it running (perf record -p) has the new
 * name as its command name, not the program's (tests/perf/make-renamer.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>

__attribute__((noinline)) static unsigned spin(unsigned x, long n)
{
	for (long i = 0; i < n; i++)
		x = x * 2654435761u + (x >> 7);
	return x;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000000;

	prctl(PR_SET_NAME, "srv-main");
	printf("%u\n", spin(1, n));
	return 0;
}
