/*
 * .eh_frame's encoded pointers and CIEs, read for both of its readers
 * (eh_frame.h): only the bytes' layout here, what a reader accepts is
 * its own.
 */
#include "eh_frame.h"

#include <string.h>

/* eh_value()'s reading, inline in both of its callers: one call a
 * pointer */
static inline bool read_value(struct cursor *c, unsigned enc,
			      const struct eh_ptrs *how, uint64_t *v)
{
	switch (enc & EH_PE_FORMAT) {
	case EH_PE_ABSPTR:
		return cursor_uint(c, how->addr_size, v);
	case EH_PE_ULEB128:
		return cursor_leb(c, how->leb, v);
	case EH_PE_UDATA2:
		return cursor_uint(c, 2, v);
	case EH_PE_UDATA4:
		return cursor_uint(c, 4, v);
	case EH_PE_UDATA8:
	case EH_PE_SDATA8:
		return cursor_uint(c, 8, v);
	case EH_PE_SLEB128:
		return cursor_leb(c, how->leb | LEB_SIGNED, v);
	case EH_PE_SDATA2:
		if (!cursor_uint(c, 2, v))
			return false;
		*v = (uint64_t)(int64_t)(int16_t)*v;
		return true;
	case EH_PE_SDATA4:
		if (!cursor_uint(c, 4, v))
			return false;
		*v = (uint64_t)(int64_t)(int32_t)*v;
		return true;
	default:
		return false;
	}
}

bool eh_value(struct cursor *c, unsigned enc, const struct eh_ptrs *how,
	      uint64_t *v)
{
	return read_value(c, enc, how, v);
}

bool eh_pointer(struct cursor *c, unsigned enc, uint64_t at,
		const struct eh_ptrs *how, uint64_t *v)
{
	uint64_t x;

	if (!read_value(c, enc, how, &x))
		return false;
	switch (enc & (EH_PE_INDIRECT | EH_PE_APPLY)) {
	case EH_PE_ABSPTR:
		break;
	case EH_PE_PCREL:
		x += at;
		break;
	case EH_PE_DATAREL:
		if (!how->datarel)
			return false;
		x += how->data;
		break;
	default:
		return false;
	}
	*v = x;
	return true;
}

/* The letters after 'z' and their data, at c (the data's bytes alone):
 * false when the data ends in a letter's. */
static bool read_letters(struct cursor *c, const struct eh_ptrs *how,
			 struct eh_cie *cie)
{
	uint64_t v;

	for (const char *a = cie->aug + 1; *a; a++) {
		switch (*a) {
		case 'R':
			if (!cursor_u8(c, &cie->fde_enc))
				return false;
			break;
		case 'L':
			if (!cursor_u8(c, &cie->lsda_enc))
				return false;
			break;
		case 'P':
			/* the personality routine's pointer, skipped: its
			 * size is its format's */
			if (!cursor_u8(c, &cie->per_enc) ||
			    !eh_value(c, cie->per_enc, how, &v))
				return false;
			cie->per_apply |= (uint8_t)(1u << ((cie->per_enc &
							    EH_PE_APPLY) >> 4));
			break;
		case 'S':
			cie->signal = true;
			break;
		case 'B':
		case 'G':
			cie->aarch64 = true;
			break;
		default:
			/* the rest is not ours to read */
			cie->unknown = a;
			return true;
		}
	}
	return true;
}

bool eh_cie_parse(struct cursor c, const struct eh_ptrs *how,
		  struct eh_cie *cie)
{
	uint64_t id, len, ra;
	struct cursor data;
	uint8_t b;

	memset(cie, 0, sizeof(*cie));
	cie->fde_enc = EH_PE_ABSPTR;
	cie->lsda_enc = cie->per_enc = EH_PE_OMIT;
	if (!cursor_uint(&c, 4, &id) || id != 0 ||
	    !cursor_u8(&c, &cie->version))
		return false;
	cie->aug = (const char *)c.p;
	while (c.p < c.end && *c.p)
		c.p++;
	if (!cursor_skip(&c, 1))
		return false;
	cie->eh = strstr(cie->aug, "eh") != NULL;
	if (cie->eh && !cursor_skip(&c, how->addr_size))
		return false;
	if (!cursor_leb(&c, how->leb, &cie->caf) ||
	    !cursor_leb(&c, how->leb | LEB_SIGNED, &ra))
		return false;
	cie->daf = (int64_t)ra;
	if (cie->version == 1) {
		if (!cursor_u8(&c, &b))
			return false;
		ra = b;
	} else if (!cursor_leb(&c, how->leb, &ra)) {
		return false;
	}
	cie->ra = ra;
	if (cie->aug[0] == 'z') {
		cie->aug_z = true;
		if (!cursor_leb(&c, how->leb, &len) ||
		    len > (uint64_t)(c.end - c.p))
			return false;
		cursor_init(&data, c.p, c.p + len, c.big_endian);
		c.p += len;
		if (!read_letters(&data, how, cie))
			return false;
	} else if (cie->aug[0] && strcmp(cie->aug, "eh")) {
		cie->unknown = cie->aug;
	}
	cie->ins = c.p;
	cie->ins_end = c.end;
	return true;
}

bool eh_hdr_parse(const unsigned char *hdr, size_t len, uint64_t addr,
		  bool big, unsigned addr_size, struct eh_hdr *h)
{
	struct eh_ptrs how = { addr_size, LEB_64, true, addr };
	uint8_t version, ptr_enc, count_enc;
	struct cursor c;

	cursor_init(&c, hdr, hdr + len, big);
	if (!cursor_u8(&c, &version) || version != 1 ||
	    !cursor_u8(&c, &ptr_enc) || !cursor_u8(&c, &count_enc) ||
	    !cursor_u8(&c, &h->table_enc) ||
	    !eh_pointer(&c, ptr_enc, addr + (uint64_t)(c.p - hdr), &how,
			&h->frame_ptr) ||
	    !eh_pointer(&c, count_enc, addr + (uint64_t)(c.p - hdr), &how,
			&h->count))
		return false;
	h->table = c.p;
	return true;
}
