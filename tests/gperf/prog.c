/*
 * The gperftools CPU-profile test program (C): recursion (fib), a function
 * reached two ways (leaf from hot and, through a callback, from the shared
 * library's gw_apply), and code of its own library (libgwork.so). Built -g
 * with frame pointers, once as a PIE (prog) and once not (prog-nopie).
 */
#include <stdlib.h>

unsigned long gw_spin(unsigned long n);
unsigned long gw_apply(unsigned long (*fn)(unsigned long), unsigned long n);

volatile unsigned long sink;

static unsigned long leaf(unsigned long n)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < n; i++)
		x = x * 31 + i;
	return x;
}

static unsigned long fib(unsigned long n)
{
	if (n < 2)
		return leaf(300);
	return fib(n - 1) + fib(n - 2);
}

static unsigned long hot(unsigned long n)
{
	return leaf(n) + leaf(n / 2);
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000000;

	for (int r = 0; r < 3; r++) {
		sink = hot(scale);
		sink = fib(20 + r);
		sink = gw_apply(leaf, scale / 2);
		sink = gw_spin(scale);
	}
	return 0;
}
