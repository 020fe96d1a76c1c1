/*
 * The disassembly listing (--disasm): each chosen function's machine
 * code with the profile's cost at every instruction, the source lines
 * (and inline chains) it came from, the calls and jumps made from each
 * instruction, and whatever cost could not be put on an instruction.
 * Also its JSON form, for print_json.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "disasm_data.h"
#include "disasm_members.h"
#include "fmt.h"
#include "inline_chain.h"
#include "json_write.h"

#define HOT_PERCENT 5.0		/* '*': as perf annotate colours red */
#define MAX_UNPLACED_ROWS 20	/* then one line for the rest */

static const char no_instr_msg[] =
	"the profile has no instruction addresses, which --disasm needs: "
	"record it with valgrind --tool=callgrind --dump-instr=yes "
	"(and --collect-jumps=yes for jumps)";

/* A symbolized pprof profile keeps its lines, not its addresses
 * (read/pprof/read_pprof.c): the valgrind advice would not help. */
static int no_instr(const struct profile *p)
{
	for (size_t i = 0; i < p->ninputs; i++)
		if (!strcmp(profile_str(p, p->inputs[i].format), "pprof"))
			return error("a symbolized pprof profile keeps source "
				     "lines, not instruction addresses, which "
				     "--disasm needs: its addresses are where "
				     "the code was loaded (an unsymbolized "
				     "profile, go tool pprof -symbolize=none, "
				     "is read by address with -b)");
	return error("%s", no_instr_msg);
}

int print_disasm_check(const struct cg *cg, const struct print_opts *o)
{
	struct disasm_pick *picks = NULL;
	size_t n = 0;
	int r;

	if (!cg->p->has_instr) {
		no_instr(cg->p);
		return 1;
	}
	r = disasm_pick(cg, o, &picks, &n);
	free(picks);
	return r < 0 ? 2 : 0;
}

/* The profile function named after the symbol, else the first listed,
 * or NO_ID. */
static uint32_t main_func(const struct disasm_listing *l)
{
	for (size_t i = 0; i < l->nfuncs; i++) {
		const char *name = profile_str(l->p, l->p->funcs[l->funcs[i]].name);

		if (!strcmp(name, names_str(l->st->names, l->sym->name)) ||
		    !strcmp(name, names_str(l->st->names, l->sym->raw)))
			return l->funcs[i];
	}
	return l->nfuncs ? l->funcs[0] : NO_ID;
}

/* --- text --- */

struct layout {
	const struct print_opts *o;
	const struct disasm_listing *l;
	int *w;			/* width of each shown event's column */
	int waddr;		/* hex digits of the widest address */
	int indent;		/* where the address column starts */
	uint64_t fn_total;	/* the sort event's self cost, for percents */
};

static void widen(struct layout *lay, const uint64_t *row)
{
	char buf[FMT_NUM_MAX];

	for (size_t i = 0; i < lay->o->nshow; i++) {
		int d = (int)strlen(fmt_count(buf, row[lay->o->show[i]],
					      lay->o->digit_groups));

		if (d > lay->w[i])
			lay->w[i] = d;
	}
}

static void layout_init(struct layout *lay, const struct print_opts *o,
			const struct disasm_listing *l)
{
	const struct profile *p = l->p;
	char buf[32];

	memset(lay, 0, sizeof(*lay));
	lay->o = o;
	lay->l = l;
	lay->w = xcalloc(o->nshow + 1, sizeof(*lay->w));
	for (size_t i = 0; i < o->nshow; i++)
		lay->w[i] = (int)strlen(event_column_name(p, o->show[i]));
	widen(lay, l->self);
	widen(lay, l->placed);
	for (size_t k = 0; k < l->nsites; k++)
		widen(lay, profile_callsite_incl(p, l->sites[k].idx));
	for (size_t k = 0; k < l->nunplaced; k++)
		widen(lay, dl_row(l->unplaced_cost, l, k));
	lay->waddr = snprintf(buf, sizeof(buf), "%llx",
			      (unsigned long long)l->sym->end);
	lay->indent = 0;
	for (size_t i = 0; i < o->nshow; i++)
		lay->indent += lay->w[i] + 1;
	lay->indent += 8;	/* " 100.00*" */
	lay->fn_total = l->self[o->sort_event];
}

enum pct_col {
	PCT_NONE,		/* blank */
	PCT_HOT,		/* the percent, '*' when hot */
	PCT_PLAIN,		/* the percent */
};

/* The cost columns of row (blank for zero), then the percent column. */
static void put_costs(FILE *out, const struct layout *lay, const uint64_t *row,
		      enum pct_col with_pct)
{
	const struct print_opts *o = lay->o;
	char buf[FMT_NUM_MAX];

	for (size_t i = 0; i < o->nshow; i++) {
		uint64_t v = row ? row[o->show[i]] : 0;

		if (v)
			fprintf(out, "%*s ", lay->w[i],
				fmt_count(buf, v, o->digit_groups));
		else
			fprintf(out, "%*s ", lay->w[i], "");
	}
	if (with_pct && row && row[o->sort_event] && lay->fn_total) {
		double pct = (double)row[o->sort_event] * 100.0 /
			     (double)lay->fn_total;

		fprintf(out, "%6.2f%c ", pct,
			with_pct == PCT_HOT && pct >= HOT_PERCENT ? '*' : ' ');
	} else {
		fprintf(out, "%8s", "");
	}
}

struct stale_seen {
	const struct source_file *v[16];
	size_t n;
};

/*
 * "file:line", for inlined code the chain of functions it was inlined
 * into ("(inlined: mix <- work at prog.c:40)", each with the line of the
 * call), then the source text.
 */
static void put_source(FILE *out, const struct layout *lay,
		       const struct frame *fr, size_t n, struct stale_seen *stale)
{
	const struct names *names = lay->l->st->names;
	const struct source_file *src;
	const char *text;
	size_t len;

	if (!n || fr[0].file == NO_NAME || !fr[0].line)
		return;
	fprintf(out, "%*s%s:%u", lay->indent, "", names_str(names, fr[0].file),
		fr[0].line);
	if (n > 1) {
		fputs("  (inlined: ", out);
		inline_chain_put(out, names, fr, n);
		fputc(')', out);
	}
	fputc('\n', out);
	src = sources_get(lay->o->sources, names_str(names, fr[0].file));
	text = source_line(src, fr[0].line, &len);
	if (!text)
		return;
	fprintf(out, "%*s  %.*s\n", lay->indent, "", (int)len, text);
	if (src->stale) {
		for (size_t k = 0; k < stale->n; k++)
			if (stale->v[k] == src)
				return;
		if (stale->n < sizeof(stale->v) / sizeof(*stale->v))
			stale->v[stale->n++] = src;
	}
}

static void put_calls(FILE *out, const struct layout *lay,
		      const struct name_labels *nl, const struct cg *cg,
		      size_t *k, uint32_t insn)
{
	const struct disasm_listing *l = lay->l;
	const struct profile *p = l->p;
	char label[4096], num[FMT_NUM_MAX];

	for (; *k < l->nsites && l->sites[*k].insn == insn; (*k)++) {
		const struct pcallsite *cs = &p->callsites[l->sites[*k].idx];

		put_costs(out, lay, profile_callsite_incl(p, l->sites[*k].idx),
			  PCT_NONE);
		fprintf(out, "%*s  => %s (%s call%s", lay->waddr, "",
			func_label(nl, cg, p->calls[cs->call].callee,
				   lay->o->indexes, label, sizeof(label)),
			fmt_count(num, cs->count, lay->o->digit_groups),
			cs->count == 1 ? "" : "s");
		/* several profile functions share this code: say whose */
		if (l->nfuncs > 1)
			fprintf(out, " from %s",
				func_label(nl, cg, p->calls[cs->call].caller,
					   lay->o->indexes, label, sizeof(label)));
		fputs(")\n", out);
	}
}

static void put_jumps(FILE *out, const struct layout *lay, size_t *k,
		      uint32_t insn)
{
	const struct disasm_listing *l = lay->l;
	bool groups = lay->o->digit_groups;
	char target[4096], num[FMT_NUM_MAX];

	for (; *k < l->njumps && l->jumps[*k].insn == insn; (*k)++) {
		const struct pjump *j = &l->p->jumps[l->jumps[*k].idx];

		if (j->to_addr)
			disasm_format_addr(l->st, j->to_addr - l->r->load_offset,
					   l->demangle, target, sizeof(target));
		else
			snprintf(target, sizeof(target), "%s:%u",
				 j->to_file != NO_NAME
					 ? profile_str(l->p, j->to_file) : "??",
				 j->to_line);
		fprintf(out, "%*s  %*s  | jump executed %s", lay->indent, "",
			lay->waddr, "", fmt_count(num, j->executed, groups));
		if (j->conditional)
			fprintf(out, ", taken %s (%.1f%%)",
				fmt_count(num, j->followed, groups),
				j->executed ? (double)j->followed * 100.0 /
						      (double)j->executed
					    : 0.0);
		fprintf(out, " -> %s\n", target);
	}
}

static const char *where_text(enum dl_where w)
{
	switch (w) {
	case DL_MID_INSN:
		return "inside the function, where no instruction starts";
	case DL_OUTSIDE:
		return "outside the function's symbol";
	case DL_NO_ADDR:
		return "at no address";
	default:
		return "?";
	}
}

static void put_unplaced(FILE *out, const struct layout *lay)
{
	const struct disasm_listing *l = lay->l;
	uint64_t *rest = xcalloc(l->stride + 1, sizeof(*rest));
	size_t nrest = 0;

	for (size_t k = 0; k < l->nunplaced; k++) {
		const uint64_t *row = dl_row(l->unplaced_cost, l, k);

		if (k >= MAX_UNPLACED_ROWS) {
			for (size_t e = 0; e < l->stride; e++)
				profile_combine(l->p, e, &rest[e], row[e]);
			nrest++;
			continue;
		}
		put_costs(out, lay, row, PCT_NONE);
		if (l->unplaced[k].where == DL_NO_ADDR)
			fprintf(out, "%*s  cost %s\n", lay->waddr, "",
				where_text(l->unplaced[k].where));
		else {
			char where[4096];

			disasm_format_addr(l->st, l->unplaced[k].addr,
					   l->demangle, where, sizeof(where));
			fprintf(out, "%*s  cost %s\n", lay->waddr, where,
				where_text(l->unplaced[k].where));
		}
	}
	if (nrest) {
		put_costs(out, lay, rest, PCT_NONE);
		fprintf(out, "%*s  cost at %zu more such addresses\n",
			lay->waddr, "", nrest);
	}
	free(rest);
}

static void put_header(FILE *out, const struct cg *cg,
		       const struct print_opts *o, const struct disasm_listing *l,
		       const struct name_labels *nl)
{
	const struct profile *p = l->p;
	uint32_t ev = o->sort_event;
	char label[4096], num[FMT_NUM_MAX];

	/* a symbol's and an object's names are bytes of a binary or
	 * profile from elsewhere: escaped as the listings' names */
	fprintf(out, "Disassembly of %s [0x%llx, 0x%llx) in %s",
		name_escaped(names_str(l->st->names, l->demangle
						? l->sym->name : l->sym->raw),
			     label, sizeof(label)),
		(unsigned long long)l->sym->addr,
		(unsigned long long)l->sym->end, l->st->path);
	if (l->r->object != NO_NAME)
		fprintf(out, " (%s", name_escaped(profile_str(p, l->r->object),
						  label, sizeof(label)));
	else
		fputs(" (the whole profile", out);
	fprintf(out, ", load offset 0x%llx)\n",
		(unsigned long long)l->r->load_offset);
	if (!l->nfuncs) {
		fputs("No function of the profile ran this code.\n", out);
	} else {
		fprintf(out, "Profile function%s: ", l->nfuncs > 1 ? "s" : "");
		for (size_t i = 0; i < l->nfuncs; i++)
			fprintf(out, "%s%s", i ? ", " : "",
				func_label(nl, cg, l->funcs[i], o->indexes,
					   label, sizeof(label)));
		fprintf(out, "; self cost %s",
			fmt_count(num, l->self[ev], o->digit_groups));
		/* "252,505,008 ns of cpu-clock": a perf.data's costs are
		 * its periods, not its samples */
		if (event_cost_unit(p, ev))
			fprintf(out, " %s of", event_cost_unit(p, ev));
		fprintf(out, " %s", event_column_name(p, ev));
		if (p->est_self && p->events[ev].unit_seconds > 0)
			fprintf(out, " of %g seconds", p->events[ev].unit_seconds);
		if (p->totals[ev])
			fprintf(out, ", %.2f%% of all",
				(double)l->self[ev] * 100.0 /
					(double)p->totals[ev]);
		fputs(".\n", out);
	}
	if (!l->code_ok)
		fputs("The code could not be disassembled (see the message "
		      "above); its costs are listed at the end.\n", out);
}

static void put_column_titles(FILE *out, const struct layout *lay)
{
	const struct profile *p = lay->l->p;

	for (size_t i = 0; i < lay->o->nshow; i++)
		fprintf(out, "%*s ", lay->w[i],
			event_column_name(p, lay->o->show[i]));
	fprintf(out, "%6s  %*s  %s\n", "%", lay->waddr, "addr", "instruction");
}

static void print_one(FILE *out, const struct cg *cg,
		      const struct print_opts *o, const struct disasm_listing *l,
		      const struct name_labels *nl)
{
	struct layout lay;
	struct frame prev[DISASM_MAX_FRAMES], cur[DISASM_MAX_FRAMES];
	size_t nprev = 0, ks = 0, kj = 0;
	struct stale_seen stale = { .n = 0 };
	const struct profile *p = l->p;

	layout_init(&lay, o, l);
	put_header(out, cg, o, l, nl);
	fputc('\n', out);
	put_column_titles(out, &lay);
	for (size_t i = 0; i < l->code.ninsns; i++) {
		const struct insn *in = &l->code.insns[i];
		size_t n = symtab_frames(l->st, in->addr, cur, DISASM_MAX_FRAMES);

		if (i == 0 || !inline_chain_same(cur, n, prev, nprev)) {
			put_source(out, &lay, cur, n, &stale);
			memcpy(prev, cur, n * sizeof(*cur));
			nprev = n;
		}
		put_costs(out, &lay, dl_row(l->cost, l, i), PCT_HOT);
		fprintf(out, "%*llx:  %s\n", lay.waddr,
			(unsigned long long)in->addr, insn_text(&l->code, in));
		put_calls(out, &lay, nl, cg, &ks, (uint32_t)i);
		put_jumps(out, &lay, &kj, (uint32_t)i);
	}
	put_unplaced(out, &lay);
	put_costs(out, &lay, l->placed, PCT_PLAIN);
	fprintf(out, "%*s  total of the %zu instructions\n", lay.waddr, "",
		l->code.ninsns);
	if (l->nunplaced || memcmp(l->placed, l->self,
				   l->stride * sizeof(*l->self))) {
		put_costs(out, &lay, l->self, PCT_NONE);
		fprintf(out, "%*s  self cost of the profile function%s\n",
			lay.waddr, "", l->nfuncs == 1 ? "" : "s");
	}
	for (size_t k = 0; k < stale.n; k++)
		fprintf(out, "Note: %s is newer than the profile: its lines may "
			"not be the ones that ran.\n", stale.v[k]->found);
	(void)p;
	free(lay.w);
}

int print_disasm(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	struct disasm_pick *picks = NULL;
	struct disasm_members m;
	struct name_labels *nl;
	size_t n = 0;

	if (!cg->p->has_instr)
		return no_instr(cg->p);
	if (disasm_pick(cg, o, &picks, &n) < 0)
		return -1;
	nl = name_labels_new(cg, o);
	name_labels_set_listed(nl, o->graph_listed);
	if (!n && o->flat_listed && o->listing_threshold <= 0)
		fputs("No function that -p/-P SPEC list has a cost in the "
		      "binaries.\n", out);
	else if (!n && o->flat_listed)
		fprintf(out, "No function that -p/-P SPEC list has %.4g%% or "
			"more of the total; --threshold sets how much.\n",
			o->listing_threshold);
	else if (!n)
		fprintf(out, "No function of the binaries has %.4g%% or more of "
			"the total; --threshold sets how much.\n",
			o->listing_threshold);
	disasm_members_init(&m, cg, o, picks, n);
	for (size_t i = 0; i < n; i++) {
		struct disasm_listing l;

		disasm_listing_build(&l, cg, o, picks, &m, i);
		if (i)
			fputc('\n', out);
		print_one(out, cg, o, &l, nl);
		disasm_listing_release(&l);
	}
	disasm_members_release(&m);
	name_labels_free(nl);
	free(picks);
	return 0;
}

/* --- JSON --- */

static void json_one(FILE *out, const struct disasm_listing *l)
{
	const struct profile *p = l->p;
	uint32_t fn = main_func(l);
	name_id sym = l->demangle ? l->sym->name : l->sym->raw;
	size_t ks = 0, kj = 0;

	fputs("{\"function\": ", out);
	if (fn == NO_ID)
		fputs("null", out);
	else
		fprintf(out, "%u", fn);
	fputs(", \"functions\": [", out);
	for (size_t i = 0; i < l->nfuncs; i++)
		fprintf(out, "%s%u", i ? ", " : "", l->funcs[i]);
	fputs("], \"name\": ", out);
	json_string(out, names_str(l->st->names, sym),
		    names_len(l->st->names, sym));
	fputs(", \"binary\": ", out);
	json_string(out, l->st->path, strlen(l->st->path));
	fprintf(out, ", \"load_offset\": %llu, \"start\": %llu, \"end\": %llu, "
		"\"disassembled\": %s, \"self\": ",
		(unsigned long long)l->r->load_offset,
		(unsigned long long)l->sym->addr, (unsigned long long)l->sym->end,
		l->code_ok ? "true" : "false");
	json_row(out, l->self, l->stride);
	fputs(",\n    \"instructions\": [", out);
	for (size_t i = 0; i < l->code.ninsns; i++) {
		const struct insn *in = &l->code.insns[i];
		const char *text = insn_text(&l->code, in);

		fprintf(out, "%s\n      {\"address\": %llu, \"text\": ",
			i ? "," : "", (unsigned long long)in->addr);
		json_string(out, text, strlen(text));
		fputs(", \"cost\": ", out);
		json_row(out, dl_row(l->cost, l, i), l->stride);
		if (ks < l->nsites && l->sites[ks].insn == i) {
			fputs(", \"calls\": [", out);
			for (bool first = true;
			     ks < l->nsites && l->sites[ks].insn == i;
			     ks++, first = false) {
				const struct pcallsite *cs =
					&p->callsites[l->sites[ks].idx];

				fprintf(out, "%s{\"callee\": %u, \"count\": %llu, "
					"\"inclusive\": ", first ? "" : ", ",
					p->calls[cs->call].callee,
					(unsigned long long)cs->count);
				json_row(out, profile_callsite_incl(p, l->sites[ks].idx),
					 l->stride);
				fputc('}', out);
			}
			fputc(']', out);
		}
		if (kj < l->njumps && l->jumps[kj].insn == i) {
			fputs(", \"jumps\": [", out);
			for (bool first = true;
			     kj < l->njumps && l->jumps[kj].insn == i;
			     kj++, first = false) {
				const struct pjump *j = &p->jumps[l->jumps[kj].idx];

				fprintf(out, "%s{\"target\": ", first ? "" : ", ");
				if (j->to_addr)
					fprintf(out, "%llu", (unsigned long long)
						(j->to_addr - l->r->load_offset));
				else
					fputs("null", out);
				fprintf(out, ", \"conditional\": %s, \"executed\": %llu, "
					"\"taken\": %llu}",
					j->conditional ? "true" : "false",
					(unsigned long long)j->executed,
					(unsigned long long)j->followed);
			}
			fputc(']', out);
		}
		fputc('}', out);
	}
	fputs("],\n    \"elsewhere\": [", out);
	for (size_t k = 0; k < l->nunplaced; k++) {
		static const char *const where[] = { "mid-instruction",
						     "outside", "no-address" };

		fprintf(out, "%s{\"address\": ", k ? ", " : "");
		if (l->unplaced[k].where == DL_NO_ADDR)
			fputs("null", out);
		else
			fprintf(out, "%llu",
				(unsigned long long)l->unplaced[k].addr);
		fprintf(out, ", \"where\": \"%s\", \"cost\": ",
			where[l->unplaced[k].where]);
		json_row(out, dl_row(l->unplaced_cost, l, k), l->stride);
		fputc('}', out);
	}
	fputs("]}", out);
}

void print_disasm_json_of(FILE *out, const struct cg *cg,
			  const struct print_opts *o,
			  const struct disasm_pick *picks,
			  const struct disasm_members *m, size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		struct disasm_listing l;

		disasm_listing_build(&l, cg, o, picks, m, i);
		fputs(i ? ",\n   " : "\n   ", out);
		json_one(out, &l);
		disasm_listing_release(&l);
	}
	fputc(']', out);
}

void print_disasm_json(FILE *out, const struct cg *cg,
		       const struct print_opts *o)
{
	struct disasm_pick *picks = NULL;
	struct disasm_members m;
	size_t n = 0;

	/* print_disasm_check() has vetted the profile and WHAT */
	if (!cg->p->has_instr || disasm_pick(cg, o, &picks, &n) < 0)
		n = 0;
	disasm_members_init(&m, cg, o, picks, n);
	print_disasm_json_of(out, cg, o, picks, &m, n);
	disasm_members_release(&m);
	free(picks);
}
