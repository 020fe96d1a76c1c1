/* Small path helpers shared by the listings and symbol resolution. */
#ifndef CGA_PATH_H
#define CGA_PATH_H

#include <string.h>

/* The last component of path ("prog.c" of "/src/prog.c"). */
static inline const char *path_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

#endif
