/*
 * libdw through dlopen() on first use (libdw_load.h).
 */
#include "libdw_load.h"

#include <dlfcn.h>
#include <stdbool.h>

#include "base/diag.h"

#ifndef LIBDW_SONAME
#define LIBDW_SONAME "libdw.so.1"
#endif

static struct libdw_api api;
static bool loaded, failed;

static void *entry(void *lib, const char *name)
{
	void *f = dlsym(lib, name);

	if (!f) {
		warning("%s has no %s: not the libdw cganalyze was built "
			"with; user stacks are not unwound", LIBDW_SONAME, name);
		failed = true;
	}
	return f;
}

#define ENTRY(field, name) (api.field = (__typeof__(api.field))entry(lib, name))

const struct libdw_api *libdw_load(void)
{
	void *lib;

	if (loaded || failed)
		return loaded ? &api : NULL;
	lib = dlopen(LIBDW_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		warning("cannot load %s to unwind --call-graph dwarf stacks: "
			"%s; user stacks are not unwound (install elfutils' "
			"libdw)", LIBDW_SONAME, dlerror());
		failed = true;
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
	loaded = !failed;
	return loaded ? &api : NULL;
}
