/*
 * The parts of .eh_frame (LSB Core, "Exception Frames") its two readers
 * share: the DW_EH_PE_* encoded pointers, an entry's bytes by its
 * offset, and a CIE's header and augmentation. What each reader accepts
 * and does with the rest is its own: symtab's cfi_funcs.c (the FDEs'
 * ranges, any byte order, tolerant) and perf_fde.c (an x86_64 object's
 * rows, the rest left to libdw).
 *
 *   entry:  length (4 bytes; 0: the end; 0xffffffff: 8 more, 64-bit)
 *           CIE id (0) or, in an FDE, the distance back to its CIE
 *   CIE:    version, augmentation string, ["eh": a pointer], code and
 *           data alignment factors, return address register, and with
 *           'z' the augmentation data's length and its letters' data:
 *           'R' the FDEs' pointer encoding, 'P' the personality
 *           routine's (encoding, pointer), 'L' the LSDA's encoding;
 *           'S' a signal frame, 'B' and 'G' (AArch64's) without data
 *           then its call frame instructions
 */
#ifndef CGA_BASE_EH_FRAME_H
#define CGA_BASE_EH_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

/* DW_EH_PE_*: a pointer's format (the low 4 bits) and application */
#define EH_PE_OMIT 0xff
#define EH_PE_FORMAT 0x0f
#define EH_PE_APPLY 0x70
#define EH_PE_INDIRECT 0x80
#define EH_PE_ABSPTR 0x00
#define EH_PE_ULEB128 0x01
#define EH_PE_UDATA2 0x02
#define EH_PE_UDATA4 0x03
#define EH_PE_UDATA8 0x04
#define EH_PE_SLEB128 0x09
#define EH_PE_SDATA2 0x0a
#define EH_PE_SDATA4 0x0b
#define EH_PE_SDATA8 0x0c
#define EH_PE_PCREL 0x10
#define EH_PE_TEXTREL 0x20
#define EH_PE_DATAREL 0x30
#define EH_PE_FUNCREL 0x40
#define EH_PE_ALIGNED 0x50

/* How a reader reads pointers: one per section it reads them from. */
struct eh_ptrs {
	unsigned addr_size;	/* an absptr's bytes: 4 or 8 */
	unsigned leb;		/* cursor_leb()'s how, for the LEB128s */
	bool datarel;		/* datarel read, from data; else false */
	uint64_t data;
};

/*
 * The value of a pointer of format enc & EH_PE_FORMAT at c, in c's byte
 * order, the signed formats sign-extended: false for another format or
 * bytes that end (a LEB128's leaves the cursor anywhere in it).
 */
bool eh_value(struct cursor *c, unsigned enc, const struct eh_ptrs *how,
	      uint64_t *v);

/*
 * A pointer of encoding enc at c, whose first byte is at address at:
 * its value (eh_value()) applied absolute, pcrel (plus at) or datarel
 * (plus how->data, when how->datarel). False for another application
 * (text-, function-relative, aligned), an indirect one, or eh_value()'s.
 */
bool eh_pointer(struct cursor *c, unsigned enc, uint64_t at,
		const struct eh_ptrs *how, uint64_t *v);

/*
 * The CIE or FDE at offset off of the section [sec, sec + size): its
 * bytes after the length in *c (c->end where the entry ends), in byte
 * order big. False for off past the section, a length of 0 (the end) or
 * of 64 bits (not read here), or one past the section.
 */
static inline bool eh_entry(const unsigned char *sec, size_t size,
			    uint64_t off, bool big, struct cursor *c)
{
	uint64_t len;

	if (off >= size)
		return false;
	cursor_init(c, sec + off, sec + size, big);
	if (!cursor_uint(c, 4, &len) || len == 0 || len == 0xffffffff ||
	    len > (uint64_t)(c->end - c->p))
		return false;
	c->end = c->p + len;
	return true;
}

/*
 * .eh_frame_hdr's header: version 1, the encodings of the pointer to
 * .eh_frame, of the table's count and of its entries, then that pointer
 * and the count; then the binary search table, count pairs (initial
 * location, FDE address) of table_enc each.
 */
struct eh_hdr {
	uint64_t frame_ptr;	/* .eh_frame's address, as it says */
	uint64_t count;		/* the table's entries, as it says */
	uint8_t table_enc;
	const unsigned char *table;	/* where the table starts */
};

/*
 * The header of the .eh_frame_hdr [hdr, hdr + len) at address addr, in
 * byte order big, its absptr pointers addr_size bytes (its datarel ones
 * are from addr, as the LSB has them). False for another version, a
 * pointer eh_pointer() does not read (EH_PE_OMIT: no table), or bytes
 * that end in it; the count is not checked against the bytes left.
 */
bool eh_hdr_parse(const unsigned char *hdr, size_t len, uint64_t addr,
		  bool big, unsigned addr_size, struct eh_hdr *h);

/* A CIE's header and augmentation, read by eh_cie_parse(). */
struct eh_cie {
	const char *aug;	/* the augmentation string, in the section */
	/* its first letter not read, NULL when every one was: after it,
	 * in the data and (without 'z') where the instructions start,
	 * nothing is known */
	const char *unknown;
	uint64_t caf, ra;	/* code alignment factor, return register */
	int64_t daf;		/* data alignment factor */
	const unsigned char *ins, *ins_end;	/* its instructions */
	uint8_t version;
	uint8_t fde_enc;	/* 'R': the FDEs' pointers'; absptr without */
	uint8_t lsda_enc;	/* 'L': EH_PE_OMIT without */
	uint8_t per_enc;	/* 'P': the personality's; EH_PE_OMIT without */
	/* each 'P''s application as bit (enc & EH_PE_APPLY) >> 4 */
	uint8_t per_apply;
	bool eh;		/* "eh" in the string: its pointer skipped */
	bool aug_z;		/* 'z': its FDEs have augmentation data */
	bool signal;		/* 'S' */
	bool aarch64;		/* 'B' or 'G' */
};

/*
 * The CIE whose bytes after the length are c's (eh_entry()), in c's
 * byte order, its pointers and LEB128s read as how says (a 'P''s
 * pointer is skipped by its format alone). The ra is a byte in version
 * 1, else a ULEB128; the letters after 'z' are read up to the first
 * not known (cie->unknown), a string without 'z' is known if "" or
 * "eh". False when c's entry is not a CIE (its id is not 0), or its
 * bytes end in what is read.
 */
bool eh_cie_parse(struct cursor c, const struct eh_ptrs *how,
		  struct eh_cie *cie);

#endif
