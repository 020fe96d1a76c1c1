#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "print/annotate.h"
#include "cg/cg.h"
#include "base/diag.h"
#include "profile/gmon_data.h"
#include "print/print.h"
#include "read/read.h"
#include "resolve/resolve.h"
#include "select/selection.h"
#include "symtab/symtab.h"
#include "print/write_callgrind.h"
#include "base/xalloc.h"

static int find_event(const struct profile *p, const char *name, size_t len,
		      uint32_t *out)
{
	for (size_t e = 0; e < p->nevents; e++) {
		const char *n = profile_str(p, p->events[e].name);

		if (strlen(n) == len && !memcmp(n, name, len)) {
			*out = (uint32_t)e;
			return 0;
		}
	}
	return error("the profile has no event '%.*s' (it has: %s%s)", (int)len,
		     name, profile_str(p, p->events[0].name),
		     p->nevents > 1 ? ", ..." : "");
}

/* --counter: an event the profile has, or a usage error naming them all. */
static int find_counter(const struct profile *p, const char *name,
			uint32_t *out)
{
	char list[1024];
	size_t n = 0;

	for (size_t e = 0; e < p->nevents; e++) {
		const char *ev = profile_str(p, p->events[e].name);

		if (!strcmp(ev, name)) {
			*out = (uint32_t)e;
			return 0;
		}
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
					      e ? ", " : "", ev);
	}
	return error("the profile has no counter '%s' (it has: %s%s)", name,
		     list, n >= sizeof(list) ? "..." : "");
}

/* Events for --show: the list given, or all of them. */
static uint32_t *parse_show(const struct profile *p, const char *show,
			    size_t *n)
{
	uint32_t *ev = xcalloc(p->nevents + 1, sizeof(*ev));

	*n = 0;
	if (!show) {
		for (size_t e = 0; e < p->nevents; e++)
			ev[(*n)++] = (uint32_t)e;
		return ev;
	}
	while (*show) {
		const char *comma = strchr(show, ',');
		size_t len = comma ? (size_t)(comma - show) : strlen(show);
		uint32_t e;

		if (len) {
			if (find_event(p, show, len, &e) < 0) {
				free(ev);
				return NULL;
			}
			if (*n < p->nevents)
				ev[(*n)++] = e;
		}
		show += len + (comma ? 1 : 0);
	}
	return ev;
}

/* The newest modification time of the profiles read from files: a
 * source changed after it no longer matches the profile's lines. */
static time_t newest_mtime(const struct options *o)
{
	time_t newest = 0;

	for (int i = 0; i < o->ninputs; i++) {
		struct stat sb;

		if (strcmp(o->inputs[i], "-") && stat(o->inputs[i], &sb) == 0 &&
		    S_ISREG(sb.st_mode) && sb.st_mtime > newest)
			newest = sb.st_mtime;
	}
	return newest;
}

static void symtab_opts_from(const struct options *o, struct symtab_opts *so)
{
	memset(so, 0, sizeof(*so));
	so->debug_dir = o->debug_dir;
	so->demangle = true;	/* --no-demangle picks the raw names later */
}

/* Load every -b binary; st[] gets o->nbinaries entries. */
static int open_binaries(const struct options *o, struct names *names,
			 struct symtab **st)
{
	struct symtab_opts so;

	symtab_opts_from(o, &so);
	for (int b = 0; b < o->nbinaries; b++) {
		st[b] = xcalloc(1, sizeof(**st));
		if (symtab_open(st[b], o->binaries[b], &so, names) < 0) {
			free(st[b]);
			st[b] = NULL;
			return -1;
		}
	}
	return 0;
}

static void close_binaries(struct symtab **st, int n)
{
	for (int b = 0; b < n; b++) {
		if (!st[b])
			continue;
		symtab_release(st[b]);
		free(st[b]);
	}
	free(st);
}

int analyze_run(const struct options *o, FILE *out)
{
	struct read_opts ro = { .part = o->part,
				.fold_recursion = o->fold_recursion,
				.lenient = o->lenient,
				.want_positions = o->nbinaries > 0 ||
						  o->annotate || o->disasm ||
						  o->mode == OUT_CALLGRIND,
				.counter = o->counter,
				.want_leaks = o->leaks,
				.thread = o->reader_thread };
	struct resolve_opts rso = { .have_load_offset = o->have_load_offset,
				    .load_offset = o->load_offset,
				    .inlined = o->inlined_callee ? INLINE_CALLEE
								 : INLINE_CALLER,
				    .demangle = !o->no_demangle,
				    .want_positions = o->annotate || o->disasm };
	struct resolve_report *reports = NULL;
	struct symtab **st = NULL;
	struct read_target target;
	struct print_opts po = { 0 };
	struct source_opts so = { .dirs = o->source_dirs,
				  .ndirs = o->nsource_dirs,
				  .maps = o->source_maps,
				  .nmaps = o->nsource_maps,
				  .profile_mtime = newest_mtime(o) };
	struct sources sources;
	struct annotation ann = { 0 };
	struct selection sel = { 0 };
	struct profile p;
	struct cg cg;
	uint32_t *show = NULL;
	int ret = 1;

	profile_init(&p);
	sources_init(&sources, &so);
	memset(&cg, 0, sizeof(cg));
	/* binaries first: a gmon.out is read with the binary's address
	 * size and byte order */
	if (o->nbinaries) {
		st = xcalloc((size_t)o->nbinaries, sizeof(*st));
		reports = xcalloc((size_t)o->nbinaries, sizeof(*reports));
		if (open_binaries(o, &p.names, st) < 0)
			goto out;
		target.binary = st[0]->path;
		target.addr_size = st[0]->elf_class == 2 /* ELFCLASS64 */ ? 8 : 4;
		target.big_endian = st[0]->big_endian;
		ro.target = &target;
	}
	for (int i = 0; i < o->ninputs; i++)
		if (read_profile(&p, o->inputs[i], &ro) < 0)
			goto out;
	if (o->sum && !p.gmon) {
		error("--sum writes gmon.out data, and no input is a gmon.out");
		ret = 2;
		goto out;
	}
	if (p.gmon && p.nfuncs) {
		error("gmon.out data cannot be added to a profile of another format");
		goto out;
	}
	if (p.gmon) {
		if (resolve_gmon(&p, st[0], &rso, &reports[0]) < 0)
			goto out;
		if (o->sum && gmon_write(p.gmon, o->sum) < 0)
			goto out;
	} else if (o->nbinaries &&
		   resolve_profile(&p, st, (size_t)o->nbinaries, &rso, reports) < 0) {
		goto out;
	}
	if (o->part) {
		uint32_t found = 0;

		for (size_t i = 0; i < p.ninputs; i++)
			found += p.inputs[i].nselected;
		if (!found) {
			error("no part %llu in %s", (unsigned long long)o->part,
			      o->ninputs > 1 ? "any of the profiles" : o->inputs[0]);
			goto out;
		}
	}
	profile_finish(&p);
	/* gmon.out: percentages of self time are of every histogram tick,
	 * also those no function got (gprof's total_time) */
	if (p.est_self && p.nevents)
		p.totals[0] = (uint64_t)p.est_total;
	if (!p.nevents) {
		error("no events in the profile");
		goto out;
	}
	/* an event the profile lacks is a usage error */
	if (o->sort_event &&
	    find_event(&p, o->sort_event, strlen(o->sort_event), &po.sort_event) < 0) {
		ret = 2;
		goto out;
	}
	if (o->counter) {
		uint32_t e = 0;

		if (find_counter(&p, o->counter, &e) < 0) {
			ret = 2;
			goto out;
		}
		if (!o->sort_event)
			po.sort_event = e;
	}
	show = parse_show(&p, o->show, &po.nshow);
	if (!show) {
		ret = 2;
		goto out;
	}
	po.show = show;
	po.threshold = o->threshold;
	po.par_chunk = o->print_chunk;
	po.brief = o->brief;
	po.indexes = o->graph;
	po.reports = reports;
	po.nreports = reports ? (size_t)(p.gmon ? 1 : o->nbinaries) : 0;
	po.inlined = rso.inlined;
	po.symtabs = st;
	po.sources = &sources;
	po.annotate = o->annotate;
	po.annotate_what = o->annotate_what;
	po.context = o->context;
	po.inline_calls = o->inline_calls;
	po.disasm = o->disasm;
	po.disasm_what = o->disasm_what;
	po.leaks = o->leaks;
	po.no_demangle = o->no_demangle;
	po.node_threshold = o->node_threshold;
	po.edge_threshold = o->edge_threshold;

	/* gprof's symspecs: -k deletes calls before the analysis, the
	 * others choose what the listings show */
	selection_init(&sel, &p, o->specs, o->nspecs);
	/* the listings pick files and functions of 1% or more by
	 * themselves; those -p names are the user's pick, taken whatever
	 * their cost unless --threshold is given */
	po.listing_threshold = o->threshold_given ? o->threshold
			       : sel.flat_named ? 0.0 : 1.0;
	cg_build_without(&cg, &p, po.sort_event, sel.deleted);
	cg_find_cycles(&cg);
	selection_graph(&sel, &cg);
	po.flat_listed = sel.flat;
	po.graph_listed = sel.graph;
	po.cycle_listed = sel.cycles;
	po.arc_deleted = sel.deleted;
	if (p.est_self)
		cg_propagate_estimated(&cg, p.est_self);
	else if (cg_propagate_measured(&cg) < 0) {
		ret = 1;
		goto out;
	}
	cg_rank(&cg);
	if (o->annotate) {
		if (annotation_build(&ann, &cg, &po) < 0) {
			ret = 2;	/* WHAT names nothing, like --sort */
			goto out;
		}
		po.annotation = &ann;
	}

	if (o->disasm && (ret = print_disasm_check(&cg, &po)) != 0)
		goto out;
	ret = 1;
	/* the picture first: when dot is missing, nothing else is printed */
	if (o->svg && print_svg(o->svg, &cg, &po) < 0)
		goto out;
	if (o->mode == OUT_CALLGRIND) {
		if (write_callgrind(out, o->output_file ? o->output_file
							: "the standard output",
				    &cg) < 0)
			goto out;
	} else if (o->dot) {
		print_dot(out, &cg, &po);
	} else if (o->mode == OUT_JSON) {
		print_json(out, &cg, &po);
	} else if (o->flat || o->graph || o->annotate || o->disasm || o->leaks) {
		if (p.gmon) {
			resolve_gmon_print_notes(out, &reports[0]);
			fputc('\n', out);
		} else if (o->nbinaries) {
			resolve_print_notes(out, &p, reports,
					    (size_t)o->nbinaries, &rso);
			fputc('\n', out);
		}
		if (o->flat)
			print_flat(out, &cg, &po);
		if (o->flat && o->graph)
			fputs("\n", out);
		if (o->graph)
			print_graph(out, &cg, &po);
		if (o->annotate) {
			if (o->flat || o->graph)
				fputs("\n", out);
			print_annotate(out, &cg, &po);
		}
		if (o->disasm) {
			if (o->flat || o->graph || o->annotate)
				fputs("\n", out);
			if (print_disasm(out, &cg, &po) < 0)
				goto out;
		}
		if (o->leaks && (o->flat || o->graph || o->annotate || o->disasm))
			fputs("\n", out);
		if (o->leaks)
			print_leaks(out, &cg, &po);
	}
	ret = 0;
out:
	free(show);
	selection_release(&sel);
	cg_release(&cg);
	if (st)
		close_binaries(st, o->nbinaries);
	free(reports);
	annotation_release(&ann);
	sources_release(&sources);
	profile_release(&p);
	return ret;
}

/* An address: hex with or without 0x, as addr2line takes them. */
static int parse_address(const char *s, uint64_t *out)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 16);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	return errno || *end ? -1 : 0;
}

/* lineno 0: arg is a command-line argument. */
static int resolve_one(FILE *out, const struct symtab *st, const char *arg,
		       uint64_t lineno, bool inlines)
{
	uint64_t addr;

	if (parse_address(arg, &addr) < 0) {
		int n = (int)strcspn(arg, "\r\n");
		const char *more = n > 64 ? "..." : "";

		if (!lineno)
			return error("'%.64s%s' is not an address (hex, with "
				     "or without 0x)", arg, more);
		return error_at("<stdin>", lineno, "'%.*s%s' is not an "
				"address (hex, with or without 0x)",
				n > 64 ? 64 : n, arg, more);
	}
	symtab_format_addr2line(out, st, addr, inlines);
	return 0;
}

/*
 * One line of addresses from in, at most size - 1 bytes, without its
 * newline; a longer line is consumed whole and *too_long set (an address
 * has 18 characters: no need to hold gigabytes). Returns false at the end.
 */
static bool read_address_line(FILE *in, char *buf, size_t size,
			      bool *too_long)
{
	size_t len;

	*too_long = false;
	if (!fgets(buf, (int)size, in))
		return false;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n') {
		buf[len - 1] = '\0';
		return true;
	}
	if (feof(in))
		return true;
	*too_long = true;
	for (int c; (c = getc(in)) != EOF && c != '\n';)
		;
	return true;
}

int resolve_run(const struct options *o, FILE *in, FILE *out)
{
	struct arena arena;
	struct names names;
	struct symtab **st = xcalloc(1, sizeof(*st));
	int ret = 1;

	arena_init(&arena);
	names_init(&names, &arena);
	if (open_binaries(o, &names, st) < 0)
		goto out;
	ret = 0;
	if (o->ninputs) {
		for (int i = 0; i < o->ninputs; i++)
			if (resolve_one(out, st[0], o->inputs[i], 0,
					o->inlines) < 0)
				ret = 2;
	} else {
		char line[4096];
		uint64_t lineno = 0;
		bool too_long;
		struct stat sb;
		/* Like addr2line, answer each line as it comes when another
		 * program may be waiting for it (a pipe, a terminal); from a
		 * file, write in blocks. */
		bool interactive = fstat(fileno(in), &sb) < 0 ||
				   !S_ISREG(sb.st_mode);

		while (read_address_line(in, line, sizeof(line), &too_long)) {
			lineno++;
			if (too_long) {
				error_at("<stdin>", lineno, "line longer than "
					 "%zu bytes: not an address",
					 sizeof(line) - 2);
				ret = 1;
			} else if (resolve_one(out, st[0], line, lineno,
					       o->inlines) < 0) {
				ret = 1;
			}
			if (interactive)
				fflush(out);
		}
		if (ferror(in)) {
			error_errno("<stdin>: read error");
			ret = 1;
		}
	}
out:
	close_binaries(st, 1);
	names_release(&names);
	arena_release(&arena);
	return ret;
}
