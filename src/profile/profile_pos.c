/*
 * Positions inside functions (see struct ppos): an open-addressed table
 * keyed by all four fields, costs in rows of p->stride.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "pos_select.h"
#include "profile.h"
#include "profile_rekey.h"

/*
 * Where a position's search starts. Readers come to a function's
 * positions in address (or line) order, and the table is far larger
 * than the cache: positions close together go to slots close together,
 * sixteen instructions (or lines) to a run of sixteen slots, so that
 * most searches find their slot in a cache line the last one loaded.
 * Instructions are 1 to 15 bytes; two in one slot are probed past.
 */
static uint64_t pos_hash(uint32_t func, name_id file, uint32_t line,
			 uint64_t addr, uint32_t region)
{
	uint64_t at = addr ? addr >> 2 : line;

	return hash_u64(hash_u64((uint64_t)func << 32 | file) ^ at >> 4 ^
			(uint64_t)region << 40) +
	       (at & 15);
}

static void pos_rehash(struct profile *p)
{
	size_t cap = p->pos_table ? (p->pos_mask + 1) * 2 : 1024;

	/* a table dropped (profile_drop_pos_table()) is built again for
	 * every position there is, at under half full */
	while (cap < (p->npos + 1) * 2)
		cap *= 2;

	free(p->pos_table);
	p->pos_table = xcalloc(cap, sizeof(*p->pos_table));
	p->pos_mask = cap - 1;
	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		size_t j = pos_hash(q->func, q->file, q->line, q->addr,
				    q->region) & p->pos_mask;

		while (p->pos_table[j])
			j = (j + 1) & p->pos_mask;
		p->pos_table[j] = (uint32_t)i + 1;
	}
}

static inline bool pos_is(const struct ppos *q, uint32_t func, name_id file,
			  uint32_t line, uint64_t addr, uint32_t region)
{
	return q->addr == addr && q->func == func && q->file == file &&
	       q->line == line && q->region == region;
}

/* A new position with zero cost, after the others. */
static uint32_t add_pos(struct profile *p, uint32_t func, name_id file,
			uint32_t line, uint64_t addr, uint32_t region)
{
	struct ppos *q;

	if (p->npos >= NO_ID - 1)
		BUG("too many positions");
	ARRAY_GROW(p->pos, p->npos + 1, p->pos_alloc);
	if (p->npos + 1 > p->pos_cost_alloc) {
		size_t rows = p->pos_cost_alloc / 2 * 3 + 256;

		p->pos_cost = xreallocarray(p->pos_cost, rows,
					    (p->stride ? p->stride : 1) *
						    sizeof(uint64_t));
		p->pos_cost_alloc = rows;
	}
	q = &p->pos[p->npos];
	q->func = func;
	q->file = file;
	q->line = line;
	q->addr = addr;
	q->region = region;
	memset(profile_pos_cost(p, (uint32_t)p->npos), 0,
	       p->stride * sizeof(uint64_t));
	p->pos_hint = (uint32_t)p->npos;
	return (uint32_t)p->npos++;
}

void profile_keep_lines_of(struct profile *p, const char *file, size_t len)
{
	if (!p->pos_file_names) {
		p->pos_file_names = xmalloc(sizeof(*p->pos_file_names));
		names_init(p->pos_file_names, &p->arena);
	}
	names_intern(p->pos_file_names, file, len);
}

/* Whether POS_LINES keeps file's lines. Readers stay in one file for
 * many positions: the last answer is kept, and each file's. */
static bool lines_kept(struct profile *p, name_id file)
{
	uint32_t v;

	if (p->pos_all_files)
		return true;
	if (file == p->pos_last_file)
		return p->pos_last_kept;
	v = u64map_get(&p->pos_files, file);
	if (v == U64MAP_NONE) {
		v = p->pos_file_names &&
		    names_find(p->pos_file_names, profile_str(p, file),
			       names_len(&p->names, file)) != NO_NAME ? 1 : 2;
		u64map_put(&p->pos_files, file, v);
	}
	p->pos_last_file = file;
	p->pos_last_kept = v == 1;
	return p->pos_last_kept;
}

/* POS_LINES: the function standing for func's object. */
static uint32_t object_func(struct profile *p, uint32_t func)
{
	if (func != p->pos_last_func) {
		p->pos_last_func = func;
		p->pos_last_rep = u64map_get_or_put(&p->pos_objects,
						    p->funcs[func].object,
						    func, NULL);
	}
	return p->pos_last_rep;
}

/* The table's slot of the position, or the empty slot where it would
 * go (the table grown first if a new one would fill it past half) */
static inline size_t pos_slot(struct profile *p, uint32_t func, name_id file,
			      uint32_t line, uint64_t addr, uint32_t region)
{
	size_t j;

	if (!p->pos_table || (p->npos + 1) * 2 > p->pos_mask + 1)
		pos_rehash(p);
	j = pos_hash(func, file, line, addr, region) & p->pos_mask;
	for (;;) {
		uint32_t v = p->pos_table[j];

		if (!v || pos_is(&p->pos[v - 1], func, file, line, addr,
				 region))
			return j;
		j = (j + 1) & p->pos_mask;
	}
}

uint32_t profile_pos_as_is(struct profile *p, uint32_t func, name_id file,
			   uint32_t line, uint64_t addr, uint32_t region)
{
	size_t j;
	uint32_t h = p->pos_hint;

	/* the last position again (a jump's source), or the next one */
	if (h < p->npos && pos_is(&p->pos[h], func, file, line, addr, region))
		return h;
	if (p->pos_log)
		return add_pos(p, func, file, line, addr, region);
	if (h + 1 < p->npos &&
	    pos_is(&p->pos[h + 1], func, file, line, addr, region))
		return p->pos_hint = h + 1;
	j = pos_slot(p, func, file, line, addr, region);
	if (p->pos_table[j])
		return p->pos_hint = p->pos_table[j] - 1;
	h = add_pos(p, func, file, line, addr, region);
	p->pos_table[j] = h + 1;
	return h;
}

/*
 * The seek design's one read (pos_select.per_func): a function's row
 * (func, file, line, region). A function of another object than the
 * binary's is never kept whole: its rows are its object's from the
 * start (every line kept), as the fold would make them. Each line a
 * row: a function's lines alternate (a loop, code inlined from a
 * header), where the table's hint finds only the last and the next;
 * the rows found last are kept by (file, line, region), each checked
 * against pos[] (a row of another function is not it).
 */
static uint32_t per_func_row(struct profile *p, uint32_t func, name_id file,
			     uint32_t line, uint32_t region)
{
	struct pos_select *ps = p->pos_select;
	uint32_t *slot, v;

	if (!(pos_select_state(ps, func) & PS_IN_OBJECT))
		func = object_func(p, func);
	slot = &ps->row_cache[(line + file * 31 + region * 131) &
			      (POS_ROW_CACHE - 1)];
	v = *slot;
	if (v && v <= p->npos && pos_is(&p->pos[v - 1], func, file, line, 0,
					 region))
		return p->pos_hint = v - 1;
	v = profile_pos_as_is(p, func, file, line, 0, region);
	*slot = v + 1;
	return v;
}

uint32_t profile_pos(struct profile *p, uint32_t func, name_id file,
		     uint32_t line, uint64_t addr)
{
	uint32_t region = 0;

	if (p->pos_detail == POS_SELECT) {
		if (pos_select_see(p->pos_select, p, func, file, line, addr,
				   &region))
			return profile_pos_as_is(p, func, file, line, addr, 0);
		/* choosing (pos_select.no_counts) without regions, or of
		 * an object not the binary's: the cost of each object's
		 * 32 bytes of code (their low bit set: never 0), and of
		 * each file on a line and on none */
		if (p->pos_select->no_counts &&
		    (!p->pos_select->nbound ||
		     !(pos_select_state(p->pos_select, func) & PS_IN_OBJECT)))
			return profile_pos_as_is(p, object_func(p, func), file,
						 line ? 1 : 0,
						 addr ? (addr & ~(uint64_t)31) | 1
						      : 0,
						 1);
		/* as POS_LINES, apart by region; the choosing read by
		 * region (no_counts) keeps each function's rows in a region
		 * apart: the functions with code in a symbol listed are
		 * kept whole (a profile of lines alone has none) */
		addr = 0;
		if (p->pos_select->per_func)
			return per_func_row(p, func, file, line, region);
		if (!p->pos_select->no_counts || region < 2)
			func = object_func(p, func);
		if (line && !lines_kept(p, file))
			line = 1;
	} else if (p->pos_detail != POS_ALL) {
		addr = 0;
		func = p->pos_detail == POS_FILES ? 0 : object_func(p, func);
		if (line && (p->pos_detail == POS_FILES ||
			     !lines_kept(p, file)))
			line = 1;
	}
	return profile_pos_as_is(p, func, file, line, addr, region);
}

void profile_pos_coarse(struct profile *p, uint32_t *func, name_id file,
			uint32_t *line)
{
	*func = object_func(p, *func);
	if (*line && !lines_kept(p, file))
		*line = 1;
}

uint32_t profile_pos_find(struct profile *p, uint32_t func, name_id file,
			  uint32_t line, uint64_t addr, uint32_t region)
{
	size_t j = pos_slot(p, func, file, line, addr, region);

	return p->pos_table[j] ? p->pos_table[j] - 1 : NO_ID;
}

void profile_drop_pos_table(struct profile *p)
{
	free(p->pos_table);
	p->pos_table = NULL;
	p->pos_mask = 0;
}
