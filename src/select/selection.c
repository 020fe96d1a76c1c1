/*
 * What gprof's symspecs select in one profile (see selection.h): the
 * calls -k deletes, the flat profile's functions and the call graph's
 * entries.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "selection.h"

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

/* Split k of -k's text: 0 is so->spec/so->to, then so->alt's pairs. */
static const struct symspec *split_from(const struct symspec_opt *so, size_t k)
{
	return k ? &so->alt[2 * (k - 1)] : &so->spec;
}

static const struct symspec *split_to(const struct symspec_opt *so, size_t k)
{
	return k ? &so->alt[2 * (k - 1) + 1] : &so->to;
}

/* The calls from a function `from` names to one `to` names: marked in
 * hit[] (cleared first); returns how many. */
static size_t calls_between(const struct profile *p, const struct symspec *from,
			    const struct symspec *to,
			    const struct symspec_names *sn, bool *f_sel,
			    bool *t_sel, bool *hit)
{
	size_t n = 0;

	memset(f_sel, 0, (p->nfuncs + 1) * sizeof(*f_sel));
	memset(t_sel, 0, (p->nfuncs + 1) * sizeof(*t_sel));
	memset(hit, 0, (p->ncalls + 1) * sizeof(*hit));
	if (!symspec_select(from, sn, f_sel) || !symspec_select(to, sn, t_sel))
		return 0;
	for (size_t c = 0; c < p->ncalls; c++)
		if (f_sel[p->calls[c].caller] && t_sel[p->calls[c].callee]) {
			hit[c] = true;
			n++;
		}
	return n;
}

/*
 * -k FROM/TO: mark the calls from a function FROM names to one TO names;
 * returns how many. A text with several '/' ("src/a.c:f/g") splits in
 * several ways that parse; the first split (in the order of its '/')
 * that has calls to delete in this profile is taken, and a warning says
 * so when another one has some too.
 */
static size_t delete_calls(bool *deleted, const struct profile *p,
			   const struct symspec_opt *so,
			   const struct symspec_names *sn)
{
	bool *from = xcalloc(p->nfuncs + 1, sizeof(*from));
	bool *to = xcalloc(p->nfuncs + 1, sizeof(*to));
	bool *hit = xcalloc(p->ncalls + 1, sizeof(*hit));
	bool *chosen = xcalloc(p->ncalls + 1, sizeof(*chosen));
	size_t n = 0, k_chosen = 0, k_also = 0;

	for (size_t k = 0; k <= so->nalt; k++) {
		size_t nk = calls_between(p, split_from(so, k), split_to(so, k),
					  sn, from, to, hit);

		if (!nk)
			continue;
		if (n) {
			k_also = k;
			break;
		}
		n = nk;
		k_chosen = k;
		memcpy(chosen, hit, (p->ncalls + 1) * sizeof(*hit));
	}
	if (k_also)
		warning("-k '%s/%s': read as FROM '%s' and TO '%s'; it could "
			"also be FROM '%s' and TO '%s' (a whole path or a glob "
			"tells them apart)", so->spec.text, so->to.text,
			split_from(so, k_chosen)->text,
			split_to(so, k_chosen)->text,
			split_from(so, k_also)->text, split_to(so, k_also)->text);
	n = 0;
	for (size_t c = 0; c < p->ncalls; c++)
		if (chosen[c]) {
			n += !deleted[c];
			deleted[c] = true;
		}
	free(from);
	free(to);
	free(hit);
	free(chosen);
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
