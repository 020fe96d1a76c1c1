#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cg.h"
#include "diag.h"
#include "print.h"
#include "read.h"
#include "xalloc.h"

static int find_event(const struct profile *p, const char *name, size_t len,
		      uint32_t *out)
{
	for (size_t e = 0; e < p->nevents; e++) {
		const char *n = profile_str(p, p->events[e].name);

		if (strlen(n) == len && !memcmp(n, name, len)) {
			*out = (uint32_t)e;
			return 0;
		}
	}
	return error("the profile has no event '%.*s' (it has: %s%s)", (int)len,
		     name, profile_str(p, p->events[0].name),
		     p->nevents > 1 ? ", ..." : "");
}

/* Events for --show: the list given, or all of them. */
static uint32_t *parse_show(const struct profile *p, const char *show,
			    size_t *n)
{
	uint32_t *ev = xcalloc(p->nevents + 1, sizeof(*ev));

	*n = 0;
	if (!show) {
		for (size_t e = 0; e < p->nevents; e++)
			ev[(*n)++] = (uint32_t)e;
		return ev;
	}
	while (*show) {
		const char *comma = strchr(show, ',');
		size_t len = comma ? (size_t)(comma - show) : strlen(show);
		uint32_t e;

		if (len) {
			if (find_event(p, show, len, &e) < 0) {
				free(ev);
				return NULL;
			}
			if (*n < p->nevents)
				ev[(*n)++] = e;
		}
		show += len + (comma ? 1 : 0);
	}
	return ev;
}

int analyze_run(const struct options *o, FILE *out)
{
	struct read_opts ro = { .part = o->part,
				.fold_recursion = o->fold_recursion,
				.lenient = o->lenient };
	struct print_opts po = { 0 };
	struct profile p;
	struct cg cg;
	uint32_t *show = NULL;
	int ret = 1;

	profile_init(&p);
	memset(&cg, 0, sizeof(cg));
	for (int i = 0; i < o->ninputs; i++)
		if (read_profile(&p, o->inputs[i], &ro) < 0)
			goto out;
	if (o->part) {
		uint32_t found = 0;

		for (size_t i = 0; i < p.ninputs; i++)
			found += p.inputs[i].nselected;
		if (!found) {
			error("no part %llu in %s", (unsigned long long)o->part,
			      o->ninputs > 1 ? "any of the profiles" : o->inputs[0]);
			goto out;
		}
	}
	profile_finish(&p);
	if (!p.nevents) {
		error("no events in the profile");
		goto out;
	}
	/* an event the profile lacks is a usage error */
	if (o->sort_event &&
	    find_event(&p, o->sort_event, strlen(o->sort_event), &po.sort_event) < 0) {
		ret = 2;
		goto out;
	}
	show = parse_show(&p, o->show, &po.nshow);
	if (!show) {
		ret = 2;
		goto out;
	}
	po.show = show;
	po.threshold = o->threshold;
	po.brief = o->brief;
	po.indexes = o->graph;

	cg_build(&cg, &p, po.sort_event);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);

	if (o->mode == OUT_JSON) {
		print_json(out, &cg, &po);
	} else {
		if (o->flat)
			print_flat(out, &cg, &po);
		if (o->flat && o->graph)
			fputs("\n", out);
		if (o->graph)
			print_graph(out, &cg, &po);
	}
	ret = 0;
out:
	free(show);
	cg_release(&cg);
	profile_release(&p);
	return ret;
}
