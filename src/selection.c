#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "selection.h"
#include "xalloc.h"

static const char *const option_of[] = {
	[SPEC_FLAT_ONLY] = "-p",
	[SPEC_FLAT_NOT] = "-P",
	[SPEC_GRAPH_ONLY] = "-q",
	[SPEC_GRAPH_NOT] = "-Q",
	[SPEC_ARC] = "-k",
};

/* The array for this use, allocated (all false) the first time. */
static bool *flags(bool **arr, size_t n)
{
	if (!*arr)
		*arr = xcalloc(n + 1, sizeof(**arr));
	return *arr;
}

/* -k FROM/TO: mark the calls from a function FROM names to one TO
 * names; returns how many. */
static size_t delete_calls(bool *deleted, const struct profile *p,
			   const struct symspec_opt *so,
			   const struct symspec_names *sn)
{
	bool *from = xcalloc(p->nfuncs + 1, sizeof(*from));
	bool *to = xcalloc(p->nfuncs + 1, sizeof(*to));
	size_t n = 0;

	symspec_select(&so->spec, sn, from);
	symspec_select(&so->to, sn, to);
	for (size_t c = 0; c < p->ncalls; c++)
		if (from[p->calls[c].caller] && to[p->calls[c].callee]) {
			n += !deleted[c];
			deleted[c] = true;
		}
	free(from);
	free(to);
	return n;
}

void selection_init(struct selection *sel, struct profile *p,
		    const struct symspec_opt *specs, size_t nspecs)
{
	struct symspec_names sn;
	size_t nf = p->nfuncs;
	bool *flat_only = NULL, *flat_not = NULL;

	memset(sel, 0, sizeof(*sel));
	if (!nspecs)
		return;
	symspec_names_init(&sn, p);
	for (size_t i = 0; i < nspecs; i++) {
		const struct symspec_opt *so = &specs[i];
		bool *to = NULL;
		size_t n;

		switch (so->use) {
		case SPEC_ARC:
			n = delete_calls(flags(&sel->deleted, p->ncalls), p, so,
					 &sn);
			if (!n)
				warning("-k '%s/%s': no call from a function "
					"'%s' names to one '%s' names",
					so->spec.text, so->to.text,
					so->spec.text, so->to.text);
			continue;
		case SPEC_FLAT_ONLY:
			to = flags(&flat_only, nf);
			break;
		case SPEC_FLAT_NOT:
			to = flags(&flat_not, nf);
			break;
		case SPEC_GRAPH_ONLY:
			to = flags(&sel->graph_only, nf);
			break;
		case SPEC_GRAPH_NOT:
			to = flags(&sel->graph_not, nf);
			break;
		}
		if (!symspec_select(&so->spec, &sn, to))
			warning("%s '%s' matches no function of the profile",
				option_of[so->use], so->spec.text);
	}
	/* as gprof: what -p names is listed even when -P names it too */
	if (flat_only || flat_not) {
		sel->flat = xcalloc(nf + 1, sizeof(*sel->flat));
		sel->flat_named = flat_only != NULL;
		for (size_t f = 0; f < nf; f++)
			sel->flat[f] = (flat_only && flat_only[f]) ||
				       (!flat_only && !flat_not[f]);
	}
	free(flat_only);
	free(flat_not);
	symspec_names_release(&sn);
}

void selection_graph(struct selection *sel, const struct cg *cg)
{
	if (!sel->graph_only && !sel->graph_not)
		return;
	sel->graph = xcalloc(cg->nnodes + 1, sizeof(*sel->graph));
	sel->cycles = xcalloc(cg->ncycles + 1, sizeof(*sel->cycles));
	cg_listed(cg, sel->graph_only, sel->graph_not, sel->graph, sel->cycles);
}

void selection_release(struct selection *sel)
{
	free(sel->deleted);
	free(sel->flat);
	free(sel->graph_only);
	free(sel->graph_not);
	free(sel->graph);
	free(sel->cycles);
	memset(sel, 0, sizeof(*sel));
}
