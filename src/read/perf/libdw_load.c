/*
 * libdw through dlopen() on first use (libdw_load.h).
 */
#include "libdw_load.h"

#include <stdbool.h>

#include "base/diag.h"
#include "base/lib_load.h"

#ifndef LIBDW_SONAME
#define LIBDW_SONAME "libdw.so.1"
#endif

static struct libdw_api api;
static struct lib_load lib = { .soname = LIBDW_SONAME };

#define ENTRY(field, name) LIB_LOAD_ENTRY(&lib, api, field, name)

/* Looked up in libdw alone (RTLD_LOCAL): its dwarf_* functions are its
 * own, not libdwarf's of the same names, which symtab/ links. */
const struct libdw_api *libdw_load(void)
{
	static bool done;
	const char *why;

	if (done)
		return lib.failed ? NULL : &api;
	done = true;
	if (!lib_load_open(&lib, &why)) {
		warning("cannot load %s to unwind --call-graph dwarf stacks: "
			"%s; user stacks are not unwound (install elfutils' "
			"libdw)", LIBDW_SONAME, why);
		return NULL;
	}
	ENTRY(begin_elf, "dwarf_begin_elf");
	ENTRY(end, "dwarf_end");
	ENTRY(getcfi, "dwarf_getcfi");
	ENTRY(getcfi_elf, "dwarf_getcfi_elf");
	ENTRY(cfi_end, "dwarf_cfi_end");
	ENTRY(cfi_addrframe, "dwarf_cfi_addrframe");
	ENTRY(frame_info, "dwarf_frame_info");
	ENTRY(frame_cfa, "dwarf_frame_cfa");
	ENTRY(frame_register, "dwarf_frame_register");
	ENTRY(elf_gnu_build_id, "dwelf_elf_gnu_build_id");
	ENTRY(dwfl_begin, "dwfl_begin");
	ENTRY(dwfl_end, "dwfl_end");
	ENTRY(report_module, "dwfl_report_module");
	ENTRY(report_end, "dwfl_report_end");
	ENTRY(module_info, "dwfl_module_info");
	ENTRY(offline_section_address, "dwfl_offline_section_address");
	ENTRY(attach_state, "dwfl_attach_state");
	ENTRY(getthread_frames, "dwfl_getthread_frames");
	ENTRY(frame_pc, "dwfl_frame_pc");
	ENTRY(thread_state_registers, "dwfl_thread_state_registers");
	ENTRY(thread_state_register_pc, "dwfl_thread_state_register_pc");
	if (lib.failed) {
		warning("%s has no %s: not the libdw cganalyze was built with; "
			"user stacks are not unwound", LIBDW_SONAME, lib.missing);
		return NULL;
	}
	return &api;
}

bool libdw_load_failed(void)
{
	return lib.tried && lib.failed;
}
