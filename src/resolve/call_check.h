/*
 * Telling a binary from another build where no build-id does (gperftools
 * records none, nor does perf for some objects): a stack's return
 * addresses each follow a call instruction in the code that ran, which
 * another build's bytes at those addresses seldom do.
 */
#ifndef CGA_CALL_CHECK_H
#define CGA_CALL_CHECK_H

#include <stdint.h>

#include "symtab/symtab.h"

/*
 * Whether the instruction that ends at link-time address ra in st is a
 * call: 1 yes, 0 no, -1 cannot tell (not an x86-64 binary, no bytes of
 * the file there).
 */
int call_ends_at(const struct symtab *st, uint64_t ra);

#endif
