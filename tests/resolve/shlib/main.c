/* main.c: a program linked against libwork.so. */
#include <stdio.h>

#include "work.h"

static int twice(int x)
{
	return 2 * x + 1;
}

int main(void)
{
	static const char *const names[] = { "alpha", "beta", "gamma", "delta" };
	int a[16];
	unsigned h = 0;
	int g = 0;

	for (int i = 0; i < 16; i++)
		a[i] = i * 3 - 7;
	for (int i = 0; i < 4; i++)
		h ^= work_hash(names[i]);
	for (int i = 1; i < 12; i++)
		g += work_gcd(i * 84, 36 + i);
	printf("%08x %ld %d %d\n", h, work_sum_squares(a, 16), g,
	       work_apply_all(twice, a, 16));
	return 0;
}
