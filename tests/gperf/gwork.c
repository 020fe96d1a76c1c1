/* libgwork.so: the shared library of prog.c, with code of its own
 * (gw_spin) and a callback into the program (gw_apply). */
unsigned long gw_spin(unsigned long n)
{
	unsigned long x = 7;

	for (unsigned long i = 0; i < n; i++)
		x ^= x << 3 ^ i;
	return x;
}

unsigned long gw_apply(unsigned long (*fn)(unsigned long), unsigned long n)
{
	return fn(n) + gw_spin(n / 4);
}
