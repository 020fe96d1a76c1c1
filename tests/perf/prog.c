/*
 * The perf.data test program: a PIE calling a shared library (libwork.so),
 * recursion (fib), a function reached two ways (leaf from hot and from the
 * library's lib_apply), and a second thread named "spinner". Built -O0
 * -fno-omit-frame-pointer -g so frame-pointer call chains are whole.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

unsigned long lib_spin(unsigned long n);
unsigned long lib_apply(unsigned long (*fn)(unsigned long), unsigned long n);

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
		return leaf(200);
	return fib(n - 1) + fib(n - 2);
}

static unsigned long hot(unsigned long n)
{
	return leaf(n) + leaf(n / 2);
}

static void *worker(void *arg)
{
	unsigned long scale = *(unsigned long *)arg;

	/* a command name of its own, for --comm (perf records a COMM) */
	pthread_setname_np(pthread_self(), "spinner");
	sink = lib_spin(scale * 4);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 10) : 30000000;
	pthread_t t;

	pthread_create(&t, NULL, worker, &scale);
	for (int r = 0; r < 4; r++) {
		sink = hot(scale);
		sink = fib(22 + r);
		sink = lib_apply(leaf, scale / 2);
	}
	pthread_join(t, NULL);
	return 0;
}
