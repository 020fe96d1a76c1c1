/*
 * The queue of held samples (perf_pending.h): one buffer, entries laid
 * end to end from head to tail, each a fixed part then, if copied, the
 * record's bytes padded to 8. When the back reaches the end, the live entries
 * (a round or two) move to the front, or the buffer doubles if they
 * fill half of it; when the queue empties, both ends go back to 0.
 */
#include "perf_pending.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"

struct entry {
	size_t off, inflated_from;
	uint64_t time;
	uint16_t size;
	bool inflated, copied;
};

#define ENTRY_SIZE ((sizeof(struct entry) + 7) / 8 * 8)

static size_t entry_bytes(const struct entry *e)
{
	return ENTRY_SIZE + (e->copied ? ((size_t)e->size + 7) / 8 * 8 : 0);
}

void perf_pending_init(struct perf_pending *q)
{
	memset(q, 0, sizeof(*q));
	q->first_uncopied = SIZE_MAX;
}

void perf_pending_release(struct perf_pending *q)
{
	free(q->buf);
	perf_pending_init(q);
}

void perf_pending_push(struct perf_pending *q, const struct perf_held *h)
{
	struct entry e = { h->off, h->inflated_from, h->time, h->size,
			   h->inflated, h->bytes != NULL };
	size_t need = entry_bytes(&e), live = q->tail - q->head;

	if (q->alloc - q->tail < need) {
		if (live + need > q->alloc / 2) {
			size_t alloc = q->alloc ? q->alloc : (size_t)1 << 20;

			while (live + need > alloc / 2)
				alloc *= 2;
			q->buf = xreallocarray(q->buf, alloc, 1);
			q->alloc = alloc;
		}
		if (q->alloc - q->tail < need) {
			memmove(q->buf, q->buf + q->head, live);
			if (q->first_uncopied != SIZE_MAX)
				q->first_uncopied -= q->head;
			q->head = 0;
			q->tail = live;
		}
	}
	if (!e.copied && q->first_uncopied == SIZE_MAX)
		q->first_uncopied = q->tail;
	memcpy(q->buf + q->tail, &e, sizeof(e));
	if (e.copied)
		memcpy(q->buf + q->tail + ENTRY_SIZE, h->bytes, h->size);
	q->tail += need;
	q->n++;
}

bool perf_pending_at(const struct perf_pending *q, size_t *pos,
		     struct perf_held *h)
{
	size_t at = q->head + *pos;
	struct entry e;

	if (!q->n || at >= q->tail)
		return false;
	memcpy(&e, q->buf + at, sizeof(e));
	h->off = e.off;
	h->inflated_from = e.inflated_from;
	h->time = e.time;
	h->inflated = e.inflated;
	h->size = e.size;
	h->bytes = e.copied ? q->buf + at + ENTRY_SIZE : NULL;
	*pos += entry_bytes(&e);
	return true;
}

bool perf_pending_front(const struct perf_pending *q, struct perf_held *h)
{
	size_t pos = 0;

	return perf_pending_at(q, &pos, h);
}

void perf_pending_pop(struct perf_pending *q)
{
	struct entry e;

	if (!q->n)
		BUG("pop from an empty queue of held samples");
	memcpy(&e, q->buf + q->head, sizeof(e));
	q->head += entry_bytes(&e);
	if (!--q->n) {
		q->head = q->tail = 0;
		q->first_uncopied = SIZE_MAX;
		return;
	}
	if (q->first_uncopied != q->head - entry_bytes(&e))
		return;
	/* the next one not copied: each entry is passed over here once */
	q->first_uncopied = SIZE_MAX;
	for (size_t at = q->head; at < q->tail; at += entry_bytes(&e)) {
		memcpy(&e, q->buf + at, sizeof(e));
		if (!e.copied) {
			q->first_uncopied = at;
			break;
		}
	}
}

size_t perf_pending_bytes(const struct perf_pending *q)
{
	return q->tail - q->head;
}

bool perf_pending_first_uncopied(const struct perf_pending *q, size_t *off)
{
	struct entry e;

	if (q->first_uncopied == SIZE_MAX)
		return false;
	memcpy(&e, q->buf + q->first_uncopied, sizeof(e));
	*off = e.off;
	return true;
}
