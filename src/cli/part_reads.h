/*
 * The report's threads and dumps of a Callgrind profile (IgProf's
 * buffers): the selected parts read again (each file once for all
 * of them), each analysed and reduced as it is read, for
 * print/html_parts.c to place on the whole profile's tree (doc/DESIGN.md,
 * "The flame graph and the HTML report").
 */
#ifndef CGA_PART_READS_H
#define CGA_PART_READS_H

#include "options.h"
#include "print/html_parts.h"
#include "profile/profile.h"

/*
 * Parts a report takes at most. A Callgrind or IgProf file is read once
 * more for all of its parts (read_opts.part_done), each reduced to what the page
 * writes of it as it ends (html_parts_add()): time and memory grow with
 * the file, and with the parts' trees, each up to HTML_FLAME_MAX_NODES
 * nodes of an event however small the part (a few lines of calls can
 * make tens of thousands of paths). Real files keep an entry for 50 to
 * 180 bytes of text (valgrind's dumps, doc/PERFORMANCE.md): the panel is
 * left out past PART_READS_MAX parts, and once the entries kept pass the
 * inputs' bytes on disk (at least PART_READS_ENTRIES_MIN).
 */
#define PART_READS_MAX 20000
#define PART_READS_ENTRIES_MIN ((size_t)1 << 20)

/*
 * An IgProf buffer is handed on with the stack under it (a buffer can
 * begin below the frames the one before left): its end walks that
 * stack, whose depth need not show in what the page keeps (arcs of no
 * cost, a recursion's frames of a few functions). A file of a deep
 * stack under thousands of one-line buffers would walk it thousands of
 * times; the levels walked stay under PART_READS_LEVELS times the
 * entries' bound (real files: a few levels a buffer).
 */
#define PART_READS_LEVELS 8

struct part_reads {
	struct html_parts parts;	/* parts.nparts, in the whole's order */
	const char *why;	/* why there are none, or NULL; static */
};

/*
 * For --output=html on Callgrind or IgProf inputs of two or more
 * selected parts: each as read alone (as --part, --pid and --tid
 * would), quietly, reduced (html_parts.h) for the page of cg (the whole
 * profile's, propagated). Sets pr->why where it does not: "" for
 * nothing to say (another format, one part), else a sentence for the
 * page (transforms, -b with IgProf, --inlined=callee, standard input
 * or a pipe, too many parts, trees too large for the file, a part that
 * would not read again).
 */
void part_reads_load(struct part_reads *pr, const struct options *o,
		     const struct cg *cg, uint32_t sort_event);
void part_reads_release(struct part_reads *pr);

#endif
