/*
 * See fuzz_pipeline.h. The input goes into a memfd and is opened by its
 * /proc/self/fd path, so the readers see a real file and the fuzzer
 * does not write to disk.
 */
#include "fuzz_pipeline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/names.h"
#include "cg/cg.h"
#include "cli/part_reads.h"
#include "print/html_samples.h"
#include "print/report_keep.h"
#include "print/print.h"
#include "print/write_gmon.h"
#include "print/write_pprof.h"
#include "profile/profile.h"
#include "read/read.h"
#include "resolve/resolve.h"
#include "symtab/symtab.h"

FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (!f) {
		f = fopen("/dev/null", "w");
		if (!f)
			abort();
		diag_set_sink(f);
	}
	return f;
}

/* A memfd holding data; *path names it. Returns the fd, or -1. */
static int to_memfd(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz", 0);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

/*
 * A profile read (and resolved), finished, analysed and printed as
 * JSON, leaks (when asked), flat profile and call graph (entries under
 * graph_threshold percent left out), ranked by event sort_event.
 */
static void analyse_and_print(struct profile *p, uint32_t sort_event,
			      bool leaks, double graph_threshold, FILE *out)
{
	struct print_opts po = { 0 };
	struct cg cg;
	uint32_t show[4];

	memset(&cg, 0, sizeof(cg));
	profile_finish(p);
	if (!p->nevents)
		return;
	po.nshow = p->nevents < 4 ? p->nevents : 4;
	for (size_t e = 0; e < po.nshow; e++)
		show[e] = (uint32_t)e;
	po.show = show;
	po.sort_event = sort_event;
	po.indexes = true;
	cg_build(&cg, p, po.sort_event);
	cg_find_cycles(&cg);
	if (cg_propagate_measured(&cg) < 0)
		goto out;
	cg_rank(&cg);
	po.leaks = leaks;
	print_json(out, &cg, &po);
	if (leaks)
		print_leaks(out, &cg, &po);
	/* Callgrind's and IgProf's threads and parts (--threads, --parts) */
	if (!p->nthreads) {
		print_part_threads(out, p, &po);
		print_parts(out, p, &po);
	}
	print_flat(out, &cg, &po);
	po.brief = true;
	po.threshold = graph_threshold;
	print_graph(out, &cg, &po);
out:
	cg_release(&cg);
}

static void run_profile(const char *path, const struct read_opts *ro, FILE *out)
{
	struct profile p;

	profile_init(&p);
	if (read_profile(&p, path, ro) < 0)
		goto out;
	analyse_and_print(&p, (uint32_t)(p.nevents ? p.nevents - 1 : 0),
			  ro->want_leaks, 0.5, out);
out:
	profile_release(&p);
}

/*
 * The report (--output=html) of a profile of parts, at its default
 * threshold: each selected part read again alone (cli/part_reads.c),
 * placed on the whole's tree (html_parts.c) and written with the rest
 * of the page (print_html.c, html_samples.c).
 */
static void run_report_parts(const char *path, const struct read_opts *ro,
			     FILE *out)
{
	struct options o = { .fold_recursion = ro->fold_recursion,
			     .lenient = ro->lenient,
			     .counter = ro->counter };
	struct print_opts po = { 0 };
	struct part_reads pr;
	struct profile p;
	struct cg cg;
	uint32_t show[4];

	profile_init(&p);
	if (read_profile(&p, path, ro) < 0 || profile_finish(&p) < 0 ||
	    !p.nevents || p.nparts < 2)
		goto out;
	po.nshow = p.nevents < 4 ? p.nevents : 4;
	for (size_t e = 0; e < po.nshow; e++)
		show[e] = (uint32_t)e;
	po.show = show;
	po.sort_event = p.nevents - 1;
	cg_build(&cg, &p, po.sort_event);
	cg_find_cycles(&cg);
	if (cg_propagate_measured(&cg) < 0)
		goto out_cg;
	cg_rank(&cg);
	part_reads_load(&pr, &o, &cg, po.sort_event);
	po.parts = &pr.parts;
	po.nparts = pr.parts.nparts;
	po.why_parts = pr.why;
	po.threshold = 0.5;
	print_html(out, &cg, &po, "fuzz", NULL);
	part_reads_release(&pr);
out_cg:
	cg_release(&cg);
out:
	profile_release(&p);
}

void fuzz_callgrind_one(const uint8_t *data, size_t size)
{
	FILE *out = fuzz_devnull();
	struct read_opts ro = { 0 };
	char path[64];
	int fd;

	if (size) {
		ro.fold_recursion = data[0] & 1;
		ro.lenient = data[0] & 2;
		ro.part = (data[0] & 4) ? 1 : 0;
	}
	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	ro.want_positions = false;
	run_profile(path, &ro, out);
	ro.want_positions = true;
	run_profile(path, &ro, out);
	ro.want_positions = false;
	ro.part = 0;
	run_report_parts(path, &ro, out);
	close(fd);
}

void fuzz_igprof_one(const uint8_t *data, size_t size)
{
	FILE *out = fuzz_devnull();
	struct read_opts ro = { .want_leaks = true, .want_positions = true };
	char path[64];
	int fd;

	if (size && (data[0] & 1))
		ro.counter = "MEM_LIVE";
	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	run_profile(path, &ro, out);
	ro.want_leaks = false;
	ro.want_positions = false;
	ro.want_stacks = true;
	run_report_parts(path, &ro, out);
	close(fd);
}

static void run_gmon(const char *path, const struct read_target *t, FILE *out)
{
	/* symbols only: DWARF adds file names, and takes most of the time */
	struct symtab_opts so = { .debug_dir = "/nonexistent", .demangle = true,
				  .no_dwarf = true };
	struct read_opts ro = { .target = t };
	/* positions too: the bins and arcs as instructions and call
	 * sites (gmon_pos.c), as --annotate and --disasm make them */
	struct resolve_opts rso = { .want_positions = true };
	struct resolve_report rep;
	struct print_opts po = { 0 };
	struct symtab st;
	struct profile p;
	struct cg cg;
	uint32_t show[1] = { 0 };
	bool have_st = false;

	profile_init(&p);
	memset(&cg, 0, sizeof(cg));
	if (symtab_open(&st, "tests/gmon/prog-nopie", &so, &p.names) < 0)
		abort();	/* run from the wrong directory */
	have_st = true;
	if (read_profile(&p, path, &ro) < 0 || !p.gmon)
		goto out;
	if (resolve_gmon(&p, &st, &rso, &rep) < 0)
		goto out;
	gmon_write(p.gmon, "/dev/null");
	profile_finish(&p);
	if (!p.nevents)
		goto out;
	p.totals[0] = (uint64_t)p.est_total;
	po.show = show;
	po.nshow = 1;
	po.indexes = true;
	cg_build(&cg, &p, 0);
	cg_find_cycles(&cg);
	cg_propagate_estimated(&cg, p.est_self);
	cg_rank(&cg);
	print_json(out, &cg, &po);
	print_flat(out, &cg, &po);
	po.brief = true;
	print_graph(out, &cg, &po);
out:
	cg_release(&cg);
	if (have_st)
		symtab_release(&st);
	profile_release(&p);
}

void fuzz_gmon_one(const uint8_t *data, size_t size)
{
	static const struct read_target native = { "prog", 8, false };
	static const struct read_target other = { "prog", 4, true };
	FILE *out = fuzz_devnull();
	char path[64];
	int fd;

	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	run_gmon(path, &native, out);
	run_gmon(path, &other, out);
	close(fd);
}

void fuzz_symtab_one(const uint8_t *data, size_t size)
{
	FILE *out = fuzz_devnull();
	struct symtab_opts so = { .debug_dir = "/nonexistent", .demangle = true };
	struct symtab st;
	struct arena arena;
	struct names names;
	char path[64];
	int fd;

	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	arena_init(&arena);
	names_init(&names, &arena);
	if (symtab_open(&st, path, &so, &names) == 0) {
		uint64_t addrs[8];
		size_t na = 0;
		struct frame fr[16];

		/* addresses from the input's tail, and from the table itself */
		for (size_t i = 0; i + 8 <= size && na < 4; i += 8) {
			uint64_t a;

			memcpy(&a, data + size - 8 - i, 8);
			addrs[na++] = a;
		}
		if (st.nsyms) {
			addrs[na++] = st.syms[0].addr;
			addrs[na++] = st.syms[st.nsyms / 2].addr + 1;
		}
		if (st.nlines)
			addrs[na++] = st.lines[st.nlines / 2].addr;
		if (st.nsegs)
			addrs[na++] = st.segs[0].vaddr;
		for (size_t i = 0; i < na; i++) {
			symtab_lookup(&st, addrs[i]);
			symtab_line(&st, addrs[i]);
			symtab_segment(&st, addrs[i]);
			symtab_frames(&st, addrs[i], fr, 16);
			symtab_format_addr2line(out, &st, addrs[i], true);
			symtab_format_addr2line(out, &st, addrs[i], false);
		}
		symtab_release(&st);
	}
	/* as a perf.data's objects are opened: names made when asked */
	so.no_dwarf = so.names_later = true;
	if (symtab_open(&st, path, &so, &names) == 0) {
		uint64_t want[17];
		size_t nw = 0;

		for (size_t i = 0; i < st.nsyms; i += 1 + st.nsyms / 16) {
			const struct sym *s = symtab_lookup(&st, st.syms[i].addr);

			if (s) {
				symtab_name(&st, s, i % 2 == 0);
				symtab_name(&st, s, i % 2 != 0);
			}
			if (nw < 17)
				want[nw++] = st.syms[i].addr;	/* sorted */
		}
		/* and the line rows of the units holding the functions
		 * (perf_lines.c: .debug_aranges, then those units alone) */
		symtab_load_lines(&st, want, nw, "/nonexistent");
		for (size_t i = 0; i < nw; i++)
			symtab_line(&st, want[i]);
		symtab_release(&st);
	}
	names_release(&names);
	arena_release(&arena);
	close(fd);
}

/*
 * A perf.data: read (every sample kept, and again with --comm and
 * --time), resolved against tests/perf/'s binaries and kallsyms (the
 * recorded objects looked for under a directory that does not exist),
 * analysed, printed.
 */
static void run_perf(const char *path, const struct perf_select *sel,
		     FILE *out)
{
	static const char *const bins[] = { "tests/perf/prog",
					    "tests/perf/libwork.so" };
	struct symtab_opts so = { .debug_dir = "/nonexistent", .demangle = true,
				  .no_dwarf = true };
	/* the unwinder (--call-graph dwarf) reads the binaries' CFI */
	struct perf_files files = { .binaries = bins, .nbinaries = 2,
				    .sysroot = "/nonexistent",
				    .debug_dir = "/nonexistent" };
	/* each sample logged and the stacks kept: the report's samples
	 * (html_samples.c) are written too */
	struct read_opts ro = { .perf_select = sel, .perf_files = &files,
				.perf_log_samples = true };
	struct resolve_opts rso = { .kallsyms = "tests/perf/kallsyms",
				    .sysroot = "/nonexistent",
				    .debug_dir = "/nonexistent",
				    .want_stacks = true };
	struct print_opts po = { 0 };
	struct cg cg;
	struct resolve_report rep[2];
	struct symtab st[2];
	struct symtab *stp[2] = { &st[0], &st[1] };
	struct profile p;

	profile_init(&p);
	for (int b = 0; b < 2; b++)
		if (symtab_open(&st[b], bins[b], &so, &p.names) < 0)
			abort();	/* run from the wrong directory */
	if (read_profile(&p, path, &ro) < 0 || !p.perf)
		goto out;
	/* the binaries may match no object of a mutated file: then
	 * without them */
	if (resolve_perf(&p, stp, 2, &rso, rep) < 0 &&
	    resolve_perf(&p, NULL, 0, &rso, rep) < 0)
		goto out;
	analyse_and_print(&p, 0, false, 0, out);
	if (p.nevents) {
		struct report_keep k;
		struct print_opts cut = po;

		cg_build(&cg, &p, 0);
		/* propagated, as analyze.c does before any report: the cut
		 * page's choice reads the inclusive costs */
		cg_find_cycles(&cg);
		if (cg_propagate_measured(&cg) < 0) {
			cg_release(&cg);
			goto out;
		}
		cg_rank(&cg);
		/* at the report's default threshold: a cut page's nodes */
		cut.threshold = 0.5;
		report_keep_init(&k, &cg, &cut);
		html_samples(out, &cg, &po, &k);
		report_keep_release(&k);
		cg_release(&cg);
	}
out:
	for (int b = 0; b < 2; b++)
		symtab_release(&st[b]);
	profile_release(&p);
}

void fuzz_perf_one(const uint8_t *data, size_t size)
{
	/* --comm, and --time's pass over every sample's time */
	static struct time_spec slice;
	static struct perf_select spinner = { .comms = "spinner" };
	FILE *out = fuzz_devnull();
	char path[64], why[600];
	int fd;

	if (!spinner.time) {
		if (time_spec_parse("25%-75%", &slice, why, sizeof(why)) < 0)
			abort();
		spinner.time = &slice;
	}
	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	run_perf(path, NULL, out);
	run_perf(path, &spinner, out);
	close(fd);
}

/*
 * A gperftools CPU or heap profile: read, resolved against
 * tests/gperf/'s prog and libgwork.so (the recorded objects looked for
 * under a directory that does not exist), analysed, printed.
 */
void fuzz_gperf_one(const uint8_t *data, size_t size)
{
	static const char *const bins[] = { "tests/gperf/prog",
					    "tests/gperf/libgwork.so" };
	struct symtab_opts so = { .debug_dir = "/nonexistent", .demangle = true,
				  .no_dwarf = true };
	struct read_opts ro = { 0 };
	struct resolve_opts rso = { .sysroot = "/nonexistent",
				    .debug_dir = "/nonexistent" };
	struct resolve_report rep[2];
	struct symtab st[2];
	struct symtab *stp[2] = { &st[0], &st[1] };
	FILE *out = fuzz_devnull();
	struct profile p;
	char path[64];
	int fd;

	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	profile_init(&p);
	for (int b = 0; b < 2; b++)
		if (symtab_open(&st[b], bins[b], &so, &p.names) < 0)
			abort();	/* run from the wrong directory */
	if (read_profile(&p, path, &ro) < 0 || !p.perf)
		goto out;
	if (resolve_perf(&p, stp, 2, &rso, rep) < 0 &&
	    resolve_perf(&p, NULL, 0, &rso, rep) < 0)
		goto out;
	analyse_and_print(&p, 0, false, 0, out);
out:
	for (int b = 0; b < 2; b++)
		symtab_release(&st[b]);
	profile_release(&p);
	close(fd);
}

/*
 * A pprof profile.proto: read with positions and stacks (an
 * unsymbolized one resolved without binaries), analysed, printed, and
 * written again as --output=pprof (to /dev/null).
 */
void fuzz_pprof_one(const uint8_t *data, size_t size)
{
	FILE *out = fuzz_devnull();
	struct read_opts ro = { .want_positions = true, .want_stacks = true };
	struct resolve_opts rso = { .sysroot = "/nonexistent",
				    .debug_dir = "/nonexistent",
				    .kallsyms = "/nonexistent",
				    .want_stacks = true };
	struct resolve_report rep[1];
	struct print_opts po = { 0 };
	struct profile p;
	struct cg cg;
	char path[64];
	int fd;

	memset(&cg, 0, sizeof(cg));
	fd = to_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		return;
	profile_init(&p);
	if (read_profile(&p, path, &ro) < 0)
		goto out;
	if (p.perf && resolve_perf(&p, NULL, 0, &rso, rep) < 0)
		goto out;
	profile_finish(&p);
	if (!p.nevents)
		goto out;
	po.sort_event = (uint32_t)(p.nevents - 1);
	po.indexes = true;
	cg_build(&cg, &p, po.sort_event);
	cg_find_cycles(&cg);
	if (cg_propagate_measured(&cg) < 0)
		goto out;
	cg_rank(&cg);
	print_json(out, &cg, &po);
	print_flat(out, &cg, &po);
	write_pprof(out, "/dev/null", &cg, &po);
out:
	cg_release(&cg);
	profile_release(&p);
	close(fd);
}
