/*
 * Finding a function or call arc by its fields, for profile_func() and
 * profile_call() (profile_index.c).
 */
#ifndef CGA_PROFILE_INDEX_H
#define CGA_PROFILE_INDEX_H

#include <stdint.h>

#include "profile.h"

/*
 * The index of the function (object, file, name) in funcs[], or NO_ID
 * when there is none yet: then the caller adds it to funcs[] as entry
 * nfuncs and calls pindex_add(&p->func_index, that id) before the next
 * look-up, which fills the slot this one found.
 */
uint32_t func_index_find(struct profile *p, name_id object, name_id file,
			 name_id name);
/* The same for the call arc (caller, callee) in calls[]. */
uint32_t call_index_find(struct profile *p, uint32_t caller, uint32_t callee);

/* Start loading the slot where the look-up of that key starts. */
void func_index_prefetch(const struct profile *p, name_id object,
			 name_id file, name_id name);
void call_index_prefetch(const struct profile *p, uint32_t caller,
			 uint32_t callee);

void pindex_add(struct pindex *ix, uint32_t id);
void pindex_release(struct pindex *ix);

#endif
