/* Sampled objects without symbols, or kept without DWARF, said once (see
 * perf_missing.h). */
#include "perf_missing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "profile/perf_files.h"

/* How many objects the warning names; the rest are counted. */
#define NAMED_MAX 3
/* The least share of the samples said. */
#define MISSING_MIN 0.01

struct missing {
	uint32_t object;
	uint64_t samples;
};

static int by_samples(const void *a, const void *b)
{
	const struct missing *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return x->object < y->object ? -1 : x->object > y->object;
}

/* Per object, the samples whose own address is in it. */
static uint64_t *object_samples(const struct perf_data *d, uint64_t *all)
{
	uint64_t *n = xcalloc(d->nobjects + 1, sizeof(*n));

	*all = 0;
	for (size_t i = 0; i < d->nnodes; i++) {
		uint64_t k = 0;

		/* samples counted in each event (samples_every_event): the
		 * most of one */
		for (uint32_t c = d->nodes[i].cost; c != NO_ID;
		     c = d->costs[c].next)
			if (!d->samples_every_event)
				k += d->costs[c].samples;
			else if (d->costs[c].samples > k)
				k = d->costs[c].samples;
		n[d->frames[d->nodes[i].frame].object] += k;
		*all += k;
	}
	return n;
}

static bool any_unnamed(const struct perf_data *d, const bool *named)
{
	for (size_t i = 0; i < d->nobjects; i++)
		if (!named[i] && d->objects[i].kind == PERF_OBJ_FILE &&
		    d->objects[i].frames.nr)
			return true;
	return false;
}

void perf_warn_missing(const struct profile *p, const bool *named,
		       const char *sysroot)
{
	const char *input = p->ninputs ? profile_str(p, p->inputs[0].path)
				       : "the profile";
	const char *format = p->ninputs ? profile_str(p, p->inputs[0].format)
					: "";
	bool perf = !strcmp(format, "perf");
	bool gperf = !strncmp(format, "gperftools", 10);
	const struct perf_data *d = p->perf;
	struct missing *m = NULL;
	size_t nm = 0, shown = 0;
	bool any_id = false;	/* of those missing: only those are looked
				 * for by build-id */
	uint64_t all, lost = 0, *samples;
	char list[1024];

	if (!any_unnamed(d, named))
		return;		/* the common case: no pass over the stacks */
	samples = object_samples(d, &all);
	m = xcalloc(d->nobjects + 1, sizeof(*m));
	for (size_t i = 0; i < d->nobjects; i++)
		if (!named[i] && d->objects[i].kind == PERF_OBJ_FILE &&
		    samples[i]) {
			m[nm].object = (uint32_t)i;
			m[nm++].samples = samples[i];
			lost += samples[i];
		}
	if (!nm)
		goto out;
	qsort(m, nm, sizeof(*m), by_samples);
	list[0] = '\0';
	for (size_t k = 0; k < nm && k < NAMED_MAX; k++, shown++) {
		const struct perf_object *ob = &d->objects[m[k].object];
		size_t at = strlen(list);
		char hex[2 * PERF_BUILD_ID_MAX + 1];

		perf_build_id_hex(ob->build_id, ob->build_id_len, hex);
		any_id |= ob->build_id_len != 0;
		snprintf(list + at, sizeof(list) - at, "%s%s (%llu sample%s%s%s)",
			 k ? ", " : "", profile_str(p, ob->path),
			 (unsigned long long)m[k].samples,
			 m[k].samples == 1 ? "" : "s",
			 ob->build_id_len ? ", build-id " : "",
			 ob->build_id_len ? hex : "");
	}
	if (shown < nm) {
		size_t at = strlen(list);

		snprintf(list + at, sizeof(list) - at, " and %zu more",
			 nm - shown);
	}
	/* a share too small to matter (a sample in ld.so) is not worth a
	 * line: its rows say where it is all the same */
	if ((double)lost < MISSING_MIN * (double)all)
		goto out;
	warning("%s: %llu of the %llu samples (%.1f%%) are in objects "
		"with no symbols here, shown as offsets: %s; looked for at "
		"their recorded paths%s%s%s: give each with -b FILE%s",
		input, (unsigned long long)lost, (unsigned long long)all,
		100.0 * (double)lost / (double)all, list,
		sysroot ? " under " : "", sysroot ? sysroot : "",
		perf && any_id && sysroot
			? " and by build-id under it in .debug (perf report "
			  "--symfs's cache), ~/.debug (perf's cache) and the "
			  "debug directories"
		: perf && any_id ? " and by build-id in ~/.debug (perf's cache) "
				   "and the debug directories" : "",
		perf && any_id ? ", or a copy of the recording machine's "
				 "files with --sysroot=DIR, or unpack perf "
				 "archive's tarball into ~/.debug"
		: perf || gperf ? ", or a copy of the recording machine's "
				  "files with --sysroot=DIR" : "");
out:
	free(samples);
	free(m);
}

/*
 * The sampled objects kept for the listings of code that have no DWARF,
 * said in one warning: a recording of a build on a system without debug
 * packages has a line each for make, dash, libc, cc1... (23 of 25
 * objects in a recording of gcc), which buried the warnings that
 * matter. Their base names, the paths being in the notes.
 */
void perf_say_missing_dwarf(const struct perf_recorded *k, size_t from)
{
	char *text = NULL;
	size_t len = 0, n = 0, last = 0;
	FILE *m;

	for (size_t j = from; j < k->n; j++)
		if (k->st[j]->dwarf_missing) {
			n++;
			last = j;
		}
	if (n == 0 || !(m = open_memstream(&text, &len)))
		return;
	for (size_t j = from, said = 0; j < k->n; j++) {
		const char *path = k->reports[j].binary;
		const char *base = strrchr(path, '/');

		if (k->st[j]->dwarf_missing)
			fprintf(m, "%s%s", said++ ? ", " : "",
				base ? base + 1 : path);
	}
	fclose(m);
	if (n == 1)
		warning("%s: no DWARF debug info: functions from the symbol "
			"table only, no files or lines (build with -g, or "
			"install its debug file; --debug-dir=DIR looks "
			"elsewhere)", k->reports[last].binary);
	else
		warning("%zu of the %zu sampled objects have no DWARF debug "
			"info, so their functions are from the symbol table "
			"only, with no files or lines: %s (their debug files, "
			"as -dbgsym packages install them, give them; "
			"--debug-dir=DIR looks elsewhere)", n, k->n - from,
			text);
	free(text);
}
