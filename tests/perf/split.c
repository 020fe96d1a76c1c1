/*
 * Two callers of work(), which has a cost of its own and a callee
 * (inner): from own_heavy() work spends 3/4 of its time itself, from
 * kids_heavy() 1/4. The call graph's caller lines of work split each
 * call's inclusive cost by the samples (tests/sh/arc-split.sh); the
 * callee's overall ratio (1/2) would give both callers the same split.
 */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) static void inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline, noclone)) static void work(unsigned long own,
						    unsigned long below)
{
	for (unsigned long i = 0; i < own; i++)
		sink ^= i;
	inner(below);
	sink++;		/* no tail call: inner's caller stays work */
}

__attribute__((noinline, noclone)) static void own_heavy(unsigned long n)
{
	work(3 * n, n);
}

__attribute__((noinline, noclone)) static void kids_heavy(unsigned long n)
{
	work(n, 3 * n);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;

	for (unsigned long r = 0; r < n; r++) {
		own_heavy(100000);
		kids_heavy(100000);
	}
	return 0;
}
