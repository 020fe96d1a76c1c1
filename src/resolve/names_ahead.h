/*
 * Symbols' names made ahead of the charging, on both of its threads.
 *
 * A big table's C++ names are demangled only when a stack first names
 * the symbol (symtab's names_later): on the 1 GB bench recording 4,000
 * names, with 3,700 "lib+0x..." names of functions known from CFI
 * alone, 27 million instructions of the charging's walk, which is one
 * thread's (its function ids follow its order). The frames' symbols
 * are looked up ahead on two threads (resolve_perf.c's frame_syms());
 * once no thread adds names to the tables, each thread claims the
 * symbols still to be named (symtab_name_claim()) and makes their text;
 * the main thread then puts them into the tables before the walk, which
 * finds them named.
 *
 * Only a table with names of its own (one the preloader made) is named
 * here: its names' ids are its own, and the walk interns them into the
 * profile's in its order, as before. A table made on the main thread
 * shares the profile's names, whose order the walk decides.
 */
#ifndef CGA_RESOLVE_NAMES_AHEAD_H
#define CGA_RESOLVE_NAMES_AHEAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "symtab/symtab.h"

/* The threads that claim: the main thread's and the second one's. */
#define NAMES_AHEAD_THREADS 2

struct names_ahead {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool quiet;		/* no thread adds names to the tables now */
	struct claimed_name {
		const struct symtab *st;
		const struct sym *s;
		char *text;
	} *claimed[NAMES_AHEAD_THREADS];
	size_t n[NAMES_AHEAD_THREADS], alloc[NAMES_AHEAD_THREADS];
};

void names_ahead_init(struct names_ahead *na);

/* The main thread: no names are added to the tables from now on (more
 * than once is harmless). */
void names_ahead_quiet(struct names_ahead *na);

/* The second thread: waits for names_ahead_quiet(). */
void names_ahead_wait(struct names_ahead *na);

/* Symbol s of st named ahead by thread t, unless it has its names, or
 * another thread claimed it, or st shares names (with the profile's). */
void names_ahead_claim(struct names_ahead *na, unsigned t,
		       const struct symtab *st, const struct sym *s,
		       const struct names *shared);

/* The main thread, every claiming thread done: the names made put into
 * their tables. */
void names_ahead_put(struct names_ahead *na);

/* What is left (claims not put, after an error) freed. */
void names_ahead_release(struct names_ahead *na);

#endif
