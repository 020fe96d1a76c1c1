/*
 * The parts of a profile's inputs as their headers tell them, for
 * --threads, --parts and a page's thread selector and timeline.
 *
 * Callgrind writes one part per dump and thread: a run with
 * --separate-threads=yes one file per thread (callgrind.out.PID-TT), each
 * headed "pid: PID" and "thread: T" (valgrind's thread number, 1 the
 * main thread, reused after a thread ends); dumps over time
 * (--dump-every-bb, --dump-before, CALLGRIND_DUMP_STATS, callgrind_control
 * -d) one more part each, "part: N", with "desc: Trigger:" saying why
 * and "desc: Timerange: Basic block A - B" when, and --combine-dumps=yes
 * all of them in one file. IgProf's parts are its buffers (a thread's
 * each, then the ended threads' merged; read_igprof.c), in a file of one
 * process ("P=(ID=PID N=(NAME) ...)"): no thread to tell.
 */
#ifndef CGA_PARTS_H
#define CGA_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct ppart {
	uint32_t input;		/* into profile.inputs */
	uint32_t ordinal;	/* 1 for the input's first part */
	uint64_t number;	/* "part:"; 0: not given */
	uint32_t pid, tid;	/* "pid:", "thread:"; 0: not given */
	name_id name;		/* the program's file name (cmd:'s first
				 * word, IgProf's N=); NO_NAME: unknown */
	name_id trigger;	/* "desc: Trigger:"; NO_NAME: not given */
	bool has_range;		/* "desc: Timerange: Basic block A - B" */
	uint64_t bb_from, bb_to;
	bool selected;		/* read: --part, --pid and --tid kept it */
	bool from_totals;	/* cost is its "totals:" (or "summary:")
				 * line's, else the sum of its cost lines */
	uint32_t ncost;
	uint64_t *cost;		/* per profile event, ncost of them (the
				 * events known when it ended: later ones
				 * are 0 in it); in the arena */
};

/* Add a part (copied, with ncost numbers of cost) and return it; it
 * lives until the next profile_add_part(). */
struct ppart *profile_add_part(struct profile *p, const struct ppart *part,
			       const uint64_t *cost, size_t ncost);

static inline uint64_t ppart_cost(const struct ppart *pt, size_t event)
{
	return event < pt->ncost ? pt->cost[event] : 0;
}

/* v added to *acc for event e: the larger for a maximum (IgProf's
 * MEM_MAX), else the sum, stopping at 2^64 - 1 */
void part_cost_add(const struct profile *p, size_t e, uint64_t *acc,
		   uint64_t v);

/* The selected parts of one thread (or process), their costs added. */
struct part_group {
	uint32_t pid, tid;	/* tid 0 for a process, or a thread not
				 * told apart (no "thread:" line) */
	name_id name;		/* its first part's */
	uint32_t nparts;
	uint64_t *cost;		/* ne numbers */
};

/*
 * The selected parts grouped by (pid, tid), or by pid alone when
 * !by_thread, in the order first read, each with ne event costs.
 * Returns how many; *out (NULL when none) is the caller's to free with
 * part_groups_free().
 */
size_t part_groups(const struct profile *p, bool by_thread, size_t ne,
		   struct part_group **out);
void part_groups_free(struct part_group *g, size_t n);

/* Whether any part was told a thread ("thread:" line). */
bool parts_have_threads(const struct profile *p);

/*
 * A reader's profile at the end of a part, when it holds that part
 * alone (read_opts.part_done: the report reads every part of a file in
 * one pass) copied into `to` (profile_init()ed, its own names): the
 * events as read so far with the derived ones declared, input `input`,
 * the functions in their order with their self costs, the arcs with
 * their counts and inclusive costs, the summary. What reading the part
 * alone (--part=N --pid=P --tid=T) gives, but for events declared after
 * it: a recorded one has no cost in it, but a derived one ("event: S =
 * A + B" in a later part's header, which no writer we know puts there)
 * would have had, and is missing.
 */
void profile_part_copy(struct profile *to, const struct profile *from,
		       uint32_t input);

/*
 * Forget p's functions, arcs and their costs, keeping its names, events,
 * inputs and parts: the next part starts from none, in time and memory
 * of the part before (the tables that found them go too).
 */
void profile_part_clear(struct profile *p);

/*
 * The same for a reader that keeps its functions from part to part
 * (IgProf: its function ids hold across buffers, and a stack can cross
 * a buffer's end): the functions `funcs` (those given a cost in the
 * part, in any order, repeated or not), the arcs' ends and the stacks'
 * functions, in from's order, with their self costs and, where from has
 * them, inclusive costs, counts and peaks; every arc; the stacks and
 * their values; the arcs' count event. The functions of no cost left
 * out are what the part alone has more (reading it alone defines every
 * function of the file): time of the part, not of the file.
 */
void profile_part_copy_some(struct profile *to, const struct profile *from,
			    uint32_t input, const uint32_t *funcs,
			    size_t nfuncs);

/*
 * Zero the rows of functions `funcs` (those given a cost in the part)
 * and forget p's arcs and stacks: the next part starts from none, in
 * the time of the part before.
 */
void profile_part_clear_some(struct profile *p, const uint32_t *funcs,
			     size_t nfuncs);

#endif
