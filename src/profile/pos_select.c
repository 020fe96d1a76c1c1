/*
 * POS_SELECT's bookkeeping (pos_select.h): which functions keep their
 * positions whole, and for the others, counted while they are read,
 * what resolution and the disassembly's choice need of their addresses.
 */
#include "pos_select.h"

#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "profile.h"

#define NO_REGION UINT32_MAX

struct pos_select *pos_select_new(void)
{
	struct pos_select *ps = xcalloc(1, sizeof(*ps));

	arena_init(&ps->arena);
	names_init(&ps->keep, &ps->arena);
	ps->cur = NO_ID;
	ps->last_region = NO_REGION;
	return ps;
}

void pos_select_drop_counts(struct pos_select *ps)
{
	free(ps->state);
	free(ps->count);
	free(ps->outside);
	free(ps->lo);
	free(ps->hi);
	free(ps->set);
	free(ps->run);
	ps->run = NULL;
	ps->run_alloc = 0;
	ps->state = NULL;
	ps->count = ps->outside = NULL;
	ps->lo = ps->hi = NULL;
	ps->set = NULL;
	ps->nfunc = 0;
	ps->set_mask = 0;
	ps->set_alloc = 0;
	ps->cur = NO_ID;
}

void pos_select_free(struct pos_select *ps)
{
	if (!ps)
		return;
	pos_select_drop_counts(ps);
	names_release(&ps->keep);
	arena_release(&ps->arena);
	free(ps->object);
	free(ps->object_base);
	free(ps->bound);
	free(ps->in_seg);
	free(ps->key);
	free(ps);
}

/* "object\x1fname", in a buffer of the caller's (*buf, grown). */
static size_t keep_key(char **buf, size_t *alloc, const char *object,
		       size_t olen, const char *name, size_t nlen)
{
	size_t n = olen + 1 + nlen;

	if (n + 1 > *alloc) {
		*alloc = n + 64;
		*buf = xreallocarray(*buf, *alloc, 1);
	}
	memcpy(*buf, object, olen);
	(*buf)[olen] = '\x1f';
	memcpy(*buf + olen + 1, name, nlen);
	(*buf)[n] = '\0';
	return n;
}

void pos_select_keep(struct pos_select *ps, const char *object, size_t olen,
		     const char *name, size_t nlen)
{
	char *buf = NULL;
	size_t alloc = 0, n = keep_key(&buf, &alloc, object, olen, name, nlen);

	names_intern(&ps->keep, buf, n);
	free(buf);
}

void pos_select_object_base(struct pos_select *ps, const char *base)
{
	free(ps->object_base);
	ps->object_base = xstrdup(base);
}

void pos_select_regions(struct pos_select *ps, const char *object,
			const uint64_t *bounds, const uint8_t *in_seg,
			uint32_t n)
{
	free(ps->object);
	free(ps->bound);
	free(ps->in_seg);
	ps->object = object ? xstrdup(object) : NULL;
	ps->bound = xcalloc(n + 1, sizeof(*ps->bound));
	ps->in_seg = xcalloc(n + 1, sizeof(*ps->in_seg));
	if (n) {
		memcpy(ps->bound, bounds, n * sizeof(*bounds));
		memcpy(ps->in_seg, in_seg, (n - 1) * sizeof(*in_seg));
	}
	ps->nbound = n;
	ps->last_region = NO_REGION;
}

/* The region holding addr, or NO_REGION. Addresses come in order
 * within a function: the last answer is tried first. */
static uint32_t find_region(struct pos_select *ps, uint64_t addr)
{
	uint32_t k = ps->last_region, lo = 0, hi = ps->nbound;

	if (k != NO_REGION && ps->bound[k] <= addr && addr < ps->bound[k + 1])
		return k;
	if (!ps->nbound || addr < ps->bound[0] ||
	    addr >= ps->bound[ps->nbound - 1])
		return NO_REGION;
	/* the last bound <= addr */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ps->bound[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	ps->last_region = lo;
	return lo;
}

/* Each array is cleared as it grows, every byte of it touched: grown
 * by an eighth (a big program's 700,000 functions, 25 bytes each), not
 * by half, it holds at most 2 MB it does not use rather than 9;
 * realloc() moves a block this large by remapping it, not copying. */
static void grow_funcs(struct pos_select *ps, size_t need)
{
	size_t n = need + need / 8 + 1024, old = ps->nfunc;

	ps->state = xreallocarray(ps->state, n, sizeof(*ps->state));
	ps->count = xreallocarray(ps->count, n, sizeof(*ps->count));
	ps->outside = xreallocarray(ps->outside, n, sizeof(*ps->outside));
	ps->lo = xreallocarray(ps->lo, n, sizeof(*ps->lo));
	ps->hi = xreallocarray(ps->hi, n, sizeof(*ps->hi));
	memset(ps->state + old, 0, (n - old) * sizeof(*ps->state));
	memset(ps->count + old, 0, (n - old) * sizeof(*ps->count));
	memset(ps->outside + old, 0, (n - old) * sizeof(*ps->outside));
	memset(ps->lo + old, 0, (n - old) * sizeof(*ps->lo));
	memset(ps->hi + old, 0, (n - old) * sizeof(*ps->hi));
	ps->nfunc = n;
}

/* Whether a function of object ob (olen bytes; "" none) is of the
 * binary's, the object guessed on the first of it (object_base). */
static bool of_object(struct pos_select *ps, const char *ob, size_t olen)
{
	const char *want = ps->object_base, *name;

	if (ps->object)
		return olen == strlen(ps->object) && !memcmp(ob, ps->object, olen);
	if (!want)
		return true;
	if (!olen) {
		ps->noname_in = true;
		return true;
	}
	/* names are NUL-terminated in the profile's table */
	name = strchr(want, '/') ? ob : path_base(ob);
	if (strcmp(name, want))
		return false;
	ps->object = xstrdup(ob);
	if (ps->noname_in && ps->stop_when_refused)
		ps->gave_up = true;
	return true;
}

/* Function f's flags, found on its first position (address addr). */
static uint8_t func_state(struct pos_select *ps, struct profile *p,
			  uint32_t f, uint64_t addr)
{
	const struct pfunc *fn;
	const char *ob = "";
	size_t olen = 0;
	uint8_t s = PS_SEEN;

	if (f >= ps->nfunc)
		grow_funcs(ps, f + 1 > p->nfuncs ? f + 1 : p->nfuncs);
	if (ps->state[f] & PS_SEEN)
		return ps->state[f];
	fn = &p->funcs[f];
	if (fn->object != NO_NAME) {
		ob = profile_str(p, fn->object);
		olen = names_len(&p->names, fn->object);
	}
	if (ps->keep_all ||
	    names_find(&ps->keep, ps->key, keep_key(&ps->key, &ps->key_alloc,
						      ob, olen,
						  profile_str(p, fn->name),
						  names_len(&p->names, fn->name))) !=
		    NO_NAME)
		s |= PS_KEEP;
	if (of_object(ps, ob, olen))
		s |= PS_IN_OBJECT;
	if (!(s & PS_KEEP) && ps->keep_first &&
	    ps->keep_first(ps->keep_ctx, p, f, addr, s & PS_IN_OBJECT))
		s |= PS_KEEP;
	ps->state[f] |= s;
	return ps->state[f];
}

bool pos_select_keeps(struct pos_select *ps, const struct profile *p,
		      uint32_t f)
{
	const struct pfunc *fn = &p->funcs[f];
	const char *ob = "";
	size_t olen = 0;

	if (ps->keep_all)
		return true;
	if (!ps->keep.nr)
		return false;
	if (fn->object != NO_NAME) {
		ob = profile_str(p, fn->object);
		olen = names_len(&p->names, fn->object);
	}
	return names_find(&ps->keep, ps->key,
			  keep_key(&ps->key, &ps->key_alloc, ob, olen,
				   profile_str(p, fn->name),
				   names_len(&p->names, fn->name))) != NO_NAME;
}

/* A new generation: every slot empty. */
static void new_gen(struct pos_select *ps)
{
	if (++ps->gen == 0) {
		/* wrapped: no slot may keep a generation to come */
		if (ps->set_alloc)
			memset(ps->set, 0, ps->set_alloc * sizeof(*ps->set));
		ps->gen = 1;
	}
}

/* Whether an address of the block read now (its set) falls in
 * [prev_lo, prev_hi]. */
static bool block_overlaps(const struct pos_select *ps)
{
	if (ps->in_order) {
		for (size_t k = 0; k < ps->cur_n; k++)
			if (ps->run[k].addr >= ps->prev_lo &&
			    ps->run[k].addr <= ps->prev_hi)
				return true;
		return false;
	}
	for (size_t k = 0; ps->set && k <= ps->set_mask; k++)
		if (ps->set[k].gen == ps->gen &&
		    ps->set[k].addr >= ps->prev_lo &&
		    ps->set[k].addr <= ps->prev_hi)
			return true;
	return false;
}

/* The block of the function read now is over: its count added in. */
static void end_block(struct pos_select *ps)
{
	if (ps->cur == NO_ID)
		return;
	if (ps->prev_lo && block_overlaps(ps)) {
		uint8_t s = ps->state[ps->cur] |= PS_OVERLAP;

		if (ps->stop_when_refused && (s & PS_IN_OBJECT) &&
		    !(s & PS_KEEP))
			ps->gave_up = true;
	}
	ps->prev_lo = ps->prev_hi = 0;
	ps->count[ps->cur] += ps->cur_n;
	ps->outside[ps->cur] += ps->cur_outside;
	ps->cur = NO_ID;
	ps->cur_n = ps->cur_outside = 0;
	new_gen(ps);
	ps->in_order = true;
	/* the next block starts small */
	if (ps->set_mask > 63)
		ps->set_mask = 63;
}

static void start_block(struct pos_select *ps, struct profile *p,
			uint32_t f, uint64_t addr)
{
	end_block(ps);
	if (!ps->gen)
		ps->gen = 1;
	ps->cur = f;
	ps->in_order = true;
	if (func_state(ps, p, f, addr) & PS_BLOCK) {
		ps->state[f] |= PS_REOPENED;
		ps->prev_lo = ps->lo[f];
		ps->prev_hi = ps->hi[f];
	}
	ps->state[f] |= PS_BLOCK;
}

static size_t slot_hash(name_id file, uint32_t line, uint64_t addr)
{
	return (size_t)hash_u64(addr ^ ((uint64_t)file << 32 | line));
}

/*
 * Room for twice the block's positions. The slots are one buffer as
 * large as the largest block has needed, of which a block uses a prefix
 * as large as it needs (set_mask): most blocks are a few dozen
 * positions, and a new block's slots then stay in the cache rather than
 * spread over the whole buffer.
 */
static void set_grow(struct pos_select *ps)
{
	size_t cap = ps->set ? (ps->set_mask + 1) * 2 : 64;
	size_t oldcap = ps->set ? ps->set_mask + 1 : 0, n = 0;
	struct ps_slot *cur = xcalloc(ps->cur_n + 1, sizeof(*cur));

	for (size_t i = 0; i < oldcap; i++)
		if (ps->set[i].gen == ps->gen)
			cur[n++] = ps->set[i];
	if (cap > ps->set_alloc) {
		free(ps->set);
		ps->set = xcalloc(cap, sizeof(*ps->set));
		ps->set_alloc = cap;
	}
	ps->set_mask = cap - 1;
	/* the old entries are now stale: the block's go in again */
	new_gen(ps);
	for (size_t i = 0; i < n; i++) {
		size_t j = slot_hash(cur[i].file, cur[i].line, cur[i].addr) &
			   ps->set_mask;

		while (ps->set[j].gen == ps->gen)
			j = (j + 1) & ps->set_mask;
		ps->set[j] = cur[i];
		ps->set[j].gen = ps->gen;
	}
	free(cur);
}

/* Add (file, line, addr) to the hashed set: true when it is new. */
static bool hash_add(struct pos_select *ps, name_id file, uint32_t line,
		     uint64_t addr)
{
	size_t j;

	if (!ps->set || (size_t)(ps->cur_n + 1) * 2 > ps->set_mask + 1)
		set_grow(ps);
	j = slot_hash(file, line, addr) & ps->set_mask;
	for (;;) {
		struct ps_slot *s = &ps->set[j];

		if (s->gen != ps->gen) {
			*s = (struct ps_slot){ addr, file, line, ps->gen };
			return true;
		}
		if (s->addr == addr && s->file == file && s->line == line)
			return false;
		j = (j + 1) & ps->set_mask;
	}
}

/* The first of run[0, n) (by address, ascending) at addr or past it. */
static size_t lower_bound(const struct ps_slot *run, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (run[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Add (file, line, addr) to the block's set: true when it is new. A
 * block's addresses mostly ascend, a call's or a jump's line the last
 * one again: they are kept in order in run[], searched by address;
 * the first that would go before the last moves the block's set into
 * the hash table.
 */
static bool set_add(struct pos_select *ps, name_id file, uint32_t line,
		    uint64_t addr)
{
	if (ps->in_order) {
		size_t n = ps->cur_n;

		if (n && addr <= ps->run[n - 1].addr) {
			for (size_t k = lower_bound(ps->run, n, addr);
			     k < n && ps->run[k].addr == addr; k++)
				if (ps->run[k].file == file &&
				    ps->run[k].line == line)
					return false;
		}
		if (!n || addr >= ps->run[n - 1].addr) {
			if (n + 1 > ps->run_alloc) {
				ps->run_alloc = ps->run_alloc * 2 + 256;
				ps->run = xreallocarray(ps->run, ps->run_alloc,
							sizeof(*ps->run));
			}
			ps->run[n] = (struct ps_slot){ addr, file, line, 0 };
			return true;
		}
		/* out of order: the block's set is hashed from now */
		ps->in_order = false;
		ps->cur_n = 0;
		new_gen(ps);
		for (size_t k = 0; k < n; k++) {
			hash_add(ps, ps->run[k].file, ps->run[k].line,
				 ps->run[k].addr);
			ps->cur_n++;
		}
	}
	return hash_add(ps, file, line, addr);
}

bool pos_select_see(struct pos_select *ps, struct profile *p, uint32_t func,
		    name_id file, uint32_t line, uint64_t addr,
		    uint32_t *region)
{
	uint8_t s;
	uint32_t k = NO_REGION;

	if (func != ps->cur)
		start_block(ps, p, func, addr);
	s = ps->state[func] |= PS_POSITIONS;
	if (!addr) {
		ps->state[func] |= PS_ZERO_ADDR;
	} else {
		if (!ps->lo[func] || addr < ps->lo[func])
			ps->lo[func] = addr;
		if (addr > ps->hi[func])
			ps->hi[func] = addr;
	}
	if (s & PS_KEEP)
		return true;
	*region = 1;
	if (ps->no_counts && !ps->nbound)
		return false;
	if (addr && (s & PS_IN_OBJECT))
		k = find_region(ps, addr);
	if (ps->no_counts) {
		*region = k == NO_REGION ? 1 : 2 + k;
		return false;
	}
	if (addr && set_add(ps, file, line, addr)) {
		ps->cur_n++;
		if (k == NO_REGION || !ps->in_seg[k])
			ps->cur_outside++;
	}
	*region = k == NO_REGION ? 1 : 2 + k;
	return false;
}

void pos_select_finish(struct pos_select *ps)
{
	end_block(ps);
}

void pos_select_span(const struct pos_select *ps, uint32_t func,
		     uint32_t region, uint64_t addr, struct ps_span *sp)
{
	sp->lo = 1;
	sp->hi = 0;
	sp->count = !ps->no_counts;
	sp->in_seg = false;
	if (!addr || !region)
		return;
	if (ps->no_counts &&
	    (!ps->nbound || !(ps->state[func] & PS_IN_OBJECT))) {
		/* profile_pos()'s 32 bytes of code */
		if (addr <= UINT64_MAX - 32) {
			sp->lo = addr & ~(uint64_t)31;
			sp->hi = sp->lo + 32;
		}
		return;
	}
	if (region >= 2) {
		sp->lo = ps->bound[region - 2];
		sp->hi = ps->bound[region - 1];
		sp->in_seg = ps->in_seg[region - 2];
		return;
	}
	/* no region: a function of another object, or an address outside
	 * every bound (find_region()) */
	sp->lo = 1;
	sp->hi = UINT64_MAX;
	if (!(ps->state[func] & PS_IN_OBJECT) || !ps->nbound)
		return;
	if (addr < ps->bound[0])
		sp->hi = ps->bound[0];
	else if (addr >= ps->bound[ps->nbound - 1])
		sp->lo = ps->bound[ps->nbound - 1];
	else
		sp->hi = 0;	/* not 1, yet inside: no span */
}

void pos_select_count(struct pos_select *ps, name_id file, uint32_t line,
		      uint64_t addr, bool in_seg)
{
	if (set_add(ps, file, line, addr)) {
		ps->cur_n++;
		if (!in_seg)
			ps->cur_outside++;
	}
}

void pos_select_widen(struct pos_select *ps, uint32_t func, uint64_t lo,
		      uint64_t hi)
{
	if (!lo)
		return;
	if (!ps->lo[func] || lo < ps->lo[func])
		ps->lo[func] = lo;
	if (hi > ps->hi[func])
		ps->hi[func] = hi;
}
