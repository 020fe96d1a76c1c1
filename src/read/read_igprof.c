/*
 * The IgProf profile reader (igprof's dump: "P=(...)" then one call
 * stack frame per line).
 *
 *   P=(HEX ID=7e5 N=(./prog) T=0.010000)
 *   C1 FN0=(F0=(./prog)+4401 N=(main))+68
 *   C2 FN1=(F0+4532 N=(fib))+23 V0=(PERF_TICKS):(3,3,3)
 *   C3 FN1+23 V0:(2,2,2)
 *   C2 FN2=(F1=(/lib/libc.so.6)+9123 N=(malloc))+12 V1=(MEM_LIVE):(1,64,64);LK=(0x5555a000,64)
 *
 * "C<depth>" puts the frame at that depth of the current stack (the
 * lines are a depth-first walk of the tree of unique stacks). FN, F and
 * V are numbered definitions, "FN1=(...)", or references to an earlier
 * one, "FN1"; a definition may stand wherever a reference may. With
 * "P=(HEX ...)" every number is hexadecimal (without "0x"), except the
 * tick period T and the leak addresses, which always say "0x".
 *
 * The offsets, as igprof writes them (src/profile.cc, walk-syms.cc: the
 * writer keeps one FN per call address): a definition's F offset is the
 * object offset of the address the frame was first seen at, and its own
 * "+N" that address's offset into the function. So the function starts
 * at F offset - N, and a frame "FNk+M" is at that start + M.
 *
 * Costs: each counter is an event; a frame's (count,total,peak) belong
 * to the stack that ends at it. Self cost is the total of the stacks
 * ending in a function. As the stacks are whole, inclusive cost is
 * exact: each stack's value counts once for every distinct function
 * (func_incl) and every distinct caller->callee arc (the arc's
 * inclusive cost) in it, however often they recur there. A frame's
 * subtree sum is known when the frame is popped; it is added to a
 * function or an arc only if that is its outermost occurrence on the
 * stack (an active count per function and per arc says so). Each line
 * is pushed and popped once: linear time, no recursion, memory by the
 * stack's depth and the number of functions and arcs.
 *
 * An arc's call count is the count field of one counter (--counter, or
 * the file's first) summed the same way: for PERF_TICKS the ticks under
 * the call, for MEM_TOTAL the allocations made under it. IgProf has no
 * call counts of its own.
 *
 * With read_opts.part_done (the report's threads panel), each buffer is
 * handed on at its end as --part=N reads it, and the next starts from
 * no costs with the stack as it is (flush_open(), hand_on(),
 * restart()): one pass for all the buffers. Positions and leaks are
 * not handed on (the report reads its parts without them).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "events_differ.h"
#include "profile/parts.h"
#include "read.h"

/* IgProf has a handful of counters; hostile input gets no more. */
#define MAX_COUNTERS 64

struct ig_fn {
	uint32_t func;		/* profile function */
	int64_t start;		/* object offset where it starts */
	uint64_t line;		/* of the definition, for messages */
	bool allocator;		/* malloc, operator new, ...: see folds() */
	bool igprof_own;	/* in IgProf's own library */
};

struct ig_file {
	name_id name;
	uint64_t line;
};

struct ig_counter {
	uint32_t event;
	uint64_t line;
};

/* One frame of the current stack. */
struct ig_level {
	uint32_t func;
	uint32_t call;		/* arc from the frame above; NO_ID at depth 1 */
	uint32_t site;		/* that call's call site, NO_ID if unknown */
	int64_t addr;		/* the frame's address, -1 if none */
	bool at_start;		/* ... which is where its function starts */
	uint32_t stack;		/* leak stack node; NO_ID until a leak needs it */
	uint64_t count;		/* count field of count_col, whole subtree */
	bool call_pending;	/* call made at its first value (--part:
				 * pushed in a buffer left out) */
	/* the outermost level of the run of frames of func that ends
	 * here (this one when the frame above is another function's): a
	 * value's arc self part is its call's (charge_arc_self()), found
	 * in one step however deep a recursion of func itself is */
	uint32_t run_start;
};

struct ig_reader {
	struct profile *p;
	struct line_reader *lr;
	const struct read_opts *opts;
	struct pinput *input;
	int base;		/* 10, or 16 after "P=(HEX" */
	double tick;		/* T= */
	name_id program;
	uint32_t pid;		/* P=(ID=) */
	/* the file's totals per profile event, for its part
	 * (profile/parts.h) */
	uint64_t *file_total;
	size_t file_total_alloc;

	struct u64map fn_ids, file_ids, counter_ids;	/* id -> index */
	struct ig_fn *fns;
	size_t nfns, fns_alloc;
	struct ig_file *files;
	size_t nfiles, files_alloc;
	struct ig_counter counters[MAX_COUNTERS];
	size_t ncounters;
	/* igprof's buffers, the file's parts (add_file_part()): the one
	 * being read (1 the first), and the one each counter was last
	 * defined in */
	uint32_t buffer;
	uint32_t defined_in[MAX_COUNTERS];
	uint32_t count_col;	/* counter whose counts are call counts */

	struct ig_level *lv;	/* the current stack, depth entries */
	size_t depth, lv_alloc;
	/* The file's stack, which folded frames make deeper than ours:
	 * per file depth, whether that frame has a level of ours. */
	bool *file_kept;
	size_t file_depth, file_kept_alloc;
	int memory;		/* the counters are MEM_*: 1, not: 0, -1 not
				 * known yet */
	uint64_t *acc[MAX_COUNTERS];	/* per counter, per level: subtree
					 * totals; lv_alloc entries each */
	uint32_t *func_active;	/* per profile function: frames on stack */
	size_t func_active_alloc;
	uint32_t *call_active;	/* per profile call */
	size_t call_active_alloc;
	int last_counter;	/* column of the line's last V, or -1 */
	bool any_value;
	/* read_opts.part_done: the functions given a cost in the buffer
	 * being read (repeated), whose rows the next one starts zeroed */
	uint32_t *costed;
	size_t ncosted, costed_alloc;
};

/* ---- messages ---- */

static int error_here(struct ig_reader *rd, const char *fmt, ...)
	CGA_PRINTF(2, 3);

static int error_here(struct ig_reader *rd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_at(rd->lr->path, rd->lr->lineno, "%s", msg);
}

/* A short, printable quote of what was found, for messages. */
static const char *quote(const char *s, const char *end, char *buf,
			 size_t size)
{
	size_t n = 0, len = (size_t)(end - s);

	if (!len)
		return "the end of the line";
	buf[n++] = '\'';
	for (size_t i = 0; i < len && n + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (n - 1 < len && n + 4 <= size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

static int expected(struct ig_reader *rd, const char *what, const char *s,
		    const char *end)
{
	char q[48];

	return error_here(rd, "expected %s, found %s", what,
			  quote(s, end, q, sizeof(q)));
}

/* ---- small parsing helpers ---- */

static int digit_value(char c, int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < base ? d : -1;
}

/* The literal `lit` at *sp, consumed; false (nothing consumed) if not. */
static bool eat(const char **sp, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *sp) < n || memcmp(*sp, lit, n))
		return false;
	*sp += n;
	return true;
}

static int want(struct ig_reader *rd, const char **sp, const char *end,
		const char *lit)
{
	char what[32];

	if (eat(sp, end, lit))
		return 0;
	snprintf(what, sizeof(what), "'%s'", lit);
	return expected(rd, what, *sp, end);
}

/* An unsigned number in base (the file's, or 16 for addresses). */
static int number_in(struct ig_reader *rd, const char **sp, const char *end,
		     int base, const char *what, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0;
	int d;

	if (s == end || digit_value(*s, base) < 0) {
		char w[96];

		snprintf(w, sizeof(w), "%s (%s)", what,
			 base == 16 ? "hexadecimal digits" : "decimal digits");
		return expected(rd, w, s, end);
	}
	for (; s < end && (d = digit_value(*s, base)) >= 0; s++) {
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return error_here(rd, "%s does not fit in 64 bits", what);
		v = v * (uint64_t)base + (uint64_t)d;
	}
	/* "1a" is not a decimal number, nor "1g" a hexadecimal one */
	if (s < end && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
			(*s >= 'A' && *s <= 'Z'))) {
		char w[96];

		snprintf(w, sizeof(w), "%s (%s)", what,
			 base == 16 ? "hexadecimal digits" : "decimal digits");
		return expected(rd, w, *sp, end);
	}
	*sp = s;
	*out = v;
	return 0;
}

static int number(struct ig_reader *rd, const char **sp, const char *end,
		  const char *what, uint64_t *out)
{
	return number_in(rd, sp, end, rd->base, what, out);
}

/* An offset: igprof writes them signed. */
static int offset(struct ig_reader *rd, const char **sp, const char *end,
		  const char *what, int64_t *out)
{
	bool neg = eat(sp, end, "-");
	uint64_t v;

	if (number(rd, sp, end, what, &v) < 0)
		return -1;
	if (v > (uint64_t)INT64_MAX)
		return error_here(rd, "%s does not fit in 64 bits", what);
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* The text up to the first `stop` at or after *sp; *sp moves past it. */
static int text_until(struct ig_reader *rd, const char **sp, const char *end,
		      const char *stop, const char *what, const char **text,
		      size_t *len)
{
	size_t n = strlen(stop);
	const char *s = *sp;

	for (const char *q = s; (size_t)(end - q) >= n; q++) {
		if (!memcmp(q, stop, n)) {
			char w[96];

			*text = s;
			*len = (size_t)(q - s);
			*sp = q + n;
			/* igprof writes C strings: a NUL byte would cut
			 * the name in every listing */
			if (!memchr(s, '\0', *len))
				return 0;
			return error_here(rd, "a NUL byte in %s %s: igprof writes none (is the file damaged?)",
					  what, quote(s, q, w, sizeof(w)));
		}
	}
	{
		char w[96];

		snprintf(w, sizeof(w), "%s ended by '%s'", what, stop);
		return expected(rd, w, s, end);
	}
}

/* ---- the file's part: its process and totals ---- */

static void add_file_total(struct ig_reader *rd, uint32_t e, uint64_t v)
{
	uint64_t *t;

	if (e >= rd->file_total_alloc) {
		size_t old = rd->file_total_alloc;

		ARRAY_GROW(rd->file_total, (size_t)e + 1, rd->file_total_alloc);
		memset(rd->file_total + old, 0,
		       (rd->file_total_alloc - old) * sizeof(*rd->file_total));
	}
	t = &rd->file_total[e];
	/* a maximum's largest, as the functions' (MEM_MAX); a sum stops
	 * at 2^64 - 1 (a function's sum past it is refused above) */
	if (rd->p->events[e].max)
		*t = *t > v ? *t : v;
	else if (__builtin_add_overflow(*t, v, t))
		*t = UINT64_MAX;
}

/* --part: igprof's buffers are the file's parts, numbered from 1 */
static bool buffer_wanted(const struct ig_reader *rd)
{
	return !rd->opts->part || rd->buffer == rd->opts->part;
}

static bool pid_wanted(const struct ig_reader *rd)
{
	const struct perf_select *sel = rd->opts->perf_select;

	if (!sel || !sel->npids)
		return true;
	for (size_t i = 0; i < sel->npids; i++)
		if (sel->pids[i] == rd->pid)
			return true;
	return false;
}

/*
 * A buffer of the file as a part. igprof (src/profile.cc, dumpAllProfiles)
 * keeps a buffer of stacks per thread in its per-thread mode, merges a
 * thread's into the master buffer when the thread ends, and dumps each
 * live thread's buffer and then the master's, one tree after another:
 * no thread id, nothing between them, but the counters' ids start again
 * for each (dumpResetIDs()), so a counter defined a second time in a
 * buffer begins the next. Which thread a buffer is, the file does not
 * say: its process (P=(ID=)) is all a part tells. A buffer that uses
 * none of the counters the one before it defined is not told apart
 * from it.
 */
static void add_file_part(struct ig_reader *rd, bool selected)
{
	const char *name = profile_str(rd->p, rd->program);
	const char *base = strrchr(name, '/');
	struct ppart pt = { 0 };
	size_t n = rd->file_total_alloc < rd->p->nevents
			   ? rd->file_total_alloc : rd->p->nevents;

	pt.input = (uint32_t)(rd->input - rd->p->inputs);
	pt.ordinal = rd->buffer;
	pt.pid = rd->pid;
	pt.name = base ? names_intern(&rd->p->names, base + 1, strlen(base + 1))
		       : rd->program;
	pt.trigger = NO_NAME;
	pt.selected = selected;
	pt.from_totals = false;
	profile_add_part(rd->p, &pt, rd->file_total, n);
}

static void flush_open(struct ig_reader *rd);
static void hand_on(struct ig_reader *rd);
static void restart(struct ig_reader *rd);

/* The buffer read so far is a part; the next starts at zero. */
static int next_buffer(struct ig_reader *rd)
{
	bool handed = rd->opts->part_done && buffer_wanted(rd);

	if (handed && rd->opts->part_stop && *rd->opts->part_stop)
		return error_here(rd, "no more buffers are wanted");
	if (handed && rd->opts->stats)
		rd->opts->stats->part_levels += rd->depth;
	if (handed)
		flush_open(rd);
	add_file_part(rd, buffer_wanted(rd));
	if (handed) {
		hand_on(rd);
		restart(rd);
	}
	if (rd->file_total)
		memset(rd->file_total, 0,
		       rd->file_total_alloc * sizeof(*rd->file_total));
	rd->buffer++;
	rd->input->nparts++;
	rd->input->nselected += buffer_wanted(rd);
	return 0;
}

/* ---- the header ---- */

static int parse_header(struct ig_reader *rd, const char *s, const char *end)
{
	const char *name, *t;
	size_t len;
	uint64_t pid;
	char *tend;
	char tbuf[64];

	if (want(rd, &s, end, "P=(") < 0)
		return -1;
	if (eat(&s, end, "HEX "))
		rd->base = 16;
	if (want(rd, &s, end, "ID=") < 0 ||
	    number(rd, &s, end, "the process id", &pid) < 0 ||
	    want(rd, &s, end, " N=(") < 0 ||
	    text_until(rd, &s, end, ") T=", "the program name", &name, &len) < 0)
		return -1;
	t = s;
	while (s < end && *s != ')')
		s++;
	if (s == end || (size_t)(s - t) >= sizeof(tbuf) || s == t)
		return expected(rd, "the tick period in seconds and ')'", t, end);
	memcpy(tbuf, t, (size_t)(s - t));
	tbuf[s - t] = '\0';
	errno = 0;
	rd->tick = strtod(tbuf, &tend);
	if (errno || *tend || !isfinite(rd->tick) || rd->tick < 0 ||
	    tbuf[0] == '-' || tbuf[0] == '+' || tbuf[0] == ' ')
		return error_here(rd, "the tick period 'T=%s' is not a number of seconds",
				  tbuf);
	if (s + 1 != end)
		return expected(rd, "the end of the line after the 'P=' record",
				s + 1, end);
	rd->pid = pid > UINT32_MAX ? 0 : (uint32_t)pid;
	rd->program = names_intern(&rd->p->names, name, len);
	rd->input->cmd = rd->program;
	return 0;
}

/* ---- definitions and references ---- */

/* "F<id>" or "F<id>=(<object>)": the object's name. */
static int parse_file(struct ig_reader *rd, const char **sp, const char *end,
		      name_id *out)
{
	uint64_t id;
	uint32_t k;

	if (want(rd, sp, end, "F") < 0 ||
	    number(rd, sp, end, "an object id after 'F'", &id) < 0)
		return -1;
	k = u64map_get(&rd->file_ids, id);
	if (eat(sp, end, "=(")) {
		const char *name;
		size_t len;
		name_id n;

		if (k != U64MAP_NONE)
			return error_here(rd, "object F%llu is defined twice (first on line %llu)",
					  (unsigned long long)id,
					  (unsigned long long)rd->files[k].line);
		/* the object name ends at the ")+" before its offset */
		if (text_until(rd, sp, end, ")+", "the object name", &name, &len) < 0)
			return -1;
		*sp -= 1;	/* leave the '+' for the offset */
		/* glibc names the main program by argv[0], an empty name
		 * stands for it too */
		n = len ? names_intern(&rd->p->names, name, len) : rd->program;
		ARRAY_GROW(rd->files, rd->nfiles + 1, rd->files_alloc);
		rd->files[rd->nfiles].name = n;
		rd->files[rd->nfiles].line = rd->lr->lineno;
		u64map_put(&rd->file_ids, id, (uint32_t)rd->nfiles++);
		*out = n;
		return 0;
	}
	if (k == U64MAP_NONE)
		return error_here(rd, "object F%llu is used before it is defined "
				  "(expected 'F%llu=(name)' on an earlier line)",
				  (unsigned long long)id, (unsigned long long)id);
	*out = rd->files[k].name;
	return 0;
}

/*
 * "FN<id>" or "FN<id>=(F... N=(<name>))", then "+<offset>": the
 * function (index into fns[]) and the frame's object offset.
 */
/*
 * Frames folded into their callers, as igprof-analyse folds them unless
 * told not to (-nf; --no-filter here): IgProf's own (an object named
 * libigprof., IgProf. or IgHook.), for every counter; and for memory
 * counters, the allocators, whose cost is their callers' allocations
 * (igprof-analyse's MallocFilter: the C allocators and operator new and
 * new[] as mangled, which is how IgProf names them).
 */
static bool allocator_name(const char *name)
{
	static const char *const names[] = {
		"malloc", "calloc", "realloc", "memalign", "posix_memalign",
		"valloc", "zmalloc", "zcalloc", "zrealloc",
		"_Znwj", "_Znwm", "_Znaj", "_Znam",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static bool igprof_object(const char *path)
{
	return strstr(path, "libigprof.") || strstr(path, "IgProf.") ||
	       strstr(path, "IgHook.");
}

/*
 * Whether the counters are memory counters: known from the first counter
 * defined; before that, from a definition on the rest of this line (an
 * allocator frame is the leaf its counters are on, and the first of
 * them often defines the counter). Unknown: no.
 */
static bool memory_counters(struct ig_reader *rd, const char *s,
			    const char *end)
{
	if (rd->memory >= 0)
		return rd->memory;
	while ((s = memchr(s, 'V', (size_t)(end - s))) != NULL) {
		const char *d = ++s;

		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d > s && end - d > 6 && !memcmp(d, "=(MEM_", 6))
			return true;
		if (d > s && end - d > 2 && !memcmp(d, "=(", 2))
			return false;
	}
	return false;
}

static bool folds(struct ig_reader *rd, const struct ig_fn *f,
		  const char *rest, const char *end)
{
	if (rd->opts->no_filter || !rd->depth)
		return false;	/* a root frame has no caller to fold into */
	return f->igprof_own ||
	       (f->allocator && memory_counters(rd, rest, end));
}

/* name demangled where the options ask: the names that demangle to
 * one (a C++ constructor's C1 and C2 symbols) are one function before
 * the stacks are charged, each stack counted once in its inclusive
 * cost; merged after (demangle_names()), a stack through both would
 * count twice */
static name_id demangled(struct ig_reader *rd, name_id name)
{
	char *d;

	if (!rd->opts->demangle)
		return name;
	d = rd->opts->demangle(profile_str(rd->p, name));
	if (!d)
		return name;
	name = names_intern(&rd->p->names, d, strlen(d));
	free(d);
	return name;
}

static int parse_fn(struct ig_reader *rd, const char **sp, const char *end,
		    uint32_t *fn, int64_t *addr)
{
	uint64_t id;
	uint32_t k;
	int64_t off, objoff = 0;
	bool defined = false;

	if (want(rd, sp, end, "FN") < 0 ||
	    number(rd, sp, end, "a function id after 'FN'", &id) < 0)
		return -1;
	k = u64map_get(&rd->fn_ids, id);
	if (eat(sp, end, "=(")) {
		name_id object = NO_NAME, name;
		const char *text;
		size_t len;
		struct ig_fn *f;

		if (k != U64MAP_NONE)
			return error_here(rd, "function FN%llu is defined twice (first on line %llu)",
					  (unsigned long long)id,
					  (unsigned long long)rd->fns[k].line);
		if (parse_file(rd, sp, end, &object) < 0 ||
		    want(rd, sp, end, "+") < 0 ||
		    offset(rd, sp, end, "the object offset", &objoff) < 0 ||
		    want(rd, sp, end, " N=(") < 0 ||
		    /* names may hold parentheses ("@?(nil)", "operator()"):
		     * the name ends at the "))+" that closes the definition */
		    text_until(rd, sp, end, "))+", "the function name", &text,
			       &len) < 0)
			return -1;
		*sp -= 1;	/* leave the '+' for the offset */
		name = names_intern(&rd->p->names, text, len);
		k = (uint32_t)rd->nfns;
		ARRAY_GROW(rd->fns, rd->nfns + 1, rd->fns_alloc);
		f = &rd->fns[rd->nfns++];
		f->func = profile_func(rd->p, object, NO_NAME,
				       demangled(rd, name));
		f->line = rd->lr->lineno;
		f->allocator = allocator_name(profile_str(rd->p, name));
		f->igprof_own = object != NO_NAME &&
				igprof_object(profile_str(rd->p, object));
		u64map_put(&rd->fn_ids, id, k);
		defined = true;
	} else if (k == U64MAP_NONE) {
		return error_here(rd, "function FN%llu is used before it is defined "
				  "(expected 'FN%llu=(...)' on an earlier line)",
				  (unsigned long long)id, (unsigned long long)id);
	}
	if (want(rd, sp, end, "+") < 0 ||
	    offset(rd, sp, end, "the offset into the function", &off) < 0)
		return -1;
	if (defined) {
		struct ig_fn *f = &rd->fns[k];

		if (__builtin_sub_overflow(objoff, off, &f->start))
			f->start = -1;
		if (rd->opts->want_positions && f->start > 0) {
			/* where it starts, for -b's load offset vote */
			profile_pos(rd->p, f->func, NO_NAME, 0, (uint64_t)f->start);
			rd->p->has_instr = true;
		}
	}
	*fn = k;
	/* an address below zero or past 2^63 is no address */
	if (rd->fns[k].start < 0 ||
	    __builtin_add_overflow(rd->fns[k].start, off, addr))
		*addr = -1;
	return 0;
}

/* ---- the stack ---- */

static void grow_active(uint32_t **a, size_t *alloc, size_t want)
{
	size_t old = *alloc;

	if (want <= old)
		return;
	ARRAY_GROW(*a, want, *alloc);
	memset(*a + old, 0, (*alloc - old) * sizeof(**a));
}

/* f is given a cost in the buffer: handed on with it, zeroed after */
static void costed(struct ig_reader *rd, uint32_t f)
{
	if (!rd->opts->part_done)
		return;
	ARRAY_GROW(rd->costed, rd->ncosted + 1, rd->costed_alloc);
	rd->costed[rd->ncosted++] = f;
}

/* Pop the top frame: its subtree's sums go to its function and arc
 * (where this is their outermost frame) and to the frame above. */
static void pop(struct ig_reader *rd)
{
	struct profile *p = rd->p;
	size_t l = --rd->depth;
	const struct ig_level *v = &rd->lv[l];
	bool outer_func = --rd->func_active[v->func] == 0;
	bool outer_call = v->call != NO_ID && --rd->call_active[v->call] == 0;

	if (outer_func && rd->opts->part_done)
		for (size_t c = 0; c < rd->ncounters; c++)
			if (rd->acc[c][l]) {
				costed(rd, v->func);
				break;
			}
	for (size_t c = 0; c < rd->ncounters; c++) {
		uint64_t sum = rd->acc[c][l];
		uint32_t e = rd->counters[c].event;

		if (!sum)
			continue;
		/* a maximum's the largest under each (profile_combine());
		 * a sum's cannot wrap: each is at most the file's total,
		 * which parse_values() checked */
		if (outer_func)
			profile_combine(p, e,
					&profile_func_row(p, p->func_incl,
							  v->func)[e], sum);
		if (outer_call)
			profile_combine(p, e, &profile_call_incl(p, v->call)[e],
					sum);
		if (outer_call && v->site != NO_ID)
			profile_combine(p, e,
					&profile_callsite_incl(p, v->site)[e],
					sum);
		if (l)
			profile_combine(p, e, &rd->acc[c][l - 1], sum);
	}
	if (outer_call)
		profile_call_add_count(p, v->call, v->count);
	if (outer_call && v->site != NO_ID)
		p->callsites[v->site].count += v->count;
	if (l)
		rd->lv[l - 1].count += v->count;
}

/* Pop the file's top frame, and ours if it has one. */
static void pop_file(struct ig_reader *rd)
{
	if (rd->file_kept[--rd->file_depth])
		pop(rd);
}

static void push(struct ig_reader *rd, uint32_t func)
{
	size_t l = rd->depth;
	struct ig_level *v;

	if (l + 1 > rd->lv_alloc) {
		ARRAY_GROW(rd->lv, l + 1, rd->lv_alloc);
		for (size_t c = 0; c < rd->ncounters; c++)
			rd->acc[c] = xreallocarray(rd->acc[c], rd->lv_alloc,
						   sizeof(uint64_t));
	}
	v = &rd->lv[l];
	v->func = func;
	/* a buffer --part leaves out has no arcs (they would have no
	 * cost); its frames may be the next buffer's first, whose values
	 * make them (wanted_calls()) */
	v->call = l && buffer_wanted(rd)
		  ? profile_call(rd->p, rd->lv[l - 1].func, func) : NO_ID;
	v->call_pending = l && !buffer_wanted(rd);
	v->site = NO_ID;
	v->addr = -1;
	v->at_start = false;
	v->stack = NO_ID;
	v->count = 0;
	v->run_start = l && rd->lv[l - 1].func == func ? rd->lv[l - 1].run_start
						      : (uint32_t)l;
	for (size_t c = 0; c < rd->ncounters; c++)
		rd->acc[c][l] = 0;
	grow_active(&rd->func_active, &rd->func_active_alloc, rd->p->nfuncs);
	rd->func_active[func]++;
	if (v->call != NO_ID) {
		grow_active(&rd->call_active, &rd->call_active_alloc,
			    rd->p->ncalls);
		rd->call_active[v->call]++;
	}
	rd->depth++;
}

/* The calls of the frames pushed before the buffer being read began
 * (call_pending), outermost first, as push() makes them. */
static void wanted_calls(struct ig_reader *rd)
{
	size_t l = rd->depth;

	while (l > 0 && rd->lv[l - 1].call_pending)
		l--;
	for (; l < rd->depth; l++) {
		struct ig_level *v = &rd->lv[l];

		v->call = profile_call(rd->p, rd->lv[l - 1].func, v->func);
		v->call_pending = false;
		grow_active(&rd->call_active, &rd->call_active_alloc,
			    rd->p->ncalls);
		rd->call_active[v->call]++;
	}
}

/*
 * read_opts.part_done: the buffer ends with frames on the stack. Read
 * alone (--part=N), their subtrees' sums would reach their functions and
 * arcs when they are popped, in a later buffer that adds nothing to
 * them; here each is popped now, innermost first, the stack below it
 * the same then as now (which frames are the outermost of their
 * function and arc), and put back.
 */
static void flush_open(struct ig_reader *rd)
{
	size_t depth = rd->depth;

	while (rd->depth)
		pop(rd);
	rd->depth = depth;
	for (size_t l = 0; l < depth; l++)
		rd->func_active[rd->lv[l].func]++;
}

/* The buffer just ended, alone in the profile, to the caller. */
static void hand_on(struct ig_reader *rd)
{
	struct profile part;

	profile_init(&part);
	profile_part_copy_some(&part, rd->p,
			       (uint32_t)(rd->input - rd->p->inputs),
			       rd->costed, rd->ncosted);
	/* as read_igprof() sets them at the end */
	if (rd->count_col != NO_ID) {
		part.counts_by_event = true;
		part.count_event = rd->counters[rd->count_col].event;
	}
	rd->opts->part_done(rd->opts->part_ctx, &part,
			    &rd->p->parts[rd->p->nparts - 1]);
	profile_release(&part);
}

/*
 * The next buffer from none, as --part=N+1 reads it: no costs, arcs or
 * stacks; the frames on the stack have no arc yet (call_pending: made
 * at the buffer's first value, wanted_calls()) and no sums. The
 * functions stay, and which frames are on the stack.
 */
static void restart(struct ig_reader *rd)
{
	/* flush_open() popped every arc's frames: none is active */
	profile_part_clear_some(rd->p, rd->costed, rd->ncosted);
	rd->ncosted = 0;
	for (size_t l = 0; l < rd->depth; l++) {
		struct ig_level *v = &rd->lv[l];

		v->call = NO_ID;
		v->call_pending = l > 0;
		v->site = NO_ID;
		v->stack = NO_ID;
		v->count = 0;
		for (size_t c = 0; c < rd->ncounters; c++)
			rd->acc[c][l] = 0;
	}
}

/* The leak stack node of the current top frame, made on first need. */
static uint32_t top_stack(struct ig_reader *rd)
{
	size_t l = rd->depth;

	/* walk down to the deepest frame that has a node: each frame is
	 * given one at most once while it is on the stack */
	while (l > 0 && rd->lv[l - 1].stack == NO_ID)
		l--;
	for (; l < rd->depth; l++)
		rd->lv[l].stack = profile_stack(rd->p, rd->lv[l].func,
						l ? rd->lv[l - 1].stack : NO_ID);
	return rd->lv[rd->depth - 1].stack;
}

/* ---- counters and leaks ---- */

static int set_tick(struct ig_reader *rd, uint32_t e);

/* "V<id>" or "V<id>=(<name>)": the counter's column. */
static int parse_counter_id(struct ig_reader *rd, const char **sp,
			    const char *end, uint32_t *col)
{
	uint64_t id;
	uint32_t k;

	if (number(rd, sp, end, "a counter id after 'V'", &id) < 0)
		return -1;
	k = u64map_get(&rd->counter_ids, id);
	if (eat(sp, end, "=(")) {
		const char *name;
		size_t len;
		name_id n;
		uint32_t e;
		size_t c;

		if (k != U64MAP_NONE)
			return error_here(rd, "counter V%llu is defined twice (first on line %llu)",
					  (unsigned long long)id,
					  (unsigned long long)rd->counters[k].line);
		if (text_until(rd, sp, end, "):(", "the counter name", &name, &len) < 0)
			return -1;
		*sp -= 2;	/* leave ":(" for the values */
		if (!len)
			return error_here(rd, "counter V%llu has an empty name",
					  (unsigned long long)id);
		n = names_intern(&rd->p->names, name, len);
		e = profile_event(rd->p, n);
		if (rd->memory < 0)
			rd->memory = len > 4 && !memcmp(name, "MEM_", 4);
		/* igprof-analyse takes a counter whose name ends in "_MAX"
		 * as a maximum (src/analyse.cc, setKey(): m_keyMax), and
		 * takes the larger wherever it would add */
		if (len > 4 && !memcmp(name + len - 4, "_MAX", 4))
			rd->p->events[e].max = true;
		/* igprof numbers a counter again in each thread's part of
		 * the dump: one name, one column */
		for (c = 0; c < rd->ncounters; c++)
			if (rd->counters[c].event == e)
				break;
		/* defined again in the buffer being read: the next buffer
		 * has begun (its first counter value is a definition) */
		if (c < rd->ncounters && rd->defined_in[c] == rd->buffer &&
		    next_buffer(rd) < 0)
			return -1;
		rd->defined_in[c] = rd->buffer;
		if (c == rd->ncounters) {
			if (c == MAX_COUNTERS)
				return error_here(rd, "more than %d counters", MAX_COUNTERS);
			rd->counters[c].event = e;
			rd->counters[c].line = rd->lr->lineno;
			rd->acc[c] = xcalloc(rd->lv_alloc + 1, sizeof(uint64_t));
			rd->ncounters++;
			if (rd->count_col == NO_ID &&
			    (!rd->opts->counter ||
			     !strcmp(rd->opts->counter, profile_str(rd->p, n))))
				rd->count_col = (uint32_t)c;
			if (len == 10 && !memcmp(name, "PERF_TICKS", 10) &&
			    set_tick(rd, e) < 0)
				return -1;
		}
		u64map_put(&rd->counter_ids, id, (uint32_t)c);
		*col = (uint32_t)c;
		return 0;
	}
	if (k == U64MAP_NONE)
		return error_here(rd, "counter V%llu is used before it is defined "
				  "(expected 'V%llu=(name)' on an earlier line)",
				  (unsigned long long)id, (unsigned long long)id);
	*col = k;
	return 0;
}

/*
 * PERF_TICKS are ticks of T= seconds: listings may show them as time.
 * Ticks of two periods do not add up: they were counted at the first's
 * (a warning said so, and a 1 ms profile's time came out ten times too
 * long beside a 10 ms one); they are refused, as gmon.out's two rates
 * are.
 */
static int set_tick(struct ig_reader *rd, uint32_t e)
{
	struct pevent *ev = &rd->p->events[e];

	if (rd->tick <= 0)
		return 0;
	if (ev->unit_seconds && ev->unit_seconds != rd->tick)
		return error_at(rd->lr->path, 1,
				"the tick period T=%g differs from an earlier "
				"profile's %g: ticks of two periods are not the "
				"same time and cannot be added up", rd->tick,
				ev->unit_seconds);
	ev->unit_seconds = rd->tick;
	return 0;
}

/*
 * The value of the stack on top, recorded at its leaf: the self cost
 * of the arc into the leaf from the nearest frame of another function
 * (profile.call_self; calls of the leaf to itself passed by, as
 * stack_charge.c does), once, however often that arc recurs further
 * out.
 */
static void charge_arc_self(struct ig_reader *rd, uint32_t e, uint64_t total)
{
	size_t l = rd->lv[rd->depth - 1].run_start;

	if (l > 0 && rd->lv[l].call != NO_ID)
		profile_combine(rd->p, e,
				&profile_call_self(rd->p, rd->lv[l].call)[e],
				total);
}

/* ":(count,total,peak)" of the counter in column col. */
static int parse_values(struct ig_reader *rd, const char **sp,
			const char *end, uint32_t col, int64_t addr)
{
	struct profile *p = rd->p;
	uint32_t e = rd->counters[col].event;
	uint32_t f = rd->lv[rd->depth - 1].func;
	uint64_t count, total, peak;
	uint64_t *row;

	if (want(rd, sp, end, ":(") < 0 ||
	    number(rd, sp, end, "the counter's count", &count) < 0 ||
	    want(rd, sp, end, ",") < 0 ||
	    number(rd, sp, end, "the counter's total", &total) < 0 ||
	    want(rd, sp, end, ",") < 0 ||
	    number(rd, sp, end, "the counter's peak", &peak) < 0 ||
	    want(rd, sp, end, ")") < 0)
		return -1;
	rd->any_value = true;
	/* another buffer than --part's: its total for --parts alone */
	if (!buffer_wanted(rd)) {
		add_file_total(rd, e, total);
		return 0;
	}
	wanted_calls(rd);
	costed(rd, f);
	/* sums of 64-bit values: a hostile file could wrap them; real
	 * counters are far from it, so wrapping is refused, not hidden */
	row = profile_self(p, f);
	if (!p->events[e].max &&
	    (row[e] + total < total ||
	     rd->acc[col][rd->depth - 1] + total < total))
		return error_here(rd, "counter totals add up past 2^64");
	/* a maximum's largest (MEM_MAX: a function's self is the largest
	 * allocation made in it, as igprof-analyse's SELF_KEY) */
	profile_combine(p, e, &row[e], total);
	profile_combine(p, e, &rd->acc[col][rd->depth - 1], total);
	charge_arc_self(rd, e, total);
	add_file_total(rd, e, total);
	profile_func_row(p, p->func_count, f)[e] += count;
	row = profile_func_row(p, p->func_peak, f);
	if (row[e] < peak)
		row[e] = peak;
	if (col == rd->count_col)
		rd->lv[rd->depth - 1].count += count;
	if (rd->opts->want_stacks && total)
		profile_add_stack_value(p, top_stack(rd), e, total, count);
	if (rd->opts->want_positions && addr > 0)
		profile_combine(p, e,
				&profile_pos_cost(p, profile_pos(p, f, NO_NAME,
								 0, (uint64_t)
								 addr))[e],
				total);
	rd->any_value = true;
	return 0;
}

/* ";LK=(0x<address>,<size>)": a leak of the line's last counter. */
static int parse_leak(struct ig_reader *rd, const char **sp, const char *end)
{
	uint64_t addr, size;
	struct pleak *lk;

	if (want(rd, sp, end, ";LK=(0x") < 0 ||
	    number_in(rd, sp, end, 16, "the leak's address", &addr) < 0 ||
	    want(rd, sp, end, ",") < 0 ||
	    number(rd, sp, end, "the leak's size", &size) < 0 ||
	    want(rd, sp, end, ")") < 0)
		return -1;
	if (rd->last_counter < 0)
		return error_here(rd, "a leak record 'LK=' must follow a counter 'V'");
	if (!rd->opts->want_leaks || !buffer_wanted(rd))
		return 0;
	ARRAY_GROW(rd->p->leaks, rd->p->nleaks + 1, rd->p->leaks_alloc);
	lk = &rd->p->leaks[rd->p->nleaks++];
	lk->addr = addr;
	lk->size = size;
	lk->event = rd->counters[rd->last_counter].event;
	lk->stack = top_stack(rd);
	return 0;
}

/*
 * The call the top frame was called by, as a call site of its caller: a
 * caller frame's address is a return address (the unwinder's), the
 * instruction after the call, which can be on the next line; one byte
 * back is inside the call instruction, as debuggers look it up. Not at
 * offset 0, though: that is a function IgProf had no symbol for
 * ("@?0x..." starts at the frame), and one byte back would be outside
 * it, where -b would look for its name.
 */
static void add_call_site(struct ig_reader *rd)
{
	struct ig_level *v = &rd->lv[rd->depth - 1];
	const struct ig_level *caller = &rd->lv[rd->depth - 2];
	uint32_t pos;

	if (caller->addr <= 1 || v->call == NO_ID)
		return;
	pos = profile_pos(rd->p, caller->func, NO_NAME, 0,
			  (uint64_t)caller->addr - !caller->at_start);
	v->site = profile_callsite(rd->p, pos, v->call);
	rd->p->has_instr = true;
}

/* "C<depth> FN...+<off>" then counters, each with its leaks. */
static int parse_frame(struct ig_reader *rd, const char *s, const char *end)
{
	uint64_t depth;
	uint32_t fn = 0;
	int64_t addr = -1;

	if (want(rd, &s, end, "C") < 0 ||
	    number(rd, &s, end, "the stack depth after 'C'", &depth) < 0)
		return -1;
	if (depth == 0)
		return error_here(rd, "stack depth 0: depths start at 1");
	if (depth > rd->file_depth + 1)
		return error_here(rd, "stack depth %llu after depth %zu: a frame "
				  "can be at most one deeper than the line before",
				  (unsigned long long)depth, rd->file_depth);
	if (want(rd, &s, end, " ") < 0 || parse_fn(rd, &s, end, &fn, &addr) < 0)
		return -1;
	while (rd->file_depth >= depth)
		pop_file(rd);
	ARRAY_GROW(rd->file_kept, rd->file_depth + 1, rd->file_kept_alloc);
	if (folds(rd, &rd->fns[fn], s, end)) {
		/* its costs are its caller's, its callees its caller's */
		rd->file_kept[rd->file_depth++] = false;
		if (rd->fns[fn].igprof_own)
			rd->input->folded_own++;
		else
			rd->input->folded_alloc++;
		addr = -1;	/* an address in the allocator is not the
				 * caller's position */
	} else {
		rd->file_kept[rd->file_depth++] = true;
		push(rd, rd->fns[fn].func);
		rd->lv[rd->depth - 1].addr = addr;
		rd->lv[rd->depth - 1].at_start = addr == rd->fns[fn].start;
		if (rd->opts->want_positions && rd->depth > 1)
			add_call_site(rd);
	}
	rd->last_counter = -1;
	while (s < end) {
		uint32_t col = 0;

		if (*s == ';') {
			if (parse_leak(rd, &s, end) < 0)
				return -1;
			continue;
		}
		if (!eat(&s, end, " V"))
			return expected(rd, "a counter ' V<id>:(count,total,peak)' "
					"or a leak ';LK=(...)'", s, end);
		if (parse_counter_id(rd, &s, end, &col) < 0 ||
		    parse_values(rd, &s, end, col, addr) < 0)
			return -1;
		rd->last_counter = (int)col;
	}
	return 0;
}

bool igprof_sniff(const char *data, size_t len)
{
	return len >= 3 && !memcmp(data, "P=(", 3);
}

/* A time profile added to a memory one: their counters differ (see
 * events_differ.h). */
static void warn_events(const struct ig_reader *rd, size_t nbefore)
{
	bool *listed;

	if (!nbefore)
		return;
	listed = xcalloc(rd->p->nevents, sizeof(*listed));
	for (size_t c = 0; c < rd->ncounters; c++)
		listed[rd->counters[c].event] = true;
	events_differ_warn(rd->p, listed, nbefore, rd->lr->path, 0);
	free(listed);
}

/*
 * igprof writes no end marker (src/profile.cc, dumpAllProfiles(): the
 * header, then each buffer's tree of stacks, depth first, a "\n" after
 * every line), so a file cut where a line ends reads as a whole one.
 * Two things still tell the cut: igprof ends every line with "\n", and
 * the last line it writes is a leaf of the tree, a stack's innermost
 * frame, which always carries a value (a stack node exists because a
 * counter was ticked at its leaf, and igprof leaves out only a counter
 * with neither count nor peak: a MEM_LIVE freed since keeps its peak).
 * A frame without a value at the end is a caller whose callees were
 * cut off. A cut just after a leaf's line cannot be told from the end.
 */
static void check_end(const struct ig_reader *rd, bool unterminated)
{
	const char *why;

	if (unterminated)
		why = "the last line has no newline (igprof ends every line "
		      "with one)";
	else if (rd->file_depth && rd->last_counter < 0)
		why = "the last line is a frame without a value, a caller "
		      "whose callees are missing (igprof's last line is a "
		      "stack's innermost frame, which has one)";
	else
		return;
	warning_at(rd->lr->path, rd->lr->lineno, "%s: the file may be "
		   "truncated", why);
}

int read_igprof(struct profile *p, struct line_reader *lr,
		const struct read_opts *opts)
{
	struct ig_reader rd;
	int ret = -1, r;
	char *line;
	size_t len, nbefore;
	bool unterminated = false;

	memset(&rd, 0, sizeof(rd));
	rd.p = p;
	rd.lr = lr;
	rd.opts = opts;
	rd.base = 10;
	rd.count_col = NO_ID;
	rd.memory = -1;
	rd.buffer = 1;
	nbefore = p->ninputs ? p->nevents : 0;
	rd.input = profile_add_input(p, lr->path, "igprof");
	rd.input->nparts = 1;
	rd.input->nselected = buffer_wanted(&rd);
	rd.input->creator = names_intern(&p->names, "igprof", 6);
	u64map_init(&rd.fn_ids);
	u64map_init(&rd.file_ids);
	u64map_init(&rd.counter_ids);
	profile_want_func_extras(p);
	profile_want_call_self(p);
	p->calls_have_incl = true;

	r = line_reader_next(lr, &line, &len);
	if (r <= 0 || parse_header(&rd, line, line + len) < 0)
		goto out;
	if (!pid_wanted(&rd)) {
		/* --pid: a profile of another process is not read */
		rd.input->nselected = 0;
		add_file_part(&rd, false);
		ret = 0;
		goto out;
	}
	while ((r = line_reader_next(lr, &line, &len)) > 0) {
		unterminated = lr->last_unterminated;
		if (!len)
			continue;	/* a blank line, as at the end */
		if (parse_frame(&rd, line, line + len) < 0)
			goto out;
	}
	if (r < 0)
		goto out;
	check_end(&rd, unterminated);
	while (rd.file_depth)
		pop_file(&rd);
	if (!rd.ncounters) {
		error("%s: no counter values in the profile (no 'V' record)",
		      lr->path);
		goto out;
	}
	warn_events(&rd, nbefore);
	/* the arcs' call counts are the counts of --counter's counter */
	if (rd.count_col != NO_ID) {
		p->counts_by_event = true;
		p->count_event = rd.counters[rd.count_col].event;
	}
	add_file_part(&rd, buffer_wanted(&rd));
	if (opts->part_done && buffer_wanted(&rd))
		hand_on(&rd);
	ret = 0;
out:
	u64map_release(&rd.fn_ids);
	u64map_release(&rd.file_ids);
	u64map_release(&rd.counter_ids);
	for (size_t c = 0; c < rd.ncounters; c++)
		free(rd.acc[c]);
	free(rd.fns);
	free(rd.files);
	free(rd.lv);
	free(rd.file_kept);
	free(rd.func_active);
	free(rd.call_active);
	free(rd.file_total);
	free(rd.costed);
	return ret;
}
