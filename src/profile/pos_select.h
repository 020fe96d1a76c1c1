/*
 * Positions kept whole only for the functions a disassembly lists
 * (POS_SELECT, issue 33). A big program's profile has tens of millions
 * of instructions' positions; --disasm lists a few functions, but
 * resolution checks every address against the binary ("N of N
 * addresses inside it") and the choice of functions weighs every
 * symbol's cost. So while a profile is read, profile_pos() keeps the
 * positions of the functions chosen (by object and name) whole, and of
 * every other function:
 *   - its distinct addressed positions, counted per function, and how
 *     many of them fall outside the binary's segments (the binary's
 *     regions, below, with the load offset assumed);
 *   - its lowest and highest address;
 *   - its cost in coarse positions, apart by region: a region is a
 *     stretch of the binary's addresses between two symbol or segment
 *     bounds, so every address in it has the same symbol and segment.
 *
 * Counting distinct positions without keeping them: a Callgrind file
 * gives each function's positions in one block (its "fn=" until the
 * next), so a set of the current block's positions, emptied when the
 * function changes, counts them exactly; a function whose positions
 * come in two blocks (a second part, a recursion level folded into it)
 * is marked reopened: its count may be too high, and the caller keeps
 * it whole or reads again. Where no address of a later block falls in
 * the range of the blocks before (a function's code in two objects),
 * the counts add up; where one does it is marked PS_OVERLAP.
 *
 * Knows nothing of symbols: the caller (cli/code_positions.c) gives the
 * regions as bounds in the profile's addresses.
 */
#ifndef CGA_POS_SELECT_H
#define CGA_POS_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/names.h"

struct profile;

/* Per function of the profile (pos_select_state()). */
enum {
	PS_SEEN = 1,		/* the fields below are set */
	PS_KEEP = 2,		/* its positions are kept whole */
	PS_IN_OBJECT = 4,	/* of the binary's object: regions apply */
	PS_BLOCK = 8,		/* a block of its positions was read */
	PS_REOPENED = 16,	/* ... and another after other functions' */
	PS_ZERO_ADDR = 32,	/* a position without an address */
	PS_POSITIONS = 64,	/* any position at all */
	PS_OVERLAP = 128,	/* reopened, a block counted with an
				 * address within the range of those
				 * before: its count may be too high
				 * (without, the blocks' counts add up) */
};

#define POS_ROW_CACHE 256

struct pos_select {
	/* chosen before reading */
	struct arena arena;
	struct names keep;		/* "object\x1fname" of those kept */
	bool keep_all;			/* every function whole (a test) */
	bool no_counts;			/* flags and ranges alone (a first
					 * read, choosing): its coarse rows
					 * by 32 bytes of code of each
					 * object, or with regions given,
					 * the object's by function and
					 * region (each symbol's cost
					 * exact), the others' still by
					 * 32 bytes */
	uint32_t row_cache[POS_ROW_CACHE];	/* per_func: rows found
						 * last (profile_pos.c) */
	bool per_func;			/* the seek design's one read
					 * (code_seek.c): the coarse rows
					 * of every function apart, every
					 * file's lines kept, folded after
					 * the choice into the object's */
	char *object;			/* the binary's object's name; NULL:
					 * no regions */
	/* One read (cli/code_guess.c, before any function is
	 * known): the object is the first whose file name (path_base())
	 * is object_base, or whose whole name is, when object_base has a
	 * '/'; object is set then. Until it is, a function of no object
	 * is taken to be of it (a profile naming no objects), and
	 * noname_in says one was: with an object found after, that was
	 * wrong (the caller reads again). */
	char *object_base;
	bool noname_in;
	/* And with stop_when_refused, gave_up once what is read can no
	 * longer pass the caller's check: a function of the object not
	 * kept whole with PS_OVERLAP, or one of no object taken for the
	 * object found after it. The Callgrind reader then stops at the
	 * next function (an error the caller drops, reading again). */
	bool stop_when_refused, gave_up;
	/* And whether function f, of the object or not, at its first
	 * position (address addr, 0: none), is kept whole, when the names
	 * kept do not say so; NULL: by them alone. */
	bool (*keep_first)(void *ctx, const struct profile *p, uint32_t f,
			   uint64_t addr, bool in_object);
	void *keep_ctx;
	uint64_t *bound;		/* nbound, ascending: region k is
					 * [bound[k], bound[k + 1]) */
	uint32_t nbound;
	uint8_t *in_seg;		/* per region: in a segment */
	/* per function, grown as functions come (nfunc) */
	uint8_t *state;
	uint32_t *count, *outside;	/* distinct addressed positions */
	uint64_t *lo, *hi;		/* 0: none */
	size_t nfunc;
	/* the block read now: its function, and its positions (file,
	 * line, address) in an open-addressed set whose entries of an
	 * older block (gen) are empty */
	uint32_t cur;
	uint64_t prev_lo, prev_hi;	/* a reopened block's: the range
					 * before it (prev_lo 0: none) */
	uint32_t cur_outside;
	uint32_t cur_n;
	struct ps_slot {
		uint64_t addr;
		uint32_t file, line, gen;
	} *set;
	size_t set_mask;		/* of the prefix in use */
	struct ps_slot *run;		/* or, while its addresses ascend,
					 * in order */
	size_t run_alloc;
	bool in_order;
	size_t set_alloc;		/* slots */
	uint32_t gen;
	uint32_t last_region;		/* the region found last */
	char *key;			/* keep_key()'s buffer */
	size_t key_alloc;
};

struct pos_select *pos_select_new(void);
void pos_select_free(struct pos_select *ps);

/* Whether function f of p is kept whole by the names kept (or
 * keep_all), as its first position would find. */
bool pos_select_keeps(struct pos_select *ps, const struct profile *p,
		      uint32_t f);

/* Guess the object from its file name base (object_base above). */
void pos_select_object_base(struct pos_select *ps, const char *base);

/* Keep the functions of object named name whole. */
void pos_select_keep(struct pos_select *ps, const char *object,
		     size_t olen, const char *name, size_t nlen);
/* The regions: bounds (n, ascending, no two equal; copied) in the
 * profile's addresses, of the binary for object; in_seg[k] for region
 * k (n - 1 of them). */
void pos_select_regions(struct pos_select *ps, const char *object,
			const uint64_t *bounds, const uint8_t *in_seg,
			uint32_t n);

/*
 * Called by profile_pos() under POS_SELECT with the position as read:
 * counts it, and returns whether it is kept whole; else *region is its
 * ppos.region (1, or 2 + its region).
 */
bool pos_select_see(struct pos_select *ps, struct profile *p,
		    uint32_t func, name_id file, uint32_t line, uint64_t addr,
		    uint32_t *region);
/* After reading: the last block counted. */
void pos_select_finish(struct pos_select *ps);

/*
 * The reader's fast path (a run of cost lines of one function in one
 * block, its file and function unchanged): the addresses [lo, hi)
 * whose positions profile_pos() sums into the same coarse row as that
 * of address addr it just gave (ppos.region of it: region), at a line
 * the same as its or, where !line_exact, any line but 0. For each
 * further line with such a position, the caller adds its costs to that
 * row, calls pos_select_count() when count, and gives the run's lowest
 * and highest address to pos_select_widen() at its end: as
 * profile_pos() would for each. An empty span (lo > hi: a position
 * kept whole, or no address) shares its row with no other.
 */
struct ps_span {
	uint64_t lo, hi;
	bool count;		/* the block's distinct positions counted */
	bool in_seg;		/* in the binary's segments */
};
void pos_select_span(const struct pos_select *ps, uint32_t func,
		     uint32_t region, uint64_t addr, struct ps_span *sp);
/* The distinct addressed position (file, line, addr) of the block read
 * now counted, as pos_select_see() does. */
void pos_select_count(struct pos_select *ps, name_id file, uint32_t line,
		      uint64_t addr, bool in_seg);

/* The same, inline where the block's addresses still ascend past all
 * before (most lines): a new position, appended to run[]. */
static inline void pos_select_count_next(struct pos_select *ps,
					 name_id file, uint32_t line,
					 uint64_t addr, bool in_seg)
{
	uint32_t n = ps->cur_n;

	if (ps->in_order && n && n < ps->run_alloc &&
	    addr > ps->run[n - 1].addr) {
		ps->run[n] = (struct ps_slot){ addr, file, line, 0 };
		ps->cur_n = n + 1;
		ps->cur_outside += !in_seg;
		return;
	}
	pos_select_count(ps, file, line, addr, in_seg);
}
/* Function func's range widened to [lo, hi] (lo 0: nothing). */
void pos_select_widen(struct pos_select *ps, uint32_t func, uint64_t lo,
		      uint64_t hi);

/* Function f's PS_* flags (0: no position of it was read). */
static inline uint8_t pos_select_state(const struct pos_select *ps,
				       uint32_t f)
{
	return f < ps->nfunc ? ps->state[f] : 0;
}

/* The first address of ppos.region value r (>= 2). */
static inline uint64_t pos_select_region_addr(const struct pos_select *ps,
					      uint32_t r)
{
	return ps->bound[r - 2];
}

/* After resolution: the per-function counts dropped (the functions
 * are renumbered), the regions kept. */
void pos_select_drop_counts(struct pos_select *ps);

#endif
