/*
 * An unsymbolized pprof profile (its locations have addresses and
 * mappings, no lines: pprof -symbolize=none, perf_to_profile, a service's
 * raw export) put in p->perf as perf.data's recordings are: each address
 * an offset in its mapping's file (address - memory_start + file_offset),
 * the samples a tree of stacks; resolve_perf() then names the code with
 * -b binaries (matched by the mapping's build id, else its file name) or
 * the files at the recorded paths, as for perf.data.
 *
 * pprof looks a location's address up as it is, the return address of a
 * caller frame included (its legacy converters subtract one where the
 * recording holds return addresses); so every frame here is looked up
 * at its own address ("exact").
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/hex.h"
#include "base/xalloc.h"
#include "pprof_read.h"
#include "profile/perf_data.h"

#define FRAMES_PER_BYTE 64
#define FRAMES_BASE (16u << 20)
#define NODES_PER_BYTE 4
#define NODES_BASE (64u << 10)
/* as read_pprof.c: the cost numbers resolution will make, at most one
 * per event for each function (at most a frame each) and arc (at most
 * a stack node each) */
#define COSTS_PER_BYTE 1
#define COSTS_BASE (2u << 20)

/* A mapping's build id, as pprof writes it (hex), onto its object. */
static void set_build_id(struct perf_object *ob, const struct pprof_str *s,
			 name_id from, size_t off)
{
	uint8_t id[PERF_BUILD_ID_MAX];
	size_t n = s->len / 2;

	if (ob->build_id_len || !s->len || s->len % 2 || n > sizeof(id))
		return;
	for (size_t i = 0; i < n; i++) {
		int hi = hex_digit(s->s[2 * i]), lo = hex_digit(s->s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return;
		id[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(ob->build_id, id, n);
	ob->build_id_len = (uint8_t)n;
	ob->build_id_from = from;
	ob->build_id_off = off;
}

/* The frame of location l: its object and offset. */
static uint32_t location_frame(struct profile *p, const struct pprof_file *f,
			       uint32_t l, name_id from)
{
	const struct pprof_location *loc = &f->locations[l];
	struct perf_data *d = p->perf;
	const struct pprof_mapping *m = loc->mapping == NO_ID ? NULL
		: &f->mappings[loc->mapping];
	const struct pprof_str *name = m ? pprof_string(f, m->filename) : NULL;
	uint32_t ob;

	if (!m || !name->len || loc->address < m->start ||
	    (m->limit && loc->address >= m->limit)) {
		ob = perf_data_object(d, &p->names, PERF_UNKNOWN_OBJECT,
				      strlen(PERF_UNKNOWN_OBJECT),
				      PERF_OBJ_UNKNOWN);
		return perf_data_frame(d, ob, loc->address);
	}
	/* [vdso], [heap]: no file to read. A name without a path is one:
	 * go tool pprof -proto writes the binary as its command line
	 * named it ("prog"), which -b binds by its file name */
	if (name->s[0] == '[') {
		ob = perf_data_object(d, &p->names, name->s, name->len,
				      PERF_OBJ_ANON);
		return perf_data_frame(d, ob, loc->address - m->start);
	}
	ob = perf_data_object(d, &p->names, name->s, name->len, PERF_OBJ_FILE);
	set_build_id(&d->objects[ob], pprof_string(f, m->build_id), from,
		     loc->off);
	return perf_data_frame(d, ob, loc->address - m->start + m->offset);
}

/*
 * A Sample's values at node: perf_data_add_sample() counts one sample;
 * a pprof Sample stands for n, the value of its "samples" type where
 * the profile has one (as read_pprof.c counts them).
 */
static void add_sample(struct perf_data *d, uint32_t node, uint32_t e,
		       uint64_t value, uint64_t n)
{
	perf_data_add_samples(d, node, e, value, n > 1 ? n : 1);
}

int pprof_read_addresses(struct profile *p, const struct pprof_file *f,
			 const struct read_opts *opts)
{
	uint64_t max_frames = (uint64_t)f->len * FRAMES_PER_BYTE + FRAMES_BASE;
	uint64_t max_nodes = (uint64_t)f->len * NODES_PER_BYTE + NODES_BASE;
	uint64_t max_costs = opts->max_costs ? opts->max_costs
		: (uint64_t)f->len * COSTS_PER_BYTE + COSTS_BASE;
	name_id from = names_intern(&p->names, f->path, strlen(f->path));
	struct pprof_sample s = { 0 };
	uint32_t *frame_of, *type_of;
	size_t first = f->ntypes - 1, off = 0;
	uint64_t walked = 0;
	uint32_t samples = NO_ID;
	struct perf_data *d;
	int r, ret = -1;

	if (p->perf)
		return error("%s: only one unsymbolized pprof profile can be "
			     "read at a time", f->path);
	d = p->perf = perf_data_new();
	d->samples_every_event = true;
	/* pprof's default sample type first, as read_pprof.c orders them */
	for (size_t t = 0; t < f->ntypes; t++)
		if (f->default_type && f->types[t].type == f->default_type)
			first = t;
	type_of = xmalloc(f->ntypes * sizeof(*type_of));
	perf_data_set_events(d, f->ntypes);
	for (size_t k = 0; k < f->ntypes; k++) {
		size_t t = k == 0 ? first : k <= first ? k - 1 : k;
		const struct pprof_str *ty = pprof_string(f, f->types[t].type);
		const struct pprof_str *un = pprof_string(f, f->types[t].unit);

		type_of[t] = (uint32_t)k;
		if (ty->len == 7 && !memcmp(ty->s, "samples", 7) &&
		    samples == NO_ID)
			samples = (uint32_t)t;
		d->events[k].name = names_intern(&p->names, ty->s, ty->len);
		/* "count": the event is its own unit (read_pprof.c) */
		if (un->len && !(un->len == 5 && !memcmp(un->s, "count", 5)))
			d->events[k].unit = names_intern(&p->names, un->s,
							 un->len);
	}
	frame_of = xmalloc((f->nlocations + 1) * sizeof(*frame_of));
	for (size_t l = 0; l < f->nlocations; l++)
		frame_of[l] = location_frame(p, f, (uint32_t)l, from);
	while ((r = pprof_next_sample(f, &off, &s)) > 0) {
		uint32_t node = NO_ID;

		walked += s.nlocs;
		if (walked > max_frames) {
			error_at_offset(f->path, s.off, "the samples' stacks "
					"hold more than %llu frames, more than "
					"a file of %zu bytes can hold",
					(unsigned long long)max_frames, f->len);
			goto out;
		}
		for (size_t i = s.nlocs; i-- > 0;)
			node = perf_data_node(d, frame_of[s.locs[i]], node, true);
		if ((uint64_t)(d->nframes + d->nnodes) * f->ntypes > max_costs) {
			error_at_offset(f->path, s.off, "%zu sample types by %zu "
					"addresses and %zu stacks would need more "
					"memory for their costs than a file of %zu "
					"bytes can hold: refused", f->ntypes,
					d->nframes, d->nnodes, f->len);
			goto out;
		}
		if (d->nnodes > max_nodes) {
			error_at_offset(f->path, s.off, "more than %llu distinct "
					"stacks, more than a file of %zu bytes "
					"can hold", (unsigned long long)max_nodes,
					f->len);
			goto out;
		}
		for (size_t t = 0; node != NO_ID && t < f->ntypes; t++)
			if (s.values[t])
				add_sample(d, node, type_of[t], s.values[t],
					   samples == NO_ID ? 1 : s.values[samples]);
	}
	if (r < 0)
		goto out;
	ret = 0;
out:
	pprof_sample_release(&s);
	free(frame_of);
	free(type_of);
	return ret;
}
