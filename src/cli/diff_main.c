/*
 * The main program's object of each side of --diff, and the rule that
 * makes two of them one (diff_main.h).
 */
#include "diff_main.h"

#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The object whose base name is the word cmd[0, len)'s, or NO_NAME. */
static name_id object_named(const struct profile *p, const char *cmd,
			    size_t len)
{
	const char *prog = cmd;
	size_t plen;

	for (size_t k = 0; k < len; k++)
		if (cmd[k] == '/')
			prog = cmd + k + 1;
	plen = (size_t)(cmd + len - prog);
	if (!plen)
		return NO_NAME;
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		name_id ob = p->funcs[f].object;
		const char *b;

		if (ob == NO_NAME)
			continue;
		b = base_name(profile_str(p, ob));
		if (strlen(b) == plen && !memcmp(b, prog, plen))
			return ob;
	}
	return NO_NAME;
}

name_id diff_main_object(const struct profile *p, const uint64_t *incl)
{
	uint32_t best = NO_ID;

	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const char *name = profile_str(p, p->funcs[f].name);

		if (p->funcs[f].object == NO_NAME ||
		    (strcmp(name, "main") && strcmp(name, "main.main")))
			continue;
		if (best == NO_ID || (incl && incl[f] > incl[best]))
			best = f;
	}
	if (best != NO_ID)
		return p->funcs[best].object;
	/* no main (no symbols for it): the command's program; perf's line
	 * is "perf record [options] prog ...", so every word is tried */
	for (size_t i = 0; i < p->ninputs; i++) {
		const char *cmd = profile_str(p, p->inputs[i].cmd);

		if (p->inputs[i].cmd == NO_NAME)
			continue;
		while (*cmd) {
			size_t len = strcspn(cmd, " ");
			name_id ob = object_named(p, cmd, len);

			if (ob != NO_NAME)
				return ob;
			cmd += len;
			cmd += strspn(cmd, " ");
		}
	}
	return NO_NAME;
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
