/*
 * The report's threads and timeline (html_samples.h). The samples the
 * reader logged that share a time bucket, thread, tree node and event
 * (what the page can tell apart) make one record, their number and
 * periods summed; the records, in (bucket, thread, node, event) order,
 * are written as columns of unsigned LEB128 numbers in base64 (a
 * number of 1 to 3 bytes where JSON's text takes 2 to 8 and a comma).
 * The records of one (bucket, thread) are a group:
 *
 *   group_bucket  the group's bucket less the one before's
 *   group_track   its thread (an index into "tracks")
 *   group_size    its records
 *
 * and per record:
 *
 *   node     the tree node less the record before's, zigzag (0, -1, 1,
 *            -2: 0, 1, 2, 3), times 2, plus 1 when it has more than
 *            one sample
 *   samples  its samples, for those with more than one
 *   event    the profile event (left out with one event)
 *   period   the periods summed (left out for an event whose every
 *            sample has one period, "fixed": samples times it)
 *
 * Beside them: the tracks (perf.data's threads: a name, pid and tid,
 * and --threads's totals), the buckets' width and the first sample's
 * time, and the command line's own choice of samples ("chosen").
 *
 * A Callgrind profile's parts (--separate-threads=yes files, dumps
 * over time) and IgProf's buffers make the same columns ("kind":
 * "parts", html_parts.h): the tracks their threads, the buckets their
 * dumps ("dumps": the part numbers, "triggers"), a record a part's cost
 * at a node ("samples" 1), with "part_cost" (each part's bucket, track
 * and totals, --threads's), "added" (per event, the nodes the parts'
 * paths add to the page's tree) and "incl_*" (each part's measured
 * inclusive cost of each function: put_inclusive()).
 */
#include "html_samples.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/time_slice.h"
#include "base/xalloc.h"
#include "flame_data.h"
#include "html_data.h"
#include "html_parts.h"
#include "json_write.h"
#include "profile/perf_data.h"

#define NS_PER_S 1000000000ull

static int by_place(const void *a, const void *b)
{
	const struct html_record *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->event < y->event ? -1 : x->event > y->event;
}

/* A column of LEB128 numbers as base64 text. */
struct column {
	unsigned char *b;
	size_t n, alloc;
};

static void col_put(struct column *c, uint64_t v)
{
	ARRAY_GROW(c->b, c->n + 10, c->alloc);
	do {
		unsigned char byte = v & 0x7f;

		v >>= 7;
		c->b[c->n++] = byte | (v ? 0x80 : 0);
	} while (v);
}

static void col_write(FILE *out, const char *key, struct column *c)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	fprintf(out, ",\n \"%s\": \"", key);
	for (size_t i = 0; i < c->n; i += 3) {
		uint32_t w = (uint32_t)c->b[i] << 16;
		size_t left = c->n - i;

		if (left > 1)
			w |= (uint32_t)c->b[i + 1] << 8;
		if (left > 2)
			w |= c->b[i + 2];
		fputc(b64[w >> 18], out);
		fputc(b64[w >> 12 & 63], out);
		fputc(left > 1 ? b64[w >> 6 & 63] : '=', out);
		fputc(left > 2 ? b64[w & 63] : '=', out);
	}
	fputc('"', out);
	free(c->b);
	memset(c, 0, sizeof(*c));
}

/* Each event's figure of each thread, [[event 0's], ...]: the threads'
 * costs, or their numbers of samples */
static void put_per_thread(FILE *out, const struct profile *p, size_t ne,
			   bool cost)
{
	fputc('[', out);
	for (size_t e = 0; e < ne; e++) {
		fputs(e ? ", [" : "[", out);
		for (size_t i = 0; i < p->nthreads; i++)
			fprintf(out, i ? ",%llu" : "%llu", (unsigned long long)
				(cost ? p->threads[i].cost[e]
				      : p->threads[i].samples[e]));
		fputc(']', out);
	}
	fputc(']', out);
}

static void put_tracks(FILE *out, const struct profile *p)
{
	size_t ne = p->threads_nevents;

	fprintf(out, "{\"tracks\": {\"n\": %zu, \"pid\": [", p->nthreads);
	/* pids and tids signed, as perf prints them (-1: no task) */
	for (size_t i = 0; i < p->nthreads; i++)
		fprintf(out, i ? ",%d" : "%d", (int32_t)p->threads[i].pid);
	fputs("], \"tid\": [", out);
	for (size_t i = 0; i < p->nthreads; i++)
		fprintf(out, i ? ",%d" : "%d", (int32_t)p->threads[i].tid);
	fputs("],\n  \"name\": [", out);
	for (size_t i = 0; i < p->nthreads; i++) {
		name_id c = p->threads[i].comm;

		if (i)
			fputc(',', out);
		if (c == NO_NAME)
			fputs("\"[unknown]\"", out);
		else
			json_name(out, p, c);
	}
	fputs("],\n  \"samples\": ", out);
	put_per_thread(out, p, ne, false);
	fputs(",\n  \"cost\": ", out);
	put_per_thread(out, p, ne, true);
	fputc('}', out);
}

static void put_ids(FILE *out, const char *key, const uint32_t *ids, size_t n)
{
	fprintf(out, "\"%s\": [", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, i ? ",%d" : "%d", (int32_t)ids[i]);
	fputs("], ", out);
}

/* The command line's choice of samples, which the page's options add
 * to: {"pid": [], "tid": [], "comm": null, "time": null, "ranges": 0} */
static void put_chosen(FILE *out, const struct profile *p,
		       const struct print_opts *o)
{
	fputs(",\n \"chosen\": {", out);
	put_ids(out, "pid", o->pids, o->npids);
	put_ids(out, "tid", o->tids, o->ntids);
	fputs("\"comm\": ", out);
	if (o->comms)
		json_string(out, o->comms, strlen(o->comms));
	else
		fputs("null", out);
	fputs(", \"time\": ", out);
	if (p->time_spec)
		json_string(out, p->time_spec->text, strlen(p->time_spec->text));
	else
		fputs("null", out);
	fprintf(out, ", \"ranges\": %zu}", p->time_spec ? p->time_spec->n : 0);
}

/* Why the page cannot sum the samples, or NULL when it can; "" when
 * there is nothing to say (no threads: gperftools, pprof). */
static const char *no_samples(const struct profile *p,
			      const struct print_opts *o)
{
	const struct perf_data *d = p->perf;

	if (!d || !d->logging || !p->nthreads)
		return "";	/* no threads to speak of: not perf.data */
	if (o->transforms)
		return "the report was made with transforms on the command "
		       "line (--focus, --ignore, ...): its stacks are no "
		       "longer the samples'";
	if (!d->node_stack || !d->event_profile || !p->nstack_values ||
	    p->stacks_estimated)
		return "the profile's stacks were not kept";
	return NULL;
}

/* The samples' time, when the page can draw it; else why not. */
static const char *no_time(const struct profile *p)
{
	const struct perf_data *d = p->perf;

	if (d->untimed)
		return "the recording has no sample times (perf record "
		       "without PERF_SAMPLE_TIME)";
	if (p->ninputs > 1)
		return "the report is of several recordings, whose times "
		       "are not one clock's";
	if (!d->nlog)
		return "the recording has no samples";
	return NULL;
}

/* The records sorted by place, those of one place made one; returns
 * how many are left. */
static size_t merge_records(struct html_record *rec, size_t n)
{
	size_t m = 0;

	/* parts with no cost give no records, and rec is NULL */
	if (!n)
		return 0;
	qsort(rec, n, sizeof(*rec), by_place);
	for (size_t i = 0; i < n; i++) {
		struct html_record *r = &rec[m ? m - 1 : 0];

		if (m && !by_place(r, &rec[i])) {
			r->samples += rec[i].samples;
			r->period += rec[i].period;
		} else {
			rec[m++] = rec[i];
		}
	}
	return m;
}

/*
 * The samples as records of the page's trees' nodes. A page cut at the
 * threshold (report_keep.h) keeps its merged frames as hidden nodes,
 * numbered after the drawn ones (html_flame_page_nodes()), and a
 * sample of one is that node's; past REPORT_HIDDEN_MAX, its nearest
 * kept ancestor's, whose self the page then says holds it. *lost
 * counts the samples of merged roots, which no node of the page holds.
 */
static struct html_record *make_records(const struct cg *cg,
				   const struct report_keep *k, uint64_t first,
				   uint64_t width, size_t *nrec,
				   size_t *nnodes, size_t *lost)
{
	const struct profile *p = cg->p;
	const struct perf_data *d = p->perf;
	uint32_t *node_of = xcalloc(p->nstacks + 1, sizeof(*node_of));
	uint32_t **page = xcalloc(p->nevents + 1, sizeof(*page));
	struct html_record *rec = xcalloc(d->nlog + 1, sizeof(*rec));
	size_t n = 0;

	*nnodes = flame_stack_nodes(p, node_of);
	*lost = 0;
	for (size_t e = 0; e < p->nevents; e++)
		page[e] = html_flame_page_nodes(cg, (uint32_t)e, k, *nnodes);
	for (size_t i = 0; i < d->nlog; i++) {
		const struct perf_logged_sample *s = &d->log[i];
		uint32_t pe = d->event_profile[s->event];
		uint32_t st = d->node_stack[s->node];
		uint32_t node;

		if (pe == NO_ID || st == NO_ID || st >= p->nstacks)
			continue;
		node = page[pe] ? page[pe][node_of[st]] : node_of[st];
		if (node == NO_ID) {
			(*lost)++;
			continue;
		}
		rec[n++] = (struct html_record){
			.bucket = width ? (uint32_t)((s->time - first) / width)
					: 0,
			.track = s->thread, .node = node, .event = pe,
			.samples = 1, .period = s->period };
	}
	for (size_t e = 0; e < p->nevents; e++)
		free(page[e]);
	free(page);
	free(node_of);
	*nrec = merge_records(rec, n);
	return rec;
}

/* The records as columns (the file's head says how); returns the
 * number of groups. */
static size_t put_columns(FILE *out, const struct html_record *rec, size_t nrec,
			  const uint64_t *fixed, size_t ne)
{
	struct column col[7] = { 0 };
	uint32_t prev_node = 0, prev_bucket = 0;
	size_t ngroups = 0;

	for (size_t i = 0, g = 0; i < nrec; i = g) {
		for (g = i + 1; g < nrec && rec[g].bucket == rec[i].bucket &&
				rec[g].track == rec[i].track; g++)
			;
		col_put(&col[0], rec[i].bucket - prev_bucket);
		col_put(&col[1], rec[i].track);
		col_put(&col[2], g - i);
		prev_bucket = rec[i].bucket;
		ngroups++;
		for (size_t k = i; k < g; k++) {
			const struct html_record *r = &rec[k];
			int64_t dn = (int64_t)r->node - (int64_t)prev_node;
			uint64_t zz = dn < 0 ? ((uint64_t)-dn << 1) - 1
					     : (uint64_t)dn << 1;

			col_put(&col[3], zz << 1 | (r->samples > 1));
			if (r->samples > 1)
				col_put(&col[4], r->samples);
			if (ne > 1)
				col_put(&col[5], r->event);
			if (!fixed[r->event])
				col_put(&col[6], r->period);
			prev_node = r->node;
		}
	}
	col_write(out, "group_bucket", &col[0]);
	col_write(out, "group_track", &col[1]);
	col_write(out, "group_size", &col[2]);
	col_write(out, "node", &col[3]);
	col_write(out, "samples", &col[4]);
	col_write(out, "event", &col[5]);
	col_write(out, "period", &col[6]);
	return ngroups;
}

/* "n", "fixed" (each event's period per record where every record
 * has the same: perf record -c; 0 where not), the columns, "groups" */
static void put_records(FILE *out, const struct html_record *rec, size_t nrec,
			size_t ne)
{
	uint64_t *fixed = xcalloc(ne + 1, sizeof(*fixed));

	for (size_t e = 0; e < ne; e++)
		fixed[e] = UINT64_MAX;
	for (size_t i = 0; i < nrec; i++) {
		uint64_t *f = &fixed[rec[i].event];
		uint64_t per = rec[i].period / rec[i].samples;

		if (*f == UINT64_MAX && per * rec[i].samples == rec[i].period)
			*f = per;
		else if (*f != per || per * rec[i].samples != rec[i].period)
			*f = 0;
	}
	fprintf(out, "\"n\": %zu, \"fixed\": [", nrec);
	for (size_t e = 0; e < ne; e++)
		fprintf(out, e ? ",%llu" : "%llu",
			(unsigned long long)(fixed[e] == UINT64_MAX ? 0
								     : fixed[e]));
	fputc(']', out);
	fprintf(out, ", \"groups\": %zu", put_columns(out, rec, nrec, fixed,
						    ne));
	free(fixed);
}

/* The parts' tracks: the threads, --threads's, with their totals */
static void put_part_tracks(FILE *out, const struct profile *p,
			    const struct html_part_axes *ax)
{
	fprintf(out, "{\"tracks\": {\"n\": %zu, \"pid\": [", ax->ngroups);
	for (size_t i = 0; i < ax->ngroups; i++)
		fprintf(out, i ? ",%u" : "%u", ax->groups[i].pid);
	fputs("], \"tid\": [", out);
	for (size_t i = 0; i < ax->ngroups; i++)
		fprintf(out, i ? ",%u" : "%u", ax->groups[i].tid);
	fputs("],\n  \"name\": [", out);
	for (size_t i = 0; i < ax->ngroups; i++) {
		fputs(i ? "," : "", out);
		if (ax->groups[i].name == NO_NAME)
			fputs("\"[unknown]\"", out);
		else
			json_name(out, p, ax->groups[i].name);
	}
	fputs("],\n  \"parts\": [", out);
	for (size_t i = 0; i < ax->ngroups; i++)
		fprintf(out, i ? ",%u" : "%u", ax->groups[i].nparts);
	fputs("], \"samples\": null}", out);
}

/* A part number for the page, which prints it in --part=N: as a string
 * past 2^53 - 1, which a JavaScript number would round (a file's
 * 'part: 18446744073709551615' became --part=18446744073709552000) */
static void put_part_number(FILE *out, uint64_t v)
{
	fprintf(out, v > (1ull << 53) - 1 ? "\"%llu\"" : "%llu",
		(unsigned long long)v);
}

/* The dumps: each part number, and the first trigger given for it */
static void put_dumps(FILE *out, const struct profile *p,
		      const struct html_parts *hp,
		      const struct html_part_axes *ax)
{
	name_id *trigger = xmalloc((ax->ndumps + 1) * sizeof(*trigger));

	/* in one walk of the parts: a file of thousands of dumps */
	for (size_t d = 0; d < ax->ndumps; d++)
		trigger[d] = NO_NAME;
	for (size_t i = 0; i < hp->nparts; i++)
		if (trigger[ax->bucket[i]] == NO_NAME)
			trigger[ax->bucket[i]] = hp->parts[i].part->trigger;
	fputs(",\n \"dumps\": [", out);
	for (size_t d = 0; d < ax->ndumps; d++) {
		if (d)
			fputc(',', out);
		put_part_number(out, ax->dumps[d]);
	}
	fputs("], \"triggers\": [", out);
	for (size_t d = 0; d < ax->ndumps; d++) {
		fputs(d ? "," : "", out);
		json_name(out, p, trigger[d]);
	}
	fputc(']', out);
	free(trigger);
}

/* "part_cost": per part, [its dump (bucket), its track, its cost of
 * each event]: its "totals:" line's, as --threads and --parts add
 * them up (a derived event's, of the part read alone) */
static void put_part_costs(FILE *out, const struct profile *p,
			   const struct html_parts *hp,
			   const struct html_part_axes *ax)
{
	fputs(",\n \"part_cost\": [", out);
	for (size_t i = 0; i < hp->nparts; i++) {
		const struct html_part *pt = &hp->parts[i];

		if (ax->track[i] == UINT32_MAX)
			continue;
		fprintf(out, "%s[%u,%u", i ? ",\n  " : "", ax->bucket[i],
			ax->track[i]);
		for (size_t e = 0; e < p->nevents; e++) {
			uint64_t c = ppart_cost(pt->part, e);

			if (p->events[e].derived && pt->derived)
				c = pt->derived[e];
			fprintf(out, ",%llu", (unsigned long long)c);
		}
		fputc(']', out);
	}
	fputc(']', out);
}

/* "added": per event, null or the nodes its tree gets after its own
 * ("unit": page ids, "parent": -1 at the roots) */
static void put_added(FILE *out, const struct html_part_added *a, size_t ne)
{
	fputs(",\n \"added\": [", out);
	for (size_t e = 0; e < ne; e++) {
		fputs(e ? ", " : "", out);
		if (!a[e].n) {
			fputs("null", out);
			continue;
		}
		fputs("{\"unit\": [", out);
		for (size_t i = 0; i < a[e].n; i++)
			fprintf(out, i ? ",%u" : "%u", a[e].unit[i]);
		fputs("], \"parent\": [", out);
		for (size_t i = 0; i < a[e].n; i++)
			fprintf(out, i ? ",%d" : "%d", (int32_t)a[e].parent[i]);
		fputs("]}", out);
	}
	fputc(']', out);
}

/* The parts' inclusive costs (html_parts_inclusive()): "incl_n" and
 * columns, per (event, bucket, track) group its event, bucket, track
 * and size, per record its function (the page's id, less the one
 * before in the group) and cost */
static void put_inclusive(FILE *out, const struct html_record *rec, size_t n)
{
	struct column col[6] = { 0 };
	static const char *const keys[] = { "incl_event", "incl_bucket",
		"incl_track", "incl_size", "incl_fn", "incl_value" };

	for (size_t i = 0, g; i < n; i = g) {
		uint32_t prev = 0;

		for (g = i + 1; g < n && rec[g].event == rec[i].event &&
				rec[g].bucket == rec[i].bucket &&
				rec[g].track == rec[i].track; g++)
			;
		col_put(&col[0], rec[i].event);
		col_put(&col[1], rec[i].bucket);
		col_put(&col[2], rec[i].track);
		col_put(&col[3], g - i);
		for (size_t j = i; j < g; j++) {
			col_put(&col[4], rec[j].node - prev);
			col_put(&col[5], rec[j].period);
			prev = rec[j].node;
		}
	}
	fprintf(out, ",\n \"incl_n\": %zu", n);
	for (int c = 0; c < 6; c++)
		col_write(out, keys[c], &col[c]);
}

/* A Callgrind profile's parts as tracks (threads) and dumps */
static void html_samples_parts(FILE *out, const struct cg *cg,
			       const struct print_opts *o,
			       const struct report_keep *k)
{
	const struct profile *p = cg->p;
	struct html_part_axes ax;
	size_t nrec, moved, lost;
	struct html_record *rec;
	struct html_part_added *added;
	struct html_record *incl;
	size_t nincl;

	html_part_axes_init(&ax, p, o->parts);
	added = xcalloc(p->nevents + 1, sizeof(*added));
	rec = html_parts_records(cg, o->parts, &ax, k, added, &nrec, &moved,
				 &lost);
	nrec = merge_records(rec, nrec);
	/* a record is a part's cost at a node, not a count of samples */
	for (size_t i = 0; i < nrec; i++)
		rec[i].samples = 1;
	put_part_tracks(out, p, &ax);
	fputs(",\n \"chosen\": {", out);
	put_ids(out, "pid", o->pids, o->npids);
	put_ids(out, "tid", o->tids, o->ntids);
	fputs("\"comm\": null, \"time\": null, \"ranges\": 0, \"part\": ",
	      out);
	put_part_number(out, o->part);
	fputc('}', out);
	/* IgProf's parts are its buffers, of whole stacks: exact paths */
	fprintf(out, ",\n \"kind\": \"parts\", \"word\": \"%s\", "
		"\"exact\": %s, \"why\": null, \"why_time\": ",
		p->nstack_values ? "buffer" : "dump",
		p->nstack_values && !p->stacks_estimated ? "true" : "false");
	if (ax.ndumps < 2 && o->part)
		fprintf(out, "\"the report is of one %s, --part=%llu's\"",
			p->nstack_values ? "buffer" : "dump",
			(unsigned long long)o->part);
	else if (ax.ndumps < 2)
		fputs("\"the profile has one dump (each thread one part): "
		      "valgrind's --dump-every-bb, --dump-before or "
		      "CALLGRIND_DUMP_STATS make more\"", out);
	else
		fputs("null", out);
	put_dumps(out, p, o->parts, &ax);
	put_part_costs(out, p, o->parts, &ax);
	fprintf(out, ", \"width\": 0, \"buckets\": %zu, \"events\": %zu, ",
		ax.ndumps, p->nevents);
	put_records(out, rec, nrec, p->nevents);
	put_added(out, added, p->nevents);
	incl = html_parts_inclusive(o->parts, &ax, k, &nincl);
	put_inclusive(out, incl, nincl);
	free(incl);
	fprintf(out, ", \"unplaced\": %zu, \"moved\": %zu}\n", lost, moved);
	html_part_added_release(added, p->nevents);
	free(rec);
	html_part_axes_release(&ax);
}

void html_samples(FILE *out, const struct cg *cg, const struct print_opts *o,
		  const struct report_keep *k)
{
	const struct profile *p = cg->p;
	const char *why = no_samples(p, o), *why_time = NULL;
	const struct perf_data *d = p->perf;
	size_t ne = p->nevents, nrec, nnodes, lost;
	uint64_t first = UINT64_MAX, last = 0, width = 0;
	struct html_record *rec;

	if (!p->perf && o->nparts) {
		html_samples_parts(out, cg, o, k);
		return;
	}
	if (!p->perf && o->why_parts)
		why = o->why_parts;
	if (why) {
		fputs("{\"tracks\": null, \"why\": ", out);
		if (*why)
			json_string(out, why, strlen(why));
		else
			fputs("null", out);
		fputs("}\n", out);
		return;
	}
	why_time = no_time(p);
	for (size_t i = 0; !why_time && i < d->nlog; i++) {
		if (d->log[i].time < first)
			first = d->log[i].time;
		if (d->log[i].time > last)
			last = d->log[i].time;
	}
	if (!why_time)
		width = (last - first) / HTML_TIME_BUCKETS + 1;
	rec = make_records(cg, k, first, width, &nrec, &nnodes, &lost);
	put_tracks(out, p);
	put_chosen(out, p, o);
	fputs(",\n \"why\": null, \"why_time\": ", out);
	if (why_time)
		json_string(out, why_time, strlen(why_time));
	else
		fputs("null", out);
	fprintf(out, ",\n \"first_s\": %llu, \"first_ns\": %llu, \"last_s\": "
		"%llu, \"last_ns\": %llu, \"width\": %llu, \"buckets\": %d, "
		"\"nodes\": %zu, \"events\": %zu, ",
		(unsigned long long)(why_time ? 0 : first / NS_PER_S),
		(unsigned long long)(why_time ? 0 : first % NS_PER_S),
		(unsigned long long)(why_time ? 0 : last / NS_PER_S),
		(unsigned long long)(why_time ? 0 : last % NS_PER_S),
		(unsigned long long)width, why_time ? 1 : HTML_TIME_BUCKETS,
		nnodes, ne);
	put_records(out, rec, nrec, ne);
	fprintf(out, ", \"unplaced\": %zu", lost);
	fputs("}\n", out);
	free(rec);
}
