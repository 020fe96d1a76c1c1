/*
 * Stacks deeper than gperftools keeps (tests/gperf/make-deep.sh): the
 * CPU profiler keeps 253 addresses of a sample's stack, the heap
 * profiler 32 of an allocation's; the outermost callers, main among
 * them, are dropped. "cpu": spin() under 400 calls of rec(); "heap":
 * malloc() under 60.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *keep[200];	/* not static: the stores stay */

__attribute__((noinline)) static unsigned spin(unsigned x)
{
	for (int i = 0; i < 200000; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

__attribute__((noinline)) static unsigned rec(int d, unsigned x, int heap)
{
	if (!d) {
		if (heap) {
			keep[x % 200] = malloc(100000);
			return x;
		}
		return spin(x);
	}
	x = rec(d - 1, x + 1, heap);
	__asm__ volatile("" ::: "memory");	/* no tail call */
	return x ^ (unsigned)d;
}

int main(int argc, char **argv)
{
	int heap = argc > 1 && !strcmp(argv[1], "heap");
	unsigned s = 0;

	for (int i = 0; i < (heap ? 200 : 600); i++)
		s += rec(heap ? 60 : 400, (unsigned)i, heap);
	printf("%u\n", s);
	return 0;
}
