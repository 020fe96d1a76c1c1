/*
 * The Callgrind reader's state and the functions its files share
 * (callgrind.c, callgrind_reader.c, callgrind_header.c, callgrind_body.c),
 * and the stretch it reads ahead on another thread (callgrind_ahead.c).
 */
#ifndef CGA_CALLGRIND_READER_H
#define CGA_CALLGRIND_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "base/idmap.h"
#include "callgrind_lex.h"
#include "profile/pos_select.h"
#include "callgrind_blocks.h"
#include "profile/profile.h"
#include "read/line_reader.h"
#include "read/read.h"

/*
 * Different events in a profile, recorded and derived together. Every
 * cost row has a number per event, and each new event widens every row
 * made before it: without a bound, a small file of many one-event parts
 * takes time cubic in its size (valgrind writes about 20 at most).
 */
#define MAX_EVENTS 1024

/*
 * Cost numbers the profile may hold: a row of one per event for each
 * function, call arc and position. Memory grows with distinct things,
 * not with the file, but a damaged or hostile file can name millions of
 * functions and then a thousand events; 2^27 numbers (1 GiB) is ten
 * times what an instruction-level profile of a compiler needs.
 */
#define MAX_COST_NUMBERS ((uint64_t)1 << 27)
#define MAX_POSITIONS 3

enum pos_kind { POS_INSTR, POS_BB, POS_LINE };

/* Name compression id spaces (Q4): files, functions, objects. */
enum id_space { IDS_FILE, IDS_FN, IDS_OB, IDS_COUNT };

/* Warnings said once per file, with a count of repeats at the end. */
enum once {
	ONCE_UNKNOWN_HEADER,
	ONCE_UNKNOWN_SPEC,
	ONCE_REDEFINED_ID,
	ONCE_TOTALS,
	ONCE_TARGET_BELOW_ZERO,
	ONCE_UNDEFINED_ID,
	ONCE_EXTRA_COSTS,
	ONCE_COUNT
};

struct callgrind_reader {
	struct profile *p;
	struct line_reader *lr;
	const struct read_opts *opts;
	struct pinput *input;

	/* compressed id -> name_id: small ids (all of valgrind's, which
	 * counts from 1) in an array, the rest in a hash map */
	/* id's name + 1, 0 (NO_NAME + 1) where undefined: the kernel's
	 * zero pages where no id falls (xmap_zeroed()), NULL before the
	 * first id of the space */
	name_id *small_ids[IDS_COUNT];
	struct idmap ids[IDS_COUNT];
	char *fold_buf;
	size_t fold_alloc;

	/* positions: and events: of the current part */
	unsigned npos;
	enum pos_kind pos_kind[MAX_POSITIONS];
	uint64_t pos[MAX_POSITIONS];	/* of the last cost line */
	uint32_t *event_map;		/* part column -> profile event */
	size_t ncols, event_map_alloc;
	bool identity_map;		/* event_map[i] == i for all i */
	uint64_t *vals;			/* costs of the line being read */
	uint64_t *part_sum;		/* sum of self cost lines, by column */
	/* what this reader added to the profile outside part_sum: earlier
	 * parts' self costs, and calls' counts and inclusive costs, all
	 * columns in one number stopping at 2^64 - 1 (reading ahead's
	 * bound on the profile's column sums, callgrind_ahead.c) */
	uint64_t added_before_part, added_by_calls;
	size_t vals_alloc;

	/* part state */
	bool in_body;			/* a body line was seen in this part */
	bool part_has_cost;
	uint64_t part_number;		/* from "part:", 0 if not given */
	uint64_t part_ordinal;		/* 1 for the first part of the file */
	int part_selected;		/* -1: not decided yet */
	/* what the headers told of the part (profile/parts.h): pid: and
	 * thread: stay until said again; the rest is the part's own */
	uint32_t pid, tid;
	name_id trigger;
	bool has_range;
	uint64_t bb_from, bb_to;
	bool has_totals;		/* totals: or summary: was read */
	bool part_ended;		/* totals: was read: the part's last
					 * line in valgrind's files */
	uint64_t *part_totals;		/* their numbers, by column */

	/* position state */
	name_id ob, fl, file;		/* file: fl= or the fi=/fe= file */
	bool have_fl;
	uint32_t func;			/* current function or NO_ID */

	/* associations: apply to the next calls= (Q12) */
	name_id cob, cfi, cfn;
	name_id jfi, jfn;

	/* a calls= line waits for its cost line */
	bool want_call_cost;
	uint64_t call_count;
	uint32_t call_arc;		/* NO_ID when the part is skipped */
	uint64_t calls_lineno;

	/* a jump=/jcnd= line waits for the position line that gives its
	 * source (Q14); kept only with positions */
	bool want_jump_source;
	struct pjump jump;

	/* POS_SELECT's fast path (fast_select_run()): the coarse row
	 * (position sel_pos) the last position of function sel_func in
	 * file sel_file went to, and the span of those that go there too;
	 * kept from run to run (a jump or call ends one): zeroed, empty */
	struct ps_span sel_span;
	uint32_t sel_pos, sel_func, sel_line;
	name_id sel_file;
	bool sel_line_exact;
	/* A stretch read ahead for a read choosing (POS_SELECT with
	 * no_counts, nothing kept whole: callgrind_ahead.c): a cost line
	 * whose position the main thread would add to the same coarse row
	 * as the position logged last (the same function, file and line,
	 * an address in the same 32 bytes of code and between the same two
	 * region bounds, coll_bound[coll_nbound]) goes to that logged
	 * position, whose addresses' range coll_lo/coll_hi keep (0: none
	 * but its own), rather than to a position of its own: the main
	 * thread then adds one position where it added each line
	 * (callgrind_collapse_run()). */
	bool collapse;
	const uint64_t *coll_bound;
	uint32_t coll_nbound;
	uint64_t *coll_lo, *coll_hi;	/* by logged position */
	size_t coll_alloc;
	/* the run gathering: logged position coll_pos (NO_ID: none) of
	 * function coll_func in coll_file at line coll_line, the
	 * addresses [coll_cell_lo, coll_cell_hi) or, coll_zero, none */
	uint32_t coll_pos, coll_func, coll_line;
	name_id coll_file;
	uint64_t coll_cell_lo, coll_cell_hi;
	bool coll_zero;
	bool last_is_total;		/* the last line read was totals: or
					 * summary: */
	bool cache_descs;		/* desc: lines of cachegrind's caches */

	/* the profile's events before this file, when files came before
	 * it (0 for the first), and whether its first "events:" line was
	 * compared with them */
	size_t events_before;
	bool events_compared;

	/* "desc: Unit:" lines (ours), applied when their event exists */
	/* "desc: Unit:" lines: an event's seconds, or its unit's name
	 * (NO_NAME with seconds) */
	struct { name_id event, unit; double seconds; } units[16];
	unsigned nunits;

	/* The seek design's one read (callgrind_seek.h): each fn= line's
	 * function, file offset and the positions and call sites made
	 * before it, in the order read (a stretch's in its own ids and
	 * counts, added in with it); line_at the line read now, in
	 * rd->lr's buffer. seek_bad: an id defined twice with two names,
	 * or the lines not in rd->lr's buffer (the splitting thread). */
	bool seek_rec, seek_bad;
	const char *line_at;
	struct callgrind_blocks blk;

	unsigned once_count[ONCE_COUNT];
	uint64_t once_line[ONCE_COUNT];

	/*
	 * Reading ahead (callgrind_ahead.c): this reader reads a later stretch
	 * of the file on another thread, from a state it does not know. The
	 * names it would take from that state are stand-ins (ph_*, and
	 * "(id)" references it has no definition for), positions are not
	 * known until given absolutely, and it stops before any header
	 * line. Whatever it set itself is in `set`; the rest is the
	 * state's at the start of the stretch.
	 */
	bool ahead;
	uint32_t set;			/* bits 1 << enum callgrind_key */
	uint8_t pos_unknown;		/* bit k: position k */
	bool ph_func_used;		/* cost before its first fn= */
	name_id ph_ob, ph_fl, ph_file, ph_func;
	const char *stop;		/* the header line it stopped at */
	/* the ids it set, in the order set (some more than once): far
	 * fewer than the index arrays have entries */
	struct callgrind_id_set {
		enum id_space space;
		uint64_t id;
	} * ids_set;
	size_t nids_set, ids_set_alloc;
};

/* Messages at the current line (rd->lr): an error (returns -1); a
 * warning said once per file for each kind, and at the end of the file
 * how many more lines each applied to. */
int callgrind_error(struct callgrind_reader *rd, const char *fmt, ...)
	CGA_PRINTF(2, 3);
void callgrind_warn_once(struct callgrind_reader *rd, enum once kind,
			 const char *fmt, ...) CGA_PRINTF(3, 4);
void callgrind_report_repeats(struct callgrind_reader *rd);
/* A short, printable quote of the line, in buf, for messages. */
const char *callgrind_quote(const char *s, size_t len, char *buf, size_t size);

/* a + b, or 2^64 - 1 when that is past it */
static inline uint64_t callgrind_add_upto_max(uint64_t a, uint64_t b)
{
	return __builtin_add_overflow(a, b, &a) ? UINT64_MAX : a;
}

/* A new part: the position state and the associations start again. */
void callgrind_start_part(struct callgrind_reader *rd);

/* Whether --part, --pid and --tid keep the part: its headers are read. */
bool callgrind_part_wanted(const struct callgrind_reader *rd);

/* Whether the current part is read (decided at its first use). */
static inline bool callgrind_part_selected(struct callgrind_reader *rd)
{
	if (rd->part_selected < 0) {
		rd->part_selected = callgrind_part_wanted(rd);
		if (rd->part_selected)
			rd->input->nselected++;
	}
	return rd->part_selected;
}

/* The part read ends (a new one starts, or the file): what its headers
 * told and its totals go to the profile's parts (callgrind_parts.c). */
void callgrind_end_part(struct callgrind_reader *rd);

/* "desc: Trigger: ..." and "desc: Timerange: ..." of the part (the
 * value after "desc:", [v, end)). */
void callgrind_part_desc(struct callgrind_reader *rd, const char *v,
			 const char *end);

/* A header line "key: value" (key [key, key + klen), value [v, end)):
 * 0, or -1 after reporting. */
int callgrind_header_line(struct callgrind_reader *rd, const char *key,
			  size_t klen, const char *v, const char *end);

/* The splitting thread's block: 0, or -1 after reporting. */
struct callgrind_block;
int callgrind_read_block(struct callgrind_reader *rd,
			 struct callgrind_block *b);

/* A jump=/jcnd= whose source line never came: at the last position. */
void callgrind_finish_jump(struct callgrind_reader *rd);
/*
 * The cost lines from s on (up to end) of a run in the current
 * function, under POS_SELECT (callgrind_select.c): where the run ends
 * (s: none read, for the usual way), the line that stopped it read,
 * with why it stopped in *why, for the caller to say (an error) or
 * check (the profile's size) as after that line.
 */
enum select_stop {
	SELECT_ON,		/* at a line it leaves, or the end */
	SELECT_GREW,		/* a new position */
	SELECT_OVER_SELF,	/* a sum past 2^64 - 1: the self cost */
	SELECT_OVER_SUM,	/* the part's sum */
	SELECT_OVER_POS,	/* the position's */
};
char *callgrind_select_run(struct callgrind_reader *rd, char *s, char *end,
			   enum select_stop *why);

/* The same in a stretch read ahead keeping positions as read (POS_ALL),
 * or whose lines rd->collapse gathers (callgrind_select.c); SELECT_GREW
 * at the run's end when it logged a position. */
char *callgrind_collapse_run(struct callgrind_reader *rd, char *s, char *end,
			     enum select_stop *why);

/* The lines [s, end) of a block, each ended by "\n": 0, -1 after
 * reporting, or (reading ahead) 1 at a header line, in rd->stop. */
int callgrind_read_lines(struct callgrind_reader *rd, char *s, char *end);

/* What a reader allocated (not its profile, not its line reader). */
void callgrind_reader_release(struct callgrind_reader *rd);
/* What a reading made (ids, part totals, block starts) released, the
 * buffers of its columns (event_map, vals, part_sum) kept: a reader made
 * again for the next block (callgrind_seek.c). */
void callgrind_reader_release_read(struct callgrind_reader *rd);
/* rd's stand-ins for the state before a stretch or block (object, file,
 * function not known yet), interned in names, and that state set to them
 * (callgrind_ahead.c, callgrind_seek.c). */
void callgrind_reader_stand_ins(struct callgrind_reader *rd,
				struct names *names);

/* Ids below this are in small_ids[], the rest in ids; a stretch read
 * ahead keeps all of its own in ids. */
#define SMALL_IDS ((uint64_t)1 << 20)

/*
 * The name compressed id `id` stands for, or NO_NAME; callgrind_id_put()
 * sets it. Ids below SMALL_IDS are looked up by index: one load where a
 * hash map costs a hash and a probe into a table larger than the cache,
 * on every fn=, cfn= and calls= line (inline for that reason). 4 MiB of
 * address space per id space, memory only for the pages its ids fall in.
 */
static inline name_id callgrind_id_get(const struct callgrind_reader *rd,
				       enum id_space space, uint64_t id)
{
	if (id < SMALL_IDS && !rd->ahead)
		return rd->small_ids[space] ? rd->small_ids[space][id] - 1
					    : NO_NAME;
	return idmap_get(&rd->ids[space], id);
}

void callgrind_id_put(struct callgrind_reader *rd, enum id_space space,
		      uint64_t id, name_id name);

/* A stand-in's text starts with "\n", which no name read can hold. */
static inline bool callgrind_is_stand_in(const struct profile *p, name_id name)
{
	return name != NO_NAME && names_str(&p->names, name)[0] == '\n';
}

/* The stand-in for (space, id): "\n" space " " id. */
name_id callgrind_id_stand_in(struct profile *p, enum id_space space,
			      uint64_t id);

/*
 * Read the rest of lr (a plain file whose header rd has read) in
 * stretches, each with a second thread reading the next one ahead.
 * min_bytes 0 (tests): stretches however small. Returns as the plain
 * loop over callgrind_read_lines() would, with the same profile and messages.
 */
int callgrind_read_ahead(struct callgrind_reader *rd, struct line_reader *lr,
			 uint64_t min_bytes);

#endif
