/*
 * Allocation that never returns NULL: running out of memory, or asking
 * for a size that overflows, prints a message and aborts. Sizes that come
 * from input must be bounded by the caller before they get here.
 */
#ifndef CGA_XALLOC_H
#define CGA_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t len);

/*
 * The file this thread is reading from now on (NULL: none), which an
 * out-of-memory abort names: a hostile file makes the reader ask for
 * more than there is, and the message should say which. path must
 * live until it is set again.
 */
void xalloc_set_context(const char *path);

/*
 * size bytes of zeros straight from the kernel, for a large table of
 * which only some pages are ever written: the pages never written take
 * no memory and no page fault, where calloc() may clear them all.
 * Released with xunmap(p, size).
 */
void *xmap_zeroed(size_t size);
void xunmap(void *p, size_t size);

/*
 * Zeroed memory for a hash table of `size` bytes, released with
 * xfree_table(p, size). From TABLE_MAP_BYTES on it is mapped apart (on
 * huge pages where the system has them), not carved from the heap: a
 * table is rebuilt at twice its size while the heap grows around it,
 * and the old one, freed in the middle of the heap, left a hole that
 * only smaller blocks could fill (up to 10 MB of a big program's
 * reading peak).
 */
#define TABLE_MAP_BYTES ((size_t)1 << 20)
void *xcalloc_table(size_t size);
void xfree_table(void *p, size_t size);
/* The same, mapped apart from map_from bytes on: for tables that grow
 * in many small parts (idmap.c's shards), whose freed halves would be
 * holes too small for the heap's other blocks. */
void *xcalloc_table_from(size_t size, size_t map_from);
void xfree_table_from(void *p, size_t size, size_t map_from);
/* xfree_table(), but the memory kept for the next tables (up to 64
 * MiB in all, see xalloc.c): for a large table freed while others are
 * still to be made, such as the reading ahead's pieces after a read. */
void xfree_table_keep(void *p, size_t size);

#endif
