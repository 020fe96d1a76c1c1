/*
 * The function the report opens on (start_function.h). A Callgrind
 * profile of a small program is mostly the dynamic loader's: the
 * heaviest function overall is ld.so's entry, by address, and the page
 * opened on it showed nothing of the program.
 */
#include "start_function.h"

#include <string.h>

#include "profile/program.h"

/* The C runtime's code around main and around a thread's function:
 * each encloses the program's work, so it would always be heaviest. */
static const char *const startup_names[] = {
	"_start", "__libc_start_main", "__libc_start_call_main",
	"__libc_start_main_impl", "generic_start_main", "(below main)",
	"_dl_start", "_dl_start_user", "start_thread", "clone", "clone3",
	"__clone", "__clone3", "_init", "__libc_csu_init",
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* "0x1090", "0x000000000001ab70", IgProf's "@?0x7ffff7dc8e01", perf's
 * "[unknown]": a place, not a name. */
static bool is_address(const char *name)
{
	if (!name || !*name || !strcmp(name, "[unknown]") ||
	    !strcmp(name, "???"))
		return true;
	if (!strncmp(name, "@?", 2))
		name += 2;
	if (strncmp(name, "0x", 2) || !name[2])
		return false;
	return strspn(name + 2, "0123456789abcdefABCDEF") == strlen(name + 2);
}

/* A start-up routine, also as Callgrind names a versioned symbol:
 * "__libc_start_main@@GLIBC_2.34". */
static bool is_startup(const char *name)
{
	size_t len = strcspn(name, "@");
	size_t n = sizeof(startup_names) / sizeof(*startup_names);

	for (size_t i = 0; i < n; i++)
		if (strlen(startup_names[i]) == len &&
		    !strncmp(startup_names[i], name, len))
			return true;
	return false;
}

/* ld-linux-x86-64.so.2, ld.so, ld64.so.1: the dynamic loader;
 * [kernel.kallsyms], [vdso]: not the program's code */
static bool is_system_object(const char *path)
{
	const char *b = base_name(path);

	return *b == '[' || !strncmp(b, "ld-", 3) || !strncmp(b, "ld.so", 5) ||
	       !strncmp(b, "ld64.so", 7);
}

/* The program's object: main's (profile/program.h), else the command's;
 * NO_PROGRAM when neither is known (NO_NAME is an object: the unknown
 * one, of a main without -b). */
#define NO_PROGRAM UINT64_MAX

static uint64_t program_object(const struct profile *p, const double *incl,
			       size_t stride)
{
	uint32_t best = NO_ID;
	name_id ob;

	for (uint32_t f = 0; f < p->nfuncs; f++)
		if (profile_is_main(p, f) &&
		    (best == NO_ID || incl[f * stride] > incl[best * stride]))
			best = f;
	if (best != NO_ID)
		return p->funcs[best].object;
	ob = profile_command_object(p);
	return ob != NO_NAME ? ob : NO_PROGRAM;
}

enum step { IN_PROGRAM, OUTSIDE_SYSTEM, ANY };

static bool eligible(const struct profile *p, uint32_t f, enum step step,
		     uint64_t program, double cost)
{
	const char *name = profile_str(p, p->funcs[f].name);
	name_id ob = p->funcs[f].object;

	switch (step) {
	case IN_PROGRAM:
		if (ob != program)
			return false;
		break;
	case OUTSIDE_SYSTEM:
		if (ob != NO_NAME && is_system_object(profile_str(p, ob)))
			return false;
		break;
	case ANY:
	default:
		return true;
	}
	return cost > 0 && !is_address(name) && !is_startup(name);
}

uint32_t start_function(const struct profile *p, const double *incl,
			size_t stride)
{
	uint64_t program = program_object(p, incl, stride);
	enum step first = program == NO_PROGRAM ? OUTSIDE_SYSTEM : IN_PROGRAM;

	for (enum step step = first; step <= ANY; step++) {
		uint32_t best = NO_ID;

		for (uint32_t f = 0; f < p->nfuncs; f++) {
			double c = incl[f * stride];

			if (!eligible(p, f, step, program, c))
				continue;
			if (best == NO_ID || c > incl[best * stride] ||
			    (c == incl[best * stride] &&
			     !strcmp(profile_str(p, p->funcs[f].name), "main")))
				best = f;
		}
		if (best != NO_ID)
			return best;
	}
	return NO_ID;
}
