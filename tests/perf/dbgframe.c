/* Built without unwind tables: its code's CFI is in .debug_frame only,
 * which goes to a separate debug file (tests/perf/make.sh). */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned sink;

NOINLINE static unsigned leaf(unsigned n)
{
	unsigned x = n;

	for (unsigned i = 0; i < 2000; i++)
		x = x * 1103515245u + 12345u;
	return x;
}

NOINLINE static unsigned middle(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < 8; i++)
		s += leaf(n + i);
	return s;
}

NOINLINE static unsigned outer(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < n; i++)
		s ^= middle(i);
	return s;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000;

	sink = outer(n);
	printf("%u\n", sink);
	return 0;
}
