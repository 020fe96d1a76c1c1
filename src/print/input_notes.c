/*
 * Notes above the text listings on how the inputs were read, where that
 * changes what the listings show: IgProf frames folded into their
 * callers.
 */
#include "print.h"

void print_input_notes(FILE *out, const struct profile *p)
{
	uint64_t alloc = 0, own = 0;

	for (size_t i = 0; i < p->ninputs; i++) {
		alloc += p->inputs[i].folded_alloc;
		own += p->inputs[i].folded_own;
	}
	if (!alloc && !own)
		return;
	fputs("IgProf: ", out);
	if (alloc)
		fprintf(out, "%llu allocator frame%s (malloc, operator new, "
			"...)%s", (unsigned long long)alloc,
			alloc == 1 ? "" : "s", own ? " and " : "");
	if (own)
		fprintf(out, "%llu frame%s of IgProf's own",
			(unsigned long long)own, own == 1 ? "" : "s");
	fputs(" folded into their callers, as igprof-analyse folds them "
	      "(--no-filter keeps them).\n\n", out);
}
