/*
 * perf.data against perf report: the recordings in tests/perf/ (made by
 * tests/perf/make.sh, with perf 6.1's answers beside them) read,
 * resolved with their -b binaries and the committed kallsyms, and
 * compared row by row:
 *
 *   NAME.self      perf report --no-children --no-inline -F
 *                  overhead,period,sample,dso,sym: each symbol's self
 *                  period and samples exactly, and each event's total
 *                  (perf's "Event count");
 *   NAME.children  perf report --children: each symbol's inclusive and
 *                  self share, to the hundredth of a percent perf
 *                  prints, and no function of ours that perf lacks;
 *   (z*.data, recorded with -z, are named with z.kallsyms, of the
 *   kernel they were recorded on)
 *   fp-FN.annotate perf annotate --show-total-period: the period at each
 *                  instruction of FN (what --disasm lists).
 *
 * perf counts a sample once for each distinct symbol of its chain, as
 * we count a stack once per distinct function (perf.data has
 * frame-pointer chains here: the two unwinders agree by construction).
 *
 * The system libraries (libc.so.6, ld-linux-x86-64.so.2) are named from
 * the files at their recorded paths, with their separate debug files
 * (libc6-dbg) for their static functions, as perf names them. On a
 * machine whose libc is another build, or has no debug file, they are
 * offsets: then their rows are left out, and said so.
 */
#include "helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/perf_data.h"
#include "resolve/resolve.h"
#include "symtab/symtab.h"

#define DIR "tests/perf/"

struct run {
	struct profile p;
	struct symtab st[2];
	int nst;
	char *diag;
};

static void load_opts(struct run *r, const char *name,
		      const struct perf_select *sel, bool positions);
static void load_how(struct run *r, const char *name,
		     const struct perf_select *sel, bool positions,
		     enum inline_mode inlined);

static void load(struct run *r, const char *name,
		 const struct perf_select *sel)
{
	load_opts(r, name, sel, false);
}

static void load_opts(struct run *r, const char *name,
		      const struct perf_select *sel, bool positions)
{
	load_how(r, name, sel, positions, INLINE_CALLER);
}

/* inlined: --inlined's choice; with INLINE_CALLEE the symbol tables
 * give their raw names, as perf report --no-demangle --inline names
 * inlined functions by their linkage names */
static void load_how(struct run *r, const char *name,
		     const struct perf_select *sel, bool positions,
		     enum inline_mode inlined)
{
	static const char *const prog_bins[] = { DIR "prog", DIR "libwork.so" };
	static const char *const cxx_bins[] = { DIR "cxx" };
	bool cxx = !strcmp(name, "cxx");
	const char *const *bins = cxx ? cxx_bins : prog_bins;
	int nst = cxx ? 1 : 2;
	struct symtab_opts so = { .demangle = inlined != INLINE_CALLEE };
	struct symtab *stp[2] = { &r->st[0], &r->st[1] };
	/* the -z recordings were made on another boot's kernel */
	struct resolve_opts ro = { .kallsyms = name[0] == 'z'
						      ? DIR "z.kallsyms"
						      : DIR "kallsyms",
				   .want_positions = positions,
				   .inlined = inlined };
	struct resolve_report reports[2];
	/* the unwinder (--call-graph dwarf) takes the same binaries */
	struct perf_files files = { .binaries = bins,
				    .nbinaries = (size_t)nst };
	struct read_opts o = { .perf_select = sel, .perf_files = &files };
	char path[256];

	profile_init(&r->p);
	r->nst = nst;
	for (int b = 0; b < nst; b++)
		assert_int_equal(symtab_open(&r->st[b], bins[b], &so,
					     &r->p.names), 0);
	snprintf(path, sizeof(path), DIR "%s.data", name);
	assert_int_equal(read_path(&r->p, path, &o, &r->diag), 0);
	assert_int_equal(resolve_perf(&r->p, stp, (size_t)nst, &ro, reports),
			 0);
	profile_finish(&r->p);
}

static void unload(struct run *r)
{
	for (int b = 0; b < r->nst; b++)
		symtab_release(&r->st[b]);
	profile_release(&r->p);
	free(r->diag);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * Where perf and we name the same code differently, on purpose:
 *  - a return address that is the first instruction of the next
 *    function (the call was its function's last instruction): perf
 *    names it after the next function, we look it up one byte before,
 *    in the call. ld.so's _start ends calling _dl_start, and returns to
 *    _dl_start_user;
 *  - aliases (several symbols at one address): perf prefers the one
 *    with fewer leading underscores, our symbol table the one addr2line
 *    gives.
 */
static const struct {
	const char *perf, *ours;
} known[] = {
	{ "_dl_start_user", "_start" },
	{ "mprotect", "__mprotect" },
	{ "clone3", "__clone3" },
	{ "pthread_mutex_lock@@GLIBC_2.2.5", "__pthread_mutex_lock@GLIBC_2.2.5" },
};

static uint32_t func_named(const struct profile *p, const char *dso,
			   const char *sym);

/* Our function for perf's (dso, sym) row, or NO_ID. */
static uint32_t func_for(const struct profile *p, const char *dso,
			 const char *sym)
{
	uint32_t f = func_named(p, dso, sym);

	for (size_t k = 0; f == NO_ID && k < sizeof(known) / sizeof(known[0]);
	     k++)
		if (!strcmp(sym, known[k].perf))
			f = func_named(p, dso, known[k].ours);
	return f;
}

static uint32_t func_named(const struct profile *p, const char *dso,
			   const char *sym)
{
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const struct pfunc *fn = &p->funcs[f];

		if (!strcmp(profile_str(p, fn->name), sym) &&
		    !strcmp(base_name(profile_str(p, fn->object)), dso))
			return f;
	}
	return NO_ID;
}

/* The event called name, as perf's section header gives it. */
static uint32_t event_named(const struct profile *p, const char *name)
{
	uint32_t e = profile_find_event(p, name);

	if (e == NO_ID)
		fail_msg("no event '%s'", name);
	return e;
}

/* Every sample of event e: the samples that ended in each function. */
static uint64_t event_samples(const struct profile *p, uint32_t e)
{
	uint64_t n = 0;

	for (uint32_t f = 0; f < p->nfuncs; f++)
		n += profile_func_row(p, p->func_count, f)[e];
	return n;
}

static void pct(char *out, size_t n, uint64_t part, uint64_t total)
{
	snprintf(out, n, "%.2f%%", total ? 100.0 * (double)part / (double)total
					 : 0.0);
}

/*
 * One row, the same five columns in both files:
 *   self:      "    65.66%     260521040           130  prog   [.] leaf"
 *              (overhead, period, samples, dso, symbol)
 *   children:  "    74.80%     0.00%             0  libc.so.6  [.] main"
 *              (children, self overhead, samples, dso, symbol)
 */
struct row {
	char a[32], b[32], dso[256], sym[256];
	unsigned long long n;
};

static bool parse_row(const char *line, struct row *r)
{
	char mode[8];

	return sscanf(line, " %31s %31s %llu %255s %7s %255s", r->a, r->b,
		      &r->n, r->dso, mode, r->sym) == 6;
}

static bool system_object(const char *dso)
{
	return strcmp(dso, "prog") && strcmp(dso, "libwork.so") &&
	       strcmp(dso, "cxx") &&
	       strcmp(dso, "[kernel.kallsyms]") && strcmp(dso, "[unknown]");
}

/* Whether this machine's libraries named the recording's frames in
 * them: none is left an address ("libc.so.6+0x2724a"). */
static bool system_named(const struct profile *p)
{
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const char *dso = base_name(profile_str(p, p->funcs[f].object));
		const char *name = profile_str(p, p->funcs[f].name);
		size_t n = strlen(dso);

		if (system_object(dso) && !strncmp(name, dso, n) &&
		    !strncmp(name + n, "+0x", 3))
			return false;
	}
	return true;
}

/* Our functions the comparison leaves out, as it leaves perf's rows. */
static bool skipped(const struct profile *p, uint32_t f)
{
	const char *dso = base_name(profile_str(p, p->funcs[f].object));

	return !strcmp(dso, PERF_UNKNOWN_OBJECT) ||
	       (system_object(dso) && !system_named(p));
}

/*
 * Compare our reading of NAME.data with perf's answer NAME.KIND
 * (answer: "self" or "children"; file: the answer's name, NULL for
 * NAME.KIND). sel: the samples kept, as perf report was told; then
 * perf's "Event count" is still of every sample (its --percentage
 * absolute) and is not compared.
 */
static void compare_tol(const char *name, bool children, const char *file,
			const struct perf_select *sel, double tol);

static void compare_with(const char *name, bool children, const char *file,
			 const struct perf_select *sel)
{
	compare_tol(name, children, file, sel, 0);
}

/* As compare_with(), the inclusive shares within tol percentage points
 * of perf's (0: to the hundredth perf prints). */
static void compare_tol(const char *name, bool children, const char *file,
			const struct perf_select *sel, double tol)
{
	struct run r;
	char path[256], *text, *line, *save = NULL;
	uint32_t e = NO_ID;
	size_t rows = 0;
	size_t len;

	load(&r, name, sel);
	if (!system_named(&r.p))
		print_message("%s: this machine's libc is not the recording's "
			      "(or has no debug file): libc's and ld.so's rows "
			      "left out\n", name);
	if (file)
		snprintf(path, sizeof(path), DIR "%s", file);
	else
		snprintf(path, sizeof(path), DIR "%s.%s", name,
			 children ? "children" : "self");
	text = slurp(path, &len);
	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char ev[128];
		unsigned long long count;
		struct row row;
		uint32_t f;

		if (sscanf(line, "# Samples: %llu of event '%127[^']'", &count,
			   ev) == 2) {
			e = event_named(&r.p, ev);
			/* the listings' samples (func_samples()) add up to
			 * perf's; a sampled profile, its clock in ns */
			assert_true(r.p.sampled);
			assert_string_equal(profile_str(&r.p, r.p.events[e].unit),
					    "ns");
			if (!sel)
				assert_int_equal(event_samples(&r.p, e), count);
			continue;
		}
		if (sscanf(line, "# Event count (approx.): %llu", &count) == 1) {
			if (!sel)
				assert_int_equal(r.p.totals[e], count);
			continue;
		}
		if (line[0] == '#' || !parse_row(line, &row))
			continue;
		/* perf report shows each address outside every mapping as
		 * a row of its own; we (and perf script) as one [unknown] */
		if (!strcmp(row.dso, "[unknown]") ||
		    (system_object(row.dso) && !system_named(&r.p)))
			continue;
		assert_int_not_equal(e, NO_ID);
		f = func_for(&r.p, row.dso, row.sym);
		if (f == NO_ID)
			fail_msg("%s: perf's %s in %s is not ours", path,
				 row.sym, row.dso);
		rows++;
		if (children) {
			char incl[32], self[32];

			pct(incl, sizeof(incl),
			    profile_func_row(&r.p, r.p.func_incl, f)[e],
			    r.p.totals[e]);
			pct(self, sizeof(self), profile_self(&r.p, f)[e],
			    r.p.totals[e]);
			if ((tol ? fabs(atof(incl) - atof(row.a)) > tol
				 : strcmp(incl, row.a) != 0) ||
			    strcmp(self, row.b))
				fail_msg("%s: %s: perf %s %s, ours %s %s", path,
					 row.sym, row.a, row.b, incl, self);
			if (strcmp(incl, row.a))
				print_message("%s: %s: perf %s, ours %s "
					      "(within %.1f points)\n", path,
					      row.sym, row.a, incl, tol);
		} else {
			unsigned long long period = strtoull(row.b, NULL, 10);

			if (profile_self(&r.p, f)[e] != period ||
			    profile_func_row(&r.p, r.p.func_count, f)[e] != row.n)
				fail_msg("%s: %s: perf %llu in %llu samples, "
					 "ours %llu in %llu", path, row.sym,
					 period, row.n,
					 (unsigned long long)profile_self(&r.p, f)[e],
					 (unsigned long long)profile_func_row(
						 &r.p, r.p.func_count, f)[e]);
		}
	}
	/* and no function of ours perf lacks: as many rows as we have
	 * functions with a cost, per event */
	{
		size_t ours = 0;

		for (size_t ev = 0; ev < r.p.nevents; ev++)
			for (uint32_t f = 0; f < r.p.nfuncs; f++)
				ours += skipped(&r.p, f) ? 0
					: children
					? profile_func_row(&r.p, r.p.func_incl, f)[ev] != 0
					: profile_self(&r.p, f)[ev] != 0;
		assert_int_equal(rows, ours);
	}
	free(text);
	unload(&r);
}

static void compare(const char *name, bool children)
{
	compare_with(name, children, NULL, NULL);
}

static void test_fp_self(void **state)
{
	(void)state;
	compare("fp", false);
}

static void test_fp_children(void **state)
{
	(void)state;
	compare("fp", true);
}

static void test_two_events(void **state)
{
	(void)state;
	compare("two", false);
	compare("two", true);
}

static void test_pipe(void **state)
{
	(void)state;
	compare("pipe", false);
	compare("pipe", true);
}

/* --call-graph dwarf: the samples' fields (registers, stack dumps,
 * data addresses) read by their sizes, and the user stacks unwound */
static void test_dwarf_self(void **state)
{
	(void)state;
	compare("dwarf", false);
}

/*
 * The inclusive shares of unwound stacks within a point of perf's
 * (the bound). Debian's perf 6.1 unwinds with libunwind (its
 * "unwind: find_proc_info" lines under perf script -v), ours with the
 * CFI rows it caches, checked against libdwfl's unwinding of the same
 * dumps (CGANALYZE_UNWIND=check); on these recordings they agree to
 * the hundredth of a percent. They may part where a stack goes past
 * its dump (deep stacks, a small dwarf,SIZE): perf's memory_read then
 * answers from the object files' bytes for an address in a mapping,
 * ours answers nothing and the stack ends there; in code in [vdso],
 * whose image perf keeps in its build-id cache and we have no file of;
 * and past 127 frames, perf's limit and ours. perf's [unknown] rows
 * (dwarf.data's 0xffffffffffffffff, an address outside every mapping)
 * are left out, as for frame-pointer chains. perf script --no-inline
 * prints the same stacks as perf report.
 *
 * On a big recording they part more, and perf is the one wrong: on
 * bench/perf-dwarf's 1.3 GB recording of a build (session 35) perf
 * gives cc1's main 77.4% of the samples and us 82.5%. Of cc1's 140,262
 * samples perf's stacks miss main in 16,271, ours in about 8,000 (the
 * stacks cut at the dump's end); libdwfl unwinds all 158,866 samples
 * as our rows do. perf's extra losses stop early in glibc: stacks of
 * _int_malloc, _int_free or malloc alone (843, 531 and 449; perf -v
 * reads rbp, which glibc does not keep as a frame pointer, and stops),
 * and stacks ending in an address in no mapping (over 5,000).
 */
static void test_dwarf_children(void **state)
{
	(void)state;
	compare_tol("dwarf", true, NULL, NULL, 1.0);
}

/* C++ at -O2 without frame pointers: only the CFI finds the callers
 * (templates, inlined helpers, std::sort's recursion) */
static void test_dwarf_cxx(void **state)
{
	(void)state;
	compare("cxx", false);
	compare_tol("cxx", true, NULL, NULL, 1.0);
}

/*
 * perf record -z: the records decompressed from the compressed ones,
 * in a file and in pipe mode; zdwarf.data's small ring buffer (-m 4)
 * wrapped inside samples, so records there are cut between two
 * compressed records' data (3 of its 11) and read whole.
 */
static void test_compressed(void **state)
{
	(void)state;
	compare("z", false);
	compare("z", true);
	compare("zpipe", false);
	compare("zpipe", true);
	compare("zdwarf", false);
	compare_tol("zdwarf", true, NULL, NULL, 1.0);
}

/*
 * --inlined=callee on cxx.data against perf report --inline --children
 * --no-demangle (cxx.inline): a frame in inlined code stands for the
 * function of its symbol and each function inlined there, so each
 * sample counts once for each of them. Every function perf shows
 * inlined that we have, and every symbol's, has perf's inclusive share
 * to the hundredth; the self cost of a symbol's function is perf's less
 * what went to the functions inlined in it (perf's --inline leaves self
 * cost with the symbol: we charge the innermost function, as
 * --inlined=callee does for Callgrind), and each object's self cost
 * adds up to perf's.
 *
 * Where we differ, and why:
 *  - where the name DWARF gives a symbol's function is not the symbol's
 *    (apply for _ZL5applyPFmmEm.constprop.0, sort_some for
 *    _ZL9sort_someRSt6vectorIjSaIjEEj, __introsort_loop without its
 *    .isra.0, __libc_start_main_impl for __libc_start_main), perf's
 *    stacks name the function's frames by the DWARF name, as an inlined
 *    function: the symbol's row has only the samples at its own code
 *    (its self), the "(inlined)" row the inclusive share. Ours is one
 *    function, compared with the "(inlined)" row.
 *  - mix<T> in churn<T> and step in apply: perf 6.1 asks binutils'
 *    addr2line, which names those addresses after the function they are
 *    in at mix's line (cxx.cc:13) without the inlined frame; our DWARF
 *    reading and llvm-symbolizer -i find the inlined subroutine there.
 *    Their cost is in perf's churn<T> and apply rows, as in ours.
 *  - libc's inlined frames: objects found at their recorded paths give
 *    names only; perf's libc rows are compared where they are libc's
 *    symbols.
 */
static const struct {
	const char *symbol, *own;
} perf_own_names[] = {
	{ "_ZL5applyPFmmEm.constprop.0", "apply" },
	{ "_ZL9sort_someRSt6vectorIjSaIjEEj", "sort_some" },
	{ "_ZSt16__introsort_loopIN9__gnu_cxx17__normal_iteratorIPjSt6vectorIjSaIjEEEElNS0_5__ops15_Iter_less_iterEEvT_S9_T0_T1_.isra.0",
	  "_ZSt16__introsort_loopIN9__gnu_cxx17__normal_iteratorIPjSt6vectorIjSaIjEEEElNS0_5__ops15_Iter_less_iterEEvT_S9_T0_T1_" },
	{ "__libc_start_main@@GLIBC_2.34", "__libc_start_main_impl" },
};
static uint64_t perf_period(const char *file, const char *sym,
			    uint64_t *total);

static const char *const only_ours[] = {
	"mix<unsigned int>", "mix<long unsigned int>", "step",
};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* perf's row names sym by another name (perf_own_names): the symbol
 * (own: the row is the "(inlined)" one of the DWARF name), or NULL */
static const char *own_symbol(const char *sym, bool own)
{
	for (size_t i = 0; i < NELEMS(perf_own_names); i++)
		if (!strcmp(own ? perf_own_names[i].own
				: perf_own_names[i].symbol, sym))
			return perf_own_names[i].symbol;
	return NULL;
}

static bool listed(const char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void test_inline_cxx(void **state)
{
	struct run r;
	char *text, *line, *save = NULL;
	size_t len, matched = 0, ours = 0;
	uint64_t perf_self = 0, our_self = 0;
	bool *seen;

	(void)state;
	load_how(&r, "cxx", NULL, false, INLINE_CALLEE);
	seen = calloc(r.p.nfuncs + 1, sizeof(*seen));
	text = slurp(DIR "cxx.inline", &len);
	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool inlined = strstr(line, " (inlined)") != NULL;
		char incl[32], self[32];
		struct row row;
		uint32_t f;

		if (line[0] == '#' || !parse_row(line, &row) ||
		    !strcmp(row.dso, "[unknown]") ||
		    (system_object(row.dso) && !system_named(&r.p)))
			continue;
		if (inlined && own_symbol(row.sym, true))
			f = func_for(&r.p, row.dso, own_symbol(row.sym, true));
		else
			f = func_for(&r.p, row.dso, row.sym);
		if (f == NO_ID)
			fail_msg("perf's %s%s in %s is not ours", row.sym,
				 inlined ? " (inlined)" : "", row.dso);
		if (!inlined && !strcmp(row.dso, "cxx")) {
			perf_self += (uint64_t)(atof(row.b) * 100 + 0.5);
			/* what perf leaves with the symbol we may have
			 * given to a function inlined in it */
			pct(self, sizeof(self), profile_self(&r.p, f)[0],
			    r.p.totals[0]);
			assert_true(atof(self) <= atof(row.b));
		}
		/* the symbol's row of a function perf names otherwise
		 * in stacks is its self alone */
		if (!inlined && own_symbol(row.sym, false))
			continue;
		seen[f] = true;
		matched++;
		pct(incl, sizeof(incl), profile_func_row(&r.p, r.p.func_incl, f)[0],
		    r.p.totals[0]);
		if (strcmp(incl, row.a))
			fail_msg("%s: perf %s, ours %s", row.sym, row.a, incl);
	}
	/* every function of ours with a cost is one of perf's rows, or one
	 * only our DWARF reading finds; their self costs add up to perf's */
	for (uint32_t f = 0; f < r.p.nfuncs; f++) {
		const char *name = profile_str(&r.p, r.p.funcs[f].name);

		if (skipped(&r.p, f) ||
		    !profile_func_row(&r.p, r.p.func_incl, f)[0])
			continue;
		ours++;
		if (!seen[f] && !listed(only_ours, NELEMS(only_ours), name))
			fail_msg("our %s is not perf's", name);
		if (!strcmp(base_name(profile_str(&r.p, r.p.funcs[f].object)),
			    "cxx"))
			our_self += profile_self(&r.p, f)[0];
	}
	assert_int_equal(ours, matched + NELEMS(only_ours));
	/* perf prints hundredths: 100 * the share, rounded */
	assert_int_equal(perf_self,
			 (uint64_t)(10000.0 * (double)our_self /
				    (double)r.p.totals[0] + 0.5));
	/* churn<unsigned int>'s samples in the mix inlined in it are
	 * mix's self cost: the two add up to perf's symbol */
	{
		uint32_t churn = func_named(&r.p, "cxx", "_Z5churnIjET_S0_");
		uint32_t mix = func_named(&r.p, "cxx", "mix<unsigned int>");
		uint64_t total = 0;

		assert_int_not_equal(churn, NO_ID);
		assert_int_not_equal(mix, NO_ID);
		assert_true(profile_self(&r.p, mix)[0] > 0);
		assert_int_equal(profile_self(&r.p, churn)[0] +
					 profile_self(&r.p, mix)[0],
				 perf_period("cxx.self", "_Z5churnIjET_S0_",
					     &total));
	}
	free(seen);
	free(text);
	unload(&r);
}

/* Two recordings of one program added up: each symbol's self period
 * is the sum of perf report's for the two files, and so is the total */
static uint64_t perf_period(const char *file, const char *sym,
			    uint64_t *total)
{
	char path[256], *text, *line, *save = NULL;
	uint64_t period = 0;
	size_t len;

	snprintf(path, sizeof(path), DIR "%s", file);
	text = slurp(path, &len);
	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long count;
		struct row row;

		if (sscanf(line, "# Event count (approx.): %llu", &count) == 1)
			*total = count;
		else if (line[0] != '#' && parse_row(line, &row) &&
			 !strcmp(row.sym, sym))
			period = strtoull(row.b, NULL, 10);
	}
	free(text);
	return period;
}

static void test_sum(void **state)
{
	static const char *const syms[] = { "leaf", "lib_spin", "main" };
	struct symtab_opts so = { .demangle = true };
	struct resolve_opts ro = { .kallsyms = DIR "kallsyms" };
	struct read_opts o = { 0 };
	struct symtab st[2];
	struct symtab *stp[2] = { &st[0], &st[1] };
	struct profile p;
	struct resolve_report reports[2];
	uint64_t fp_total = 0, pipe_total = 0;
	char *diag, *diag2;

	(void)state;
	profile_init(&p);
	assert_int_equal(symtab_open(&st[0], DIR "prog", &so, &p.names), 0);
	assert_int_equal(symtab_open(&st[1], DIR "libwork.so", &so, &p.names),
			 0);
	assert_int_equal(read_path(&p, DIR "fp.data", &o, &diag), 0);
	assert_int_equal(read_path(&p, DIR "pipe.data", &o, &diag2), 0);
	assert_int_equal(resolve_perf(&p, stp, 2, &ro, reports), 0);
	profile_finish(&p);
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		uint32_t f = func_named(&p, !strcmp(syms[i], "lib_spin")
						    ? "libwork.so" : "prog",
					syms[i]);

		assert_int_not_equal(f, NO_ID);
		assert_int_equal(profile_self(&p, f)[0],
				 perf_period("fp.self", syms[i], &fp_total) +
					 perf_period("pipe.self", syms[i],
						     &pipe_total));
	}
	assert_int_equal(p.totals[0], fp_total + pipe_total);
	for (int b = 0; b < 2; b++)
		symtab_release(&st[b]);
	profile_release(&p);
	free(diag);
	free(diag2);
}

/* --comm: the thread named spinner alone (perf report --comms) */
static void test_comm(void **state)
{
	struct perf_select sel = { .comms = "spinner" };

	(void)state;
	compare_with("fp", false, "fp-spinner.self", &sel);
}

/* Without -b, an object is found by its build-id in perf's cache,
 * ~/.debug/.build-id/ab/cdef.../elf, when its recorded path is gone
 * (/tmp/cganalyze-perf is there only where make.sh ran: a home of
 * HOME/root under --sysroot=HOME is another machine's, where it is
 * not). */
static void test_build_id_cache(void **state)
{
	struct symtab_opts so = { .demangle = true };
	struct resolve_opts ro = { .kallsyms = DIR "kallsyms" };
	struct read_opts o = { 0 };
	char *home = write_temp("", 0), dir[1024], hex[41], cmd[4096];
	const char *old = getenv("HOME");
	char *saved = old ? strdup(old) : NULL;
	struct profile p;
	struct symtab st;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(symtab_open(&st, DIR "prog", &so, &p.names), 0);
	for (size_t i = 0; i < st.build_id_len && i < 20; i++)
		sprintf(hex + 2 * i, "%02x", st.build_id[i]);
	symtab_release(&st);
	/* write_temp made DIR/profile: DIR is the sysroot, DIR/root the
	 * home in it */
	*strrchr(home, '/') = '\0';
	ro.sysroot = home;
	snprintf(dir, sizeof(dir), "%s/root/.debug/.build-id/%.2s/%s", home,
		 hex, hex + 2);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp " DIR "prog '%s/elf'",
		 dir, dir);
	assert_int_equal(system(cmd), 0);
	setenv("HOME", "/root", 1);
	assert_int_equal(read_path(&p, DIR "fp.data", &o, &diag), 0);
	assert_int_equal(resolve_perf(&p, NULL, 0, &ro, NULL), 0);
	assert_int_not_equal(func_named(&p, "prog", "leaf"), NO_ID);
	assert_int_not_equal(func_named(&p, "prog", "main"), NO_ID);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
	free(diag);
	profile_release(&p);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home);
	assert_int_equal(system(cmd), 0);
	free(home);
}

/*
 * --disasm's costs per instruction: the period of the samples at each
 * instruction of leaf and lib_spin equals perf annotate
 * --show-total-period's, and no instruction has cost perf's lacks.
 */
static void annotate_one(const struct run *r, const char *fn)
{
	const struct profile *p = &r->p;
	char path[256], *text, *line, *save = NULL;
	uint32_t f = NO_ID;
	uint64_t theirs = 0, ours = 0;
	size_t len;

	for (uint32_t i = 0; i < p->nfuncs && f == NO_ID; i++)
		if (!strcmp(profile_str(p, p->funcs[i].name), fn))
			f = i;
	assert_int_not_equal(f, NO_ID);
	snprintf(path, sizeof(path), DIR "fp-%s.annotate", fn);
	text = slurp(path, &len);
	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long period, addr;
		uint64_t got = 0;

		if (sscanf(line, " %llu : %llx:", &period, &addr) != 2)
			fail_msg("%s: not an annotate line: %s", path, line);
		for (size_t q = 0; q < p->npos; q++)
			if (p->pos[q].func == f && p->pos[q].addr == addr)
				got += profile_pos_cost(p, (uint32_t)q)[0];
		if (got != period)
			fail_msg("%s at 0x%llx: perf %llu, ours %llu", fn, addr,
				 period, (unsigned long long)got);
		theirs += period;
	}
	for (size_t q = 0; q < p->npos; q++)
		if (p->pos[q].func == f)
			ours += profile_pos_cost(p, (uint32_t)q)[0];
	assert_int_equal(ours, theirs);
	assert_int_equal(ours, profile_self(p, f)[0]);
	free(text);
}

static void test_annotate(void **state)
{
	struct run r;

	(void)state;
	load_opts(&r, "fp", NULL, true);
	annotate_one(&r, "leaf");
	annotate_one(&r, "lib_spin");
	unload(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fp_self),
		cmocka_unit_test(test_fp_children),
		cmocka_unit_test(test_two_events),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_dwarf_self),
		cmocka_unit_test(test_dwarf_children),
		cmocka_unit_test(test_dwarf_cxx),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_inline_cxx),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_build_id_cache),
		cmocka_unit_test(test_annotate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
