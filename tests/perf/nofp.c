/*
 * A program built -O2 without frame pointers (gcc's default there), for
 * perf record -g: its call chains, walked by frame pointers, go wrong
 * past the sampled function (tests/perf/make-nofp.sh).
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned mixer(unsigned x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 2654435761u + (x >> 7);
	return x;
}

__attribute__((noinline)) static unsigned middle(unsigned x, int n)
{
	unsigned a = mixer(x, n), b = mixer(a ^ 0x55u, n);

	return a + b;
}

__attribute__((noinline)) static unsigned outer(unsigned x, int reps)
{
	for (int r = 0; r < reps; r++)
		x ^= middle(x + (unsigned)r, 100000);
	return x;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 2000;

	printf("%u\n", outer(1, reps));
	return 0;
}
