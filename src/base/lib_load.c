/*
 * dlopen() and dlsym() for the libraries loaded on first use
 * (lib_load.h).
 */
#include "lib_load.h"

#include <dlfcn.h>
#include <stddef.h>

bool lib_load_open(struct lib_load *l, const char **why)
{
	*why = NULL;
	if (l->tried)
		return !l->failed;
	l->tried = true;
	/* looked up in alone: libdw's dwarf_* are not libdwarf's */
	l->handle = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!l->handle) {
		*why = dlerror();
		l->failed = true;
	}
	return !l->failed;
}

void *lib_load_entry(struct lib_load *l, const char *name)
{
	void *f = l->handle ? dlsym(l->handle, name) : NULL;

	if (!f) {
		if (!l->missing)
			l->missing = name;
		l->failed = true;
	}
	return f;
}
