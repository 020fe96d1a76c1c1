/*
 * The CFI rows of the code's objects, each address's found once.
 *
 * libdwfl finds a frame's row afresh for every frame of every sample:
 * it looks the FDE up, runs its CIE's and its own instructions up to
 * the address, and builds an expression for each register, which it
 * then evaluates with a stack it allocates (libdwfl/frame_unwind.c).
 * A recording's samples fall on the same few thousand addresses again
 * and again, so here that work is done once per address of an object
 * file, with libdw's own dwarf_cfi_addrframe(), and what libdwfl would
 * compute from its result is kept as a rule per register. Rows that
 * do not fit the rules (a CFA or register given by an expression other
 * than CFA + offset, as in a PLT) are reported as such, for the caller
 * to leave to libdwfl.
 *
 * Distinct rows are few (a compiler's code saves registers in a few
 * patterns), so rows are kept once each and addresses map to them.
 *
 * A row holds for a stretch of its FDE's code, up to the next
 * instruction that moves the location (dwarf_frame_info()'s end), and
 * most of a function's call sites are in one stretch: the 995 MiB
 * recording of gcc's 64,285 addresses fell in about 20,000. So each
 * stretch found is kept by its FDE's entry in the object's
 * .eh_frame_hdr search table, and an address in it takes its row
 * without libdw. dwarf_frame_info()'s start is not the stretch's: after
 * a DW_CFA_restore_state it is the restored state's, older (libdw's
 * execute_cfi()); so a stretch runs from the lowest address looked up
 * in it, and an address below it whose row ends at the same end is in
 * the same stretch (no location moved between them) and extends it.
 * The stretch is cut to its entry's [start, next entry's start): with
 * a sorted table, every address there is one libdw's binary search of
 * the table (libdw/fde.c) takes to the same FDE, the FDE whose
 * instructions gave the row. An object without such a table (or one
 * not sorted) is looked up address by address as before.
 */
#include "perf_cfi.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "libdw_load.h"

/* An address's entry: a row's index, or one of these. */
#define ENTRY_NO_FDE (UINT32_MAX - 1)
#define ENTRY_HARD (UINT32_MAX - 2)

/* Addresses are kept with their file's index in the key's top bits. */
#define ADDR_BITS 48

/*
 * The last answers, direct-mapped by key, before by_addr: a sample's
 * outer frames are mostly the last ones' addresses, and by_addr (tens
 * of thousands of addresses) misses the caches where this (64 KiB)
 * mostly does not. entry + 1 (0: empty).
 */
#define RECENT_BITS 12
struct recent {
	uint64_t key;
	uint32_t entry1;
};

/* A stretch of one FDE's code with one row: [lo, hi) -> entry (end:
 * the stretch's end in the FDE, hi unless the table's next FDE cuts
 * it). */
struct stretch {
	uint64_t lo, hi, end;
	uint32_t entry;
	uint32_t next;		/* the FDE's next stretch + 1; 0: none */
};

/* An object file's .eh_frame_hdr search table, as its FDEs' starts. */
struct fde_table {
	bool looked;
	uint64_t *starts;	/* sorted, rising; NULL: none usable */
	uint32_t *first;	/* per FDE: its first stretch + 1; 0 none */
	size_t n;
};

struct perf_cfi {
	struct u64map by_addr;	/* (file, address) -> entry */
	struct fde_table *tables;	/* by file */
	size_t ntables;
	struct stretch *stretches;
	size_t nstretches, stretches_alloc;
	uint64_t computed;	/* look-ups in libdw */
	struct recent *recent;	/* NULL until the first look-up */
	struct cfi_row *rows;
	size_t nrows, rows_alloc;
	uint32_t *slots;	/* rows by content: index + 1, 0 empty */
	size_t mask;
};

struct perf_cfi *perf_cfi_new(void)
{
	struct perf_cfi *c = xcalloc(1, sizeof(*c));

	u64map_init(&c->by_addr);
	return c;
}

void perf_cfi_free(struct perf_cfi *c)
{
	if (!c)
		return;
	u64map_release(&c->by_addr);
	for (size_t i = 0; i < c->ntables; i++) {
		free(c->tables[i].starts);
		free(c->tables[i].first);
	}
	free(c->tables);
	free(c->stretches);
	free(c->recent);
	free(c->rows);
	free(c->slots);
	free(c);
}

/* The CFA's rule: a register plus an offset, or none (libdwfl then
 * fails every rule that needs it). False for an expression. */
static bool cfa_rule(Dwarf_Frame *frame, struct cfi_row *row)
{
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;

	row->cfa_reg = CFI_NREGS;
	if (libdw_load()->frame_cfa(frame, &ops, &nops) != 0)
		return true;
	if (nops != 1)
		return false;
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		row->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		row->cfa_off = (int64_t)ops[0].number;
	} else {
		return false;
	}
	row->cfa_reg = reg < CFI_NREGS ? (uint8_t)reg : CFI_NREGS;
	return true;
}

/*
 * Register r's rule from the expression dwarf_frame_register() gives,
 * as libdwfl's handle_cfi() and expr_eval() would take it. False for
 * an expression not of these forms.
 */
static bool reg_rule(Dwarf_Frame *frame, int r, struct cfi_row *row)
{
	Dwarf_Op mem[3], *ops;
	size_t nops, i = 1;

	row->rule[r] = CFI_UNSET;
	if (libdw_load()->frame_register(frame, r, mem, &ops, &nops) != 0)
		return true;
	if (nops == 0) {
		if (ops == mem)
			row->rule[r] = CFI_UNDEFINED;
		else if (!ops)
			row->rule[r] = CFI_SAME;
		return true;
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx) {
		if (ops[0].number < CFI_NREGS) {
			row->rule[r] = CFI_REG;
			row->off[r] = (int64_t)ops[0].number;
		}
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	row->rule[r] = CFI_AT;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		row->off[r] = (int64_t)ops[i++].number;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		row->rule[r] = CFI_VAL;
		i++;
	}
	return i == nops;
}

/* The row at pc, and in [*lo, *hi) code it holds for: from pc to the
 * end of its stretch (empty when libdw does not say). */
static enum cfi_found compute(Dwarf_CFI *cfi, uint64_t pc, struct cfi_row *row,
			      uint64_t *lo, uint64_t *hi)
{
	enum cfi_found found = CFI_HARD;
	Dwarf_Addr start, end;
	Dwarf_Frame *frame;
	bool signal;
	int ra;

	memset(row, 0, sizeof(*row));	/* rows compare by their bytes */
	*lo = *hi = 0;
	if (!cfi || libdw_load()->cfi_addrframe(cfi, pc, &frame) != 0)
		return CFI_NO_FDE;
	ra = libdw_load()->frame_info(frame, &start, &end, &signal);
	if (ra >= 0 && start <= pc && pc < end) {
		*lo = pc;
		*hi = end;
	}
	if (ra < 0 || ra >= CFI_NREGS || !cfa_rule(frame, row))
		goto out;
	row->ra = (uint8_t)ra;
	row->signal = signal;
	for (int r = 0; r < CFI_NREGS; r++)
		if (!reg_rule(frame, r, row))
			goto out;
	for (int kind = 0; kind < 4; kind++) {
		for (int r = 0; r < CFI_NREGS; r++) {
			enum cfi_rule rule = row->rule[r];
			int k = rule == CFI_SAME	  ? 0
				: rule == CFI_AT	  ? 1
				: rule == CFI_UNDEFINED ? 3
							  : 2;

			if (rule == CFI_UNSET || k != kind)
				continue;
			row->ruled[row->nruled++] = (uint8_t)r;
			row->nsame += k == 0;
			row->nat += k == 1;
			row->nother += k == 2;
		}
	}
	found = CFI_FOUND;
out:
	free(frame);
	return found;
}

static void grow_slots(struct perf_cfi *c)
{
	size_t cap = c->slots ? (c->mask + 1) * 2 : 256;

	free(c->slots);
	c->slots = xcalloc(cap, sizeof(*c->slots));
	c->mask = cap - 1;
	for (size_t i = 0; i < c->nrows; i++) {
		size_t s = hash_bytes(&c->rows[i], sizeof(c->rows[i])) & c->mask;

		while (c->slots[s])
			s = (s + 1) & c->mask;
		c->slots[s] = (uint32_t)i + 1;
	}
}

/* The index of a row equal to row, kept if new. */
static uint32_t intern(struct perf_cfi *c, const struct cfi_row *row)
{
	size_t s;

	if (!c->slots || (c->nrows + 1) * 2 > c->mask + 1)
		grow_slots(c);
	s = hash_bytes(row, sizeof(*row)) & c->mask;
	for (; c->slots[s]; s = (s + 1) & c->mask)
		if (!memcmp(&c->rows[c->slots[s] - 1], row, sizeof(*row)))
			return c->slots[s] - 1;
	ARRAY_GROW(c->rows, c->nrows + 1, c->rows_alloc);
	c->rows[c->nrows] = *row;
	c->slots[s] = (uint32_t)c->nrows + 1;
	return (uint32_t)c->nrows++;
}

/* --- the stretches, by the .eh_frame_hdr's FDEs --- */

/* The little-endian 4-byte word at p. */
static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The section named name, NULL if none; its header in *sh. */
static Elf_Scn *section(Elf *elf, size_t shstrndx, const char *name,
			GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, sh) || sh->sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * The FDEs' starts from elf's .eh_frame_hdr, in t (none when it is not
 * the form every linker writes and libdw searches: version 1, a pcrel
 * sdata4 pointer to .eh_frame, a udata4 count, a table of datarel
 * sdata4 pairs; little-endian), and none unless they rise strictly.
 */
static void read_table(Elf *elf, struct fde_table *t)
{
	GElf_Ehdr eh;
	GElf_Shdr hsh, esh;
	Elf_Scn *hdr;
	Elf_Data *d;
	const unsigned char *b;
	size_t shstrndx, n;
	uint64_t eh_frame;

	t->looked = true;
	if (!elf || !gelf_getehdr(elf, &eh) ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    !(hdr = section(elf, shstrndx, ".eh_frame_hdr", &hsh)) ||
	    !section(elf, shstrndx, ".eh_frame", &esh) ||
	    !(d = elf_rawdata(hdr, NULL)) || !d->d_buf || d->d_size < 12)
		return;
	b = d->d_buf;
	if (b[0] != 1 || b[1] != (DW_EH_PE_pcrel | DW_EH_PE_sdata4) ||
	    b[2] != DW_EH_PE_udata4 ||
	    b[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
		return;
	eh_frame = hsh.sh_addr + 4 + (uint64_t)(int64_t)(int32_t)le32(b + 4);
	n = le32(b + 8);
	if (eh_frame != esh.sh_addr || !n || n > (d->d_size - 12) / 8)
		return;
	t->starts = xreallocarray(NULL, n, sizeof(*t->starts));
	for (size_t i = 0; i < n; i++) {
		t->starts[i] = hsh.sh_addr +
			       (uint64_t)(int64_t)(int32_t)le32(b + 12 + 8 * i);
		if (i && t->starts[i] <= t->starts[i - 1]) {
			free(t->starts);
			t->starts = NULL;
			return;
		}
	}
	t->first = xcalloc(n, sizeof(*t->first));
	t->n = n;
}

/* File's table, read the first time (elf NULL: none). */
static struct fde_table *table_of(struct perf_cfi *c, uint32_t file, Elf *elf)
{
	if (file >= c->ntables) {
		size_t n = (size_t)file + 1 > 2 * c->ntables ? (size_t)file + 1
							     : 2 * c->ntables;

		c->tables = xreallocarray(c->tables, n, sizeof(*c->tables));
		memset(c->tables + c->ntables, 0,
		       (n - c->ntables) * sizeof(*c->tables));
		c->ntables = n;
	}
	if (!c->tables[file].looked)
		read_table(elf, &c->tables[file]);
	return &c->tables[file];
}

/* The entry of the table's last FDE starting at or below pc, or n. */
static size_t fde_at(const struct fde_table *t, uint64_t pc)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->starts[mid] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : t->n;
}

/* The entry kept for a stretch of FDE i holding pc, or U64MAP_NONE. */
static uint32_t stretch_find(const struct perf_cfi *c,
			     const struct fde_table *t, size_t i, uint64_t pc)
{
	for (uint32_t s = t->first[i]; s; s = c->stretches[s - 1].next)
		if (c->stretches[s - 1].lo <= pc && pc < c->stretches[s - 1].hi)
			return c->stretches[s - 1].entry;
	return U64MAP_NONE;
}

/* Keep [lo, hi) of FDE i, cut to the entry's part of the table; a
 * stretch kept with the same end (the same row: no location moved
 * between) reaches down to lo. */
static void stretch_add(struct perf_cfi *c, struct fde_table *t, size_t i,
			uint64_t lo, uint64_t hi, uint32_t entry)
{
	uint64_t end = hi;
	struct stretch *s;

	if (lo < t->starts[i])
		lo = t->starts[i];
	if (i + 1 < t->n && hi > t->starts[i + 1])
		hi = t->starts[i + 1];
	if (lo >= hi)
		return;
	for (uint32_t k = t->first[i]; k; k = c->stretches[k - 1].next) {
		s = &c->stretches[k - 1];
		if (s->end == end && s->entry == entry) {
			if (lo < s->lo)
				s->lo = lo;
			return;
		}
	}
	ARRAY_GROW(c->stretches, c->nstretches + 1, c->stretches_alloc);
	s = &c->stretches[c->nstretches++];
	*s = (struct stretch){ lo, hi, end, entry, t->first[i] };
	t->first[i] = (uint32_t)c->nstretches;
}

uint32_t perf_cfi_index(const struct perf_cfi *c, const struct cfi_row *row)
{
	return (uint32_t)(row - c->rows);
}

const struct cfi_row *perf_cfi_at(const struct perf_cfi *c, uint32_t i)
{
	return &c->rows[i];
}

enum cfi_found perf_cfi_row(struct perf_cfi *c, uint32_t file, Dwarf_CFI *cfi,
			    Elf *elf, uint64_t pc, const struct cfi_row **row)
{
	bool keyed = pc >> ADDR_BITS == 0 && file < (1u << (64 - ADDR_BITS));
	uint64_t key = (uint64_t)file << ADDR_BITS | pc;
	struct recent *rc = NULL;
	uint32_t e = U64MAP_NONE;
	enum cfi_found found;
	struct cfi_row new;

	if (keyed) {
		if (!c->recent)
			c->recent = xcalloc((size_t)1 << RECENT_BITS,
					    sizeof(*c->recent));
		rc = &c->recent[(key * 0x9e3779b97f4a7c15ull) >>
				(64 - RECENT_BITS)];
		e = rc->entry1 && rc->key == key
			    ? rc->entry1 - 1
			    : u64map_get(&c->by_addr, key);
	}
	if (e == U64MAP_NONE) {
		struct fde_table *t = cfi && elf ? table_of(c, file, elf)
						 : NULL;
		size_t i = t && t->starts ? fde_at(t, pc) : 0;
		uint64_t lo, hi;

		if (t && t->starts && i < t->n)
			e = stretch_find(c, t, i, pc);
		if (e == U64MAP_NONE) {
			c->computed++;
			found = compute(cfi, pc, &new, &lo, &hi);
			e = found == CFI_NO_FDE ? ENTRY_NO_FDE
			    : found == CFI_HARD ? ENTRY_HARD
						: intern(c, &new);
			if (found != CFI_NO_FDE && lo < hi && t &&
			    t->starts && i < t->n)
				stretch_add(c, t, i, lo, hi, e);
		}
		if (keyed)
			u64map_put(&c->by_addr, key, e);
	}
	if (rc) {
		rc->key = key;
		rc->entry1 = e + 1;
	}
	if (e == ENTRY_NO_FDE)
		return CFI_NO_FDE;
	if (e == ENTRY_HARD)
		return CFI_HARD;
	*row = &c->rows[e];
	return CFI_FOUND;
}

uint64_t perf_cfi_computed(const struct perf_cfi *c)
{
	return c ? c->computed : 0;
}

void perf_cfi_counts(const struct perf_cfi *c, uint64_t *addrs,
		     uint64_t *rows)
{
	*addrs = c ? c->by_addr.nr : 0;
	*rows = c ? c->nrows : 0;
}
