/*
 * The heap on transparent huge pages.
 *
 * A page touched for the first time costs a page fault, and on a
 * virtual machine a fault is dear: 16 us for each 4 KiB page on the
 * machine we measure on, 150 us for a 2 MiB huge page, 0.3 us a 4 KiB
 * share of it. Where the kernel gives huge pages only to memory that
 * asks for them (transparent_hugepage "madvise", Debian's default),
 * reading a profile spent a third of its time faulting.
 *
 * heap_tune() sets glibc's malloc once, before the first allocation of
 * any size: the heap grows 16 MiB at a time (a step holds whole huge
 * pages), and every thread shares the main heap, so what the reader
 * thread allocates is on huge pages too. heap_advise() is called by
 * xalloc after every allocation: the heap's new part and any block of
 * 2 MiB or more are marked MADV_HUGEPAGE. Both do nothing where the
 * system has no such pages, or when heap_tune(false) turned them off.
 */
#ifndef CGA_HEAP_TUNE_H
#define CGA_HEAP_TUNE_H

#include <stdbool.h>
#include <stddef.h>

/* How much more than asked the heap grows by, and keeps free at its top
 * (glibc's M_TOP_PAD). */
#define HEAP_STEP_BYTES ((size_t)16 << 20)

void heap_tune(bool huge_pages);
void heap_advise(void *p, size_t size);

#endif
