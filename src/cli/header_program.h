/*
 * The program a Callgrind profile's header names (its cmd: line), for
 * the disassembly's choice before reading (code_positions.h).
 */
#ifndef CGA_HEADER_PROGRAM_H
#define CGA_HEADER_PROGRAM_H

#include "options.h"

/* The program the one input's header names, when it is a file here,
 * its whole path (malloc'd); NULL: none, or not here. */
char *header_program(const struct options *o);

#endif
