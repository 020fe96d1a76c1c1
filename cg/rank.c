/*
 * Listing order: every function and every cycle as a whole, highest
 * total (self + child) first, as gprof's call graph orders them; ties
 * are broken fully so the order never depends on qsort.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "cg.h"
#include "profile/gmon_data.h"

static double entry_total(const struct cg *cg, const struct cg_entry *e)
{
	uint32_t ev = cg->sort_event;

	if (e->is_cycle)
		return cg_cycle_self(cg, e->id, ev) + cg_cycle_child(cg, e->id, ev);
	return cg_node_self(cg, e->id, ev) + cg_node_child(cg, e->id, ev);
}

static double entry_self(const struct cg *cg, const struct cg_entry *e)
{
	if (e->is_cycle)
		return cg_cycle_self(cg, e->id, cg->sort_event);
	return cg_node_self(cg, e->id, cg->sort_event);
}

static uint64_t entry_calls(const struct cg *cg, const struct cg_entry *e)
{
	if (e->is_cycle)
		return cg->cycles[e->id].calls;
	return cg->nodes[e->id].calls;
}

/*
 * An entry with its total, the first thing the order looks at, computed
 * once: 12 bytes (packed: 16 aligned), for a big program's 700,000
 * entries, taken at the run's peak. Entries of equal total (many, in a
 * program of similar functions) are then put in order among themselves
 * with what else the order looks at (struct tie_key), looked up once
 * per entry.
 */
struct __attribute__((packed, aligned(4))) rank_key {
	double total;
	uint32_t id;		/* node, or cycle with CG_CYCLE_BIT */
};
_Static_assert(sizeof(struct rank_key) == 12, "rank keys are packed");

static struct cg_entry entry_of(uint32_t id)
{
	return (struct cg_entry){ (id & CG_CYCLE_BIT) != 0, id & ~CG_CYCLE_BIT };
}

/* Does a come before b? Totals down, then ids up: ids are distinct, so
 * this is a total order and any sort gives the one result. */
static inline bool key_before(const struct rank_key *a,
			      const struct rank_key *b)
{
	if (a->total != b->total)
		return a->total > b->total;
	return a->id < b->id;
}

static void swap_keys(struct rank_key *a, struct rank_key *b)
{
	struct rank_key t = *a;

	*a = *b;
	*b = t;
}

static void sift_down(struct rank_key *k, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && key_before(&k[c], &k[c + 1]))
			c++;
		if (!key_before(&k[i], &k[c]))
			return;
		swap_keys(&k[i], &k[c]);
		i = c;
	}
}

/*
 * Keys in order, in place: qsort() is glibc's merge sort, which takes a
 * copy as large as the keys (11 MB for a big program's 700,000 entries,
 * at the run's peak). Quicksort on the median of three, insertion sort
 * for short runs, and heapsort where the splits go bad (introsort), so
 * no input makes it quadratic.
 */
static void sort_keys(struct rank_key *k, size_t n, unsigned depth)
{
	while (n > 16) {
		struct rank_key pivot;
		size_t i, j;

		if (!depth--) {
			for (size_t h = n / 2; h-- > 0;)
				sift_down(k, h, n);
			for (size_t e = n; e-- > 1;) {
				swap_keys(&k[0], &k[e]);
				sift_down(k, 0, e);
			}
			return;
		}
		/* the median of first, middle and last to k[0] */
		if (key_before(&k[n / 2], &k[0]))
			swap_keys(&k[n / 2], &k[0]);
		if (key_before(&k[n - 1], &k[n / 2]))
			swap_keys(&k[n - 1], &k[n / 2]);
		if (key_before(&k[n / 2], &k[0]))
			swap_keys(&k[n / 2], &k[0]);
		swap_keys(&k[0], &k[n / 2]);
		pivot = k[0];
		/* Hoare's partition: [1, i) before the pivot, (j, n) after */
		i = 1;
		j = n - 1;
		for (;;) {
			while (i <= j && key_before(&k[i], &pivot))
				i++;
			while (j >= i && key_before(&pivot, &k[j]))
				j--;
			if (i >= j)
				break;
			swap_keys(&k[i++], &k[j--]);
		}
		swap_keys(&k[0], &k[j]);
		/* the smaller side by recursion, the larger by the loop */
		if (j < n - j - 1) {
			sort_keys(k, j, depth);
			k += j + 1;
			n -= j + 1;
		} else {
			sort_keys(k + j + 1, n - j - 1, depth);
			n = j;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct rank_key t = k[i];
		size_t j = i;

		for (; j > 0 && key_before(&t, &k[j - 1]); j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
}

/* An entry of a run of equal totals, with the rest of the order's keys. */
struct tie_key {
	double self;
	uint64_t calls;
	const char *name;	/* a function's; NULL for a cycle */
	uint32_t id;		/* as rank_key's */
};

static int cmp_ties(const void *x, const void *y)
{
	const struct tie_key *a = x, *b = y;
	bool ca = a->id & CG_CYCLE_BIT, cb = b->id & CG_CYCLE_BIT;

	if (ca != cb)
		return ca ? -1 : 1;
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (!ca) {
		int r = strcmp(a->name, b->name);

		if (r)
			return r;
	}
	return (a->id & ~CG_CYCLE_BIT) < (b->id & ~CG_CYCLE_BIT) ? -1
		: (a->id & ~CG_CYCLE_BIT) > (b->id & ~CG_CYCLE_BIT);
}

/*
 * gprof's order of a gmon.out's ties (cg_arcs.c, cmp_total): a cycle
 * first, then a name without a leading '_' before one with, then calls,
 * then the names, which are its symbol table's (gmon_sort_name():
 * mangled, so C++ functions come after C ones, in mangled order); no
 * self cost. main and spin(long) of one total: main, whose symbol has
 * no '_', then spin ("_Z4spinl"), where cmp_ties() put spin's self
 * first.
 */
static int cmp_ties_gprof(const void *x, const void *y)
{
	const struct tie_key *a = x, *b = y;
	bool ca = a->id & CG_CYCLE_BIT, cb = b->id & CG_CYCLE_BIT;
	int r;

	if (ca != cb)
		return ca ? -1 : 1;
	if (ca)
		return cmp_ties(x, y);
	if ((a->name[0] == '_') != (b->name[0] == '_'))
		return a->name[0] == '_' ? 1 : -1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	r = strcmp(a->name, b->name);
	if (r)
		return r;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* keys[0..n), all of one total, in the order's other keys. */
static void order_ties(const struct cg *cg, struct rank_key *keys, size_t n,
		       struct tie_key **buf, size_t *alloc)
{
	if (n > *alloc) {
		*alloc = n * 2;
		*buf = xreallocarray(*buf, *alloc, sizeof(**buf));
	}
	for (size_t i = 0; i < n; i++) {
		struct cg_entry e = entry_of(keys[i].id);

		(*buf)[i] = (struct tie_key){
			.self = entry_self(cg, &e), .calls = entry_calls(cg, &e),
			.name = e.is_cycle ? NULL
				: gmon_sort_name(cg->p, e.id),
			.id = keys[i].id,
		};
	}
	qsort(*buf, n, sizeof(**buf),
	      cg->p->gmon ? cmp_ties_gprof : cmp_ties);
	for (size_t i = 0; i < n; i++)
		keys[i].id = (*buf)[i].id;
}

static struct rank_key key_of(const struct cg *cg, struct cg_entry e)
{
	struct rank_key k = {
		.total = entry_total(cg, &e),
		.id = e.id | (e.is_cycle ? CG_CYCLE_BIT : 0),
	};

	return k;
}

static bool node_listed(const struct cg *cg, uint32_t n)
{
	const struct cg_node *node = &cg->nodes[n];
	const uint64_t *self = profile_self(cg->p, n);

	if (node->calls || cg_node_self_calls(cg, n) || node->cycle != NO_ID ||
	    cg->out_start[n + 1] > cg->out_start[n])
		return true;
	if (cg->est_self && cg->est_self[n] != 0)
		return true;
	for (size_t e = 0; e < cg->nevents; e++)
		if (self[e])
			return true;
	return false;
}

void cg_rank(struct cg *cg)
{
	size_t n = 0;
	uint32_t number = 0;
	struct rank_key *keys;
	struct tie_key *ties = NULL;
	size_t ties_alloc = 0;
	unsigned depth = 0;

	if (cg->nnodes >= CG_CYCLE_BIT || cg->ncycles >= CG_CYCLE_BIT)
		BUG("%zu functions and %zu cycles to rank", cg->nnodes,
		    cg->ncycles);
	/* what needed the topological numbers is done (cg.h): their
	 * memory goes before the keys' is taken */
	free(cg->topo);
	cg->topo = NULL;
	free(cg->order);
	cg->order = NULL;
	keys = xcalloc(cg->nnodes + cg->ncycles + 1, sizeof(*keys));
	for (uint32_t c = 0; c < cg->ncycles; c++)
		keys[n++] = key_of(cg, (struct cg_entry){ true, c });
	for (uint32_t v = 0; v < cg->nnodes; v++) {
		cg->nodes[v].index = 0;
		if (node_listed(cg, v))
			keys[n++] = key_of(cg, (struct cg_entry){ false, v });
	}
	for (size_t m = n; m; m /= 2)
		depth += 2;
	sort_keys(keys, n, depth);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && keys[j].total == keys[i].total; j++)
			;
		if (j - i > 1)
			order_ties(cg, keys + i, j - i, &ties, &ties_alloc);
	}
	free(ties);
	/*
	 * The order, 4 bytes an entry, written over the keys of 12 (entry
	 * i over key i / 3, read already), then the rest given back: not
	 * both arrays at once. memcpy() because the bytes change type.
	 */
	for (size_t i = 0; i < n; i++) {
		struct rank_key k;

		memcpy(&k, (char *)keys + i * sizeof(k), sizeof(k));
		memcpy((char *)keys + i * sizeof(k.id), &k.id, sizeof(k.id));
	}
	_Static_assert(sizeof(*cg->order) <= sizeof(struct rank_key) / 2,
		       "an entry fits in half a key");
	cg->order = xreallocarray(keys, n + 1, sizeof(*cg->order));
	cg->norder = n;
	for (size_t i = 0; i < n; i++) {
		struct cg_entry e = cg_order_entry(cg, i);

		if (e.is_cycle) {
			cg->cycles[e.id].index = (uint32_t)i + 1;
			cg->cycles[e.id].number = ++number;
		} else {
			cg->nodes[e.id].index = (uint32_t)i + 1;
		}
	}
}
