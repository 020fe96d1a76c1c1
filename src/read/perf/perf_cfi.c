/*
 * The CFI rows of the code's objects, each address's found once.
 *
 * libdwfl finds a frame's row afresh for every frame of every sample:
 * it looks the FDE up, runs its CIE's and its own instructions up to
 * the address, and builds an expression for each register, which it
 * then evaluates with a stack it allocates (libdwfl/frame_unwind.c).
 * A recording's samples fall on the same few thousand addresses again
 * and again, so here that work is done once per address of an object
 * file, and what libdwfl would compute from it is kept as a rule per
 * register. The row is read from the object's .eh_frame by perf_fde.c
 * (the FDE found by .eh_frame_hdr's table, its instructions run on the
 * rules themselves); where that does not read it (.debug_frame, an
 * expression, what perf_fde.h lists) it is asked of libdw's own
 * dwarf_cfi_addrframe(), whose expressions are taken back to rules.
 * Rows that do not fit the rules (a CFA or register given by an
 * expression other than CFA + offset, as in a PLT) are reported as
 * such, for the caller to leave to libdwfl.
 *
 * Distinct rows are few (a compiler's code saves registers in a few
 * patterns), so rows are kept once each and addresses map to them.
 *
 * A row holds for a range of addresses (up to the next of the FDE's
 * advances, which dwarf_frame_info() gives), and the addresses of a
 * recording's frames are many (tens of thousands) in fewer ranges: a
 * function's body is mostly one. Each range found is kept, in the block
 * of BLOCK_BITS of addresses of the address it was found for, so that
 * another address of the block in the same range takes its row without
 * finding the FDE and running its instructions again: on a 1 GB
 * recording of gcc, 33,463 questions to libdw where each address asked
 * 64,348 (tests/test_perf_cfi.c checks the rows); 23,378 to perf_fde.c,
 * whose ranges start where the row does, not at the address asked. An address
 * asked again is found in its range too: only the answers without one
 * (no FDE, or no range known) are kept by address (by_addr), which
 * kept every address (3 MiB for the bench recording's 67,513, new to
 * the process in each unwinder, and as slow to look up as a range).
 */
#include "perf_cfi.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "libdw_load.h"
#include "perf_fde.h"

/* An address's entry: a row's index, or one of these. */
#define ENTRY_NO_FDE (UINT32_MAX - 1)
#define ENTRY_HARD (UINT32_MAX - 2)

/* Addresses are kept with their file's index in the key's top bits. */
#define ADDR_BITS 48

/*
 * The last answers, direct-mapped by key, before the ranges: a
 * sample's outer frames are mostly the last ones' addresses, and the
 * ranges (tens of thousands) miss the caches where this (64 KiB)
 * mostly does not. entry + 1 (0: empty).
 */
#define RECENT_BITS 12
struct recent {
	uint64_t key;
	uint32_t entry1;
};

#define BLOCK_BITS 10

/*
 * A block's ranges, up to CHUNK_RANGES of them in a chunk of a cache
 * line, as offsets in the block: a range is only looked in for the
 * addresses of its block, so its part in it is all it needs. A list of
 * ranges a node each was a cache miss each (three a walk, half of
 * perf_cfi_row()'s time).
 */
#define CHUNK_RANGES 7
struct chunk {
	uint16_t start[CHUNK_RANGES], end[CHUNK_RANGES];
	uint32_t entry[CHUNK_RANGES];
	uint32_t next;		/* the block's older chunk: index + 1, or 0 */
	uint8_t n;
};
_Static_assert(sizeof(struct chunk) == 64, "a chunk a cache line");
#define LINE 64

struct perf_cfi {
	/* (file, address) -> entry, of the addresses without a range */
	struct u64map by_addr;
	/* (file, address >> BLOCK_BITS) -> the block's first range's
	 * index + 1 */
	struct u64map by_block;
	/* each on a cache line of its own (grow_chunks()): at malloc()'s
	 * alignment most chunks were two lines, their count at the end and
	 * their ranges at the start, each a miss */
	struct chunk *chunks;
	char *chunks_mem;	/* the block chunks[] is in */
	size_t nchunks, chunks_alloc;
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
	u64map_init(&c->by_block);
	return c;
}

void perf_cfi_free(struct perf_cfi *c)
{
	if (!c)
		return;
	u64map_release(&c->by_addr);
	u64map_release(&c->by_block);
	free(c->chunks_mem);
	free(c->recent);
	free(c->rows);
	free(c->slots);
	free(c);
}

/* The CFA's rule: a register plus an offset, or none (libdwfl then
 * fails every rule that needs it), or a PLT entry's expression. False
 * for another expression. */
static bool cfa_rule(Dwarf_Frame *frame, struct cfi_row *row)
{
	Dwarf_Op *ops;
	size_t nops;
	uint64_t reg;

	row->cfa_reg = CFI_NREGS;
	if (libdw_load()->frame_cfa(frame, &ops, &nops) != 0)
		return true;
	if (nops == 9 && ops[0].atom >= DW_OP_breg0 &&
	    ops[0].atom <= DW_OP_breg31 && ops[1].atom == DW_OP_breg16 &&
	    ops[1].number == 0 && ops[2].atom == DW_OP_lit15 &&
	    ops[3].atom == DW_OP_and && ops[4].atom >= DW_OP_lit0 &&
	    ops[4].atom <= DW_OP_lit31 && ops[5].atom == DW_OP_ge &&
	    ops[6].atom == DW_OP_lit3 && ops[7].atom == DW_OP_shl &&
	    ops[8].atom == DW_OP_plus) {
		/* a PLT entry's (struct cfi_row's plt_k) */
		reg = ops[0].atom - DW_OP_breg0;
		row->cfa_off = (int64_t)ops[0].number;
		row->cfa_reg = reg < CFI_NREGS ? (uint8_t)reg : CFI_NREGS;
		row->plt_k = (uint8_t)(ops[4].atom - DW_OP_lit0 + 1);
		return true;
	}
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

/* The lists of row's registers by kind of rule (struct cfi_row): of
 * CFI_SAME, CFI_AT, CFI_VAL and CFI_REG, CFI_UNDEFINED, each rising. */
static void order_rules(struct cfi_row *row)
{
	uint8_t kinds[4][CFI_NREGS];
	unsigned n[4] = { 0 };

	for (unsigned r = 0; r < CFI_NREGS; r++) {
		unsigned k;

		switch (row->rule[r]) {
		case CFI_UNSET:
			continue;
		case CFI_SAME:
			k = 0;
			row->same_mask |= 1u << r;
			break;
		case CFI_AT:
			k = 1;
			if (!row->at_mask || row->off[r] < row->at_lo)
				row->at_lo = row->off[r];
			if (!row->at_mask || row->off[r] > row->at_hi)
				row->at_hi = row->off[r];
			row->at_mask |= 1u << r;
			break;
		case CFI_UNDEFINED:
			k = 3;
			break;
		default:
			k = 2;
			break;
		}
		kinds[k][n[k]++] = (uint8_t)r;
	}
	for (unsigned k = 0; k < 4; k++) {
		memcpy(row->ruled + row->nruled, kinds[k], n[k]);
		row->nruled += (uint8_t)n[k];
	}
	row->nsame = (uint8_t)n[0];
	row->nat = (uint8_t)n[1];
	row->nother = (uint8_t)n[2];
}

/* pc's row; [*start, *end) the addresses it holds for (empty when
 * not known). Read from fde when it can be (perf_fde.h), else asked of
 * libdw. */
static enum cfi_found compute(Dwarf_CFI *cfi, struct perf_fde *fde,
			      uint64_t pc, struct cfi_row *row,
			      Dwarf_Addr *start, Dwarf_Addr *end)
{
	_Static_assert(sizeof(Dwarf_Addr) == sizeof(uint64_t), "addresses");
	enum cfi_found found = CFI_HARD;
	Dwarf_Frame *frame;
	bool signal;
	int ra;

	if (fde && perf_fde_row(fde, pc, row, start, end)) {
		order_rules(row);
		return CFI_FOUND;
	}
	memset(row, 0, sizeof(*row));	/* rows compare by their bytes */
	*start = *end = 0;
	if (!cfi || libdw_load()->cfi_addrframe(cfi, pc, &frame) != 0)
		return CFI_NO_FDE;
	ra = libdw_load()->frame_info(frame, start, end, &signal);
	/* The end is where the FDE's instructions next advance past pc (or
	 * the FDE's end): up to it, every address runs the same
	 * instructions. The start is not to be trusted: libdw 0.188 takes
	 * it back to an earlier advance at DW_CFA_restore_state (the state
	 * restored keeps its own), so the range is taken from pc on. */
	*start = pc;
	if (ra < 0 || pc >= *end)
		*start = *end = 0;
	if (ra < 0 || ra >= CFI_NREGS || !cfa_rule(frame, row))
		goto out;
	row->ra = (uint8_t)ra;
	row->signal = signal;
	for (int r = 0; r < CFI_NREGS; r++)
		if (!reg_rule(frame, r, row))
			goto out;
	order_rules(row);
	found = CFI_FOUND;
out:
	free(frame);
	return found;
}

enum cfi_found perf_cfi_find(Dwarf_CFI *cfi, struct perf_fde *fde,
			     uint64_t pc, struct cfi_row *row, uint64_t *start,
			     uint64_t *end)
{
	Dwarf_Addr s, e;
	enum cfi_found found = compute(cfi, fde, pc, row, &s, &e);

	*start = s;
	*end = e;
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

uint32_t perf_cfi_index(const struct perf_cfi *c, const struct cfi_row *row)
{
	return (uint32_t)(row - c->rows);
}

const struct cfi_row *perf_cfi_at(const struct perf_cfi *c, uint32_t i)
{
	return &c->rows[i];
}

static uint64_t block_key(uint32_t file, uint64_t pc)
{
	return (uint64_t)file << (ADDR_BITS - BLOCK_BITS) | pc >> BLOCK_BITS;
}

/* The entry of a range kept that holds pc, or U64MAP_NONE. */
static uint32_t range_entry(const struct perf_cfi *c, uint32_t file,
			    uint64_t pc)
{
	uint32_t i = u64map_get(&c->by_block, block_key(file, pc));
	unsigned off = (unsigned)(pc & (((uint64_t)1 << BLOCK_BITS) - 1));

	for (; i != U64MAP_NONE && i; i = c->chunks[i - 1].next) {
		const struct chunk *g = &c->chunks[i - 1];

		for (unsigned k = 0; k < g->n; k++)
			if (g->start[k] <= off && off < g->end[k])
				return g->entry[k];
	}
	return U64MAP_NONE;
}

/* Room in chunks[] for n, the array's start on a cache line: its
 * block is grown by realloc() with a line to spare (the pages of a
 * large block are moved, not copied), and the chunks moved in it when
 * the block's alignment changed. */
static void grow_chunks(struct perf_cfi *c, size_t n)
{
	size_t was = c->chunks ? (size_t)((char *)c->chunks - c->chunks_mem) : 0;
	size_t alloc = c->chunks_alloc, at;
	char *mem;

	if (n <= alloc)
		return;
	alloc = alloc / 2 * 3 + 16;
	if (alloc < n)
		alloc = n;
	mem = xreallocarray(c->chunks_mem, alloc + 1, sizeof(struct chunk));
	at = (LINE - (uintptr_t)mem % LINE) % LINE;
	if (at != was)
		memmove(mem + at, mem + was, c->nchunks * sizeof(struct chunk));
	c->chunks_mem = mem;
	c->chunks = (struct chunk *)(mem + at);
	c->chunks_alloc = alloc;
}

/* [start, end), which holds pc, has entry e: its part in pc's block
 * kept there. False when not kept. */
static bool range_keep(struct perf_cfi *c, uint32_t file, uint64_t pc,
		       uint64_t start, uint64_t end, uint32_t e)
{
	uint64_t key = block_key(file, pc);
	uint64_t base = pc >> BLOCK_BITS << BLOCK_BITS;
	uint64_t size = (uint64_t)1 << BLOCK_BITS;
	uint32_t first = u64map_get(&c->by_block, key);
	struct chunk *g;

	if (first == U64MAP_NONE)
		first = 0;
	if (start < base)
		start = base;
	if (end - base > size)
		end = base + size;
	if (!first || c->chunks[first - 1].n == CHUNK_RANGES) {
		if (c->nchunks >= UINT32_MAX - 1)
			return false;
		grow_chunks(c, c->nchunks + 1);
		g = &c->chunks[c->nchunks];
		memset(g, 0, sizeof(*g));
		g->next = first;
		first = (uint32_t)++c->nchunks;
		u64map_put(&c->by_block, key, first);
	}
	g = &c->chunks[first - 1];
	g->start[g->n] = (uint16_t)(start - base);
	g->end[g->n] = (uint16_t)(end - base);
	g->entry[g->n++] = e;
	return true;
}

enum cfi_found perf_cfi_row(struct perf_cfi *c, uint32_t file, Dwarf_CFI *cfi,
			    struct perf_fde *fde, uint64_t pc,
			    const struct cfi_row **row)
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
		if (rc->entry1 && rc->key == key)
			e = rc->entry1 - 1;
	}
	/* an address asked before is in a range kept, or else in by_addr */
	if (e == U64MAP_NONE && keyed) {
		e = range_entry(c, file, pc);
		if (e == U64MAP_NONE)
			e = u64map_get(&c->by_addr, key);
	}
	if (e == U64MAP_NONE) {
		Dwarf_Addr start, end;

		found = compute(cfi, fde, pc, &new, &start, &end);
		e = found == CFI_NO_FDE ? ENTRY_NO_FDE
		    : found == CFI_HARD ? ENTRY_HARD
					: intern(c, &new);
		if (keyed && !(start < end &&
			       range_keep(c, file, pc, start, end, e)))
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

void perf_cfi_counts(const struct perf_cfi *c, uint64_t *addrs,
		     uint64_t *rows)
{
	*addrs = c ? c->by_addr.nr : 0;
	*rows = c ? c->nrows : 0;
}
