/*
 * .eh_frame's rows read here (perf_fde.h).
 *
 * libdw's dwarf_cfi_addrframe() costs about 1,600 instructions an
 * address: a look-up in its tree of FDEs, its CIE's and its own
 * instructions run, a frame allocated, and then its rules given as
 * DWARF expressions that perf_cfi.c takes apart again. Here the FDE is
 * found by binary search in .eh_frame_hdr's table and the instructions
 * run on a state of 17 registers' rules on the stack, the rules kept
 * as they are.
 *
 * The state a CIE's instructions start from is libdw's x86_64 ABI
 * state (its backend's abi_cfi, as dwarf_frame_register() shows it):
 * registers 0, 6 and 12-15 keep their value, 7 (the stack pointer) is
 * the CFA, the others are undefined, and the CFA is not defined (a row
 * without one is left to libdw). DW_CFA_restore takes a register back
 * to its rule after the CIE's instructions, which start from that ABI
 * state; DW_CFA_remember_state keeps the whole state, the CFA with it
 * (as libdw and GCC's unwinder do).
 *
 *   FDE instructions:  rules ... advance ... rules ... advance ...
 *   addresses:         [pc_begin      )[loc1              )[loc2 ...
 *
 * The row of pc is the state after every instruction before the first
 * advance past pc; its range is from the last advance not past pc to
 * that first advance past it (or the FDE's end).
 */
#include "perf_fde.h"

#include <dwarf.h>
#include <elf.h>
#include <string.h>

#include "base/eh_frame.h"

/* Register numbers read (rules of those from CFI_NREGS on are not
 * kept: no row holds them); a larger one is left to libdw. */
#define MAX_REG 128
/* DW_CFA_remember_state's depth read here. */
#define STACK_DEPTH 8

/* struct fde_state's rules (perf_fde.h) */
enum rule { R_UNDEF, R_SAME, R_OFF, R_VAL_OFF, R_REG, R_EXPR };
/* CFA_PLT: the expression of a PLT entry (struct cfi_row's plt_k) */
enum cfa { CFA_NONE, CFA_REG, CFA_EXPR, CFA_PLT };

/* How .eh_frame's pointers are read: absptr of 8 bytes, LEB128s as
 * get_uleb() says, datarel from 0 (no base known: an FDE's pc_begin
 * read so is then checked against its table entry as any other). */
static const struct eh_ptrs frame_ptrs = { 8, LEB_64, true, 0 };

/* LEB128s as libdw reads them: a number past 64 bits is an error (the
 * rows are compared with libdw's), one of a byte inline. */
static inline bool get_uleb(struct cursor *c, uint64_t *v)
{
	return cursor_uleb_fast(c, LEB_64, v);
}

static bool get_sleb(struct cursor *c, int64_t *v)
{
	uint64_t x;

	if (!cursor_leb_call(c, LEB_64 | LEB_SIGNED, &x))
		return false;
	*v = (int64_t)x;
	return true;
}

/* The link-time address of c's next byte, in .eh_frame. */
static uint64_t addr_of(const struct perf_fde *t, const struct cursor *c)
{
	return t->frame_addr + (uint64_t)(c->p - t->frame);
}

/* The applications of a personality pointer read here (struct eh_cie's
 * per_apply): absolute, pcrel and datarel, as eh_pointer() reads them */
#define PER_READ (1u | 1u << (EH_PE_PCREL >> 4) | 1u << (EH_PE_DATAREL >> 4))

/* The CIE at offset off: versions 1 and 3, no augmentation or 'z' with
 * 'R', 'P' (absolute, pcrel or datarel), 'L' and 'S' alone. */
static bool read_cie(const struct perf_fde *t, uint64_t off, struct fde_cie *cie)
{
	const struct eh_cie *k = &cie->eh;
	struct cursor c;

	if (!eh_entry(t->frame, t->frame_len, off, false, &c) ||
	    !eh_cie_parse(c, &frame_ptrs, &cie->eh))
		return false;
	return (k->version == 1 || k->version == 3) && !k->unknown &&
	       !k->eh && !k->aarch64 && !(k->per_apply & ~PER_READ);
}

/* The ABI's state, which a CIE's instructions start from. */
static void abi_state(struct fde_state *st)
{
	memset(st, 0, sizeof(*st));
	for (unsigned r = 0; r < CFI_NREGS; r++)
		st->rule[r] = R_UNDEF;
	st->rule[0] = st->rule[6] = R_SAME;
	for (unsigned r = 12; r <= 15; r++)
		st->rule[r] = R_SAME;
	st->rule[7] = R_VAL_OFF;
	st->cfa = CFA_NONE;
}

/* Where the instructions run: the CIE's (init NULL: no advance or
 * restore is read there) or an FDE's from loc up to pc. */
struct run {
	const struct fde_cie *cie;
	const struct fde_state *init;
	uint64_t pc, loc, start, end;
	struct fde_state stack[STACK_DEPTH];
	unsigned depth;
};

static bool set_rule(struct fde_state *st, uint64_t r, enum rule rule, int64_t v)
{
	if (r >= MAX_REG)
		return false;
	if (r < CFI_NREGS) {
		st->rule[r] = (uint8_t)rule;
		st->val[r] = v;
	}
	return true;
}

static bool skip_block(struct cursor *c)
{
	uint64_t len;

	if (!get_uleb(c, &len) || len > (uint64_t)(c->end - c->p))
		return false;
	c->p += len;
	return true;
}

/*
 * DW_CFA_def_cfa_expression's block at c: a PLT entry's expression
 * (struct cfi_row's plt_k) taken as CFA_PLT, any other as CFA_EXPR.
 */
static bool cfa_expression(struct cursor *c, struct fde_state *st)
{
	/* after DW_OP_bregN's offset: DW_OP_breg16 0; DW_OP_lit15;
	 * DW_OP_and; then DW_OP_litK, and after it these */
	static const unsigned char mid[] = { 0x80, 0x00, 0x3f, 0x1a };
	static const unsigned char tail[] = { 0x2a, 0x33, 0x24, 0x22 };
	struct cursor b;
	uint64_t len;
	int64_t off;
	unsigned char op, k;

	if (!get_uleb(c, &len) || len > (uint64_t)(c->end - c->p))
		return false;
	cursor_init(&b, c->p, c->p + len, false);
	c->p += len;
	st->cfa = CFA_EXPR;
	if (!cursor_u8(&b, &op) || op < 0x70 || op > 0x8f ||	/* bregN */
	    !get_sleb(&b, &off) || (size_t)(b.end - b.p) != 9 ||
	    memcmp(b.p, mid, sizeof(mid)) ||
	    memcmp(b.p + 5, tail, sizeof(tail)))
		return true;
	k = b.p[4];
	if (k < 0x30 || k > 0x4f)	/* DW_OP_lit0 to DW_OP_lit31 */
		return true;
	st->cfa = CFA_PLT;
	st->cfa_reg = (uint64_t)(op - 0x70);
	st->cfa_off = off;
	st->plt_k = (uint8_t)(k - 0x30 + 1);
	return true;
}

static int64_t factored(uint64_t v, int64_t f)
{
	return (int64_t)(v * (uint64_t)f);
}

/* The instructions [p, end) run over *st; false for one not read here.
 * *done: an advance went past the pc (the FDE's run ends). (The cursor
 * is made here: passed by value, more than 16 bytes, it came in memory,
 * and each byte read stored its p back there.) */
static bool run_ins(struct run *rn, const unsigned char *p,
		    const unsigned char *end, struct fde_state *st, bool *done)
{
	struct cursor c;
	const struct fde_cie *cie = rn->cie;
	uint64_t r, v, delta;
	int64_t s;
	uint8_t op;

	cursor_init(&c, p, end, false);
	*done = false;
	while (c.p < c.end) {
		op = *c.p++;
		delta = 0;
		/* a function's pushes and pops: an advance and a CFA offset
		 * of a byte, half of what an FDE of gcc runs */
		if (op == DW_CFA_def_cfa_offset && c.p < c.end &&
		    !(*c.p & 0x80) && st->cfa == CFA_REG) {
			st->cfa_off = *c.p++;
			continue;
		}
		switch (op & 0xc0) {
		case DW_CFA_advance_loc:
			delta = op & 0x3f;
			goto advance;
		case DW_CFA_offset:
			if (!get_uleb(&c, &v) ||
			    !set_rule(st, op & 0x3f, R_OFF,
				      factored(v, cie->eh.daf)))
				return false;
			continue;
		case DW_CFA_restore:
			r = op & 0x3f;
			goto restore;
		default:
			break;
		}
		switch (op) {
		case DW_CFA_nop:
			continue;
		case DW_CFA_advance_loc1:
			if (!cursor_le(&c, 1, &delta))
				return false;
			goto advance;
		case DW_CFA_advance_loc2:
			if (!cursor_le(&c, 2, &delta))
				return false;
			goto advance;
		case DW_CFA_advance_loc4:
			if (!cursor_le(&c, 4, &delta))
				return false;
			goto advance;
		case DW_CFA_offset_extended:
			if (!get_uleb(&c, &r) || !get_uleb(&c, &v) ||
			    !set_rule(st, r, R_OFF, factored(v, cie->eh.daf)))
				return false;
			continue;
		case DW_CFA_offset_extended_sf:
			if (!get_uleb(&c, &r) || !get_sleb(&c, &s) ||
			    !set_rule(st, r, R_OFF,
				      factored((uint64_t)s, cie->eh.daf)))
				return false;
			continue;
		case DW_CFA_GNU_negative_offset_extended:
			if (!get_uleb(&c, &r) || !get_uleb(&c, &v) ||
			    !set_rule(st, r, R_OFF,
				      (int64_t)(0 - v * (uint64_t)cie->eh.daf)))
				return false;
			continue;
		case DW_CFA_val_offset:
			if (!get_uleb(&c, &r) || !get_uleb(&c, &v) ||
			    !set_rule(st, r, R_VAL_OFF,
				      factored(v, cie->eh.daf)))
				return false;
			continue;
		case DW_CFA_val_offset_sf:
			if (!get_uleb(&c, &r) || !get_sleb(&c, &s) ||
			    !set_rule(st, r, R_VAL_OFF,
				      factored((uint64_t)s, cie->eh.daf)))
				return false;
			continue;
		case DW_CFA_restore_extended:
			if (!get_uleb(&c, &r))
				return false;
			goto restore;
		case DW_CFA_undefined:
			if (!get_uleb(&c, &r) || !set_rule(st, r, R_UNDEF, 0))
				return false;
			continue;
		case DW_CFA_same_value:
			if (!get_uleb(&c, &r) || !set_rule(st, r, R_SAME, 0))
				return false;
			continue;
		case DW_CFA_register:
			if (!get_uleb(&c, &r) || !get_uleb(&c, &v) ||
			    !set_rule(st, r, R_REG, (int64_t)v))
				return false;
			continue;
		case DW_CFA_expression:
		case DW_CFA_val_expression:
			if (!get_uleb(&c, &r) || !skip_block(&c) ||
			    !set_rule(st, r, R_EXPR, 0))
				return false;
			continue;
		case DW_CFA_remember_state:
			if (!rn->init || rn->depth == STACK_DEPTH)
				return false;
			rn->stack[rn->depth++] = *st;
			continue;
		case DW_CFA_restore_state:
			if (!rn->init || !rn->depth)
				return false;
			*st = rn->stack[--rn->depth];
			continue;
		case DW_CFA_def_cfa:
			if (!get_uleb(&c, &r) || !get_uleb(&c, &v))
				return false;
			st->cfa = CFA_REG;
			st->cfa_reg = r;
			st->cfa_off = (int64_t)v;
			continue;
		case DW_CFA_def_cfa_sf:
			if (!get_uleb(&c, &r) || !get_sleb(&c, &s))
				return false;
			st->cfa = CFA_REG;
			st->cfa_reg = r;
			st->cfa_off = factored((uint64_t)s, cie->eh.daf);
			continue;
		case DW_CFA_def_cfa_register:
			if (!get_uleb(&c, &r) || st->cfa != CFA_REG)
				return false;
			st->cfa_reg = r;
			continue;
		case DW_CFA_def_cfa_offset:
			if (!get_uleb(&c, &v) || st->cfa != CFA_REG)
				return false;
			st->cfa_off = (int64_t)v;
			continue;
		case DW_CFA_def_cfa_offset_sf:
			if (!get_sleb(&c, &s) || st->cfa != CFA_REG)
				return false;
			st->cfa_off = factored((uint64_t)s, cie->eh.daf);
			continue;
		case DW_CFA_def_cfa_expression:
			if (!cfa_expression(&c, st))
				return false;
			continue;
		case DW_CFA_GNU_args_size:
			if (!get_uleb(&c, &v))
				return false;
			continue;
		default:
			/* DW_CFA_set_loc, DW_CFA_GNU_window_save, others */
			return false;
		}
	advance:
		if (!rn->init)
			return false;
		rn->loc += delta * cie->eh.caf;
		if (rn->pc >= rn->loc) {
			rn->start = rn->loc;
		} else {
			if (rn->loc < rn->end)
				rn->end = rn->loc;
			*done = true;
			return true;
		}
		continue;
	restore:
		if (!rn->init || r >= MAX_REG)
			return false;
		if (r < CFI_NREGS) {
			st->rule[r] = rn->init->rule[r];
			st->val[r] = rn->init->val[r];
		}
		continue;
	}
	return true;
}

/* The row of state st (the FDE's CIE cie), as perf_cfi.c's compute()
 * takes libdw's; false for what that takes as hard. */
static bool to_row(const struct fde_state *st, const struct fde_cie *cie,
		   struct cfi_row *row)
{
	memset(row, 0, sizeof(*row));
	if ((st->cfa != CFA_REG && st->cfa != CFA_PLT) ||
	    cie->eh.ra >= CFI_NREGS)
		return false;
	row->cfa_reg = st->cfa_reg < CFI_NREGS ? (uint8_t)st->cfa_reg
					       : CFI_NREGS;
	row->cfa_off = st->cfa_off;
	if (st->cfa == CFA_PLT)
		row->plt_k = st->plt_k;
	row->ra = (uint8_t)cie->eh.ra;
	row->signal = cie->eh.signal;
	for (unsigned r = 0; r < CFI_NREGS; r++) {
		switch (st->rule[r]) {
		case R_UNDEF:
			row->rule[r] = CFI_UNDEFINED;
			break;
		case R_SAME:
			row->rule[r] = CFI_SAME;
			break;
		case R_OFF:
			row->rule[r] = CFI_AT;
			row->off[r] = st->val[r];
			break;
		case R_VAL_OFF:
			row->rule[r] = CFI_VAL;
			row->off[r] = st->val[r];
			break;
		case R_REG:
			if ((uint64_t)st->val[r] < CFI_NREGS) {
				row->rule[r] = CFI_REG;
				row->off[r] = st->val[r];
			}
			break;
		default:
			/* an expression */
			return false;
		}
	}
	return true;
}

/* The 4-byte little-endian word at p, sign-extended. */
static int64_t le_s32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return (int32_t)v;
}

/* The table's entry i's initial location, and its FDE's address. */
static uint64_t table_loc(const struct perf_fde *t, size_t i)
{
	return t->hdr_addr + (uint64_t)le_s32(t->table + 8 * i);
}

static uint64_t table_fde(const struct perf_fde *t, size_t i)
{
	return t->hdr_addr + (uint64_t)le_s32(t->table + 8 * i + 4);
}

/* The CIE at offset off and the state after its instructions, from
 * t's cache or read into it; NULL when not read here. */
static const struct fde_cie *cie_of(struct perf_fde *t, uint64_t off)
{
	struct fde_cie *k = &t->cies[off % FDE_CIES];
	struct run rn;
	bool done;

	if (k->off1 == off + 1)
		return k;
	k->off1 = 0;
	rn.cie = k;
	rn.init = NULL;
	rn.depth = 0;
	if (!read_cie(t, off, k))
		return NULL;
	abi_state(&k->init);
	if (!run_ins(&rn, k->eh.ins, k->eh.ins_end, &k->init, &done))
		return NULL;
	k->off1 = off + 1;
	return k;
}

bool perf_fde_row(struct perf_fde *t, uint64_t pc, struct cfi_row *row,
		  uint64_t *start, uint64_t *end)
{
	size_t lo = 0, hi = t->count, i;
	uint64_t at, off, id, cie_off, begin, range;
	const struct fde_cie *k;
	struct cursor c;
	struct fde_state st;
	struct run rn;
	bool done;

	if (!t->table)
		return false;
	/* the last entry whose initial location is not past pc */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table_loc(t, mid) <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	i = lo - 1;
	at = table_loc(t, i);
	/* two FDEs of one address: which libdw takes is not guessed */
	if ((i > 0 && table_loc(t, i - 1) == at) ||
	    (i + 1 < t->count && table_loc(t, i + 1) == at))
		return false;
	off = table_fde(t, i) - t->frame_addr;
	if (!eh_entry(t->frame, t->frame_len, off, false, &c))
		return false;
	/* the CIE pointer: from itself back to the CIE */
	if (!cursor_le(&c, 4, &id) || id == 0 || id > off + 4)
		return false;
	cie_off = off + 4 - id;
	if (!(k = cie_of(t, cie_off)) ||
	    !eh_pointer(&c, k->eh.fde_enc, addr_of(t, &c), &frame_ptrs,
			&begin) ||
	    !eh_value(&c, k->eh.fde_enc, &frame_ptrs, &range) ||
	    begin != at || pc - begin >= range || begin + range < begin)
		return false;
	if (k->eh.aug_z && !skip_block(&c))
		return false;
	st = k->init;
	rn.cie = k;
	rn.init = &k->init;
	rn.depth = 0;
	rn.pc = pc;
	rn.loc = rn.start = begin;
	rn.end = begin + range;
	if (!run_ins(&rn, c.p, c.end, &st, &done) || !to_row(&st, k, row))
		return false;
	*start = rn.start;
	*end = rn.end;
	return true;
}

/* elf's section named name, as bytes of the file and its address. */
static bool section(Elf *elf, size_t shstrndx, const char *name,
		    const unsigned char **p, size_t *len, uint64_t *addr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *s;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    !(s = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(s, name))
			continue;
		/* gold gives them x86_64's own type */
		if ((sh.sh_type != SHT_PROGBITS &&
		     sh.sh_type != SHT_X86_64_UNWIND) ||
		    (sh.sh_flags & SHF_COMPRESSED))
			return false;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size != sh.sh_size)
			return false;
		*p = d->d_buf;
		*len = d->d_size;
		*addr = sh.sh_addr;
		return true;
	}
	return false;
}

bool perf_fde_init(struct perf_fde *t, Elf *elf)
{
	const unsigned char *hdr;
	size_t hdr_len, shstrndx;
	GElf_Ehdr eh;
	struct eh_hdr h;

	memset(t, 0, sizeof(*t));
	if (!gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 || !shstrndx ||
	    !section(elf, shstrndx, ".eh_frame", &t->frame, &t->frame_len,
		     &t->frame_addr) ||
	    !section(elf, shstrndx, ".eh_frame_hdr", &hdr, &hdr_len,
		     &t->hdr_addr))
		goto none;
	/* the table searched as 8-byte entries (perf_fde_find()) */
	if (!eh_hdr_parse(hdr, hdr_len, t->hdr_addr, false, 8, &h) ||
	    h.table_enc != (EH_PE_DATAREL | EH_PE_SDATA4) ||
	    h.frame_ptr != t->frame_addr ||
	    h.count > (uint64_t)(hdr + hdr_len - h.table) / 8)
		goto none;
	t->table = h.table;
	t->count = (size_t)h.count;
	return true;
none:
	memset(t, 0, sizeof(*t));
	return false;
}
