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

static void out_of_memory(size_t nmemb, size_t size)
{
	fprintf(stderr, "cganalyze: out of memory (wanted %zu x %zu bytes)\n",
		nmemb, size);
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
