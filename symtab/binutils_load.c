/*
 * libbfd and libopcodes through dlopen() on first use
 * (binutils_load.h).
 */
#include "binutils_load.h"

#include <dlfcn.h>
#include <stdbool.h>

#include "base/diag.h"

#ifndef BFD_SONAME
#define BFD_SONAME "libbfd.so"
#endif
#ifndef OPCODES_SONAME
#define OPCODES_SONAME "libopcodes.so"
#endif

/* One library: its name, what it is for (for the message), and
 * whether it is loaded or cannot be. */
struct lib {
	const char *soname, *use;
	void *handle;
	bool loaded, failed;
};

static struct lib bfd_lib = { .soname = BFD_SONAME,
			      .use = "@plt stubs and demangling" };
static struct lib opcodes_lib = { .soname = OPCODES_SONAME,
				  .use = "the disassembly" };

/* Opens l; false (said once) when it cannot be. */
static bool lib_open(struct lib *l)
{
	if (l->failed)
		return false;
	l->handle = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!l->handle) {
		error("cannot load %s for %s: %s (install binutils' "
		      "libraries, or rebuild cganalyze)", l->soname, l->use,
		      dlerror());
		l->failed = true;
	}
	return !l->failed;
}

static void *entry(struct lib *l, const char *name)
{
	void *f = dlsym(l->handle, name);

	if (!f) {
		error("%s has no %s: not the library cganalyze was built with",
		      l->soname, name);
		l->failed = true;
	}
	return f;
}

#define ENTRY(l, api, field, name) \
	((api).field = (__typeof__((api).field))entry(&(l), name))

const struct bfd_api *libbfd_load(void)
{
	static struct bfd_api api;

	if (bfd_lib.loaded || bfd_lib.failed || !lib_open(&bfd_lib))
		return bfd_lib.loaded ? &api : NULL;
	ENTRY(bfd_lib, api, init, "bfd_init");
	ENTRY(bfd_lib, api, openr, "bfd_openr");
	ENTRY(bfd_lib, api, check_format, "bfd_check_format");
	ENTRY(bfd_lib, api, close, "bfd_close");
	ENTRY(bfd_lib, api, get_error, "bfd_get_error");
	ENTRY(bfd_lib, api, errmsg, "bfd_errmsg");
	ENTRY(bfd_lib, api, demangle, "bfd_demangle");
	ENTRY(bfd_lib, api, printable_arch_mach, "bfd_printable_arch_mach");
	ENTRY(bfd_lib, api, set_error_program_name, "bfd_set_error_program_name");
	ENTRY(bfd_lib, api, set_error_handler, "bfd_set_error_handler");
	ENTRY(bfd_lib, api, set_assert_handler, "bfd_set_assert_handler");
	bfd_lib.loaded = !bfd_lib.failed;
	return bfd_lib.loaded ? &api : NULL;
}

const struct opcodes_api *opcodes_load(void)
{
	static struct opcodes_api api;

	if (opcodes_lib.loaded || opcodes_lib.failed || !lib_open(&opcodes_lib))
		return opcodes_lib.loaded ? &api : NULL;
	ENTRY(opcodes_lib, api, disassembler, "disassembler");
	ENTRY(opcodes_lib, api, init_disassemble_info, "init_disassemble_info");
	ENTRY(opcodes_lib, api, disassemble_init_for_target,
	      "disassemble_init_for_target");
	ENTRY(opcodes_lib, api, disassemble_free_target,
	      "disassemble_free_target");
	ENTRY(opcodes_lib, api, buffer_read_memory, "buffer_read_memory");
	opcodes_lib.loaded = !opcodes_lib.failed;
	return opcodes_lib.loaded ? &api : NULL;
}
