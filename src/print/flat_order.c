/*
 * The flat profile's order, gprof's (see print.h): for the flat
 * profile, its time columns (print_seconds.c) and the --dot picture.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "profile/gmon_data.h"
#include "print.h"

/* A row with what the order looks at: computed once per row for a
 * sort, or per comparison by cmp_flat_order(). */
struct flat_key {
	double self;
	uint64_t calls;
	const char *name;
	uint32_t id;
};

static struct flat_key flat_key_of(const struct cg *cg, uint32_t ev,
				   uint32_t n)
{
	struct flat_key k = {
		.self = cg_node_self(cg, n, ev), .calls = cg->nodes[n].calls,
		.name = gmon_sort_name(cg->p, n), .id = n,
	};

	return k;
}

/* gprof's order: self cost, then calls, then name (a gmon.out's as
 * gprof compares them: mangled, gmon_sort_name()), then id, so that it
 * never depends on the sort */
static int cmp_flat_keys(const void *x, const void *y)
{
	const struct flat_key *a = x, *b = y;
	int r;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	r = strcmp(a->name, b->name);
	if (r)
		return r;
	return a->id < b->id ? -1 : a->id > b->id;
}

int cmp_flat_order(const void *x, const void *y, void *arg)
{
	const struct flat_order *c = arg;
	struct flat_key a = flat_key_of(c->cg, c->ev, *(const uint32_t *)x);
	struct flat_key b = flat_key_of(c->cg, c->ev, *(const uint32_t *)y);

	return cmp_flat_keys(&a, &b);
}

void sort_flat_order(const struct cg *cg, uint32_t ev, uint32_t *rows,
		     size_t n)
{
	struct flat_key *keys = xcalloc(n + 1, sizeof(*keys));

	for (size_t i = 0; i < n; i++)
		keys[i] = flat_key_of(cg, ev, rows[i]);
	qsort(keys, n, sizeof(*keys), cmp_flat_keys);
	for (size_t i = 0; i < n; i++)
		rows[i] = keys[i].id;
	free(keys);
}
