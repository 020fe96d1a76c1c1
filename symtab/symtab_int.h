/*
 * What the symtab/ files share with each other and with their tests, but
 * not with the rest of the program: the raw inputs of the sorted tables
 * (so tests can build them in memory), the private lookup indexes, and
 * the entry points of each reader.
 *
 *   elf.c        ELF header, segments, sections, build-id, debuglink,
 *                .symtab/.dynsym -> raw_sym[] and fsym[]
 *   plt.c        the @plt stubs (plt_elf.c's, else libbfd's) -> raw_sym[]
 *   plt_elf.c    x86-64 PLT stubs read from the ELF as libbfd names them
 *   bfd_diag.c   libbfd's messages -> our warnings
 *   demangle.c   libbfd's demangler
 *   debugfile.c  the separate debug file, found the way gdb finds it
 *   dwarf.c      libdwarf: line rows and function ranges of every CU
 *   dwarf_attr.c   its attribute readers
 *   dwarf_split.c  -gsplit-dwarf: the .dwo or .dwp of a skeleton unit
 *   split_ranges.c  a split unit's addresses and range lists, by hand
 *   dwo_types.c    a .dwo with a section per type unit, made readable
 *   lines.c      line rows -> sorted lines[], symtab_line()
 *   frames.c     function ranges -> flattened ranges[], symtab_frames()
 *   symtab.c     symtab_open(), raw_sym[] -> syms[], symtab_lookup()
 *   format.c     symtab_format_addr2line()
 */
#ifndef CGA_SYMTAB_INT_H
#define CGA_SYMTAB_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "base/sorted.h"
#include "symtab.h"

#define NO_IDX UINT32_MAX	/* "none" for the uint32_t indexes below */

/* Bounds on what hostile input can make us allocate or walk. */
#define MAX_DIE_DEPTH 4096	/* nesting of DWARF DIEs we descend into */
#define MAX_ORIGIN_DEPTH 100	/* abstract_origin/specification chains,
				 * as bfd's find_abstract_instance */

/* A symbol as its table has it, before sorting and de-duplication. */
struct raw_sym {
	uint64_t addr, size;	/* size 0: unknown */
	uint64_t limit;		/* end of its section: a guessed end stops
				 * there */
	name_id name;		/* demangled when asked, else raw */
	name_id raw;
	uint32_t order;		/* position in its table: last tie-break */
	uint8_t kind;		/* enum sym_kind */
	uint8_t bind;		/* STB_LOCAL, STB_GLOBAL, STB_WEAK, ... */
};

/* A growable raw_sym array. */
struct raw_syms {
	struct raw_sym *v;
	size_t nr, alloc;
};

/*
 * One piece of the address space symtab_lookup() answers with one
 * symbol: [addr, next span's addr) belongs to syms[sym], or to nothing
 * when sym is NO_IDX.
 */
struct sym_span {
	uint64_t addr;
	uint32_t sym;
};

/*
 * A symbol as bfd's _bfd_elf_find_function() sees it, for the frames of
 * addresses DWARF does not name: function-like (not an object, file,
 * section or TLS symbol), in a section, size 0 counting as 1. Only the
 * one bfd would pick is kept per (section, address): the largest, then
 * the first in the table.
 */
struct fsym {
	uint64_t addr;
	uint64_t size;
	uint32_t sec;		/* section header index, in the binary */
	uint32_t order;
	name_id name;		/* demangled when asked */
	name_id file;		/* the STT_FILE bfd names with it, NO_NAME */
};

struct fsyms {
	struct fsym *v;
	size_t nr, alloc;
};

/*
 * A symbol at exactly an address of a data section, as addr2line's
 * bfd finds one there to look up a DWARF variable by (the global first
 * in the table, else the last other one). From the binary's own table,
 * as addr2line reads it: .symtab, else .dynsym.
 */
struct xsym {
	uint64_t addr;
	uint32_t sec;
	uint32_t order;
	name_id raw;
	bool global;
};

struct xsyms {
	struct xsym *v;
	size_t nr, alloc;
};

/* An allocated section of the binary (SHF_ALLOC), in header order. */
struct sec {
	uint64_t addr, end;
	uint32_t index;		/* section header index */
	name_id name;
	bool code;		/* SHF_EXECINSTR */
};

/*
 * A DWARF function: a subprogram (or entry point) or one inlined copy of
 * a function (an inlined subroutine).
 */
struct dfunc {
	name_id name;		/* linkage name, else DW_AT_name; NO_NAME */
	name_id dwarf_name;	/* name before settle_names() gave it the
				 * ELF symbol's (tests compare with it) */
	uint32_t caller;	/* inlined: the function it was inlined
				 * into; NO_IDX for subprograms */
	name_id call_file;	/* inlined: DW_AT_call_file; NO_NAME */
	uint32_t call_line;	/* inlined: DW_AT_call_line; 0 */
	uint32_t call_discriminator;
	uint64_t low;		/* start of its first range as DWARF lists
				 * them (bfd merges touching ranges first,
				 * so main with main.cold starts at .cold) */
	bool has_low;		/* it has ranges (callers may have none) */
	bool is_linkage;	/* the name is final: a linkage name, any name
				 * in a C-like CU, or the ELF symbol's */
	bool inlined;
};

/* A DWARF variable at a fixed address (DW_OP_addr), with where it is
 * declared: addr2line's answer for its symbol's address. */
struct dvar {
	uint64_t addr;
	uint32_t order;		/* DIE order: the first match wins */
	name_id name;		/* as DWARF has it, not demangled */
	name_id file;		/* NO_NAME: bfd skips the variable */
	uint32_t line;
};

/* [low, high) of dfuncs[func], as one of its DWARF ranges. */
struct dpiece {
	uint64_t low, high;
	uint64_t die;		/* its DIE's offset: later DIEs win ties */
	uint32_t func;
};

/*
 * The flattened DWARF frames: [addr, next range's addr) has funcs[func]
 * as its innermost function, or no function when func is NO_IDX.
 */
/*
 * How many of the n entries of base[] (each `size` bytes, sorted by a
 * leading uint64_t address) start at or below addr: the entry covering
 * addr is the one before that count, if any. One binary search shared by
 * the symbol, line and frame lookups.
 */
static inline size_t count_at_or_below(const void *base, size_t n,
				       size_t size, uint64_t addr)
{
	return sorted_upto(base, n, size, 0, addr);
}

struct symtab_range {
	uint64_t addr;
	uint32_t func;
};

struct symtab_priv {
	struct sym_span *spans;	/* syms[] by address, overlaps resolved */
	size_t nspans;
	bool no_spans;		/* syms[] disjoint: searched instead */
	/* name_id -> index in syms[], every name of each (aliases too):
	 * made from named[] at the first symtab_find() (a perf.data's
	 * objects are looked up by address only, and hashing the names of
	 * every symbol of cc1, libc and the rest took a fifth of loading
	 * them), then named[] is freed */
	struct u64map by_name;
	struct sym_named { name_id name; uint32_t sym; } *named;
	size_t nnamed, named_alloc;
	struct fsym *fsyms;	/* sorted by (sec, addr) */
	size_t nfsyms;
	struct sec *secs;
	size_t nsecs;
	struct dfunc *funcs;
	size_t nfuncs;
	struct xsym *xsyms;	/* sorted by (sec, addr): bfd's pick only */
	size_t nxsyms;
	struct dvar *vars;	/* sorted by (addr, order) */
	size_t nvars;
	struct lines_ahead *lines_ahead;	/* symtab_prepare_lines()' */
};

/* What dwarf_read() collects, before sorting. */
struct dwarf_data {
	struct line_entry *rows;	/* every CU's rows in table order; each
					 * sequence ends with end_sequence */
	size_t nrows, rows_alloc;
	struct dfunc *funcs;
	size_t nfuncs, funcs_alloc;
	struct dpiece *pieces;
	size_t npieces, pieces_alloc;
	struct dvar *vars;
	size_t nvars, vars_alloc;
};

/* --- elf_zstd.c --- */

/*
 * A copy of the ELF file fd (path names it) in memory with each of its
 * zstd-compressed sections decompressed, into *copy (a memfd, the
 * caller's to close): 1. 0 and *copy -1 when it has none; -1 after
 * reporting (a section that does not decompress, claims too much).
 */
int elf_zstd_inflate(int fd, const char *path, int *copy);

/* --- elf.c --- */

struct elf_file;

/* Open path as ELF; -1 after reporting (cannot open, not ELF, truncated). */
int elf_file_open(struct elf_file **ef, const char *path);
/* The same for an open file fd (owned by ef from then on, closed on
 * failure too), path naming it in messages. */
int elf_file_open_fd(struct elf_file **ef, const char *path, int fd);
/* Whether a section is compressed with zstd (ELFCOMPRESS_ZSTD), which
 * libelf and libdwarf here do not read (elf_zstd.c does). */
bool elf_has_zstd_section(struct elf_file *ef);
void elf_file_close(struct elf_file *ef);

/* The binary's header, PT_LOAD segments, build-id and SHF_ALLOC sections
 * into st and priv. */
int elf_read_target(struct elf_file *ef, struct symtab *st,
		    struct symtab_priv *priv);

/* .gnu_debuglink: the name (malloc'd) and CRC; 0 and NULL when absent. */
int elf_read_debuglink(struct elf_file *ef, char **name, uint32_t *crc);

/* The build-id note into id[64]; its length, 0 when there is none. */
size_t elf_read_build_id(struct elf_file *ef, uint8_t id[64]);

/* The same for the file at path, opened quietly: 0 when it has none or
 * is no readable ELF file (a candidate debug file). */
size_t elf_path_build_id(const char *path, uint8_t id[64]);

/* The contents of the named section (decompressed), or false when the
 * file has none or it cannot be read. They live as long as ef. */
bool elf_section_bytes(struct elf_file *ef, const char *name,
		       const unsigned char **data, size_t *size);

/* The address the named section is loaded at (sh_addr); false when
 * the file has no such section. */
bool elf_section_vaddr(struct elf_file *ef, const char *name, uint64_t *addr);

bool elf_has_symtab(struct elf_file *ef);
/* The entries of .symtab (dynamic false) or .dynsym (true), the null
 * one too; 0 when there is no such table. */
size_t elf_symbol_count(struct elf_file *ef, bool dynamic);
bool elf_has_dwarf(struct elf_file *ef);
bool elf_code_is_nobits(struct elf_file *ef);

/* The name of a DWARF section (.debug_*, .zdebug_*) that has a size but
 * no contents in the file (SHT_NOBITS), or NULL when there is none. */
const char *elf_empty_dwarf_section(struct elf_file *ef);
int elf_fd(struct elf_file *ef);
bool elf_big_endian(struct elf_file *ef);
const char *elf_path(struct elf_file *ef);

/*
 * Symbols of .symtab (dynamic false) or .dynsym (true) into raw, fsyms
 * and xsyms (each may be NULL). secs/nsecs are the binary's sections:
 * symbols of another file (a debug file) are mapped onto them by section
 * name and address.
 */
struct sym_out {
	struct raw_syms *raw;
	struct fsyms *fsyms;
	struct xsyms *xsyms;
	/* set when an undefined symbol is -pg's profiling hook (NULL: not
	 * looked at) */
	bool *calls_mcount;
};

/*
 * When elf_read_symbols() demangles: never, each name as read, or
 * (names_later) only the names that demangle to one word, as read: the
 * rest is symtab_name()'s.
 */
enum demangle_when { DEMANGLE_NONE, DEMANGLE_NOW, DEMANGLE_WORDS };

int elf_read_symbols(struct elf_file *ef, bool dynamic, struct names *names,
		     enum demangle_when demangle, const struct sec *secs,
		     size_t nsecs, const struct sym_out *out);

/* cfi_funcs.c: the [lo, hi) of each function .eh_frame describes, in
 * its order, malloc'd in *out; how many. */
struct cfi_range {
	uint64_t lo, hi;
};
size_t cfi_funcs_read(struct elf_file *ef, unsigned addr_size, bool big,
		      struct cfi_range **out);

/* --- plt.c, plt_elf.c --- */

/* A PLT stub as bfd_get_synthetic_symtab() names it ("printf@plt",
 * "*ABS*+0x9c6a0@plt"), and the code symbols that name an IRELATIVE
 * stub's target (plt.c). */
struct plt_stub {
	uint64_t addr, limit;	/* limit: the end of its section */
	char *name;
};
struct plt_code {
	uint64_t value;
	char *name;		/* as its table has it, maybe "@@VERSION" */
	bool global;
};
struct plt_stubs {
	struct plt_stub *v;
	size_t nr, alloc;
	struct plt_code *code;	/* by value; read only when a stub is
				 * "*ABS*+0x" */
	size_t ncode, code_alloc;
	/* every name of v and code (zeroed: empty): the bench
	 * recording's 11,000 stubs were each a malloc() and a free() of
	 * their own, and again in plt_read() */
	struct arena names;
};

/* plt_elf.c: the x86-64 stubs of the ELF file open on fd, as libbfd
 * 2.40 lists them; -1 (out empty) when the layout is not one we know:
 * ask libbfd. */
int plt_elf_read(int fd, struct plt_stubs *out);
void plt_stubs_free(struct plt_stubs *p);
int plt_code_cmp(const void *a, const void *b);	/* by value, for qsort */

/* plt.c: the same from libbfd; false when libbfd cannot be loaded or
 * the file not read (warned). */
bool plt_bfd_read(const char *path, struct plt_stubs *out);

/* The name a stub gets: an IRELATIVE one's after the function at its
 * target, "mempcpy@plt"; malloc'd. */
char *plt_stub_name(const struct plt_stubs *p, size_t i);
/* The same, in *tmp when it is not the stub's own name (*tmp then
 * malloc'd, else NULL), its length in *len. */
const char *plt_stub_name_len(const struct plt_stubs *p, size_t i,
			      size_t *len, char **tmp);

/* The stubs of bin, from plt_elf_read(), else libbfd, into raw with
 * order numbers from first_order on. Problems are warnings. */
void plt_read(struct elf_file *bin, struct names *names, bool demangle,
	      uint32_t first_order, struct raw_syms *raw);

/* --- bfd_diag.c --- */

/*
 * Between begin and end, libbfd's messages are warnings about path: the
 * first one said, the others counted in one line at end. Outside, they
 * are warnings too, never "BFD: ..." on stderr.
 */
void bfd_diag_begin(const char *path);
void bfd_diag_end(void);

/* Around bfd_check_format(), which prints some messages itself. */
void bfd_diag_capture_begin(void);
void bfd_diag_capture_end(void);

/* A bfd message (format with %pA, %pB, numbered arguments) into buf,
 * cut to size; the format itself when it cannot be printed safely. */
void bfd_format_message(char *buf, size_t size, const char *fmt, va_list ap);

/* --- demangle.c --- */

/* The demangled name of raw, interned; raw itself when it is not a
 * mangled name. As `addr2line -C` does it: C++ with parameters, Rust. */
name_id demangle_name(struct names *names, name_id raw);

/* The demangled text of name (malloc'd), NULL when name is not a
 * mangled name: demangle_name() without the interning, which reads
 * nothing but name (libbfd's demangler keeps no state between calls). */
char *demangle_text(const char *name);

/*
 * Whether name is a mangling whose demangled name may be one word, as a
 * kernel symbol's is: "_Z" or "_ZL" and a source name alone
 * ("_ZL7counter", a static variable: "counter"; "_ZL8foo.cold"). Every
 * other demangled name holds "(", ":", "@" or a space, or is the name
 * itself (not a mangling bfd_demangle() takes).
 */
bool demangles_to_word(const char *name);

/* The same, remembered in cache (raw -> demangled): inlined copies of
 * one function share its name, and demangling C++ is not cheap. */
name_id demangle_cached(struct u64map *cache, struct names *names,
			name_id raw);

/* --- debugfile.c --- */

/*
 * The separate debug file for the binary at path, or NULL (malloc'd):
 * <debug_dir>/.build-id/xx/yyyy.debug with a matching build-id first,
 * then the debuglink name in the binary's directory, its .debug/ and
 * <debug_dir>/<binary's directory>/, with a matching CRC, as gdb does.
 */
char *debugfile_find(const char *path, const char *debug_dir,
		     const uint8_t *build_id, size_t build_id_len,
		     const char *debuglink, uint32_t crc);

/* CRC-32 of a whole file as .gnu_debuglink has it; -1 after reporting. */
int debugfile_crc(const char *path, uint32_t *crc);

/* --- dwo_types.c --- */

/*
 * For a .dwo whose type units are each in a section of their own (g++
 * -fdebug-types-section), which libdwarf refuses: a copy (*copy, a memfd)
 * with those sections unnamed. 1 with the copy; 0 when there is nothing
 * to unname or the file cannot be read; -1 never (a failed copy is a
 * warning and 0).
 */
int dwo_types_copy(int fd, const char *path, int *copy);

/* --- dwarf.c --- */

/*
 * Every CU's line rows and function ranges of the ELF file at fd (named
 * path in messages); prog is the program it is the debug file of (or
 * NULL: itself), beside which -gsplit-dwarf's .dwo and .dwp files are
 * looked for (dwarf_split.c). With want: the line rows alone (no
 * functions, variables or split units' DIEs) of the units whose
 * .debug_aranges hold one of want[0..nwant) (sorted addresses), or of
 * every unit when the file has no .debug_aranges. Returns 0; 1 when the
 * file has no DWARF; -1 when libdwarf cannot read it at all (reported
 * as a warning: the caller goes on with symbols only). A corrupt CU is
 * skipped with a warning.
 */
int dwarf_read(struct elf_file *ef, const char *prog, struct names *names,
	       bool demangle, bool big_endian, const uint64_t *want,
	       size_t nwant, struct dwarf_data *out);
void dwarf_data_release(struct dwarf_data *d);

/*
 * Check what libdwarf 20210528 does not check well enough before it
 * trusts it (a corrupt .debug_rnglists table header makes it free memory
 * twice). -1 after a warning naming the file: do not hand it to libdwarf.
 */
int dwarf_precheck(struct elf_file *ef);

/*
 * Whether the range list at off of .debug_rnglists (rnglists, size
 * bytes) indexes .debug_addr (DW_RLE_*x kinds) in a file that has none
 * (have_addr false), or runs off the section: libdwarf 20210528 loses an
 * error it makes for that (tests/fuzz/regress/
 * libdwarf-rle-head-error-leak).
 */
bool dwarf_rnglist_unreadable(const unsigned char *rnglists, size_t size,
			      bool have_addr, unsigned addr_size, uint64_t off);

/* --- lines.c --- */

/* Sort and trim rows into st->lines the way bfd's line tables resolve
 * overlaps; takes the rows (st->lines may be the same array). */
void lines_build(struct symtab *st, struct line_entry *rows, size_t nrows);

/* --- frames.c --- */

/*
 * Flatten the pieces into st->ranges; take funcs into priv and settle
 * the names that are not final: a function that an ELF symbol starts
 * (a clone, C++ main) takes that symbol's name, as addr2line names it
 * once it has looked it up. priv->secs and fsyms must be loaded.
 */
void ranges_build(struct symtab *st, struct dwarf_data *d);

/* Sort the variables into priv; takes them from d. */
void vars_build(struct symtab_priv *priv, struct dwarf_data *d);

/* The fsym bfd would name addr with (in section sec), or NULL. */
const struct fsym *fsyms_lookup(const struct symtab_priv *priv, uint32_t sec,
				uint64_t addr);

/*
 * Where addr2line names frame #0 of addr differently the first time it
 * meets a function than afterwards (bfd's _bfd_dwarf2_find_nearest_line
 * takes the ELF symbol's name for a function without a linkage name on
 * the first look-up even when the symbol is another function): the name
 * it gives the first time, or NO_NAME when there is no such difference.
 * For the tests, which compare with addr2line.
 */
name_id frames_first_lookup_name(const struct symtab *st, uint64_t addr);

/* The index in priv->funcs of the function of frame k (0: innermost) at
 * addr, or NO_IDX (for the tests: addr2line's naming is per function). */
uint32_t frames_func_at(const struct symtab *st, uint64_t addr, size_t k);

/* The allocated section holding addr, first in header order, or NULL. */
const struct sec *secs_lookup(const struct symtab_priv *priv, uint64_t addr);

/* --- symtab.c --- */

/*
 * Build st->syms (sorted, de-duplicated, ends filled) and the lookup
 * index from raw, read in sorted order (not changed). st->names must be set and
 * st->priv allocated. The test suite calls this with symbols made up in
 * memory.
 */
void symtab_build_syms(struct symtab *st, const struct raw_sym *raw,
		       size_t n);

/* Sort fsyms by (section, address) and keep bfd's pick per address;
 * those below their section's start are dropped (bfd's section-relative
 * value wraps around and never matches). */
void symtab_build_fsyms(struct symtab_priv *priv, struct fsym *v, size_t n);

/* The same for xsyms: the first global per address, else the last. */
void symtab_build_xsyms(struct symtab_priv *priv, struct xsym *v, size_t n);

/* An empty symtab with st->priv allocated (for symtab_open and tests). */
void symtab_init(struct symtab *st, struct names *names);

#endif
