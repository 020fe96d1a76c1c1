/*
 * Demangling through libbfd's bfd_demangle(), the function addr2line -C,
 * nm -C and objdump -C use: C++ (with parameters and qualifiers), Rust
 * (legacy and v0), and suffixes kept readable: "f(int) [clone
 * .constprop.0]", "g()@plt".
 */
#include <stdlib.h>
#include <string.h>

#include "binutils_load.h"
#include "symtab_int.h"

/* from libiberty's demangle.h, which bfd.h does not pull in */
#ifndef DMGL_PARAMS
#define DMGL_PARAMS (1 << 0)
#define DMGL_ANSI (1 << 1)
#endif

/* NULL when name is not mangled, or libbfd cannot be loaded (said) */
char *symtab_demangle(const char *name)
{
	const struct bfd_api *b = libbfd_load();

	return b ? b->demangle(NULL, name, DMGL_PARAMS | DMGL_ANSI) : NULL;
}

char *symtab_demangle_mangled(const char *name)
{
	/* what bfd_demangle takes: Itanium C++ and Rust v0; other names
	 * do not load libbfd */
	if (!name || (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2)))
		return NULL;
	return symtab_demangle(name);
}

name_id demangle_name(struct names *names, name_id raw)
{
	char *out = symtab_demangle(names_str(names, raw));
	name_id id;

	if (!out)
		return raw;
	id = names_intern(names, out, strlen(out));
	free(out);
	return id;
}

name_id demangle_cached(struct u64map *cache, struct names *names,
			name_id raw)
{
	uint32_t id = u64map_get(cache, raw);

	if (id == U64MAP_NONE) {
		id = demangle_name(names, raw);
		u64map_put(cache, raw, id);
	}
	return id;
}
