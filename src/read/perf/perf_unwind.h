/*
 * --call-graph dwarf: a sample's user stack unwound from the registers
 * and the stack dump recorded with it, with the objects' CFI, by
 * elfutils' libdwfl (see perf_unwind.c).
 */
#ifndef CGA_PERF_UNWIND_H
#define CGA_PERF_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf_format.h"

struct perf_reader;
struct perf_unwind;

/* The most user frames one sample unwinds to: perf's own limit
 * (kernel.perf_event_max_stack, 127), which perf report applies. */
#define PERF_UNWIND_MAX 127

/* A new unwinder for the recording r reads (its mappings, objects and
 * opts->perf_files), or NULL when its architecture is not one we know
 * the registers of (x86_64 only). It lives as long as r. */
struct perf_unwind *perf_unwind_new(struct perf_reader *r);
void perf_unwind_free(struct perf_unwind *u);

/* The mapping the unwinder found for an address (its module's), as
 * perf_maps_find_span() gives it with the sample's process, time and
 * gen: an index into the reader's maps[] (PERF_UNWIND_NO_MAP: not
 * found, or not looked up), and [from, until) the times the answer
 * holds for. The reader takes it rather than looking the address up
 * again. */
struct perf_unwind_where {
	uint64_t from, until;
	uint32_t map;
};
#define PERF_UNWIND_NO_MAP UINT32_MAX

/*
 * Unwind sample s's user stack, if it has registers and a stack dump,
 * with the mappings of its process whose gen (perf_maps_sample(); 0 in
 * two passes) is gen:
 * up to max addresses into pcs[], the innermost first, with exact[i]
 * true for an address where the code was (the first, and a frame a
 * signal interrupted) and false for a return address, and where[i]
 * (where not NULL) its mapping. Returns the
 * count; 0 when it cannot start (no registers or dump, the ip in no
 * object whose file we have). Never reads outside the dump or fails.
 */
size_t perf_unwind_sample(struct perf_unwind *u, const struct perf_attr *a,
			  const struct perf_sample *s, uint32_t gen,
			  uint64_t *pcs, bool *exact,
			  struct perf_unwind_where *where, size_t max);

/*
 * Two unwinders of one recording may run on two threads at once, each
 * on its own samples (perf_par.h): each has its own Dwfls, files and
 * CFI rows, and reads only what no thread changes while samples are
 * unwound (the reader's mappings with nothing noted to take in, its
 * objects' paths and build-ids, the names, the options). The counts
 * below of `from` added to u's.
 */
void perf_unwind_absorb(struct perf_unwind *u, const struct perf_unwind *from);

/* The sample has the registers an unwinding starts from: x86_64's
 * (the 64-bit ABI), with the stack pointer and the ip among them. A
 * sample without them keeps only its ip as its user stack. */
bool perf_unwind_regs_usable(const struct perf_attr *a,
			     const struct perf_sample *s);

/* Samples unwound, and those that had a dump but could not start. */
void perf_unwind_counts(const struct perf_unwind *u, uint64_t *unwound,
			uint64_t *failed);

/*
 * Samples whose unwinding stopped because the caller's frame is above
 * the stack dump (perf record --call-graph dwarf,SIZE: the dump holds
 * SIZE bytes from the stack pointer up): their outermost callers are
 * missing.
 */
uint64_t perf_unwind_cut(const struct perf_unwind *u);

/* Samples unwound by the cached CFI rows alone and with libdwfl, and
 * (PERF_UNWIND_CHECK) those the two unwound differently. */
void perf_unwind_ways(const struct perf_unwind *u, uint64_t *by_rows,
		      uint64_t *by_libdwfl, uint64_t *differed);

#endif
