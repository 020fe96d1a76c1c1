/*
 * Allocation that never returns NULL (see xalloc.h).
 */
#include "xalloc.h"

#include <pthread.h>
#include <stdbool.h>
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

/*
 * Tables of TABLE_MAP_BYTES or more take whole huge pages of address
 * space (the pages past size are never touched, so cost nothing). One
 * freed by xfree_table_keep() is kept, up to POOL_MAX_BYTES, for the
 * next tables: memory this process touched before is ten times cheaper
 * to clear than memory new to it where the host takes freed memory
 * back (2.5 ms a MiB on this project's virtual machine,
 * doc/PERFORMANCE.md). The 1 GB perf.data's reading-ahead pieces (16
 * MiB, freed at the read's end) so become the charging's tables, which
 * the second thread faulted in anew. Only memory given so is kept: the
 * tables that grow by doubling, kept as they were freed, held 32 MiB
 * more at the peak of a big Callgrind profile (many.60), as none of
 * them fitted the next. Each kept stretch is whole huge pages, carved
 * from its start.
 */
#define POOL_FROM TABLE_MAP_BYTES
#define POOL_SLOTS 16
#define POOL_MAX_BYTES ((size_t)64 << 20)

static struct {
	char *p;
	size_t len;
} pool[POOL_SLOTS];
static size_t pool_bytes;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t extent_of(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* A kept stretch of len bytes at least, its first len bytes taken out
 * (the smallest that holds them); NULL: none. */
static char *pool_take(size_t len)
{
	size_t best = POOL_SLOTS;
	char *p;

	pthread_mutex_lock(&pool_lock);
	for (size_t i = 0; i < POOL_SLOTS; i++)
		if (pool[i].p && pool[i].len >= len &&
		    (best == POOL_SLOTS || pool[i].len < pool[best].len))
			best = i;
	if (best == POOL_SLOTS) {
		pthread_mutex_unlock(&pool_lock);
		return NULL;
	}
	p = pool[best].p;
	pool[best].p = pool[best].len > len ? p + len : NULL;
	pool[best].len -= len;
	pool_bytes -= len;
	pthread_mutex_unlock(&pool_lock);
	return p;
}

/* Stretch [p, p + len) kept, joined to a kept neighbour; false when
 * the pool is full (the caller unmaps it). */
static bool pool_put(char *p, size_t len)
{
	size_t free_slot = POOL_SLOTS;

	pthread_mutex_lock(&pool_lock);
	if (pool_bytes + len > POOL_MAX_BYTES) {
		pthread_mutex_unlock(&pool_lock);
		return false;
	}
	for (size_t i = 0; i < POOL_SLOTS; i++) {
		if (!pool[i].p) {
			free_slot = i;
		} else if (pool[i].p + pool[i].len == p) {
			pool[i].len += len;
			goto kept;
		} else if (p + len == pool[i].p) {
			pool[i].p = p;
			pool[i].len += len;
			goto kept;
		}
	}
	if (free_slot == POOL_SLOTS) {
		pthread_mutex_unlock(&pool_lock);
		return false;
	}
	pool[free_slot].p = p;
	pool[free_slot].len = len;
kept:
	pool_bytes += len;
	pthread_mutex_unlock(&pool_lock);
	return true;
}

/* len bytes (whole huge pages) mapped at a huge page's boundary, so
 * that all of them can be on huge pages: a huge page more is mapped,
 * and what is not needed of it given back. */
static char *map_aligned(size_t len)
{
	size_t span = len + HUGE_PAGE;
	char *p = xmap_zeroed(span), *aligned;

	aligned = (char *)(((uintptr_t)p + HUGE_PAGE - 1) &
			   ~(uintptr_t)(HUGE_PAGE - 1));
	if (aligned > p)
		munmap(p, (size_t)(aligned - p));
	if (p + span > aligned + len)
		munmap(aligned + len, (size_t)(p + span - (aligned + len)));
	return aligned;
}

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
	char *p;

	if (size < map_from)
		return xcalloc(1, size);
	if (size < POOL_FROM)
		return xmap_zeroed(size);
	p = pool_take(extent_of(size));
	if (p) {
		memset(p, 0, size);
		return p;
	}
	p = map_aligned(extent_of(size));
	/* under a huge page: small pages, only those written faulted in */
	heap_advise(p, size);
	return p;
}

void xfree_table_from(void *p, size_t size, size_t map_from)
{
	if (size < map_from)
		free(p);
	else if (size < POOL_FROM)
		xunmap(p, size);
	else
		xunmap(p, extent_of(size));
}

void xfree_table_keep(void *p, size_t size)
{
	if (size < POOL_FROM || !p || !pool_put(p, extent_of(size)))
		xfree_table(p, size);
}
