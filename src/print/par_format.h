/*
 * A listing's text made by two threads and written in order. The call
 * graph of a large profile is hundreds of thousands of lines, each a
 * few numbers and a name formatted from a call graph nobody writes to
 * any more: this thread formats and writes every other chunk of entries
 * while a second formats the chunks in between into buffers of its own,
 * which this one writes in their turn. The text is the same as from one
 * thread, byte for byte; memory is two chunks' text, whatever the size.
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

struct par_format {
	par_format_fn *format;
	const void *shared;
	void *ctx[2];		/* this thread's, the second thread's */
	size_t chunk;		/* units per chunk */
	size_t min_units;	/* fewer: one thread */
};

/* Units [0, n) to out, in order. */
void par_format_run(const struct par_format *pf, FILE *out, size_t n);

#endif
