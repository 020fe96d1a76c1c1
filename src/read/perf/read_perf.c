/*
 * The perf.data reader (Linux perf record), found by its magic. It
 * reads the file into p->perf (profile/perf_data.h): each event, each
 * sampled address as an object and an offset in it, each sample's
 * stack; resolve_perf() later names them with the objects' symbols.
 *
 * Two layouts, both in the writer's byte order, which the magic's
 * byte order tells ("PERFILE2" written as a u64):
 *
 *   file  perf_file_header (104 bytes): magic, header size, attr entry
 *         size, then the attrs, data and (unused) event-types sections
 *         as {u64 offset, size}, then a 256-bit map of the feature
 *         sections present. Each attr entry is a perf_event_attr and
 *         the section of its ids. The feature sections' {offset, size}
 *         follow the data section, one per bit set, in bit order.
 *
 *   pipe  (perf record -o -) magic and size (16 bytes), then records
 *         only: the attrs, features and build-ids come as records of
 *         their own (HEADER_ATTR, HEADER_FEATURE, HEADER_BUILD_ID)
 *         before the samples that need them.
 *
 * Described in the kernel tree's tools/perf/Documentation/
 * perf.data-file-format.txt. The records themselves: perf_records.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "libdw_load.h"
#include "perf_reader.h"
#include "perf_samples.h"
#include "perf_unwind.h"

#define MAGIC "PERFILE2"
#define MAGIC_SWAPPED "2ELIFREP"
#define FILE_HEADER_SIZE 104
/* The header before feature bits existed: no features. */
#define FILE_HEADER_SIZE_OLD 72
#define PIPE_HEADER_SIZE 16
#define IDS_SECTION_SIZE 16

/* What a compressed or piped perf.data may make us hold in memory; a
 * plain file is mapped, whatever its size. */
#define PERF_MAX_BYTES ((size_t)2 << 30)

bool perf_sniff(const char *data, size_t len)
{
	return len >= 8 && (!memcmp(data, MAGIC, 8) ||
			    !memcmp(data, MAGIC_SWAPPED, 8) ||
			    !memcmp(data, "PERFFILE", 8));
}

struct section {
	uint64_t off, size;
};

static int section_at(const struct perf_reader *r, size_t at,
		      const char *what, struct section *s)
{
	struct cursor c;

	perf_cursor(r, &c, r->data + at, 16);
	cursor_u64(&c, &s->off);
	cursor_u64(&c, &s->size);
	if (s->off > r->len || s->size > r->len - s->off)
		return perf_fail(r, at, "the %s section [0x%llx, +%llu) goes "
				 "past the end of the file (%zu bytes)", what,
				 (unsigned long long)s->off,
				 (unsigned long long)s->size, r->len);
	return 0;
}

/* Each attr entry: the attr, then the {offset, size} of its ids. */
static int read_attrs(struct perf_reader *r, uint64_t entry_size,
		      const struct section *attrs)
{
	if (entry_size < 64 + IDS_SECTION_SIZE || entry_size > 4096)
		return perf_fail(r, 16, "an attr entry size of %llu bytes",
				 (unsigned long long)entry_size);
	if (attrs->size % entry_size)
		return perf_fail(r, 24, "an attrs section of %llu bytes, not "
				 "a whole number of %llu-byte entries",
				 (unsigned long long)attrs->size,
				 (unsigned long long)entry_size);
	for (uint64_t at = attrs->off; at < attrs->off + attrs->size;
	     at += entry_size) {
		size_t attr_len = (size_t)entry_size - IDS_SECTION_SIZE;
		struct perf_attr a;
		struct section ids;
		size_t used;

		if (perf_parse_attr(r, r->data + at, attr_len, (size_t)at, &a,
				    &used) < 0 ||
		    section_at(r, (size_t)(at + attr_len), "attr ids", &ids) < 0 ||
		    perf_add_attr(r, &a, r->data + ids.off, ids.size / 8,
				  (size_t)ids.off) < 0)
			return -1;
	}
	if (!r->nattrs)
		return perf_fail(r, 24, "no event attrs");
	return 0;
}

static int read_features(struct perf_reader *r, const unsigned char *bits,
			 const struct section *data)
{
	size_t at = (size_t)(data->off + data->size);
	struct cursor c;
	uint64_t words[PERF_FEAT_BITS / 64];

	perf_cursor(r, &c, bits, sizeof(words));
	for (size_t w = 0; w < PERF_FEAT_BITS / 64; w++)
		cursor_u64(&c, &words[w]);
	for (unsigned f = 0; f < PERF_FEAT_BITS; f++) {
		struct section s;

		if (!(words[f / 64] >> (f % 64) & 1))
			continue;
		if (at > r->len || r->len - at < 16)
			return perf_fail(r, at, "the table of feature sections "
					 "goes past the end of the file");
		if (section_at(r, at, "feature", &s) < 0 ||
		    perf_read_feature(r, f, (size_t)s.off, (size_t)s.size) < 0)
			return -1;
		at += 16;
	}
	return 0;
}

static int read_file_layout(struct perf_reader *r, struct section *data)
{
	struct section attrs;
	uint64_t hsize, entry_size;
	struct cursor c;

	if (r->len < FILE_HEADER_SIZE_OLD)
		return perf_fail(r, 0, "the file header truncated: %zu bytes "
				 "of its %d", r->len, FILE_HEADER_SIZE);
	perf_cursor(r, &c, r->data + 8, 16);
	cursor_u64(&c, &hsize);
	cursor_u64(&c, &entry_size);
	if (hsize != FILE_HEADER_SIZE && hsize != FILE_HEADER_SIZE_OLD)
		return perf_fail(r, 8, "a file header of %llu bytes (perf "
				 "writes %d)", (unsigned long long)hsize,
				 FILE_HEADER_SIZE);
	if (r->len < hsize)
		return perf_fail(r, 0, "the file header truncated: %zu bytes "
				 "of its %llu", r->len, (unsigned long long)hsize);
	if (section_at(r, 24, "attrs", &attrs) < 0 ||
	    section_at(r, 40, "data", data) < 0 ||
	    read_attrs(r, entry_size, &attrs) < 0)
		return -1;
	if (!data->size && data->off) {
		/* perf record writes the data size, and the feature
		 * sections after the data, when it ends: killed before,
		 * it left 0 and none. perf report reads such a file to
		 * its end, with a warning; so do we */
		warning("%s: offset 0x28: the data section's size is 0, as "
			"perf record leaves it when it does not finish "
			"(killed?): the recording is read to the end of the "
			"file", r->path);
		r->unfinished = true;
		data->size = r->len - data->off;
		return 0;
	}
	if (hsize == FILE_HEADER_SIZE &&
	    read_features(r, r->data + 72, data) < 0)
		return -1;
	return 0;
}

/* perf's names for the generic events, for a file without EVENT_DESC. */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static name_id event_name(struct perf_reader *r, size_t i)
{
	const struct perf_attr *a = &r->attrs[i];
	char buf[64];

	if (i < r->ndesc)
		return r->desc_names[i];
	if (a->type == PERF_TYPE_HARDWARE &&
	    a->config < sizeof(hw_names) / sizeof(hw_names[0]))
		snprintf(buf, sizeof(buf), "%s", hw_names[a->config]);
	else if (a->type == PERF_TYPE_SOFTWARE &&
		 a->config < sizeof(sw_names) / sizeof(sw_names[0]))
		snprintf(buf, sizeof(buf), "%s", sw_names[a->config]);
	else
		snprintf(buf, sizeof(buf), "event-%u:0x%llx", a->type,
			 (unsigned long long)a->config);
	return names_intern(&r->p->names, buf, strlen(buf));
}

/*
 * What a sample's period counts: the clocks' nanoseconds (perf's
 * cpu-clock and task-clock: "sample_period" is in ns), else the events
 * the counter counts (cycles, instructions, misses, faults,
 * tracepoint hits).
 */
static name_id event_unit(struct perf_reader *r, size_t i)
{
	const struct perf_attr *a = &r->attrs[i];
	const char *u = a->type == PERF_TYPE_SOFTWARE &&
				(a->config == PERF_COUNT_SW_CPU_CLOCK ||
				 a->config == PERF_COUNT_SW_TASK_CLOCK)
			? "ns" : "events";

	return names_intern(&r->p->names, u, strlen(u));
}

/*
 * The events: the attrs'. A recording added to one read before it
 * (several perf.data on the command line) must have only events of
 * that one, matched by name: the stack tree's costs are per event.
 */
static int set_events(struct perf_reader *r)
{
	struct perf_data *d = r->d;

	if (!d->nevents) {
		perf_data_set_events(d, r->nattrs);
		for (size_t i = 0; i < r->nattrs; i++) {
			d->events[i].name = event_name(r, i);
			d->events[i].unit = event_unit(r, i);
		}
		return 0;
	}
	for (size_t i = 0; i < r->nattrs; i++) {
		name_id name = event_name(r, i);
		size_t e = 0;

		while (e < d->nevents && d->events[e].name != name)
			e++;
		if (e == d->nevents)
			return error("%s: its event '%s' is not one of the "
				     "recording read before it, which it would "
				     "be added to: read it on its own", r->path,
				     names_str(&r->p->names, name));
		r->attrs[i].event = (uint32_t)e;
	}
	return 0;
}

/* What each quirk (perf_reader.h) did: "N" and the subject for one
 * and for more, then what is said of them. */
static const struct {
	const char *one, *many, *rest;
} quirk_text[PERF_QUIRKS] = {
	[PERF_Q_DYN_SIZE] = { "sample has", "samples have",
		"a user stack dump whose dyn_size is over the dump's size: "
		"the dump's size was used" },
	[PERF_Q_SAMPLE_TRAILING] = { "sample has", "samples have",
		"bytes after the last field, which were left unread" },
	[PERF_Q_RECORD_LONG] = { "record is", "records are",
		"longer than the fields held (the size takes in bytes of what "
		"would be the next record): the rest was passed over" },
	[PERF_Q_SAMPLE_TYPE] = { "event attr has", "event attrs have",
		"sample_type bits cganalyze does not know: the samples' "
		"fields after the known ones were left unread" },
	[PERF_Q_MAP_EMPTY] = { "mapping has", "mappings have",
		"a length of 0, holding no address: left out" },
	[PERF_Q_MAP_PGOFF] = { "mapping has", "mappings have",
		"a page offset that passes 2^64 within the mapping: the file "
		"offsets of its addresses wrap" },
	[PERF_Q_NO_REGS] = { "sample with a user stack dump lacks",
		"samples with a user stack dump lack",
		"the registers to unwind it (not the 64-bit ABI, or no stack "
		"pointer or ip in the registers recorded): the user stack is "
		"the ip alone" },
	[PERF_Q_LOST_WRAP] = { "lost-event record brings",
		"lost-event records bring",
		"the lost counts past 2^64: they are given as 2^64 - 1" },
	[PERF_Q_DEEP_STACK] = { "sample has", "samples have",
		"a call chain of 127 frames, the recording's limit: the stack "
		"may be cut, its outermost callers missing (perf record's "
		"kernel.perf_event_max_stack sysctl, and --call-graph, set how "
		"deep it goes)" },
};

/*
 * Frame-pointer call chains (perf record -g) cut short: through code
 * built without frame pointers (-O2, glibc) the kernel's walk follows
 * whatever the register held, to an address in no mapping, or stops at
 * the sampled function. On a C++ program at -O2 1466 of 1466 samples
 * ended so, main's inclusive cost 2.25% where --call-graph dwarf finds
 * 72%. Said from 5% of the samples and 10 of them: with frame
 * pointers a few are usual (3 of tests/perf/z.data's 228: a sample in
 * a function's prologue, or in libc).
 */
static void cut_chains(const struct perf_reader *r)
{
	uint64_t cut, all;

	if (!r->chain_samples || r->dwarf_samples || r->lbr_samples)
		return;
	perf_data_cut_stacks(r->d, true, &cut, &all);
	/* this file's samples: a recording read after another adds to
	 * its tree */
	cut -= r->cut_before;
	all -= r->all_before;
	if (cut < 10 || cut < all / 20)
		return;
	warning("%s: %llu of the %llu samples (%.1f%%) have call chains "
		"cut short: their user stack is the sampled function alone "
		"or ends at an address in no mapping, so their callers' "
		"inclusive costs are low (perf record -g follows frame "
		"pointers, which code built without them, -O2 or glibc, does "
		"not keep: -fno-omit-frame-pointer, or --call-graph dwarf, "
		"gives whole stacks)", r->path, (unsigned long long)cut,
		(unsigned long long)all, 100.0 * (double)cut / (double)all);
}

/* What the reader passed over or could not use, said once each. */
static void report(const struct perf_reader *r)
{
	const struct perf_data *d = r->d;

	for (int q = 0; q < PERF_QUIRKS; q++)
		if (r->quirks[q].n)
			warning("%s: %llu %s %s (the first at offset 0x%zx)",
				r->path, (unsigned long long)r->quirks[q].n,
				r->quirks[q].n == 1 ? quirk_text[q].one
						    : quirk_text[q].many,
				quirk_text[q].rest, r->quirks[q].first);

	if (r->unknown_records)
		warning("%s: %llu records of types cganalyze does not know "
			"were skipped (the first, of type %u, at offset 0x%zx)",
			r->path, (unsigned long long)r->unknown_records,
			r->first_unknown_type, r->first_unknown_off);
	if (r->samples_no_attr)
		warning("%s: %llu samples name no event of the file (their "
			"id is in no event attr's ids; the first at offset "
			"0x%zx): left out", r->path,
			(unsigned long long)r->samples_no_attr,
			r->first_no_attr_off);
	cut_chains(r);
	if (d->lost_records)
		warning("%s: perf lost %llu events in %llu chunks while "
			"recording (its buffers were full)", r->path,
			(unsigned long long)d->lost_events,
			(unsigned long long)d->lost_records);
	if (d->lost_samples)
		warning("%s: perf lost %llu samples while recording", r->path,
			(unsigned long long)d->lost_samples);
	/* without libdw, libdw_load() has said so */
	if (r->dwarf_samples && !r->unwind && !libdw_load_failed())
		note("%s: the samples hold user stack dumps (--call-graph "
		     "dwarf) of an architecture cganalyze cannot unwind "
		     "(x86_64 only): a sample's stack is its kernel frames "
		     "and its ip", r->path);
	/* Not built: LBR stacks could not be recorded where cganalyze was
	 * tested (a virtual machine without LBR), so there is no real file
	 * to check them against perf report with */
	if (r->lbr_samples)
		note("%s: %llu samples hold LBR call stacks (perf record "
		     "--call-graph lbr), which cganalyze does not read: a "
		     "sample's stack is its call chain's kernel frames and its "
		     "ip; record with -g or --call-graph dwarf for whole "
		     "stacks", r->path, (unsigned long long)r->lbr_samples);
	if (r->unwind) {
		uint64_t done, failed, by_rows, by_libdwfl, differed;

		perf_unwind_ways(r->unwind, &by_rows, &by_libdwfl, &differed);
		if (r->opts->perf_unwinder == PERF_UNWIND_CHECK)
			note("%s: unwinding checked: %llu samples unwound by "
			     "the cached CFI rows, %llu of them differently by "
			     "libdwfl", r->path, (unsigned long long)by_rows,
			     (unsigned long long)differed);
		perf_unwind_counts(r->unwind, &done, &failed);
		if (perf_unwind_cut(r->unwind))
			warning("%s: %llu of the %llu samples with user stack "
				"dumps (--call-graph dwarf) are cut short: "
				"their callers go on above the dump, so their "
				"outermost frames are missing and the callers' "
				"inclusive costs are low (a larger dump, "
				"--call-graph dwarf,SIZE up to 65528, takes in "
				"more)", r->path,
				(unsigned long long)perf_unwind_cut(r->unwind),
				(unsigned long long)(done + failed));
		if (failed)
			note("%s: %llu of the %llu samples with user stack "
			     "dumps (--call-graph dwarf) could not be unwound "
			     "(their ip is in no object file found, or they "
			     "hold no registers): their ip alone is their "
			     "user stack", r->path, (unsigned long long)failed,
			     (unsigned long long)(done + failed));
	}
}

/*
 * The command name of the processes this recording sampled (threads
 * from first on are its own), as their main threads were last named:
 * the program a recording of running processes (perf record -p PID)
 * was of, which its command line does not say. NO_NAME when none was
 * named or they differ.
 */
static name_id sampled_comm(const struct perf_reader *r, size_t first)
{
	name_id comm = NO_NAME;

	for (size_t i = first; i < r->d->nthreads; i++) {
		const struct perf_thread *t = &r->d->threads[i];
		uint32_t c = perf_maps_comm(&r->maps, t->pid, UINT64_MAX);

		if (c == UINT32_MAX)
			c = t->comm;
		if (c == NO_NAME || (comm != NO_NAME && c != comm))
			return NO_NAME;
		comm = c;
	}
	return comm;
}

/* The perf_data object of the program the processes this recording
 * sampled ran (threads from first on are its own), or NO_ID when one
 * ran none known or they ran different ones. */
static uint32_t sampled_exe(const struct perf_reader *r, size_t first)
{
	uint32_t exe = NO_ID;

	for (size_t i = first; i < r->d->nthreads; i++) {
		uint32_t e = u64map_get(&r->exe_by_pid, r->d->threads[i].pid);

		if (e == U64MAP_NONE || e == PERF_EXE_AFTER_EXEC ||
		    (exe != NO_ID && e != exe))
			return NO_ID;
		exe = e;
	}
	return exe;
}

static void add_input(struct perf_reader *r, size_t first_thread)
{
	struct pinput *in = profile_add_input(r->p, r->path, "perf");
	char *cmd = NULL;
	size_t size = 0;
	FILE *f;

	in->nparts = in->nselected = 1;
	in->comm = sampled_comm(r, first_thread);
	{
		uint32_t exe = sampled_exe(r, first_thread);

		in->exe = NO_NAME;
		if (exe != NO_ID) {
			const struct perf_object *ob = &r->d->objects[exe];

			in->exe = ob->path;
			in->exe_build_id_len = ob->build_id_len;
			memcpy(in->exe_build_id, ob->build_id, ob->build_id_len);
		}
	}
	if (r->timing) {
		in->timed = true;
		in->time_first = r->time_first;
		in->time_last = r->time_last;
		in->time_all = r->time_all;
		in->time_kept = r->time_kept;
		in->time_of_chosen = r->opts->perf_select->npids ||
				     r->opts->perf_select->ntids ||
				     r->opts->perf_select->comms;
		r->p->time_spec = r->opts->perf_select->time;
	}
	if (r->d->version != NO_NAME) {
		char buf[128];

		snprintf(buf, sizeof(buf), "perf %s",
			 names_str(&r->p->names, r->d->version));
		in->creator = names_intern(&r->p->names, buf, strlen(buf));
	}
	if (!r->ncmdline)
		return;
	f = open_memstream(&cmd, &size);
	if (!f)
		return;
	/* the words after "perf record [options]" are the program's, but
	 * options and program are not told apart: the whole line */
	for (size_t i = 0; i < r->ncmdline; i++)
		fprintf(f, "%s%s", i ? " " : "",
			names_str(&r->p->names, r->cmdline[i]));
	fclose(f);
	in->cmd = names_intern(&r->p->names, cmd, size);
	free(cmd);
}

/*
 * Whether the records can be read in one pass: the samples looked up
 * with the mappings, processes and build-ids read so far. perf writes
 * a process's MMAP, COMM and FORK before its samples but from per-CPU
 * buffers, so a sample can come before an older mapping of its process
 * (it moved to a CPU whose buffer was written first): the pass then
 * stops where that could have changed a look-up (perf_maps_sample()),
 * and the file is read again in two. Not tried where the first pass
 * gives the second more than the mappings: the first and last samples'
 * times (--time), the command names of every thread (--comm), pipe
 * mode's attrs, features and build-ids (records among the samples), a
 * recording added to one read before (its frames and stacks are
 * shared), or an unfinished one's last record (said after pass 1); nor
 * where records have no times (a mapping would be before every
 * sample). CGANALYZE_PERF_PASSES=2 reads in two passes always.
 */
static bool one_pass_ok(const struct perf_reader *r)
{
	const struct perf_select *sel = r->opts->perf_select;
	const char *env = getenv("CGANALYZE_PERF_PASSES");

	if (env && !strcmp(env, "2"))
		return false;
	if (r->pipe || r->timing || r->unfinished || r->p->perf ||
	    (sel && sel->comms))
		return false;
	for (size_t i = 0; i < r->nattrs; i++)
		if (!(r->attrs[i].sample_type & PERF_SAMPLE_TIME) ||
		    !(r->attrs[i].flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL))
			return false;
	return true;
}

static int read_all(struct perf_reader *r, bool try_one_pass)
{
	struct section data = { 0, 0 };

	r->big_endian = !memcmp(r->data, MAGIC_SWAPPED, 8);
	if (!memcmp(r->data, "PERFFILE", 8))
		return perf_fail(r, 0, "a perf.data of the first version "
				 "(PERFFILE), which perf stopped writing in "
				 "2011; only PERFILE2 files are read");
	if (r->len >= PIPE_HEADER_SIZE) {
		struct cursor c;
		uint64_t hsize = 0;

		perf_cursor(r, &c, r->data + 8, 8);
		cursor_u64(&c, &hsize);
		r->pipe = hsize == PIPE_HEADER_SIZE;
	}
	if (r->pipe) {
		data.off = PIPE_HEADER_SIZE;
		data.size = r->len - PIPE_HEADER_SIZE;
	} else if (read_file_layout(r, &data) < 0) {
		return -1;
	}
	if (try_one_pass && one_pass_ok(r)) {
		/* the events before the first sample: the file's attrs are
		 * all in its header */
		if (set_events(r) < 0)
			return -1;
		r->one_pass = true;
		if (perf_read_records(r, (size_t)data.off,
				      (size_t)(data.off + data.size), 0) < 0)
			return 1;
		r->one_pass = false;
		goto read;
	}
	if (perf_read_records(r, (size_t)data.off,
			      (size_t)(data.off + data.size), 1) < 0)
		return -1;
	if (!r->nattrs)
		return perf_fail(r, PIPE_HEADER_SIZE, "no event attrs: the "
				 "recording names no event");
	if (set_events(r) < 0)
		return -1;
	if (r->timing)
		time_spec_resolve(r->opts->perf_select->time, r->time_first,
				  r->time_last, r->ranges);
	if (perf_read_records(r, (size_t)data.off,
			      (size_t)(data.off + data.size), 2) < 0)
		return -1;
read:
	if (r->timing && r->time_all && !r->time_kept)
		return error("%s: none of its %llu samples is in --time=%s: "
			     "they were recorded from %llu.%09llu to "
			     "%llu.%09llu (+0 to +%llu.%09llu)", r->path,
			     (unsigned long long)r->time_all,
			     r->opts->perf_select->time->text,
			     (unsigned long long)(r->time_first / 1000000000),
			     (unsigned long long)(r->time_first % 1000000000),
			     (unsigned long long)(r->time_last / 1000000000),
			     (unsigned long long)(r->time_last % 1000000000),
			     (unsigned long long)((r->time_last - r->time_first)
						  / 1000000000),
			     (unsigned long long)((r->time_last - r->time_first)
						  % 1000000000));
	if (r->samples_filtered && !r->d->nnodes)
		return error("%s: none of its %llu samples is of the processes, "
			     "threads or commands asked for (--pid, --tid, "
			     "--comm)", r->path,
			     (unsigned long long)r->samples_filtered);
	return 0;
}

/* The file's data [data, +len) (fd its descriptor, or -1), read into
 * p: 0, -1 after reporting, or 1 when the one pass tried failed and
 * the file is to be read again in two (the profile as before). */
static int read_data(struct profile *p, const char *path,
		     const unsigned char *data, size_t len, int fd,
		     const struct read_opts *opts, bool try_one_pass)
{
	struct perf_reader r;
	size_t first_thread;
	int ret = -1, got;

	memset(&r, 0, sizeof(r));
	r.path = path;
	r.p = p;
	r.data = data;
	r.len = len;
	r.fd = fd;
	r.opts = opts;
	r.timing = opts->perf_select && opts->perf_select->time;
	xalloc_set_context(r.path);
	/* a second recording adds to the first's objects, frames and
	 * stacks (its processes are its own: maps are per reader) */
	r.d = p->perf ? p->perf : perf_data_new();
	r.first_object = (uint32_t)r.d->nobjects;
	r.d->logging |= opts->perf_log_samples;
	u64map_init(&r.id_attr);
	u64map_init(&r.exe_by_pid);
	perf_maps_init(&r.maps);
	/* the idle task, which no COMM names: perf report calls it
	 * swapper (perf_session__register_idle_thread()), and so its
	 * --threads row, --comm=swapper and the report's threads */
	perf_maps_set_comm(&r.maps, 0, 0, names_intern(&p->names, "swapper", 7));
	r.kernel_obj = perf_data_object(r.d, &p->names, PERF_KERNEL_OBJECT,
					strlen(PERF_KERNEL_OBJECT),
					PERF_OBJ_KERNEL);
	r.unknown_obj = perf_data_object(r.d, &p->names, PERF_UNKNOWN_OBJECT,
					 strlen(PERF_UNKNOWN_OBJECT),
					 PERF_OBJ_UNKNOWN);
	first_thread = r.d->nthreads;
	if (r.d == p->perf)
		perf_data_cut_stacks(r.d, true, &r.cut_before, &r.all_before);
	got = read_all(&r, try_one_pass);
	perf_samples_add_costs(&r);	/* the last samples' nodes' costs */
	if (got) {
		/* a recording added to another leaves it half added to:
		 * the profile is not to be used (the caller stops); the
		 * one pass tried is never on one */
		if (r.d != p->perf)
			perf_data_free(r.d);
		if (got > 0)
			ret = 1;
		goto out;
	}
	/* each thread's last command name, as perf report names it */
	for (size_t i = first_thread; i < r.d->nthreads; i++) {
		uint32_t comm = perf_maps_comm(&r.maps, r.d->threads[i].tid,
					       UINT64_MAX);

		if (comm != UINT32_MAX)
			r.d->threads[i].comm = comm;
	}
	report(&r);
	add_input(&r, first_thread);
	p->perf = r.d;
	ret = 0;
out:
	xalloc_set_context(NULL);
	perf_unwind_free(r.unwind);
	perf_maps_release(&r.maps);
	free(r.frame_cache);
	free(r.offset_cache);
	free(r.later);
	for (size_t i = 0; i < PERF_PATHS; i++) {
		free(r.paths[i].frames);
		free(r.paths[i].nodes);
		free(r.paths[i].exact);
	}
	u64map_release(&r.id_attr);
	u64map_release(&r.exe_by_pid);
	free(r.attrs);
	free(r.desc_names);
	free(r.cmdline);
	return ret;
}

int read_perf(struct profile *p, struct line_reader *lr,
	      const struct read_opts *opts)
{
	struct input_bytes b;
	int fd, ret;

	if (line_reader_bytes(lr, PERF_MAX_BYTES, &b) < 0)
		return -1;
	fd = b.mapped ? lr->fd : -1;
	ret = read_data(p, lr->path, b.data, b.len, fd, opts, true);
	/* the one pass fails quietly, and a file cut short while it was
	 * read is one way: the two passes would read its header's
	 * sections through the mapping again, past its new end */
	if (ret > 0 && b.mapped && line_reader_shrank(lr))
		ret = -1;
	else if (ret > 0)
		ret = read_data(p, lr->path, b.data, b.len, fd, opts, false);
	input_bytes_release(&b);
	return ret;
}
