/*
 * The main program's object of each side of --diff, and the rule that
 * makes two of them one (diff_main.h).
 */
#include "diff_main.h"

#include <stdlib.h>
#include <string.h>

#include "profile/program.h"

name_id diff_main_object(const struct profile *p, const uint64_t *incl)
{
	uint32_t best = NO_ID;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		if (p->funcs[f].object == NO_NAME || !profile_is_main(p, f))
			continue;
		if (best == NO_ID || (incl && incl[f] > incl[best]))
			best = f;
	}
	/* no main (no symbols for it): the command's program */
	return best != NO_ID ? p->funcs[best].object
			     : profile_command_object(p);
}

static bool known_file(const char *file)
{
	return *file && strcmp(file, "???");
}

/* Names every program has, or has by chance: main, the C runtime's
 * around it, and places named by address (valgrind's PLT stubs, perf's
 * [unknown], IgProf's @?0x...). Without source files, two programs
 * sharing only these are not one program's builds. */
static const char *const everyones[] = {
	"main", "main.main", "_start", "_init", "_fini", "frame_dummy",
	"register_tm_clones", "deregister_tm_clones",
	"__do_global_dtors_aux", "__libc_csu_init", "__libc_csu_fini",
	"(below main)", "[unknown]",
};

static bool everyones_name(const char *name)
{
	if (!strncmp(name, "0x", 2) || !strncmp(name, "@?", 2))
		return true;
	for (size_t i = 0; i < sizeof(everyones) / sizeof(*everyones); i++)
		if (!strcmp(name, everyones[i]))
			return true;
	return false;
}

static int cmp_fn(const void *x, const void *y)
{
	const struct main_fn *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->file, b->file);
}

static bool any_file(const struct main_fn *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (known_file(v[i].file))
			return true;
	return false;
}

bool diff_mains_match(struct main_fn *a, size_t na, struct main_fn *b,
		      size_t nb, struct mains_match *m)
{
	size_t i = 0, j = 0;

	m->by_file = any_file(a, na) || any_file(b, nb);
	m->shared = 0;
	qsort(a, na, sizeof(*a), cmp_fn);
	qsort(b, nb, sizeof(*b), cmp_fn);
	while (i < na && j < nb) {
		int c = cmp_fn(&a[i], &b[j]);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			const struct main_fn *same = &a[i];

			if (m->by_file ? known_file(same->file)
				       : !everyones_name(same->name))
				m->shared++;
			/* functions made one under this key count once */
			while (i < na && !cmp_fn(&a[i], same))
				i++;
			while (j < nb && !cmp_fn(&b[j], same))
				j++;
		}
	}
	return m->shared > 0;
}
