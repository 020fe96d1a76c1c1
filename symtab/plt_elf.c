/*
 * The x86-64 PLT stubs read from the ELF file with libelf, giving the
 * list libbfd 2.40's bfd_get_synthetic_symtab() gives (same addresses,
 * same names, same order) without loading libbfd: opening a library
 * with bfd and canonicalising its tables cost a perf.data run ~10% of
 * its CPU (doc/PERFORMANCE.md, session 21).
 *
 * bfd's way, which this follows step by step: the sections .plt,
 * .plt.got, .plt.sec and .plt.bnd, in that order, are each matched
 * against the entry layouts ld writes (lazy .plt with its PLT0, the
 * same with MPX "bnd" or IBT entries whose calls go through .plt.sec,
 * non-lazy 8-byte entries, and their bnd and IBT forms). Each entry's
 * jmp *disp(%rip) names a GOT slot; the dynamic relocation at that slot
 * (JUMP_SLOT, GLOB_DAT or IRELATIVE, in any SHT_RELA section of
 * .dynsym) names the stub: "sym@plt", "sym+0xADDEND@plt", or
 * "*ABS*+0xADDR@plt" when the relocation has no symbol. A lazy .plt
 * whose calls go through .plt.sec gives no names of its own.
 *
 * Anything else (another machine or class, a PLT section whose first
 * bytes match no layout we know, SHT_REL relocations, two relocations
 * at one slot, an entry through a TLSDESC slot, a relocation type bfd
 * 2.40 does not know, a symbol index past .dynsym, a section symbol,
 * a section of a type libbfd refuses the file for, a section link
 * past the sections, a section name past the names' table, a dynamic
 * symbol of SHN_XINDEX, symbol version tables whose chains leave their
 * section or whose names are past their string table, a .gnu.version
 * or a note section libbfd cannot read whole)
 * returns
 * -1: the caller then asks libbfd, as before. tests/test_plt_elf.c
 * compares both lists on real objects.
 */
#include <gelf.h>
#include <limits.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/xalloc.h"
#include "symtab_int.h"

enum { LAZY = 1, SECOND = 2, NON_LAZY = 4 };

/* A non-lazy entry layout: its first bytes (up to the GOT displacement,
 * the part bfd compares), its size, and where the jmp's disp32 is and
 * where its instruction ends (the displacement is from there). */
struct layout {
	const unsigned char *head;
	unsigned got_off, insn_end, size;
};

static const unsigned char jmp_got[] = { 0xff, 0x25 };
static const unsigned char bnd_jmp_got[] = { 0xf2, 0xff, 0x25 };
/* endbr64; jmp *disp(%rip): ld 2.40's IBT entry. The older form with a
 * bnd prefix (f2) before the jmp is not bfd 2.40's IBT layout: such a
 * .plt.sec is left to libbfd (match() finds no layout). */
static const unsigned char ibt_jmp_got[] = { 0xf3, 0x0f, 0x1e, 0xfa,
					     0xff, 0x25 };
static const struct layout non_lazy = { jmp_got, 2, 6, 8 };
static const struct layout non_lazy_bnd = { bnd_jmp_got, 3, 7, 8 };
static const struct layout non_lazy_ibt = { ibt_jmp_got, 6, 10, 16 };
/* the lazy entries: jmp *disp(%rip); push; jmp PLT0 */
static const struct layout lazy = { jmp_got, 2, 6, 16 };

struct rel {
	uint64_t offset, addend;
	uint32_t sym, type;
};

static int by_offset(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static const struct rel *find_rel(const struct rel *v, size_t n,
				  uint64_t offset)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].offset < offset)
			lo = mid + 1;
		else if (v[mid].offset > offset)
			hi = mid;
		else
			return &v[mid];
	}
	return NULL;
}

/* The first section named name, its header in *sh. */
static Elf_Scn *section_named(Elf *elf, size_t shstrndx, const char *name,
			      GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *s;

		if (!gelf_getshdr(scn, sh))
			continue;
		s = elf_strptr(elf, shstrndx, sh->sh_name);
		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

/* Which layout the section's bytes are, as bfd decides it: *type 0 when
 * none (bfd skips the section, we give up). */
static void match(const unsigned char *b, uint64_t size, bool first,
		  const struct layout **nl, int *type)
{
	*type = 0;
	if (first && size >= 32 && !memcmp(b, "\xff\x35", 2)) {
		if (!memcmp(b + 6, "\xff\x25", 2))
			*type = LAZY;
		else if (!memcmp(b + 6, "\xf2\xff\x25", 3))
			*type = LAZY | SECOND;
		/* bfd takes a lazy .plt whose first entry starts as an IBT
		 * one (endbr64, then a push whose first immediate byte is
		 * 0: 6 bytes, found by changing each) for the IBT layout,
		 * whose calls go through .plt.sec (fuzz_plt, session 22: 25
		 * stubs against 1) */
		if (*type == LAZY &&
		    !memcmp(b + 16, "\xf3\x0f\x1e\xfa\x68\x00", 6))
			*type = LAZY | SECOND;
	}
	if (!*type && size >= (*nl)->size &&
	    !memcmp(b, (*nl)->head, (*nl)->got_off))
		*type = NON_LAZY;
	if (!*type) {
		if (size >= 8 && !memcmp(b, bnd_jmp_got, 3))
			*nl = &non_lazy_bnd;
		else if (size >= 16 && !memcmp(b, ibt_jmp_got, 6))
			*nl = &non_lazy_ibt;
		else
			return;
		*type = SECOND;
	}
}

/* A .plt of its PLT0 alone (-z now, stubs in .plt.got only): too short
 * for bfd's lazy layout, it matches none and gives no stubs. */
static bool plt0_alone(const unsigned char *b, uint64_t size)
{
	return size == 16 && !memcmp(b, "\xff\x35", 2) &&
	       (!memcmp(b + 6, "\xff\x25", 2) ||
		!memcmp(b + 6, "\xf2\xff\x25", 3));
}

/* A stub's name "SYM[+0xADDEND]@plt", in names. */
static char *stub_name(Elf *elf, size_t strndx, const GElf_Sym *s,
		       const struct rel *r, struct arena *names)
{
	/* a name at 0 is "" to libbfd, whatever the table's first byte
	 * (fuzz_plt, session 22: .dynstr's first byte 0x1c) */
	const char *sym = !r->sym	 ? "*ABS*"
			  : !s->st_name ? ""
					 : elf_strptr(elf, strndx, s->st_name);
	char add[24];
	size_t slen, alen = 0;
	char *name;

	if (!sym || !*sym)
		return NULL;
	if (r->addend)
		alen = (size_t)snprintf(add, sizeof(add), "+0x%llx",
					(unsigned long long)r->addend);
	slen = strlen(sym);
	name = arena_alloc(names, slen + alen + sizeof("@plt"));
	memcpy(name, sym, slen);
	memcpy(name + slen, add, alen);
	memcpy(name + slen + alen, "@plt", sizeof("@plt"));
	return name;
}

struct ctx {
	Elf *elf;
	Elf_Data *dynsym;
	size_t strndx;
	struct rel *rels;
	size_t nrels;
	struct plt_stubs *out;
	/* a first pass only gathers the entries' GOT slots, sorted: the
	 * relocations of other slots (most of a big .rela.dyn) are not
	 * kept, nor sorted */
	bool gather;
	uint64_t *slots;
	size_t nslots, slots_alloc;
};

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool is_slot(const struct ctx *c, uint64_t offset)
{
	size_t lo = 0, hi = c->nslots;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->slots[mid] < offset)
			lo = mid + 1;
		else if (c->slots[mid] > offset)
			hi = mid;
		else
			return true;
	}
	return false;
}

/* The dynamic relocations (every SHT_RELA section linked to .dynsym)
 * of the entries' slots, sorted by slot; -1 when one is of a kind we
 * do not read. */
static int read_rels(struct ctx *c, size_t dynsym, size_t ndyn)
{
	Elf *elf = c->elf;
	struct rel **out = &c->rels;
	size_t *n = &c->nrels;
	Elf_Scn *scn = NULL;
	size_t alloc = 0;
	GElf_Shdr sh;
	/* the slots' range (none: first above last) */
	uint64_t first = c->nslots ? c->slots[0] : 1;
	uint64_t last = c->nslots ? c->slots[c->nslots - 1] : 0;

	*out = NULL;
	*n = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Rela r;
		uint64_t type;
		size_t nr;
		bool in_place;

		if (!gelf_getshdr(scn, &sh) || sh.sh_link != dynsym)
			continue;
		if (sh.sh_type == SHT_REL)
			return -1;
		if (sh.sh_type != SHT_RELA)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || sh.sh_entsize != sizeof(Elf64_Rela))
			return -1;
		in_place = d->d_type == ELF_T_RELA;
		nr = d->d_size / sizeof(Elf64_Rela);
		for (size_t i = 0; i < nr; i++) {
			struct rel *x;

			/* the file is ELFCLASS64 (plt_elf_read()): libelf's
			 * data an array of Elf64_Rela, read in place rather
			 * than by gelf_getrela() (libLLVM's .rela.dyn has
			 * 355,000, its slots' a few hundred of them) */
			if (in_place) {
				const Elf64_Rela *p =
					(const Elf64_Rela *)d->d_buf + i;
				uint64_t info = p->r_info;

				/* most: a known type of a symbol there,
				 * and no slot's; checked in one test (the
				 * whole entry copied took a quarter of
				 * libLLVM's PLT) */
				if ((info >> 32) <= ndyn &&
				    (uint32_t)info <= R_X86_64_REX_GOTPCRELX &&
				    p->r_offset - first > last - first)
					continue;
				memcpy(&r, p, sizeof(r));
			} else if (!gelf_getrela(d, (int)i, &r)) {
				return -1;
			}
			type = GELF_R_TYPE(r.r_info);
			/* libbfd warns about these (250, 251: the GNU
			 * vtable types it knows), and reads the type
			 * from the low byte alone */
			if (GELF_R_SYM(r.r_info) > ndyn ||
			    (type > R_X86_64_REX_GOTPCRELX &&
			     type != 250 && type != 251))
				return -1;
			/* the slots are sorted: most offsets are past
			 * their ends */
			if (r.r_offset < first || r.r_offset > last ||
			    !is_slot(c, r.r_offset))
				continue;
			ARRAY_GROW(*out, *n + 1, alloc);
			x = &(*out)[(*n)++];
			x->offset = r.r_offset;
			x->addend = (uint64_t)r.r_addend;
			x->sym = (uint32_t)GELF_R_SYM(r.r_info);
			x->type = (uint32_t)type;
		}
	}
	if (*n > 1)	/* qsort() of NULL is undefined, even for 0 */
		qsort(*out, *n, sizeof(**out), by_offset);
	for (size_t i = 1; i < *n; i++)
		if ((*out)[i].offset == (*out)[i - 1].offset)
			return -1;
	return 0;
}

/* The stubs of one section; -1 to give up. */
static int name_entries(struct ctx *c, const GElf_Shdr *sh,
			const unsigned char *b, const struct layout *l,
			bool skip_plt0)
{
	uint64_t n = sh->sh_size / l->size;

	for (uint64_t k = skip_plt0; k < n; k++) {
		uint64_t off = k * l->size;
		int32_t disp;
		uint64_t slot;
		struct rel *r;
		GElf_Sym s;
		struct plt_stub *st;
		char *name;

		memcpy(&disp, b + off + l->got_off, 4);
		slot = sh->sh_addr + off + (uint64_t)(int64_t)disp +
		       l->insn_end;
		if (c->gather) {
			ARRAY_GROW(c->slots, c->nslots + 1, c->slots_alloc);
			c->slots[c->nslots++] = slot;
			continue;
		}
		r = (struct rel *)find_rel(c->rels, c->nrels, slot);
		/* an entry jumping through a TLSDESC slot (a lazy TLS
		 * descriptor's trampoline): bfd versions differ on naming
		 * it, libbfd decides */
		if (r && r->type == R_X86_64_TLSDESC)
			return -1;
		if (!r || (r->type != R_X86_64_JUMP_SLOT &&
			   r->type != R_X86_64_GLOB_DAT &&
			   r->type != R_X86_64_IRELATIVE))
			continue;
		if (r->sym && (!gelf_getsym(c->dynsym, (int)r->sym, &s) ||
			       GELF_ST_TYPE(s.st_info) == STT_SECTION))
			return -1;
		name = stub_name(c->elf, c->strndx, &s, r, &c->out->names);
		if (!name)
			return -1;
		r->type = R_X86_64_NONE;	/* one stub per slot, as bfd */
		ARRAY_GROW(c->out->v, c->out->nr + 1, c->out->alloc);
		st = &c->out->v[c->out->nr++];
		st->addr = sh->sh_addr + off;
		st->limit = sh->sh_addr + sh->sh_size;
		st->name = name;
	}
	return 0;
}

static int read_stubs(struct ctx *c, size_t shstrndx)
{
	static const char *const names[] = { ".plt", ".plt.got", ".plt.sec",
					     ".plt.bnd" };
	const struct layout *nl = &non_lazy;

	for (size_t j = 0; j < sizeof(names) / sizeof(*names); j++) {
		GElf_Shdr sh;
		Elf_Scn *scn = section_named(c->elf, shstrndx, names[j], &sh);
		Elf_Data *d;
		int type;

		if (!scn || !sh.sh_size)
			continue;
		if (sh.sh_type != SHT_PROGBITS ||
		    (sh.sh_flags & SHF_COMPRESSED))
			return -1;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size)
			return -1;
		if (j == 0 && plt0_alone(d->d_buf, sh.sh_size))
			continue;
		match(d->d_buf, sh.sh_size, j == 0, &nl, &type);
		if (!type)
			return -1;
		if (type == (LAZY | SECOND))
			continue;
		if (name_entries(c, &sh, d->d_buf, type & LAZY ? &lazy : nl,
				 type & LAZY) < 0)
			return -1;
	}
	return 0;
}

/* The code symbols (bfd's BSF_FUNCTION or BSF_GNU_INDIRECT_FUNCTION,
 * with a binding bfd marks local, global or weak) of one table. */
static void read_code(Elf *elf, uint32_t type, struct plt_stubs *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 1; d && sh.sh_entsize &&
				   i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			int bind, t;
			const char *name;
			struct plt_code *x;

			if (!gelf_getsym(d, (int)i, &s))
				break;
			t = GELF_ST_TYPE(s.st_info);
			bind = GELF_ST_BIND(s.st_info);
			if (t != STT_FUNC && t != STT_GNU_IFUNC)
				continue;
			if (bind == STB_GLOBAL && (s.st_shndx == SHN_UNDEF ||
						   s.st_shndx == SHN_COMMON))
				continue;
			if (bind != STB_LOCAL && bind != STB_GLOBAL &&
			    bind != STB_WEAK)
				continue;
			name = s.st_name ? elf_strptr(elf, sh.sh_link,
						      s.st_name)
					 : "";
			if (!name)
				continue;
			ARRAY_GROW(out->code, out->ncode + 1, out->code_alloc);
			x = &out->code[out->ncode++];
			x->value = s.st_value;
			x->name = arena_strndup(&out->names, name,
						strlen(name));
			x->global = bind == STB_GLOBAL;
		}
		return;
	}
}

int plt_code_cmp(const void *a, const void *b)
{
	const struct plt_code *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* The program and section header tables inside the file: libbfd
 * refuses the file otherwise, libelf may read what is there. */
static bool tables_inside(Elf *elf, const GElf_Ehdr *eh)
{
	size_t size = 0, shnum;

	if (!elf_rawfile(elf, &size) || elf_getshdrnum(elf, &shnum) < 0)
		return false;
	return eh->e_phoff <= size &&
	       (size - eh->e_phoff) / sizeof(Elf64_Phdr) >= eh->e_phnum &&
	       eh->e_shoff <= size &&
	       (size - eh->e_shoff) / sizeof(Elf64_Shdr) >= shnum;
}

/*
 * Every section of a type libbfd 2.40 makes a section of: it refuses
 * the whole file for one of another type ("unknown type", or an
 * OS-specific one marked SHF_OS_NONCONFORMING, or a processor-specific
 * one x86-64's backend does not know), or for a symbol table whose
 * entries are not 24 bytes, so it gives no stubs there, and nor may
 * we. Found by fuzzing hostile copies of tests/perf/nofp and
 * libwork.so (tests/fuzz/fuzz_plt.c).
 */
static bool types_known(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	unsigned nsymtab = 0, ndynsym = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return false;
		/* a symbol table of entries not 24 bytes libbfd refuses
		 * the file for; a second of a kind, ld makes none */
		if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
		    (sh.sh_entsize != sizeof(Elf64_Sym) ||
		     (sh.sh_type == SHT_SYMTAB ? nsymtab++ : ndynsym++)))
			return false;
		/* a section group libbfd checks (entries of 4 bytes, its
		 * members) and refuses the file for when it is not one:
		 * ld links none into what it makes (fuzz_plt, session 22:
		 * .gcc_except_table typed SHT_GROUP, 26 stubs against
		 * none) */
		if (sh.sh_type == SHT_GROUP)
			return false;
		/* relocations of entries not their size: libbfd refuses
		 * the file (fuzz_plt, session 22: .gnu.version_r typed
		 * SHT_RELA, 24 stubs against none) */
		if ((sh.sh_type == SHT_RELA &&
		     sh.sh_entsize != sizeof(Elf64_Rela)) ||
		    (sh.sh_type == SHT_REL && sh.sh_entsize != sizeof(Elf64_Rel)))
			return false;
		/* and RELR relocations of entries not words (fuzz_plt,
		 * session 35: .symtab typed SHT_RELR, 26 stubs against
		 * none) */
		if (sh.sh_type == SHT_RELR && sh.sh_entsize != sizeof(Elf64_Relr))
			return false;
		if (sh.sh_type >= SHT_LOOS && sh.sh_type <= SHT_HIOS) {
			if (sh.sh_flags & SHF_OS_NONCONFORMING)
				return false;
		} else if (sh.sh_type != SHT_X86_64_UNWIND &&
			   (sh.sh_type > SHT_RELR ||
			    sh.sh_type == 12 || sh.sh_type == 13)) {
			/* 12 and 13: numbers no SHT_ names */
			return false;
		}
	}
	return true;
}

/*
 * The symbol version tables' chains whole: libbfd reads them with the
 * dynamic symbols, and one it finds broken (".gnu.version_r invalid
 * entry": a count past the section, a link out of it, a chain that
 * ends early) leaves it no symbols, so no stubs. Stricter than libbfd
 * where unsure: such a file goes to libbfd, which decides.
 */
/* The size of the string table section strndx, or 0 when it is none:
 * libbfd looks each version's names up there, and a name past its end
 * ("invalid string offset") fails the whole table. */
static uint64_t strtab_size(Elf *elf, size_t strndx)
{
	Elf_Scn *scn = elf_getscn(elf, strndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB)
		return 0;
	return sh.sh_size;
}

/* The string table strndx ends with a NUL: libbfd gives no string of
 * one that does not ("string table is corrupt"), so no dynamic symbol
 * (fuzz_plt, session 22: .dynstr's last byte 0xff, 26 stubs against
 * none). */
static bool strtab_ends(Elf *elf, size_t strndx)
{
	Elf_Scn *scn = elf_getscn(elf, strndx);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	return d && d->d_buf && d->d_size &&
	       ((const char *)d->d_buf)[d->d_size - 1] == '\0';
}

static bool versions_whole(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t off = 0, steps = 0;
		uint64_t strsz;

		if (!gelf_getshdr(scn, &sh))
			return false;
		/* the version of each dynamic symbol: libbfd wants entries
		 * of 2 bytes, and reads them all, or no symbol (an offset
		 * or size past the file's end: fuzz_plt, session 22) */
		if (sh.sh_type == SHT_GNU_versym) {
			d = elf_getdata(scn, NULL);
			if (sh.sh_entsize != 2 || !d || d->d_size != sh.sh_size)
				return false;
			continue;
		}
		if (sh.sh_type != SHT_GNU_verneed &&
		    sh.sh_type != SHT_GNU_verdef)
			continue;
		d = elf_getdata(scn, NULL);
		strsz = strtab_size(elf, sh.sh_link);
		if (!d || !sh.sh_info || d->d_size > INT_MAX || !strsz)
			return false;
		for (size_t i = 0; i < sh.sh_info; i++) {
			size_t aux, next, cnt;

			/* entries and aux entries of a table ld made
			 * are 16 bytes or more apart: links that go round
			 * (overlapping entries) would walk it over and
			 * over */
			if (off > d->d_size || ++steps > d->d_size / 8)
				return false;
			if (sh.sh_type == SHT_GNU_verneed) {
				GElf_Verneed vn;

				if (!gelf_getverneed(d, (int)off, &vn) ||
				    vn.vn_file >= strsz)
					return false;
				cnt = vn.vn_cnt;
				aux = vn.vn_aux;
				next = vn.vn_next;
			} else {
				GElf_Verdef vd;

				if (!gelf_getverdef(d, (int)off, &vd))
					return false;
				cnt = vd.vd_cnt;
				aux = vd.vd_aux;
				next = vd.vd_next;
			}
			for (size_t j = 0, a = off + aux; j < cnt; j++) {
				size_t an;

				if (a > d->d_size || ++steps > d->d_size / 8)
					return false;
				if (sh.sh_type == SHT_GNU_verneed) {
					GElf_Vernaux va;

					if (!gelf_getvernaux(d, (int)a, &va) ||
					    va.vna_name >= strsz)
						return false;
					an = va.vna_next;
				} else {
					GElf_Verdaux va;

					if (!gelf_getverdaux(d, (int)a, &va) ||
					    va.vda_name >= strsz)
						return false;
					an = va.vda_next;
				}
				/* libbfd checks each link, the last's too:
				 * the last aux entry links to none
				 * (fuzz_plt, session 22: vna_next 8 there,
				 * 8 stubs against none) */
				if ((j + 1 < cnt && !an) || (j + 1 == cnt && an) ||
				    an > d->d_size - a)
					return false;
				a += an;
			}
			if ((i + 1 < sh.sh_info && !next) ||
			    next > d->d_size - off)
				return false;
			off += next;
		}
	}
	return true;
}

/*
 * Every note section readable whole: libbfd reads the notes as it opens
 * the file, and refuses the file when it cannot (fuzz_plt, session 22:
 * .note.gnu.build-id's offset past the file's end, 8 stubs against
 * none).
 */
static bool notes_whole(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			return false;
		if (sh.sh_type != SHT_NOTE || !sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size)
			return false;
	}
	return true;
}

/* Whether section ndx is loaded (SHF_ALLOC). */
static bool loaded(Elf *elf, size_t ndx)
{
	Elf_Scn *scn = elf_getscn(elf, ndx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC);
}

/*
 * Every section's link (sh_link), and the info of a relocation section
 * or one flagged SHF_INFO_LINK (sh_info), a section of the file, and a
 * symbol table's info (its first global) inside it: libbfd refuses the
 * file otherwise ("file format not recognized").
 */
static bool links_inside(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shnum;

	if (elf_getshdrnum(elf, &shnum) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_link >= shnum)
			return false;
		if ((sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA ||
		     (sh.sh_flags & SHF_INFO_LINK)) && sh.sh_info >= shnum)
			return false;
		/* a symbol table's first global (sh_info) past its end,
		 * where it has any (fuzz_plt, session 22: .dynsym's
		 * 0xfc000001) */
		if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) &&
		    sh.sh_size &&
		    (uint64_t)sh.sh_info * sh.sh_entsize > sh.sh_size)
			return false;
		/* ordered after a section libbfd may make no section of
		 * (a string or symbol table: "sh_link [30] in section is
		 * incorrect"; fuzz_plt, session 22: .symtab flagged
		 * SHF_ALLOC and SHF_LINK_ORDER, 1 stub against none):
		 * only code or data that is loaded is taken */
		if ((sh.sh_flags & SHF_LINK_ORDER) && sh.sh_link &&
		    !loaded(elf, sh.sh_link))
			return false;
	}
	return true;
}

/*
 * No dynamic symbol whose section index is in an SHT_SYMTAB_SHNDX
 * section (SHN_XINDEX): libbfd reads no dynamic symbols, so no stubs,
 * where .dynsym has none ("references nonexistent SHT_SYMTAB_SHNDX
 * section"), and ld makes no objects of 65,280 sections: left to it.
 */
static bool no_extended_index(Elf_Data *dynsym, size_t ndyn)
{
	if (dynsym->d_type == ELF_T_SYM) {
		/* the file is ELFCLASS64: an array of Elf64_Sym, read in
		 * place (gelf_getsym() fails past its end) */
		size_t have = dynsym->d_size / sizeof(Elf64_Sym);

		for (size_t i = 0; i < ndyn; i++) {
			Elf64_Sym s;

			if (i >= have)
				return false;
			memcpy(&s, (const Elf64_Sym *)dynsym->d_buf + i,
			       sizeof(s));
			if (s.st_shndx == SHN_XINDEX)
				return false;
		}
		return true;
	}
	for (size_t i = 0; i < ndyn; i++) {
		GElf_Sym s;

		if (!gelf_getsym(dynsym, (int)i, &s) ||
		    s.st_shndx == SHN_XINDEX)
			return false;
	}
	return true;
}

/*
 * Every section's name inside the section names' table: libbfd
 * refuses the file for a section it cannot name ("file format not
 * recognized").
 */
static bool names_inside(Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = elf_getscn(elf, shstrndx);
	GElf_Shdr sh;
	uint64_t size;

	/* a names' table that does not end with a NUL libbfd takes for
	 * corrupt and names nothing from (fuzz_plt, session 22: 1 stub
	 * against none) */
	if (!scn || !gelf_getshdr(scn, &sh) || !strtab_ends(elf, shstrndx))
		return false;
	size = sh.sh_size;
	scn = NULL;
	/* and each name one libelf reads: it reads none of a names'
	 * table flagged SHF_COMPRESSED, where libbfd reads the bytes as
	 * they are (fuzz_plt, session 22: no stubs against libbfd's 1) */
	while ((scn = elf_nextscn(elf, scn)))
		if (!gelf_getshdr(scn, &sh) || sh.sh_name >= size ||
		    !elf_strptr(elf, shstrndx, sh.sh_name))
			return false;
	return true;
}

void plt_stubs_free(struct plt_stubs *p)
{
	arena_release(&p->names);
	free(p->v);
	free(p->code);
	memset(p, 0, sizeof(*p));
}

int plt_elf_read(int fd, struct plt_stubs *out)
{
	Elf *elf = elf_version(EV_CURRENT) == EV_NONE ? NULL
		   : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	struct ctx c = { .elf = elf, .out = out };
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	size_t shstrndx, dynndx = 0, ndyn = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    /* sizes libbfd refuses the file for ("file format not
	     * recognized") and libelf lets pass */
	    eh.e_ehsize != sizeof(Elf64_Ehdr) ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    (eh.e_phnum && eh.e_phentsize != sizeof(Elf64_Phdr)) ||
	    !tables_inside(elf, &eh) || !types_known(elf) ||
	    !links_inside(elf) || !versions_whole(elf) || !notes_whole(elf) ||
	    elf_getshdrstrndx(elf, &shstrndx) < 0 ||
	    !names_inside(elf, shstrndx))
		goto out;
	ret = 0;
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		goto out;	/* bfd: stubs only in what ld linked */
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM) {
			dynndx = elf_ndxscn(scn);
			c.dynsym = elf_getdata(scn, NULL);
			c.strndx = sh.sh_link;
			/* libbfd reads a .dynsym libelf gives no data
			 * of (a size that is no multiple of its
			 * entries'), and its entries are 24 bytes
			 * whatever sh_entsize says: libbfd's to decide */
			if (!c.dynsym || sh.sh_entsize != sizeof(Elf64_Sym) ||
			    !strtab_ends(elf, c.strndx)) {
				ret = -1;
				goto out;
			}
			ndyn = sh.sh_size / sizeof(Elf64_Sym);
			break;
		}
	if (!c.dynsym || ndyn <= 1)
		goto out;	/* bfd: no dynamic symbols, no stubs */
	ret = -1;
	if (!no_extended_index(c.dynsym, ndyn))
		goto out;
	c.gather = true;
	if (read_stubs(&c, shstrndx) < 0)
		goto out;
	if (c.nslots > 1)
		qsort(c.slots, c.nslots, sizeof(*c.slots), by_value);
	c.gather = false;
	if (read_rels(&c, dynndx, ndyn - 1) < 0 ||
	    read_stubs(&c, shstrndx) < 0)
		goto out;
	for (size_t i = 0; i < out->nr; i++)
		if (!strncmp(out->v[i].name, "*ABS*+0x", 8)) {
			read_code(elf, SHT_SYMTAB, out);
			read_code(elf, SHT_DYNSYM, out);
			if (out->ncode > 1)
				qsort(out->code, out->ncode,
				      sizeof(*out->code), plt_code_cmp);
			break;
		}
	ret = 0;
out:
	if (ret < 0)
		plt_stubs_free(out);
	free(c.rels);
	free(c.slots);
	if (elf)
		elf_end(elf);
	return ret;
}
