/*
 * Applying binaries to a profile (-b). For each binary:
 *
 *   1. find the profile object it belongs to (same file name);
 *   2. find the load offset: given (--load-offset), or found by matching
 *      where the profile's named functions start with where the symbol
 *      table puts them (the most common difference wins);
 *   3. check it is the right binary: the profile's instruction addresses
 *      must fall inside its segments;
 *   4. name what the profile knows only by address ("0x...1160", Q6),
 *      give files and lines to code the profile has as "???" line 0, and
 *      optionally charge inlined code to the inlined function.
 *
 * Callgrind's instruction positions are relative to their object (Q15),
 * so for callgrind input the offset found is 0; so are IgProf's (its F
 * offsets), where IgProf's anonymous "@?0x..." functions are named by
 * their position's address; other inputs carry runtime addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "profile/pos_select.h"
#include "profile/stack_recount.h"
#include "resolve.h"

#define MAX_FRAMES 64

/* "0x" and 1 to 16 hex digits, nothing else: valgrind's name for code
 * it has no symbol for; or followed by a recursion level, "'2" (the
 * deeper levels of such code), with *level pointing at its quote
 * ("" without one). */
static bool hex_name_level(const char *s, uint64_t *addr, const char **level)
{
	uint64_t v = 0;
	size_t n = 0;

	*level = "";
	if (s[0] != '0' || s[1] != 'x')
		return false;
	for (s += 2; *s; s++, n++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else if (*s == '\'' && n && s[1] >= '1' && s[1] <= '9' &&
			 strspn(s + 1, "0123456789") == strlen(s + 1))
			break;
		else
			return false;
		if (n == 16)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (!n)
		return false;
	*addr = v;
	*level = s;
	return true;
}

/* The profile object this binary belongs to, or NO_NAME when the profile
 * names no objects (it then applies to every function). */
const struct sym *resolve_named_sym(const struct profile *p,
				    const struct symtab *st, uint32_t f)
{
	const char *name = profile_str(p, p->funcs[f].name);
	const char *quote = strchr(name, '\'');
	name_id base;

	if (!quote)
		return symtab_find(st, p->funcs[f].name);
	base = names_find(st->names, name, (size_t)(quote - name));
	return base == NO_NAME ? NULL : symtab_find(st, base);
}

/* IgProf's name for code dladdr found no symbol for: "@?0x7f3a...",
 * the runtime address, or "@?(nil)". Its position has the address. */
static bool anonymous_name(const char *name)
{
	return name[0] == '@' && name[1] == '?';
}

/* A name valgrind (or IgProf) made up rather than took from a symbol
 * table. */
static bool made_up_name(const char *name)
{
	uint64_t dummy;

	const char *level;

	return name[0] == '(' || !strcmp(name, "???") ||
	       hex_name_level(name, &dummy, &level) || anonymous_name(name);
}

/* The profile's objects, quoted, for messages ("'a', 'b', ..."). */
static void object_list(const struct profile *p, char *list, size_t size)
{
	size_t n = 0;

	list[0] = '\0';
	for (size_t f = 0; f < p->nfuncs && n < size - 8; f++) {
		const char *obs;

		if (p->funcs[f].object == NO_NAME)
			continue;
		obs = profile_str(p, p->funcs[f].object);
		if (strstr(list, obs))
			continue;
		n += (size_t)snprintf(list + n, size - n, "%s'%s'", n ? ", " : "",
				      obs);
		if (n >= size)
			n = size - 1;
	}
	if (n >= size - 8)
		snprintf(list + n, size - n, ", ...");
}

/* The profile object named `want` (a path, or a file name: its last
 * component), or NO_NAME. */
static name_id object_named(const struct profile *p, const char *want)
{
	bool by_base = !strchr(want, '/');

	for (size_t f = 0; f < p->nfuncs; f++) {
		name_id ob = p->funcs[f].object;
		const char *obs;

		if (ob == NO_NAME)
			continue;
		obs = profile_str(p, ob);
		if (!strcmp(by_base ? path_base(obs) : obs, want))
			return ob;
	}
	return NO_NAME;
}

/*
 * The profile object whose functions st's symbol table holds, for a
 * lone -b whose file name is none of the objects' (prog.unstripped for
 * prog): the one with most of its named functions found, if that is
 * at least half of them and two or more. NO_NAME: none.
 */
static name_id object_by_symbols(const struct profile *p,
				 const struct symtab *st, uint32_t *found_out,
				 uint32_t *named_out)
{
	struct u64map index;	/* object -> into found[], named[] */
	uint32_t *found = NULL, *named = NULL;
	name_id *obj = NULL, best = NO_NAME;
	size_t n = 0, alloc = 0;

	u64map_init(&index);
	for (size_t f = 0; f < p->nfuncs; f++) {
		name_id ob = p->funcs[f].object;
		uint32_t k;

		if (ob == NO_NAME ||
		    made_up_name(profile_str(p, p->funcs[f].name)))
			continue;
		k = u64map_get(&index, ob);
		if (k == U64MAP_NONE) {
			if (n == alloc) {
				alloc = alloc * 2 + 8;
				found = xreallocarray(found, alloc, sizeof(*found));
				named = xreallocarray(named, alloc, sizeof(*named));
				obj = xreallocarray(obj, alloc, sizeof(*obj));
			}
			k = (uint32_t)n++;
			found[k] = named[k] = 0;
			obj[k] = ob;
			u64map_put(&index, ob, k);
		}
		named[k]++;
		found[k] += resolve_named_sym(p, st, (uint32_t)f) != NULL;
	}
	*found_out = *named_out = 0;
	for (size_t k = 0; k < n; k++)
		if (found[k] >= 2 && found[k] * 2 >= named[k] &&
		    found[k] > *found_out) {
			best = obj[k];
			*found_out = found[k];
			*named_out = named[k];
		}
	u64map_release(&index);
	free(found);
	free(named);
	free(obj);
	return best;
}

/*
 * The profile object binary b applies to: the one -b OBJECT=FILE names,
 * else the one of its file name, else (a lone -b) the one whose
 * functions its symbols hold, said in a note. NO_NAME in *out when the
 * profile names no objects. Returns 0, or -1 after reporting.
 */
static int match_object(const struct profile *p, const struct symtab *st,
			size_t b, size_t nst, const struct resolve_opts *o,
			name_id *out)
{
	const char *want = o->objects && o->objects[b] ? o->objects[b] : NULL;
	char list[512];	/* the objects, for the errors only */
	uint32_t found, named;
	size_t f = 0;

	*out = NO_NAME;
	while (f < p->nfuncs && p->funcs[f].object == NO_NAME)
		f++;
	if (f == p->nfuncs)
		return 0;	/* no objects (cachegrind): the whole profile */
	if (want) {
		*out = object_named(p, want);
		if (*out != NO_NAME)
			return 0;
		object_list(p, list, sizeof(list));
		return error("-b %s=%s: the profile has no object '%s' "
			     "(it has %s)", want, st->path, want, list);
	}
	*out = object_named(p, path_base(st->path));
	if (*out != NO_NAME)
		return 0;
	{
		/* a link's name (libstdc++.so.6): the file's own */
		char *real = realpath(st->path, NULL);

		if (real)
			*out = object_named(p, path_base(real));
		free(real);
		if (*out != NO_NAME)
			return 0;
	}
	if (nst == 1) {
		*out = object_by_symbols(p, st, &found, &named);
		if (*out != NO_NAME) {
			note("%s: no object of the profile has its name; its "
			     "symbols hold %u of the %u functions of '%s', so "
			     "it is taken for that one (-b OBJECT=FILE says "
			     "which)", st->path, found, named,
			     profile_str(p, *out));
			return 0;
		}
	}
	object_list(p, list, sizeof(list));
	return error("%s: the profile has no object of that name (it has %s); "
		     "-b OBJECT=FILE gives FILE for OBJECT", st->path, list);
}


static bool in_object(const struct profile *p, uint32_t f, name_id ob)
{
	return ob == NO_NAME || p->funcs[f].object == ob;
}

/* Lowest instruction address of each function's positions or address
 * range (0: none). */
static uint64_t *lowest_addresses(const struct profile *p)
{
	uint64_t *low = xcalloc(p->nfuncs + 1, sizeof(*low));

	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];

		if (q->addr && (!low[q->func] || q->addr < low[q->func]))
			low[q->func] = q->addr;
	}
	for (size_t f = 0; f < p->nfuncs && f < p->func_addrs_alloc; f++) {
		uint64_t a = p->func_addrs[f].lo;

		if (a && (!low[f] || a < low[f]))
			low[f] = a;
	}
	/* POS_SELECT: the lowest of the positions not kept whole */
	for (size_t f = 0; p->pos_select && f < p->nfuncs &&
			   f < p->pos_select->nfunc; f++) {
		uint64_t a = p->pos_select->lo[f];

		if (a && (!low[f] || a < low[f]))
			low[f] = a;
	}
	return low;
}

/*
 * Per profile function of object ob with a real name, the symbol st has
 * of that name, or NULL (NULL too for the others); *named counts the
 * functions with a real name. Looked up once for the offset, the match
 * checks and the starts.
 */
static const struct sym **named_syms(const struct profile *p,
				     const struct symtab *st, name_id ob,
				     uint32_t *named)
{
	const struct sym **sy = xcalloc(p->nfuncs + 1, sizeof(*sy));

	*named = 0;
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		if (!in_object(p, f, ob) ||
		    made_up_name(profile_str(p, p->funcs[f].name)))
			continue;
		(*named)++;
		sy[f] = resolve_named_sym(p, st, f);
	}
	return sy;
}

/*
 * The symbol function f is named after, when it tells where f starts:
 * f has an instruction address (low[f]) and a symbol that is not a PLT
 * stub. NULL otherwise.
 */
static const struct sym *placed_sym(const struct sym *const *sy,
				    const uint64_t *low, uint32_t f)
{
	return sy[f] && low[f] && sy[f]->kind != SYM_PLT ? sy[f] : NULL;
}

static void find_offset(const struct profile *p, const struct symtab *st,
			const struct sym *const *sy, const uint64_t *low,
			const struct resolve_opts *o, struct resolve_report *r)
{
	struct u64map votes;
	uint32_t *count = NULL;
	size_t ncount = 0, alloc = 0, named = 0;
	uint64_t *deltas = NULL;
	size_t best = 0;

	r->load_offset = 0;
	if (!p->has_instr) {
		r->load_offset = o->have_load_offset ? o->load_offset : 0;
		snprintf(r->offset_reason, sizeof(r->offset_reason), "%s",
			 o->have_load_offset ? "given with --load-offset"
					     : "the profile has no instruction addresses: none needed");
		return;
	}
	u64map_init(&votes);
	for (size_t f = 0; f < p->nfuncs; f++) {
		const struct sym *s = placed_sym(sy, low, (uint32_t)f);
		uint64_t d;
		uint32_t k;

		if (!s)
			continue;
		named++;
		d = low[f] - s->addr;
		/* objects are loaded at page-aligned offsets: anything else
		 * is a function that moved, not evidence of an offset */
		if (d & 0xfff)
			continue;
		k = u64map_get(&votes, d);
		if (k == U64MAP_NONE) {
			if (ncount == alloc) {
				alloc = alloc * 2 + 16;
				count = xreallocarray(count, alloc, sizeof(*count));
				deltas = xreallocarray(deltas, alloc, sizeof(*deltas));
			}
			k = (uint32_t)ncount++;
			count[k] = 0;
			deltas[k] = d;
			u64map_put(&votes, d, k);
		}
		count[k]++;
	}
	for (size_t k = 1; k < ncount; k++)
		if (count[k] > count[best] ||
		    (count[k] == count[best] && deltas[k] == 0))
			best = k;
	if (o->have_load_offset) {
		/* say how well the given offset fits the symbol table */
		uint32_t agree = 0;

		r->load_offset = o->load_offset;
		for (size_t k = 0; k < ncount; k++)
			if (deltas[k] == o->load_offset)
				agree = count[k];
		snprintf(r->offset_reason, sizeof(r->offset_reason),
			 "given with --load-offset; %u of %zu named functions start at their symbol's address + it",
			 agree, named);
		if (named && agree * 2 < named)
			warning("%s: with --load-offset=0x%llx only %u of %zu named functions start where its symbol table puts them%s",
				st->path, (unsigned long long)o->load_offset,
				agree, named,
				ncount ? "; check the offset" : "");
	} else if (ncount) {
		r->load_offset = deltas[best];
		snprintf(r->offset_reason, sizeof(r->offset_reason),
			 "%u of %zu named functions start at their symbol's address + this offset",
			 count[best], named);
	} else {
		snprintf(r->offset_reason, sizeof(r->offset_reason),
			 "no named function to match with the symbol table: 0 assumed");
	}
	u64map_release(&votes);
	free(count);
	free(deltas);
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/*
 * Where each function the profile names starts (its lowest instruction
 * address, load offset applied) against its symbol: r->at_start and the
 * misses, and of the misses, the most common difference (*shift) and how
 * many have it (*nshift).
 */
static void place_starts(const struct profile *p,
			 const struct sym *const *sy, const uint64_t *low,
			 struct resolve_report *r, int64_t *shift,
			 uint32_t *nshift)
{
	int64_t *d = xcalloc(p->nfuncs + 1, sizeof(*d));
	size_t nd = 0;

	*shift = 0;
	*nshift = 0;
	for (size_t f = 0; f < p->nfuncs; f++) {
		const struct sym *s = placed_sym(sy, low, (uint32_t)f);
		uint64_t a;

		if (!s)
			continue;
		a = low[f] - r->load_offset;
		if (a == s->addr) {
			r->at_start++;
			continue;
		}
		if (a < s->addr)
			r->before++;
		else if (a < s->end)
			r->inside++;
		else
			r->after++;
		d[nd++] = (int64_t)(a - s->addr);
	}
	qsort(d, nd, sizeof(*d), cmp_i64);
	for (size_t i = 0, j; i < nd; i = j) {
		for (j = i; j < nd && d[j] == d[i]; j++)
			;
		if (j - i > *nshift) {
			*nshift = (uint32_t)(j - i);
			*shift = d[i];
		}
	}
	free(d);
}

/*
 * A binary from another build: its functions are not where the profile
 * found them. In a matching pair nearly every function the profile names
 * starts at its symbol's address; the few that do not (cold parts,
 * constructors of one demangled name, code entered past its start) miss
 * by amounts that differ (Debian's cc1plus against its own callgrind
 * profile: 6,196 at their symbol, 320 not, the most common miss shared by
 * 9). A build with one function added moves every function after it by
 * the same amount. So it is a mismatch when fewer than half start at
 * their symbol, or fewer than 80% do and most of the misses share one
 * difference.
 */
static bool starts_mismatch(const struct resolve_report *r, uint32_t nshift)
{
	uint32_t placed = r->at_start + r->inside + r->before + r->after;
	uint32_t missed = placed - r->at_start;

	if (placed < 2 || !missed)
		return false;
	if (r->at_start * 2 < placed)
		return true;
	return r->at_start * 5 < placed * 4 && nshift >= 2 &&
	       nshift * 2 >= missed;
}

/*
 * Check it is the right binary: the functions the profile names must be
 * in its symbol table (where it has a full one), the instruction
 * addresses must land in its segments, and the functions must start
 * where its symbols do (starts_mismatch()).
 */
static int check_match(const struct profile *p, const struct symtab *st,
		       name_id ob, const struct sym *const *sy, uint32_t named,
		       const uint64_t *low, const struct resolve_opts *o,
		       struct resolve_report *r)
{
	int64_t shift;
	uint32_t nshift;
	uint32_t found = 0;

	for (size_t f = 0; f < p->nfuncs; f++)
		found += sy[f] != NULL;
	r->named = named;
	r->named_found = found;
	/* A profile without object names (cachegrind) mixes every object's
	 * functions: there, one name found is enough; otherwise most must be. */
	if (st->has_symtab && named >= 4 &&
	    (ob == NO_NAME ? found == 0 : found * 2 < named))
		return error("%s: does not match the profile's '%s': only %u of "
			     "the %u functions the profile names are in its "
			     "symbol table",
			     st->path, ob == NO_NAME ? "code" : profile_str(p, ob),
			     found, named);
	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];

		if (!q->addr || !in_object(p, q->func, ob))
			continue;
		r->addresses++;
		if (!symtab_segment(st, q->addr - r->load_offset))
			r->outside++;
	}
	/* POS_SELECT: those not kept whole were counted as they were read
	 * (against the segments at this load offset: the caller checked) */
	for (size_t f = 0; p->pos_select && f < p->nfuncs &&
			   f < p->pos_select->nfunc; f++) {
		const struct pos_select *ps = p->pos_select;

		if ((ps->state[f] & PS_KEEP) || !in_object(p, (uint32_t)f, ob))
			continue;
		r->addresses += ps->count[f];
		r->outside += ps->outside[f];
	}
	/* without positions, each function's lowest and highest address */
	for (size_t f = 0; f < p->nfuncs && f < p->func_addrs_alloc; f++) {
		const struct paddr_range *a = &p->func_addrs[f];

		if (!a->lo || !in_object(p, (uint32_t)f, ob))
			continue;
		r->func_bounds = true;
		for (int k = 0; k < (a->hi != a->lo ? 2 : 1); k++) {
			r->addresses++;
			if (!symtab_segment(st, (k ? a->hi : a->lo) - r->load_offset))
				r->outside++;
		}
	}
	if (r->addresses && r->outside * 2 > r->addresses)
		return error("%s: does not match the profile's '%s': %llu of %llu "
			     "%s fall outside its segments (load offset 0x%llx: "
			     "%s)",
			     st->path, ob == NO_NAME ? "code" : profile_str(p, ob),
			     (unsigned long long)r->outside,
			     (unsigned long long)r->addresses,
			     r->func_bounds ? "functions' lowest and highest "
					      "addresses"
					    : "instruction addresses",
			     (unsigned long long)r->load_offset, r->offset_reason);
	if (!p->has_instr || o->have_load_offset)
		return 0;	/* no addresses, or the user's offset: said */
	place_starts(p, sy, low, r, &shift, &nshift);
	if (!starts_mismatch(r, nshift))
		return 0;
	{
		char why[160] = "";

		if (nshift >= 2)
			snprintf(why, sizeof(why), " (%u are %lld bytes %s in the profile)",
				 nshift, (long long)(shift < 0 ? -shift : shift),
				 shift < 0 ? "lower" : "higher");
		if (!o->force_binary)
			return error("%s: not the binary the profile's '%s' was "
				     "taken from: only %u of the %u functions the "
				     "profile names start where its symbol table "
				     "puts them%s; give the binary that was "
				     "profiled, or profile this one again "
				     "(--force-binary uses it anyway)",
				     st->path,
				     ob == NO_NAME ? "code" : profile_str(p, ob),
				     r->at_start,
				     r->at_start + r->inside + r->before + r->after,
				     why);
		warning("%s: not the binary the profile's '%s' was taken from: "
			"only %u of the %u functions the profile names start "
			"where its symbol table puts them%s; used anyway "
			"(--force-binary): costs may be on the wrong "
			"instructions and lines",
			st->path, ob == NO_NAME ? "code" : profile_str(p, ob),
			r->at_start,
			r->at_start + r->inside + r->before + r->after, why);
	}
	return 0;
}

static bool unknown_file(const struct profile *p, name_id file)
{
	return file == NO_NAME || !strcmp(profile_str(p, file), "???");
}

/* name followed by level ("'2"), interned */
static name_id level_name(struct profile *p, name_id name, const char *level)
{
	size_t n = names_len(&p->names, name), k = strlen(level);
	char *buf = xmalloc(n + k + 1);
	name_id id;

	memcpy(buf, profile_str(p, name), n);
	memcpy(buf + n, level, k);
	id = names_intern(&p->names, buf, n + k);
	free(buf);
	return id;
}

/*
 * Names, files and lines for one binary's functions and positions. sy
 * is named_syms()'s, for the first nsy functions (those there were
 * before --inlined=callee added any): a big program has hundreds of
 * thousands of names to look up, once is enough. *newpos is a copy of
 * the positions made at the first one given a file and line, and stays
 * NULL when none is (a binary without DWARF lines): a big program's
 * report keeps a million and a half positions, 50 MB a copy, the
 * largest part of its peak (profile_rekey() takes NULL as "unchanged").
 */
static void rename_funcs(struct profile *p, const struct symtab *st,
			 name_id ob, const uint64_t *low,
			 const struct sym *const *sy, size_t nsy,
			 const struct resolve_opts *o, struct pfunc *ident,
			 uint32_t *ident_line, struct ppos **newpos,
			 struct resolve_report *r)
{
	struct ppos *pos = NULL;
	uint64_t off = r->load_offset;

	for (size_t f = 0; f < p->nfuncs; f++) {
		const char *name = profile_str(p, p->funcs[f].name);
		const struct sym *s = NULL;
		const struct line_entry *le;
		const char *level = "";
		uint64_t addr = 0;
		bool changed = false;

		if (!in_object(p, (uint32_t)f, ob))
			continue;
		if (hex_name_level(name, &addr, &level) ||
		    (anonymous_name(name) && (addr = low[f]) != 0)) {
			s = symtab_lookup(st, addr - off);
			if (s) {
				ident[f].name = o->demangle ? s->name : s->raw;
				changed = true;
			}
			/* "0x...1e60'2": the symbol's name at that level,
			 * "fib'2", as valgrind names one it knows */
			if (s && *level)
				ident[f].name = level_name(p, ident[f].name,
							   level);
		} else {
			/* named_syms() looked up the names not made up */
			s = f < nsy && !made_up_name(name)
				    ? sy[f]
				    : resolve_named_sym(p, st, (uint32_t)f);
			/* the profile may carry either spelling: show the
			 * one asked for (the name as a whole must match, so
			 * "fib'2" keeps its suffix) */
			if (s && s->raw != s->name &&
			    (ident[f].name == s->raw || ident[f].name == s->name)) {
				name_id want = o->demangle ? s->name : s->raw;

				changed |= want != ident[f].name;
				ident[f].name = want;
			}
			addr = s ? s->addr + off : low[f];
		}
		le = addr ? symtab_line(st, addr - off) : NULL;
		if (le && le->file != NO_NAME && unknown_file(p, p->funcs[f].file)) {
			ident[f].file = le->file;
			changed = true;
		}
		/* the line it starts at, where the entry's line is in its file */
		if (le && le->line && s && le->file == ident[f].file)
			ident_line[f] = le->line;
		r->renamed += changed;
	}
	for (size_t i = 0; i < p->npos; i++) {
		const struct line_entry *le;

		if (!p->pos[i].addr || !in_object(p, p->pos[i].func, ob))
			continue;
		if (!unknown_file(p, p->pos[i].file) && p->pos[i].line)
			continue;
		le = symtab_line(st, p->pos[i].addr - off);
		if (le && le->file != NO_NAME) {
			if (!pos) {
				pos = xreallocarray(NULL, p->npos, sizeof(*pos));
				memcpy(pos, p->pos, p->npos * sizeof(*pos));
			}
			pos[i].file = le->file;
			pos[i].line = le->line;
		}
	}
	*newpos = pos;
}

/*
 * --inlined=callee: the cost at an address inside inlined code goes to
 * the inlined function, reached from the function it was inlined into
 * through an arc of 0 calls whose inclusive cost is what moved, so the
 * outer function's inclusive cost does not change. A call made from
 * inlined code moves too: it becomes a call of the inlined function, and
 * its inclusive cost flows up through the same arcs.
 */
static void move_inlined_calls(struct profile *p, uint32_t pos,
			       uint32_t inner, const uint32_t *first,
			       const uint32_t *next, uint64_t *moved)
{
	size_t stride = p->stride;

	for (uint32_t cs = first[pos]; cs != NO_ID; cs = next[cs]) {
		struct pcallsite *site = &p->callsites[cs];
		const uint64_t *incl = profile_callsite_incl(p, cs);
		uint32_t old = site->call;
		uint32_t now = profile_call(p, inner, p->calls[old].callee);
		uint64_t *old_incl = profile_call_incl(p, old);
		uint64_t *now_incl = profile_call_incl(p, now);
		uint64_t n = site->count, had = profile_call_count(p, old);

		/* the arc's count and cost are its call sites' sums */
		profile_call_set_count(p, old, had - (n < had ? n : had));
		profile_call_add_count(p, now, n);
		for (size_t e = 0; e < stride; e++) {
			/* a maximum (MEM_MAX) cannot be taken apart: the old
			 * arc keeps its largest, which may be another call
			 * site's */
			if (!profile_event_max(p, e))
				old_incl[e] -= incl[e] < old_incl[e]
						       ? incl[e] : old_incl[e];
			profile_combine(p, e, &now_incl[e], incl[e]);
			profile_combine(p, e, &moved[e], incl[e]);
		}
		site->call = now;
	}
}

static void charge_inlined(struct profile *p, const struct symtab *st,
			   name_id ob, struct resolve_report *r)
{
	size_t npos = p->npos, stride = p->stride, nsites = p->ncallsites;
	struct frame frames[MAX_FRAMES];
	uint64_t *cost = xcalloc(stride + 1, sizeof(*cost));
	uint64_t *moved = xcalloc(stride + 1, sizeof(*moved));
	uint32_t *first = xcalloc(npos + 1, sizeof(*first));
	uint32_t *next = xcalloc(nsites + 1, sizeof(*next));

	/* the call sites of each position, as lists */
	for (size_t i = 0; i < npos; i++)
		first[i] = NO_ID;
	for (size_t c = nsites; c-- > 0;) {
		next[c] = first[p->callsites[c].pos];
		first[p->callsites[c].pos] = (uint32_t)c;
	}
	for (size_t i = 0; i < npos; i++) {
		uint32_t outer = p->pos[i].func, callee = outer;
		uint32_t chain[MAX_FRAMES];
		size_t n, depth = 0;

		if (!p->pos[i].addr || !in_object(p, outer, ob))
			continue;
		n = symtab_frames(st, p->pos[i].addr - r->load_offset, frames,
				  MAX_FRAMES);
		if (n < 2)
			continue;
		/* frames[n-1] is the real function: the profile's `outer` */
		for (size_t k = n - 1; k-- > 0;) {
			uint32_t inl = profile_func(p, p->funcs[outer].object,
						    frames[k].file, frames[k].func);

			chain[depth++] = profile_call(p, callee, inl);
			callee = inl;
		}
		memcpy(cost, profile_pos_cost(p, (uint32_t)i), stride * sizeof(*cost));
		memset(moved, 0, stride * sizeof(*moved));
		move_inlined_calls(p, (uint32_t)i, callee, first, next, moved);
		for (size_t k = 0; k < depth; k++) {
			uint64_t *incl = profile_call_incl(p, chain[k]);

			for (size_t e = 0; e < stride; e++) {
				profile_combine(p, e, &incl[e], cost[e]);
				profile_combine(p, e, &incl[e], moved[e]);
			}
		}
		for (size_t e = 0; e < stride; e++) {
			/* the outer function keeps its largest, which may
			 * be another position's: a maximum cannot be
			 * taken apart */
			if (!profile_event_max(p, e))
				profile_self(p, outer)[e] -= cost[e];
			profile_combine(p, e, &profile_self(p, callee)[e],
					cost[e]);
		}
		p->pos[i].func = callee;
		r->inlined_moved++;
	}
	free(cost);
	free(moved);
	free(first);
	free(next);
}

int resolve_guess_offset(const struct profile *p, const struct symtab *st,
			 const struct resolve_opts *o, name_id *object,
			 uint64_t *offset)
{
	struct resolve_report r = { 0 };
	uint64_t *low;
	const struct sym **sy;
	uint32_t named;

	if (match_object(p, st, 0, 1, o, object) < 0)
		return -1;
	low = lowest_addresses(p);
	sy = named_syms(p, st, *object, &named);
	find_offset(p, st, sy, low, o, &r);
	*offset = r.load_offset;
	free(sy);
	free(low);
	return 0;
}

int resolve_profile(struct profile *p, struct symtab *const *st, size_t nst,
		    const struct resolve_opts *o, struct resolve_report *reports)
{
	for (size_t b = 0; b < nst; b++) {
		struct resolve_report *r = &reports[b];
		struct pfunc *ident = NULL;
		uint32_t *ident_line;
		struct ppos *pos = NULL;
		uint64_t *low = NULL;
		const struct sym **sy;
		size_t nsy;
		uint32_t named, twice;
		name_id ob;

		memset(r, 0, sizeof(*r));
		r->binary = st[b]->path;
		if (match_object(p, st[b], b, nst, o, &ob) < 0)
			return -1;
		r->object = ob;
		low = lowest_addresses(p);
		sy = named_syms(p, st[b], ob, &named);
		nsy = p->nfuncs;
		find_offset(p, st[b], sy, low, o, r);
		if (check_match(p, st[b], ob, sy, named, low, o, r) < 0) {
			free(sy);
			free(low);
			return -1;
		}
		if (o->inlined == INLINE_CALLEE) {
			charge_inlined(p, st[b], ob, r);
			free(low);
			low = lowest_addresses(p);
		}
		/* cost moved into inlined functions (an IgProf profile's)
		 * leaves the arcs' exact self parts behind: the leaf's
		 * callers are not known by position. The graph then splits
		 * an arc by its callee's ratio, as it does Callgrind's. */
		if (r->inlined_moved && p->call_self) {
			free(p->call_self);
			p->call_self = NULL;
			p->call_self_alloc = 0;
		}
		ident = xreallocarray(NULL, p->nfuncs + 1, sizeof(*ident));
		/* a profile of no function has no array (memcpy() of NULL
		 * is undefined, even for 0 bytes) */
		if (p->nfuncs)
			memcpy(ident, p->funcs, p->nfuncs * sizeof(*ident));
		ident_line = xreallocarray(NULL, p->nfuncs + 1,
					   sizeof(*ident_line));
		for (size_t f = 0; f < p->nfuncs; f++)
			ident_line[f] = profile_func_line(p, (uint32_t)f);
		rename_funcs(p, st[b], ob, low, sy, nsy, o, ident, ident_line,
			     &pos, r);
		free(sy);
		twice = profile_rekey(p, ident, ident_line, pos, NULL);
		/* two functions now one on a stack: its inclusive cost, as
		 * charged when read, has the stack twice. With the stacks
		 * kept (an IgProf or pprof profile read for -b), the costs
		 * are made again from them, each stack once; inlined cost
		 * moved to its own function has no frame in them. */
		if (twice != NO_ID && p->nstacks && !r->inlined_moved)
			profile_recount_stacks(p, true);
		else if (twice != NO_ID)
			warning("%s: named functions that may be on one "
				"stack (the arcs join them) as one, %s: a stack "
				"through two of them counts twice "
				"in its inclusive cost and its arcs' (the "
				"stacks were charged as read, before -b named "
				"their functions)",
				st[b]->path, profile_str(p, p->funcs[twice].name));
		/* the functions are numbered anew: their counts are done */
		if (p->pos_select)
			pos_select_drop_counts(p->pos_select);
		free(ident);
		free(ident_line);
		free(pos);
		free(low);
	}
	return 0;
}

void resolve_print_notes(FILE *out, const struct profile *p,
			 const struct resolve_report *reports, size_t n,
			 const struct resolve_opts *o)
{
	for (size_t b = 0; b < n; b++) {
		const struct resolve_report *r = &reports[b];

		fprintf(out, "Symbols from %s for %s: load offset 0x%llx (%s); "
			"%u function%s named or given files",
			r->binary,
			r->object == NO_NAME ? "the whole profile"
					     : profile_str(p, r->object),
			(unsigned long long)r->load_offset, r->offset_reason,
			r->renamed, r->renamed == 1 ? "" : "s");
		if (r->named)
			fprintf(out, "; %u of %u named functions in its symbols",
				r->named_found, r->named);
		if (r->addresses)
			fprintf(out, "; %llu of %llu %s inside it",
				(unsigned long long)(r->addresses - r->outside),
				(unsigned long long)r->addresses,
				r->func_bounds ? "functions' lowest and highest "
						 "addresses"
					       : "addresses");
		fputs(".\n", out);
	}
	if (o->inlined == INLINE_CALLEE)
		fputs("Inlined code is charged to the inlined function "
		      "(--inlined=callee).\n", out);
	else
		fputs("Inlined code is charged to the function it was inlined "
		      "into (--inlined=callee charges the inlined function).\n",
		      out);
}
