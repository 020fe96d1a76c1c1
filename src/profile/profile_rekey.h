/*
 * The two ways profile_rekey() (profile.h) goes, apart for the tests:
 * in place where the new identities merge no functions and no
 * positions (profile_rekey_in_place.c), else by
 * rebuilding every table (profile_rekey.c).
 */
#ifndef CGA_PROFILE_REKEY_H
#define CGA_PROFILE_REKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

/* The position with these fields, or NO_ID (profile_pos.c). */
uint32_t profile_pos_find(struct profile *p, uint32_t func, name_id file,
			  uint32_t line, uint64_t addr, uint32_t region);

/* The table profile_pos() finds positions by, freed: positions' keys
 * were changed where they are. The next look-up builds it again. */
void profile_drop_pos_table(struct profile *p);

/* profile_rekey() in place, with the same result; false (the profile
 * as it was) where it cannot be. */
bool profile_rekey_in_place(struct profile *p, const struct pfunc *ident,
			    const uint32_t *ident_line,
			    const struct ppos *pos, uint32_t *map);

/* profile_rekey() by adding every function, arc and position again;
 * returns as it does. */
uint32_t profile_rekey_rebuild(struct profile *p, const struct pfunc *ident,
			   const uint32_t *ident_line, const struct ppos *pos,
			   uint32_t *map);

#endif
