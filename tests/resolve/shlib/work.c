/* work.c: the shared library libwork.so. */
#include "work.h"

/* Inlined into work_hash at -O2. */
static inline unsigned step(unsigned h, unsigned char c)
{
	h = (h << 5) + h;
	return h ^ c;
}

unsigned work_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = step(h, (unsigned char)*s++);
	return h;
}

/* Inlined into work_sum_squares. */
static inline long square(int x)
{
	return (long)x * x;
}

long work_sum_squares(const int *a, int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += square(a[i]);
	return s;
}

/* Recursive, and called through the PLT from the program. */
int work_gcd(int a, int b)
{
	if (b == 0)
		return a;
	return work_gcd(b, a % b);
}

/* A local function kept out of line. */
static __attribute__((noinline)) int clip(int v, int lo, int hi)
{
	if (v < lo)
		return lo;
	if (v > hi)
		return hi;
	return v;
}

/* Calls back into the program through a function pointer. */
int work_apply_all(int (*f)(int), const int *a, int n)
{
	int r = 0;

	for (int i = 0; i < n; i++)
		r += clip(f(a[i]), -10, 10);
	return r;
}
