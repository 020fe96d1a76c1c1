/*
 * glibc's malloc set for few page faults (see heap_tune.h).
 */
#include "heap_tune.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define HUGE_PAGE (2u << 20)

/*
 * The end of the heap up to which it is advised; NULL: huge pages are
 * off. Threads allocate at once, so it is read and written atomically;
 * two threads seeing the same growth both advise it, which is harmless.
 */
static char *advised_end;

static bool huge_pages_available(void)
{
#ifdef MADV_HUGEPAGE
	return access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
#else
	return false;
#endif
}

/*
 * Where the heap starts, the break is moved to a page short of a huge
 * page's boundary, and the heap made: malloc() writes its first
 * headers in that page, before the advice can be given, and a huge
 * page can only fill 2 MiB of which no page is mapped yet. The heap's
 * huge pages then start at the boundary, and a 16 MB profile's run
 * takes the same faults each time (the break is placed at random).
 */
static void start_heap_on_huge_pages(void)
{
	uintptr_t brk_now = (uintptr_t)sbrk(0);
	uintptr_t want = ((brk_now + 4096 + HUGE_PAGE - 1) &
			  ~(uintptr_t)(HUGE_PAGE - 1)) - 4096;
	void *first;

	/* failing, the heap starts where it is: small pages up to the
	 * first boundary */
	if (brk_now != (uintptr_t)-1 && want > brk_now)
		(void)sbrk((intptr_t)(want - brk_now));
	__atomic_store_n(&advised_end, (char *)sbrk(0), __ATOMIC_RELAXED);
	first = malloc(1);
	heap_advise(first, 1);
	free(first);
}

void heap_tune(bool huge_pages)
{
#ifdef __GLIBC__
	/*
	 * The heap grows by this much past what is asked, and keeps as
	 * much when its top is freed (glibc's default is 128 KiB): a 16 MB
	 * profile grows it once, its huge pages are whole, and memory
	 * freed at the top and taken again is not faulted in anew. Setting
	 * it also keeps the mmap threshold at 128 KiB (no dynamic
	 * threshold): larger blocks are mapped apart and grow with
	 * mremap(), without copying.
	 */
	mallopt(M_TOP_PAD, (int)HEAP_STEP_BYTES);
	/*
	 * One heap for every thread: the thread that reads ahead would
	 * otherwise fill an arena of its own on small pages, and keep what
	 * it freed there after its stretches are merged.
	 */
	mallopt(M_ARENA_MAX, 1);
	__atomic_store_n(&advised_end, NULL, __ATOMIC_RELAXED);
	if (huge_pages && huge_pages_available())
		start_heap_on_huge_pages();
#else
	(void)huge_pages;
#endif
}

static void advise(void *start, void *end)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = (uintptr_t)start & ~(uintptr_t)4095;

	/* failure only means small pages, as without the advice */
	(void)madvise((void *)a, (uintptr_t)end - a, MADV_HUGEPAGE);
#else
	(void)start;
	(void)end;
#endif
}

void heap_advise(void *p, size_t size)
{
	char *was = __atomic_load_n(&advised_end, __ATOMIC_RELAXED);
	char *end;

	if (!was)
		return;
	/* a block this large is mapped on its own, not in the heap */
	if (size >= HUGE_PAGE)
		advise(p, (char *)p + size);
	/* glibc's sbrk(0) reads a variable: no system call */
	end = sbrk(0);
	if (end == was)
		return;
	/* the heap grew (or was trimmed): its new part is advised */
	if (end > was)
		advise(was, end);
	__atomic_store_n(&advised_end, end, __ATOMIC_RELAXED);
}
