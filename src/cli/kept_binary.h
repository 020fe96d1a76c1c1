/*
 * A binary opened before or for the disassembly's first read (the
 * program the profile's header names, or the recorded object after
 * reading), into names of its own, its opening's messages held: renamed
 * into the first read's names, and into the profile's when the
 * resolution after the read takes it, so that the same file is not
 * opened again (on a big -g program, loading its symbols and lines is
 * much of the run). Its messages are said then.
 */
#ifndef CGA_KEPT_BINARY_H
#define CGA_KEPT_BINARY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/names.h"
#include "options.h"
#include "symtab/symtab.h"

struct kept_binary {
	struct arena arena;
	struct names names;
	struct symtab *st;
	name_id *ids;	/* its own names' ids in the table st now has
			 * (NULL: its own) */
	char *said;	/* what its opening said (open_binary()'s
			 * messages, as they were written) */
	size_t said_len;
	char *opened_as;	/* the path it was opened by, which they
				 * name */
};

/* k and the table it holds freed (NULL: nothing). */
void kept_binary_free(struct kept_binary *k);

/*
 * k's own names interned into names, in the order of their ids, and its
 * table renamed to them: as if it had been opened into names now
 * (symtab_rename()), wherever it was renamed to before. Returns k->st.
 */
struct symtab *kept_binary_rename(struct kept_binary *k, struct names *names);

/* Whether open_binary() of path would open what k holds: the same
 * name, or the same file under the same base name with its DWARF in
 * it (no debug file looked for beside it). */
bool kept_binary_is(const struct kept_binary *k, const char *path);

/* The kept binary (*slot) as open_binary() of path into names would
 * give it (*slot still holds it), or NULL. */
struct symtab *kept_binary_use(struct kept_binary *k, const char *path,
			       struct names *names);

/*
 * open_binary() of path into names (the first read's), the table kept
 * in *slot (the one there before freed) for the resolution after the
 * read (kept_binary_take()) unless it is a separate debug file; NULL
 * when it cannot be opened. Its messages are held for that, not said.
 */
struct symtab *kept_binary_open(struct kept_binary **slot,
				const struct options *o, const char *path,
				struct names *names);

/*
 * The program the profile's header names (header_program()), opened
 * into *slot as kept_binary_open() does: with DWARF lines the report has
 * no first read by regions and resolves against this binary after
 * reading: it is kept in its own names (NULL returned); otherwise
 * renamed into names and kept too (not a separate debug file).
 */
struct symtab *kept_binary_of_header(struct kept_binary **slot,
				     struct names *names,
				     const struct options *o);

/*
 * For the resolution after reading: the kept binary renamed into names,
 * when path is that file as open_binary() would open it and what its
 * opening said names path (said now); *slot then emptied. NULL: open
 * it (binaries.h).
 */
struct symtab *kept_binary_take(struct kept_binary **slot, const char *path,
				struct names *names);

#endif
