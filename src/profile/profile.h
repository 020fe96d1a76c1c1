/*
 * The neutral profile model every reader fills and the analysis reads:
 * event kinds, functions with their self cost, and call arcs with their
 * count and (where the format measures it) inclusive cost.
 *
 * Costs are uint64_t arrays of `stride` numbers, one per event, in the
 * order of events[]; while readers add events, rows may have room for
 * more (stride > nevents, the rest zero), and profile_finish() makes
 * stride == nevents. Rows are found by function or call index:
 *     profile_self(p, f)[e]       self cost of function f for event e
 *     profile_call_incl(p, c)[e]  inclusive cost of call arc c
 * Aggregation happens as the readers go, so memory grows with the number
 * of distinct functions and arcs, never with the file size.
 */
#ifndef CGA_PROFILE_H
#define CGA_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "base/names.h"

#define NO_ID UINT32_MAX
#define PROFILE_CACHE_SLOTS 4096

/* The lowest and highest instruction address a function's cost came
 * from; 0 and 0: none seen. */
struct paddr_range {
	uint64_t lo, hi;
};

/* A factor * event term of a derived event ("event: Sum = Ir + 2 Dr"). */
struct pterm {
	uint64_t factor;
	name_id event;
};

struct pevent {
	name_id name;		/* short name: "Ir", "PERF_TICKS" */
	name_id long_name;	/* "Instruction Fetches", or NO_NAME */
	bool derived;		/* computed from other events, not read */
	/* Seconds one unit of this event stands for (a gmon.out histogram
	 * tick, IgProf's PERF_TICKS period T=), 0 when it is not a time.
	 * Costs stay in units; listings may show them as seconds. */
	double unit_seconds;
	/* What one unit of cost is, where the format says: "ns" (perf's
	 * cpu-clock and task-clock periods), "events" (a counter's); else
	 * NO_NAME, the event being its own unit (Ir, ticks). */
	name_id unit;
	/*
	 * A maximum, not a sum (IgProf's MEM_MAX: the largest single
	 * allocation). Every cost of it is the largest value under it:
	 * a function's self is the largest of its own, its inclusive and
	 * an arc's the largest in the stacks under them, the total the
	 * largest of all; costs merged take the larger, never the sum
	 * (profile_combine()). As igprof-analyse does for a counter whose
	 * name ends in "_MAX" (src/analyse.cc: Counter::add() and
	 * accumulate() with isMax, TreeMapBuilderFilter's
	 * accumulateCounts()).
	 */
	bool max;
	/*
	 * Its costs are the samples' count (pprof's "samples" sample
	 * type, which each Sample carries beside its "cpu" period): equal
	 * by construction to the samples column of a sampled profile, so
	 * the listings show it once, as that column, unless asked for by
	 * --show or --sort (go tool pprof's -sample_index=samples).
	 */
	bool sample_count;
};

/* A derived event declared by a reader, computed by profile_finish(). */
struct pderived {
	name_id name;
	name_id long_name;		/* or NO_NAME */
	uint32_t first_term, nterms;	/* into terms[] */
	const char *path;		/* where it was declared, for messages */
	uint64_t lineno;
};

/* 12 bytes: a big program has a million functions. Where one starts
 * (symbol resolution's, not identity) is in func_line[]. */
struct pfunc {
	name_id name, file, object;	/* object NO_NAME when unknown */
};

/*
 * 12 bytes: a big program's profile has millions of arcs, and their
 * counts but seldom reach 2^31. A count that does lives in the
 * profile's big_counts[], and the arc holds PCALL_BIG | its index there
 * (pcall_count()).
 */
struct pcall {
	uint32_t caller, callee;	/* indexes into funcs[] */
	uint32_t count;			/* profile_call_count() */
};

#define PCALL_BIG 0x80000000u

/* The count of *pc, whose profile's big_counts[] is big. */
static inline uint64_t pcall_count(const struct pcall *pc, const uint64_t *big)
{
	return pc->count & PCALL_BIG ? big[pc->count & ~PCALL_BIG] : pc->count;
}

/*
 * A position inside a function: the source file and line and the
 * instruction address its cost came from (line 0 / addr 0 where the
 * profile has no such positions). Kept only when a reader is asked to
 * (read_opts.want_positions): symbol resolution and the annotated
 * listings need them, the flat profile and the call graph do not.
 */
struct ppos {
	uint32_t func;
	name_id file;
	uint32_t line;
	/* 0: a position as read. POS_SELECT's coarse positions (of the
	 * functions not kept whole; addr 0) are 1, or 2 + k where their
	 * addresses were in region k of pos_select.h: the disassembly's
	 * choice of functions counts their cost by symbol */
	uint32_t region;
	uint64_t addr;
};

/*
 * How much of each position a profile keeps: every field, or only what
 * the annotated source (--annotate, the report without a binary) reads
 * of them (cli/hot_files.c chooses). Each keeps every cost, summed into
 * fewer positions:
 *   POS_ALL    (func, file, line, addr): what was read
 *   POS_LINES  (f, file, line, 0) in the files chosen by
 *              profile_keep_lines_of() (or all, pos_all_files);
 *              (f, file, 1 or 0, 0) in the others: their cost on a
 *              line and on none, which the listing needs of a file it
 *              does not list; f the first function of func's object
 *              (of a function the listing reads only its object);
 *              no jumps
 *   POS_FILES  (0, file, 1 or 0, 0): each file's cost, to choose
 *              the files to keep; no jumps
 *   POS_SELECT every field for the functions p->pos_select keeps
 *              whole (those the disassembly lists); the others' as
 *              POS_LINES does, apart by the region of the binary their
 *              address was in (ppos.region), while pos_select counts
 *              what resolution needs of their addresses (pos_select.h)
 */
enum pos_detail { POS_ALL, POS_LINES, POS_FILES, POS_SELECT };

/*
 * A call made from a position (the call instruction, or the line): arc
 * `call` was made `count` times from position `pos`, and its inclusive
 * cost from there is profile_callsite_incl(). Kept with positions.
 */
struct pcallsite {
	uint32_t pos, call;
	uint64_t count;
};

/*
 * A jump from the position `from` (a jump instruction, or a line) to a
 * target in the same function or another (valgrind --collect-jumps):
 * executed `executed` times, of which `followed` went to the target (an
 * unconditional jump follows every time). Kept with positions.
 */
struct pjump {
	uint32_t from;			/* position */
	name_id to_file;
	uint32_t to_line;
	uint64_t to_addr;
	uint64_t executed, followed;
	bool conditional;
};

/*
 * A call stack, kept only where a record needs one (IgProf leaks): a
 * node of a tree of stacks, its function and the stack of its caller
 * (NO_ID at the outermost frame).
 */
struct pstack {
	uint32_t func;
	uint32_t caller;
};

/*
 * What a stack recorded itself, for one event (IgProf, when the reader
 * is asked for stacks: the flame graph). A stack's cost is its own
 * values and those of the stacks under it; values of one stack may
 * come in several records (threads, parts), to be added up.
 */
struct pstack_value {
	uint32_t stack;		/* into stacks[] */
	uint32_t event;
	uint64_t value;
	/* what the record counted beside its value (IgProf's count field,
	 * perf.data's samples): transformed stacks give functions and arcs
	 * their counts from it (select/stack_transform.c) */
	uint64_t count;
};

/* A resource still held at the end of the run (IgProf's LK records). */
struct pleak {
	uint64_t addr, size;
	uint32_t event;		/* the counter it was listed under */
	uint32_t stack;		/* into stacks[]: where it was allocated */
};

/* What was read from one input file, for reports. */
struct pinput {
	name_id path, format, creator, cmd;
	/* perf.data: the command name (perf's comm, 15 bytes at most) of
	 * the processes sampled when they share one, else NO_NAME: what a
	 * recording of running processes (perf record -p PID), whose
	 * command line names no program, was of */
	name_id comm;
	/* perf.data: the path of the program those processes ran (their
	 * first executable mapping) when they ran one, else NO_NAME; and
	 * its build-id when recorded (exe_build_id_len 0: none). What a
	 * -p recording is compared by before comm, which a process may
	 * have renamed (prctl PR_SET_NAME) */
	name_id exe;
	uint8_t exe_build_id[20];
	uint8_t exe_build_id_len;
	uint32_t nparts;
	uint32_t nselected;		/* parts read (all, or --part's) */
	uint64_t nbb;			/* gmon.out: basic-block counts read */
	/* IgProf: frames folded into their callers: allocators (of a
	 * memory profile), and IgProf's own */
	uint64_t folded_alloc, folded_own;
	/* perf.data under --time: its first and last samples' recorded
	 * times (ns), its samples (of the threads --pid, --tid, --comm
	 * chose, when time_of_chosen), and those kept */
	bool timed, time_of_chosen;
	uint64_t time_first, time_last, time_all, time_kept;
};

/* perf.data: a thread's samples and costs (--threads, --json), after
 * --pid/--tid/--comm/--time; per event, nevents entries */
struct pthread_total {
	uint32_t pid, tid;
	name_id comm;		/* its last command name; NO_NAME: none */
	uint64_t *samples, *cost;
};

/*
 * A find-or-add table of ids into funcs[] or calls[] (profile_index.c):
 * a slot holds id + 1 in its low id_bits, 0 when empty, and above them
 * bits of the entry's hash, so a probe passing other entries seldom
 * looks into the array.
 */
struct pindex {
	uint32_t *slots;		/* NULL: none yet */
	size_t mask;			/* capacity - 1 */
	unsigned id_bits;
	size_t pending;			/* the empty slot the last miss found */
	uint32_t pending_tag;
};

struct gmon_data;			/* gmon_data.h */
struct perf_data;			/* perf_data.h */

struct profile {
	struct arena arena;
	struct names names;

	struct pevent *events;
	size_t nevents, events_alloc;
	size_t stride;			/* numbers per cost row: nevents
					 * once finished, maybe more before */

	struct pfunc *funcs;
	/* the line each function starts at, 0 unknown: NULL until symbol
	 * resolution sets one (profile_func_line()) */
	uint32_t *func_line;
	size_t func_line_alloc;
	size_t nfuncs, funcs_alloc;
	uint64_t *self;			/* nfuncs * stride */
	size_t self_alloc;		/* in rows */

	struct pcall *calls;
	size_t ncalls, calls_alloc;
	uint64_t *big_counts;		/* counts of 2^31 and more (pcall) */
	size_t nbig_counts, big_counts_alloc;
	uint64_t *call_incl;		/* ncalls * stride; NULL packed */
	size_t call_incl_alloc;		/* in rows */
	/*
	 * call_incl packed by profile_finish() (profile_incl.c), 4 bytes a
	 * number where reading needs 8 to add them up: the number, or
	 * PCALL_BIG | its index in big_incl[]. A big program's arcs are
	 * millions, and their costs but seldom reach 2^31. NULL unpacked.
	 */
	uint32_t *incl_packed;
	size_t incl_packed_alloc;	/* in rows */
	uint64_t *big_incl;
	size_t nbig_incl, big_incl_alloc;
	bool calls_have_incl;		/* inclusive costs were measured */

	/*
	 * Formats that record whole call stacks (IgProf) know each
	 * function's inclusive cost exactly: every stack's value once per
	 * distinct function in it, however often it recurs there. NULL
	 * for the others. Rows of stride numbers, like self. Merging two
	 * functions (profile_rekey) adds their rows, which is exact unless
	 * both were in one stack; cg caps it at the cycle's cost.
	 */
	uint64_t *func_incl;
	/*
	 * Formats of whole stacks (IgProf, perf.data, gperftools, pprof)
	 * also know how an arc's inclusive cost splits: call_self, per
	 * arc and event, is the cost of the stacks whose leaf frame is
	 * the arc's callee and whose next frame is its caller (what the
	 * callee spent itself when called from there; the rest of the
	 * arc's inclusive cost is its children's). A stack counts in the
	 * self of one arc at most, its innermost, however often the arc
	 * recurs in it, and in the inclusive cost of each distinct arc
	 * once: so self <= inclusive. NULL for the other formats (and
	 * estimated stacks), whose split cg_arc_share() estimates by the
	 * callee's ratio. Rows of stride numbers, unpacked, call_self_alloc
	 * rows; merging arcs (profile_rekey) adds them, as their
	 * inclusive costs.
	 */
	uint64_t *call_self;
	size_t call_self_alloc;
	/* Also per function and event (IgProf, perf.data, else NULL): the
	 * count field summed over stacks ending in it (allocations, ticks;
	 * perf.data's samples), and the largest peak field of those
	 * stacks. */
	uint64_t *func_count, *func_peak;
	size_t extras_alloc;		/* rows of the three, in rows */

	/*
	 * Where symbol resolution needs no positions (-b for the flat
	 * profile and the call graph: read_opts.want_func_addrs), each
	 * function's address range instead, for the load offset, the match
	 * check and naming "0x..." functions: 16 bytes a function where
	 * positions take 32 and more an instruction (63 million of them in
	 * a big program's profile). NULL otherwise; func_addrs_alloc rows.
	 */
	struct paddr_range *func_addrs;
	size_t func_addrs_alloc;

	uint64_t *totals;		/* stride numbers; set by finish */
	uint64_t *summary;		/* summed "summary:" lines, or NULL */

	struct pinput *inputs;
	size_t ninputs, inputs_alloc;

	struct ppos *pos;
	size_t npos, pos_alloc;
	uint64_t *pos_cost;		/* npos * stride */
	size_t pos_cost_alloc;		/* in rows */
	bool has_instr, has_line;	/* some position had an address/line */

	struct pcallsite *callsites;
	size_t ncallsites, callsites_alloc;
	uint64_t *callsite_incl;	/* ncallsites * stride */
	size_t callsite_incl_alloc;	/* in rows */
	struct pjump *jumps;
	size_t njumps, jumps_alloc;
	struct pstack *stacks;
	size_t nstacks, stacks_alloc;
	struct pleak *leaks;
	size_t nleaks, leaks_alloc;
	struct pstack_value *stack_values;
	size_t nstack_values, stack_values_alloc;
	/* An arc's call count, from stacks, is the count of the stacks
	 * holding it: of event count_event alone where counts_by_event
	 * (IgProf's --counter), else of every event summed (perf.data's
	 * samples). */
	bool counts_by_event;
	uint32_t count_event;
	/* The stacks are not recorded but estimated from the call arcs (a
	 * Callgrind or gmon.out profile transformed: print/arc_stacks.c):
	 * listings made from them say so. */
	bool stacks_estimated;
	/* ... and then, per stack, the calls estimated into its last frame
	 * from its caller's (its path's share of the arc's calls): arcs
	 * made from the stacks count these. NULL otherwise. */
	double *stack_calls;
	/*
	 * Estimated mode (gmon.out): each function's self cost as a fraction
	 * of units (histogram ticks shared between functions by address
	 * overlap), nfuncs entries; the call graph is then propagated by
	 * call counts. est_total is what percentages of self cost are of
	 * (every tick counted). NULL / 0 otherwise.
	 */
	double *est_self;
	double est_total;
	/* gmon.out data by address until resolve_gmon(); owned */
	struct gmon_data *gmon;
	/* perf.data as objects, offsets and stacks until resolve_perf();
	 * owned */
	struct perf_data *perf;
	/* perf.data's threads (resolve_perf()), in the order first sampled;
	 * each's arrays are nevents long as it was then, in the arena */
	struct pthread_total *threads;
	size_t nthreads, threads_nevents;
	/* Callgrind's parts and IgProf's processes as their headers tell
	 * them, in the order read (profile/parts.h); owned, their costs in
	 * the arena */
	struct ppart *parts;
	size_t nparts, parts_alloc;
	/* --time's spec (the caller's), for the listings' note; NULL */
	const struct time_spec *time_spec;
	/*
	 * A sampled profile (perf.data): costs are the periods of samples,
	 * func_count holds each function's samples (its self samples, as
	 * perf report's Samples column), and an arc's count is the number
	 * of samples whose stack holds the arc, of every event: no call was
	 * counted. The listings say samples, never calls.
	 */
	bool sampled;

	struct pderived *derived;
	size_t nderived, derived_alloc;
	struct pterm *terms;
	size_t nterms, terms_alloc;

	/* private indexes */
	/* functions and arcs by their own fields, for find-or-add
	 * (profile_index.c); empty until needed and after
	 * profile_drop_indexes() */
	struct pindex func_index, call_index;
	struct u64map event_index;	/* name -> event */
	struct u64map long_names;	/* event name -> long name, for
					 * events not (yet) in events[] */
	uint32_t *pos_table;		/* open addressing: pos + 1, 0 empty */
	size_t pos_mask;
	/* The position found last: readers go through a function's
	 * positions in order, and the same order again in every part or
	 * thread of a profile, so the next one asked for is most often
	 * the one after it in pos[]; the table is large and every probe
	 * into it a cache miss. Checked against pos[], never stale. */
	uint32_t pos_hint, jump_hint, callsite_hint;
	/* Positions, call sites and jumps are logs, not sets: each one
	 * new unless it is the last one again, with no table to find them
	 * by. Reading ahead (callgrind_ahead.c), a stretch's positions are all
	 * but always new to it; the main thread finds them as it adds them
	 * in. */
	bool pos_log;
	/* How much of a position profile_pos() keeps (profile_pos_detail()). */
	enum pos_detail pos_detail;
	/* POS_LINES: the files whose lines are kept, by their text (in a
	 * table of their own: interning them in names would give the
	 * profile's names other ids than reading alone does); and what
	 * was found for each file of the profile: name -> 1 kept, 2 not */
	struct names *pos_file_names;
	struct u64map pos_files;
	bool pos_all_files;		/* POS_LINES: every file's lines */
	/* POS_LINES: each object's function that stands for all of its
	 * functions in positions (object -> function), and the function
	 * asked about last with the one standing for it */
	struct u64map pos_objects;
	uint32_t pos_last_func, pos_last_rep;
	/* POS_SELECT: the functions kept whole, the binary's regions and
	 * the counts of the others' addresses (owned; NULL otherwise; its
	 * regions stay after reading, for the disassembly's choice) */
	struct pos_select *pos_select;
	name_id pos_last_file;		/* the file asked about last, and */
	bool pos_last_kept;		/* whether its lines are kept */
	struct u64map callsite_index;	/* (pos, call) -> callsite */
	uint32_t *jump_table;		/* open addressing: jump + 1 */
	size_t jump_mask;
	/* Readers ask for the same functions and arcs over and over: a
	 * direct-mapped cache in front of the hash tables (index + 1, 0
	 * empty; checked against the arrays, so never stale). As large as
	 * the functions a compiler's profile calls between (thousands). */
	uint32_t func_cache[PROFILE_CACHE_SLOTS], call_cache[PROFILE_CACHE_SLOTS];
};

/* Is event e a maximum (pevent.max)? False past the events (a row's
 * room for events not yet added). */
static inline bool profile_event_max(const struct profile *p, size_t e)
{
	return e < p->nevents && p->events[e].max;
}

/*
 * *acc combined with v as event e combines them: the larger for a
 * maximum, else the sum. False when a sum passes 2^64 - 1 (*acc then
 * wrapped, as __builtin_add_overflow() leaves it).
 */
static inline bool profile_combine(const struct profile *p, size_t e,
				   uint64_t *acc, uint64_t v)
{
	if (profile_event_max(p, e)) {
		if (v > *acc)
			*acc = v;
		return true;
	}
	return !__builtin_add_overflow(*acc, v, acc);
}

void profile_init(struct profile *p);
void profile_release(struct profile *p);

/* The index of the event called `name`, adding it if new. Adding an
 * event widens every cost row: row pointers taken before are invalid. */
uint32_t profile_event(struct profile *p, name_id name);

/* The event called name, or NO_ID. */
uint32_t profile_find_event(const struct profile *p, const char *name);

/* The long name of the event called `name`, whether or not the event
 * exists yet ("event:" lines may come before "events:"). */
void profile_set_long_name(struct profile *p, name_id name, name_id long_name);

/* Declare a derived event; terms are copied. It becomes an event (after
 * the recorded ones) when profile_finish() computes it. */
void profile_define_derived(struct profile *p, name_id name,
			    const struct pterm *terms, size_t nterms,
			    const char *path, uint64_t lineno);

/* The function with this identity, created (with zero cost) if new. */
uint32_t profile_func(struct profile *p, name_id object, name_id file,
		      name_id name);

/* Keep func_incl, func_count and func_peak from now on (zeroed). */
void profile_want_func_extras(struct profile *p);

/* Keep call_self from now on (zeroed): a reader of whole stacks. */
void profile_want_call_self(struct profile *p);

/* Call arc c's self row (profile.call_self, which must be kept). */
static inline uint64_t *profile_call_self(const struct profile *p, uint32_t c)
{
	return p->call_self + (size_t)c * p->stride;
}

static inline uint64_t *profile_func_row(const struct profile *p,
					 uint64_t *rows, uint32_t func)
{
	return rows + (size_t)func * p->stride;
}

/* Widen function f's address range to addr (profile.func_addrs); an
 * address of 0 (none) changes nothing. */
void profile_func_addr_grow(struct profile *p, uint32_t f);
static inline void profile_func_addr(struct profile *p, uint32_t f,
				     uint64_t addr)
{
	struct paddr_range *r;

	if (!addr)
		return;
	if (f >= p->func_addrs_alloc)
		profile_func_addr_grow(p, f);
	r = &p->func_addrs[f];
	if (!r->lo || addr < r->lo)
		r->lo = addr;
	if (addr > r->hi)
		r->hi = addr;
}

/* A new stack node: func called from the stack `caller` (or NO_ID). */
uint32_t profile_stack(struct profile *p, uint32_t func, uint32_t caller);

/* Record value (and count) as stack's own cost of event (struct
 * pstack_value). */
void profile_add_stack_value(struct profile *p, uint32_t stack,
			     uint32_t event, uint64_t value, uint64_t count);

/* The arc caller -> callee, created (count 0, cost 0) if new. */
uint32_t profile_call(struct profile *p, uint32_t caller, uint32_t callee);

/*
 * For look-ups whose keys are known a few ahead (a stretch read ahead,
 * added in): profile_func_soon() and profile_call_soon() start loading
 * the table slot a later profile_func_once() or profile_call_once()
 * with the same key will read, so that the cache misses of many
 * look-ups overlap instead of coming one after another. The _once()
 * forms are profile_func() and profile_call() without the cache of the
 * last ones found, which a key looked up once only misses (a cache
 * miss of its own, to check the entry it holds).
 */
void profile_func_soon(const struct profile *p, name_id object, name_id file,
		       name_id name);
void profile_call_soon(const struct profile *p, uint32_t caller,
		       uint32_t callee);
uint32_t profile_func_once(struct profile *p, name_id object, name_id file,
			   name_id name);
uint32_t profile_call_once(struct profile *p, uint32_t caller,
			   uint32_t callee);

/*
 * row += vals[0..n), through map (vals[i] to row[map[i]]) unless it is
 * NULL. False when a sum passes 2^64 - 1: wrapped around, it would print
 * as a small number (a hostile file, or one damaged past what valgrind
 * writes). The readers' rows and the arcs' unpacked inclusive costs.
 */
static inline __attribute__((always_inline)) bool
cost_row_add(uint64_t *row, const uint32_t *map, const uint64_t *vals,
	     size_t n)
{
	bool over = false;

	if (!map) {
		for (size_t i = 0; i < n; i++)
			over |= __builtin_add_overflow(row[i], vals[i], &row[i]);
	} else {
		for (size_t i = 0; i < n; i++)
			over |= __builtin_add_overflow(row[map[i]], vals[i],
						       &row[map[i]]);
	}
	return !over;
}

/* Is every number of the cost row zero? */
static inline bool cost_row_zero(const uint64_t *row, size_t n)
{
	for (size_t e = 0; e < n; e++)
		if (row[e])
			return false;
	return true;
}

static inline uint64_t *profile_self(const struct profile *p, uint32_t func)
{
	return p->self + (size_t)func * p->stride;
}

/*
 * Call arc c's count. Read and changed only through these three, so
 * the model may store it as it likes.
 */
static inline uint64_t profile_call_count(const struct profile *p, uint32_t c)
{
	return pcall_count(&p->calls[c], p->big_counts);
}

/* profile_call_set_count() of a count kept in big_counts[]. */
void profile_call_set_big(struct profile *p, uint32_t c, uint64_t count);

static inline void profile_call_set_count(struct profile *p, uint32_t c,
					  uint64_t count)
{
	if (count < PCALL_BIG && !(p->calls[c].count & PCALL_BIG))
		p->calls[c].count = (uint32_t)count;
	else
		profile_call_set_big(p, c, count);
}

/* Add n to call c's count. true when the sum passed 2^64 - 1 (the count
 * is then the sum wrapped, as __builtin_add_overflow() leaves it). */
static inline bool profile_call_add_count(struct profile *p, uint32_t c,
					  uint64_t n)
{
	uint64_t sum;
	bool over = __builtin_add_overflow(profile_call_count(p, c), n, &sum);

	profile_call_set_count(p, c, sum);
	return over;
}

/* Pack call_incl (profile_finish() does), and unpack it again; each
 * does nothing when done. */
void profile_pack_incl(struct profile *p);
void profile_unpack_incl(struct profile *p);

/* Room in incl_packed for ncalls rows (not zeroed: the pages of rows
 * not yet used stay untouched). */
void profile_grow_packed_incl(struct profile *p, size_t ncalls);

/*
 * Call arc c's inclusive cost row += vals (n numbers, to events map[i],
 * or i when map is NULL), packed or not: what a reader that packs the
 * numbers as it goes adds with. False when a sum passes 2^64 - 1: the
 * row is then not to be used.
 */
bool profile_call_incl_add(struct profile *p, uint32_t c, const uint32_t *map,
			   const uint64_t *vals, size_t n);

/* Call arc c's inclusive cost row, to read and add to (unpacked first
 * if packed: a file read after profile_finish() adds to it). */
static inline uint64_t *profile_call_incl(struct profile *p, uint32_t call)
{
	if (p->incl_packed)
		profile_unpack_incl(p);
	return p->call_incl + (size_t)call * p->stride;
}

/* Call arc c's inclusive cost of event e, packed or not. */
static inline uint64_t profile_call_incl_at(const struct profile *p,
					   uint32_t c, size_t e)
{
	size_t i = (size_t)c * p->stride + e;
	uint32_t v;

	if (!p->incl_packed)
		return p->call_incl[i];
	v = p->incl_packed[i];
	return v & PCALL_BIG ? p->big_incl[v & ~PCALL_BIG] : v;
}

/* Call arc c's inclusive cost row, packed or not: in the profile, or
 * copied to buf (stride numbers) and buf returned. */
const uint64_t *profile_call_incl_row(const struct profile *p, uint32_t c,
				      uint64_t *buf);

/* Keep the lines of file (POS_LINES): call before reading. */
void profile_keep_lines_of(struct profile *p, const char *file, size_t len);

/* The position (func, file, line, addr), created with zero cost if new;
 * coarser as p->pos_detail says. */
uint32_t profile_pos(struct profile *p, uint32_t func, name_id file,
		     uint32_t line, uint64_t addr);
/* POS_SELECT's coarse row of a function not kept whole: the function
 * and line profile_pos() makes (func, file, *line) to (the seek
 * design's fold, pos_fold.h). */
void profile_pos_coarse(struct profile *p, uint32_t *func, name_id file,
			uint32_t *line);
/* The position (func, file, line, addr) of that region (ppos.region),
 * as it is: for positions made already (rekeying). */
uint32_t profile_pos_as_is(struct profile *p, uint32_t func, name_id file,
			   uint32_t line, uint64_t addr, uint32_t region);

/*
 * Whether call sites at position pos are kept: not where coarse
 * positions have no line (the annotated source lists calls by line
 * alone, and on a program built without -g most code has none).
 */
static inline bool profile_pos_keeps_sites(const struct profile *p,
					   uint32_t pos)
{
	return p->pos_detail == POS_ALL ||
	       (p->pos_detail == POS_SELECT && !p->pos[pos].region) ||
	       (p->pos[pos].line && p->pos[pos].file != NO_NAME);
}

static inline uint64_t *profile_pos_cost(const struct profile *p, uint32_t pos)
{
	return p->pos_cost + (size_t)pos * p->stride;
}

/* The call site (pos, call), created with count 0 and zero cost if new. */
uint32_t profile_callsite(struct profile *p, uint32_t pos, uint32_t call);

static inline uint64_t *profile_callsite_incl(const struct profile *p,
					      uint32_t callsite)
{
	return p->callsite_incl + (size_t)callsite * p->stride;
}

/* Add a jump's counts: jumps with the same source, target and kind are
 * one jump. */
void profile_add_jump(struct profile *p, const struct pjump *j);

/*
 * Give functions new identities (symbol resolution renames "0x1160" to
 * "frame_dummy", folding renames "fib'2" to "fib"): ident[f] is the new
 * (name, file, object) of function f, ident_line[f] (may be NULL: the
 * lines kept) where it starts. Functions that end up with the same
 * identity are merged: self costs, positions and arcs add up (a
 * maximum event's take the larger, pevent.max).
 * Function indexes change; map[f] (nfuncs entries, may be NULL) receives
 * each old function's new index. pos (may be NULL) gives positions new
 * identities the same way (its func fields are old function indexes).
 * Call sites and jumps follow their positions.
 *
 * Returns NO_ID, or, for a profile of stacks (func_incl: the stacks
 * were charged when read, and are not kept), a new function made of
 * functions that may be on one stack together (one calls the other,
 * maybe through others): each such stack then counts twice in the
 * function's inclusive cost and in its arcs', and the caller warns.
 * Readers that can merge before charging do (IgProf's demangling:
 * read_opts.demangle).
 */
uint32_t profile_rekey(struct profile *p, const struct pfunc *ident,
		   const uint32_t *ident_line,
		   const struct ppos *pos, uint32_t *map);

/* Where function f starts, 0 when unknown. */
static inline uint32_t profile_func_line(const struct profile *p, uint32_t f)
{
	return f < p->func_line_alloc ? p->func_line[f] : 0;
}

/* Set it (symbol resolution). */
void profile_set_func_line(struct profile *p, uint32_t f, uint32_t line);

/* Add one summary: row (stride numbers) to the profile's summary. */
void profile_add_summary(struct profile *p, const uint64_t *row);

struct pinput *profile_add_input(struct profile *p, const char *path,
				 const char *format);

/*
 * After all inputs are read: compute derived events (warning about and
 * dropping those that refer to unknown events) and totals. Returns 0.
 */
int profile_finish(struct profile *p);

/*
 * The tables that find functions and arcs as readers add them, and the
 * caches in front of them, freed when reading is done: on a big program
 * they are a large part of the memory. Anything added later rebuilds
 * them (profile_index.c).
 */
void profile_drop_indexes(struct profile *p);

static inline const char *profile_str(const struct profile *p, name_id id)
{
	return names_str(&p->names, id);
}

/*
 * The name with its recursion level removed: "fib'2" -> "fib",
 * "odd'2'even'odd" (--separate-callers) -> "odd'even'odd". Returns the
 * new length; the result is written to out (at least len bytes).
 */
size_t fold_recursion_suffix(const char *name, size_t len, char *out);

#endif
