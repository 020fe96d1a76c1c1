/*
 * The program behind the gmon.out tests: plain work, direct recursion
 * (fib), a two-function cycle (ping <-> pong) and a function called from
 * several places (spin), so that the flat profile, the call graph, the
 * proportional propagation and cycles as wholes all have something to
 * show. Built with gcc -pg by make.sh.
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/* written by spin, so that the compiler cannot treat spin as pure and
 * hoist its calls out of loops */
unsigned long spun;

NOINLINE unsigned long spin(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += (i * i) ^ (s >> 3);
	spun += n;
	return s;
}

NOINLINE unsigned long fib(int n)
{
	if (n < 2)
		return (unsigned long)n;
	return fib(n - 1) + fib(n - 2);
}

NOINLINE unsigned long pong(int n);

/* each does some work of its own too, so that the histogram has time
 * in every function, not only in spin */
static unsigned long own_work(unsigned long s, int n)
{
	for (int k = 0; k < n; k++)
		s = s * 6364136223846793005UL + (unsigned long)k;
	return s;
}

NOINLINE unsigned long ping(int n)
{
	unsigned long s = own_work((unsigned long)n, 600);

	if (n <= 0)
		return s + spin(2000);
	return s + spin(1000) + pong(n - 1);
}

NOINLINE unsigned long pong(int n)
{
	unsigned long s = own_work((unsigned long)n, 300);

	if (n <= 0)
		return s;
	return s + spin(3000) + ping(n - 1);
}

/*
 * A local function named the way GCC names a part of a function it split
 * off: gprof does not take "helper.part.0" for a function of its own, so
 * its time and the calls to it go to the function before it.
 */
static NOINLINE unsigned long helper(unsigned long s) __asm__("helper.part.0");

static NOINLINE unsigned long helper(unsigned long s)
{
	return own_work(s, 1500);
}

NOINLINE unsigned long work(int rounds)
{
	unsigned long s = 0;

	for (int i = 0; i < rounds; i++)
		s += spin(20000) + own_work(s, 4000) + helper(s);
	return s;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 5;
	unsigned long s = 0;

	s += fib(32);
	for (int i = 0; i < 3000 * scale; i++)
		s += ping(i % 12);
	s += work(4000 * scale);
	printf("%lu\n", s);
	return 0;
}
