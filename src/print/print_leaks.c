/*
 * The leak listing (--leaks): the resources an IgProf profile says were
 * still held when it was written (its LK records, under MEM_LIVE or
 * another live-resource counter), largest first, each with the call
 * stack that allocated it, innermost frame first.
 */
#include <stdlib.h>

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

void print_leaks(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t *order = leaks_by_size(p);
	struct name_labels *nl = name_labels_new(cg, o);
	char num[FMT_NUM_MAX];

	name_labels_set_listed(nl, o->graph_listed);
	if (!p->nleaks)
		fputs("No leak records in the profile (IgProf writes them for "
		      "live-resource counters such as MEM_LIVE).\n", out);
	for (size_t i = 0; i < p->nleaks;) {
		uint32_t ev = p->leaks[order[i]].event;
		size_t j = i, n;
		uint64_t bytes = 0;

		for (; j < p->nleaks && p->leaks[order[j]].event == ev; j++)
			bytes += p->leaks[order[j]].size;
		n = j - i;
		if (i)
			fputc('\n', out);
		fprintf(out, "Leaks of %s: %zu resource%s still held at exit, "
			"%s in all:\n\n",
			profile_str(p, p->events[ev].name), n, n == 1 ? "" : "s",
			fmt_count(num, bytes, o->digit_groups));
		fprintf(out, "%13s  %-18s  %s\n", "size", "address",
			"allocated in (innermost first)");
		for (; i < j; i++) {
			const struct pleak *lk = &p->leaks[order[i]];

			fprintf(out, "%13s  0x%-16llx  ",
				fmt_count(num, lk->size, o->digit_groups),
				(unsigned long long)lk->addr);
			print_stack(out, cg, nl, o->indexes, lk->stack);
			fputc('\n', out);
		}
	}
	name_labels_free(nl);
	free(order);
}
