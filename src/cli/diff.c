/*
 * The --diff command: two profiles read and matched function by
 * function (and line by line), and their differences listed as text
 * or JSON (see diff.h).
 */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/diag_keep.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "cg/cg.h"
#include "diff_main.h"
#include "task_check.h"
#include "print/diff_arcs.h"
#include "print/fmt.h"
#include "print/html_diff.h"
#include "print/json_write.h"
#include "print/print.h"
#include "read/read.h"
#include "resolve/perf_jitmap.h"

enum { BASE, NEW };
static const char *const side_name[2] = { "base", "new" };

/* Lines shown under each of this many functions with --diff-lines. */
#define LINE_FUNCS 10

struct side {
	const char *path;
	struct profile p;
	struct cg cg;
	uint32_t ev;
	uint64_t total;
	uint32_t *row;	/* by function: its row (the page's) */
};

/* A function of one side, under its normalised identity. */
struct key {
	const char *name, *file, *object;	/* file/object may be "" */
	uint8_t side;
	uint32_t func;
};

/* One normalised function, with what each side has of it. */
struct row {
	const char *name, *file, *object;
	bool in[2];
	uint64_t self[2], incl[2];
	size_t first_key, nkeys;	/* its keys[] */
};

/* A source line's self cost on each side. */
struct line_row {
	const char *file;
	uint32_t line;
	uint64_t cost[2];
};

struct diff {
	const struct options *o;
	struct side s[2];
	struct key *keys;
	size_t nkeys;
	struct row *rows;
	size_t nrows;
	/* each side's main program (normalised), NULL when not known;
	 * when they differ, whether they are compared as one object (NEW's
	 * then goes by BASE's name) and how many functions said so */
	const char *main_obj[2];
	bool mains_matched;
	struct mains_match mains;
	/* the calls between rows (--json's and the page's callers and
	 * callees), made once the rows are in their order */
	struct diff_arcs arcs;
};

static const char *strip(const struct options *o, const char *path)
{
	for (size_t i = 0; i < o->nstrip_prefixes; i++) {
		size_t n = strlen(o->strip_prefixes[i]);

		if (n && !strncmp(path, o->strip_prefixes[i], n))
			return path + n;
	}
	return path;
}

/*
 * Side k's -b binary (one for both sides, or BASE's then NEW's) applied
 * to its profile, as the listings apply it: gmon.out made functions,
 * other formats named and given lines. Returns 0, or -1 after reporting.
 */
static int resolve_side(struct diff *d, int k, struct symtab *st)
{
	const struct options *o = d->o;
	struct side *s = &d->s[k];
	int b = o->nbinaries > 1 ? k : 0;
	char *objects[1] = { o->binary_objects ? o->binary_objects[b] : NULL };
	struct resolve_opts rso = { .have_load_offset = o->have_load_offset,
				    .load_offset = o->load_offset,
				    .inlined = INLINE_CALLER,
				    .demangle = !o->no_demangle,
				    .want_positions = o->diff_lines,
				    /* the page's flame graphs: perf.data's */
				    .want_stacks = o->mode == OUT_HTML,
				    .force_binary = o->force_binary,
				    .objects = objects,
				    .debug_dir = o->debug_dir,
				    .kallsyms = o->kallsyms,
				    .sysroot = o->sysroot };
	struct resolve_report report;

	if (s->p.perf)
		return resolve_perf(&s->p, st ? &st : NULL, st ? 1 : 0, &rso,
				    &report);
	if (s->p.gmon)
		return resolve_gmon(&s->p, st, &rso, &report);
	return resolve_profile(&s->p, &st, 1, &rso, &report);
}

static int load_side(struct diff *d, int k, const char *path)
{
	const struct options *o = d->o;
	struct side *s = &d->s[k];
	struct read_opts ro = { .fold_recursion = o->fold_recursion,
				.lenient = o->lenient,
				.want_positions = o->diff_lines,
				.want_func_addrs = o->nbinaries > 0,
				/* the page's flame graphs: IgProf's stacks */
				.want_stacks = o->mode == OUT_HTML,
				/* IgProf's names demangled as read, as the
				 * listings have them */
				.demangle = options_read_demangler(o),
				.thread = o->reader_thread,
				.perf_unwinder = o->perf_unwinder,
				.perf_max_stack = o->max_stack };
	/* --pid, --tid, --comm and --time select the samples of both */
	struct perf_select sel = { .pids = o->pids, .npids = o->npids,
				   .tids = o->tids, .ntids = o->ntids,
				   .comms = o->comms, .time = o->time };
	int b = o->nbinaries > 1 ? k : 0;
	const char *objects[1] = { o->binary_objects ? o->binary_objects[b]
						     : NULL };
	struct perf_files files = {
		.binaries = (const char *const *)o->binaries + b,
		.objects = objects,
		.nbinaries = o->nbinaries ? 1 : 0,
		.sysroot = o->sysroot,
		.debug_dir = o->debug_dir,
	};
	struct read_target target;
	struct symtab *st = NULL;
	int ret = 1;

	s->path = path;
	ro.perf_files = &files;
	ro.perf_select = &sel;
	if (o->nbinaries) {
		if (open_binary(o, &s->p.names,
				o->binaries[o->nbinaries > 1 ? k : 0], &st) < 0)
			return 1;
		target.binary = st->path;
		target.addr_size = st->elf_class == 2 /* ELFCLASS64 */ ? 8 : 4;
		target.big_endian = st->big_endian;
		ro.target = &target;
	}
	if (read_profile(&s->p, path, &ro) < 0)
		goto out;
	/* --pid, --tid, --comm, --time, and the options of some formats
	 * (--kallsyms, ...): honoured or refused for this side's format, as
	 * for one profile */
	if ((ret = task_check(o, &s->p)) != 0 ||
	    (ret = hint_check(o, &s->p)) != 0)
		goto out;
	ret = 1;
	/* perf.data is always resolved: it holds addresses and stacks */
	if ((st || s->p.perf) && resolve_side(d, k, st) < 0)
		goto out;
	ret = 0;
out:
	if (st) {
		symtab_release(st);
		free(st);
	}
	if (ret)
		return ret;
	profile_finish(&s->p);
	/* gmon.out: percentages are of every tick, as in the listings */
	if (s->p.est_self && s->p.nevents)
		s->p.totals[0] = (uint64_t)s->p.est_total;
	if (!s->p.nevents) {
		error("%s: no events in the profile", path);
		return 1;
	}
	return 0;
}

/*
 * The two sides' costs of the event must be of one unit: a gmon.out
 * sampled at 1000 Hz against one at 100 Hz, or IgProf ticks of 1 ms
 * against ticks of 10 ms, were compared tick for tick ("+0, no
 * function's cost changed" for a run ten times shorter).
 */
static int same_units(const struct diff *d, const char *name)
{
	const struct pevent *b = &d->s[BASE].p.events[d->s[BASE].ev];
	const struct pevent *n = &d->s[NEW].p.events[d->s[NEW].ev];
	const char *bu = b->unit == NO_NAME ? NULL
				: profile_str(&d->s[BASE].p, b->unit);
	const char *nu = n->unit == NO_NAME ? NULL
				: profile_str(&d->s[NEW].p, n->unit);

	if (b->unit_seconds != n->unit_seconds)
		return error("%s (%s) counts '%s' in ticks of %g s and %s (%s) "
			     "in ticks of %g s: their numbers are not of one "
			     "unit and cannot be compared", d->s[NEW].path,
			     side_name[NEW], name, n->unit_seconds,
			     d->s[BASE].path, side_name[BASE],
			     b->unit_seconds);
	if ((bu || nu) && (!bu || !nu || strcmp(bu, nu)))
		return error("%s (%s) counts '%s' in %s and %s (%s) in %s: "
			     "their numbers are not of one unit and cannot be "
			     "compared", d->s[NEW].path, side_name[NEW], name,
			     nu ? nu : "units of its own", d->s[BASE].path,
			     side_name[BASE], bu ? bu : "units of its own");
	return 0;
}

/* The event compared: --sort's, or BASE's first; both must have it. */
static int pick_event(struct diff *d)
{
	const char *name = d->o->sort_event ? d->o->sort_event
		: profile_str(&d->s[BASE].p, d->s[BASE].p.events[0].name);

	for (int k = 0; k < 2; k++) {
		uint32_t e = profile_find_event(&d->s[k].p, name);

		if (e == NO_ID)
			return error("%s (%s) has no event '%s' (its first is "
				     "'%s'; --sort=EVENT picks one both have)",
				     d->s[k].path, side_name[k], name,
				     profile_str(&d->s[k].p,
						 d->s[k].p.events[0].name));
		d->s[k].ev = e;
		d->s[k].total = d->s[k].p.totals[e];
	}
	return same_units(d, name);
}

static void analyse_side(struct side *s)
{
	cg_build(&s->cg, &s->p, s->ev);
	cg_find_cycles(&s->cg);
	if (s->p.est_self)
		cg_propagate_estimated(&s->cg, s->p.est_self);
	else
		cg_propagate_measured(&s->cg);
}

static int cmp_key(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (!c)
		c = strcmp(a->file, b->file);
	if (!c)
		c = strcmp(a->object, b->object);
	if (!c)
		c = (int)a->side - (int)b->side;
	return c;
}

static bool same_key(const struct key *a, const struct key *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->file, b->file) &&
	       !strcmp(a->object, b->object);
}

/* Keys of both sides, sorted; runs of equal keys become rows. */
/* Function f's inclusive cost of the side's event: measured, or
 * gprof's estimate for gmon.out, in whole units. incl has room for a
 * row. */
static uint64_t side_incl(const struct side *s, uint32_t f, uint64_t *incl)
{
	if (s->p.est_self)
		return (uint64_t)llround(cg_node_self(&s->cg, f, s->ev) +
					 cg_node_child(&s->cg, f, s->ev));
	cg_inclusive_row(&s->cg, f, incl);
	return incl[s->ev];
}

/* The functions of side k's object ob, normalised; malloc'd, *n. */
static struct main_fn *object_fns(const struct diff *d, int k, name_id ob,
				  size_t *n)
{
	const struct profile *p = &d->s[k].p;
	struct main_fn *v = xcalloc(p->nfuncs + 1, sizeof(*v));

	*n = 0;
	for (size_t f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].object == ob) {
			v[*n].name = profile_str(p, p->funcs[f].name);
			v[*n].file = strip(d->o, profile_str(p, p->funcs[f].file));
			(*n)++;
		}
	return v;
}

/*
 * Each side's main program, and whether the two, under two paths, are
 * compared as one object (diff_main.h); said once. Returns NEW's main
 * object to take BASE's name, or NO_NAME.
 */
static name_id match_mains(struct diff *d, uint64_t *const fincl[2])
{
	name_id ob[2];
	struct main_fn *fns[2];
	size_t n[2];

	for (int k = 0; k < 2; k++) {
		ob[k] = diff_main_object(&d->s[k].p, fincl[k]);
		if (ob[k] == NO_NAME)
			return NO_NAME;
		d->main_obj[k] = strip(d->o, profile_str(&d->s[k].p, ob[k]));
	}
	if (!strcmp(d->main_obj[BASE], d->main_obj[NEW]))
		return NO_NAME;
	for (int k = 0; k < 2; k++)
		fns[k] = object_fns(d, k, ob[k], &n[k]);
	d->mains_matched = diff_mains_match(fns[BASE], n[BASE], fns[NEW],
					    n[NEW], &d->mains);
	free(fns[BASE]);
	free(fns[NEW]);
	if (d->mains_matched)
		note("the main programs '%s' (base) and '%s' (new) are compared "
		     "as one object: %zu function%s in both by name%s",
		     d->main_obj[BASE], d->main_obj[NEW], d->mains.shared,
		     d->mains.shared == 1 ? "" : "s",
		     d->mains.by_file ? " and source file"
				      : " (no source file known)");
	else
		note("the main programs '%s' (base) and '%s' (new) have no "
		     "function in both by name%s: not compared as one object",
		     d->main_obj[BASE], d->main_obj[NEW],
		     d->mains.by_file ? " and source file" : "");
	return d->mains_matched ? ob[NEW] : NO_NAME;
}

static void match_functions(struct diff *d)
{
	uint64_t *incl, *fincl[2];
	size_t n = d->s[0].p.nfuncs + d->s[1].p.nfuncs;
	name_id renamed;

	incl = xcalloc(d->s[0].p.nevents + d->s[1].p.nevents + 1,
		       sizeof(*incl));
	for (int k = 0; k < 2; k++) {
		fincl[k] = xcalloc(d->s[k].p.nfuncs + 1, sizeof(*fincl[k]));
		for (size_t f = 0; f < d->s[k].p.nfuncs; f++)
			fincl[k][f] = side_incl(&d->s[k], (uint32_t)f, incl);
	}
	renamed = match_mains(d, fincl);
	d->keys = xcalloc(n + 1, sizeof(*d->keys));
	for (int k = 0; k < 2; k++) {
		const struct profile *p = &d->s[k].p;

		for (size_t f = 0; f < p->nfuncs; f++) {
			struct key *key = &d->keys[d->nkeys++];

			key->name = profile_str(p, p->funcs[f].name);
			key->file = strip(d->o, profile_str(p, p->funcs[f].file));
			key->object = strip(d->o, profile_str(p, p->funcs[f].object));
			/* a JIT's code is the object of its process's map,
			 * /tmp/perf-PID.map: the same code of two runs is
			 * under two pids, one object for the comparison */
			if (jitmap_is_path(key->object))
				key->object = "/tmp/perf-PID.map";
			if (k == NEW && renamed != NO_NAME &&
			    p->funcs[f].object == renamed)
				key->object = d->main_obj[BASE];
			key->side = (uint8_t)k;
			key->func = (uint32_t)f;
		}
	}
	qsort(d->keys, d->nkeys, sizeof(*d->keys), cmp_key);
	d->rows = xcalloc(d->nkeys + 1, sizeof(*d->rows));
	for (size_t i = 0; i < d->nkeys;) {
		struct row *r = &d->rows[d->nrows++];

		r->name = d->keys[i].name;
		r->file = d->keys[i].file;
		r->object = d->keys[i].object;
		r->first_key = i;
		for (; i < d->nkeys && same_key(&d->keys[i], &d->keys[r->first_key]); i++) {
			const struct key *key = &d->keys[i];
			struct side *s = &d->s[key->side];

			r->in[key->side] = true;
			/* a maximum's (MEM_MAX) the larger, not the sum */
			profile_combine(&s->p, s->ev, &r->self[key->side],
					profile_self(&s->p, key->func)[s->ev]);
			/* two functions made one are each other's callers
			 * at most: the sum bounds it, the total caps it */
			profile_combine(&s->p, s->ev, &r->incl[key->side],
					fincl[key->side][key->func]);
			if (r->incl[key->side] > s->total)
				r->incl[key->side] = s->total;
			r->nkeys++;
		}
	}
	free(incl);
	free(fincl[BASE]);
	free(fincl[NEW]);
}

/*
 * The prefixes that make path a and path b the same: what is left of
 * each before their longest common tail that starts at a '/'
 * ("/tmp/a/prog.c", "/tmp/b/prog.c" -> "/tmp/a/", "/tmp/b/"). False
 * when they have no such tail, or it is all of one.
 */
static bool prefixes_of(const char *a, const char *b, size_t *na, size_t *nb)
{
	size_t la = strlen(a), lb = strlen(b), n = 0, tail = 0;

	while (n < la && n < lb && a[la - 1 - n] == b[lb - 1 - n]) {
		n++;
		if (a[la - n] == '/')
			tail = n - 1;	/* the tail after this '/' */
	}
	if (!tail || tail >= la || tail >= lb)
		return false;
	*na = la - tail;
	*nb = lb - tail;
	return true;
}

static int cmp_row_name(const void *x, const void *y)
{
	const struct row *a = *(const struct row *const *)x;
	const struct row *b = *(const struct row *const *)y;

	return strcmp(a->name, b->name);
}

/*
 * Functions only in base and only in new under one name and two paths
 * (two checkouts, two machines): say which --strip-path-prefix pair
 * joins them, from the first such function, and how many there are.
 */
static void suggest_strip(const struct diff *d)
{
	const struct row **one = xcalloc(d->nrows + 1, sizeof(*one));
	size_t n = 0, pairs = 0;
	char hint[2][512] = { "", "" };

	for (size_t i = 0; i < d->nrows; i++)
		if (d->rows[i].in[BASE] != d->rows[i].in[NEW])
			one[n++] = &d->rows[i];
	qsort(one, n, sizeof(*one), cmp_row_name);
	for (size_t i = 0, j; i < n; i = j) {
		const struct row *base = NULL, *new = NULL;

		for (j = i; j < n && !strcmp(one[j]->name, one[i]->name); j++)
			*(one[j]->in[BASE] ? &base : &new) = one[j];
		if (!base || !new)
			continue;
		for (int which = 0; which < 2; which++) {
			const char *a = which ? base->object : base->file;
			const char *b = which ? new->object : new->file;
			size_t na, nb;

			if (!strcmp(a, b) || !prefixes_of(a, b, &na, &nb))
				continue;
			if (!pairs++) {
				snprintf(hint[0], sizeof(hint[0]),
					 "--strip-path-prefix=%.*s "
					 "--strip-path-prefix=%.*s",
					 (int)na, a, (int)nb, b);
				snprintf(hint[1], sizeof(hint[1]),
					 "'%s' and '%s'", a, b);
			}
			break;
		}
	}
	if (pairs)
		note("%zu function%s only in base and only in new under two "
		     "paths (%s, ...): %s joins them", pairs,
		     pairs == 1 ? " is" : "s are", hint[1], hint[0]);
	free(one);
}

static uint64_t abs_delta(const uint64_t v[2])
{
	return v[NEW] > v[BASE] ? v[NEW] - v[BASE] : v[BASE] - v[NEW];
}

/* Largest change of self cost first, then of inclusive cost, then by
 * name: the order does not depend on the input's order. */
static int cmp_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	uint64_t da = abs_delta(a->self), db = abs_delta(b->self);

	if (da != db)
		return da > db ? -1 : 1;
	da = abs_delta(a->incl);
	db = abs_delta(b->incl);
	if (da != db)
		return da > db ? -1 : 1;
	return cmp_key(&(struct key){ a->name, a->file, a->object, 0, 0 },
		       &(struct key){ b->name, b->file, b->object, 0, 0 });
}

static bool row_listed(const struct diff *d, const struct row *r)
{
	double base = (double)d->s[BASE].total;
	double limit = d->o->threshold_given ? base * d->o->threshold / 100 : 0;
	uint64_t ds = abs_delta(r->self), di = abs_delta(r->incl);

	if (!ds && !di)
		return false;
	return !d->o->threshold_given || (double)ds >= limit ||
	       (double)di >= limit;
}

/* "+N" or "-N" into buf (FMT_NUM_MAX bytes); N grouped when `groups` */
static void fmt_delta(char *buf, const uint64_t v[2], bool groups)
{
	buf[0] = v[NEW] >= v[BASE] ? '+' : '-';
	fmt_count(buf + 1, v[NEW] >= v[BASE] ? v[NEW] - v[BASE]
					     : v[BASE] - v[NEW], groups);
}

static double pct_delta(const struct diff *d, const uint64_t v[2])
{
	double base = (double)d->s[BASE].total;
	double delta = (double)v[NEW] - (double)v[BASE];

	return base ? 100.0 * delta / base : 0;
}

/* ",\n   "KEY": [base, new], "KEY_delta": D, "KEY_delta_pct": P" */
/* The self cost's change as a percentage of the function's own base
 * self cost, in buf: "+25.00%", "new" when it had none in BASE, "" when
 * it has none on either side. */
static const char *own_change(char *buf, size_t size, const uint64_t v[2])
{
	if (!v[BASE])
		snprintf(buf, size, "%s", v[NEW] ? "new" : "");
	else
		snprintf(buf, size, "%+.2f%%",
			 ((double)v[NEW] - (double)v[BASE]) * 100.0 /
				 (double)v[BASE]);
	return buf;
}

static void json_cost_pair(FILE *out, const struct diff *d, const char *key,
			   const uint64_t v[2])
{
	char buf[FMT_NUM_MAX];

	fmt_delta(buf, v, false);
	fprintf(out, ",\n   \"%s\": [%llu, %llu], \"%s_delta\": %s, "
		"\"%s_delta_pct\": %.4f", key, (unsigned long long)v[BASE],
		(unsigned long long)v[NEW], key, buf[0] == '+' ? buf + 1 : buf,
		key, pct_delta(d, v));
}

/* ---- per line ---- */

static int cmp_line(const void *x, const void *y)
{
	const struct line_row *a = x, *b = y;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int cmp_line_delta(const void *x, const void *y)
{
	const struct line_row *a = x, *b = y;
	uint64_t da = abs_delta(a->cost), db = abs_delta(b->cost);

	if (da != db)
		return da > db ? -1 : 1;
	return cmp_line(x, y);
}

/* The row's positions by (file, line), both sides summed, nonzero
 * changes only, largest first; malloc'd, *n entries. */
static struct line_row *row_lines(const struct diff *d, const struct row *r,
				  size_t *n)
{
	struct line_row *lines = NULL;
	size_t nl = 0, alloc = 0, out = 0;

	for (size_t i = 0; i < r->nkeys; i++) {
		const struct key *key = &d->keys[r->first_key + i];
		const struct side *s = &d->s[key->side];
		const struct profile *p = &s->p;

		for (size_t q = 0; q < p->npos; q++) {
			const struct ppos *pos = &p->pos[q];
			name_id file = pos->file != NO_NAME ? pos->file
				       : p->funcs[pos->func].file;

			if (pos->func != key->func)
				continue;
			if (nl == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				lines = xreallocarray(lines, alloc, sizeof(*lines));
			}
			lines[nl].file = strip(d->o, profile_str(p, file));
			lines[nl].line = pos->line;
			lines[nl].cost[BASE] = lines[nl].cost[NEW] = 0;
			lines[nl].cost[key->side] = profile_pos_cost(p, (uint32_t)q)[s->ev];
			nl++;
		}
	}
	if (!nl) {
		*n = 0;
		return lines;
	}
	qsort(lines, nl, sizeof(*lines), cmp_line);
	for (size_t i = 0; i < nl; i++) {
		if (out && !cmp_line(&lines[out - 1], &lines[i])) {
			for (int k = BASE; k <= NEW; k++)
				profile_combine(&d->s[k].p, d->s[k].ev,
						&lines[out - 1].cost[k],
						lines[i].cost[k]);
		} else {
			lines[out++] = lines[i];
		}
	}
	nl = 0;
	for (size_t i = 0; i < out; i++)
		if (abs_delta(lines[i].cost))
			lines[nl++] = lines[i];
	qsort(lines, nl, sizeof(*lines), cmp_line_delta);
	*n = nl;
	return lines;
}

/* ---- text ---- */

static const char diff_blurb[] =
"Functions are matched by object, file and name (after --strip-path-prefix\n"
"and --fold-recursion; the two main programs count as one object when they\n"
"have a function of the same name and file in common) and sorted by the\n"
"size of the change of their self cost, then of their inclusive cost.\n"
"\"% base\" is the change as a percentage of the base profile's total;\n"
"\"% own\", the self cost's change as a percentage of the function's own\n"
"self cost in the base (\"new\" when it had none). A function only one\n"
"profile has is marked (only in base) or (only in new); functions that did\n"
"not change are left out.\n";

/* Whether event ev's costs are ticks of unit_seconds (gmon.out's
 * "seconds"), which --diff compares as ticks, not as seconds */
static bool in_ticks(const struct profile *p, uint32_t ev)
{
	return p->events[ev].unit_seconds > 0 && p->events[ev].unit_seconds != 1;
}

static void print_text(FILE *out, const struct diff *d, size_t listed)
{
	const struct profile *bp = &d->s[BASE].p;
	size_t below = 0;
	uint64_t totals[2] = { d->s[BASE].total, d->s[NEW].total };
	bool groups = !d->o->no_digit_groups;
	char ds[FMT_NUM_MAX], di[FMT_NUM_MAX], own[32];
	char b1[FMT_NUM_MAX], b2[FMT_NUM_MAX];
	/* every figure is at most the larger total (and a sign) wide */
	int w = (int)strlen(fmt_count(b1, totals[0] > totals[1] ? totals[0]
							      : totals[1],
				      groups)) + 1;

	if (w < 12)
		w = 12;
	/* --time: each side's stretch, as the listings' first line */
	for (int k = BASE; k <= NEW; k++)
		print_time_header(out, &d->s[k].p, "");
	fmt_delta(ds, totals, groups);
	fprintf(out, "Differences in ");
	fprint_event_title(out, bp, d->s[BASE].ev);
	/* gmon.out's "seconds" are counted in ticks: say so */
	if (in_ticks(bp, d->s[BASE].ev))
		fprintf(out, " (in ticks of %g s)",
			bp->events[d->s[BASE].ev].unit_seconds);
	{
		/* a maximum's total is its largest value (MEM_MAX) */
		bool max = profile_event_max(bp, d->s[BASE].ev);
		/* the unit the flat profile's title gives ("ns", "bytes") */
		name_id un = bp->events[d->s[BASE].ev].unit;
		const char *unit = un != NO_NAME && !in_ticks(bp, d->s[BASE].ev)
				   ? profile_str(bp, un) : NULL;

		fprintf(out, " from %s (base, %s%s%s%s%s) to %s (new, %s%s%s%s%s): "
			"%s (%+.2f%%)\n\n", d->s[BASE].path,
			max ? "the largest " : "",
			fmt_count(b1, totals[BASE], groups),
			unit ? " " : "", unit ? unit : "",
			max ? "" : " in all", d->s[NEW].path,
			max ? "the largest " : "",
			fmt_count(b2, totals[NEW], groups),
			unit ? " " : "", unit ? unit : "",
			max ? "" : " in all", ds, pct_delta(d, totals));
	}
	/* changes --threshold leaves out are counted, never denied: with
	 * --threshold=2 two builds whose functions all moved by less
	 * were said to have "No function's cost changed." */
	for (size_t i = listed; i < d->nrows; i++)
		below += abs_delta(d->rows[i].self) ||
			 abs_delta(d->rows[i].incl);
	if (!listed) {
		if (below)
			fprintf(out, "No function's cost changed by %.4g%% of "
				"the base's total or more (%zu changed by less: "
				"--threshold=0 lists them).\n",
				d->o->threshold, below);
		else
			fputs("No function's cost changed.\n", out);
		return;
	}
	fprintf(out, "%*s %8s %*s %8s %*s %*s %9s\n", w, "self", "%", w,
		"incl", "%", w, "self", w, "self", "self");
	fprintf(out, "%*s %8s %*s %8s %*s %*s %9s  %s\n", w, "change", "base",
		w, "change", "base", w, "in base", w, "in new", "% own",
		"function");
	for (size_t i = 0; i < listed; i++) {
		const struct row *r = &d->rows[i];

		fmt_delta(ds, r->self, groups);
		fmt_delta(di, r->incl, groups);
		fprintf(out, "%*s %+7.2f%% %*s %+7.2f%% %*s %*s %9s  %s",
			w, ds, pct_delta(d, r->self), w, di,
			pct_delta(d, r->incl), w,
			fmt_count(b1, r->self[BASE], groups), w,
			fmt_count(b2, r->self[NEW], groups),
			own_change(own, sizeof(own), r->self), r->name);
		if (*r->file && strcmp(r->file, "???"))
			fprintf(out, " (%s)", r->file);
		if (!r->in[NEW])
			fputs(" (only in base)", out);
		if (!r->in[BASE])
			fputs(" (only in new)", out);
		fputc('\n', out);
		if (d->o->diff_lines && i < LINE_FUNCS) {
			size_t nl;
			struct line_row *lines = row_lines(d, r, &nl);

			for (size_t l = 0; l < nl; l++) {
				fmt_delta(ds, lines[l].cost, groups);
				fprintf(out, "%*s %+7.2f%% %*s %8s %*s %*s %9s    %s:%u\n",
					w, ds, pct_delta(d, lines[l].cost), w,
					"", "", w,
					fmt_count(b1, lines[l].cost[BASE], groups),
					w, fmt_count(b2, lines[l].cost[NEW], groups),
					own_change(own, sizeof(own), lines[l].cost),
					lines[l].file, lines[l].line);
			}
			free(lines);
		}
	}
	if (below)
		fprintf(out, "(%zu more functions changed by less than %.4g%% "
			"of the base's total: --threshold=0 lists them all)\n",
			below, d->o->threshold);
	if (!d->o->brief) {
		fputc('\n', out);
		fputs(diff_blurb, out);
		if (d->o->diff_lines)
			fprintf(out, "Under each of the first %d functions, its "
				"source lines whose self cost changed.\n",
				LINE_FUNCS);
	}
}

/* ---- JSON ---- */

static void json_str(FILE *out, const char *s)
{
	json_string(out, s, strlen(s));
}

static void json_file(FILE *out, const char *s)
{
	if (*s)
		json_str(out, s);
	else
		fputs("null", out);
}

/* Largest change of cost first, then by row (rows are in --diff's
 * order): a function's callers or callees as --json lists them */
static int cmp_arc_change(const void *x, const void *y, void *arg)
{
	const struct diff_arc *arcs = arg;
	const struct diff_arc *a = &arcs[*(const uint32_t *)x];
	const struct diff_arc *b = &arcs[*(const uint32_t *)y];
	uint64_t da = abs_delta(a->cost), db = abs_delta(b->cost);
	uint32_t ra = a->caller, rb = b->caller;

	if (da != db)
		return da > db ? -1 : 1;
	/* the two lists: each names the other end; one of the ends is
	 * the function's own, the same in both */
	if (ra == rb) {
		ra = a->callee;
		rb = b->callee;
	}
	return ra < rb ? -1 : ra > rb;
}

static const char *in_name(const bool in[2])
{
	return in[BASE] && in[NEW] ? "both" : in[BASE] ? "base" : "new";
}

/* ",\n   \"callers\": [...]" of row r, or its callees: each the other
 * function (as "functions" names one), the calls' cost on each side
 * and its change, their counts, and which side has such calls */
static void json_arcs(FILE *out, const struct diff *d, size_t r, bool callers)
{
	const struct diff_arcs *da = &d->arcs;
	size_t from = callers ? da->in_start[r] : da->out_start[r];
	size_t n = (callers ? da->in_start[r + 1] : da->out_start[r + 1]) - from;
	uint32_t *order = xcalloc(n + 1, sizeof(*order));
	char buf[FMT_NUM_MAX];

	for (size_t i = 0; i < n; i++)
		order[i] = callers ? da->by_callee[from + i] : (uint32_t)(from + i);
	qsort_r(order, n, sizeof(*order), cmp_arc_change, da->arcs);
	fprintf(out, ",\n   \"%s\": [", callers ? "callers" : "callees");
	for (size_t i = 0; i < n; i++) {
		const struct diff_arc *a = &da->arcs[order[i]];
		const struct row *o = &d->rows[callers ? a->caller : a->callee];

		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		json_str(out, o->name);
		fputs(", \"file\": ", out);
		json_file(out, o->file);
		fputs(", \"object\": ", out);
		json_file(out, o->object);
		fmt_delta(buf, a->cost, false);
		fprintf(out, ", \"in\": \"%s\", \"calls_in\": \"%s\", "
			"\"cost\": [%llu, %llu], \"cost_delta\": %s, "
			"\"count\": [%llu, %llu]}", in_name(o->in), in_name(a->in),
			(unsigned long long)a->cost[BASE],
			(unsigned long long)a->cost[NEW],
			buf[0] == '+' ? buf + 1 : buf,
			(unsigned long long)a->calls[BASE],
			(unsigned long long)a->calls[NEW]);
	}
	fputc(']', out);
	free(order);
}

static void print_json_diff(FILE *out, const struct diff *d, size_t listed)
{
	uint64_t totals[2] = { d->s[BASE].total, d->s[NEW].total };
	char buf[FMT_NUM_MAX];

	fputs("{\"event\": ", out);
	json_str(out, profile_str(&d->s[BASE].p,
				  d->s[BASE].p.events[d->s[BASE].ev].name));
	/* gmon.out's "seconds" are counted in ticks: say how long one is,
	 * as the text's title and --json's "unit_seconds" do */
	if (in_ticks(&d->s[BASE].p, d->s[BASE].ev))
		fprintf(out, ",\n \"unit_seconds\": %.17g",
			d->s[BASE].p.events[d->s[BASE].ev].unit_seconds);
	/* the unit the profile names, as the text's title and --json's
	 * "event_info" give it ("ns", "bytes"; both sides have it) */
	else if (d->s[BASE].p.events[d->s[BASE].ev].unit != NO_NAME) {
		fputs(",\n \"unit\": ", out);
		json_str(out, profile_str(&d->s[BASE].p,
			 d->s[BASE].p.events[d->s[BASE].ev].unit));
	}
	for (int k = 0; k < 2; k++) {
		fprintf(out, ",\n \"%s\": {\"path\": ", side_name[k]);
		json_str(out, d->s[k].path);
		fprintf(out, ", \"total\": %llu}", (unsigned long long)totals[k]);
	}
	fmt_delta(buf, totals, false);
	fprintf(out, ",\n \"delta\": %s", buf[0] == '+' ? buf + 1 : buf);
	/* the two main programs under two paths: whether a "both" row's
	 * object (BASE's path) stands for NEW's too */
	if (d->main_obj[BASE] && d->main_obj[NEW] &&
	    strcmp(d->main_obj[BASE], d->main_obj[NEW])) {
		fputs(",\n \"main_programs\": {\"base\": ", out);
		json_str(out, d->main_obj[BASE]);
		fputs(", \"new\": ", out);
		json_str(out, d->main_obj[NEW]);
		fprintf(out, ", \"matched\": %s, \"by\": \"%s\", "
			"\"functions_in_both\": %zu}",
			d->mains_matched ? "true" : "false",
			d->mains.by_file ? "name and file" : "name",
			d->mains.shared);
	}
	fputs(",\n \"functions\": [", out);
	for (size_t i = 0; i < listed; i++) {
		const struct row *r = &d->rows[i];

		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
		json_str(out, r->name);
		fputs(", \"file\": ", out);
		json_file(out, r->file);
		fputs(", \"object\": ", out);
		json_file(out, r->object);
		fprintf(out, ", \"in\": \"%s\"", in_name(r->in));
		json_cost_pair(out, d, "self", r->self);
		json_cost_pair(out, d, "inclusive", r->incl);
		if (r->self[BASE])
			fprintf(out, ", \"self_change_own_pct\": %.4f",
				((double)r->self[NEW] - (double)r->self[BASE]) *
					100.0 / (double)r->self[BASE]);
		else
			fputs(", \"self_change_own_pct\": null", out);
		json_arcs(out, d, i, true);
		json_arcs(out, d, i, false);
		if (d->o->diff_lines) {
			size_t nl;
			struct line_row *lines = row_lines(d, r, &nl);

			fputs(",\n   \"lines\": [", out);
			for (size_t l = 0; l < nl; l++) {
				fputs(l ? ", {\"file\": " : "{\"file\": ", out);
				json_file(out, lines[l].file);
				fmt_delta(buf, lines[l].cost, false);
				fprintf(out, ", \"line\": %u, \"cost\": [%llu, %llu], "
					"\"delta\": %s}", lines[l].line,
					(unsigned long long)lines[l].cost[BASE],
					(unsigned long long)lines[l].cost[NEW],
					buf[0] == '+' ? buf + 1 : buf);
			}
			fputc(']', out);
			free(lines);
		}
		fputc('}', out);
	}
	fputs("]}\n", out);
}

/* --time: each side's stretch said in notes where the output has no
 * text header (--json, the page, which shows the run's messages) */
static void time_notes(const struct diff *d)
{
	for (int k = BASE; k <= NEW; k++)
		print_time_notes(&d->s[k].p);
}

/* The rows listed (row_listed()) to the front, in their order, the
 * others after them (the page's flame graphs are of every function);
 * returns how many are listed. */
static size_t listed_first(struct diff *d)
{
	struct row *sorted = xcalloc(d->nrows + 1, sizeof(*sorted));
	size_t listed = 0, n = 0;

	for (size_t i = 0; i < d->nrows; i++)
		if (row_listed(d, &d->rows[i]))
			sorted[n++] = d->rows[i];
	listed = n;
	for (size_t i = 0; i < d->nrows; i++)
		if (!row_listed(d, &d->rows[i]))
			sorted[n++] = d->rows[i];
	free(d->rows);
	d->rows = sorted;
	return listed;
}

/* Each side's functions' rows, in the rows' final order, and the calls
 * between the rows (diff_arcs.h). */
static void map_rows(struct diff *d)
{
	const struct cg *cg[2] = { &d->s[BASE].cg, &d->s[NEW].cg };
	const uint32_t ev[2] = { d->s[BASE].ev, d->s[NEW].ev };
	const uint32_t *row[2];

	for (int k = 0; k < 2; k++) {
		d->s[k].row = xcalloc(d->s[k].p.nfuncs + 1, sizeof(*d->s[k].row));
		row[k] = d->s[k].row;
	}
	for (size_t i = 0; i < d->nrows; i++) {
		const struct row *r = &d->rows[i];

		for (size_t j = 0; j < r->nkeys; j++) {
			const struct key *key = &d->keys[r->first_key + j];

			d->s[key->side].row[key->func] = (uint32_t)i;
		}
	}
	diff_arcs_build(&d->arcs, cg, ev, row, d->nrows);
}

/* The diff report (html_diff.h): the rows, and each side's functions'
 * rows for its flame graph. */
static void print_page(FILE *out, struct diff *d, size_t listed,
		       const char *messages)
{
	struct diff_page_row *rows = xcalloc(d->nrows + 1, sizeof(*rows));
	struct diff_page dp = { .rows = rows, .nrows = d->nrows,
				.listed = listed, .warnings = messages };
	char *title;
	size_t n;

	dp.arcs = &d->arcs;
	for (int k = 0; k < 2; k++) {
		dp.s[k] = (struct diff_page_side){ .path = d->s[k].path,
			.cg = &d->s[k].cg, .ev = d->s[k].ev,
			.total = d->s[k].total, .row = d->s[k].row };
	}
	for (size_t i = 0; i < d->nrows; i++) {
		const struct row *r = &d->rows[i];

		rows[i] = (struct diff_page_row){ r->name, r->file, r->object,
			{ r->in[BASE], r->in[NEW] },
			{ r->self[BASE], r->self[NEW] },
			{ r->incl[BASE], r->incl[NEW] } };
	}
	if (d->main_obj[BASE] && d->main_obj[NEW] &&
	    strcmp(d->main_obj[BASE], d->main_obj[NEW])) {
		dp.main_obj[BASE] = d->main_obj[BASE];
		dp.main_obj[NEW] = d->main_obj[NEW];
		dp.mains_matched = d->mains_matched;
		dp.mains_by_file = d->mains.by_file;
		dp.mains_shared = d->mains.shared;
	}
	n = strlen(d->s[BASE].path) + strlen(d->s[NEW].path) + 32;
	title = xmalloc(n);
	snprintf(title, n, "cganalyze --diff %s %s", d->s[BASE].path,
		 d->s[NEW].path);
	dp.title = title;
	print_html_diff(out, &dp);
	free(title);
	free(rows);
}

int diff_run(const struct options *o, FILE *out)
{
	struct diff d = { .o = o };
	size_t listed = 0;
	int ret;
	struct diag_keep msgs = { 0 };

	/* the page shows the run's messages (the main programs' note):
	 * they are kept, and printed at the end, as analyze_run() does */
	if (o->mode == OUT_HTML)
		diag_keep_begin(&msgs);
	for (int k = 0; k < 2; k++) {
		profile_init(&d.s[k].p);
		memset(&d.s[k].cg, 0, sizeof(d.s[k].cg));
	}
	if ((ret = load_side(&d, BASE, o->inputs[0])) ||
	    (ret = load_side(&d, NEW, o->inputs[1])))
		goto out;
	if (pick_event(&d) < 0) {
		ret = 2;
		goto out;
	}
	for (int k = 0; k < 2; k++)
		analyse_side(&d.s[k]);
	match_functions(&d);
	suggest_strip(&d);
	qsort(d.rows, d.nrows, sizeof(*d.rows), cmp_row);
	listed = listed_first(&d);
	if (o->mode != OUT_TEXT)
		map_rows(&d);
	if (o->mode != OUT_TEXT)
		time_notes(&d);
	if (o->mode == OUT_JSON) {
		print_json_diff(out, &d, listed);
	} else if (o->mode == OUT_HTML) {
		char *text = diag_keep_copy(&msgs);

		print_page(out, &d, listed, text);
		free(text);
	} else {
		print_text(out, &d, listed);
	}
	ret = 0;
out:
	diag_keep_end(&msgs);
	free(d.keys);
	free(d.rows);
	diff_arcs_release(&d.arcs);
	for (int k = 0; k < 2; k++) {
		free(d.s[k].row);
		cg_release(&d.s[k].cg);
		profile_release(&d.s[k].p);
	}
	return ret;
}
