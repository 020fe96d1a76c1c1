/*
 * A call instruction ending at an address, on x86-64 (see call_check.h).
 *
 * The calls a compiler emits are "call rel32" (E8 and 4 bytes) and
 * "call r/m64" (FF with a ModRM byte whose reg field is 2, then a SIB
 * byte and a displacement as the ModRM says, after an optional REX or
 * notrack prefix). The bytes before ra are tried as each: the one whose
 * length ends exactly at ra is a call. Code that is no call may still
 * read as one by chance; the caller looks at many return addresses.
 */
#include "call_check.h"

#include <stdbool.h>

#define EM_X86_64_MACHINE 62

/* The length of an FF /2 whose ModRM byte is modrm and SIB byte sib,
 * from the FF on; 0 when it is not FF /2. */
static unsigned ff2_length(unsigned char modrm, unsigned char sib)
{
	unsigned mod = modrm >> 6, rm = modrm & 7;
	bool has_sib = mod != 3 && rm == 4;
	unsigned len = 2 + (has_sib ? 1 : 0);

	if ((modrm >> 3 & 7) != 2)
		return 0;
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	else if (mod == 0 && rm == 5)
		len += 4;		/* rip-relative */
	else if (mod == 0 && has_sib && (sib & 7) == 5)
		len += 4;		/* no base: disp32 */
	return len;
}

int call_ends_at(const struct symtab *st, uint64_t ra)
{
	unsigned char b[8];
	size_t got = 0;

	if (st->machine != EM_X86_64_MACHINE || ra < sizeof(b))
		return -1;
	if (symtab_read_bytes(st, ra - sizeof(b), sizeof(b), b, &got) < 0 ||
	    got < sizeof(b))
		return -1;
	/* b[8 - k] is the byte k before ra */
	if (b[8 - 5] == 0xe8)
		return 1;
	for (unsigned k = 2; k <= 7; k++) {
		const unsigned char *op = &b[8 - k];

		if (op[0] == 0xff && ff2_length(op[1], k >= 3 ? op[2] : 0) == k)
			return 1;
	}
	return 0;
}
