/*
 * Folding valgrind's recursion levels out of a name (see
 * fold_recursion_suffix() in profile.h), for the readers, the symspecs
 * and the listings alike.
 */
#include <string.h>

#include "profile.h"

size_t fold_recursion_suffix(const char *name, size_t len, char *out)
{
	/* The recursion level is the first "'" + digits component that
	 * ends at another "'" or at the end of the name. */
	for (size_t i = 0; i < len; i++) {
		size_t j = i + 1;

		if (name[i] != '\'')
			continue;
		while (j < len && name[j] >= '0' && name[j] <= '9')
			j++;
		if (j > i + 1 && (j == len || name[j] == '\'')) {
			memcpy(out, name, i);
			memcpy(out + i, name + j, len - j);
			return len - (j - i);
		}
	}
	memcpy(out, name, len);
	return len;
}
