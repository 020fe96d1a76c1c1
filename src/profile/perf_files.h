/*
 * Where the files of a perf recording's objects may be, and whether a
 * file is the one recorded (its build-id): what both the unwinder (the
 * objects' CFI, while reading) and the resolver (their symbols) need.
 */
#ifndef CGA_PERF_FILES_H
#define CGA_PERF_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/debug_dirs.h"
#include "perf_data.h"

/* The longest path perf_object_paths() writes, with its NUL. */
#define PERF_PATH_MAX 4096
/* How many paths perf_object_paths() writes at most. */
#define PERF_OBJECT_PATHS (3 + DEBUG_DIRS_MAX)

/*
 * Whether a file whose build-id is id (n bytes) is object ob's: false
 * when either side has none. perf pads a build-id to 20 bytes with
 * zeros, so a shorter id matches a padded one.
 */
bool perf_build_id_is(const struct perf_object *ob, const uint8_t *id,
		      size_t n);

/* id (n bytes) as lowercase hex into out (2n + 1 bytes). */
void perf_build_id_hex(const uint8_t *id, size_t n, char *out);

/*
 * Where object ob (recorded at path recorded) may be, in order: at its
 * recorded path; then, by its build-id, in perf's cache
 * (HOME/.debug/.build-id/ab/cdef.../elf) and in the debug directories
 * (debug_dirs(): debug_dir, then /usr/lib/debug; .build-id/ab/cdef....debug).
 * With sysroot, all of them under sysroot, and perf report
 * --symfs=DIR's cache DIR/.debug before the others (perf 6.1 takes that
 * one in place of ~/.debug); this machine's files are not looked at,
 * as perf does not: --sysroot says where the recording machine's are,
 * and a listing does not change with what other recordings left in
 * this machine's cache. Returns how many were written to paths[] (at
 * most PERF_OBJECT_PATHS).
 */
size_t perf_object_paths(const struct perf_object *ob, const char *recorded,
			 const char *sysroot, const char *debug_dir,
			 char paths[][PERF_PATH_MAX]);

/*
 * Where perf's build-id cache keeps the symbols of kernel object k (its
 * /proc/kallsyms when recorded, as perf record and perf archive store
 * it): HOME/.debug/[kernel.kallsyms]/<build-id>/kallsyms, under sysroot
 * when it is not NULL, as perf_object_paths() looks for the objects; with
 * sysroot, sysroot/.debug/... first when that file is there (perf
 * report --symfs=DIR's cache). False when k records no build-id or the
 * path does not fit.
 */
bool perf_kernel_cache_path(const struct perf_object *k, const char *sysroot,
			    char path[PERF_PATH_MAX]);

/* Whether recording d's kernel has its kallsyms in perf's cache (into
 * path, perf_kernel_cache_path()), a regular file there. */
bool perf_kernel_cache_file(const struct perf_data *d, const char *sysroot,
			    char path[PERF_PATH_MAX]);

/*
 * For a recording made on the running kernel: whether perf's cached
 * copy of its kallsyms (into path) is to be read before /proc/kallsyms.
 * Reading a file is some 25 times cheaper than /proc/kallsyms, which the
 * kernel formats line by line (23-34 ms here). Only when the recording
 * names the kernel's reference symbol, by which the copy is checked to
 * be of the recording's boot once loaded (kallsyms_check_ref()), and
 * has no modules, whose places a copy made earlier in the boot could
 * lack; and when the copy is there (perf_kernel_cache_file()).
 */
bool perf_kernel_cache_first(const struct perf_data *d, const char *sysroot,
			     char path[PERF_PATH_MAX]);

/* The file name part of path. */
const char *perf_base_name(const char *path);

#endif
