/*
 * Finding a function or call arc by its fields, for profile_func() and
 * profile_call() (profile_index.c).
 */
#ifndef CGA_PROFILE_INDEX_H
#define CGA_PROFILE_INDEX_H

#include <stdint.h>

#include "profile.h"

/*
 * The slot of the function (object, file, name): holding its id + 1, or
 * 0 where it is to go. Fill an empty one before the next call, with the
 * id the function gets in funcs[] (nfuncs, then nfuncs + 1).
 */
uint32_t *func_index_slot(struct profile *p, name_id object, name_id file,
			  name_id name);
/* The same for the call arc (caller, callee) in calls[]. */
uint32_t *call_index_slot(struct profile *p, uint32_t caller, uint32_t callee);

#endif
