/* An edited copy of samples/recursion/prog.c, made after the profile:
 * three lines added at the top and the end cut off, so the profile's
 * lines no longer match. */
/* Recursion sample for cganalyze.
 * Build: gcc -g -O1 -pthread -o prog prog.c
 * Deterministic: no clock, no rand; the second thread is joined before
 * main does any of its own work, so the interleaving cannot vary. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

#define N_SORT 200

__attribute__((noinline)) int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) int odd(int n);

__attribute__((noinline)) int even(int n)
{
    if (n == 0)
        return 1;
    return odd(n - 1);
}

__attribute__((noinline)) int odd(int n)
{
    if (n == 0)
        return 0;
    return even(n - 1);
}

/* A 3-function cycle: ring_a -> ring_b -> ring_c -> ring_a.
 * The "1 +" after the call keeps them from being tail calls. */
__attribute__((noinline)) int ring_b(int depth);
__attribute__((noinline)) int ring_c(int depth);

__attribute__((noinline)) int ring_a(int depth)
{
    if (depth <= 0)
        return 0;
    return 1 + ring_b(depth - 1);
}

__attribute__((noinline)) int ring_b(int depth)
{
    if (depth <= 0)
        return 0;
    return 2 + ring_c(depth - 1);
}

__attribute__((noinline)) int ring_c(int depth)
{
    if (depth <= 0)
        return 0;
    return 3 + ring_a(depth - 1);
}

static int cmp_uint(const void *pa, const void *pb)
{
    unsigned a = *(const unsigned *)pa;
    unsigned b = *(const unsigned *)pb;
    return (a > b) - (a < b);
}

/* Fills an array with mix() (inlined from work.h), sorts it with qsort
 * and a callback, and runs the recursive functions. */
__attribute__((noinline)) unsigned work(unsigned seed, int fib_n)
{
    unsigned v[N_SORT];
    unsigned acc = 0;
    int i;

    for (i = 0; i < N_SORT; i++)
        v[i] = mix(seed + (unsigned)i);
    qsort(v, N_SORT, sizeof v[0], cmp_uint);
    for (i = 0; i < N_SORT; i += 10)
        acc += v[i] >> 20;

    acc += (unsigned)fib(fib_n);
    acc += (unsigned)even(fib_n * 3);
    acc += (unsigned)odd(fib_n * 2 + 1);
    acc += (unsigned)ring_a(fib_n + 5);
    return acc;
}

struct job {
    unsigned seed;
    int fib_n;
    unsigned result;
};

