/*
 * Functions known only from their call frame information.
 *
 * A stripped binary keeps .dynsym (its exported functions) but loses
 * .symtab, so its static functions have no names: Debian's cc1 has
 * 11,000 of them. Every sampled address of such code used to be a
 * "function" of its own. But .eh_frame stays, because unwinding needs
 * it, and each of its FDEs (LSB Core, "Exception Frames") gives the
 * start and length of one function. So each FDE that no symbol covers
 * becomes a function named by its object and link-time start,
 * "cc1+0x672e80": the address objdump -d and nm show for it.
 *
 * The layout read here, each entry:
 *   length         4 bytes; 0xffffffff: 8 more bytes (64-bit); 0: the end
 *   CIE id/pointer 4 bytes: 0 in a CIE; in an FDE, the distance back
 *                  from this field to its CIE
 *   CIE:           version, augmentation string, [eh data pointer],
 *                  code and data alignment, return register, and with a
 *                  'z' augmentation its data, where 'R' gives the FDEs'
 *                  pointer encoding
 *   FDE:           pc_begin (that encoding), pc_range (its size format)
 * The CIEs and the encoded pointers are read by base/eh_frame.c, as
 * perf_fde.c reads them. Only what finds the ranges is read; anything
 * malformed ends the walk with what was found so far (this is a naming
 * aid, not a reader whose errors matter: the unwinder reads CFI with
 * libdw and perf_fde.c).
 */
#include <stdlib.h>

#include "base/array.h"
#include "base/cursor.h"
#include "base/eh_frame.h"
#include "base/hashmap.h"
#include "symtab_int.h"

struct eh_section {
	const unsigned char *data;
	size_t size;
	uint64_t vaddr;		/* where the section is loaded */
	struct eh_ptrs ptrs;	/* absptr of 4 or 8 bytes, no datarel */
	bool big;
};

/* An FDE's pc_begin and pc_range */
struct fde_pc {
	uint64_t lo, range;
};

/*
 * The pc_begin and pc_range in encoding enc of an FDE whose bytes after
 * its CIE pointer are [p, end), pcrel from the field's own address; lo
 * 0 (as an FDE of code the linker dropped) when the encoding is one a
 * function's start cannot be found from here (text-, data- or
 * function-relative, indirect, omitted) or the bytes end. (A function
 * of its own that returns the two: the walk's loop then keeps its
 * state in registers.)
 */
static __attribute__((noinline)) struct fde_pc
read_pc(const struct eh_section *s, const unsigned char *p,
	const unsigned char *end, unsigned enc)
{
	struct cursor c;
	struct fde_pc pc;

	cursor_init(&c, p, end, s->big);
	if (enc == EH_PE_OMIT ||
	    !eh_pointer(&c, enc, s->vaddr + (uint64_t)(p - s->data), &s->ptrs,
			&pc.lo) ||
	    !eh_value(&c, enc, &s->ptrs, &pc.range))
		return (struct fde_pc){ 0, 0 };
	return pc;
}

/* The FDE pointer encoding of the CIE at cie (an offset in the
 * section), EH_PE_OMIT when it cannot be read. Any version, augmentation
 * and letter: those not known end what is read of it, keeping the
 * encoding found before. (Once a CIE: inline, it cost the walk's loop
 * registers.) */
static __attribute__((noinline)) unsigned
cie_encoding(const struct eh_section *s, uint64_t cie)
{
	struct eh_cie k;
	struct cursor c;

	if (!eh_entry(s->data, s->size, cie, s->big, &c) ||
	    !eh_cie_parse(c, &s->ptrs, &k))
		return EH_PE_OMIT;
	return k.fde_enc;
}

/*
 * How many FDEs .eh_frame_hdr says .eh_frame has (its search table's
 * fde_count, LSB Core "The .eh_frame_hdr section"), at most what
 * eh_size bytes of FDEs hold; 0 when it does not say (eh_hdr_parse()).
 * The room made for them at once: grown by half again, the
 * ranges of libLLVM's 60,000 FDEs were copied into fresh memory four
 * times.
 */
static size_t fde_count_hint(struct elf_file *ef, unsigned addr_size,
			     bool big, size_t eh_size)
{
	const unsigned char *d;
	size_t size;
	uint64_t addr = 0;
	struct eh_hdr h;

	/* the count is absolute (udata4, as linkers write it): the
	 * section's address, if unknown, only moves the pointer to
	 * .eh_frame, which is not looked at */
	if (!elf_section_bytes(ef, ".eh_frame_hdr", &d, &size))
		return 0;
	(void)elf_section_vaddr(ef, ".eh_frame_hdr", &addr);
	if (!eh_hdr_parse(d, size, addr, big, addr_size, &h))
		return 0;
	/* an FDE is 16 bytes at least: length, CIE pointer, two fields */
	return h.count < eh_size / 16 ? (size_t)h.count : eh_size / 16;
}

size_t cfi_funcs_read(struct elf_file *ef, unsigned addr_size, bool big,
		      struct cfi_range **out)
{
	struct eh_section s = { .ptrs = { .addr_size = addr_size },
				.big = big };
	struct cfi_range *v = NULL;
	size_t n = 0, alloc = 0;
	struct u64map encodings;	/* CIE offset -> encoding + 1 */
	uint64_t last_cie = UINT64_MAX, cie;
	uint32_t last_enc = 0;
	struct cursor c;

	*out = NULL;
	if (!elf_section_bytes(ef, ".eh_frame", &s.data, &s.size) ||
	    !elf_section_vaddr(ef, ".eh_frame", &s.vaddr))
		return 0;
	u64map_init(&encodings);
	alloc = fde_count_hint(ef, addr_size, big, s.size);
	if (alloc)
		v = xreallocarray(NULL, alloc, sizeof(*v));
	cursor_init(&c, s.data, s.data + s.size, big);
	while (c.p < c.end) {
		const unsigned char *id_at;
		uint64_t len, id, lo, range;
		struct cursor e;
		uint32_t enc;

		/* the lengths and CIE pointers too without cursor_uint()'s
		 * loop */
		if (!big && c.end - c.p >= 4) {
			len = bytes_le32(c.p);
			c.p += 4;
		} else if (!cursor_uint(&c, 4, &len)) {
			break;
		}
		if (len == 0)
			break;
		if (len == 0xffffffff && !cursor_uint(&c, 8, &len))
			break;
		if (len < 4 || len > (uint64_t)(c.end - c.p))
			break;
		cursor_init(&e, c.p, c.p + len, big);
		c.p += len;
		id_at = e.p;
		if (!big && e.end - e.p >= 4) {
			id = bytes_le32(e.p);
			e.p += 4;
		} else if (!cursor_uint(&e, 4, &id)) {
			continue;
		}
		if (id == 0)
			continue;	/* a CIE: read when an FDE needs it */
		if (id > (uint64_t)(id_at - s.data))
			continue;
		cie = (uint64_t)(id_at - s.data) - id;
		/* most FDEs share their CIE with the one before */
		if (cie == last_cie) {
			enc = last_enc;
		} else {
			enc = u64map_get(&encodings, cie);
			if (enc == U64MAP_NONE) {
				enc = cie_encoding(&s, cie) + 1;
				u64map_put(&encodings, cie, enc);
			}
			last_cie = cie;
			last_enc = enc;
		}
		if (!big && enc - 1 == (EH_PE_PCREL | EH_PE_SDATA4) &&
		    e.end - e.p >= 8) {
			/* gcc's and ld's encoding, read_pc()'s answer
			 * without its switches: most of the walk's time */
			lo = s.vaddr + (uint64_t)(e.p - s.data) +
			     (uint64_t)(int64_t)(int32_t)bytes_le32(e.p);
			range = (uint64_t)(int64_t)(int32_t)bytes_le32(e.p + 4);
		} else {
			struct fde_pc pc = read_pc(&s, e.p, e.end, enc - 1);

			lo = pc.lo;
			range = pc.range;
		}
		/* an FDE of code the linker dropped starts at 0 */
		if (!lo || !range || lo + range < lo)
			continue;
		ARRAY_GROW(v, n + 1, alloc);
		v[n].lo = lo;
		v[n].hi = lo + range;
		n++;
	}
	u64map_release(&encodings);
	*out = v;
	return n;
}
