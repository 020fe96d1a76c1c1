/*
 * The README's walkthrough program: a little of everything a profile
 * shows. A sieve (a hot loop), a sort through qsort (a libc callback), a
 * recursive function, and a small function the compiler inlines at -O2.
 * The number of rounds is the first argument (default 1), so that the
 * -pg build can run long enough for its 100 Hz clock.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 10000

/* A linear congruential step; -O2 inlines it into fill(). */
static inline unsigned next_random(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* noinline, noclone: each function stays one function of its own name
 * (no fill.constprop.0), as a reader of the listings expects */
__attribute__((noinline, noclone))
static void fill(unsigned *v, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = next_random(&seed) % 100000;
}

static int compare(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* How many primes are below limit: the sieve of Eratosthenes. */
__attribute__((noinline, noclone))
static unsigned count_primes(unsigned limit)
{
	unsigned char *composite = calloc(limit, 1);
	unsigned count = 0;

	if (!composite)
		return 0;
	for (unsigned i = 2; i < limit; i++) {
		if (composite[i])
			continue;
		count++;
		for (unsigned j = 2 * i; j < limit; j += i)
			composite[j] = 1;
	}
	free(composite);
	return count;
}

__attribute__((noinline, noclone))
static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	static unsigned v[N];
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
	unsigned long sum = 0;

	for (long r = 0; r < rounds; r++) {
		fill(v, N, (unsigned)r + 1);
		qsort(v, N, sizeof(v[0]), compare);
		sum += v[N / 2];
		sum += count_primes(200000);
		sum += fib(20);
	}
	printf("%lu\n", sum);
	return 0;
}
