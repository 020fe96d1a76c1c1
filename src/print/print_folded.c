/*
 * --output=folded: the flame graph's paths as collapsed stacks, one
 * "outer;inner;leaf VALUE" line per path with cost of its own, the
 * input of flamegraph.pl, inferno and speedscope. Values are whole
 * units; an estimate's fractions are rounded so that the lines still
 * add up to the total (each line is the rounded running sum less what
 * was written before).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "flame_data.h"
#include "linebuf.h"
#include "print.h"

/* An estimate unfolds the arcs into paths down to this share of the
 * total, and at most this many (a compiler's profile has millions). */
#define FOLDED_MIN_SHARE 1e-5
#define FOLDED_MAX_NODES 2000000

/* A frame's name with the separators of the format made harmless: ';'
 * splits frames and a newline ends the line. */
static void put_frame(struct linebuf *lb, const struct name_labels *nl,
		      const struct cg *cg, const struct flame_node *n)
{
	size_t start = lb->len;

	if (n->func == NO_ID) {
		char buf[64];

		snprintf(buf, sizeof(buf), "<cycle %u as a whole>",
			 cg->cycles[n->cycle].number);
		lb_puts(lb, buf);
		return;
	}
	lb_func_label(lb, nl, cg, n->func, false);
	/* a path shows the cycle: no " <cycle N>" after its members */
	if (cg->nodes[n->func].cycle != NO_ID) {
		char tag[48];
		size_t k = (size_t)snprintf(tag, sizeof(tag), " <cycle %u>",
			cg->cycles[cg->nodes[n->func].cycle].number);

		if (lb->len - start >= k && !memcmp(lb->s + lb->len - k, tag, k))
			lb->len -= k;
	}
	for (size_t i = start; i < lb->len; i++)
		if (lb->s[i] == ';' || lb->s[i] == '\n' || lb->s[i] == '\r')
			lb->s[i] = '_';
}

void print_folded(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	uint32_t ev = o->sort_event;
	double min = (double)p->totals[ev] * FOLDED_MIN_SHARE;
	struct name_labels *nl = name_labels_new(cg, o);
	struct flame fl;
	struct linebuf lb = { 0 };
	size_t *len_at;		/* the path's length before each node */
	double sum = 0;
	uint64_t written = 0;

	flame_build(&fl, cg, ev, min, FOLDED_MAX_NODES);
	if (fl.estimated) {
		/* gmon.out's lines count ticks, not the seconds the listings
		 * print: the comment says so ("# seconds" over "main;fib 1"
		 * read as a second where gprof says 0.01) */
		if (listed_in_seconds(p, ev))
			fprintf(out, "# ticks of %g s", p->events[ev].unit_seconds);
		else
			fprintf(out, "# %s", profile_str(p, p->events[ev].name));
		fprintf(out, " estimated from call arcs: the profile has no "
			"stacks, so each function's inclusive cost is shared "
			"over its callers in proportion to the calls' inclusive "
			"costs, cycles as wholes%s\n",
			fl.full ? "; paths past 2,000,000 are cut" : "");
	}
	len_at = xcalloc(fl.nnodes + 1, sizeof(*len_at));
	/* depth first, without recursion: stacks can be 100,000 deep */
	for (uint32_t n = fl.first_root; n != NO_ID;) {
		const struct flame_node *fn = &fl.nodes[n];

		lb.len = fn->parent == NO_ID ? 0 : len_at[fn->parent];
		if (fn->parent != NO_ID)
			lb_putc(&lb, ';');
		put_frame(&lb, nl, cg, fn);
		len_at[n] = lb.len;
		if (fn->self > 0) {
			uint64_t upto;

			sum += fn->self;
			upto = (uint64_t)llround(sum);
			if (upto > written) {
				fwrite(lb.s, 1, lb.len, out);
				fprintf(out, " %llu\n",
					(unsigned long long)(upto - written));
				written = upto;
			}
		}
		if (fn->first_child != NO_ID) {
			n = fn->first_child;
			continue;
		}
		while (n != NO_ID && fl.nodes[n].next_sibling == NO_ID)
			n = fl.nodes[n].parent;
		if (n != NO_ID)
			n = fl.nodes[n].next_sibling;
	}
	free(len_at);
	lb_free(&lb);
	flame_release(&fl);
	name_labels_free(nl);
}
