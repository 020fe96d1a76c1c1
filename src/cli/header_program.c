/*
 * The program a Callgrind profile's header names (header_program.h).
 */
#include "header_program.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "read/read.h"

/*
 * The program the profile's header names (cmd:), when it is a file
 * here; malloc'd. A relative name (valgrind writes the command as
 * typed: "./prog") is made whole from the current directory, as the
 * kernel would have found it, with its links followed: Callgrind's ob=
 * lines name the objects by the whole path the kernel mapped them
 * from, and the object is guessed and checked by that name.
 */
char *header_program(const struct options *o)
{
	char *prog, *whole;
	struct stat sb;

	if (o->ninputs != 1 || !(prog = callgrind_file_program(o->inputs[0])))
		return NULL;
	if (stat(prog, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		free(prog);
		return NULL;
	}
	if (prog[0] != '/' && (whole = realpath(prog, NULL))) {
		free(prog);
		prog = whole;
	}
	return prog;
}
