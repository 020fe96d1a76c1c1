#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cg.h"
#include "diag.h"
#include "print.h"
#include "read.h"
#include "resolve.h"
#include "symtab.h"
#include "xalloc.h"

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
				.want_positions = o->nbinaries > 0 };
	struct resolve_opts rso = { .have_load_offset = o->have_load_offset,
				    .load_offset = o->load_offset,
				    .inlined = o->inlined_callee ? INLINE_CALLEE
								 : INLINE_CALLER,
				    .demangle = !o->no_demangle };
	struct resolve_report *reports = NULL;
	struct symtab **st = NULL;
	struct print_opts po = { 0 };
	struct profile p;
	struct cg cg;
	uint32_t *show = NULL;
	int ret = 1;

	profile_init(&p);
	memset(&cg, 0, sizeof(cg));
	for (int i = 0; i < o->ninputs; i++)
		if (read_profile(&p, o->inputs[i], &ro) < 0)
			goto out;
	if (o->nbinaries) {
		st = xcalloc((size_t)o->nbinaries, sizeof(*st));
		reports = xcalloc((size_t)o->nbinaries, sizeof(*reports));
		if (open_binaries(o, &p.names, st) < 0 ||
		    resolve_profile(&p, st, (size_t)o->nbinaries, &rso, reports) < 0)
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
	show = parse_show(&p, o->show, &po.nshow);
	if (!show) {
		ret = 2;
		goto out;
	}
	po.show = show;
	po.threshold = o->threshold;
	po.brief = o->brief;
	po.indexes = o->graph;
	po.reports = reports;
	po.nreports = reports ? (size_t)o->nbinaries : 0;
	po.inlined = rso.inlined;

	cg_build(&cg, &p, po.sort_event);
	cg_find_cycles(&cg);
	cg_propagate_measured(&cg);
	cg_rank(&cg);

	if (o->mode == OUT_JSON) {
		print_json(out, &cg, &po);
	} else {
		if (o->nbinaries) {
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
	}
	ret = 0;
out:
	free(show);
	cg_release(&cg);
	if (st)
		close_binaries(st, o->nbinaries);
	free(reports);
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
