/*
 * Symbol and line resolution against a binary (ELF executable, PIE or
 * shared object, with or without DWARF, or its separate debug file).
 *
 * Everything is loaded once into sorted arrays and every lookup is a
 * binary search, the way gprof's symbol table works:
 *   syms[]    ELF symbols (.symtab, else .dynsym, plus synthetic @plt
 *             entries), sorted by address, de-duplicated (aliases: global
 *             over local, function over object), missing ends filled from
 *             the next start;
 *   lines[]   DWARF line-table rows, sorted by address;
 *   ranges    DWARF subprograms and inlined subroutines, flattened so one
 *             binary search finds the innermost frame at an address.
 * Addresses are link-time addresses (the binary's own vaddrs): callers
 * subtract any load offset first.
 *
 * Uses the base helpers (names, arena, diag) and libelf, libdwarf and
 * libbfd; never the profile or the call graph.
 */
#ifndef CGA_SYMTAB_H
#define CGA_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/names.h"

struct symtab_opts {
	const char *debug_dir;	/* global debug directory; NULL: /usr/lib/debug */
	bool demangle;		/* C++ and Rust names demangled */
	bool no_dwarf;		/* skip DWARF (symbols only: from the
				 * separate debug file when the binary is
				 * stripped) */
	/*
	 * With demangle and no_dwarf: each symbol's names made at its first
	 * symtab_name() rather than as the table is read: its demangled
	 * name, and the "prog+0xADDR" name of a function found in a
	 * stripped binary's CFI. A perf.data names a few hundred of an
	 * object's tens of thousands of symbols (libLLVM's 44,000 C++
	 * names took 0.1 s to demangle, for 105 functions sampled; cc1's
	 * 35,000 CFI functions' names 50 ms to make, for 7,000). Until
	 * then syms[].name is the raw name, or NO_NAME (name and raw) for
	 * a CFI function, and symtab_find() knows the raw names alone. Such
	 * a table names functions (symtab_lookup(), symtab_name()) and
	 * nothing more: without DWARF, symtab_frames() would name from
	 * addr2line's file and data symbols, which it does not make.
	 */
	bool names_later;
	/* without no_dwarf: a binary with no DWARF is not warned of here
	 * but marked (symtab.dwarf_missing), for a caller opening many
	 * (a perf.data's sampled objects) to say once, in one line */
	bool dwarf_missing_later;
};

enum sym_kind { SYM_FUNC, SYM_OBJECT, SYM_PLT, SYM_OTHER };

struct sym {
	uint64_t addr, end;	/* [addr, end) */
	name_id name;		/* demangled when opts.demangle */
	name_id raw;		/* as the symbol table has it */
	uint8_t kind;		/* enum sym_kind */
	bool is_local;		/* STB_LOCAL */
	bool end_guessed;	/* size 0 in the table: end is the next start */
	bool names_later;	/* name (and raw) made by symtab_name() */
};

/* One line-table row: [addr, next row's addr) came from file:line. A row
 * with end_sequence set only ends the previous one (no code from it). */
struct line_entry {
	uint64_t addr;
	name_id file;		/* full path as DWARF gives it (comp_dir joined) */
	uint32_t line;
	uint32_t discriminator;	/* DWARF discriminator; 0 when none */
	bool end_sequence;
};

/* A frame at an address: the function, and where in the source. */
struct frame {
	name_id func;		/* DWARF name (demangled when opts.demangle), or
				 * the ELF symbol's where DWARF has none;
				 * NO_NAME when neither knows */
	name_id file;		/* NO_NAME when unknown; for an ELF-symbol
				 * frame, the STT_FILE name bfd gives it */
	uint32_t line;		/* 0 when unknown */
	uint32_t discriminator;	/* frames[0]: the line-table row's; others:
				 * the call's DW_AT_GNU_discriminator; 0 none */
};

struct segment {		/* a PT_LOAD program header */
	uint64_t vaddr, memsz, offset, filesz;
	uint32_t flags;		/* PF_R | PF_W | PF_X */
};

struct symtab_range;		/* private: the flattened DWARF frames */
struct symtab_priv;		/* private: the other lookup indexes */

struct symtab {
	struct names *names;	/* shared with the profile: ids compare */
	char *path;		/* the binary as given */
	char *debug_path;	/* where DWARF came from, or NULL */
	uint16_t machine;	/* e_machine */
	uint8_t elf_class;	/* ELFCLASS32 or ELFCLASS64 */
	bool big_endian;
	bool is_dyn;		/* ET_DYN: PIE or shared object */
	uint8_t build_id[64];
	size_t build_id_len;	/* 0 when the binary has none */

	struct segment *segs;
	size_t nsegs;
	struct sym *syms;
	size_t nsyms;
	struct line_entry *lines;
	size_t nlines;
	bool has_symtab;	/* .symtab (else only .dynsym: stripped) */
	bool has_dwarf;
	bool dwarf_missing;	/* DWARF asked for and none found (its
				 * warning left to the caller:
				 * symtab_opts.dwarf_missing_later) */
	bool debug_only;	/* a separate debug file: .text holds no bytes */
	bool no_debug_file;	/* its separate debug file was looked for
				 * and not found (what was wrong said):
				 * symtab_load_lines() does not again */
	bool bin_dwarf;		/* the binary itself has DWARF sections */
	bool calls_mcount;	/* an undefined symbol is -pg's mcount (or
				 * _mcount, __fentry__, or gcrt1.o's
				 * __monstartup): a profiled build (one
				 * that defines it, static, is not seen
				 * here) */

	struct symtab_range *ranges;	/* private */
	size_t nranges;
	struct symtab_priv *priv;	/* private */
};

/*
 * Load path. Separate debug info is looked for the way gdb does:
 * .gnu_debuglink next to the binary, in its .debug/ and under the debug
 * directory, and by build-id under <debug_dir>/.build-id/xx/yyyy.debug.
 * Returns 0, or -1 after reporting (cannot open, not ELF, corrupt). A
 * binary without DWARF loads with a one-line warning.
 */
int symtab_open(struct symtab *st, const char *path,
		const struct symtab_opts *opts, struct names *names);
void symtab_release(struct symtab *st);

/*
 * For st opened with no_dwarf: the line rows of the compilation units
 * of its DWARF (the binary's, else its separate debug file's, looked
 * for as symtab_open() does, under debug_dir) that hold one of
 * want[0..n), sorted link-time addresses (the entries of a recording's
 * sampled functions), so symtab_line() gives their files and lines
 * without the whole DWARF's cost (libc6-dbg's: 0.2 s). DWARF 5 line
 * programs are read from .debug_line alone (line_prog.h); others, and
 * what that does not read, by libdwarf through the units' DIEs. st stays a
 * table of symbols otherwise (has_dwarf false). Returns 0, also when
 * there is no DWARF (nlines stays 0), or -1 after a warning.
 */
int symtab_load_lines(struct symtab *st, const uint64_t *want, size_t n,
		      const char *debug_dir);

/*
 * What symtab_load_lines() reads before it knows the wanted addresses,
 * made ahead (on the symbol tables' thread while a recording's records
 * are read): the debug file opened, its .debug_line and strings
 * inflated, and each DWARF 5 line program's sequences' ranges found, so
 * that symtab_load_lines() then runs only the programs it takes. True
 * when made; false when the file is not one line_prog.h reads (or has
 * zstd sections, or no DWARF), left to symtab_load_lines() whole. What
 * it says (a file that cannot be opened) is said again there: the
 * caller keeps it from the output (perf_preload.c's sink) and calls
 * symtab_forget_lines() if it said anything.
 */
bool symtab_prepare_lines(struct symtab *st, const char *debug_dir);
void symtab_forget_lines(struct symtab *st);
/* The bytes what symtab_prepare_lines() made holds (the sections
 * inflated, the index): 0 when none. */
size_t symtab_lines_ahead_size(const struct symtab *st);

/*
 * st, loaded with a names table of its own (symtab_open() on another
 * thread), takes names' ids instead: ids[k] is the id in names of its
 * table's name k (names_intern_from() gives them). Interning a table's
 * names in the order of their ids where symtab_open() would have run
 * leaves every id as that call would have made it.
 */
void symtab_rename(struct symtab *st, struct names *names, const name_id *ids);

/* The symbol whose [addr, end) holds addr, or NULL in a gap. */
const struct sym *symtab_lookup(const struct symtab *st, uint64_t addr);

/*
 * Symbol s's name (of st's syms[]), demangled (when the table was
 * opened with demangle) or raw: what s->name and s->raw hold, which
 * opts.names_later leaves to the first call here (it then interns the
 * names into st->names and keeps their ids in the symbol, so the table
 * is written through; one thread at a time).
 */
name_id symtab_name(const struct symtab *st, const struct sym *s,
		    bool demangled);

/* The symbol called name (raw or demangled), or NULL. */
const struct sym *symtab_find(const struct symtab *st, name_id name);

/* name demangled as listings show it (C++ with parameters, Rust),
 * malloc'd; NULL when it is not a mangled name. */
char *symtab_demangle(const char *name);

/* As symtab_demangle(), NULL at once for a name that does not start as
 * a mangled one does ("_Z", "_R"): libbfd is not loaded for it. */
char *symtab_demangle_mangled(const char *name);

/* The line-table row covering addr, or NULL. */
const struct line_entry *symtab_line(const struct symtab *st, uint64_t addr);

/*
 * The frames at addr as `addr2line -f -i` gives them, innermost first:
 * frames[0] is the innermost (possibly inlined) function with the file
 * and line of addr itself; each next one is the function it was inlined
 * into, with the file and line of the call. Without DWARF, one frame
 * from the ELF symbol as addr2line picks it (the closest function symbol
 * at or below addr in its section, whatever its size), with no line and
 * the file of the STT_FILE symbol before it when bfd would name one.
 * Returns the number of frames (at most max), 0 when nothing covers addr
 * (addr2line's "?? ??:0"), which includes any address in no section.
 */
size_t symtab_frames(const struct symtab *st, uint64_t addr,
		     struct frame *frames, size_t max);

/* The PT_LOAD segment holding link-time address addr, or NULL. */
const struct segment *symtab_segment(const struct symtab *st, uint64_t addr);

/*
 * Up to len bytes of the binary's contents at link-time address addr,
 * from the PT_LOAD segment holding it, into buf; *got is how many (fewer
 * at the end of the segment's file-backed part, 0 outside every segment
 * or in its zero-filled tail). Returns 0, or -1 after reporting when the
 * file cannot be opened.
 */
int symtab_read_bytes(const struct symtab *st, uint64_t addr, size_t len,
		      unsigned char *buf, size_t *got);

/*
 * Print addr and its frames to out exactly as `addr2line -f -C -i -a -p`
 * does (without -i when inlines is false): "0x<addr>: func at file:line",
 * then " (inlined by) func at file:line" per caller, or "?? ??:0".
 */
void symtab_format_addr2line(FILE *out, const struct symtab *st,
			     uint64_t addr, bool inlines);

#endif
