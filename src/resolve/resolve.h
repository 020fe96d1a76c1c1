/*
 * Symbol resolution of a profile against the binaries it was taken from
 * (-b): the one file that sees both the profile and the symbol tables.
 */
#ifndef CGA_RESOLVE_H
#define CGA_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"
#include "symtab/symtab.h"

enum inline_mode {
	INLINE_CALLER,	/* inlined code stays with the function it is in */
	INLINE_CALLEE,	/* it is charged to the inlined function */
};

struct perf_preload;

struct resolve_opts {
	bool have_load_offset;
	uint64_t load_offset;	/* --load-offset: runtime - link-time */
	enum inline_mode inlined;
	bool demangle;
	bool want_positions;	/* gmon.out: make positions (the listings
				 * by line and instruction need them) */
	bool want_stacks;	/* perf.data: keep the whole stacks with
				 * their samples' periods (p->stacks,
				 * p->stack_values), for the flame graphs */
	bool force_binary;	/* a binary that does not match: a warning,
				 * not an error */
	/* Per binary, the profile object it is for (a path or a file
	 * name: -b OBJECT=FILE), or NULL: the object of its file name */
	char *const *objects;
	/* perf.data: where the objects' separate debug files are (NULL:
	 * /usr/lib/debug), as for -b; the kernel's symbols (--kallsyms;
	 * NULL: /proc/kallsyms when the recording was made on this
	 * kernel) */
	const char *debug_dir;
	const char *kallsyms;
	const char *sysroot;	/* perf.data's objects under this directory
				 * (--sysroot); NULL: at their paths */
	/* perf.data: the symbol tables loaded while it was read
	 * (perf_preload.h), for names only; NULL: none */
	struct perf_preload *preload;
	/* perf.data with preload: the charging's preparation and the
	 * frames' symbols on a second thread beside the lines and the
	 * kernel's symbols: 1 always, 0 never, -1 when a processor is free
	 * for it (spare_cpu_beside_own()) */
	int tail_thread;
};

/* What was done with one binary, for the listing's header and JSON. */
struct resolve_report {
	const char *binary;
	name_id object;		/* the profile object it applies to; NO_NAME:
				 * the profile names no objects */
	uint64_t load_offset;
	char offset_reason[160];
	uint32_t renamed;	/* functions given names or files */
	uint32_t inlined_moved;	/* positions charged to inlined functions */
	uint64_t addresses, outside;	/* instruction addresses checked, and
					 * those outside every segment */
	bool func_bounds;		/* the addresses checked are each
					 * function's lowest and highest (read
					 * without positions) */
	uint32_t named, named_found;	/* functions with a real name, and
					 * those in the symbol table */
	/* Where the lowest instruction address of each function the
	 * profile names falls against its symbol (load offset applied):
	 * at its start; inside it, past its start; before its start or at
	 * or past its end. */
	uint32_t at_start, inside, before, after;
	uint64_t arcs_elsewhere;	/* gmon.out: arcs into other objects */
};

/*
 * Apply each binary to the profile object with its file name (or to
 * every function when the profile names no objects): rename functions
 * the profile knows only by address, fill in files and lines, check that
 * the binary matches, charge inlined code as asked. The profile must
 * have been read with want_positions (or want_func_addrs, when inlined
 * code stays with its caller) for the address checks, and with
 * want_positions for inline attribution. reports[] has nst entries. Returns 0, or -1 after
 * reporting (a binary that matches no object, or does not match it).
 */
/*
 * The profile object the lone binary st applies to (*object, NO_NAME
 * when the profile names none) and the load offset resolve_profile()
 * would take for it, from the functions' lowest addresses as read so
 * far: for choosing what to keep before the profile is read again
 * (cli/code_positions.c). Returns 0, or -1 after reporting, as
 * resolve_profile() would.
 */
int resolve_guess_offset(const struct profile *p, const struct symtab *st,
			 const struct resolve_opts *o, name_id *object,
			 uint64_t *offset);

/*
 * The symbol of st profile function f is named after, or NULL: valgrind's
 * recursion and caller suffixes ("fib'2", "fib'main") are not part of it.
 */
const struct sym *resolve_named_sym(const struct profile *p,
				    const struct symtab *st, uint32_t f);

int resolve_profile(struct profile *p, struct symtab *const *st, size_t nst,
		    const struct resolve_opts *o, struct resolve_report *reports);

/* The listing's note on what -b did (one line per binary, and how
 * inlined code was charged). */
void resolve_print_notes(FILE *out, const struct profile *p,
			 const struct resolve_report *reports, size_t n,
			 const struct resolve_opts *o);

/*
 * gmon.out (p->gmon, read with the binary's address size and byte order)
 * against its binary: functions from the symbols, self time from the
 * histograms (p->est_self, gprof's proportional overlap), calls from the
 * arcs; the event is the histogram's dimension ("seconds") in ticks,
 * with unit_seconds the tick length. The load offset is given or found
 * (resolve_gmon.c); report gets it. Returns 0, or -1 after reporting
 * (no code symbols, or most call addresses outside the binary's code).
 */
int resolve_gmon(struct profile *p, const struct symtab *st,
		 const struct resolve_opts *o, struct resolve_report *report);
void resolve_gmon_print_notes(FILE *out, const struct resolve_report *r);

/*
 * A perf recording (p->perf) made into events, functions, self and
 * exact inclusive costs and arcs (resolve_perf.c says how objects get
 * their symbols). st[] are the -b binaries, each matched to an object
 * of the recording; reports[] (nst entries) say which. Returns 0, or -1
 * after reporting (a -b binary for no object, or of another build).
 */
int resolve_perf(struct profile *p, struct symtab *const *st, size_t nst,
		 const struct resolve_opts *o, struct resolve_report *reports);

/* The recorded files that name objects a sample's own address is in,
 * found without -b (loaded with their DWARF), and what each is for. */
struct perf_recorded {
	struct symtab **st;		/* malloc'd, each symtab_release()d
					 * and free()d by the caller */
	struct resolve_report *reports;	/* malloc'd, as st[] */
	size_t n;
};

/*
 * resolve_perf(), and when kept is not NULL the symbol tables of the
 * recorded files that hold sampled code are kept in it (zeroed by the
 * caller) for the listings of code, as -b binaries are: --annotate,
 * --disasm and the report without -b.
 */
int resolve_perf_keeping(struct profile *p, struct symtab *const *st,
			 size_t nst, const struct resolve_opts *o,
			 struct resolve_report *reports,
			 struct perf_recorded *kept);
/* The listing's note on which object each -b binary named. */
void resolve_perf_print_notes(FILE *out, const struct profile *p,
			      const struct resolve_report *reports, size_t n,
			      const struct resolve_opts *o);

#endif
