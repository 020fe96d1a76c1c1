/*
 * elfutils' libdw, loaded when perf.data's first --call-graph dwarf
 * stack is unwound rather than at every start: linked, it and the
 * liblzma it needs cost every run about 1 ms (a fiftieth of a 16 MB
 * Callgrind profile's), though only that unwinder uses it. It is loaded
 * by the soname the Makefile found at build time (LIBDW_SONAME), and
 * looked up in alone (RTLD_LOCAL): its dwarf_* functions are its own,
 * not libdwarf's of the same names, which symtab/ links.
 */
#ifndef CGA_LIBDW_LOAD_H
#define CGA_LIBDW_LOAD_H

#include <stdbool.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

/* What the unwinder (perf_unwind.c, perf_cfi.c) takes from it, typed
 * from its headers. */
struct libdw_api {
	__typeof__(&dwarf_begin_elf) begin_elf;
	__typeof__(&dwarf_end) end;
	__typeof__(&dwarf_getcfi) getcfi;
	__typeof__(&dwarf_getcfi_elf) getcfi_elf;
	__typeof__(&dwarf_cfi_end) cfi_end;
	__typeof__(&dwarf_cfi_addrframe) cfi_addrframe;
	__typeof__(&dwarf_frame_info) frame_info;
	__typeof__(&dwarf_frame_cfa) frame_cfa;
	__typeof__(&dwarf_frame_register) frame_register;
	__typeof__(&dwelf_elf_gnu_build_id) elf_gnu_build_id;
	__typeof__(&dwfl_begin) dwfl_begin;
	__typeof__(&dwfl_end) dwfl_end;
	__typeof__(&dwfl_report_module) report_module;
	__typeof__(&dwfl_report_end) report_end;
	__typeof__(&dwfl_module_info) module_info;
	__typeof__(&dwfl_offline_section_address) offline_section_address;
	__typeof__(&dwfl_attach_state) attach_state;
	__typeof__(&dwfl_getthread_frames) getthread_frames;
	__typeof__(&dwfl_frame_pc) frame_pc;
	__typeof__(&dwfl_thread_state_registers) thread_state_registers;
	__typeof__(&dwfl_thread_state_register_pc) thread_state_register_pc;
};

/* The entry points, loaded on the first call; NULL after saying (once)
 * why the library cannot be loaded. */
const struct libdw_api *libdw_load(void);

/* Whether libdw_load() was called and said why it cannot load. */
bool libdw_load_failed(void);

#endif
