/*
 * /proc/kallsyms (or a copy of it) as a sorted table of the kernel's
 * code symbols (see kallsyms.h).
 */
#include "kallsyms.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* One line: "ffffffff81000000 T _stext" or "... t name\t[module]". */
static int parse_line(char *line, uint64_t *addr, char *type, char **name)
{
	char *end;

	errno = 0;
	*addr = strtoull(line, &end, 16);
	if (errno || end == line || *end != ' ')
		return -1;
	*type = end[1];
	if (!*type || end[2] != ' ')
		return -1;
	*name = end + 3;
	(*name)[strcspn(*name, " \t\n")] = '\0';
	return **name ? 0 : -1;
}

int kallsyms_load(struct kallsyms *k, const char *path, struct names *names)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	bool any_addr = false;
	uint64_t lineno = 0;

	memset(k, 0, sizeof(*k));
	if (!f)
		return error_errno("cannot open '%s'", path);
	while (getline(&line, &cap, f) > 0) {
		uint64_t addr;
		char type, *name;

		lineno++;
		if (parse_line(line, &addr, &type, &name) < 0) {
			free(line);
			fclose(f);
			kallsyms_release(k);
			return error_at(path, lineno, "not a kallsyms line "
					"(address, type, name)");
		}
		if (addr)
			any_addr = true;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		ARRAY_GROW(k->syms, k->n + 1, alloc);
		k->syms[k->n].addr = addr;
		k->syms[k->n].name = names_intern(names, name, strlen(name));
		k->n++;
	}
	free(line);
	fclose(f);
	if (!any_addr) {
		kallsyms_release(k);
		return 1;
	}
	qsort(k->syms, k->n, sizeof(*k->syms), by_addr);
	return 0;
}

void kallsyms_rename(struct kallsyms *k, const name_id *ids)
{
	for (size_t i = 0; i < k->n; i++)
		k->syms[i].name = ids[k->syms[i].name];
	/* symbols at one address are in the order of their ids */
	if (k->n)
		qsort(k->syms, k->n, sizeof(*k->syms), by_addr);
}

void kallsyms_release(struct kallsyms *k)
{
	free(k->syms);
	memset(k, 0, sizeof(*k));
}

const struct ksym *kallsyms_lookup(const struct kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &k->syms[lo - 1] : NULL;
}
