/*
 * Positions only for the functions the disassembly lists (issue 33):
 * -b BINARY --disasm (or --disasm of the recorded object) reads a
 * Callgrind profile once to choose the functions whose positions it
 * keeps whole, then for real keeping the others' only as counts and
 * costs by region (profile/pos_select.h). What the listing prints is
 * checked against what was kept; where it could differ from reading
 * every position (a function read in two blocks, another load offset,
 * a listed function not kept whole), the inputs are read again with
 * every position, the messages of the first attempt dropped.
 */
#ifndef CGA_CODE_POSITIONS_H
#define CGA_CODE_POSITIONS_H

#include <stdio.h>

#include "options.h"
#include "profile/profile.h"
#include "read/read.h"
#include "resolve/resolve.h"
#include "symtab/symtab.h"

struct guess;
struct callgrind_seek;
struct kept_binary;

struct code_positions {
	bool wanted;		/* the run may keep positions selectively */
	bool active;		/* this read does (p->pos_select) */
	bool show;		/* CGANALYZE_SHOW_POSITIONS: say which
				 * way it went, for the tests */
	uint32_t kept, funcs;	/* functions kept whole, of those read */
	char *object;		/* the binary's object, as chosen; NULL:
				 * the profile names none */
	uint64_t offset;	/* the load offset assumed */
	bool guessed;		/* this read is the one read of
				 * --disasm=WHAT (code_positions.c) */
	bool no_guess;		/* which failed: the two reads now */
	bool by_region;		/* the first of the two reads was by the
				 * binary's regions (known before it):
				 * the functions kept whole are exactly
				 * those of the symbols listed */
	bool first_again;	/* ... or where that read was no use, made
				 * again by 32 bytes of code */
	struct guess *guess;	/* what it keeps, while it reads */
	/* The seek design (code_seek.h): this read is the one read, the
	 * kept functions' blocks read again after it (seeking); or it
	 * could not be, and the two reads follow (seek_failed) */
	bool seeking, seek_failed, seeked;
	struct callgrind_seek *seek;
	struct symtab *seek_st;		/* the binary, in seek_names until
					 * the read ends (without -b) */
	struct names *seek_names;
	struct arena *seek_arena;
	uint64_t seek_off;
	const char *seek_why;		/* why it failed */
	/* ... and where its read is whole though its blocks cannot be
	 * read again, the choice the first of the two reads would make,
	 * made from it (code_seek.c): the second read follows alone */
	struct pos_select *next_select;
	char *next_object;
	uint64_t next_offset;
	bool reused;			/* it did */
	/* -b's table (its names the profile's), lent to the first read:
	 * renamed into that read's names while it chooses and back after,
	 * not opened again into them; lent_back its ids there to the
	 * profile's (NULL: not lent now) */
	struct symtab *bin;
	struct names *bin_home;
	name_id *lent_back;
	struct kept_binary *kept_bin;	/* the report's binary opened before
					 * the first read, for the resolution
					 * after it (code_positions_take()) */
	/* the run's messages, held until the positions stand */
	FILE *held, *sink;
	char *text;
	size_t len;
};

/* At the start of a run: whether o may keep positions selectively; if
 * so, its messages are held from now (code_positions_end()). */
void code_positions_begin(struct code_positions *cp, const struct options *o);

/*
 * Before the inputs are read into p (empty) with ro: read them a first
 * time (files only, Callgrind), choose the functions the listing may
 * list and make p keep only theirs whole (POS_SELECT); for the report,
 * also the files whose lines it keeps, as hot_files.c would (and when
 * it will have no Disassembly, only that). Returns whether it chose
 * what p keeps (hot_files_choose() then has nothing to do); does
 * nothing when cp is not wanted. bin: the binary -b gave (its names
 * p's), or NULL; with --disasm=WHAT the functions are chosen while p
 * is read, in one read (code_positions_retry() when that fails).
 */
bool code_positions_choose(struct code_positions *cp, struct profile *p,
			   const struct read_opts *ro,
			   const struct options *o,
			   const struct resolve_opts *rso,
			   struct symtab *bin);

/* After a read that failed: whether the one read stopped itself, its
 * positions no use (then load again: code_positions_retry()). */
bool code_positions_gave_up(const struct code_positions *cp,
			    const struct profile *p);

/* After reading, before resolution: false when a function not kept
 * whole was read in two blocks (its count of addresses is not known). */
bool code_positions_read_ok(struct code_positions *cp, struct profile *p);

/*
 * After resolution against st with report r: false when the load
 * offset or object is not the one assumed, or when a function the
 * disassembly may list has positions not kept whole. p's positions are
 * then of no use: read again with every position.
 */
bool code_positions_resolved_ok(struct code_positions *cp,
				struct profile *p, const struct symtab *st,
				const struct resolve_report *r,
				const struct options *o);

/* After a read that failed a check: when it was the one read of
 * --disasm=WHAT, its messages dropped and true: load again, now with
 * the two reads (cp still holds the messages); else false. */
bool code_positions_retry(struct code_positions *cp);

/*
 * The report without -b: the binary opened before the first read (the
 * program the profile's header names, with DWARF lines), renamed into
 * names, when path is that file as open_binary() would open it: the
 * same file under the same name in the same directory (symtab_open()
 * looks for its debug file beside it, by its name), and its opening
 * said nothing. NULL: open it (binaries.h).
 */
struct symtab *code_positions_take(struct code_positions *cp,
				   const char *path, struct names *names);

/* At the end of loading: the held messages printed (replay) or dropped,
 * and the hold ended. */
void code_positions_end(struct code_positions *cp, bool replay);

#endif
