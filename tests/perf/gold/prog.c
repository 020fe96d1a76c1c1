/* A small program linked by GNU gold (make.sh), whose .eh_frame_hdr comes
 * after .eh_frame: tests/test_perf_ehcfi.c reads its CFI both ways. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned sink;

/* a frame with saved registers and a local array: a prologue, a body
 * and an epilogue, each with its own row */
__attribute__((noinline)) static unsigned mix(unsigned x, unsigned n)
{
	unsigned buf[64];

	for (unsigned i = 0; i < 64; i++)
		buf[i] = x * (i + 1) ^ n;
	for (unsigned i = 1; i < 64; i++)
		buf[i] += buf[i - 1] >> 3;
	return buf[x % 64];
}

/* recursion, and an early return that gcc restores the state for
 * (DW_CFA_remember_state / DW_CFA_restore_state) */
__attribute__((noinline)) static unsigned walk(unsigned depth, unsigned x)
{
	if (depth == 0)
		return mix(x, depth);
	if (x % 7 == 3)
		return x + depth;
	return walk(depth - 1, x * 31 + 7) + mix(x, depth);
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
	char *s = malloc(64);

	for (unsigned i = 0; i < n; i++)
		sink += walk(12, i);
	snprintf(s, 64, "%u", sink);
	puts(strlen(s) ? s : "0");
	free(s);
	return 0;
}
