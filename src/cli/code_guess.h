/*
 * --disasm=WHAT with its binary in one read (code_positions.h): the
 * code symbols WHAT names need no cost, so each function is kept whole
 * or not at its first position, the object and load offset guessed;
 * the checks after reading and resolving say whether that was enough.
 */
#ifndef CGA_CODE_GUESS_H
#define CGA_CODE_GUESS_H

#include <stdbool.h>

#include "code_positions.h"

/*
 * --disasm=WHAT with its binary (bin: -b's, or NULL: the one the
 * profile's header names): make p keep whole, in one read, the
 * functions WHAT names, those named after a listed symbol and those
 * whose first address is in one (cp->guess holds what that needs while
 * p is read). False: not this way (the report, --disasm by threshold,
 * a guess that failed before, no binary).
 */
bool code_guess(struct code_positions *cp, struct profile *p,
		const struct symtab *bin, const struct options *o,
		const struct resolve_opts *rso);

/* What cp->guess holds freed (NULL: nothing). */
void code_guess_free(struct guess *g);

#endif
