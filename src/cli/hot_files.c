/*
 * Which files' lines the annotated source needs (hot_files.h).
 *
 * annotate_data.c lists a file when its cost on lines, of the sort
 * event, is --threshold's share of the total or more (the total is
 * every position's cost), and of the other files needs only that cost
 * (their count and cost "below the threshold"); of every position its
 * function (the object without debug info), and whether it has a line.
 * The first read keeps each file's cost on a line and off one; a file
 * is kept when, of some event, it passes the threshold: the sort event
 * is one of them, and a file's cost in the listing (of the functions
 * chosen, on lines) is never more than the first read's, nor the total
 * another, so no file the listing lists is left out.
 */
#include "hot_files.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/hashmap.h"
#include "base/xalloc.h"
#include "binaries.h"

/* Listings whose positions are read by the annotated source alone (the
 * report: unless it has a Disassembly, which is known after reading).
 * Not under --focus and the other transforms: the files hot in what
 * they leave are not those hot in the whole, which the first read
 * measures (a file of 0.5% of the whole is 5% of a focus on a tenth). */
static bool annotation_only(const struct options *o)
{
	return (o->annotate || o->mode == OUT_HTML) && !o->disasm &&
	       o->mode != OUT_CALLGRIND && !o->nbinaries && !o->inline_calls &&
	       !o->annotate_what && !o->nspecs && !o->diff &&
	       !o->ntransforms;
}

/*
 * Whether the report will have a Disassembly: the profile has
 * addresses, and the object it records is here (analyze.c's
 * recorded_binary()), whose resolution and listing read every
 * instruction's position.
 */
static bool report_disassembles(const struct profile *q)
{
	uint32_t f;
	struct stat sb;

	if (!q->has_instr)
		return false;
	f = recorded_object_func(q, NULL);
	return f != NO_ID &&
	       stat(profile_str(q, q->funcs[f].object), &sb) == 0 &&
	       S_ISREG(sb.st_mode);
}

bool hot_files_rereadable(const struct options *o)
{
	for (int i = 0; i < o->ninputs; i++) {
		struct stat st;

		if (!strcmp(o->inputs[i], "-") || stat(o->inputs[i], &st) < 0 ||
		    !S_ISREG(st.st_mode) || !read_is_callgrind(o->inputs[i]))
			return false;
	}
	return o->ninputs > 0;
}

/*
 * Read the inputs into q keeping each file's cost alone; false when
 * one cannot be read again or is no Callgrind file (the real read says
 * what is wrong: the messages here are dropped).
 */
static bool read_file_costs(struct profile *q, const struct read_opts *ro,
			    const struct options *o)
{
	struct read_opts fo = *ro;
	FILE *quiet = fopen("/dev/null", "w");
	FILE *sink = diag_sink();
	bool ok;

	if (!quiet)
		return false;
	fo.want_positions = true;
	fo.no_callsites = true;
	fo.no_calls = true;
	fo.want_stacks = false;
	q->pos_detail = POS_FILES;
	diag_set_sink(quiet);
	ok = hot_files_rereadable(o);
	for (int i = 0; ok && i < o->ninputs; i++)
		ok = read_profile(q, o->inputs[i], &fo) == 0;
	diag_set_sink(sink == stderr ? NULL : sink);
	fclose(quiet);
	if (ok)
		profile_finish(q);
	return ok;
}

void hot_files_keep(struct profile *p, const struct profile *q, double thr)
{
	size_t stride = q->stride, nfiles = 0;
	uint64_t *total = xcalloc(stride + 1, sizeof(*total));
	/* each file's cost on lines: a file may have several positions
	 * with a line (code_positions.c's keep them apart by address) */
	struct u64map index;
	/* by file, grown as files come: a profile read once (code_seek.c)
	 * has a million rows and a few thousand files */
	uint64_t *rows = NULL;
	name_id *files = NULL;
	size_t alloc = 0;

	u64map_init(&index);
	for (size_t i = 0; i < q->npos; i++) {
		const struct ppos *qp = &q->pos[i];
		const uint64_t *row = profile_pos_cost(q, (uint32_t)i);
		uint32_t k;

		for (size_t e = 0; e < stride; e++)
			total[e] += row[e];
		if (!qp->line || qp->file == NO_NAME)
			continue;
		k = u64map_get(&index, qp->file);
		if (k == U64MAP_NONE) {
			k = (uint32_t)nfiles++;
			if (nfiles > alloc) {
				alloc = alloc * 2 + 256;
				files = xreallocarray(files, alloc,
						      sizeof(*files));
				rows = xreallocarray(rows, alloc * stride + 1,
						     sizeof(*rows));
				memset(rows + k * stride, 0,
				       ((alloc - k) * stride + 1) *
					       sizeof(*rows));
			}
			files[k] = qp->file;
			u64map_put(&index, qp->file, k);
		}
		for (size_t e = 0; e < stride; e++)
			rows[k * stride + e] += row[e];
	}
	for (size_t e = 0; e < stride; e++)
		if (!total[e])
			p->pos_all_files = true;	/* every file listed */
	for (size_t k = 0; !p->pos_all_files && k < nfiles; k++)
		for (size_t e = 0; e < stride; e++)
			if ((double)rows[k * stride + e] * 100.0 /
				    (double)total[e] >= thr) {
				profile_keep_lines_of(
					p, profile_str(q, files[k]),
					names_len(&q->names, files[k]));
				break;
			}
	u64map_release(&index);
	free(rows);
	free(files);
	free(total);
}

void hot_files_choose(struct profile *p, struct read_opts *ro,
		      const struct options *o)
{
	double thr = o->threshold_given ? o->threshold : 1.0;
	bool html = o->mode == OUT_HTML;
	struct profile q;

	if (!annotation_only(o))
		return;
	/* --annotate: every file's lines when the files cannot be told
	 * (no threshold, or a pipe); addresses are for the disassembly */
	if (!html && thr <= 0) {
		p->pos_detail = POS_LINES;
		p->pos_all_files = true;
		return;
	}
	profile_init(&q);
	if (read_file_costs(&q, ro, o)) {
		if (!html || !report_disassembles(&q)) {
			p->pos_detail = POS_LINES;
			p->pos_all_files = thr <= 0;
			hot_files_keep(p, &q, thr);
		}
	} else if (!html) {
		p->pos_detail = POS_LINES;
		p->pos_all_files = true;
	}
	profile_release(&q);
}
