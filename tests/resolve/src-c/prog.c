/* prog.c: a small deterministic program for symbol-resolution tests.
 * It has recursion, a static function, a function whose static inline
 * helpers are inlined at -O2 (two deep), a call through a function
 * pointer, a switch, and functions gcc likes to clone (.constprop,
 * .isra, .part) or split into a .cold part. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "util.h"

struct point {
	int x, y, z;
	char name[16];
};

/* Recursion: not a tail call, so it stays recursive at -O2. */
int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

/* A static function, called from two places, kept out of line. */
static __attribute__((noinline)) int collatz_steps(unsigned n)
{
	int steps = 0;

	while (n != 1) {
		if (n & 1)
			n = 3 * n + 1;
		else
			n /= 2;
		steps++;
	}
	return steps;
}

/* Uses the inline helpers of util.h: mix_pair -> mix. */
unsigned checksum(const int *a, int n)
{
	unsigned h = 2166136261u;
	int i;

	for (i = 0; i + 1 < n; i += 2)
		h = mix_pair(h, (unsigned)a[i], (unsigned)a[i + 1]);
	if (i < n)
		h = mix(h, (unsigned)a[i]);
	return h;
}

/* Always called with the same k: a candidate for .constprop. */
static __attribute__((noinline)) int scale(int x, int k)
{
	int r = 0;

	for (int i = 0; i < k; i++)
		r += x ^ i;
	return r;
}

/* Reads one field of a struct passed by pointer: a candidate for .isra. */
static __attribute__((noinline)) int point_norm1(const struct point *p)
{
	int x = p->x < 0 ? -p->x : p->x;
	int y = p->y < 0 ? -p->y : p->y;

	return x + y;
}

/* A cheap early exit and a big body: a candidate for partial inlining
 * (.part). */
static int expensive(const int *a, int n, int key)
{
	int sum, i, j;

	if (n <= 0 || key < 0)
		return -1;
	sum = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			sum += (a[i] * 31 + a[j] * 17 + key) % 101;
	for (i = 0; i < n; i++)
		sum ^= (a[i] << (i & 7)) + key * i;
	for (i = n - 1; i > 0; i--)
		sum += (a[i] - a[i - 1]) * (i | key);
	if (sum == 123456789) {
		fprintf(stderr, "unlikely sum %d\n", sum);
		fprintf(stderr, "key %d n %d\n", key, n);
		fprintf(stderr, "first %d last %d\n", a[0], a[n - 1]);
	}
	return sum;
}

/* A switch. */
static const char *classify(int v)
{
	switch (v % 7) {
	case 0:
		return "zero";
	case 1:
		return "one";
	case 2:
		return "two";
	case 3:
		return "three";
	case 4:
		return "four";
	case 5:
		return "five";
	default:
		return "other";
	}
}

/* A call through a function pointer. */
__attribute__((noinline)) int apply(op_fn f, int a, int b)
{
	return f(a, b);
}

/* Reports an error and stops; marked cold, so paths calling it are cold. */
static __attribute__((cold, noinline, noreturn)) void die(const char *what,
							    int v)
{
	fprintf(stderr, "prog: %s (%d)\n", what, v);
	exit(2);
}

/* An error path gcc moves to a separate .cold part. */
__attribute__((noinline)) int checked_div(int a, int b)
{
	int q;

	if (b == 0) {
		fprintf(stderr, "checked_div: %d / 0\n", a);
		fflush(stderr);
		die("division by zero", a);
	}
	q = a / b;
	if (q < -1000000) {
		fprintf(stderr, "checked_div: %d too small\n", q);
		die("underflow", q);
	}
	return q;
}

int main(void)
{
	int data[40];
	struct point pts[4];
	unsigned h;
	int i, acc = 0, counts[7] = { 0 };

	for (i = 0; i < 40; i++)
		data[i] = (i * 37 + 11) % 53;
	for (i = 0; i < 4; i++) {
		pts[i].x = i - 2;
		pts[i].y = 3 - 2 * i;
		pts[i].z = i;
		snprintf(pts[i].name, sizeof pts[i].name, "p%d", i);
	}

	acc += fib(15);
	for (i = 1; i < 30; i++)
		acc += collatz_steps((unsigned)i);
	h = checksum(data, 40);
	h ^= checksum(data, 7);
	for (i = 0; i < 10; i++)
		acc += scale(data[i], 5);
	for (i = 0; i < 4; i++)
		acc += point_norm1(&pts[i]);
	acc += expensive(data, 20, 3);
	acc += expensive(data, 0, 3);
	acc += expensive(data + 5, 12, 7);
	acc += expensive(data, 9, -1);
	for (i = 0; i < 20; i++) {
		const char *c = classify(data[i]);
		counts[strlen(c) % 7]++;
		acc += apply(op_table[i % 4], data[i], i + 1);
	}
	for (i = 1; i < 8; i++)
		acc += checked_div(data[i], i);

	printf("acc %d h %08x counts %d %d %d %d %d\n", acc, h, counts[3],
	       counts[4], counts[5], counts[0], counts[2]);
	return 0;
}
