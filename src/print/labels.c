/*
 * What the listings share: function labels (with the file or index
 * that tells apart functions of one name), event titles and column
 * names, and which call graph entries are shown.
 */
#include <stdlib.h>
#include <string.h>

#include "base/path.h"
#include "base/xalloc.h"
#include "linebuf.h"
#include "print.h"
#include "short_names.h"

struct name_labels {
	bool *shared;		/* per function: another has its name */
	const bool *listed;	/* graph entries, or NULL: all */
	/* every function's label with its index, one after another
	 * (name_labels_keep()), or NULL */
	char *text;
	size_t *start;		/* of function f's; start[nfuncs] the end */
	/* per function (--short-names): the level its name is shortened
	 * at (short_names.h), or NULL */
	uint8_t *short_level;
};

/* Function f's name shortened at `level`, appended to lb as a C string
 * (up to a "\0", as the labels were when they were kept as strings). */
static void put_short_name(struct linebuf *lb, const struct profile *p,
			   uint32_t f, int level)
{
	name_id name = p->funcs[f].name;
	size_t len = names_len(&p->names, name);
	char *dst = lb_room(lb, len + 1);
	size_t n = shorten_name(profile_str(p, name), len, level, dst);

	lb->len += strnlen(dst, n);
}

static void short_name_text(void *ctx, uint32_t f, int level,
			    struct linebuf *lb)
{
	put_short_name(lb, ctx, f, level);
}

/* Every function's name as short as it can be without looking like
 * another function's (but for functions of one name, which the label's
 * file tells apart). Only each one's level is kept, and the name is
 * shortened again where it is written: a report labels every function
 * (674,580 in many.60, whose 60 copies of each name take every label
 * up to the whole name), and their strings were tens of MB of its
 * peak. */
static void shorten_all(struct name_labels *nl, const struct profile *p)
{
	uint32_t *all = xcalloc(p->nfuncs + 1, sizeof(*all));

	for (size_t f = 0; f < p->nfuncs; f++)
		all[f] = (uint32_t)f;
	nl->short_level = xcalloc(p->nfuncs + 1, sizeof(*nl->short_level));
	unique_short_levels(nl->short_level, all, p->nfuncs, SHORT_NONE,
			    short_name_text, (void *)p, p->nfuncs);
	free(all);
}

struct name_labels *name_labels_new(const struct cg *cg,
				    const struct print_opts *o)
{
	const struct profile *p = cg->p;
	struct name_labels *nl = xcalloc(1, sizeof(*nl));
	/* per name: how many functions have it, counted to 2; name ids
	 * are dense, so an array (a byte a name) where a hash map took 12
	 * bytes a slot at under half load: 38 MB on 700,000 functions */
	uint8_t *count = xcalloc(p->names.nr + 1, 1);
	uint8_t *unnamed = &count[p->names.nr];	/* NO_NAME's */

	nl->shared = xcalloc(p->nfuncs + 1, sizeof(*nl->shared));
	for (size_t f = 0; f < p->nfuncs; f++) {
		name_id name = p->funcs[f].name;
		uint8_t *c = name < p->names.nr ? &count[name] : unnamed;

		if (*c < 2)
			(*c)++;
	}
	for (size_t f = 0; f < p->nfuncs; f++) {
		name_id name = p->funcs[f].name;

		nl->shared[f] = (name < p->names.nr ? count[name] : *unnamed) > 1;
	}
	free(count);
	if (o && o->short_names)
		shorten_all(nl, p);
	return nl;
}

void name_labels_set_listed(struct name_labels *nl, const bool *listed)
{
	nl->listed = listed;
}

void name_labels_keep(struct name_labels *nl, const struct cg *cg)
{
	size_t n = cg->p->nfuncs;
	struct linebuf lb = { 0 };

	nl->start = xcalloc(n + 1, sizeof(*nl->start));
	for (size_t f = 0; f < n; f++) {
		nl->start[f] = lb.len;
		lb_func_label(&lb, nl, cg, (uint32_t)f, true);
	}
	nl->start[n] = lb.len;
	nl->text = lb.s ? lb.s : xcalloc(1, 1);
}

void name_labels_free(struct name_labels *nl)
{
	if (!nl)
		return;
	free(nl->short_level);
	free(nl->text);
	free(nl->start);
	free(nl->shared);
	free(nl);
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/*
 * The label's text from `start` on with its control characters written
 * as C escapes (\n, \t, \r, \xHH): a name is bytes from the profile
 * or a binary, of another machine maybe, and a newline in one cut its
 * row in two for grep, an escape sequence recoloured the terminal
 * (callgrind_annotate, perf report and go tool pprof print them as they
 * are). Names without any, all real ones, are left as they were.
 */
static void escape_controls(struct linebuf *lb, size_t start)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = start, n;
	char *tail;

	while (i < lb->len && !is_control((unsigned char)lb->s[i]))
		i++;
	if (i == lb->len)
		return;
	n = lb->len - i;
	tail = xmalloc(n);
	memcpy(tail, lb->s + i, n);
	lb->len = i;
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)tail[k];

		if (!is_control(c)) {
			lb_putc(lb, (char)c);
			continue;
		}
		lb_putc(lb, '\\');
		if (c == '\n' || c == '\t' || c == '\r') {
			lb_putc(lb, c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		} else {
			lb_putc(lb, 'x');
			lb_putc(lb, hex[c >> 4]);
			lb_putc(lb, hex[c & 15]);
		}
	}
	free(tail);
}

const char *name_escaped(const char *s, char *buf, size_t size)
{
	struct linebuf lb = { 0 };
	size_t n;

	for (n = 0; s[n]; n++)
		if (is_control((unsigned char)s[n]))
			break;
	if (!s[n] || !size)
		return s;
	lb_puts(&lb, s);
	escape_controls(&lb, n);
	n = lb.len < size - 1 ? lb.len : size - 1;
	memcpy(buf, lb.s, n);
	buf[n] = '\0';
	lb_free(&lb);
	return buf;
}

void lb_func_label(struct linebuf *lb, const struct name_labels *nl,
		   const struct cg *cg, uint32_t func, bool index)
{
	const struct profile *p = cg->p;
	const struct pfunc *f = &p->funcs[func];
	const struct cg_node *node = &cg->nodes[func];
	size_t start = lb->len;
	char num[20];

	if (index && nl->text) {
		lb_putn(lb, nl->text + nl->start[func],
			nl->start[func + 1] - nl->start[func]);
		return;
	}
	if (nl->short_level)
		put_short_name(lb, p, func, nl->short_level[func]);
	else
		lb_putn(lb, profile_str(p, f->name),
			names_len(&p->names, f->name));
	if (nl->shared[func]) {
		lb_puts(lb, " (");
		/* perf.data's functions have an object and no file */
		if (f->object != NO_NAME) {
			lb_puts(lb, path_base(profile_str(p, f->object)));
			if (f->file != NO_NAME)
				lb_puts(lb, ": ");
		}
		if (f->file != NO_NAME)
			lb_puts(lb, profile_str(p, f->file));
		lb_putc(lb, ')');
	}
	escape_controls(lb, start);
	if (node->cycle != NO_ID) {
		lb_puts(lb, " <cycle ");
		lb_putn(lb, num, fmt_u64(num, cg->cycles[node->cycle].number));
		lb_putc(lb, '>');
	}
	if (index && node->index) {
		bool listed = !nl->listed || nl->listed[func];

		lb_puts(lb, listed ? " [" : " (");
		lb_putn(lb, num, fmt_u64(num, node->index));
		lb_putc(lb, listed ? ']' : ')');
	}
}

const char *func_label(const struct name_labels *nl, const struct cg *cg,
		       uint32_t func, bool index, char *buf, size_t size)
{
	struct linebuf lb = { 0 };

	lb_func_label(&lb, nl, cg, func, index);
	if (size) {
		size_t n = lb.len < size - 1 ? lb.len : size - 1;

		memcpy(buf, lb.s, n);
		buf[n] = '\0';
	}
	lb_free(&lb);
	return buf;
}

void fprint_event_title(FILE *out, const struct profile *p, uint32_t event)
{
	const struct pevent *e = &p->events[event];

	fputs(profile_str(p, e->name), out);
	if (e->long_name != NO_NAME)
		fprintf(out, " (%s)", profile_str(p, e->long_name));
}

double entry_total(const struct cg *cg, const struct cg_entry *e, uint32_t ev)
{
	return e->is_cycle
		? cg_cycle_self(cg, e->id, ev) + cg_cycle_child(cg, e->id, ev)
		: cg_node_self(cg, e->id, ev) + cg_node_child(cg, e->id, ev);
}

bool entry_below(const struct cg *cg, const struct print_opts *o,
		 const struct cg_entry *e, uint32_t ev, double total)
{
	return o->threshold > 0 && total > 0 &&
	       entry_total(cg, e, ev) * 100 / total < o->threshold;
}

bool entry_shown(const struct cg *cg, const struct print_opts *o,
		 const struct cg_entry *e, uint32_t ev, double total)
{
	if (entry_below(cg, o, e, ev, total))
		return false;
	if (e->is_cycle)
		return !o->cycle_listed || o->cycle_listed[e->id];
	return !o->graph_listed || o->graph_listed[e->id];
}

bool listed_in_seconds(const struct profile *p, uint32_t e)
{
	/* gmon.out's, also once transformed (its estimate then in the
	 * stacks: arc_stacks.c) */
	return (p->est_self || p->stacks_estimated) &&
	       p->events[e].unit_seconds > 0;
}

const char *event_column_name(const struct profile *p, uint32_t event)
{
	if (listed_in_seconds(p, event))
		return "ticks";
	return profile_str(p, p->events[event].name);
}

const char *event_cost_unit(const struct profile *p, uint32_t event)
{
	if (listed_in_seconds(p, event) || p->events[event].unit == NO_NAME)
		return NULL;
	return profile_str(p, p->events[event].unit);
}

void print_left_out(FILE *out, size_t n, const char *what, double threshold)
{
	if (!n)
		return;
	fprintf(out, "(%zu more %s%s below %g%% of the total: "
		"--threshold=0 lists them all)\n", n,
		!strcmp(what, "entry") && n != 1 ? "entri" : what,
		n == 1 ? "" : !strcmp(what, "entry") ? "es" : "s", threshold);
}

uint64_t func_samples(const struct profile *p, uint32_t f, uint32_t ev)
{
	if (!p->sampled || !p->func_count)
		return 0;
	return profile_func_row(p, p->func_count, f)[ev];
}

void fprint_total(FILE *out, const struct profile *p, uint32_t ev,
		  bool groups)
{
	char buf[FMT_NUM_MAX];
	uint64_t samples = 0;

	/* a maximum's total is the largest value, not a sum */
	if (profile_event_max(p, ev))
		fputs("the largest ", out);
	fputs(fmt_count(buf, p->totals[ev], groups), out);
	if (p->events[ev].unit != NO_NAME)
		fprintf(out, " %s", profile_str(p, p->events[ev].unit));
	/* pprof's "samples": the total is their count, said once */
	else if (p->sampled && p->events[ev].sample_count)
		fputs(p->totals[ev] == 1 ? " sample" : " samples", out);
	if (!profile_event_max(p, ev))
		fputs(" in all", out);
	if (!p->sampled || p->events[ev].sample_count)
		return;
	for (uint32_t f = 0; f < p->nfuncs; f++)
		samples += func_samples(p, f, ev);
	fprintf(out, ", %s sample%s", fmt_count(buf, samples, groups),
		samples == 1 ? "" : "s");
}
