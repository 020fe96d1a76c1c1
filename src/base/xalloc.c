/*
 * Allocation that never returns NULL (see xalloc.h).
 */
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "heap_tune.h"

/* the file this thread is reading (xalloc_set_context) */
static _Thread_local const char *reading;

void xalloc_set_context(const char *path)
{
	reading = path;
}

static void out_of_memory(size_t nmemb, size_t size)
{
	if (reading)
		fprintf(stderr, "cganalyze: %s: out of memory while reading "
			"it (wanted %zu x %zu bytes)\n", reading, nmemb, size);
	else
		fprintf(stderr, "cganalyze: out of memory (wanted %zu x %zu "
			"bytes)\n", nmemb, size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory(1, size);
	heap_advise(p, size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		out_of_memory(nmemb, size);
	heap_advise(p, nmemb * size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size)
		out_of_memory(nmemb, size);
	p = realloc(ptr, nmemb && size ? nmemb * size : 1);
	if (!p)
		out_of_memory(nmemb, size);
	heap_advise(p, nmemb * size);
	return p;
}

char *xstrndup(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void *xmap_zeroed(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		out_of_memory(1, size);
	return p;
}

void xunmap(void *p, size_t size)
{
	if (p)
		munmap(p, size ? size : 1);
}

#define HUGE_PAGE ((size_t)2 << 20)

void *xcalloc_table(size_t size)
{
	return xcalloc_table_from(size, TABLE_MAP_BYTES);
}

void xfree_table(void *p, size_t size)
{
	xfree_table_from(p, size, TABLE_MAP_BYTES);
}

void *xcalloc_table_from(size_t size, size_t map_from)
{
	char *p, *aligned;
	size_t span;

	if (size < map_from)
		return xcalloc(1, size);
	if (size < HUGE_PAGE)
		return xmap_zeroed(size);
	/* at a huge page's boundary, so that all of it can be on huge
	 * pages: a huge page more is mapped, and what is not needed of it
	 * given back */
	span = size + HUGE_PAGE;
	p = xmap_zeroed(span);
	aligned = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (aligned > p)
		munmap(p, (size_t)(aligned - p));
	if (p + span > aligned + size)
		munmap(aligned + size, (size_t)(p + span - (aligned + size)));
	heap_advise(aligned, size);
	return aligned;
}

void xfree_table_from(void *p, size_t size, size_t map_from)
{
	if (size < map_from)
		free(p);
	else
		xunmap(p, size);
}
