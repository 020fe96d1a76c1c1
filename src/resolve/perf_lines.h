/*
 * The files and lines of a recording's functions in the recorded files
 * found without -b (perf_lines.c), and the link-time address of an
 * offset in an object's file.
 */
#ifndef CGA_RESOLVE_PERF_LINES_H
#define CGA_RESOLVE_PERF_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/perf_data.h"
#include "symtab/symtab.h"

/* The binary's link-time address of file offset off, through the
 * PT_LOAD segment holding it; false when none does. */
bool perf_file_vaddr(const struct symtab *st, uint64_t off, uint64_t *vaddr);

/*
 * For each object i of d whose table st[i] (NULL: none) was opened
 * without DWARF: the line rows of the units holding the entries of the
 * functions its frames are in (each frame looked up as it is and one
 * byte before, as a return address), so that symtab_line() gives
 * those functions the file and line perf report --sort sym,srcfile and
 * a -b binary give them, whatever the listing, for a fraction of the
 * whole DWARF's time (symtab_load_lines()). A table with lines is left
 * alone.
 */
void perf_entry_lines(const struct perf_data *d, struct symtab *const *st,
		      const char *debug_dir);

#endif
