/*
 * The analysis as one JSON document. Its shape is a public interface:
 * keys may be added, never change meaning. Cost arrays follow "events".
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "json_write.h"
#include "print.h"

/* Estimated costs exist for one event: the rest are shown as 0. */
static void json_drow(FILE *out, double v, size_t n, uint32_t ev)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%.17g", i ? ", " : "", i == ev ? v : 0.0);
	fputc(']', out);
}

static void json_sum_row(FILE *out, const uint64_t *a, const uint64_t *b,
			 size_t n)
{
	fputc('[', out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%llu", i ? ", " : "",
			(unsigned long long)(a[i] + b[i]));
	fputc(']', out);
}

/* JSON holds whole stacks, up to this depth (deeper ones are cut and
 * say so: a hostile file could have every leak 100,000 frames deep). */
#define JSON_STACK_MAX 1000

static void json_leaks(FILE *out, const struct profile *p)
{
	uint32_t *order = leaks_by_size(p);

	fputs(",\n \"leaks\": [", out);
	for (size_t i = 0; i < p->nleaks; i++) {
		const struct pleak *lk = &p->leaks[order[i]];
		size_t depth = 0;

		fputs(i ? ",\n   " : "\n   ", out);
		fprintf(out, "{\"address\": %llu, \"size\": %llu, \"counter\": ",
			(unsigned long long)lk->addr,
			(unsigned long long)lk->size);
		json_name(out, p, p->events[lk->event].name);
		fprintf(out, ", \"function\": %u, \"stack\": [",
			p->stacks[lk->stack].func);
		for (uint32_t s = lk->stack; s != NO_ID; s = p->stacks[s].caller) {
			if (depth < JSON_STACK_MAX)
				fprintf(out, "%s%u", depth ? ", " : "",
					p->stacks[s].func);
			depth++;
		}
		fprintf(out, "], \"depth\": %zu}", depth);
	}
	fputc(']', out);
	free(order);
}

/* Every sample of event e: perf report's "Samples: N of event". */
static uint64_t event_samples(const struct profile *p, uint32_t e)
{
	uint64_t n = 0;

	for (uint32_t f = 0; f < p->nfuncs; f++)
		n += func_samples(p, f, e);
	return n;
}

void print_json_head(FILE *out, const struct cg *cg,
		     const struct print_opts *o)
{
	const struct profile *p = cg->p;
	size_t ne = p->stride;

	fputs("\"events\": [", out);
	for (size_t e = 0; e < p->nevents; e++) {
		fputs(e ? ", " : "", out);
		json_name(out, p, p->events[e].name);
	}
	fputs("],\n \"event_info\": [", out);
	for (size_t e = 0; e < p->nevents; e++) {
		fputs(e ? ",\n   " : "", out);
		fputs("{\"name\": ", out);
		json_name(out, p, p->events[e].name);
		fputs(", \"long_name\": ", out);
		json_name(out, p, p->events[e].long_name);
		fprintf(out, ", \"derived\": %s",
			p->events[e].derived ? "true" : "false");
		/* a maximum (IgProf's MEM_MAX): every cost of it, the
		 * totals' too, is the largest value under it, not a sum */
		if (p->events[e].max)
			fputs(", \"maximum\": true", out);
		/* a time: how many seconds one unit (a cost of 1) stands for */
		if (p->events[e].unit_seconds != 0)
			fprintf(out, ", \"unit_seconds\": %.17g",
				p->events[e].unit_seconds);
		/* what a cost of 1 is, where the format says ("ns") */
		if (p->events[e].unit != NO_NAME) {
			fputs(", \"unit\": ", out);
			json_name(out, p, p->events[e].unit);
		}
		/* the text listings show gmon.out's ticks as seconds, with
		 * two decimals (print_seconds.c), and so does the report */
		if (listed_in_seconds(p, (uint32_t)e))
			fputs(", \"listed_as\": \"seconds\"", out);
		if (p->sampled)
			fprintf(out, ", \"samples\": %llu",
				(unsigned long long)event_samples(p, (uint32_t)e));
		/* its costs are the samples' count ("samples" above) */
		if (p->sampled && p->events[e].sample_count)
			fputs(", \"sample_count\": true", out);
		fputc('}', out);
	}
	fputs("],\n \"sort_event\": ", out);
	json_name(out, p, p->events[o->sort_event].name);
	/* perf.data: costs are samples' periods, and "calls" counts no
	 * call (profile.sampled) */
	if (p->sampled)
		fputs(",\n \"sampled\": true", out);
	fputs(",\n \"totals\": ", out);
	json_row(out, p->totals, ne);
	/* the listing is of what the transforms left: which, and the
	 * totals they were taken from */
	if (o->transforms) {
		fputs(",\n \"transforms\": {\"applied\": ", out);
		json_string(out, o->transforms, strlen(o->transforms));
		fprintf(out, ", \"estimated\": %s, \"totals_before\": ",
			o->transforms_estimated ? "true" : "false");
		json_row(out, o->totals_before, ne);
		fputc('}', out);
	}
	fputs(",\n \"summary\": ", out);
	if (p->summary)
		json_row(out, p->summary, ne);
	else
		fputs("null", out);
	fputs(",\n \"inputs\": [", out);
	for (size_t i = 0; i < p->ninputs; i++) {
		const struct pinput *in = &p->inputs[i];

		fputs(i ? ",\n   " : "", out);
		fputs("{\"path\": ", out);
		json_name(out, p, in->path);
		fputs(", \"format\": ", out);
		json_name(out, p, in->format);
		fputs(", \"creator\": ", out);
		json_name(out, p, in->creator);
		fputs(", \"cmd\": ", out);
		json_name(out, p, in->cmd);
		fprintf(out, ", \"parts\": %u", in->nparts);
		if (p->gmon)
			fprintf(out, ", \"bb_counts\": %llu",
				(unsigned long long)in->nbb);
		if (in->folded_alloc || in->folded_own)
			fprintf(out, ", \"folded_frames\": %llu",
				(unsigned long long)(in->folded_alloc +
						     in->folded_own));
		json_input_time(out, p, in);
		fputc('}', out);
	}
	fputc(']', out);
	/* perf.data: each thread's totals, after --pid/--tid/--comm/--time
	 * and before the transforms */
	json_threads(out, p, ne);
	/* Callgrind's and IgProf's, from their parts */
	json_parts(out, p, ne);
	fputs(",\n \"binaries\": [", out);
	for (size_t b = 0; b < o->nreports; b++) {
		const struct resolve_report *r = &o->reports[b];

		fputs(b ? ",\n   " : "", out);
		fputs("{\"path\": ", out);
		json_string(out, r->binary, strlen(r->binary));
		fputs(", \"object\": ", out);
		json_name(out, p, r->object);
		fprintf(out, ", \"load_offset\": %llu, \"load_offset_reason\": ",
			(unsigned long long)r->load_offset);
		json_string(out, r->offset_reason, strlen(r->offset_reason));
		/* "addresses": every instruction's, or (read without
		 * positions) each function's lowest and highest */
		fprintf(out, ", \"renamed\": %u, \"addresses\": %llu, "
			"\"addresses_outside\": %llu, \"addresses_checked\": "
			"\"%s\", \"named\": %u, "
			"\"named_found\": %u, \"inlined_to\": \"%s\"}",
			r->renamed, (unsigned long long)r->addresses,
			(unsigned long long)r->outside,
			r->func_bounds ? "function_bounds" : "instructions",
			r->named, r->named_found,
			o->inlined == INLINE_CALLEE ? "callee" : "caller");
	}
	fputc(']', out);
}

void print_json_cycles(FILE *out, const struct cg *cg,
		       const struct print_opts *o)
{
	print_json_cycles_of(out, cg, o, NULL);
}

void print_json_cycles_of(FILE *out, const struct cg *cg,
			  const struct print_opts *o, const uint32_t *page)
{
	size_t ne = cg->p->stride;
	bool exact = cg->child != NULL;
	/* cycles are listed by number, which cg_rank gave 1..ncycles */
	uint32_t *by_number = xcalloc(cg->ncycles + 1, sizeof(*by_number));

	fputs("\"cycles\": [", out);
	for (uint32_t c = 0; c < cg->ncycles; c++)
		by_number[cg->cycles[c].number - 1] = c;
	for (uint32_t num = 1; num <= cg->ncycles; num++) {
		uint32_t c = by_number[num - 1];

		fputs(num > 1 ? ",\n   " : "\n   ", out);
		uint32_t more = 0;

		fprintf(out, "{\"id\": %u, \"members\": [", num);
		for (uint32_t m = cg->cycles[c].first_member, k = 0; m != NO_ID;
		     m = cg->nodes[m].next_member) {
			if (page && page[m] == NO_ID) {
				more++;
				continue;
			}
			fprintf(out, "%s%u", k++ ? ", " : "", page ? page[m] : m);
		}
		fputc(']', out);
		if (more)
			fprintf(out, ", \"more_members\": %u", more);
		fputs(", \"self\": ", out);
		if (exact) {
			json_row(out, cg->cycle_self + (size_t)c * ne, ne);
			fputs(", \"inclusive\": ", out);
			json_sum_row(out, cg->cycle_self + (size_t)c * ne,
				     cg->cycle_child + (size_t)c * ne, ne);
		} else {
			json_drow(out, cg_cycle_self(cg, c, o->sort_event), ne,
				  o->sort_event);
			fputs(", \"inclusive\": ", out);
			json_drow(out, cg_cycle_self(cg, c, o->sort_event) +
				  cg_cycle_child(cg, c, o->sort_event), ne,
				  o->sort_event);
		}
		fprintf(out, ", \"calls\": %llu, \"internal_calls\": %llu, \"index\": %u",
			(unsigned long long)cg->cycles[c].calls,
			(unsigned long long)cg->cycles[c].internal_calls,
			cg->cycles[c].index);
		if (o->cycle_listed)
			fprintf(out, ", \"in_graph\": %s",
				o->cycle_listed[c] ? "true" : "false");
		fputc('}', out);
	}
	fputc(']', out);
	free(by_number);
}

void print_json(FILE *out, const struct cg *cg, const struct print_opts *o)
{
	const struct profile *p = cg->p;
	size_t ne = p->stride;
	bool exact = cg->child != NULL;
	uint64_t *row = xcalloc(ne + 1, sizeof(*row));

	fputc('{', out);
	print_json_head(out, cg, o);
	fputs(",\n \"functions\": [", out);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const struct pfunc *fn = &p->funcs[f];
		const struct cg_node *node = &cg->nodes[f];

		fputs(f ? ",\n   " : "\n   ", out);
		fprintf(out, "{\"id\": %u, \"name\": ", f);
		json_name(out, p, fn->name);
		fputs(", \"file\": ", out);
		json_name(out, p, fn->file);
		fputs(", \"object\": ", out);
		json_name(out, p, fn->object);
		if (profile_func_line(p, f))
			fprintf(out, ", \"line\": %u", profile_func_line(p, f));
		else
			fputs(", \"line\": null", out);
		fputs(", \"self\": ", out);
		if (exact) {
			json_row(out, profile_self(p, f), ne);
			fputs(", \"inclusive\": ", out);
			cg_inclusive_row(cg, f, row);
			json_row(out, row, ne);
		} else {
			json_drow(out, cg_node_self(cg, f, o->sort_event), ne,
				  o->sort_event);
			fputs(", \"inclusive\": ", out);
			json_drow(out, cg_node_self(cg, f, o->sort_event) +
				  cg_node_child(cg, f, o->sort_event), ne,
				  o->sort_event);
		}
		if (p->sampled && p->func_count) {
			fputs(", \"samples\": ", out);
			json_row(out, profile_func_row(p, p->func_count, f), ne);
		}
		if (p->func_count) {
			/* IgProf: the counters' count and peak fields (and
			 * perf.data's samples again, as before "samples") */
			fputs(", \"self_count\": ", out);
			json_row(out, profile_func_row(p, p->func_count, f), ne);
			fputs(", \"self_peak\": ", out);
			json_row(out, profile_func_row(p, p->func_peak, f), ne);
		}
		fprintf(out, ", \"calls\": %llu, \"self_calls\": %llu, \"cycle\": ",
			(unsigned long long)node->calls,
			(unsigned long long)cg_node_self_calls(cg, f));
		if (node->cycle != NO_ID)
			fprintf(out, "%u", cg->cycles[node->cycle].number);
		else
			fputs("null", out);
		fprintf(out, ", \"index\": %u", node->index);
		/* -p/-P and -q/-Q: selected for the listing or not */
		if (o->flat_listed)
			fprintf(out, ", \"in_flat\": %s",
				o->flat_listed[f] ? "true" : "false");
		if (o->graph_listed)
			fprintf(out, ", \"in_graph\": %s",
				o->graph_listed[f] ? "true" : "false");
		fputc('}', out);
	}
	fputs("],\n \"arcs\": [", out);
	for (size_t c = 0; c < p->ncalls; c++) {
		const struct pcall *pc = &p->calls[c];

		fputs(c ? ",\n   " : "\n   ", out);
		fprintf(out, "{\"caller\": %u, \"callee\": %u, \"count\": %llu, \"inclusive\": ",
			pc->caller, pc->callee,
			(unsigned long long)profile_call_count(p, (uint32_t)c));
		if (p->calls_have_incl) {
			json_row(out, profile_call_incl_row(p, (uint32_t)c, row), ne);
		} else {
			double s = 0, ch = 0;

			if (cg_is_arc(cg, c))
				cg_arc_share(cg, (uint32_t)c, o->sort_event, &s, &ch);
			json_drow(out, s + ch, ne, o->sort_event);
		}
		/* whole stacks: the exact self part (cg_arc_share()); not
		 * into a cycle, whose lines are split by its ratio */
		if (p->call_self && cg->nodes[pc->callee].cycle == NO_ID) {
			fputs(", \"self\": ", out);
			json_row(out, profile_call_self(p, (uint32_t)c), ne);
		}
		/* -k: deleted before the analysis, counted nowhere */
		if (o->arc_deleted)
			fprintf(out, ", \"deleted\": %s",
				o->arc_deleted[c] ? "true" : "false");
		fputc('}', out);
	}
	fputs("],\n ", out);
	print_json_cycles(out, cg, o);
	if (o->annotate && o->annotation)
		print_annotate_json(out, cg, o);
	if (o->disasm) {
		fputs(",\n \"disasm\": ", out);
		print_disasm_json(out, cg, o);
	}
	if (o->leaks)
		json_leaks(out, p);
	fputs("}\n", out);
	free(row);
}
