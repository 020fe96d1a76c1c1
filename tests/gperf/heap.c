/*
 * The gperftools heap-profile test program: blocks kept (in use at the
 * end) and blocks freed (allocated only), from two call paths, so the
 * in-use and allocated space and objects differ per function.
 */
#include <stdlib.h>
#include <string.h>

static void *keep[64];

static void *block(size_t n)
{
	void *p = malloc(n);

	memset(p, 1, n);
	return p;
}

static void kept(int i)
{
	keep[i] = block(100000 + (size_t)i * 1000);
}

static void churn(int i)
{
	free(block(500000 + (size_t)i * 100));
}

static void both(int i)
{
	kept(i + 32);
	churn(i);
}

int main(void)
{
	for (int i = 0; i < 32; i++) {
		kept(i);
		both(i);
	}
	for (int i = 0; i < 64; i += 2)
		free(keep[i]);
	return 0;
}
