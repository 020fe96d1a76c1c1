/*
 * The heap on huge pages (base/heap_tune.h): after heap_tune(true),
 * a large block and the heap's new part carry the kernel's "hg" flag
 * (MADV_HUGEPAGE) in /proc/self/smaps; after heap_tune(false) nothing
 * does. Skipped where the kernel has no transparent huge pages.
 */
#include "helpers.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/heap_tune.h"
#include "base/xalloc.h"

static bool thp_kernel(void)
{
	return access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
}

/* 1: the mapping holding p is advised; 0: it is not; -1: not found */
static int advised(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			found = strstr(line, " hg") != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Small blocks until the heap grows past where it ended: the last one
 * is in its new part (NULL if malloc does not use the heap here, as
 * under ASan). */
static char *block_in_grown_heap(char ***keep, size_t *n)
{
	char *start = sbrk(0);
	char *p = NULL;

	*keep = xcalloc(4096, sizeof(**keep));
	for (*n = 0; *n < 4096; (*n)++) {
		p = xmalloc(64 * 1024);
		(*keep)[*n] = p;
		if (p > start && p < (char *)sbrk(0) &&
		    (char *)sbrk(0) > start + (32u << 20)) {
			(*n)++;
			return p;
		}
	}
	return NULL;
}

static void release(char **keep, size_t n)
{
	while (n)
		free(keep[--n]);
	free(keep);
}

/* After heap_tune(on): a large block and the heap's new part advised
 * (1) or not (0). */
static void check_advice(bool on)
{
	char **keep, *big, *small;
	size_t n;

	heap_tune(on);
	big = xmalloc(6u << 20);
	assert_int_equal(advised(big + (3u << 20)), on);
	free(big);
	big = xcalloc(3, 2u << 20);
	big = xreallocarray(big, 5, 2u << 20);	/* grown by mremap */
	assert_int_equal(advised(big + (9u << 20)), on);
	free(big);
	small = block_in_grown_heap(&keep, &n);
	if (small)
		assert_int_equal(advised(small), on);
	release(keep, n);
}

static void test_huge_pages_advised(void **state)
{
	(void)state;
	if (!thp_kernel())
		skip();
	check_advice(true);
	heap_tune(false);
}

static void test_huge_pages_off(void **state)
{
	(void)state;
	if (!thp_kernel())
		skip();
	check_advice(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_huge_pages_off),
		cmocka_unit_test(test_huge_pages_advised),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
