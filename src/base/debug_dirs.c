/* The debug directories' order (see debug_dirs.h). */
#include "debug_dirs.h"

#include <string.h>

size_t debug_dirs(const char *debug_dir, const char *dirs[DEBUG_DIRS_MAX])
{
	size_t n = 0;

	if (debug_dir && strcmp(debug_dir, DEBUG_DIR_DEFAULT))
		dirs[n++] = debug_dir;
	dirs[n++] = DEBUG_DIR_DEFAULT;
	return n;
}
