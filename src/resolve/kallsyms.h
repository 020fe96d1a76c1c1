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

/* A code symbol: its name is kallsyms_name()'s, interned by the caller
 * when it names a function (most of the kernel's 100,000 are never
 * asked for). */
struct ksym {
	uint64_t addr;
	uint32_t name;		/* its offset in the text */
	uint32_t len;
};

struct kallsyms {
	struct ksym *syms;	/* code symbols, sorted by address */
	size_t n;
	char *text;		/* their names, in the file's order: the
				 * file itself, mapped, or a copy of them */
	size_t mapped;		/* text's mapping's length; 0: a copy */
	char *mapped_path;	/* its file's, for a bus error's message
				 * (mapped_files.h) */
};

/*
 * Load the code symbols (types t, T, w, W) of path, with the symbols at
 * one address in the file's order until kallsyms_order(). Returns 0; 1
 * when the file lists no address (every one 0, as for a user not
 * allowed to see them), with nothing loaded; -1 after reporting when it
 * cannot be read.
 */
int kallsyms_load(struct kallsyms *k, const char *path);
/* kallsyms_load() reading the file `piece` bytes at a time, never
 * through a mapping (its lines cut across the pieces' ends, for the
 * tests): the same symbols and names; a copy's names are NUL-ended. */
int kallsyms_load_pieces(struct kallsyms *k, const char *path, size_t piece);
void kallsyms_release(struct kallsyms *k);

/*
 * A names table whose names would have been interned into the
 * profile's before kallsyms' when the profile had `at` names, in the
 * order of their ids (a symbol table loaded ahead, perf_preload.h).
 */
struct kallsyms_before {
	const struct names *names;
	size_t at;
};

/*
 * Orders the symbols at each address as interning every name into
 * names now, in the file's order, would order them by their ids, had
 * the tables of before[] (in that order) been interned as they say:
 * the names had keep their ids, the others would take new ones in the
 * order of their first lines. A look-up takes the last one of an
 * address, and which alias names a kernel function must not depend on
 * whether names were interned. Call it where kallsyms' names would have
 * been interned (on the thread that owns names).
 */
void kallsyms_order(struct kallsyms *k, const struct names *names,
		    const struct kallsyms_before *before, size_t nbefore);

/* Symbol s's name: s->len bytes, not NUL-ended (in a mapped file the
 * rest of its line follows). */
static inline const char *kallsyms_name(const struct kallsyms *k,
					const struct ksym *s)
{
	return k->text + s->name;
}

/* The symbol at or below addr (a function reaches up to the next one),
 * or NULL below the first. */
const struct ksym *kallsyms_lookup(const struct kallsyms *k, uint64_t addr);

/*
 * Whether k is of the boot a recording was made in, by the symbol the
 * recording placed (name, len bytes, at addr: perf_data's kernel_ref):
 * 1 it is there; 0 it is elsewhere (at *found: another boot of a kernel
 * placed at random), -1 k does not list it (it cannot be told).
 */
int kallsyms_check_ref(const struct kallsyms *k, const char *name, size_t len,
		       uint64_t addr, uint64_t *found);

/*
 * The running kernel's build-id (/sys/kernel/notes) into id, at most
 * max bytes: its length, 0 when it cannot be read.
 */
size_t kallsyms_running_build_id(uint8_t *id, size_t max);

#endif
