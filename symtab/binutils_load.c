/*
 * libbfd and libopcodes through dlopen() on first use
 * (binutils_load.h).
 */
#include "binutils_load.h"

#include <pthread.h>
#include <stdbool.h>

#include "base/diag.h"
#include "base/lib_load.h"

#ifndef BFD_SONAME
#define BFD_SONAME "libbfd.so"
#endif
#ifndef OPCODES_SONAME
#define OPCODES_SONAME "libopcodes.so"
#endif

/* lib's function `name` into api.field */
#define ENTRY(field, name) LIB_LOAD_ENTRY(lib, api, field, name)

static struct lib_load bfd_lib = { .soname = BFD_SONAME };
static struct lib_load opcodes_lib = { .soname = OPCODES_SONAME };

/* Opens l for `use` (said in the message if it cannot be). */
static bool open_for(struct lib_load *l, const char *use)
{
	const char *why;

	if (lib_load_open(l, &why))
		return true;
	if (why)
		error("cannot load %s for %s: %s (install binutils' "
		      "libraries, or rebuild cganalyze)", l->soname, use, why);
	return false;
}

/* After the look-ups: whether l opened and has every function (a
 * missing one said once). */
static bool all_found(struct lib_load *l, bool *said)
{
	if (l->missing && !*said) {
		error("%s has no %s: not the library cganalyze was built with",
		      l->soname, l->missing);
		*said = true;
	}
	return !l->failed;
}

/* libbfd's functions, and whether it has them all (made once) */
static struct bfd_api bfd_api;
static bool bfd_ok;

#define BFD_ENTRY(field, name) LIB_LOAD_ENTRY(lib, bfd_api, field, name)

static void bfd_open(void)
{
	struct lib_load *lib = &bfd_lib;
	bool said = false;

	if (!open_for(lib, "@plt stubs and demangling"))
		return;
	BFD_ENTRY(init, "bfd_init");
	BFD_ENTRY(openr, "bfd_openr");
	BFD_ENTRY(check_format, "bfd_check_format");
	BFD_ENTRY(close, "bfd_close");
	BFD_ENTRY(get_error, "bfd_get_error");
	BFD_ENTRY(errmsg, "bfd_errmsg");
	BFD_ENTRY(demangle, "bfd_demangle");
	BFD_ENTRY(printable_arch_mach, "bfd_printable_arch_mach");
	BFD_ENTRY(set_error_program_name, "bfd_set_error_program_name");
	BFD_ENTRY(set_error_handler, "bfd_set_error_handler");
	BFD_ENTRY(set_assert_handler, "bfd_set_assert_handler");
	bfd_ok = all_found(lib, &said);
}

/* Once for every thread: two threads loading it at once (the symbol
 * tables' loader and the main thread, or two of a test's) would find
 * each other's functions half looked up, a NULL bfd_demangle. */
const struct bfd_api *libbfd_load(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, bfd_open);
	return bfd_ok ? &bfd_api : NULL;
}

const struct opcodes_api *opcodes_load(void)
{
	static struct opcodes_api api;
	static bool done, said;
	struct lib_load *lib = &opcodes_lib;

	if (!done) {
		done = true;
		if (!open_for(lib, "the disassembly"))
			return NULL;
		ENTRY(disassembler, "disassembler");
		ENTRY(init_disassemble_info, "init_disassemble_info");
		ENTRY(disassemble_init_for_target, "disassemble_init_for_target");
		ENTRY(disassemble_free_target, "disassemble_free_target");
		ENTRY(buffer_read_memory, "buffer_read_memory");
	}
	return all_found(lib, &said) ? &api : NULL;
}
