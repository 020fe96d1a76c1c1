/*
 * The chain of functions inlined at an instruction, innermost first:
 * "mix <- work at prog.c:40" for frames fr[0 .. n) (symtab_frames()'s),
 * each function's short name (the last component of a C++ name, without
 * its parameters and template arguments) and, for each caller, the file
 * (base name) and line of the call. --disasm prints it as
 * "(inlined: CHAIN)" after the file:line of a source line; the report
 * embeds the same text (print_html.c), so both say the same.
 */
#ifndef CGA_INLINE_CHAIN_H
#define CGA_INLINE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "symtab/symtab.h"

/* the frames --disasm and the report look at per instruction */
#define DISASM_MAX_FRAMES 32

void inline_chain_put(FILE *out, const struct names *names,
		      const struct frame *fr, size_t n);

/* Whether a and b are the same frames: --disasm prints a source line
 * (and its chain) where the frames change from the instruction before. */
bool inline_chain_same(const struct frame *a, size_t na,
		       const struct frame *b, size_t nb);

#endif
