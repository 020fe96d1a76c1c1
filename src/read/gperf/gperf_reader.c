/*
 * What the gperftools readers share (see gperf_reader.h).
 */
#include "gperf_reader.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"

void gperf_set_events(struct gperf_reader *r, const char *const *names,
		      const char *const *units, size_t n)
{
	struct perf_data *d = r->d;

	if (d->nevents)
		return;		/* same format, so the same events */
	perf_data_set_events(d, n);
	for (size_t e = 0; e < n; e++) {
		d->events[e].name = names_intern(&r->p->names, names[e],
						 strlen(names[e]));
		d->events[e].unit = names_intern(&r->p->names, units[e],
						 strlen(units[e]));
	}
}

void gperf_reserve_pcs(struct gperf_reader *r, size_t n)
{
	ARRAY_GROW(r->pcs, n, r->pcs_alloc);
}

uint32_t gperf_stack_node(struct gperf_reader *r, size_t n, bool leaf_exact)
{
	uint32_t node = NO_ID;
	bool unmapped = false;

	if (n == 0)
		BUG("gperftools stack of no address");
	/* outermost first: each node hangs under its caller's */
	for (size_t i = n; i-- > 0;) {
		uint32_t f = gperf_maps_frame(&r->maps, r->d, r->unknown,
					      r->pcs[i]);

		if (r->d->frames[f].object == r->unknown && !unmapped) {
			unmapped = true;
			if (!r->unmapped++)
				r->first_unmapped = r->pcs[i];
		}
		node = perf_data_node(r->d, f, node, i == 0 && leaf_exact);
	}
	return node;
}

void gperf_warn_unmapped(const struct gperf_reader *r)
{
	if (r->unmapped && r->maps.n)
		warning("%s: %llu %s addresses in none of the file's %zu "
			"executable mapping%s (the first 0x%llx): those "
			"frames are [unknown] (is the file cut short inside "
			"its mappings?)", r->path,
			(unsigned long long)r->unmapped,
			r->unmapped == 1 ? "record has" : "records have",
			r->maps.n, r->maps.n == 1 ? "" : "s",
			(unsigned long long)r->first_unmapped);
}

void gperf_add_input(struct gperf_reader *r, const char *format)
{
	struct pinput *in = profile_add_input(r->p, r->path, format);

	in->nparts = in->nselected = 1;
	in->creator = names_intern(&r->p->names, "gperftools", 10);
}
