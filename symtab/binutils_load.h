/*
 * libbfd and libopcodes, loaded when first needed rather than at every
 * start: linked, their relocations cost every run page faults and
 * time (libbfd alone 1.4 ms of a 16 MB profile's 50, libopcodes 130
 * faults), though only -b (libbfd: @plt stubs, demangling) and --disasm
 * (libopcodes) use them. Each is loaded by the soname the Makefile
 * found at build time (BFD_SONAME, OPCODES_SONAME): binutils puts its
 * version in it, so the library built against is the one loaded, as
 * the dynamic linker would have.
 */
#ifndef CGA_BINUTILS_LOAD_H
#define CGA_BINUTILS_LOAD_H

#ifndef PACKAGE
#define PACKAGE "cganalyze"
#define PACKAGE_VERSION "0"
#endif
#include <bfd.h>
#include <dis-asm.h>

/* What the symbol table takes from libbfd, typed from bfd.h. */
struct bfd_api {
	__typeof__(&bfd_init) init;
	__typeof__(&bfd_openr) openr;
	__typeof__(&bfd_check_format) check_format;
	__typeof__(&bfd_close) close;
	__typeof__(&bfd_get_error) get_error;
	__typeof__(&bfd_errmsg) errmsg;
	__typeof__(&bfd_demangle) demangle;
	__typeof__(&bfd_printable_arch_mach) printable_arch_mach;
	__typeof__(&bfd_set_error_program_name) set_error_program_name;
	__typeof__(&bfd_set_error_handler) set_error_handler;
	__typeof__(&bfd_set_assert_handler) set_assert_handler;
};

/* What the disassembler takes from libopcodes, typed from dis-asm.h. */
struct opcodes_api {
	__typeof__(&disassembler) disassembler;
	__typeof__(&init_disassemble_info) init_disassemble_info;
	__typeof__(&disassemble_init_for_target) disassemble_init_for_target;
	__typeof__(&disassemble_free_target) disassemble_free_target;
	__typeof__(&buffer_read_memory) buffer_read_memory;
};

/* The library's entry points, loaded on the first call; NULL after
 * saying (once) why it cannot be loaded. */
const struct bfd_api *libbfd_load(void);
const struct opcodes_api *opcodes_load(void);

#endif
