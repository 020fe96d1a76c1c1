/*
 * Interned strings. Every function, file and object name of a run is
 * stored once and referred to by a name_id, so names compare as integers
 * and tables key on ids. The bytes live in the arena given to
 * names_init() and are never freed one by one.
 */
#ifndef CGA_NAMES_H
#define CGA_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

typedef uint32_t name_id;
#define NO_NAME UINT32_MAX	/* "absent", as distinct from "" */

struct names {
	struct arena *arena;
	/*
	 * Where each name's bytes are, by name_id: 4 bytes a name where a
	 * pointer and a length took 12, on a big program's million names.
	 * The block (an index into blocks[]) in the top bits, the offset in
	 * it below; the length is stored just before the bytes (names.c).
	 */
	uint32_t *at;
	size_t nr, alloc;
	char **blocks;			/* arena memory names are stored in */
	size_t nblocks, blocks_alloc;
	size_t cur_block;		/* the one being filled */
	size_t used;			/* bytes of it filled */
	size_t block_bytes;		/* its size (0: none yet) */
	/* open addressing: name_id + 1 in the low id_bits, 0 empty, and
	 * above them bits of the name's hash (names.c); NULL until the first
	 * name and after names_drop_table() */
	uint32_t *table;
	size_t mask;
	unsigned id_bits;
};

void names_init(struct names *n, struct arena *arena);
void names_release(struct names *n);

/* The id of s[0..len), interning a copy on first sight. */
name_id names_intern(struct names *n, const char *s, size_t len);

/* Room for `more` names beyond those interned, made at once, in a
 * table holding fewer than that: one filled from empty with tens of
 * thousands (libLLVM's symbols, loaded ahead with names of their own,
 * resolve/perf_preload.c) was built again at each doubling, each name
 * hashed again. No id changes. */
void names_reserve(struct names *n, size_t more);

/* The id of "dir/subdir/name", "dir/name" (subdir NULL) or name (dir
 * NULL too): a line table's file joined to its directories. */
name_id names_intern_path(struct names *n, const char *dir,
			  const char *subdir, const char *name);

/*
 * names_intern() of each name of `from` whose skip[] is false, its id
 * here into ids[] (the others' left as they are), in the order of their
 * ids. For many names at once (a stretch read ahead, most of them new):
 * the table's slots are loaded a few names ahead, so that their cache
 * misses overlap.
 */
/*
 * names_intern() of count names, the i-th len[i] bytes at buf + off[i],
 * in that order, ids[i] its id: as names_intern_from(), the slots
 * loaded ahead (a symbol table's names made up at once).
 */
void names_intern_many(struct names *n, const char *buf, const size_t *off,
		       const size_t *len, size_t count, name_id *ids);

void names_intern_from(struct names *n, const struct names *from,
		       const bool *skip, name_id *ids);

/*
 * The id of s[0..len) if it was interned before, else NO_NAME. After
 * names_drop_table() (until the next names_intern()), a search through
 * every name: for the odd lookup once reading is done, not for loops.
 */
name_id names_find(const struct names *n, const char *s, size_t len);

/*
 * Free the table that finds names by their text: once a profile is
 * read, the listings go from ids to text only, and on a big program the
 * table is 8 MB of the peak. Ids and strings stay; the next
 * names_intern() builds the table again.
 */
void names_drop_table(struct names *n);

/* The string for id; "" for NO_NAME. Lives as long as the arena. */
const char *names_str(const struct names *n, name_id id);
size_t names_len(const struct names *n, name_id id);

#endif
