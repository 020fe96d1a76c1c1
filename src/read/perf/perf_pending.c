/*
 * The queue of held samples (perf_pending.h): one buffer, entries laid
 * end to end from head to tail, each a fixed part then the record's
 * bytes padded to 8. When the back reaches the end, the live entries
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
	bool inflated;
};

#define ENTRY_SIZE ((sizeof(struct entry) + 7) / 8 * 8)

static size_t entry_bytes(uint16_t size)
{
	return ENTRY_SIZE + ((size_t)size + 7) / 8 * 8;
}

void perf_pending_init(struct perf_pending *q)
{
	memset(q, 0, sizeof(*q));
}

void perf_pending_release(struct perf_pending *q)
{
	free(q->buf);
	memset(q, 0, sizeof(*q));
}

void perf_pending_push(struct perf_pending *q, const struct perf_held *h)
{
	size_t need = entry_bytes(h->size), live = q->tail - q->head;
	struct entry e = { h->off, h->inflated_from, h->time, h->size,
			   h->inflated };

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
			q->head = 0;
			q->tail = live;
		}
	}
	memcpy(q->buf + q->tail, &e, sizeof(e));
	memcpy(q->buf + q->tail + ENTRY_SIZE, h->bytes, h->size);
	q->tail += need;
	q->n++;
}

bool perf_pending_front(const struct perf_pending *q, struct perf_held *h)
{
	struct entry e;

	if (!q->n)
		return false;
	memcpy(&e, q->buf + q->head, sizeof(e));
	h->off = e.off;
	h->inflated_from = e.inflated_from;
	h->time = e.time;
	h->inflated = e.inflated;
	h->size = e.size;
	h->bytes = q->buf + q->head + ENTRY_SIZE;
	return true;
}

void perf_pending_pop(struct perf_pending *q)
{
	struct entry e;

	if (!q->n)
		BUG("pop from an empty queue of held samples");
	memcpy(&e, q->buf + q->head, sizeof(e));
	q->head += entry_bytes(e.size);
	if (!--q->n)
		q->head = q->tail = 0;
}

size_t perf_pending_bytes(const struct perf_pending *q)
{
	return q->tail - q->head;
}
