/*
 * The kernel's symbols as /proc/kallsyms lists them ("address type
 * name [module]" per line), for naming the kernel frames of a perf
 * recording made on this kernel.
 */
#ifndef CGA_KALLSYMS_H
#define CGA_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "base/names.h"

struct ksym {
	uint64_t addr;
	name_id name;
};

struct kallsyms {
	struct ksym *syms;	/* code symbols, sorted by address */
	size_t n;
};

/*
 * Load the code symbols (types t, T, w, W) of path. Returns 0; 1 when
 * the file lists no address (every one 0, as for a user not allowed to
 * see them), with nothing loaded; -1 after reporting when it cannot be
 * read.
 */
int kallsyms_load(struct kallsyms *k, const char *path, struct names *names);
void kallsyms_release(struct kallsyms *k);

/* k, loaded with a names table of its own (on another thread), takes
 * the ids ids[] gives its names (names_intern_from()), and its order
 * with them, as kallsyms_load() would have left it. */
void kallsyms_rename(struct kallsyms *k, const name_id *ids);

/* The symbol at or below addr (a function reaches up to the next one),
 * or NULL below the first. */
const struct ksym *kallsyms_lookup(const struct kallsyms *k, uint64_t addr);

#endif
