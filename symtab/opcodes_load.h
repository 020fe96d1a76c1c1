/*
 * libopcodes, loaded when the first function is disassembled rather
 * than at every start: its relocations alone cost 130 page faults,
 * 4 to 10 ms on a paravirtualized machine, for every run, though only
 * --disasm uses it.
 */
#ifndef CGA_OPCODES_LOAD_H
#define CGA_OPCODES_LOAD_H

#include <bfd.h>
#include <dis-asm.h>

/* What the disassembler takes from it, typed from dis-asm.h. */
struct opcodes_api {
	__typeof__(&disassembler) disassembler;
	__typeof__(&init_disassemble_info) init_disassemble_info;
	__typeof__(&disassemble_init_for_target) disassemble_init_for_target;
	__typeof__(&disassemble_free_target) disassemble_free_target;
	__typeof__(&buffer_read_memory) buffer_read_memory;
};

/* The library's entry points, loaded on the first call; NULL after
 * saying why it cannot be loaded. */
const struct opcodes_api *opcodes_load(void);

#endif
