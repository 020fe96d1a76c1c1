/*
 * Samples held back in file order until the records that could change
 * their look-ups have been read (perf_records.c's one pass): a queue of
 * records, each with where it was and its time, and a copy of its
 * bytes where they cannot be had again (a compressed record's); those
 * of the file itself are asked for again where they are
 * (perf_source.h). perf writes a round of every CPU's buffer at a time,
 * so a sample waits about two rounds (a few hundred KB each): the queue
 * holds that, not the file.
 */
#ifndef CGA_PERF_PENDING_H
#define CGA_PERF_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A record held: its header and body, contiguous (size bytes at
 * bytes; NULL: not copied, at off in the file); off its file offset
 * (of the decompressed stream when inflated, from the compressed record
 * at inflated_from). */
struct perf_held {
	size_t off, inflated_from;
	uint64_t time;
	bool inflated;
	uint16_t size;
	const unsigned char *bytes;
};

struct perf_pending {
	unsigned char *buf;
	size_t head, tail, alloc;	/* the entries are [head, tail) */
	size_t n;
	size_t first_uncopied;		/* where in buf; SIZE_MAX: none */
};

/* Empty; nothing allocated until the first push. */
void perf_pending_init(struct perf_pending *q);
void perf_pending_release(struct perf_pending *q);

/* h at the back, with a copy of its h->size bytes at h->bytes unless
 * that is NULL. */
void perf_pending_push(struct perf_pending *q, const struct perf_held *h);

/* The front entry into *h (its bytes valid until the next push or
 * pop): false when none. */
bool perf_pending_front(const struct perf_pending *q, struct perf_held *h);

/* The entries front to back without dropping them: *pos 0 for the
 * front, moved on to the next; false past the back. h as
 * perf_pending_front()'s. */
bool perf_pending_at(const struct perf_pending *q, size_t *pos,
		     struct perf_held *h);

/* Drops the front entry (there must be one). */
void perf_pending_pop(struct perf_pending *q);

/* The bytes the entries take. */
size_t perf_pending_bytes(const struct perf_pending *q);

/* The offset of the first entry not copied into *off: false when
 * none is. */
bool perf_pending_first_uncopied(const struct perf_pending *q, size_t *off);

#endif
