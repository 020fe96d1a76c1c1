/*
 * The leak listing (--leaks): the resources an IgProf profile says were
 * still held when it was written (its LK records, under MEM_LIVE or
 * another live-resource counter), grouped by the call stack that
 * allocated them (innermost frame first) with their count and summed
 * size, largest first.
 */
#include <stdlib.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "fmt.h"
#include "print.h"

/* Frames of a stack shown in the text listing; JSON has them all. */
#define STACK_SHOWN 12

static int cmp_leaks(const void *x, const void *y, void *arg)
{
	const struct profile *p = arg;
	const struct pleak *a = &p->leaks[*(const uint32_t *)x];
	const struct pleak *b = &p->leaks[*(const uint32_t *)y];

	if (a->event != b->event)
		return a->event < b->event ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

uint32_t *leaks_by_size(const struct profile *p)
{
	uint32_t *order = xcalloc(p->nleaks + 1, sizeof(*order));

	for (size_t i = 0; i < p->nleaks; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, p->nleaks, sizeof(*order), cmp_leaks, (void *)p);
	return order;
}

static void print_stack(FILE *out, const struct cg *cg,
			const struct name_labels *nl, bool index, uint32_t s)
{
	const struct profile *p = cg->p;
	char label[8192];
	size_t n = 0;

	for (; s != NO_ID && n < STACK_SHOWN; s = p->stacks[s].caller, n++)
		fprintf(out, "%s%s", n ? " <- " : "",
			func_label(nl, cg, p->stacks[s].func, index, label,
				   sizeof(label)));
	if (s != NO_ID) {
		size_t more = 0;

		for (; s != NO_ID; s = p->stacks[s].caller)
			more++;
		fprintf(out, " <- ... (%zu more)", more);
	}
}

/*
 * One id per distinct sequence of functions, for each stack a leak has:
 * the tree may hold one path twice (threads, parts, functions merged
 * after reading), and those are one stack to a reader. Walked from the
 * outermost frame in, without recursion: stacks may be 100,000 deep.
 */
struct stack_ids {
	struct u64map by_frame;	/* func << 32 | id of caller + 1 -> id */
	uint32_t *id;		/* per stack node, NO_ID: not yet */
	uint32_t *path;
	size_t path_alloc;
	uint32_t next;
};

static uint32_t stack_id(struct stack_ids *si, const struct profile *p,
			 uint32_t s)
{
	size_t n = 0;
	uint32_t t = s, id;

	/* the frames not yet given an id, innermost first, up to one
	 * that has one (or past the outermost) */
	for (; t != NO_ID && si->id[t] == NO_ID; t = p->stacks[t].caller) {
		ARRAY_GROW(si->path, n + 1, si->path_alloc);
		si->path[n++] = t;
	}
	id = t == NO_ID ? NO_ID : si->id[t];
	while (n--) {
		/* NO_ID + 1 is 0: the outermost frame has no caller */
		uint64_t key = (uint64_t)p->stacks[si->path[n]].func << 32 |
			       (uint32_t)(id + 1);
		bool added;

		id = u64map_get_or_put(&si->by_frame, key, si->next, &added);
		if (added)
			si->next++;
		si->id[si->path[n]] = id;
	}
	return si->id[s];
}

/* The leaks of one event that share a stack */
struct leak_group {
	uint32_t first;		/* the largest, into leaks_by_size()'s order */
	uint32_t count;
	uint64_t size;
};

static int cmp_groups(const void *x, const void *y)
{
	const struct leak_group *a = x, *b = y;

	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->first < b->first ? -1 : 1;
}

/* The leaks order[i..j) (of one event) grouped by stack into g[],
 * largest first; returns how many groups. */
static size_t group_leaks(const struct profile *p, const uint32_t *order,
			  size_t i, size_t j, struct stack_ids *si,
			  struct leak_group *g)
{
	struct u64map at;	/* stack id -> g[] */
	size_t n = 0;

	u64map_init(&at);
	for (size_t k = i; k < j; k++) {
		const struct pleak *lk = &p->leaks[order[k]];
		bool added;
		uint32_t x = u64map_get_or_put(&at, stack_id(si, p, lk->stack),
					       (uint32_t)n, &added);

		if (added)
			g[n++] = (struct leak_group){ .first = (uint32_t)k };
		g[x].count++;
		g[x].size += lk->size;
	}
	u64map_release(&at);
	qsort(g, n, sizeof(*g), cmp_groups);
	return n;
}

void print_leaks(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t *order = leaks_by_size(p);
	struct name_labels *nl = name_labels_new(cg, o);
	struct leak_group *g = xcalloc(p->nleaks + 1, sizeof(*g));
	struct stack_ids si = { .id = xcalloc(p->nstacks + 1, sizeof(uint32_t)) };
	char num[FMT_NUM_MAX];

	u64map_init(&si.by_frame);
	for (size_t s = 0; s < p->nstacks; s++)
		si.id[s] = NO_ID;
	name_labels_set_listed(nl, o->graph_listed);
	if (!p->nleaks)
		fputs("No leak records in the profile (IgProf writes them for "
		      "live-resource counters such as MEM_LIVE).\n", out);
	for (size_t i = 0; i < p->nleaks;) {
		uint32_t ev = p->leaks[order[i]].event;
		size_t j = i, n, ng;
		uint64_t bytes = 0;

		for (; j < p->nleaks && p->leaks[order[j]].event == ev; j++)
			bytes += p->leaks[order[j]].size;
		n = j - i;
		ng = group_leaks(p, order, i, j, &si, g);
		if (i)
			fputc('\n', out);
		fprintf(out, "Leaks of %s: %zu resource%s still held at exit, "
			"%s in all, from %zu stack%s:\n\n",
			profile_str(p, p->events[ev].name), n, n == 1 ? "" : "s",
			fmt_count(num, bytes, o->digit_groups), ng,
			ng == 1 ? "" : "s");
		fprintf(out, "%13s  %9s  %-18s  %s\n", "size", "resources",
			"address", "allocated in (innermost first)");
		for (size_t k = 0; k < ng; k++) {
			const struct pleak *lk = &p->leaks[order[g[k].first]];
			char where[32];

			/* one resource: its address; several: how many
			 * (--json lists each) */
			if (g[k].count == 1)
				snprintf(where, sizeof(where), "0x%llx",
					 (unsigned long long)lk->addr);
			else
				snprintf(where, sizeof(where), "(%u addresses)",
					 g[k].count);
			fprintf(out, "%13s  ", fmt_count(num, g[k].size,
							  o->digit_groups));
			fprintf(out, "%9s  %-18s  ",
				fmt_count(num, g[k].count, o->digit_groups), where);
			print_stack(out, cg, nl, o->indexes, lk->stack);
			fputc('\n', out);
		}
		i = j;
	}
	u64map_release(&si.by_frame);
	free(si.id);
	free(si.path);
	free(g);
	name_labels_free(nl);
	free(order);
}
