/*
 * A binary kept from before the disassembly's first read for the
 * resolution after it (kept_binary.h).
 */
#include "kept_binary.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "header_program.h"

void kept_binary_free(struct kept_binary *k)
{
	if (!k)
		return;
	if (k->st) {
		symtab_release(k->st);
		free(k->st);
	}
	names_release(&k->names);
	arena_release(&k->arena);
	free(k->ids);
	free(k->said);
	free(k->opened_as);
	free(k);
}

/* path opened into names of its own, its messages held; NULL when it
 * cannot be opened. */
static struct kept_binary *kept_open(const struct options *o,
				     const char *path)
{
	struct kept_binary *k = xcalloc(1, sizeof(*k));
	FILE *held = open_memstream(&k->said, &k->said_len);
	FILE *sink = diag_sink();

	if (!held) {
		free(k);
		return NULL;
	}
	arena_init(&k->arena);
	names_init(&k->names, &k->arena);
	diag_set_sink(held);
	if (open_binary(o, &k->names, path, &k->st) < 0)
		k->st = NULL;
	diag_set_sink(sink == stderr ? NULL : sink);
	fclose(held);
	k->opened_as = xstrdup(path);
	if (!k->st) {
		kept_binary_free(k);
		return NULL;
	}
	return k;
}

/*
 * k's own names interned into names, in the order of their ids, and its
 * table renamed to them: as if it had been opened into names now
 * (symtab_rename()), wherever it was renamed to before.
 */
struct symtab *kept_binary_rename(struct kept_binary *k, struct names *names)
{
	size_t n = k->names.nr;
	bool *skip = xcalloc(n + 1, sizeof(*skip));
	name_id *ids = xmalloc((n + 1) * sizeof(*ids)), *map = ids;
	name_id top = 0;

	names_intern_from(names, &k->names, skip, ids);
	if (k->ids) {
		/* from the ids it has now to the new ones */
		for (size_t i = 0; i < n; i++)
			if (k->ids[i] != NO_NAME && k->ids[i] >= top)
				top = k->ids[i] + 1;
		map = xmalloc(((size_t)top + 1) * sizeof(*map));
		for (size_t i = 0; i <= top; i++)
			map[i] = NO_NAME;
		for (size_t i = 0; i < n; i++)
			if (k->ids[i] != NO_NAME)
				map[k->ids[i]] = ids[i];
	}
	symtab_rename(k->st, names, map);
	if (map != ids)
		free(map);
	free(skip);
	free(k->ids);
	k->ids = ids;
	return k->st;
}

/* Whether open_binary() of path would open what k holds: the same
 * name, or the same file under the same base name with its DWARF in
 * it (no debug file looked for beside it). */
bool kept_binary_is(const struct kept_binary *k, const char *path)
{
	const char *kp = k->st->path;
	char a[PATH_MAX], b[PATH_MAX];

	if (!strcmp(kp, path))
		return true;
	return (!k->st->debug_path || !strcmp(k->st->debug_path, kp)) &&
	       !strcmp(path_base(kp), path_base(path)) &&
	       realpath(kp, a) && realpath(path, b) && !strcmp(a, b);
}

struct symtab *kept_binary_use(struct kept_binary *k, const char *path,
			       struct names *names)
{
	struct symtab *st;

	if (!k || !k->st || !kept_binary_is(k, path))
		return NULL;
	st = kept_binary_rename(k, names);
	if (st->debug_path && !strcmp(st->debug_path, st->path)) {
		free(st->debug_path);
		st->debug_path = xstrdup(path);
	}
	free(st->path);
	st->path = xstrdup(path);
	return st;
}

/* k's table renamed into names; k kept in *slot, or where it is a
 * separate debug file, freed without the table. */
static struct symtab *keep_in(struct kept_binary **slot,
			      struct kept_binary *k, struct names *names)
{
	struct symtab *st = kept_binary_rename(k, names);

	if (st->debug_only) {
		k->st = NULL;
		kept_binary_free(k);
		return st;
	}
	kept_binary_free(*slot);
	*slot = k;
	return st;
}

struct symtab *kept_binary_open(struct kept_binary **slot,
				const struct options *o, const char *path,
				struct names *names)
{
	struct kept_binary *k = kept_open(o, path);

	return k ? keep_in(slot, k, names) : NULL;
}

struct symtab *kept_binary_of_header(struct kept_binary **slot,
				     struct names *names,
				     const struct options *o)
{
	struct kept_binary *k;
	char *prog;

	if (!(prog = header_program(o)))
		return NULL;
	/* kept from a read before (the one read of --disasm=WHAT, whose
	 * guess failed): the same table, not opened again */
	if (*slot && (*slot)->st && !strcmp((*slot)->opened_as, prog)) {
		k = *slot;
		*slot = NULL;
	} else {
		k = kept_open(o, prog);
	}
	free(prog);
	if (!k)
		return NULL;
	if (k->st->debug_only || o->mode != OUT_HTML || !k->st->nlines)
		return keep_in(slot, k, names);
	kept_binary_free(*slot);
	*slot = k;
	return NULL;
}

struct symtab *kept_binary_take(struct kept_binary **slot, const char *path,
				struct names *names)
{
	struct kept_binary *k = *slot;
	struct symtab *st;

	/* what its opening said, said as open_binary() of path says it:
	 * the messages name the path they were opened by */
	if (k && k->st && k->said_len && strcmp(k->opened_as, path))
		return NULL;
	if (!(st = kept_binary_use(k, path, names)))
		return NULL;
	if (k->said_len)
		fwrite(k->said, 1, k->said_len, diag_sink());
	k->st = NULL;
	kept_binary_free(k);
	*slot = NULL;
	return st;
}
