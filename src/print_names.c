#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "print.h"
#include "path.h"
#include "xalloc.h"

struct name_labels {
	struct u64map count;	/* name_id -> functions with that name */
	const bool *listed;	/* graph entries, or NULL: all */
};

struct name_labels *name_labels_new(const struct cg *cg)
{
	struct name_labels *nl = xcalloc(1, sizeof(*nl));

	u64map_init(&nl->count);
	for (size_t f = 0; f < cg->p->nfuncs; f++) {
		name_id name = cg->p->funcs[f].name;
		uint32_t c = u64map_get(&nl->count, name);

		u64map_put(&nl->count, name, c == U64MAP_NONE ? 1 : c + 1);
	}
	return nl;
}

void name_labels_set_listed(struct name_labels *nl, const bool *listed)
{
	nl->listed = listed;
}

void name_labels_free(struct name_labels *nl)
{
	if (!nl)
		return;
	u64map_release(&nl->count);
	free(nl);
}

const char *func_label(const struct name_labels *nl, const struct cg *cg,
		       uint32_t func, bool index, char *buf, size_t size)
{
	const struct profile *p = cg->p;
	const struct pfunc *f = &p->funcs[func];
	const struct cg_node *node = &cg->nodes[func];
	size_t n;

	n = (size_t)snprintf(buf, size, "%s", profile_str(p, f->name));
	if (n < size && u64map_get(&nl->count, f->name) > 1) {
		if (f->object != NO_NAME)
			n += (size_t)snprintf(buf + n, size - n, " (%s: %s)",
					      path_base(profile_str(p, f->object)),
					      profile_str(p, f->file));
		else
			n += (size_t)snprintf(buf + n, size - n, " (%s)",
					      profile_str(p, f->file));
	}
	if (n < size && node->cycle != NO_ID)
		n += (size_t)snprintf(buf + n, size - n, " <cycle %u>",
				      cg->cycles[node->cycle].number);
	if (n < size && index && node->index)
		snprintf(buf + n, size - n,
			 nl->listed && !nl->listed[func] ? " (%u)" : " [%u]",
			 node->index);
	return buf;
}

void fprint_event_title(FILE *out, const struct profile *p, uint32_t event)
{
	const struct pevent *e = &p->events[event];

	fputs(profile_str(p, e->name), out);
	if (e->long_name != NO_NAME)
		fprintf(out, " (%s)", profile_str(p, e->long_name));
}

double entry_total(const struct cg *cg, const struct cg_entry *e, uint32_t ev)
{
	return e->is_cycle
		? cg_cycle_self(cg, e->id, ev) + cg_cycle_child(cg, e->id, ev)
		: cg_node_self(cg, e->id, ev) + cg_node_child(cg, e->id, ev);
}

bool entry_shown(const struct cg *cg, const struct print_opts *o,
		 const struct cg_entry *e, uint32_t ev, double total)
{
	if (o->threshold > 0 && total > 0 &&
	    entry_total(cg, e, ev) * 100 / total < o->threshold)
		return false;
	if (e->is_cycle)
		return !o->cycle_listed || o->cycle_listed[e->id];
	return !o->graph_listed || o->graph_listed[e->id];
}

const char *event_column_name(const struct profile *p, uint32_t event)
{
	if (p->est_self && p->events[event].unit_seconds > 0)
		return "ticks";
	return profile_str(p, p->events[event].name);
}
