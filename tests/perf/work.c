/* The shared library of the perf.data test program: a loop of its own
 * and a call back into the program. */
volatile unsigned long lib_sink;

unsigned long lib_spin(unsigned long n)
{
	unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 7 + (x >> 3);
	lib_sink = x;
	return x;
}

unsigned long lib_apply(unsigned long (*fn)(unsigned long), unsigned long n)
{
	return fn(n) + lib_spin(n / 2);
}
