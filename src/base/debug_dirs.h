/*
 * Where separate debug files are looked for: one answer for the symbol
 * table (symtab/debugfile.c) and perf's unwinder and object search
 * (src/read/perf/perf_unwind.c, src/profile/perf_files.c), so that a
 * file found for a function's name is found for its stack too.
 */
#ifndef CGA_DEBUG_DIRS_H
#define CGA_DEBUG_DIRS_H

#include <stddef.h>

/* The system's debug directory (gdb's and perf's default). */
#define DEBUG_DIR_DEFAULT "/usr/lib/debug"
/* How many directories debug_dirs() gives at most. */
#define DEBUG_DIRS_MAX 2

/*
 * The directories to look in, in order, into dirs: --debug-dir's
 * debug_dir first when it is given, then DEBUG_DIR_DEFAULT (--debug-dir
 * adds a directory: the system's debug files, libc6-dbg's, are still
 * found). Returns how many.
 */
size_t debug_dirs(const char *debug_dir, const char *dirs[DEBUG_DIRS_MAX]);

#endif
