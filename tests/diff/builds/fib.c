/*
 * One program built twice, -O0 and -O2, into two build directories
 * (make.sh): --diff compares the two builds function by function.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* a loop the optimiser speeds up more than fib's calls */
__attribute__((noinline)) static unsigned long mix(unsigned rounds)
{
	unsigned long h = 1469598103934665603ul;

	for (unsigned i = 0; i < rounds; i++)
		h = (h ^ i) * 1099511628211ul;
	return h;
}

/* fib N, then ROUNDS rounds of mix: "prog [N [ROUNDS]]" */
int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20;
	unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10)
				   : 200000;

	printf("%lu %lu\n", fib(n), mix(rounds));
	return 0;
}
