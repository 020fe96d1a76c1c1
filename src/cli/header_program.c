/*
 * The program a Callgrind profile's header names (header_program.h).
 */
#include "header_program.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/xalloc.h"
#include "read/read.h"

/* A regular file at path. */
static bool is_file(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* prog (a relative name) from the profile's own directory: where
 * valgrind ran, when it wrote callgrind.out.PID there as it does by
 * default; malloc'd, or NULL when the profile names no directory (the
 * current one, tried already). */
static char *beside(const char *input, const char *prog)
{
	const char *slash = strrchr(input, '/');
	size_t dlen, plen = strlen(prog);
	char *path;

	if (!slash)
		return NULL;
	dlen = (size_t)(slash - input) + 1;
	path = xmalloc(dlen + plen + 1);
	memcpy(path, input, dlen);
	memcpy(path + dlen, prog, plen + 1);
	return path;
}

/*
 * The program the profile's header names (cmd:), when it is a file
 * here; malloc'd. A relative name (valgrind writes the command as
 * typed: "./prog") is made whole from the current directory, as the
 * kernel would have found it, with its links followed: Callgrind's ob=
 * lines name the objects by the whole path the kernel mapped them
 * from, and the object is guessed and checked by that name. Where the
 * current directory has no such file, from the profile's directory
 * (valgrind's, most often): a guess, which the checks after reading
 * find wrong when the object the profile records is another file.
 */
char *header_program(const struct options *o)
{
	char *prog, *whole;
	bool relative;

	if (o->ninputs != 1 || !(prog = callgrind_file_program(o->inputs[0])))
		return NULL;
	relative = prog[0] != '/';
	if (!is_file(prog)) {
		char *b = relative ? beside(o->inputs[0], prog) : NULL;

		free(prog);
		if (!b || !is_file(b)) {
			free(b);
			return NULL;
		}
		prog = b;
	}
	/* (the profile's directory may be named whole: "/d/./prog") */
	if (relative && (whole = realpath(prog, NULL))) {
		free(prog);
		prog = whole;
	}
	return prog;
}
