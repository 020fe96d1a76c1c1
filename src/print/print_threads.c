/*
 * perf.data's threads and processes with their samples and costs
 * (--threads), and the line that says which stretch of time --time
 * kept. A thread's figures are perf report --sort pid -n's (its pid
 * key is the thread); a process's are its threads' sums.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/time_slice.h"
#include "base/xalloc.h"
#include "fmt.h"
#include "json_write.h"
#include "print.h"

#define NS_PER_S 1000000000ull

static const struct profile *sort_p;
static uint32_t sort_ev;

/* by the sort event's cost, largest first, as perf report; then pid,
 * tid */
static int by_cost(const void *a, const void *b)
{
	const struct pthread_total *x = &sort_p->threads[*(const size_t *)a];
	const struct pthread_total *y = &sort_p->threads[*(const size_t *)b];

	if (x->cost[sort_ev] != y->cost[sort_ev])
		return x->cost[sort_ev] > y->cost[sort_ev] ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* a comm, escaped as the listings escape names: a process may name
 * itself with a terminal's escape sequence (prctl(PR_SET_NAME)) */
static const char *comm_of(const struct profile *p, name_id comm, char *buf,
			   size_t size)
{
	return comm == NO_NAME ? "[unknown]"
			       : name_escaped(profile_str(p, comm), buf, size);
}

/* events' columns: samples and cost of each; the share of the sort
 * event's */
static void heads(FILE *out, const struct profile *p, size_t ne)
{
	for (size_t e = 0; e < ne; e++)
		fprintf(out, "  %9s %15s", "samples",
			profile_str(p, p->events[e].name));
	fputs("   share\n", out);
}

static void figures(FILE *out, const uint64_t *samples, const uint64_t *cost,
		    const uint64_t *total, size_t ne, uint32_t ev, bool groups)
{
	char a[FMT_NUM_MAX], b[FMT_NUM_MAX];

	for (size_t e = 0; e < ne; e++)
		fprintf(out, "  %9s %15s", fmt_count(a, samples[e], groups),
			fmt_count(b, cost[e], groups));
	fprintf(out, "  %5.2f%%\n",
		total[ev] ? 100.0 * (double)cost[ev] / (double)total[ev] : 0.0);
}

/* threads by pid, the main thread (tid == pid) first */
static int by_pid(const void *a, const void *b)
{
	const struct pthread_total *x = &sort_p->threads[*(const size_t *)a];
	const struct pthread_total *y = &sort_p->threads[*(const size_t *)b];
	bool xm = x->tid == x->pid, ym = y->tid == y->pid;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (xm != ym)
		return xm ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

struct process {
	uint32_t pid, nthreads;
	name_id comm;		/* its main thread's, else its first's */
	uint64_t *samples, *cost;
};

static int proc_by_cost(const void *a, const void *b)
{
	const struct process *x = a, *y = b;

	if (x->cost[sort_ev] != y->cost[sort_ev])
		return x->cost[sort_ev] > y->cost[sort_ev] ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The processes, their threads' sums, largest first; order is scratch
 * (nthreads entries). */
static void print_processes(FILE *out, const struct profile *p,
			    const struct print_opts *po, size_t *order,
			    const uint64_t *total)
{
	size_t ne = p->threads_nevents, np = 0;
	struct process *procs = xcalloc(p->nthreads + 1, sizeof(*procs));
	uint64_t *sums = xcalloc(2 * ne * p->nthreads + 1, sizeof(*sums));

	qsort(order, p->nthreads, sizeof(*order), by_pid);
	for (size_t k = 0; k < p->nthreads; k++) {
		const struct pthread_total *t = &p->threads[order[k]];
		struct process *pr = &procs[np ? np - 1 : 0];

		if (!np || pr->pid != t->pid) {
			pr = &procs[np];
			pr->pid = t->pid;
			pr->comm = t->comm;
			pr->samples = sums + 2 * ne * np;
			pr->cost = pr->samples + ne;
			np++;
		}
		pr->nthreads++;
		for (size_t e = 0; e < ne; e++) {
			pr->samples[e] += t->samples[e];
			pr->cost[e] += t->cost[e];
		}
	}
	qsort(procs, np, sizeof(*procs), proc_by_cost);
	fprintf(out, "\nProcesses (their threads' sums):\n\n%8s %8s  %-16s",
		"pid", "threads", "command");
	heads(out, p, ne);
	for (size_t k = 0; k < np; k++) {
		char comm[256];

		fprintf(out, "%8d %8u  %-16s", (int32_t)procs[k].pid,
			procs[k].nthreads,
			comm_of(p, procs[k].comm, comm, sizeof(comm)));
		figures(out, procs[k].samples, procs[k].cost, total, ne,
			sort_ev, po->digit_groups);
	}
	free(sums);
	free(procs);
}

void print_threads(FILE *out, const struct profile *p,
		   const struct print_opts *po)
{
	size_t ne = p->threads_nevents;
	uint32_t ev = po->sort_event < ne ? po->sort_event : 0;
	size_t *order = xmalloc((p->nthreads + 1) * sizeof(*order));
	uint64_t *sum = xcalloc(4 * ne + 1, sizeof(*sum));
	uint64_t *total = sum + 2 * ne, *tsamples = sum + 3 * ne;

	for (size_t i = 0; i < p->nthreads; i++) {
		order[i] = i;
		for (size_t e = 0; e < ne; e++) {
			total[e] += p->threads[i].cost[e];
			tsamples[e] += p->threads[i].samples[e];
		}
	}
	sort_p = p;
	sort_ev = ev;
	qsort(order, p->nthreads, sizeof(*order), by_cost);
	/* the samples' threads are the recording's: a transform moves
	 * costs between functions, not threads */
	fprintf(out, "Threads by %s (as perf report --sort pid -n)%s:\n\n",
		ne ? profile_str(p, p->events[ev].name) : "samples",
		po->transforms ? ", before the transforms" : "");
	fprintf(out, "%8s %8s  %-16s", "pid", "tid", "command");
	heads(out, p, ne);
	for (size_t k = 0; k < p->nthreads; k++) {
		const struct pthread_total *t = &p->threads[order[k]];
		char comm[256];

		/* as perf prints them: -1 where the kernel gave no task */
		fprintf(out, "%8d %8d  %-16s", (int32_t)t->pid, (int32_t)t->tid,
			comm_of(p, t->comm, comm, sizeof(comm)));
		figures(out, t->samples, t->cost, total, ne, ev,
			po->digit_groups);
	}
	fprintf(out, "%8s %8s  %-16s", "", "", "all");
	figures(out, tsamples, total, total, ne, ev, po->digit_groups);

	print_processes(out, p, po, order, total);
	free(sum);
	free(order);
}

/* ns as seconds with 6 decimals, perf script's form */
static void secs(FILE *out, const char *sign, uint64_t ns)
{
	fprintf(out, "%s%llu.%06llu", sign,
		(unsigned long long)(ns / NS_PER_S),
		(unsigned long long)(ns % NS_PER_S / 1000));
}

void print_time_header(FILE *out, const struct profile *p, const char *prefix)
{
	if (!p->time_spec)
		return;
	for (size_t i = 0; i < p->ninputs; i++) {
		const struct pinput *in = &p->inputs[i];
		struct time_range r[TIME_SLICES_MAX];

		if (!in->timed)
			continue;
		time_spec_resolve(p->time_spec, in->time_first, in->time_last,
				  r);
		fprintf(out, "%sTime (--time=%s): %llu of %s's %llu samples%s, "
			"recorded", prefix, p->time_spec->text,
			(unsigned long long)in->time_kept,
			profile_str(p, in->path),
			(unsigned long long)in->time_all,
			in->time_of_chosen ? " of the threads chosen" : "");
		for (size_t k = 0; k < p->time_spec->n; k++) {
			uint64_t a = r[k].start < in->time_first
					     ? in->time_first : r[k].start;
			uint64_t b = r[k].end > in->time_last
					     ? in->time_last : r[k].end;

			fputs(k ? "," : "", out);
			if (a > b) {
				fputs(" (outside the recording)", out);
				continue;
			}
			fputs(" from ", out);
			secs(out, "+", a - in->time_first);
			fputs(" s to ", out);
			secs(out, "+", b - in->time_first);
			fputs(" s (", out);
			secs(out, "", a);
			fputs(" to ", out);
			secs(out, "", b);
			fputs(")", out);
		}
		fputs(" of +", out);
		secs(out, "", in->time_last - in->time_first);
		fputs(" s\n", out);
	}
}

/* --json: an input's "time", after its other fields */
void json_input_time(FILE *out, const struct profile *p,
		     const struct pinput *in)
{
	struct time_range r[TIME_SLICES_MAX];

	if (!in->timed || !p->time_spec)
		return;
	time_spec_resolve(p->time_spec, in->time_first, in->time_last, r);
	fputs(", \"time\": {\"spec\": ", out);
	json_string(out, p->time_spec->text, strlen(p->time_spec->text));
	fprintf(out, ", \"first_ns\": %llu, \"last_ns\": %llu, \"ranges_ns\": [",
		(unsigned long long)in->time_first,
		(unsigned long long)in->time_last);
	for (size_t k = 0; k < p->time_spec->n; k++)
		fprintf(out, "%s[%llu, %llu]", k ? ", " : "",
			(unsigned long long)r[k].start,
			(unsigned long long)(r[k].end < in->time_last
						     ? r[k].end
						     : in->time_last));
	fprintf(out, "], \"samples\": %llu, \"kept\": %llu}",
		(unsigned long long)in->time_all,
		(unsigned long long)in->time_kept);
}

/* --json: "threads", each's samples and cost per event (null for an
 * event made after them: derived) */
void json_threads(FILE *out, const struct profile *p, size_t ne)
{
	if (!p->nthreads)
		return;
	fputs(",\n \"threads\": [", out);
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct pthread_total *t = &p->threads[i];

		fprintf(out, "%s{\"pid\": %d, \"tid\": %d, \"comm\": ",
			i ? ",\n   " : "", (int32_t)t->pid, (int32_t)t->tid);
		json_name(out, p, t->comm);
		for (int k = 0; k < 2; k++) {
			const uint64_t *v = k ? t->cost : t->samples;

			fputs(k ? ", \"cost\": [" : ", \"samples\": [", out);
			for (size_t e = 0; e < ne; e++) {
				fputs(e ? ", " : "", out);
				if (e < p->threads_nevents)
					fprintf(out, "%llu",
						(unsigned long long)v[e]);
				else
					fputs("null", out);
			}
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputc(']', out);
}

void print_time_notes(const struct profile *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	if (!p->time_spec || !(m = open_memstream(&text, &len)))
		return;
	print_time_header(m, p, "");
	fclose(m);
	for (char *line = text, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		note("%.*s", (int)(nl - line), line);
		if (!*nl)
			break;
	}
	free(text);
}
