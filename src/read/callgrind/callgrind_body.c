/*
 * The Callgrind reader's body lines: position specifications ("fn=",
 * "cfn=", "calls=", "jump=" and the rest, names and compressed ids),
 * cost lines, the fast path that reads most of them, and the loops over
 * a block's lines (callgrind_read_lines()) and over the splitting
 * thread's tokens (callgrind_read_block()). One file, so that the hot
 * path inlines into the loops.
 *
 * Costs are added up as they are read: a function's self cost, and for
 * each (caller, callee) arc its call count and inclusive cost; positions
 * only when asked for (struct ppos).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "callgrind_lex.h"
#include "callgrind_reader.h"
#include "callgrind_fast.h"
#include "callgrind_split.h"

static const char *id_space_name(enum id_space s)
{
	switch (s) {
	case IDS_FILE:
		return "file";
	case IDS_FN:
		return "function";
	case IDS_OB:
		return "object";
	default:
		BUG("id space %d", (int)s);
	}
}

/* ---- position specifications: "key=name" ---- */

static name_id intern_name(struct callgrind_reader *rd, enum id_space space,
			   const char *s, size_t len)
{
	if (!len)
		return names_intern(&rd->p->names, "???", 3);
	if (space == IDS_FN && rd->opts->fold_recursion) {
		ARRAY_GROW(rd->fold_buf, len, rd->fold_alloc);
		len = fold_recursion_suffix(s, len, rd->fold_buf);
		s = rd->fold_buf;
	}
	return names_intern(&rd->p->names, s, len);
}

/*
 * The name compressed id `id` refers to ("fn=(12)"). Ids are
 * file-global, one space per kind (Q4, Q18), and may be sparse and
 * huge. Returns 0 or -1 after reporting.
 */
static int name_ref(struct callgrind_reader *rd, enum id_space space,
		    const char *key, uint64_t id, name_id *out)
{
	name_id known = callgrind_id_get(rd, space, id);

	if (known == NO_NAME && rd->ahead) {
		/* defined before the stretch, or never: callgrind_ahead.c finds
		 * out which */
		known = callgrind_id_stand_in(rd->p, space, id);
		callgrind_id_put(rd, space, id, known);
	}
	if (known == NO_NAME && rd->opts->lenient) {
		/* callgrind 0.10 wrote ids it never defined */
		char undef[64];
		int n = snprintf(undef, sizeof(undef), "(undefined id %llu)",
				 (unsigned long long)id);

		callgrind_warn_once(rd, ONCE_UNDEFINED_ID,
			  "'%s=(%llu)' refers to %s id %llu, which was never defined; named '%s'",
			  key, (unsigned long long)id, id_space_name(space),
			  (unsigned long long)id, undef);
		known = names_intern(&rd->p->names, undef, (size_t)n);
		callgrind_id_put(rd, space, id, known);
	}
	if (known == NO_NAME)
		return callgrind_error(rd, "'%s=(%llu)' refers to %s id %llu, which was never defined "
				  "(--lenient reads it as an unknown name)",
				  key, (unsigned long long)id,
				  id_space_name(space),
				  (unsigned long long)id);
	*out = known;
	return 0;
}

/* The name [s, s + len) given compressed id `id` ("fn=(12) main"). */
static name_id name_def(struct callgrind_reader *rd, enum id_space space,
			uint64_t id, const char *s, size_t len)
{
	name_id name = intern_name(rd, space, s, len);
	name_id old = callgrind_id_get(rd, space, id);

	if (old != NO_NAME && old != name && !callgrind_is_stand_in(rd->p, old))
		callgrind_warn_once(rd, ONCE_REDEFINED_ID,
			  "%s id %llu redefined from '%s' to '%s'",
			  id_space_name(space), (unsigned long long)id,
			  profile_str(rd->p, old), profile_str(rd->p, name));
	callgrind_id_put(rd, space, id, name);
	return name;
}

/*
 * Whether a name is one valgrind could have written: a C string, so
 * without a NUL byte (a damaged file's block of zeros has them). Every
 * listing and output would cut the name there. 0, or -1 after
 * reporting.
 */
static int check_name(struct callgrind_reader *rd, enum id_space space,
		      const char *s, size_t len)
{
	char q[80];

	if (!memchr(s, '\0', len))
		return 0;
	return callgrind_error(rd, "a NUL byte in the %s name '%s': valgrind writes none (is the file damaged?)",
			       id_space_name(space),
			       callgrind_quote(s, len, q, sizeof(q)));
}

/*
 * A position name: "name", "(id) name" (defines id) or "(id)" (refers
 * to it). A name that starts with "(" but not "(" + digit is a plain
 * name (Q23). The splitting thread (callgrind_split.c) reads the same forms
 * the same way; what it leaves comes here.
 */
static int parse_name(struct callgrind_reader *rd, enum id_space space,
		      const char *key, const char *v, const char *end,
		      name_id *out)
{
	uint64_t id = 0;
	const char *s;

	v = skip_space(v, end);
	end = v + trim_len(v, (size_t)(end - v));
	if (end - v < 2 || v[0] != '(' || !is_digit(v[1])) {
		if (check_name(rd, space, v, (size_t)(end - v)) < 0)
			return -1;
		*out = intern_name(rd, space, v, (size_t)(end - v));
		return 0;
	}
	for (s = v + 1; s < end && is_digit(*s); s++) {
		if (id > (UINT64_MAX - 9) / 10)
			return callgrind_error(rd, "compressed %s id in '%s=' does not fit in 64 bits",
					  id_space_name(space), key);
		id = id * 10 + (uint64_t)(*s - '0');
	}
	if (s == end || *s != ')')
		return callgrind_error(rd, "expected ')' after '(%llu' in '%s='",
				  (unsigned long long)id, key);
	s = skip_space(s + 1, end);
	if (s == end)
		return name_ref(rd, space, key, id, out);
	if (check_name(rd, space, s, (size_t)(end - s)) < 0)
		return -1;
	*out = name_def(rd, space, id, s, (size_t)(end - s));
	return 0;
}

/* The keys that take a name: their spelling and id space. */
static const struct {
	const char *key;
	enum id_space space;
} name_keys[] = {
	[CALLGRIND_KEY_OB] = {"ob", IDS_OB},
	[CALLGRIND_KEY_FL] = {"fl", IDS_FILE},
	[CALLGRIND_KEY_FI] = {"fi", IDS_FILE},
	[CALLGRIND_KEY_FE] = {"fe", IDS_FILE},
	[CALLGRIND_KEY_FN] = {"fn", IDS_FN},
	[CALLGRIND_KEY_COB] = {"cob", IDS_OB},
	[CALLGRIND_KEY_CFI] = {"cfi", IDS_FILE},
	[CALLGRIND_KEY_CFL] = {"cfl", IDS_FILE},
	[CALLGRIND_KEY_CFN] = {"cfn", IDS_FN},
	[CALLGRIND_KEY_JFI] = {"jfi", IDS_FILE},
	[CALLGRIND_KEY_JFN] = {"jfn", IDS_FN},
};

/* The seek design's one read: where function rd->func's block starts
 * (its fn= line, rd->line_at). */
static void record_block(struct callgrind_reader *rd)
{
	if (!rd->line_at || rd->func == NO_ID) {
		rd->seek_bad = true;
		return;
	}
	callgrind_blocks_add(&rd->blk, &(struct pos_block){
		.func = rd->func,
		.npos = (uint32_t)rd->p->npos,
		.ncs = (uint32_t)rd->p->ncallsites,
		.off = line_reader_offset(rd->lr, rd->line_at),
	});
}

/* What the name of a key=name line sets. */
static void set_name(struct callgrind_reader *rd, enum callgrind_key key,
		     name_id name)
{
	rd->set |= 1u << key;
	switch (key) {
	case CALLGRIND_KEY_OB:
		rd->ob = name;
		break;
	case CALLGRIND_KEY_FL:
		rd->fl = rd->file = name;
		rd->have_fl = true;
		break;
	case CALLGRIND_KEY_FI: /* fi= and fe=: inlined code from another file,
				*/
	case CALLGRIND_KEY_FE: /* inside the function */
		rd->file = name;
		break;
	case CALLGRIND_KEY_FN:
		/* fn= starts over at the file of the last fl=, as
		 * callgrind's writer does (dump.c resets its last position
		 * to the function's file, and leaves out an fe= when the
		 * cost it has pending is there) and KCachegrind reads: in
		 * a --dump-every-bb part, a function ending on a call site
		 * of inlined code (fi=, then calls=0 with no cost of its
		 * own) is followed by fn= with no fe=, and the next
		 * function's lines and its callees without cfi= went to
		 * the inlined file (a "strings(int)" of stl_tree.h beside
		 * the real one). */
		if (rd->have_fl)
			rd->file = rd->fl;
		/* A function's file is its fl=; files from lsprofcalltree
		 * have only fi= lines, so fall back to the current file.
		 * A part left out by --part adds no function. */
		rd->func = callgrind_part_selected(rd)
			? profile_func(rd->p, rd->ob,
				       rd->have_fl ? rd->fl : rd->file, name)
			: NO_ID;
		rd->cfn = NO_NAME;
		rd->set |= 1u << CALLGRIND_KEY_CFN;
		if (rd->seek_rec)
			record_block(rd);
		break;
	case CALLGRIND_KEY_COB:
		rd->cob = name;
		break;
	case CALLGRIND_KEY_CFI:
	case CALLGRIND_KEY_CFL: /* the historical spelling of cfi= (Q12:
				 * pprof, Xdebug) */
		rd->cfi = name;
		break;
	case CALLGRIND_KEY_CFN:
		rd->cfn = name;
		break;
	case CALLGRIND_KEY_JFI:
		rd->jfi = name;
		break;
	case CALLGRIND_KEY_JFN:
		rd->jfn = name;
		break;
	default:
		BUG("key %d takes no name", (int)key);
	}
}

/* Whether the positions kept so far can no longer be taken (the
 * disassembly's one read: pos_select.h's gave_up): the read stops at
 * the next function, where its caller reads again. */
static bool select_gave_up(const struct callgrind_reader *rd)
{
	return rd->p->pos_detail == POS_SELECT && rd->p->pos_select->gave_up;
}

static int parse_name_line(struct callgrind_reader *rd, enum callgrind_key key,
			   const char *v, const char *end)
{
	name_id name = NO_NAME;

	if (key == CALLGRIND_KEY_FN && select_gave_up(rd))
		return error_at(rd->lr->path, rd->lr->lineno,
				"stopped: a function's positions were "
				"counted twice (they are read again)");

	if (parse_name(rd, name_keys[key].space, name_keys[key].key, v, end,
		       &name) < 0)
		return -1;
	set_name(rd, key, name);
	return 0;
}

/* The function cost lines go to; "???" when none was named yet. */
static uint32_t current_func(struct callgrind_reader *rd)
{
	if (rd->func == NO_ID && rd->ahead) {
		/* the function the stretch starts in */
		rd->ph_func_used = true;
		rd->func = profile_func(rd->p, rd->ph_ob, rd->ph_fl,
					rd->ph_func);
	}
	if (rd->func == NO_ID)
		rd->func = profile_func(rd->p, rd->ob,
					rd->have_fl ? rd->fl : rd->file,
					names_intern(&rd->p->names, "???", 3));
	return rd->func;
}

/*
 * One subposition at *sp: absolute Number, "+N", "-N" or "*", relative
 * to base. Returns 0, NUM_NONE on bad syntax, NUM_OVERFLOW, or 1 when a
 * relative position goes below zero.
 */
HOT int parse_subposition(const char **sp, const char *end, uint64_t base,
			  uint64_t *out)
{
	const char *s = *sp;
	uint64_t n;
	enum num_result r;

	if (s < end && *s == '*') {
		s++;
		if (s < end && !is_space(*s))
			return NUM_NONE;
		*sp = s;
		*out = base;
		return 0;
	}
	if (s < end && (*s == '+' || *s == '-')) {
		char sign = *s++;

		r = parse_number(&s, end, &n);
		if (r != NUM_OK)
			return r;
		if (sign == '+') {
			if (n > UINT64_MAX - base)
				return NUM_OVERFLOW;
			*out = base + n;
		} else {
			if (n > base)
				return 1;
			*out = base - n;
		}
		*sp = s;
		return 0;
	}
	r = parse_number(&s, end, &n);
	if (r != NUM_OK)
		return r;
	*sp = s;
	*out = n;
	return 0;
}

static const char *pos_name(enum pos_kind k)
{
	switch (k) {
	case POS_INSTR:
		return "instruction address";
	case POS_BB:
		return "basic block";
	case POS_LINE:
		return "line number";
	default:
		BUG("position kind %d", (int)k);
	}
}

/*
 * The target of calls=/jump=/jcnd=: subpositions relative to the last
 * cost line, which they do not move (Q13). Writers get targets wrong
 * (pprof computes them from another line), and no listing needs them
 * yet, so a target below zero is a warning, not an error.
 */
static int parse_target(struct callgrind_reader *rd, const char *key,
			const char *s, const char *end, uint64_t *target)
{
	for (unsigned i = 0; i < rd->npos; i++) {
		uint64_t v;
		int r;

		s = skip_space(s, end);
		if (s == end)
			return 0;	/* targets may be left out */
		if ((rd->pos_unknown >> i & 1) &&
		    (*s == '+' || *s == '-' || *s == '*'))
			return callgrind_error(rd, "reading ahead: a target relative to a position before the stretch");
		r = parse_subposition(&s, end, rd->pos[i], &v);
		if (r == 0 && target)
			target[i] = v;
		if (r == 1) {
			callgrind_warn_once(rd, ONCE_TARGET_BELOW_ZERO,
				  "the target of '%s=' is below zero; target ignored", key);
			return 0;
		}
		if (r == NUM_OVERFLOW)
			return callgrind_error(rd, "target %s of '%s=' does not fit in 64 bits",
					  pos_name(rd->pos_kind[i]), key);
		if (r != 0)
			return callgrind_error(rd, "expected the target's %s in '%s='",
					  pos_name(rd->pos_kind[i]), key);
	}
	/* Xdebug writes "calls=1 0 0", one number more than positions (Q13) */
	return 0;
}

/* After a calls= line (its count in rd->call_count): the arc, whose
 * inclusive cost the next line gives. */
static void start_call(struct callgrind_reader *rd)
{
	uint32_t callee;

	rd->want_call_cost = true;
	rd->calls_lineno = rd->lr->lineno;
	rd->call_arc = NO_ID;
	rd->set |= 1u << CALLGRIND_KEY_COB | 1u << CALLGRIND_KEY_CFI;
	if (callgrind_part_selected(rd) && !rd->opts->no_calls) {
		/* Q12: cob= defaults to the caller's object, cfi= to the
		 * current file (an fi= file included). */
		callee = profile_func(rd->p,
				      rd->cob != NO_NAME ? rd->cob : rd->ob,
				      rd->cfi != NO_NAME ? rd->cfi : rd->file,
				      rd->cfn);
		rd->call_arc = profile_call(rd->p, current_func(rd), callee);
	}
	rd->cob = rd->cfi = NO_NAME;
}

static int parse_calls(struct callgrind_reader *rd, const char *v,
		       const char *end)
{
	const char *s = skip_space(v, end);
	enum num_result r = parse_number(&s, end, &rd->call_count);

	if (r == NUM_OVERFLOW)
		return callgrind_error(rd, "call count does not fit in 64 bits");
	if (r != NUM_OK)
		return callgrind_error(rd, "expected a call count after 'calls='");
	if (parse_target(rd, "calls", s, end, NULL) < 0)
		return -1;
	if (rd->cfn == NO_NAME)
		return callgrind_error(rd, "'calls=' without a 'cfn=' naming the called function");
	start_call(rd);
	return 0;
}

/* The position of the last cost line, in the current function. */
static uint32_t last_position(struct callgrind_reader *rd)
{
	struct profile *p = rd->p;
	uint64_t line = 0, addr = 0;

	for (unsigned i = 0; i < rd->npos; i++) {
		if (rd->pos_kind[i] == POS_LINE) {
			line = rd->pos[i];
			p->has_line = true;
		} else if (rd->pos_kind[i] == POS_INSTR) {
			addr = rd->pos[i];
			p->has_instr = true;
		}
	}
	/* lines past 2^32 do not exist; keep them apart from real ones */
	if (line > UINT32_MAX)
		line = UINT32_MAX;
	return profile_pos(p, current_func(rd), rd->file, (uint32_t)line, addr);
}

/* The last cost line's address widens the current function's range
 * (want_func_addrs: what -b needs of its positions). */
static void note_func_addr(struct callgrind_reader *rd)
{
	struct profile *p = rd->p;

	for (unsigned i = 0; i < rd->npos; i++) {
		if (rd->pos_kind[i] == POS_LINE) {
			p->has_line = true;
		} else if (rd->pos_kind[i] == POS_INSTR && rd->pos[i]) {
			p->has_instr = true;
			profile_func_addr(p, current_func(rd), rd->pos[i]);
		}
	}
}

/* A jump to target (target[i] for position i), kept until its source
 * position line comes. */
static void begin_jump(struct callgrind_reader *rd, bool conditional,
		       uint64_t executed, uint64_t followed,
		       const uint64_t *target)
{
	name_id to_file = rd->jfi != NO_NAME ? rd->jfi : rd->file;

	rd->jfi = rd->jfn = NO_NAME;
	rd->set |= 1u << CALLGRIND_KEY_JFI | 1u << CALLGRIND_KEY_JFN;
	if (!rd->opts->want_positions || rd->opts->no_jumps ||
	    !callgrind_part_selected(rd))
		return;
	rd->want_jump_source = true;
	memset(&rd->jump, 0, sizeof(rd->jump));
	rd->jump.conditional = conditional;
	rd->jump.executed = executed;
	rd->jump.followed = followed;
	rd->jump.to_file = to_file;
	for (unsigned i = 0; i < rd->npos; i++) {
		if (rd->pos_kind[i] == POS_LINE)
			rd->jump.to_line = target[i] > UINT32_MAX ? UINT32_MAX
								  : (uint32_t)target[i];
		else if (rd->pos_kind[i] == POS_INSTR)
			rd->jump.to_addr = target[i];
	}
}

static int start_jump(struct callgrind_reader *rd, const char *key,
		      const char *s, const char *end, bool conditional,
		      uint64_t executed, uint64_t followed)
{
	uint64_t target[MAX_POSITIONS] = { 0 };

	if (parse_target(rd, key, s, end, target) < 0)
		return -1;
	begin_jump(rd, conditional, executed, followed, target);
	return 0;
}

/* The jump waiting for a source gets the last cost line's position. */
void callgrind_finish_jump(struct callgrind_reader *rd)
{
	rd->want_jump_source = false;
	rd->jump.from = last_position(rd);
	profile_add_jump(rd->p, &rd->jump);
}

static int parse_jump(struct callgrind_reader *rd, const char *v,
		      const char *end)
{
	const char *s = skip_space(v, end);
	uint64_t count;
	enum num_result r = parse_number(&s, end, &count);

	if (r == NUM_OVERFLOW)
		return callgrind_error(rd, "jump count does not fit in 64 bits");
	if (r != NUM_OK)
		return callgrind_error(rd, "expected a jump count after 'jump='");
	return start_jump(rd, "jump", s, end, false, count, count);
}

/*
 * The spec says "jcnd=exe-count jump-count target"; valgrind 3.19 writes
 * "jcnd=followed/executed target" (Q14). Both are read.
 */
static int parse_jcnd(struct callgrind_reader *rd, const char *v,
		      const char *end)
{
	const char *s = skip_space(v, end), *slash;
	uint64_t a = 0, b = 0;
	enum num_result r;

	slash = s < end ? memchr(s, '/', (size_t)(end - s)) : NULL;
	if (slash) {
		const char *t = s;

		r = parse_number(&t, slash, &a);
		if (r == NUM_OK && t != slash)
			r = NUM_NONE;	/* "1 2/3": neither form */
		if (r == NUM_OK) {
			s = slash + 1;
			r = parse_number(&s, end, &b);
		}
	} else {
		r = parse_number(&s, end, &a);
		if (r == NUM_OK) {
			s = skip_space(s, end);
			r = parse_number(&s, end, &b);
		}
	}
	if (r == NUM_OVERFLOW)
		return callgrind_error(rd, "jump count does not fit in 64 bits");
	if (r != NUM_OK)
		return callgrind_error(rd, "expected 'jcnd=followed/executed' or "
				  "'jcnd=executed followed' counts");
	/* slash: followed/executed; spaces: executed followed */
	return slash ? start_jump(rd, "jcnd", s, end, true, b, a)
		     : start_jump(rd, "jcnd", s, end, true, a, b);
}

static int parse_spec_line(struct callgrind_reader *rd, const char *key,
			   size_t klen, const char *v, const char *end)
{
	enum callgrind_key k = callgrind_spec_key(key, klen);

	switch (k) {
	case CALLGRIND_KEY_CALLS:
		return parse_calls(rd, v, end);
	case CALLGRIND_KEY_JUMP:
		return parse_jump(rd, v, end);
	case CALLGRIND_KEY_JCND:
		return parse_jcnd(rd, v, end);
	case CALLGRIND_KEY_NONE:
		callgrind_warn_once(rd, ONCE_UNKNOWN_SPEC,
			  "unknown specification '%.*s=' ignored", (int)klen,
			  key);
		return 0;
	default:
		return parse_name_line(rd, k, v, end);
	}
}

/* ---- cost lines ---- */

/*
 * Subpositions, then up to ncols costs, into rd->pos and rd->vals.
 * Returns the number of costs, or -1 after reporting.
 */
static long parse_cost_numbers(struct callgrind_reader *rd, const char *s,
			       const char *end)
{
	size_t n = 0;

	for (unsigned i = 0; i < rd->npos; i++) {
		uint64_t v;
		bool relative = s < end && (*s == '+' || *s == '-' || *s == '*');
		int r;

		if ((rd->pos_unknown >> i & 1) && relative)
			return callgrind_error(rd, "reading ahead: a position relative to one before the stretch");
		r = parse_subposition(&s, end, rd->pos[i], &v);

		if (r == 1)
			return callgrind_error(rd, "relative %s goes below zero",
					  pos_name(rd->pos_kind[i]));
		if (r == NUM_OVERFLOW)
			return callgrind_error(rd, "%s does not fit in 64 bits",
					  pos_name(rd->pos_kind[i]));
		if (r != 0) {
			char q[64];

			return callgrind_error(rd, "expected %s %s, found '%s'",
					  rd->pos_kind[i] == POS_INSTR ? "an" : "a",
					  pos_name(rd->pos_kind[i]),
					  callgrind_quote(s, (size_t)(end - s), q, sizeof(q)));
		}
		rd->pos[i] = v;
		if (!relative)
			rd->pos_unknown &= (uint8_t)~(1u << i);
		s = skip_space(s, end);
	}
	while (s < end) {
		enum num_result r;

		if (n == rd->ncols && rd->opts->lenient) {
			char q[64];

			callgrind_warn_once(rd, ONCE_EXTRA_COSTS,
				  "cost line has more costs than 'events:' has events; extra '%s' ignored",
				  callgrind_quote(s, (size_t)(end - s), q, sizeof(q)));
			break;
		}
		if (n == rd->ncols) {
			char q[64];

			return callgrind_error(rd, "cost line has more costs than 'events:' has events (%zu; extra '%s')",
					  rd->ncols,
					  callgrind_quote(s, (size_t)(end - s), q, sizeof(q)));
		}
		r = parse_number(&s, end, &rd->vals[n]);
		if (r == NUM_OVERFLOW)
			return callgrind_error(rd, "cost does not fit in 64 bits");
		if (r != NUM_OK) {
			char q[64];

			return callgrind_error(rd, "expected a cost, found '%s'",
					  callgrind_quote(s, (size_t)(end - s), q, sizeof(q)));
		}
		n++;
		s = skip_space(s, end);
	}
	return (long)n;
}


static int sum_overflow(struct callgrind_reader *rd, const char *what,
			uint32_t func, uint32_t callee)
{
	const struct profile *p = rd->p;

	if (callee != NO_ID)
		return callgrind_error(rd, "the %s of the calls from '%s' to '%s' "
				  "passes 2^64 - 1", what,
				  profile_str(p, p->funcs[func].name),
				  profile_str(p, p->funcs[callee].name));
	if (func != NO_ID)
		return callgrind_error(rd, "the %s of '%s' passes 2^64 - 1", what,
				  profile_str(p, p->funcs[func].name));
	return callgrind_error(rd, "the %s passes 2^64 - 1", what);
}

/* The self cost just read, at its position too (want_positions). */
static int add_position(struct callgrind_reader *rd, const uint64_t *vals,
			long n)
{
	uint64_t *row = profile_pos_cost(rd->p, last_position(rd));

	if (!cost_row_add(row, rd->event_map, vals, (size_t)n))
		return sum_overflow(rd, "cost at this position", rd->func,
				    NO_ID);
	return 0;
}

/* The inclusive cost of a call, at the position it was made from. */
static int add_callsite(struct callgrind_reader *rd, const uint64_t *vals,
			long n)
{
	struct profile *p = rd->p;
	uint32_t pos = last_position(rd), cs;
	const struct pcall *c = &p->calls[rd->call_arc];

	if (!profile_pos_keeps_sites(p, pos))
		return 0;
	cs = profile_callsite(p, pos, rd->call_arc);

	if (__builtin_add_overflow(p->callsites[cs].count, rd->call_count,
				   &p->callsites[cs].count) ||
	    !cost_row_add(profile_callsite_incl(p, cs), rd->event_map, vals,
			  (size_t)n))
		return sum_overflow(rd, "inclusive cost at this call site",
				    c->caller, c->callee);
	return 0;
}

/* The n costs just read into rd->vals, where the line puts them: the
 * call before it, or the current function (and position). */
HOT int add_cost_line(struct callgrind_reader *rd, const uint64_t *vals, long n)
{
	uint64_t *row;
	const uint32_t *map = rd->event_map;

	rd->part_has_cost = true;
	if (rd->want_jump_source)
		callgrind_finish_jump(rd);
	if (rd->identity_map)
		map = NULL;
	if (rd->want_call_cost) {
		/* the inclusive cost of the calls= line before */
		const struct pcall *c;

		rd->want_call_cost = false;
		if (rd->call_arc == NO_ID)
			return 0;
		c = &rd->p->calls[rd->call_arc];
		if (profile_call_add_count(rd->p, rd->call_arc, rd->call_count))
			return sum_overflow(rd, "call count", c->caller,
					    c->callee);
		rd->p->calls_have_incl = true;
		if (!profile_call_incl_add(rd->p, rd->call_arc, map, vals,
					   (size_t)n))
			return sum_overflow(rd, "inclusive cost", c->caller,
					    c->callee);
		rd->added_by_calls = callgrind_add_upto_max(rd->added_by_calls,
							    rd->call_count);
		for (long i = 0; i < n; i++)
			rd->added_by_calls = callgrind_add_upto_max(
				rd->added_by_calls, vals[i]);
		if (rd->opts->want_positions && !rd->opts->no_callsites)
			return add_callsite(rd, vals, n);
		if (rd->opts->want_func_addrs)
			note_func_addr(rd);
		return 0;
	}
	if (!callgrind_part_selected(rd))
		return 0;
	row = profile_self(rd->p, current_func(rd));
	if (!cost_row_add(row, map, vals, (size_t)n))
		return sum_overflow(rd, "self cost", rd->func, NO_ID);
	if (!cost_row_add(rd->part_sum, NULL, vals, (size_t)n))
		return sum_overflow(rd, "sum of this part's self costs",
				    NO_ID, NO_ID);
	if (rd->opts->want_positions)
		return add_position(rd, vals, n) < 0 ? -1 : 0;
	if (rd->opts->want_func_addrs)
		note_func_addr(rd);
	return 0;
}

static int parse_cost_line(struct callgrind_reader *rd, const char *s,
			   const char *end)
{
	long n;

	if (!rd->ncols)
		return callgrind_error(rd, "cost line before any 'events:' line");
	n = parse_cost_numbers(rd, s, end);
	if (n < 0)
		return -1;
	return add_cost_line(rd, rd->vals, n);
}

/*
 * The fast path. Nine lines in ten of an instruction-level profile are
 * cost lines like "+3 * 1" or "0x4bb1000 12 1": read them straight from
 * the buffer, up to their "\n", without finding the line's end first or
 * checking for it at every character. Anything else (hex costs, numbers
 * of 20 digits or more, "\r\n", too many costs, a position going below
 * zero) leaves the line to parse_cost_line(), which knows every case and
 * what to say about it; nothing is changed until the line is known good.
 */

/* The same into rd->pos and rd->vals. */
HOT const char *fast_cost_numbers(struct callgrind_reader *rd, const char *s,
				  long *n)
{
	struct line_pos lp = { { rd->pos[0], rd->pos[1], rd->pos[2] },
			       rd->pos_unknown };
	const char *next = fast_cost_line(s, rd->npos, rd->ncols, &lp,
					  rd->vals, n);

	if (next) {
		memcpy(rd->pos, lp.p, sizeof(lp.p));
		rd->pos_unknown = (uint8_t)lp.unknown;
	}
	return next;
}

/*
 * The same for the lines between cost lines that come by the hundred
 * thousand: "jcnd=1/2 +4 12", "jump=3 0x40", "calls=5 +2 10",
 * "cfn=(12)". Read from the buffer up to their "\n" when they are in the
 * plain form valgrind writes; every other form, and anything the
 * general path would say something about (an undefined id, a target
 * below zero, a cost line missing after calls=), goes to parse_line().
 * Nothing is changed until the line is known good.
 */

/* Targets as parse_target() reads them, up to the line's "\n": NULL
 * for the general path. Targets left out stay 0. */
HOT const char *fast_targets(const struct callgrind_reader *rd, const char *s,
			     uint64_t *target)
{
	for (unsigned i = 0; i < rd->npos && *s != '\n'; i++) {
		unsigned unknown = rd->pos_unknown;

		target[i] = rd->pos[i];
		if (!fast_position(&s, i, &target[i], &unknown))
			return NULL;
	}
	return *s == '\n' ? s : NULL;
}

/* "(id)" and the line's "\n": the id's name, NO_NAME otherwise. */
HOT name_id fast_name_ref(const struct callgrind_reader *rd,
			  enum id_space space, const char *s, const char **nl)
{
	uint64_t id = 0;
	const char *start;

	if (*s++ != '(')
		return NO_NAME;
	for (start = s; is_digit(*s); s++)
		id = id * 10 + (uint64_t)(*s - '0');
	if (s == start || s - start > 19 || s[0] != ')' || s[1] != '\n')
		return NO_NAME;
	*nl = s + 1;
	return callgrind_id_get(rd, space, id);
}

/* What parse_line() does first for any key=value line. */
HOT void begin_spec_line(struct callgrind_reader *rd)
{
	rd->last_is_total = false;
	if (rd->want_jump_source)
		callgrind_finish_jump(rd);
	rd->in_body = true;
}

/* The line at s (a letter first): the start of the next line, or NULL
 * for the general path. */
static const char *fast_spec_line(struct callgrind_reader *rd, const char *s)
{
	uint64_t target[MAX_POSITIONS] = { 0 };
	uint64_t a, b;
	const char *k = s, *nl;
	enum callgrind_key key;
	name_id name;

	while (is_key_char(*k))
		k++;
	if (*k != '=' || rd->want_call_cost)
		return NULL;
	key = callgrind_spec_key(s, (size_t)(k - s));
	s = k + 1;
	switch (key) {
	case CALLGRIND_KEY_JCND: /* "followed/executed", as valgrind writes */
	case CALLGRIND_KEY_JUMP: /* a count: followed as often as executed */
		if (!fast_number(&s, &a))
			return NULL;
		b = a;
		if (key == CALLGRIND_KEY_JCND &&
		    (*s++ != '/' || !fast_number(&s, &b)))
			return NULL;
		if (!(s = fast_gap(s)) || !(nl = fast_targets(rd, s, target)))
			return NULL;
		begin_spec_line(rd);
		begin_jump(rd, key == CALLGRIND_KEY_JCND, b, a, target);
		return nl + 1;
	case CALLGRIND_KEY_CALLS:
		if (rd->cfn == NO_NAME || !fast_number(&s, &a) ||
		    !(s = fast_gap(s)) || !(nl = fast_targets(rd, s, target)))
			return NULL;
		begin_spec_line(rd);
		rd->call_count = a;
		start_call(rd);
		return nl + 1;
	case CALLGRIND_KEY_NONE:
		return NULL;
	case CALLGRIND_KEY_FN:
		if (select_gave_up(rd))
			return NULL;	/* parse_name_line() says */
		__attribute__((fallthrough));
	default:
		name = fast_name_ref(rd, name_keys[key].space, s, &nl);
		if (name == NO_NAME)
			return NULL;
		begin_spec_line(rd);
		set_name(rd, key, name);
		return nl + 1;
	}
}

/* ---- dispatch ---- */

static int parse_line(struct callgrind_reader *rd, const char *line, size_t len)
{
	const char *end = line + len, *s = skip_space(line, end), *k;
	char c = s < end ? *s : '\0';

	/* Comments and blank lines are allowed everywhere (spec), even
	 * between a calls= line and its cost line. */
	if (s == end || c == '#')
		return 0;
	if (rd->ahead && !is_cost_start(c)) {
		/* a header line is the reader's on the main thread: it may
		 * start a part, and its checks need all lines before */
		for (k = s; k < end && is_key_char(*k); k++)
			;
		if (k == s || k == end || *k != '=') {
			rd->stop = line;
			return 1;
		}
	}
	rd->last_is_total = false;
	if (rd->want_call_cost && !is_cost_start(c))
		return error_at(rd->lr->path, rd->calls_lineno,
				"'calls=' must be followed by a cost line with "
				"the inclusive cost of the call (line %llu is not one)",
				(unsigned long long)rd->lr->lineno);
	if (is_cost_start(c)) {
		rd->in_body = true;
		return parse_cost_line(rd, s, end);
	}
	/* a jump with no source line: where the last cost line was */
	if (rd->want_jump_source)
		callgrind_finish_jump(rd);
	if (c == '=' && end - s >= 4 && !memcmp(s, "====", 4))
		return 0;	/* Q21: Xdebug's "==== NEW PROFILING FILE ====" */
	for (k = s; k < end && ((*k >= 'a' && *k <= 'z') ||
				(*k >= 'A' && *k <= 'Z') || *k == '_');
	     k++)
		;
	if (k > s && k < end && *k == '=') {
		rd->in_body = true;
		return parse_spec_line(rd, s, (size_t)(k - s), k + 1, end);
	}
	if (k > s && k < end && *k == ':')
		return callgrind_header_line(rd, s, (size_t)(k - s), k + 1, end);
	{
		char q[64];

		return callgrind_error(rd, "expected a cost line, 'key=value' or 'key: value', found '%s'",
				  callgrind_quote(s, (size_t)(end - s), q, sizeof(q)));
	}
}

static __attribute__((noinline, cold)) int
size_refused(struct callgrind_reader *rd, uint64_t rows, uint64_t max)
{
	return callgrind_error(rd, "the profile would need more than %llu KiB for "
			  "its costs (%llu functions, calls and positions, "
			  "%zu events): refused",
			  (unsigned long long)(max * 8 >> 10),
			  (unsigned long long)rows, rd->p->nevents);
}

/* After every line that may add a row: inline, as that is most lines. */
HOT int check_size(struct callgrind_reader *rd)
{
	const struct profile *p = rd->p;
	uint64_t rows = (uint64_t)p->nfuncs + p->ncalls + p->npos;
	uint64_t max = rd->opts->max_costs ? rd->opts->max_costs
					   : MAX_COST_NUMBERS;

	if (rows * p->nevents <= max)
		return 0;
	return size_refused(rd, rows, max);
}

/* What stopped callgrind_select_run() said, as the lines one by one
 * would have: -1 after an error. */
static int select_stopped(struct callgrind_reader *rd, enum select_stop why)
{
	switch (why) {
	case SELECT_GREW:
		return check_size(rd);
	case SELECT_OVER_SELF:
		return sum_overflow(rd, "self cost", rd->func, NO_ID);
	case SELECT_OVER_SUM:
		return sum_overflow(rd, "sum of this part's self costs", NO_ID,
				    NO_ID);
	case SELECT_OVER_POS:
		return sum_overflow(rd, "cost at this position", rd->func,
				    NO_ID);
	case SELECT_ON:
		break;
	}
	return 0;
}

/* A cost line the fast path read, its n costs in rd->vals. */
HOT int add_fast_cost_line(struct callgrind_reader *rd, const uint64_t *vals,
			   long n)
{
	/* rows are added by positions, or by the "???" function of a
	 * file without fn= */
	bool grows = rd->opts->want_positions || rd->func == NO_ID;

	rd->last_is_total = false;
	rd->in_body = true;
	if (add_cost_line(rd, vals, n) < 0 || (grows && check_size(rd) < 0))
		return -1;
	return 0;
}

/*
 * Cost lines one after another in the current function, as most lines
 * of an instruction-level profile are ("+3 * 1"), when all their costs
 * go to the function's self row and the part's sum: no positions kept,
 * no calls= or jump waiting for its cost line, the part read, columns
 * in the profile's order. The row is then found once for the run, not
 * once a line, and the lines need none of add_cost_line()'s questions.
 * With want_func_addrs (-b), the run's lowest and highest instruction
 * address widen the function's range once, as note_func_addr() at each
 * line would (a range is a minimum and a maximum: order does not
 * matter). Returns where the run ends (s: no line read; the line there
 * goes the usual way), or NULL after reporting a sum past 2^64 - 1 as
 * add_cost_line() would.
 */
static char *fast_cost_run(struct callgrind_reader *rd, char *s, char *end)
{
	uint64_t *row, *sum = rd->part_sum, *v = rd->vals;
	const unsigned npos = rd->npos;
	const size_t ncols = rd->ncols;
	/* the positions stay in registers for the run, stored once */
	struct line_pos lp = { { rd->pos[0], rd->pos[1], rd->pos[2] },
			       rd->pos_unknown };
	uint64_t lines = 0, lo = UINT64_MAX, hi = 0;
	bool over_row = false, over_sum = false, line_kind = false;
	unsigned instr = 0;	/* positions that are addresses, for -b */

	if (rd->want_call_cost || rd->want_jump_source || rd->func == NO_ID ||
	    !rd->identity_map || rd->opts->want_positions ||
	    !callgrind_part_selected(rd))
		return s;
	if (rd->opts->want_func_addrs) {
		for (unsigned k = 0; k < npos; k++) {
			if (rd->pos_kind[k] == POS_INSTR)
				instr |= 1u << k;
			else if (rd->pos_kind[k] == POS_LINE)
				line_kind = true;
		}
	}
	row = profile_self(rd->p, rd->func);
	while (s < end && is_cost_start(*s)) {
		long n;
		const char *next = fast_cost_line(s, npos, ncols, &lp, v, &n);

		if (!next)
			break;
		for (long i = 0; i < n; i++) {
			over_row |= __builtin_add_overflow(row[i], v[i], &row[i]);
			over_sum |= __builtin_add_overflow(sum[i], v[i], &sum[i]);
		}
		for (unsigned k = 0; instr >> k; k++) {
			if ((instr >> k & 1) && lp.p[k]) {
				lo = lp.p[k] < lo ? lp.p[k] : lo;
				hi = lp.p[k] > hi ? lp.p[k] : hi;
			}
		}
		s = (char *)next;
		lines++;
		if (over_row || over_sum)
			break;
	}
	if (!lines)
		return s;
	memcpy(rd->pos, lp.p, sizeof(lp.p));
	rd->pos_unknown = (uint8_t)lp.unknown;
	rd->lr->lineno += lines;
	if (line_kind)
		rd->p->has_line = true;
	if (hi) {
		rd->p->has_instr = true;
		profile_func_addr(rd->p, rd->func, lo);
		profile_func_addr(rd->p, rd->func, hi);
	}
	if (over_row || over_sum) {
		sum_overflow(rd, over_row ? "self cost"
				: "sum of this part's self costs",
			     over_row ? rd->func : NO_ID, NO_ID);
		return NULL;
	}
	rd->part_has_cost = true;
	rd->last_is_total = false;
	rd->in_body = true;
	return s;
}

/* The line [s, nl) as text, through parse_line(); *nl is its "\n". */
static int read_text_line(struct callgrind_reader *rd, char *s, char *nl)
{
	size_t len = (size_t)(nl - s);
	int r;

	if (len && s[len - 1] == '\r')
		len--;
	s[len] = '\0';
	r = parse_line(rd, s, len);
	if (r != 0)
		return r;
	return check_size(rd);
}

/*
 * The lines of a block from line_reader_lines(), counted in lr->lineno.
 * Cost lines try the fast path first; the rest, and cost lines it
 * leaves, are found by their "\n" and go through parse_line().
 */
int callgrind_read_lines(struct callgrind_reader *rd, char *s, char *end)
{
	while (s < end) {
		char c = *s, *nl;
		int r;

		if (is_cost_start(c) && rd->ncols) {
			char *run_end = fast_cost_run(rd, s, end);

			if (run_end == s && rd->p->pos_detail == POS_SELECT &&
			    !rd->want_call_cost) {
				enum select_stop why = SELECT_ON;

				/* the jump's source is the line before: the
				 * cost line, coming next, would give it */
				if (rd->want_jump_source)
					callgrind_finish_jump(rd);
				run_end = callgrind_select_run(rd, s, end, &why);
				if (select_stopped(rd, why) < 0)
					return -1;
			} else if (run_end == s && rd->ahead &&
				   !rd->want_call_cost) {
				enum select_stop why = SELECT_ON;

				/* a jump's source, the line coming next, goes
				 * the usual way (the run leaves it) */
				run_end = callgrind_collapse_run(rd, s, end, &why);
				if (select_stopped(rd, why) < 0)
					return -1;
			}
			if (!run_end)
				return -1;
			if (run_end != s) {
				s = run_end;
				continue;
			}
		}
		rd->lr->lineno++;
		rd->line_at = s;
		if (is_cost_start(c) && rd->ncols) {
			long n;
			const char *next = fast_cost_numbers(rd, s, &n);

			if (next) {
				if (add_fast_cost_line(rd, rd->vals, n) < 0)
					return -1;
				s = (char *)next;
				continue;
			}
		}
		if (is_key_char(c)) {
			const char *next = fast_spec_line(rd, s);

			if (next) {
				if (check_size(rd) < 0)
					return -1;
				s = (char *)next;
				continue;
			}
		}
		nl = memchr(s, '\n', (size_t)(end - s));
		r = read_text_line(rd, s, nl);
		if (r > 0)
			rd->lr->lineno--;	/* the header line is not read */
		if (r != 0)
			return r;
		s = nl + 1;
	}
	return 0;
}

/*
 * The positions of a cost line tokenized by the splitting thread into
 * rd->pos, as fast_cost_numbers() would read them from its text (its
 * costs are then v[rd->npos] on): false (nothing changed) for any line
 * it would leave to the general path.
 */
HOT bool resolve_tokens(struct callgrind_reader *rd,
			const struct callgrind_tok *t, const uint64_t *v)
{
	/* whole arrays: a copy of a fixed size is a few moves, one of
	 * npos numbers a slow string instruction */
	uint64_t pos[MAX_POSITIONS] = { rd->pos[0], rd->pos[1], rd->pos[2] };
	const unsigned npos = rd->npos;
	uint32_t tags = t->tags;

	if (t->nfields < npos || t->nfields - npos > rd->ncols)
		return false;
	for (unsigned k = 0; k < npos; k++, tags >>= 2) {
		switch ((enum callgrind_field)(tags & 3)) {
		case CALLGRIND_FIELD_ABS:
			pos[k] = v[k];
			break;
		case CALLGRIND_FIELD_STAR:
			break;
		case CALLGRIND_FIELD_PLUS:
			if (__builtin_add_overflow(pos[k], v[k], &pos[k]))
				return false;
			break;
		case CALLGRIND_FIELD_MINUS:
			if (v[k] > pos[k])
				return false;
			pos[k] -= v[k];
			break;
		}
	}
	/* costs are plain numbers: no tag bits */
	if (tags)
		return false;
	rd->pos[0] = pos[0];
	rd->pos[1] = pos[1];
	rd->pos[2] = pos[2];
	return true;
}

/*
 * The target fields of a calls=/jump=/jcnd= token (nfields, tags, v)
 * into target, relative to rd->pos, as parse_target() reads them: false
 * where it would say something (a target below zero or past 2^64 - 1),
 * for the general path to say it.
 */
static bool resolve_target(const struct callgrind_reader *rd,
			   const struct callgrind_tok *t, const uint64_t *v,
			   uint64_t *target)
{
	uint32_t tags = t->tags;

	for (unsigned k = 0; k < rd->npos && k < t->nfields; k++, tags >>= 2) {
		switch ((enum callgrind_field)(tags & 3)) {
		case CALLGRIND_FIELD_ABS:
			target[k] = v[k];
			break;
		case CALLGRIND_FIELD_STAR:
			target[k] = rd->pos[k];
			break;
		case CALLGRIND_FIELD_PLUS:
			if (__builtin_add_overflow(rd->pos[k], v[k], &target[k]))
				return false;
			break;
		case CALLGRIND_FIELD_MINUS:
			if (v[k] > rd->pos[k])
				return false;
			target[k] = rd->pos[k] - v[k];
			break;
		}
	}
	return true;
}

/*
 * A name or calls=/jump=/jcnd= line the splitting thread tokenized,
 * applied as parse_line() would apply its text. Returns 1, 0 when the
 * general path must read the line (to say what is wrong with it, which
 * depends on the reader's state), or -1 after reporting.
 */
static int apply_spec_token(struct callgrind_reader *rd,
			    const struct callgrind_tok *t, const char *text,
			    const uint64_t *v)
{
	uint64_t target[MAX_POSITIONS] = { 0 };
	enum callgrind_key key = (enum callgrind_key)t->key;
	name_id name = NO_NAME;

	/* first what may fail, with nothing changed */
	if (rd->want_call_cost ||
	    (key == CALLGRIND_KEY_FN && select_gave_up(rd)))
		return 0;
	if (t->kind == CALLGRIND_TOK_NAME) {
		if (t->form == CALLGRIND_NAME_REF &&
		    (name = callgrind_id_get(rd, name_keys[key].space, v[0])) ==
			    NO_NAME)
			return 0;
		/* a NUL byte in the name: parse_name() says so */
		if ((t->form == CALLGRIND_NAME_DEF &&
		     memchr(text + v[1], '\0', v[2])) ||
		    (t->form == CALLGRIND_NAME_PLAIN &&
		     memchr(text + v[0], '\0', v[1])))
			return 0;
	} else {
		if (!resolve_target(rd, t, v + callgrind_tok_ncounts(key),
				    target))
			return 0;
		if (key == CALLGRIND_KEY_CALLS && rd->cfn == NO_NAME)
			return 0;
	}
	/* then what parse_line() does for any body line */
	rd->last_is_total = false;
	if (rd->want_jump_source)
		callgrind_finish_jump(rd);
	rd->in_body = true;
	if (t->kind == CALLGRIND_TOK_NAME) {
		if (t->form == CALLGRIND_NAME_DEF)
			name = name_def(rd, name_keys[key].space, v[0],
					text + v[1], v[2]);
		else if (t->form == CALLGRIND_NAME_PLAIN)
			name = intern_name(rd, name_keys[key].space,
					   text + v[0], v[1]);
		set_name(rd, key, name);
	} else if (key == CALLGRIND_KEY_CALLS) {
		rd->call_count = v[0];
		start_call(rd);
	} else {
		begin_jump(rd, key == CALLGRIND_KEY_JCND, v[0],
			   key == CALLGRIND_KEY_JCND ? v[1] : v[0], target);
	}
	return check_size(rd) < 0 ? -1 : 1;
}

/* The lines of a block from the splitting thread, as read_lines(). */
int callgrind_read_block(struct callgrind_reader *rd,
			 struct callgrind_block *b)
{
	for (size_t i = 0; i < b->ntoks; i++) {
		const struct callgrind_tok *t = &b->toks[i];
		const uint64_t *v = b->vals + t->first;
		char *s = b->text + t->off;
		char *nl = (i + 1 < b->ntoks ? b->text + t[1].off
					     : b->text + b->len) - 1;
		int r;

		rd->lr->lineno++;
		switch ((enum callgrind_tok_kind)t->kind) {
		case CALLGRIND_TOK_COST:
			if (rd->ncols && resolve_tokens(rd, t, v)) {
				if (add_fast_cost_line(rd, v + rd->npos,
						       t->nfields - rd->npos) < 0)
					return -1;
				continue;
			}
			break;
		case CALLGRIND_TOK_NOTHING:
			continue;
		case CALLGRIND_TOK_NAME:
		case CALLGRIND_TOK_COUNTS:
			r = apply_spec_token(rd, t, b->text, v);
			if (r < 0)
				return -1;
			if (r > 0)
				continue;
			break;
		case CALLGRIND_TOK_TEXT:
			break;
		}
		if (read_text_line(rd, s, nl) < 0)
			return -1;
	}
	return 0;
}

