/*
 * Machine code to instructions, with libopcodes (the disassembler objdump
 * uses): each instruction's address, length and text as `objdump -d`
 * prints it (AT&T syntax on x86), and for a call or a jump its kind and
 * direct target. One job: bytes in, instruction list out; costs are the
 * printers' business.
 */
#ifndef CGA_DISASM_H
#define CGA_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symtab.h"

/* Longest range disassembled at once: a symbol size is untrusted input,
 * and no real function is this long. */
#define DISASM_MAX_BYTES (16u << 20)

enum insn_kind {
	INSN_OTHER,
	INSN_CALL,
	INSN_JUMP,		/* unconditional */
	INSN_CJUMP,		/* conditional (jcc, loop, jrcxz) */
	INSN_RET,
	INSN_BAD,		/* bytes that decode to no instruction */
};

struct insn {
	uint64_t addr;		/* link-time */
	uint32_t len;		/* bytes */
	uint32_t text;		/* offset of its NUL-terminated text in d->text */
	uint64_t target;	/* where a direct call or jump goes */
	bool has_target;	/* false for indirect ones and the rest */
	uint8_t kind;		/* enum insn_kind */
};

struct disasm {
	struct insn *insns;
	size_t ninsns, insns_alloc;
	char *text;
	size_t text_len, text_alloc;
};

/*
 * Disassemble st's code in [start, end) into d (which the caller zeroed
 * or released). Addresses in the text are named as objdump names them,
 * "1139 <square>" or "11b5 <fib+0x2a>", with demangled names when
 * demangle is set (objdump -C). Returns 0, or -1 after reporting: a
 * machine libopcodes cannot disassemble, a range outside the binary's
 * file-backed segments, or one longer than DISASM_MAX_BYTES.
 */
int disasm_range(const struct symtab *st, uint64_t start, uint64_t end,
		 bool demangle, struct disasm *d);
void disasm_release(struct disasm *d);

static inline const char *insn_text(const struct disasm *d,
				    const struct insn *i)
{
	return d->text + i->text;
}

/*
 * addr as objdump names it in an instruction ("11b5 <fib+0x2a>", or the
 * bare hex when no symbol of its section is at or below it), into buf.
 */
void disasm_format_addr(const struct symtab *st, uint64_t addr,
			bool demangle, char *buf, size_t size);

/* The instruction starting at addr, or NULL (not an instruction start,
 * or outside what was disassembled). */
const struct insn *disasm_find(const struct disasm *d, uint64_t addr);

#endif
