/*
 * A listing's text made by two threads and written in order. The call
 * graph of a large profile is hundreds of thousands of lines, each a
 * few numbers and a name formatted from a call graph nobody writes to
 * any more: this thread formats and writes every other chunk of entries
 * while a second formats the chunks in between into buffers of its own,
 * which this one writes in their turn. The text is the same as from one
 * thread, byte for byte; memory is three chunks' text, whatever the
 * number of units. Where units differ widely in size (a call graph
 * entry of a function called from thousands of places), a weight per
 * unit ends a chunk early, so a run of big units (60 copies of one
 * program's cycles, ranked side by side) is not one chunk of 20 MB.
 */
#ifndef CGA_PAR_FORMAT_H
#define CGA_PAR_FORMAT_H

#include <stddef.h>
#include <stdio.h>

struct linebuf;

/*
 * Append unit i's text to lb. ctx is the thread's own (one per thread:
 * its scratch memory), shared is common to both and only read.
 */
typedef void par_format_fn(void *ctx, const void *shared, size_t i,
			   struct linebuf *lb);

/* About how many lines unit i's text will be (only where chunks are
 * cut: the text does not depend on it); ctx is this thread's. */
typedef size_t par_weight_fn(void *ctx, const void *shared, size_t i);

struct par_format {
	par_format_fn *format;
	const void *shared;
	void *ctx[2];		/* this thread's, the second thread's */
	size_t chunk;		/* units per chunk, at most */
	size_t min_units;	/* fewer: one thread */
	/* NULL: every chunk `chunk` units; else a chunk also ends after
	 * the unit that brings its weight to max_weight */
	par_weight_fn *weight;
	size_t max_weight;
};

/* Units [0, n) to out, in order. */
void par_format_run(const struct par_format *pf, FILE *out, size_t n);

#endif
