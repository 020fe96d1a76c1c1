/*
 * libopcodes through dlopen() on first use (opcodes_load.h). The file
 * name is its soname, found by the Makefile at build time
 * (OPCODES_SONAME): binutils puts its version in it, so the library
 * linked against is the one loaded, as the dynamic linker would have.
 */
#include "opcodes_load.h"

#include <dlfcn.h>
#include <stdbool.h>

#include "base/diag.h"

#ifndef OPCODES_SONAME
#define OPCODES_SONAME "libopcodes.so"
#endif

static struct opcodes_api api;
static bool loaded, failed;

static void *entry(void *lib, const char *name)
{
	void *f = dlsym(lib, name);

	if (!f) {
		error("%s has no %s: not the libopcodes cganalyze was built "
		      "with", OPCODES_SONAME, name);
		failed = true;
	}
	return f;
}

const struct opcodes_api *opcodes_load(void)
{
	void *lib;

	if (loaded || failed)
		return failed ? NULL : &api;
	lib = dlopen(OPCODES_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		error("cannot load libopcodes for the disassembly: %s "
		      "(install binutils' libraries, or rebuild cganalyze)",
		      dlerror());
		failed = true;
		return NULL;
	}
	api.disassembler = (__typeof__(api.disassembler))entry(lib, "disassembler");
	api.init_disassemble_info = (__typeof__(api.init_disassemble_info))
		entry(lib, "init_disassemble_info");
	api.disassemble_init_for_target = (__typeof__(api.disassemble_init_for_target))
		entry(lib, "disassemble_init_for_target");
	api.disassemble_free_target = (__typeof__(api.disassemble_free_target))
		entry(lib, "disassemble_free_target");
	api.buffer_read_memory = (__typeof__(api.buffer_read_memory))
		entry(lib, "buffer_read_memory");
	if (failed)
		return NULL;
	loaded = true;
	return &api;
}
