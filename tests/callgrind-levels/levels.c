/* Recursion levels for the fold tests (tests/callgrind-levels/make.sh):
 * under valgrind's --separate-recs each function's recursion levels are
 * functions of their own ("even'2", "ring_a'3"), and folding them back
 * (--fold-recursion, the report's fold) is what these profiles check.
 *
 *   walk    self recursion: walk > walk'2 > walk'3 ...
 *   even/odd  mutual recursion: even > odd > even'2 > odd'2 ...
 *   ring_a > ring_b > ring_c > ring_a'2 ...: a ring of three
 *   leaf    called at every level, so its cost follows the levels
 *
 * Deterministic: no clock, no rand, one thread. */
#include <stdio.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned leaf(unsigned n)
{
	unsigned x = n;

	for (unsigned i = 0; i < 40 + n % 7; i++)
		x = x * 1103515245u + 12345u;
	sink += x;
	return x;
}

__attribute__((noinline)) static unsigned walk(unsigned n)
{
	if (n == 0)
		return leaf(1);
	return leaf(n) + walk(n - 1) + 1;
}

__attribute__((noinline)) static unsigned odd(unsigned n);

__attribute__((noinline)) static unsigned even(unsigned n)
{
	if (n == 0)
		return leaf(2);
	return leaf(n) + odd(n - 1) + 1;
}

__attribute__((noinline)) static unsigned odd(unsigned n)
{
	if (n == 0)
		return leaf(3);
	return leaf(n + 1) + even(n - 1) + 2;
}

__attribute__((noinline)) static unsigned ring_b(unsigned n);
__attribute__((noinline)) static unsigned ring_c(unsigned n);

__attribute__((noinline)) static unsigned ring_a(unsigned n)
{
	if (n == 0)
		return leaf(4);
	return leaf(n) + ring_b(n - 1) + 1;
}

__attribute__((noinline)) static unsigned ring_b(unsigned n)
{
	if (n == 0)
		return leaf(5);
	return leaf(n + 2) + ring_c(n - 1) + 2;
}

__attribute__((noinline)) static unsigned ring_c(unsigned n)
{
	if (n == 0)
		return leaf(6);
	return leaf(n + 3) + ring_a(n - 1) + 3;
}

/* each entered from two places, so the estimate shares them */
__attribute__((noinline)) static unsigned first(void)
{
	return walk(9) + even(12) + ring_a(10);
}

__attribute__((noinline)) static unsigned second(void)
{
	return walk(4) + odd(7) + ring_b(5) + leaf(9);
}

int main(void)
{
	unsigned r = 0;

	for (int i = 0; i < 20; i++)
		r += first() + (i % 3 ? second() : 0);
	printf("%u\n", r);
	return 0;
}
