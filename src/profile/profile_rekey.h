/*
 * The two ways profile_rekey() (profile.h) goes, apart for the tests:
 * in place where the new identities merge no functions and give no
 * position a new file or line (profile_rekey_in_place.c), else by
 * rebuilding every table (profile_rekey.c).
 */
#ifndef CGA_PROFILE_REKEY_H
#define CGA_PROFILE_REKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

/* profile_rekey() in place, with the same result; false (the profile
 * as it was) where it cannot be. */
bool profile_rekey_in_place(struct profile *p, const struct pfunc *ident,
			    const uint32_t *ident_line,
			    const struct ppos *pos, uint32_t *map);

/* profile_rekey() by adding every function, arc and position again. */
void profile_rekey_rebuild(struct profile *p, const struct pfunc *ident,
			   const uint32_t *ident_line, const struct ppos *pos,
			   uint32_t *map);

#endif
