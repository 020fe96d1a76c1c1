/*
 * gprof's gmon.out data while it is still addresses: histograms, call
 * arcs and basic-block counts, summed over every file read the way gprof
 * sums them, kept in the profile (p->gmon) until resolve_gmon() turns
 * them into functions, self time and calls with the binary's symbols.
 * print/write_gmon.c writes the sum back out (--sum, like gprof -s).
 *
 * The file formats (all numbers in the target's byte order; A is the
 * address size, 4 or 8, taken from the binary):
 *
 *   GNU:  "gmon" u32 version(1) 12 spare bytes, then records, each a tag
 *         byte and its body:
 *         0 histogram  A low_pc, A high_pc, u32 nbins, u32 rate (ticks
 *                      per second), 15 bytes dimension ("seconds"), one
 *                      byte its abbreviation ('s'), nbins u16 counts
 *         1 call arc   A from_pc (a return address in the caller),
 *                      A self_pc (in the callee, after its mcount call),
 *                      u32 count
 *         2 bb counts  u32 n, then n times A address, A count
 *   BSD (no magic): A low_pc, A high_pc, u32 ncnt (bytes of header and
 *         counts), then either u32 0x00051879, u32 rate, 12 spare bytes
 *         (4.4BSD) or nothing (old BSD); then the u16 counts up to byte
 *         ncnt; then arcs to the end: A from_pc, A self_pc, and a count
 *         of 4 bytes (A = 4) or 8 bytes (A = 8).
 */
#ifndef CGA_GMON_DATA_H
#define CGA_GMON_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/names.h"

#define GMON_BSD44_VERSION 0x00051879u

/* Distinct histogram ranges kept (glibc writes one; each new one is
 * checked against all before it). */
#define GMON_MAX_HISTS 1024

/* Ticks per second an old BSD file (which does not say), or a file
 * without a histogram, is taken at: gprof's usual hz. */
#define GMON_BSD_DEFAULT_RATE 100u

struct gmon_hist {
	uint64_t low, high;	/* [low, high), runtime addresses */
	uint32_t nbins;
	uint32_t rate;		/* ticks per second */
	char dimen[16];		/* "seconds", NUL-terminated */
	char abbrev;		/* 's' */
	uint64_t *bins;		/* counts, summed over the files */
};

struct gmon_arc {
	uint64_t from, self;	/* call site (return address), callee */
	uint64_t count;
};

struct gmon_bb {
	uint64_t addr, count;
};

/* What gprof's "Index by function name" needs of a function's symbol:
 * its name as the symbol table spells it (the index's order: gprof sorts
 * mangled names) and whether it is local, which the index marks with
 * the function's file. */
struct gmon_sym {
	name_id raw;		/* NO_NAME: not from a symbol (<locore>) */
	bool local;
};

struct gmon_data {
	uint8_t addr_size;	/* 4 or 8 */
	bool big_endian;
	uint32_t nfiles;

	struct gmon_hist *hists;
	size_t nhists, hists_alloc;
	struct gmon_arc *arcs;	/* one per (from, self), counts summed */
	size_t narcs, arcs_alloc;
	struct gmon_bb *bbs;	/* one per address, counts summed */
	size_t nbbs, bbs_alloc;

	/* by profile function, set by resolve_gmon() */
	struct gmon_sym *syms;
	size_t nsyms, syms_alloc;

	/* private: (from, self) -> arc and addr -> bb, open addressing,
	 * index + 1 (0 empty) */
	uint32_t *arc_table, *bb_table;
	size_t arc_mask, bb_mask;
};

struct gmon_data *gmon_new(uint8_t addr_size, bool big_endian);
void gmon_free(struct gmon_data *g);

/* Add count to the arc (from, self); saturates at UINT64_MAX. */
void gmon_add_arc(struct gmon_data *g, uint64_t from, uint64_t self,
		  uint64_t count);
void gmon_add_bb(struct gmon_data *g, uint64_t addr, uint64_t count);

/*
 * The histogram for [low, high): an existing one with that range, or a
 * new one with zeroed bins (then nbins, rate, dimen and abbrev are taken
 * from h). NULL, with the reason in why, when the range overlaps another
 * without matching it, when nbins differ for the same range, or when the
 * dimension differs from the first histogram's: the cases gprof refuses
 * too; when the rate differs from the first's (gprof refuses it in BSD
 * files and keeps the first rate in GNU ones, counting the others' ticks
 * at it: we refuse both); or when there would be more than
 * GMON_MAX_HISTS.
 */
struct gmon_hist *gmon_hist_for(struct gmon_data *g,
				const struct gmon_hist *h, char *why,
				size_t whysize);

/* Every histogram count added up. */
uint64_t gmon_ticks(const struct gmon_data *g);

struct profile;

/*
 * The name gprof sorts function f of p by: its symbol's as the table
 * spells it (mangled: "_Z4spinl" for spin(long)) when p is a gmon.out
 * resolved, else the name listings show. gprof compares the names of
 * its symbol table and demangles only to print, so its ties order C++
 * functions by mangled name, and after every name without a leading
 * '_' (cg_arcs.c, cmp_total).
 */
const char *gmon_sort_name(const struct profile *p, uint32_t f);

#endif
