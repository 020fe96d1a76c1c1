/*
 * Callgrind's threads, processes and parts, and IgProf's processes, from
 * the parts' headers (profile/parts.h): --threads, --parts and their
 * --json. A thread's figures are the totals of its parts, each the
 * part's "totals:" line (the sum of its cost lines), so that they add up
 * to the flat profile's total; callgrind_annotate prints a file's
 * "summary:" line as its PROGRAM TOTALS, the same but a few events off
 * with --cache-sim=yes (tests/callgrind_threads_check.py compares them);
 * a process's are its threads' sums.
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "fmt.h"
#include "json_write.h"
#include "print.h"
#include "profile/parts.h"

/* The events the parts have numbers of: the recorded ones (derived
 * events are made after them, from the functions' costs). */
static size_t parts_nevents(const struct profile *p)
{
	size_t ne = 0;

	for (size_t i = 0; i < p->nparts; i++)
		if (p->parts[i].ncost > ne)
			ne = p->parts[i].ncost;
	return ne;
}

/* a command, escaped as the listings escape names (a terminal's escape
 * sequence in it would reach the terminal) */
static const char *name_of(const struct profile *p, name_id name, char *buf,
			   size_t size)
{
	return name == NO_NAME ? "[unknown]"
			       : name_escaped(profile_str(p, name), buf, size);
}

/* pid or thread number, "-" where the header did not say */
static void id_column(FILE *out, uint32_t id, int width)
{
	if (id)
		fprintf(out, "%*u", width, id);
	else
		fprintf(out, "%*s", width, "-");
}

static void heads(FILE *out, const struct profile *p, size_t ne)
{
	for (size_t e = 0; e < ne; e++)
		if (!p->events[e].derived)
			fprintf(out, " %15s", profile_str(p, p->events[e].name));
	fputs("   share", out);
}

static void figures(FILE *out, const struct profile *p, const uint64_t *cost,
		    const uint64_t *total, size_t ne, uint32_t ev,
		    bool groups)
{
	char a[FMT_NUM_MAX];

	for (size_t e = 0; e < ne; e++)
		if (!p->events[e].derived)
			fprintf(out, " %15s", fmt_count(a, cost[e], groups));
	fprintf(out, "  %5.2f%%",
		total[ev] ? 100.0 * (double)cost[ev] / (double)total[ev] : 0.0);
}

static const struct part_group *sort_groups;
static uint32_t sort_ev;

/* largest first, then by pid and thread */
static int by_cost(const void *a, const void *b)
{
	const struct part_group *x = &sort_groups[*(const size_t *)a];
	const struct part_group *y = &sort_groups[*(const size_t *)b];

	if (x->cost[sort_ev] != y->cost[sort_ev])
		return x->cost[sort_ev] > y->cost[sort_ev] ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* One table: the groups largest first, then their sum ("all") */
static void group_table(FILE *out, const struct profile *p,
			const struct print_opts *po, bool by_thread,
			size_t ne, uint32_t ev)
{
	struct part_group *g;
	size_t n = part_groups(p, by_thread, ne, &g);
	size_t *order = xmalloc((n + 1) * sizeof(*order));
	uint64_t *total = xcalloc(ne + 1, sizeof(*total));
	uint32_t nparts = 0;

	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		nparts += g[i].nparts;
		for (size_t e = 0; e < ne; e++)
			part_cost_add(p, e, &total[e], g[i].cost[e]);
	}
	sort_groups = g;
	sort_ev = ev;
	qsort(order, n, sizeof(*order), by_cost);
	fprintf(out, "%8s %8s %6s  %-16s", "pid", by_thread ? "thread" : "",
		"parts", "command");
	heads(out, p, ne);
	fputc('\n', out);
	for (size_t k = 0; k < n; k++) {
		const struct part_group *t = &g[order[k]];

		id_column(out, t->pid, 8);
		fputc(' ', out);
		if (by_thread)
			id_column(out, t->tid, 8);
		else
			fprintf(out, "%8s", "");
		char name[1024];

		fprintf(out, " %6u  %-16s", t->nparts,
			name_of(p, t->name, name, sizeof(name)));
		figures(out, p, t->cost, total, ne, ev, po->digit_groups);
		fputc('\n', out);
	}
	fprintf(out, "%8s %8s %6u  %-16s", "", "", nparts, "all");
	figures(out, p, total, total, ne, ev, po->digit_groups);
	fputc('\n', out);
	free(total);
	free(order);
	part_groups_free(g, n);
}

void print_part_threads(FILE *out, const struct profile *p,
			const struct print_opts *po)
{
	size_t ne = parts_nevents(p);
	uint32_t ev = po->sort_event < ne ? po->sort_event : 0;

	/* the parts' totals are the file's: a transform moves costs
	 * between functions, not threads */
	fprintf(out, "Threads by %s (each the sum of its parts' totals)%s:\n\n",
		ne ? profile_str(p, p->events[ev].name) : "cost",
		po->transforms ? ", before the transforms" : "");
	group_table(out, p, po, true, ne, ev);
	if (parts_have_threads(p))
		fputs("\nA thread is valgrind's number for it (1 the main "
		      "thread, given again to a\nthread started after another "
		      "ended), not the kernel's.\n", out);
	else
		fputs("\nThe parts name no thread: Callgrind adds up every "
		      "thread's costs unless run\nwith --separate-threads=yes; "
		      "IgProf's parts are its buffers, a thread's each,\n"
		      "unnamed (--parts lists them).\n", out);
	fputs("\nProcesses (their threads' sums):\n\n", out);
	group_table(out, p, po, false, ne, ev);
}

/* the order of a timeline: by process, then dump (part number, else
 * the order in its file), then thread, then input */
static int by_time(const void *a, const void *b)
{
	const struct ppart *x = *(const struct ppart *const *)a;
	const struct ppart *y = *(const struct ppart *const *)b;
	uint64_t xn = x->number ? x->number : x->ordinal;
	uint64_t yn = y->number ? y->number : y->ordinal;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (xn != yn)
		return xn < yn ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

void print_parts(FILE *out, const struct profile *p,
		 const struct print_opts *po)
{
	size_t ne = parts_nevents(p), n = 0;
	uint32_t ev = po->sort_event < ne ? po->sort_event : 0;
	const struct ppart **order = xmalloc((p->nparts + 1) * sizeof(*order));
	uint64_t *total = xcalloc(ne + 1, sizeof(*total));
	char a[FMT_NUM_MAX], b[FMT_NUM_MAX];

	for (size_t i = 0; i < p->nparts; i++) {
		if (!p->parts[i].selected)
			continue;
		order[n++] = &p->parts[i];
		for (size_t e = 0; e < ne; e++)
			part_cost_add(p, e, &total[e],
				      ppart_cost(&p->parts[i], e));
	}
	qsort(order, n, sizeof(*order), by_time);
	fputs("Parts in the order dumped (by process, part number, thread), "
	      "with the basic\nblocks run from the start to the first and "
	      "last of each, why it was dumped,\nand its file:\n\n", out);
	fprintf(out, "%6s %8s %8s %12s %12s", "part", "pid", "thread",
		"from bb", "to bb");
	heads(out, p, ne);
	fputs("  trigger / file\n", out);
	for (size_t k = 0; k < n; k++) {
		const struct ppart *pt = order[k];
		const char *path = profile_str(p, p->inputs[pt->input].path);
		const char *base = strrchr(path, '/');
		uint64_t *cost = xcalloc(ne + 1, sizeof(*cost));

		for (size_t e = 0; e < ne; e++)
			cost[e] = ppart_cost(pt, e);
		fprintf(out, "%6llu ", (unsigned long long)(pt->number
								 ? pt->number
								 : pt->ordinal));
		id_column(out, pt->pid, 8);
		fputc(' ', out);
		id_column(out, pt->tid, 8);
		if (pt->has_range)
			fprintf(out, " %12s %12s",
				fmt_count(a, pt->bb_from, po->digit_groups),
				fmt_count(b, pt->bb_to, po->digit_groups));
		else
			fprintf(out, " %12s %12s", "-", "-");
		figures(out, p, cost, total, ne, ev, po->digit_groups);
		fprintf(out, "  %s / %s\n",
			pt->trigger == NO_NAME ? "-"
					       : profile_str(p, pt->trigger),
			base ? base + 1 : path);
		free(cost);
	}
	fprintf(out, "%6s %8s %8s %12s %12s", "all", "", "", "", "");
	figures(out, p, total, total, ne, ev, po->digit_groups);
	fputc('\n', out);
	free(total);
	free(order);
}

/* a number, or null for 0 (not given) */
static void json_id(FILE *out, const char *key, uint64_t id)
{
	if (id)
		fprintf(out, "\"%s\": %llu", key, (unsigned long long)id);
	else
		fprintf(out, "\"%s\": null", key);
}

/* ne numbers, null for an event the parts have none of (derived) */
static void json_costs(FILE *out, const uint64_t *cost, size_t ncost,
		       size_t ne)
{
	fputs(", \"cost\": [", out);
	for (size_t e = 0; e < ne; e++) {
		fputs(e ? ", " : "", out);
		if (e < ncost)
			fprintf(out, "%llu", (unsigned long long)cost[e]);
		else
			fputs("null", out);
	}
	fputc(']', out);
}

void json_parts(FILE *out, const struct profile *p, size_t ne)
{
	size_t nrec = parts_nevents(p);
	uint64_t *cost;

	/* perf.data's threads are its own "threads" (json_threads()) */
	if (p->nthreads || !p->nparts)
		return;
	if (parts_have_threads(p)) {
		struct part_group *g;
		size_t n = part_groups(p, true, nrec, &g);

		fputs(",\n \"threads\": [", out);
		for (size_t i = 0; i < n; i++) {
			fputs(i ? ",\n   {" : "{", out);
			json_id(out, "pid", g[i].pid);
			fputs(", ", out);
			json_id(out, "tid", g[i].tid);
			fputs(", \"comm\": ", out);
			json_name(out, p, g[i].name);
			fprintf(out, ", \"parts\": %u", g[i].nparts);
			json_costs(out, g[i].cost, nrec, ne);
			fputc('}', out);
		}
		fputc(']', out);
		part_groups_free(g, n);
	}
	if (p->nparts < 2)
		return;
	cost = xcalloc(nrec + 1, sizeof(*cost));
	fputs(",\n \"parts\": [", out);
	for (size_t i = 0; i < p->nparts; i++) {
		const struct ppart *pt = &p->parts[i];

		fprintf(out, "%s{\"input\": %u, \"ordinal\": %u, ",
			i ? ",\n   " : "", pt->input, pt->ordinal);
		json_id(out, "part", pt->number);
		fputs(", ", out);
		json_id(out, "pid", pt->pid);
		fputs(", ", out);
		json_id(out, "tid", pt->tid);
		fputs(", \"comm\": ", out);
		json_name(out, p, pt->name);
		fputs(", \"trigger\": ", out);
		json_name(out, p, pt->trigger);
		if (pt->has_range)
			fprintf(out, ", \"bb\": [%llu, %llu]",
				(unsigned long long)pt->bb_from,
				(unsigned long long)pt->bb_to);
		else
			fputs(", \"bb\": null", out);
		fprintf(out, ", \"selected\": %s, \"from_totals\": %s",
			pt->selected ? "true" : "false",
			pt->from_totals ? "true" : "false");
		for (size_t e = 0; e < nrec; e++)
			cost[e] = ppart_cost(pt, e);
		json_costs(out, cost, nrec, ne);
		fputc('}', out);
	}
	fputc(']', out);
	free(cost);
}
