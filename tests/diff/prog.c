/*
 * The program of the --diff test profiles, built twice: make.sh builds
 * it in two checkouts, the second with -DSLOWER, which makes checksum()
 * go over its data three times instead of once. Nothing else changes.
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static unsigned long checksum(const unsigned *v,
							  size_t n)
{
	unsigned long sum = 0;
#ifdef SLOWER
	int passes = 3;
#else
	int passes = 1;
#endif

	for (int p = 0; p < passes; p++)
		for (size_t i = 0; i < n; i++)
			sum = sum * 31 + v[i];
	return sum;
}

__attribute__((noinline)) static void fill(unsigned *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (unsigned)(i * 2654435761u);
}

int main(void)
{
	size_t n = 2000;
	unsigned *v = malloc(n * sizeof(*v));

	if (!v)
		return 1;
	fill(v, n);
	printf("%lu %u\n", checksum(v, n), fib(15));
	free(v);
	return 0;
}
