/*
 * libopcodes, driven the way objdump drives it: one disassemble_info over
 * a buffer of the function's bytes, our own fprintf callbacks collecting
 * each instruction's text, and objdump's way of printing an address
 * ("1139 <square>", "11b5 <fib+0x2a>": hex without leading zeros, then
 * the nearest symbol at or below it in the same section).
 *
 * Which instructions are calls and jumps: libopcodes says so for the
 * architectures that fill insn_type; x86's decoder (binutils 2.40) does
 * not, so there the mnemonic decides. The target of a direct call or
 * jump is the address the decoder prints as an operand; an address it
 * prints after the comment start ("# 4010 <x>", a %rip-relative operand)
 * is data, not a target.
 */
#define PACKAGE "cganalyze"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <dis-asm.h>
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "disasm.h"
#include "binutils_load.h"
#include "symtab_int.h"

/* What the callbacks write into while one instruction is decoded. */
struct dis_state {
	const struct symtab *st;
	bool demangle;
	char buf[4096];		/* the instruction's text (C++ names are long) */
	size_t len;
	bool in_comment;	/* past the decoder's comment start */
	bool has_target;
	uint64_t target;
	bool memory_error;
};

static void state_vappend(struct dis_state *s, const char *fmt, va_list ap)
	CGA_PRINTF(2, 0);

static void state_vappend(struct dis_state *s, const char *fmt, va_list ap)
{
	size_t room = sizeof(s->buf) - s->len;
	int n = vsnprintf(s->buf + s->len, room, fmt, ap);

	if (n > 0)
		s->len += (size_t)n < room ? (size_t)n : room - 1;
}

static void state_append(struct dis_state *s, const char *fmt, ...)
	CGA_PRINTF(2, 3);

static void state_append(struct dis_state *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	state_vappend(s, fmt, ap);
	va_end(ap);
}

/* libopcodes' printf-like callbacks: its formats, checked as printf's */
static int dis_fprintf(void *stream, const char *fmt, ...) CGA_PRINTF(2, 3);
static int dis_fprintf_styled(void *stream, enum disassembler_style style,
			      const char *fmt, ...) CGA_PRINTF(3, 4);

static int dis_fprintf(void *stream, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	state_vappend(stream, fmt, ap);
	va_end(ap);
	return 0;
}

static int dis_fprintf_styled(void *stream, enum disassembler_style style,
			      const char *fmt, ...)
{
	struct dis_state *s = stream;
	va_list ap;

	if (style == dis_style_comment_start)
		s->in_comment = true;
	va_start(ap, fmt);
	state_vappend(s, fmt, ap);
	va_end(ap);
	return 0;
}

/*
 * The symbol objdump names addr after: the last one starting at or below
 * it in the same section, whatever its size (a jump into padding past a
 * function's end is still "<func+0x..>"). NULL when there is none.
 */
static const struct sym *nearest_sym(const struct symtab *st, uint64_t addr)
{
	size_t k = count_at_or_below(st->syms, st->nsyms, sizeof(*st->syms),
				     addr);
	const struct sec *at, *sec;

	if (!k)
		return NULL;
	at = secs_lookup(st->priv, addr);
	sec = secs_lookup(st->priv, st->syms[k - 1].addr);
	if (at != sec)
		return NULL;
	return &st->syms[k - 1];
}

void disasm_format_addr(const struct symtab *st, uint64_t addr,
			bool demangle, char *buf, size_t size)
{
	const struct sym *sym = nearest_sym(st, addr);
	int n = snprintf(buf, size, "%llx", (unsigned long long)addr);

	if (!sym || n < 0 || (size_t)n >= size)
		return;
	if (addr > sym->addr)
		snprintf(buf + n, size - (size_t)n, " <%s+0x%llx>",
			 names_str(st->names, demangle ? sym->name : sym->raw),
			 (unsigned long long)(addr - sym->addr));
	else
		snprintf(buf + n, size - (size_t)n, " <%s>",
			 names_str(st->names, demangle ? sym->name : sym->raw));
}

static void dis_print_address(bfd_vma vma, struct disassemble_info *info)
{
	struct dis_state *s = info->stream;
	char text[sizeof(s->buf)];

	if (!s->in_comment && !s->has_target) {
		s->has_target = true;
		s->target = vma;
	}
	disasm_format_addr(s->st, vma, s->demangle, text, sizeof(text));
	state_append(s, "%s", text);
}

static void dis_memory_error(int status, bfd_vma addr,
			     struct disassemble_info *info)
{
	struct dis_state *s = info->stream;

	(void)status;
	(void)addr;
	s->memory_error = true;
}

/* libopcodes' architecture for the binary's ELF machine and class. */
static int pick_arch(const struct symtab *st, enum bfd_architecture *arch,
		     unsigned long *mach)
{
	switch (st->machine) {
	case EM_X86_64:
		*arch = bfd_arch_i386;
		*mach = st->elf_class == ELFCLASS32 ? bfd_mach_x64_32
						    : bfd_mach_x86_64;
		return 0;
	case EM_386:
		*arch = bfd_arch_i386;
		*mach = bfd_mach_i386_i386;
		return 0;
	case EM_AARCH64:
		*arch = bfd_arch_aarch64;
		*mach = bfd_mach_aarch64;
		return 0;
	default:
		return error("%s: cannot disassemble code for ELF machine %u "
			     "(x86-64, i386 and AArch64 are known)",
			     st->path, st->machine);
	}
}

static bool is_prefix(const char *w, size_t n)
{
	static const char *const prefixes[] = {
		"bnd", "notrack", "rep", "repz", "repe", "repnz", "repne",
		"lock", "data16", "data32", "addr16", "addr32", "cs", "ds",
		"es", "ss", "fs", "gs", "xacquire", "xrelease",
	};

	if (n >= 3 && !strncmp(w, "rex", 3))
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++)
		if (strlen(prefixes[i]) == n && !strncmp(w, prefixes[i], n))
			return true;
	return false;
}

static bool starts(const char *w, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);

	return n >= pl && !strncmp(w, prefix, pl);
}

/* An x86 instruction's kind from its mnemonic, prefixes skipped. */
static enum insn_kind x86_kind(const char *text)
{
	const char *w = text;

	for (;;) {
		size_t n;

		while (*w == ' ')
			w++;
		n = strcspn(w, " ");
		if (!n)
			return INSN_OTHER;
		if (is_prefix(w, n)) {
			w += n;
			continue;
		}
		if (!strncmp(w, "(bad)", n))
			return INSN_BAD;
		if (starts(w, n, "call") || starts(w, n, "lcall"))
			return INSN_CALL;
		if (starts(w, n, "jmp") || starts(w, n, "ljmp"))
			return INSN_JUMP;
		if (w[0] == 'j' || starts(w, n, "loop"))
			return INSN_CJUMP;
		if (starts(w, n, "ret") || starts(w, n, "lret") ||
		    starts(w, n, "iret"))
			return INSN_RET;
		return INSN_OTHER;
	}
}

static enum insn_kind kind_from_info(const struct disassemble_info *info,
				     bool x86, const char *text)
{
	if (x86 || !info->insn_info_valid)
		return x86 ? x86_kind(text) : INSN_OTHER;
	switch (info->insn_type) {
	case dis_noninsn:
		return INSN_BAD;
	case dis_branch:
		return INSN_JUMP;
	case dis_condbranch:
		return INSN_CJUMP;
	case dis_jsr:
	case dis_condjsr:
		return INSN_CALL;
	case dis_nonbranch:
	case dis_dref:
	case dis_dref2:
	default:
		return INSN_OTHER;
	}
}

static void add_insn(struct disasm *d, const struct insn *in,
		     const char *text, size_t len)
{
	struct insn *slot;

	ARRAY_GROW(d->insns, d->ninsns + 1, d->insns_alloc);
	ARRAY_GROW(d->text, d->text_len + len + 1, d->text_alloc);
	slot = &d->insns[d->ninsns++];
	*slot = *in;
	slot->text = (uint32_t)d->text_len;
	memcpy(d->text + d->text_len, text, len);
	d->text[d->text_len + len] = '\0';
	d->text_len += len + 1;
}

int disasm_range(const struct symtab *st, uint64_t start, uint64_t end,
		 bool demangle, struct disasm *d)
{
	enum bfd_architecture arch = bfd_arch_unknown;
	unsigned long mach = 0;
	const struct opcodes_api *op;
	disassembler_ftype decode;
	struct disassemble_info info;
	struct dis_state s;
	unsigned char *bytes;
	size_t got, size;
	uint64_t pc;

	if (end <= start)
		return 0;
	if (end - start > DISASM_MAX_BYTES)
		return error("%s: [0x%llx, 0x%llx) is %llu bytes, more than the "
			     "%u a function is disassembled to",
			     st->path, (unsigned long long)start,
			     (unsigned long long)end,
			     (unsigned long long)(end - start),
			     DISASM_MAX_BYTES);
	if (pick_arch(st, &arch, &mach) < 0)
		return -1;
	if (!(op = opcodes_load()))
		return -1;
	decode = op->disassembler(arch, st->big_endian, mach, NULL);
	if (!decode) {
		const struct bfd_api *b = libbfd_load();

		return error("%s: this libopcodes cannot disassemble %s code",
			     st->path, b ? b->printable_arch_mach(arch, mach)
				      : "this machine's");
	}
	size = (size_t)(end - start);
	bytes = xmalloc(size);
	if (symtab_read_bytes(st, start, size, bytes, &got) < 0) {
		free(bytes);
		return -1;
	}
	if (got < size) {
		free(bytes);
		return error("%s: [0x%llx, 0x%llx) is not all in the file's "
			     "loaded segments (%zu of %zu bytes are)", st->path,
			     (unsigned long long)start, (unsigned long long)end,
			     got, size);
	}

	memset(&s, 0, sizeof(s));
	s.st = st;
	s.demangle = demangle;
	op->init_disassemble_info(&info, &s, dis_fprintf, dis_fprintf_styled);
	info.arch = arch;
	info.mach = mach;
	info.endian = st->big_endian ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	info.read_memory_func = op->buffer_read_memory;
	info.memory_error_func = dis_memory_error;
	info.print_address_func = dis_print_address;
	info.buffer = bytes;
	info.buffer_vma = start;
	info.buffer_length = size;
	op->disassemble_init_for_target(&info);

	for (pc = start; pc < end;) {
		struct insn in = { .addr = pc };
		int n;

		s.len = 0;
		s.buf[0] = '\0';
		s.in_comment = s.has_target = s.memory_error = false;
		info.insn_info_valid = 0;
		n = decode(pc, &info);
		/* trailing blanks: objdump 2.40 prints none after "ret" */
		while (s.len && (s.buf[s.len - 1] == ' ' ||
				 s.buf[s.len - 1] == '\t'))
			s.len--;
		if (n <= 0 || s.memory_error || (uint64_t)n > end - pc) {
			/* an instruction running past the end of the range:
			 * what is left is no instruction of this function */
			in.len = (uint32_t)(end - pc);
			in.kind = INSN_BAD;
			add_insn(d, &in, "(bad)", 5);
			break;
		}
		in.len = (uint32_t)n;
		s.buf[s.len] = '\0';
		in.kind = (uint8_t)kind_from_info(&info, arch == bfd_arch_i386,
						  s.buf);
		/* undecodable bytes: "(bad)", or a directive such as ".byte
		 * 0x7e" for an instruction cut off by the range's end */
		if (!strncmp(s.buf, "(bad)", 5) || s.buf[0] == '.')
			in.kind = INSN_BAD;
		if (in.kind == INSN_CALL || in.kind == INSN_JUMP ||
		    in.kind == INSN_CJUMP) {
			in.has_target = s.has_target;
			in.target = s.target;
		}
		add_insn(d, &in, s.buf, s.len);
		pc += (uint64_t)n;
	}
	op->disassemble_free_target(&info);
	free(bytes);
	return 0;
}

void disasm_release(struct disasm *d)
{
	free(d->insns);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

const struct insn *disasm_find(const struct disasm *d, uint64_t addr)
{
	size_t k = count_at_or_below(d->insns, d->ninsns, sizeof(*d->insns),
				     addr);

	if (!k || d->insns[k - 1].addr != addr)
		return NULL;
	return &d->insns[k - 1];
}
