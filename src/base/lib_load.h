/*
 * A shared library opened with dlopen() when first needed, and its
 * functions looked up by name (symtab/binutils_load.c,
 * read/perf/libdw_load.c): libraries only some runs use cost every run
 * their relocations when linked. Each caller says why a library is
 * wanted, and what to do without it.
 */
#ifndef CGA_LIB_LOAD_H
#define CGA_LIB_LOAD_H

#include <stdbool.h>

struct lib_load {
	const char *soname;
	void *handle;
	const char *missing;	/* the first function it lacked */
	bool tried, failed;
};

/* Opens l, once: false when it cannot be (then *why is dlerror()'s
 * text) or could not be before. */
bool lib_load_open(struct lib_load *l, const char **why);

/* The function called name in l, or NULL: then l fails, and
 * l->missing names the first function not found. */
void *lib_load_entry(struct lib_load *l, const char *name);

/* api.field = name's address, typed as the field. */
#define LIB_LOAD_ENTRY(l, api, field, name) \
	((api).field = (__typeof__((api).field))lib_load_entry((l), (name)))

#endif
