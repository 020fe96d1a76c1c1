/*
 * The annotated source listing's data (see annotate_data.h): the chosen
 * files and functions, the profile's position costs by (file, line),
 * calls and inlined code per line, gmon.out's block counts, and the
 * account of where all of the cost went. print_annotate.c prints it.
 */
#include "annotate_data.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "profile/gmon_data.h"
#include "profile/profile.h"
#include "resolve/resolve.h"
#include "select/symspec.h"

/* Deep enough for any real inline chain; deeper ones lose their outer
 * frames, which only --inline-calls reads. */
#define MAX_FRAMES 64

struct builder {
	struct annotation *a;
	const struct cg *cg;
	const struct print_opts *o;
	struct u64map file_index;	/* file name -> files[] */
	struct u64map line_index;	/* file name << 32 | line -> lines[] */
	size_t files_alloc;
	size_t line_cost_alloc, call_incl_alloc, inlined_cost_alloc;
	bool *chosen_func;	/* --annotate=FUNC: by function, or NULL */
	name_id chosen_file;	/* --annotate=FILE matched: files whose
				 * name matches are chosen (see file_matches) */
};

/* to += from; for a maximum event (pevent.max) the larger: a line's,
 * a file's and the listing's cost of MEM_MAX is the largest under it */
static void add_row(const struct annotation *a, uint64_t *to,
		    const uint64_t *from, size_t n)
{
	for (size_t e = 0; e < n; e++)
		profile_combine(a->p, e, &to[e], from[e]);
}

static bool unknown_file(const struct profile *p, name_id file)
{
	const char *s;

	if (file == NO_NAME)
		return true;
	s = profile_str(p, file);
	return !*s || !strcmp(s, "???");
}

/* Grow a cost-row array to hold `want` rows (zeroed). */
static uint64_t *grow_rows(uint64_t *rows, size_t *alloc, size_t want,
			   size_t stride)
{
	size_t n;

	if (want <= *alloc)
		return rows;
	n = *alloc / 2 * 3 + 64;
	if (n < want)
		n = want;
	rows = xreallocarray(rows, n, stride * sizeof(*rows));
	memset(rows + *alloc * stride, 0, (n - *alloc) * stride * sizeof(*rows));
	*alloc = n;
	return rows;
}

static uint32_t file_of(struct builder *b, name_id name)
{
	struct annotation *a = b->a;
	bool added;
	uint32_t f = u64map_get_or_put(&b->file_index, name,
				       (uint32_t)a->nfiles, &added);

	if (added) {
		ARRAY_GROW(a->files, a->nfiles + 1, b->files_alloc);
		memset(&a->files[f], 0, sizeof(a->files[f]));
		a->files[f].name = name;
		a->nfiles++;
	}
	return f;
}

static uint32_t line_of(struct builder *b, name_id file, uint32_t line)
{
	struct annotation *a = b->a;
	bool added;
	uint32_t li = u64map_get_or_put(&b->line_index,
					(uint64_t)file << 32 | line,
					(uint32_t)a->nlines, &added);

	if (added) {
		ARRAY_GROW(a->lines, a->nlines + 1, a->lines_alloc);
		a->line_cost = grow_rows(a->line_cost, &b->line_cost_alloc,
					 a->nlines + 1, a->stride);
		a->lines[li] = (struct ann_line){ .line = line,
						  .file = file_of(b, file),
						  .first_call = NO_ID,
						  .first_inlined = NO_ID };
		a->nlines++;
	}
	return li;
}

/* WHAT names a file: the whole name, its last components, or its base
 * name ("prog.c" and "recursion/prog.c" both name ".../recursion/prog.c"). */
static bool file_matches(const char *name, const char *what)
{
	size_t nl = strlen(name), wl = strlen(what);

	if (!strcmp(name, what) || !strcmp(path_base(name), what))
		return true;
	return wl < nl && name[nl - wl - 1] == '/' &&
	       !strcmp(name + nl - wl, what);
}


/* Decide what --annotate=WHAT chose; -1 when nothing. */
static int choose(struct builder *b)
{
	const struct profile *p = b->a->p;
	const char *what = b->o->annotate_what;
	size_t found = 0;

	if (!what)
		return 0;
	for (size_t i = 0; i < p->npos; i++) {
		name_id f = p->pos[i].file;

		if (!unknown_file(p, f) && file_matches(profile_str(p, f), what)) {
			b->chosen_file = f;
			b->a->selected_by = "file";
			return 0;
		}
	}
	/* WHAT names functions as -p names them */
	b->chosen_func = xcalloc(p->nfuncs + 1, sizeof(*b->chosen_func));
	for (size_t f = 0; f < p->nfuncs; f++) {
		if (symspec_name_or_demangled_matches(what,
						      profile_str(p, p->funcs[f].name))) {
			b->chosen_func[f] = true;
			found++;
		}
	}
	if (!found)
		return error("--annotate=%s: the profile has no source file and no function of that name",
			     what);
	b->a->selected_by = "function";
	return 0;
}

/* --annotate=FUNC chose it (or no FUNC was given), and -p/-P SPEC
 * lists it in the flat profile (or there is no such option). */
static bool func_chosen(const struct builder *b, uint32_t func)
{
	return (!b->chosen_func || b->chosen_func[func]) &&
	       (!b->o->flat_listed || b->o->flat_listed[func]);
}

/*
 * The object with the most cost whose code has no source line at all
 * (where others have lines): one built without -g. Its cost is that of
 * the functions chosen (--annotate=FUNC, symspecs), as the note's share
 * of the cost with no line is: --annotate=lib_hash said "0.0% of the
 * cost has no source line: 3.9% is in libstdc++", a library the
 * listing was not about.
 */
static void find_no_line_object(struct builder *b)
{
	struct annotation *a = b->a;
	const struct profile *p = a->p;
	struct u64map index;	/* object name -> into cost[] */
	uint64_t *cost = NULL;
	name_id *obj = NULL;
	bool *lined = NULL;	/* some of its cost is on a line */
	size_t n = 0, alloc = 0;

	a->no_line_object = NO_NAME;
	u64map_init(&index);
	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		name_id ob = p->funcs[q->func].object;
		uint32_t k;

		if (ob == NO_NAME)
			continue;
		k = u64map_get(&index, ob);
		if (k == U64MAP_NONE) {
			if (n == alloc) {
				alloc = alloc * 2 + 8;
				cost = xreallocarray(cost, alloc, sizeof(*cost));
				obj = xreallocarray(obj, alloc, sizeof(*obj));
				lined = xreallocarray(lined, alloc,
						      sizeof(*lined));
			}
			k = (uint32_t)n++;
			cost[k] = 0;
			obj[k] = ob;
			lined[k] = false;
			u64map_put(&index, ob, k);
		}
		if (!unknown_file(p, q->file) && q->line)
			lined[k] = true;
		else if (func_chosen(b, q->func))
			profile_combine(p, a->sort_event, &cost[k],
					profile_pos_cost(p, (uint32_t)i)
						[a->sort_event]);
	}
	for (size_t k = 0; k < n; k++)
		if (!lined[k] && cost[k] > a->no_line_object_cost) {
			a->no_line_object_cost = cost[k];
			a->no_line_object = obj[k];
		}
	u64map_release(&index);
	free(cost);
	free(obj);
	free(lined);
}

static void add_positions(struct builder *b)
{
	struct annotation *a = b->a;
	const struct profile *p = a->p;

	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		const uint64_t *row = profile_pos_cost(p, (uint32_t)i);

		add_row(a, a->total, row, a->stride);
		if (!unknown_file(p, q->file) && q->line)
			a->any_line = true;
		if (!func_chosen(b, q->func)) {
			add_row(a, ann_row(a->fate_cost, a, ANN_NOT_CHOSEN), row,
				a->stride);
			continue;
		}
		if (unknown_file(p, q->file) || !q->line) {
			add_row(a, ann_row(a->fate_cost, a, ANN_NO_LINE), row,
				a->stride);
			continue;
		}
		add_row(a, ann_row(a->line_cost, a, line_of(b, q->file, q->line)),
			row, a->stride);
	}
}

/* "fib'2": a recursion level valgrind's --separate-recs names. */
static bool has_level(const struct profile *p, uint32_t f)
{
	const char *name = profile_str(p, p->funcs[f].name);
	size_t len = names_len(&p->names, p->funcs[f].name);
	char *buf = xmalloc(len + 1);
	bool r = fold_recursion_suffix(name, len, buf) != len;

	free(buf);
	return r;
}

/*
 * Whether a call from caller to callee may happen while callee is active,
 * so that its inclusive cost is inside an outer call's. Self-calls are.
 * Inside a cycle, valgrind's recursion levels tell: a callee without a
 * level ("odd", not "odd'2") is never active twice. A profile without
 * levels cannot tell, so every call inside a cycle is taken as one.
 */
static bool is_recursive(const struct cg *cg, const bool *levels,
			 uint32_t caller, uint32_t callee)
{
	uint32_t cyc = cg->nodes[caller].cycle;

	if (caller == callee)
		return true;
	if (cyc == NO_ID || cg->nodes[callee].cycle != cyc)
		return false;
	return !levels || levels[callee];
}

static void add_callsites(struct builder *b)
{
	struct annotation *a = b->a;
	const struct profile *p = a->p;
	bool *levels = xcalloc(p->nfuncs + 1, sizeof(*levels)), any = false;

	for (size_t f = 0; f < p->nfuncs; f++)
		any |= levels[f] = has_level(p, (uint32_t)f);
	if (!any) {
		free(levels);
		levels = NULL;
	}

	for (size_t i = 0; i < p->ncallsites; i++) {
		const struct pcallsite *cs = &p->callsites[i];
		const struct ppos *q = &p->pos[cs->pos];
		uint32_t caller = p->calls[cs->call].caller,
			 callee = p->calls[cs->call].callee, li, c;
		bool recursive = is_recursive(b->cg, levels, caller, callee);

		if (!func_chosen(b, q->func) || unknown_file(p, q->file) ||
		    !q->line)
			continue;
		li = line_of(b, q->file, q->line);
		for (c = a->lines[li].first_call; c != NO_ID; c = a->calls[c].next)
			if (a->calls[c].callee == callee)
				break;
		if (c == NO_ID) {
			c = (uint32_t)a->ncalls;
			ARRAY_GROW(a->calls, a->ncalls + 1, a->calls_alloc);
			a->call_incl = grow_rows(a->call_incl, &b->call_incl_alloc,
						 a->ncalls + 1, a->stride);
			a->calls[c] = (struct ann_call){
				.callee = callee, .next = a->lines[li].first_call };
			a->lines[li].first_call = c;
			a->ncalls++;
		}
		if (recursive) {
			a->calls[c].recursive += cs->count;
			continue;
		}
		a->calls[c].count += cs->count;
		add_row(a, ann_row(a->call_incl, a, c),
			profile_callsite_incl(p, (uint32_t)i), a->stride);
	}
	free(levels);
}

/* The binary whose object holds function f, or -1. */
static int binary_of(const struct print_opts *o, const struct profile *p,
		     uint32_t f)
{
	for (size_t b = 0; b < o->nreports; b++)
		if (o->symtabs && o->symtabs[b] &&
		    (o->reports[b].object == NO_NAME ||
		     o->reports[b].object == p->funcs[f].object))
			return (int)b;
	return -1;
}

/* --inline-calls: inlined code's cost again at the line it was inlined
 * into, from the outermost DWARF frame at its address. */
static void add_inlined(struct builder *b)
{
	struct annotation *a = b->a;
	const struct profile *p = a->p;
	const struct print_opts *o = b->o;
	struct frame fr[MAX_FRAMES];

	for (size_t i = 0; i < p->npos; i++) {
		const struct ppos *q = &p->pos[i];
		int bin;
		size_t n;
		uint32_t li, k;

		if (!q->addr || !func_chosen(b, q->func))
			continue;
		bin = binary_of(o, p, q->func);
		if (bin < 0)
			continue;
		n = symtab_frames(o->symtabs[bin],
				  q->addr - o->reports[bin].load_offset, fr,
				  MAX_FRAMES);
		if (n < 2 || fr[n - 1].file == NO_NAME || !fr[n - 1].line ||
		    fr[n - 2].func == NO_NAME)
			continue;
		li = line_of(b, fr[n - 1].file, fr[n - 1].line);
		for (k = a->lines[li].first_inlined; k != NO_ID;
		     k = a->inlined[k].next)
			if (a->inlined[k].func == fr[n - 2].func)
				break;
		if (k == NO_ID) {
			k = (uint32_t)a->ninlined;
			ARRAY_GROW(a->inlined, a->ninlined + 1, a->inlined_alloc);
			a->inlined_cost = grow_rows(a->inlined_cost,
						    &b->inlined_cost_alloc,
						    a->ninlined + 1, a->stride);
			a->inlined[k] = (struct ann_inlined){
				.func = fr[n - 2].func,
				.next = a->lines[li].first_inlined };
			a->lines[li].first_inlined = k;
			a->ninlined++;
		}
		add_row(a, ann_row(a->inlined_cost, a, k),
			profile_pos_cost(p, (uint32_t)i), a->stride);
	}
}

/*
 * gmon.out's basic-block counts on the lines their addresses are on,
 * as gprof -A -l puts them (a block's address may be inside an
 * instruction: its line is the one of the instruction it is in). With
 * --annotate=FUNC, those in the symbols it names; with -p/-P SPEC,
 * those in the symbols of the functions the flat profile lists.
 */
static void add_block_counts(struct builder *b)
{
	struct annotation *a = b->a;
	const struct profile *p = a->p;
	const struct gmon_data *g = p->gmon;
	const struct symtab *st;
	uint32_t *li;
	bool *listed_sym = NULL;
	size_t n = 0;

	if (!g || !g->nbbs || b->o->nreports < 1 || !b->o->symtabs ||
	    !b->o->symtabs[0])
		return;
	st = b->o->symtabs[0];
	/* -p/-P SPEC: the symbols of the functions the flat profile lists */
	if (b->o->flat_listed) {
		listed_sym = xcalloc(st->nsyms + 1, sizeof(*listed_sym));
		for (uint32_t f = 0; f < p->nfuncs; f++) {
			const struct sym *s = b->o->flat_listed[f]
						      ? resolve_named_sym(p, st, f)
						      : NULL;

			if (s)
				listed_sym[s - st->syms] = true;
		}
	}
	li = xcalloc(g->nbbs + 1, sizeof(*li));
	for (size_t i = 0; i < g->nbbs; i++) {
		uint64_t addr = g->bbs[i].addr - b->o->reports[0].load_offset;
		const struct line_entry *le = symtab_line(st, addr);

		li[i] = NO_ID;
		if (!le || le->end_sequence || le->file == NO_NAME || !le->line)
			continue;
		if (b->chosen_func) {
			const struct sym *s = symtab_lookup(st, addr);
			const char *name = s ? names_str(st->names, s->name) : "";

			if (!s || !symspec_name_matches(b->o->annotate_what, name))
				continue;
		}
		if (listed_sym) {
			const struct sym *s = symtab_lookup(st, addr);

			if (!s || !listed_sym[s - st->syms])
				continue;
		}
		li[i] = line_of(b, le->file, le->line);
		n++;
	}
	if (n) {
		a->line_execs = xcalloc(a->nlines + 1, sizeof(*a->line_execs));
		for (size_t i = 0; i < g->nbbs; i++)
			if (li[i] != NO_ID && g->bbs[i].count > a->line_execs[li[i]])
				a->line_execs[li[i]] = g->bbs[i].count;
	}
	free(li);
	free(listed_sym);
}

static int cmp_line(const void *x, const void *y, void *arg)
{
	const struct annotation *a = arg;
	uint32_t l1 = a->lines[*(const uint32_t *)x].line,
		 l2 = a->lines[*(const uint32_t *)y].line;

	return (l1 > l2) - (l1 < l2);
}

struct file_order {
	const struct annotation *a;
	const uint64_t *cost;	/* by old file index */
};

static int cmp_file(const void *x, const void *y, void *arg)
{
	const struct file_order *fo = arg;
	uint32_t f1 = *(const uint32_t *)x, f2 = *(const uint32_t *)y;
	uint64_t c1 = fo->cost[f1 * fo->a->stride + fo->a->sort_event],
		 c2 = fo->cost[f2 * fo->a->stride + fo->a->sort_event];

	if (c1 != c2)
		return c1 < c2 ? 1 : -1;
	return strcmp(profile_str(fo->a->p, fo->a->files[f1].name),
		      profile_str(fo->a->p, fo->a->files[f2].name));
}

/*
 * Whether line l has anything to show: a cost, a call, inlined code or
 * a block count. A position without any (IgProf's frame at a function's
 * first instruction, whose cost is all in its callees) would list a
 * line of dots.
 */
static bool line_has_something(const struct annotation *a, size_t l)
{
	const uint64_t *row = ann_row(a->line_cost, a, l);

	for (size_t e = 0; e < a->stride; e++)
		if (row[e])
			return true;
	return a->lines[l].first_call != NO_ID ||
	       a->lines[l].first_inlined != NO_ID ||
	       (a->line_execs && a->line_execs[l]);
}

/* Files hottest first, each with its lines in order and its cost; lines
 * with nothing to show are left out, and files with only such lines. */
static void order_files(struct annotation *a)
{
	size_t nf = a->nfiles, stride = a->stride, nkept = 0;
	uint64_t *cost = xcalloc(nf * stride + 1, sizeof(*cost));
	uint32_t *order = xcalloc(nf + 1, sizeof(*order)),
		 *newidx = xcalloc(nf + 1, sizeof(*newidx));
	struct ann_file *files = xcalloc(nf + 1, sizeof(*files));
	struct file_order fo = { a, cost };
	bool *shown = xcalloc(a->nlines + 1, sizeof(*shown));

	for (size_t l = 0; l < a->nlines; l++) {
		shown[l] = line_has_something(a, l);
		if (!shown[l])
			continue;
		add_row(a, cost + a->lines[l].file * stride,
			ann_row(a->line_cost, a, l), stride);
		a->files[a->lines[l].file].nlines++;
	}
	for (size_t f = 0; f < nf; f++)
		if (a->files[f].nlines)
			order[nkept++] = (uint32_t)f;
	qsort_r(order, nkept, sizeof(*order), cmp_file, &fo);
	a->file_cost = xcalloc(nkept * stride + 1, sizeof(*a->file_cost));
	for (size_t i = 0; i < nkept; i++) {
		files[i] = a->files[order[i]];
		files[i].lines = xcalloc(files[i].nlines + 1, sizeof(uint32_t));
		files[i].nlines = 0;
		newidx[order[i]] = (uint32_t)i;
		memcpy(ann_row(a->file_cost, a, i), cost + order[i] * stride,
		       stride * sizeof(*cost));
	}
	for (size_t l = 0; l < a->nlines; l++) {
		struct ann_file *f;

		if (!shown[l]) {
			a->lines[l].file = NO_ID;	/* in no file's list */
			continue;
		}
		f = &files[newidx[a->lines[l].file]];
		a->lines[l].file = newidx[a->lines[l].file];
		f->lines[f->nlines++] = (uint32_t)l;
	}
	for (size_t i = 0; i < nkept; i++)
		qsort_r(files[i].lines, files[i].nlines, sizeof(uint32_t),
			cmp_line, a);
	free(a->files);
	a->files = files;
	a->nfiles = nkept;
	free(cost);
	free(order);
	free(newidx);
	free(shown);
}

static bool file_has_calls(const struct annotation *a, const struct ann_file *f)
{
	for (size_t i = 0; i < f->nlines; i++)
		if (a->lines[f->lines[i]].first_call != NO_ID)
			return true;
	return false;
}

/* Which files are listed, and where the cost of the others went. */
static void decide_fates(struct builder *b)
{
	struct annotation *a = b->a;
	const struct profile *p = a->p;
	uint32_t ev = a->sort_event;
	double total = (double)a->total[ev];

	for (size_t i = 0; i < a->nfiles; i++) {
		struct ann_file *f = &a->files[i];
		const uint64_t *cost = ann_row(a->file_cost, a, i);
		bool chosen;

		if (a->selected_by && !strcmp(a->selected_by, "file"))
			chosen = file_matches(profile_str(p, f->name),
					      b->o->annotate_what);
		else if (a->selected_by)
			chosen = true;	/* only the function's lines are here */
		else
			chosen = (cost[ev] || file_has_calls(a, f)) &&
				 (total <= 0 ||
				  (double)cost[ev] * 100.0 / total >=
					  b->o->listing_threshold);
		if (!chosen) {
			f->fate = a->selected_by ? ANN_NOT_CHOSEN : ANN_BELOW;
		} else {
			f->src = sources_get(b->o->sources, profile_str(p, f->name));
			f->fate = f->src->found ? ANN_LISTED : ANN_NOT_FOUND;
			for (size_t l = 0; f->src->found && l < f->nlines; l++)
				if (a->lines[f->lines[l]].line > f->src->nlines)
					f->past_end++;
		}
		add_row(a, ann_row(a->fate_cost, a, f->fate), cost, a->stride);
		a->fate_files[f->fate]++;
	}
}

int annotation_build(struct annotation *a, const struct cg *cg,
		     const struct print_opts *o)
{
	struct builder b = { .a = a, .cg = cg, .o = o, .chosen_file = NO_NAME };
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->p = cg->p;
	a->stride = cg->p->stride;
	a->sort_event = o->sort_event;
	a->by_symspecs = o->flat_listed != NULL;
	a->total = xcalloc(a->stride + 1, sizeof(*a->total));
	a->fate_cost = xcalloc(ANN_FATES * a->stride + 1, sizeof(*a->fate_cost));
	u64map_init(&b.file_index);
	u64map_init(&b.line_index);
	if (choose(&b) < 0) {
		ret = -1;
		goto out;
	}
	add_positions(&b);
	find_no_line_object(&b);
	add_callsites(&b);
	if (o->inline_calls)
		add_inlined(&b);
	add_block_counts(&b);
	order_files(a);
	decide_fates(&b);
out:
	u64map_release(&b.file_index);
	u64map_release(&b.line_index);
	free(b.chosen_func);
	return ret;
}

void annotation_release(struct annotation *a)
{
	for (size_t i = 0; i < a->nfiles; i++)
		free(a->files[i].lines);
	free(a->files);
	free(a->file_cost);
	free(a->lines);
	free(a->line_cost);
	free(a->calls);
	free(a->call_incl);
	free(a->inlined);
	free(a->inlined_cost);
	free(a->fate_cost);
	free(a->total);
	free(a->line_execs);
	memset(a, 0, sizeof(*a));
}
