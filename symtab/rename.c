/*
 * A symbol table loaded with a names table of its own (symtab_open() on
 * a helper thread, resolve/perf_preload.c) given the ids of another:
 * every name_id it holds, in the public arrays and the private indexes.
 */
#include "base/hashmap.h"
#include "symtab_int.h"

static name_id re(const name_id *ids, name_id id)
{
	return id == NO_NAME ? NO_NAME : ids[id];
}

/* by_name's keys are ids: the table made again with the new ones */
static void rename_index(struct u64map *m, const name_id *ids)
{
	struct u64map old = *m;

	u64map_init(m);
	if (old.slots)
		for (size_t i = 0; i <= old.mask; i++)
			if (old.slots[i].value != U64MAP_NONE)
				u64map_put(m, re(ids, (name_id)old.slots[i].key),
					   old.slots[i].value);
	u64map_release(&old);
}

void symtab_rename(struct symtab *st, struct names *names, const name_id *ids)
{
	struct symtab_priv *pv = st->priv;

	st->names = names;
	for (size_t i = 0; i < st->nsyms; i++) {
		st->syms[i].name = re(ids, st->syms[i].name);
		st->syms[i].raw = re(ids, st->syms[i].raw);
	}
	for (size_t i = 0; i < st->nlines; i++)
		st->lines[i].file = re(ids, st->lines[i].file);
	if (!pv)
		return;
	rename_index(&pv->by_name, ids);
	for (size_t i = 0; i < pv->nnamed; i++)
		pv->named[i].name = re(ids, pv->named[i].name);
	for (size_t i = 0; i < pv->nfsyms; i++) {
		pv->fsyms[i].name = re(ids, pv->fsyms[i].name);
		pv->fsyms[i].file = re(ids, pv->fsyms[i].file);
	}
	for (size_t i = 0; i < pv->nsecs; i++)
		pv->secs[i].name = re(ids, pv->secs[i].name);
	for (size_t i = 0; i < pv->nfuncs; i++) {
		pv->funcs[i].name = re(ids, pv->funcs[i].name);
		pv->funcs[i].dwarf_name = re(ids, pv->funcs[i].dwarf_name);
		pv->funcs[i].call_file = re(ids, pv->funcs[i].call_file);
	}
	for (size_t i = 0; i < pv->nxsyms; i++)
		pv->xsyms[i].raw = re(ids, pv->xsyms[i].raw);
	for (size_t i = 0; i < pv->nvars; i++) {
		pv->vars[i].name = re(ids, pv->vars[i].name);
		pv->vars[i].file = re(ids, pv->vars[i].file);
	}
}
