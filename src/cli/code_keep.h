/*
 * From the first of the disassembly's two reads (code_positions.h): the
 * symbols the listing may list, and the functions whose positions the
 * second read keeps whole.
 */
#ifndef CGA_CODE_KEEP_H
#define CGA_CODE_KEEP_H

#include <stdint.h>

#include "options.h"
#include "profile/pos_select.h"
#include "profile/profile.h"
#include "symtab/symtab.h"

/*
 * From the first read q by 32 bytes of code: the symbols the listing
 * may list (req[]), by bounds of each symbol's cost. bounds, nb and
 * sym_of are the binary's regions (code_make_regions()).
 */
void code_bounded_required(const struct profile *q, const struct symtab *st,
			   name_id ob, const uint64_t *bounds, uint32_t nb,
			   const uint32_t *sym_of, const struct options *o,
			   uint8_t *req);

/*
 * From a first read q by the binary's regions: the symbols the listing
 * lists (req[]), each symbol's cost exact: the sum of its regions' rows
 * of the object, as code_positions_resolved_ok() counts it after the
 * second read.
 */
void code_exact_required(const struct profile *q, const struct symtab *st,
			 name_id ob, const uint32_t *sym_of, uint32_t nb,
			 const struct options *o, uint8_t *req);

/*
 * From the first read q by region and the symbols the listing lists
 * (req[]): the functions with a position in one, or named after one,
 * and those read in two blocks, kept whole in ps.
 */
void code_keep_exact(const struct profile *q, const struct symtab *st,
		     name_id ob, const uint32_t *sym_of, uint32_t nb,
		     const uint8_t *req, struct pos_select *ps);

/*
 * From the first read q and the symbols the listing may list (req[]):
 * the functions whose range touches one, or named after one, and those
 * read in two blocks, kept whole in ps.
 */
void code_keep_touching(const struct profile *q, const struct symtab *st,
			name_id ob, const uint64_t *bounds, uint32_t nb,
			const uint32_t *sym_of, const uint8_t *req,
			struct pos_select *ps);

#endif
