/*
 * The candidate files of a perf recording's objects and the build-id
 * test (see perf_files.h).
 */
#include "perf_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/debug_dirs.h"

bool perf_build_id_is(const struct perf_object *ob, const uint8_t *id,
		      size_t n)
{
	size_t want = ob->build_id_len;

	if (!want || !n)
		return false;
	if (n < want) {
		for (size_t i = n; i < want; i++)
			if (ob->build_id[i])
				return false;
		want = n;
	}
	return !memcmp(ob->build_id, id, want);
}

void perf_build_id_hex(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

size_t perf_object_paths(const struct perf_object *ob, const char *recorded,
			 const char *sysroot, const char *debug_dir,
			 char paths[][PERF_PATH_MAX])
{
	const char *root = sysroot ? sysroot : "";
	const char *home = getenv("HOME");
	const char *dirs[DEBUG_DIRS_MAX];
	size_t nd = debug_dirs(debug_dir, dirs);
	char hex[2 * PERF_BUILD_ID_MAX + 1];
	size_t n = 0;

	if ((size_t)snprintf(paths[n], PERF_PATH_MAX, "%s%s", root,
			     recorded) < PERF_PATH_MAX)
		n++;
	if (ob->build_id_len < 2)
		return n;
	perf_build_id_hex(ob->build_id, ob->build_id_len, hex);
	if (sysroot && (size_t)snprintf(paths[n], PERF_PATH_MAX,
					"%s/.debug/.build-id/%.2s/%s/elf",
					sysroot, hex, hex + 2) < PERF_PATH_MAX)
		n++;
	if (home && (size_t)snprintf(paths[n], PERF_PATH_MAX,
				     "%s%s/.debug/.build-id/%.2s/%s/elf", root,
				     home, hex, hex + 2) < PERF_PATH_MAX)
		n++;
	for (size_t d = 0; d < nd; d++)
		if ((size_t)snprintf(paths[n], PERF_PATH_MAX,
				     "%s%s/.build-id/%.2s/%s.debug", root,
				     dirs[d], hex, hex + 2) < PERF_PATH_MAX)
			n++;
	return n;
}

bool perf_kernel_cache_path(const struct perf_object *k, const char *sysroot,
			    char path[PERF_PATH_MAX])
{
	const char *home = getenv("HOME");
	char hex[2 * PERF_BUILD_ID_MAX + 1];
	struct stat sb;

	if (k->build_id_len < 2)
		return false;
	perf_build_id_hex(k->build_id, k->build_id_len, hex);
	/* perf report --symfs=DIR's cache, as perf_object_paths() */
	if (sysroot &&
	    (size_t)snprintf(path, PERF_PATH_MAX,
			     "%s/.debug/[kernel.kallsyms]/%s/kallsyms", sysroot,
			     hex) < PERF_PATH_MAX &&
	    stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		return true;
	if (!home)
		return false;
	return (size_t)snprintf(path, PERF_PATH_MAX,
				"%s%s/.debug/[kernel.kallsyms]/%s/kallsyms",
				sysroot ? sysroot : "", home, hex) <
	       PERF_PATH_MAX;
}

bool perf_kernel_cache_file(const struct perf_data *d, const char *sysroot,
			    char path[PERF_PATH_MAX])
{
	const struct perf_object *k = NULL;
	struct stat sb;

	for (size_t i = 0; i < d->nobjects && !k; i++)
		if (d->objects[i].kind == PERF_OBJ_KERNEL)
			k = &d->objects[i];
	return k && perf_kernel_cache_path(k, sysroot, path) &&
	       stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

bool perf_kernel_cache_first(const struct perf_data *d, const char *sysroot,
			     char path[PERF_PATH_MAX])
{
	return d->kernel_ref != NO_NAME && !d->kernel_modules &&
	       perf_kernel_cache_file(d, sysroot, path);
}

const char *perf_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
