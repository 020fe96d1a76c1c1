/*
 * The report's threads and dumps of a Callgrind profile (IgProf's
 * buffers): each selected part read again alone and analysed, for
 * print/html_parts.c to place on the whole profile's tree (doc/DESIGN.md,
 * "The flame graph and the HTML report").
 */
#ifndef CGA_PART_READS_H
#define CGA_PART_READS_H

#include "options.h"
#include "print/html_parts.h"
#include "profile/profile.h"

/* Parts read again for a report at most, and the bytes read again at
 * most, times the inputs' text (decompressed) unless under
 * PART_READS_BYTES: a part is read as --part reads it, through its
 * whole file, and a file of a
 * thousand dumps would be read a thousand times. The files of
 * --separate-threads=yes are one part each: read twice in all. */
#define PART_READS_MAX 256
#define PART_READS_FACTOR 16
#define PART_READS_BYTES (256ull << 20)

struct part_reads {
	struct html_part *parts;	/* nparts, in the whole's order */
	size_t nparts;
	const char *why;	/* why there are none, or NULL; static */
};

/*
 * For --output=html on Callgrind or IgProf inputs of two or more
 * selected parts: read each alone (as --part, --pid and --tid would),
 * quietly, and build its graph. Sets pr->why where it does not: "" for
 * nothing to say (another format, one part), else a sentence for the
 * page (transforms, -b with IgProf, --inlined=callee, standard input
 * or a pipe, too many parts, two parts of one number, a part that would
 * not read again).
 */
void part_reads_load(struct part_reads *pr, const struct options *o,
		     const struct profile *whole, uint32_t sort_event);
void part_reads_release(struct part_reads *pr);

#endif
