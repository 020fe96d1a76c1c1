/*
 * profile.proto decoded into checked tables (see pprof.h). Three walks
 * over the top-level fields, because a writer may put them in any order
 * (Go writes the string table last): the strings; then the sample
 * types, mappings and functions; then the locations, which refer to
 * mappings and functions by id. The samples are read one at a time
 * later (pprof_next_sample()). Every table grows with fields actually
 * present in the file, so memory is bounded by its size whatever its
 * numbers claim.
 */
#include "pprof.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "profile/profile.h"

static int bad(const struct pprof_file *f, size_t off, const char *what)
{
	return error_at_offset(f->path, off, "%s", what);
}

/* A field's value as a string index: one the table has. */
static int str_index(const struct pprof_file *f, const struct pb_field *fd,
		     const char *what, uint32_t *out)
{
	if (fd->wire != PB_VARINT)
		return error_at_offset(f->path, fd->off, "%s is not a varint "
				       "(wire type %d)", what, fd->wire);
	if (fd->v >= f->nstrings)
		return error_at_offset(f->path, fd->off, "%s: string index "
				       "%llu out of range (the string table "
				       "has %zu strings)", what,
				       (unsigned long long)fd->v, f->nstrings);
	*out = (uint32_t)fd->v;
	return 0;
}

static int varint_field(const struct pprof_file *f, const struct pb_field *fd,
			const char *what)
{
	if (fd->wire != PB_VARINT)
		return error_at_offset(f->path, fd->off, "%s is not a varint "
				       "(wire type %d)", what, fd->wire);
	return 0;
}

static int len_field(const struct pprof_file *f, const struct pb_field *fd,
		     const char *what)
{
	if (fd->wire != PB_LEN)
		return error_at_offset(f->path, fd->off, "%s is not a message "
				       "(wire type %d, expected 2)", what,
				       fd->wire);
	return 0;
}

/* The next field of in, or an error at its offset. */
static int next(const struct pprof_file *f, struct pb_in *in,
		struct pb_field *fd)
{
	const char *why;
	int r = pb_next(in, fd, &why);

	if (r < 0)
		return bad(f, pb_offset(in), why);
	return r;
}

static int read_value_type(const struct pprof_file *f,
			   const struct pb_field *outer, struct pprof_type *t)
{
	struct pb_in in = pb_sub(f->data, outer->data, outer->len);
	struct pb_field fd;
	int r;

	t->type = t->unit = 0;
	while ((r = next(f, &in, &fd)) > 0) {
		if (fd.num == 1 && str_index(f, &fd, "a sample type's type",
					     &t->type) < 0)
			return -1;
		if (fd.num == 2 && str_index(f, &fd, "a sample type's unit",
					     &t->unit) < 0)
			return -1;
	}
	return r;
}

static int read_mapping(struct pprof_file *f, const struct pb_field *outer,
			struct u64map *ids)
{
	struct pb_in in = pb_sub(f->data, outer->data, outer->len);
	struct pprof_mapping m = { 0 };
	struct pb_field fd;
	bool added;
	int r;

	while ((r = next(f, &in, &fd)) > 0) {
		uint64_t *num = fd.num == 1 ? &m.id : fd.num == 2 ? &m.start
			: fd.num == 3 ? &m.limit : fd.num == 4 ? &m.offset
			: NULL;

		if (num) {
			if (varint_field(f, &fd, "a mapping's number") < 0)
				return -1;
			*num = fd.v;
		} else if (fd.num == 5 &&
			   str_index(f, &fd, "a mapping's file name",
				     &m.filename) < 0) {
			return -1;
		} else if (fd.num == 6 &&
			   str_index(f, &fd, "a mapping's build id",
				     &m.build_id) < 0) {
			return -1;
		}
	}
	if (r < 0)
		return -1;
	if (!m.id)
		return bad(f, outer->off, "a mapping with id 0 (ids are nonzero)");
	u64map_get_or_put(ids, m.id, (uint32_t)f->nmappings, &added);
	if (!added)
		return error_at_offset(f->path, outer->off, "a second mapping "
				       "with id %llu", (unsigned long long)m.id);
	ARRAY_GROW(f->mappings, f->nmappings + 1, f->mappings_alloc);
	f->mappings[f->nmappings++] = m;
	return 0;
}

static int read_function(struct pprof_file *f, const struct pb_field *outer,
			 struct u64map *ids)
{
	struct pb_in in = pb_sub(f->data, outer->data, outer->len);
	struct pprof_function fn = { 0 };
	struct pb_field fd;
	bool added;
	int r;

	while ((r = next(f, &in, &fd)) > 0) {
		switch (fd.num) {
		case 1:
			if (varint_field(f, &fd, "a function's id") < 0)
				return -1;
			fn.id = fd.v;
			break;
		case 2:
			if (str_index(f, &fd, "a function's name", &fn.name) < 0)
				return -1;
			break;
		case 3:
			if (str_index(f, &fd, "a function's system name",
				      &fn.system_name) < 0)
				return -1;
			break;
		case 4:
			if (str_index(f, &fd, "a function's file name",
				      &fn.filename) < 0)
				return -1;
			break;
		case 5:
			if (varint_field(f, &fd, "a function's start line") < 0)
				return -1;
			fn.start_line = (int64_t)fd.v;
			break;
		default:
			break;
		}
	}
	if (r < 0)
		return -1;
	if (!fn.id)
		return bad(f, outer->off, "a function with id 0 (ids are nonzero)");
	u64map_get_or_put(ids, fn.id, (uint32_t)f->nfuncs, &added);
	if (!added)
		return error_at_offset(f->path, outer->off, "a second function "
				       "with id %llu", (unsigned long long)fn.id);
	ARRAY_GROW(f->funcs, f->nfuncs + 1, f->funcs_alloc);
	f->funcs[f->nfuncs++] = fn;
	return 0;
}

static int read_line(struct pprof_file *f, const struct pb_field *outer,
		     const struct u64map *func_ids)
{
	struct pb_in in = pb_sub(f->data, outer->data, outer->len);
	struct pprof_line ln = { NO_ID, 0 };
	uint64_t id = 0;
	struct pb_field fd;
	int r;

	while ((r = next(f, &in, &fd)) > 0) {
		if (fd.num == 1) {
			if (varint_field(f, &fd, "a line's function id") < 0)
				return -1;
			id = fd.v;
		} else if (fd.num == 2) {
			if (varint_field(f, &fd, "a line number") < 0)
				return -1;
			ln.line = (int64_t)fd.v;
		}
	}
	if (r < 0)
		return -1;
	ln.func = u64map_get(func_ids, id);
	if (ln.func == U64MAP_NONE)
		return error_at_offset(f->path, outer->off, "a line of function "
				       "id %llu, which no function has",
				       (unsigned long long)id);
	ARRAY_GROW(f->lines, f->nlines + 1, f->lines_alloc);
	f->lines[f->nlines++] = ln;
	return 0;
}

static int read_location(struct pprof_file *f, const struct pb_field *outer,
			 const struct u64map *map_ids,
			 const struct u64map *func_ids)
{
	struct pb_in in = pb_sub(f->data, outer->data, outer->len);
	struct pprof_location loc = { .mapping = NO_ID, .off = outer->off };
	uint64_t mapping = 0;
	struct pb_field fd;
	bool added;
	int r;

	loc.first_line = (uint32_t)f->nlines;
	while ((r = next(f, &in, &fd)) > 0) {
		switch (fd.num) {
		case 1:
			if (varint_field(f, &fd, "a location's id") < 0)
				return -1;
			loc.id = fd.v;
			break;
		case 2:
			if (varint_field(f, &fd, "a location's mapping id") < 0)
				return -1;
			mapping = fd.v;
			break;
		case 3:
			if (varint_field(f, &fd, "a location's address") < 0)
				return -1;
			loc.address = fd.v;
			break;
		case 4:
			if (len_field(f, &fd, "a location's line") < 0 ||
			    read_line(f, &fd, func_ids) < 0)
				return -1;
			if (f->nlines >= UINT32_MAX)
				return bad(f, fd.off, "more than 2^32 lines");
			break;
		default:
			break;
		}
	}
	if (r < 0)
		return -1;
	loc.nlines = (uint32_t)(f->nlines - loc.first_line);
	if (loc.nlines)
		f->any_lines = true;
	if (mapping) {
		loc.mapping = u64map_get(map_ids, mapping);
		if (loc.mapping == U64MAP_NONE)
			return error_at_offset(f->path, outer->off, "a location "
					       "in mapping id %llu, which no "
					       "mapping has",
					       (unsigned long long)mapping);
	}
	if (!loc.id)
		return bad(f, outer->off, "a location with id 0 (ids are nonzero)");
	u64map_get_or_put(&f->location_index, loc.id, (uint32_t)f->nlocations,
			  &added);
	if (!added)
		return error_at_offset(f->path, outer->off, "a second location "
				       "with id %llu", (unsigned long long)loc.id);
	ARRAY_GROW(f->locations, f->nlocations + 1, f->locations_alloc);
	f->locations[f->nlocations++] = loc;
	return 0;
}

/* Repeated varints, packed (one length-delimited field) or not (one
 * field each): each passed to add. */
static int each_varint(const struct pprof_file *f, const struct pb_field *fd,
		       const char *what,
		       int (*add)(const struct pprof_file *f, void *arg,
				  uint64_t v, size_t off),
		       void *arg)
{
	const unsigned char *p, *end;

	if (fd->wire == PB_VARINT)
		return add(f, arg, fd->v, fd->off);
	if (fd->wire != PB_LEN)
		return error_at_offset(f->path, fd->off, "%s: wire type %d, "
				       "expected varints", what, fd->wire);
	p = fd->data;
	end = fd->data + fd->len;
	while (p < end) {
		size_t off = (size_t)(p - f->data);
		const char *why;
		uint64_t v;

		if (pb_varint(&p, end, &v, &why) < 0)
			return error_at_offset(f->path, off, "%s: %s", what, why);
		if (add(f, arg, v, off) < 0)
			return -1;
	}
	return 0;
}

static int add_comment(const struct pprof_file *cf, void *arg, uint64_t v,
		       size_t off)
{
	struct pprof_file *f = arg;

	if (v >= cf->nstrings)
		return error_at_offset(f->path, off, "a comment: string index "
				       "%llu out of range (the string table "
				       "has %zu strings)",
				       (unsigned long long)v, f->nstrings);
	ARRAY_GROW(f->comments, f->ncomments + 1, f->comments_alloc);
	f->comments[f->ncomments++] = (uint32_t)v;
	return 0;
}

/* The strings; the first must be "" (pprof's rule: index 0 is none). */
static int read_strings(struct pprof_file *f)
{
	struct pb_in in = pb_sub(f->data, f->data, f->len);
	struct pb_field fd;
	int r;

	while ((r = next(f, &in, &fd)) > 0) {
		if (fd.num != PPROF_STRING)
			continue;
		if (fd.wire != PB_LEN)
			return bad(f, fd.off, "a string table entry is not a "
				   "string");
		if (f->nstrings == 0 && fd.len)
			return bad(f, fd.off, "the string table's first "
				   "string is not empty (pprof requires it)");
		/* a name with one would be cut there by every listing;
		 * pprof's writers put none in (their names are C's, Go's,
		 * Java's) */
		if (memchr(fd.data, '\0', fd.len))
			return error_at_offset(f->path, fd.off, "string %zu "
					       "holds a NUL byte (is the file "
					       "damaged?)", f->nstrings);
		ARRAY_GROW(f->strings, f->nstrings + 1, f->strings_alloc);
		f->strings[f->nstrings].s = (const char *)fd.data;
		f->strings[f->nstrings++].len = fd.len;
		if (f->nstrings >= UINT32_MAX)
			return bad(f, fd.off, "more than 2^32 strings");
	}
	if (r < 0)
		return -1;
	if (!f->nstrings)
		return bad(f, 0, "no string table (not a pprof profile)");
	return 0;
}

static int read_top(struct pprof_file *f, const struct pb_field *fd,
		    struct u64map *map_ids, struct u64map *func_ids)
{
	switch (fd->num) {
	case PPROF_SAMPLE_TYPE:
		ARRAY_GROW(f->types, f->ntypes + 1, f->types_alloc);
		if (len_field(f, fd, "a sample type") < 0 ||
		    read_value_type(f, fd, &f->types[f->ntypes]) < 0)
			return -1;
		f->ntypes++;
		return 0;
	case PPROF_MAPPING:
		return len_field(f, fd, "a mapping") < 0 ? -1
			: read_mapping(f, fd, map_ids);
	case PPROF_FUNCTION:
		return len_field(f, fd, "a function") < 0 ? -1
			: read_function(f, fd, func_ids);
	case PPROF_PERIOD_TYPE:
		return len_field(f, fd, "the period type") < 0 ? -1
			: read_value_type(f, fd, &f->period_type);
	case PPROF_PERIOD:
		if (varint_field(f, fd, "the period") < 0)
			return -1;
		f->period = (int64_t)fd->v;
		return 0;
	case PPROF_COMMENT:
		return each_varint(f, fd, "a comment", add_comment, f);
	case PPROF_DEFAULT_TYPE:
		return str_index(f, fd, "the default sample type",
				 &f->default_type);
	case PPROF_DROP_FRAMES:
		return str_index(f, fd, "drop_frames", &f->drop_frames);
	case PPROF_KEEP_FRAMES:
		return str_index(f, fd, "keep_frames", &f->keep_frames);
	case PPROF_SAMPLE:
		return len_field(f, fd, "a sample");
	case PPROF_LOCATION:
		return len_field(f, fd, "a location");
	default:
		/* time, duration, doc_url, and fields of later versions */
		return 0;
	}
}

int pprof_decode(struct pprof_file *f, const char *path,
		 const unsigned char *data, size_t len)
{
	struct u64map map_ids, func_ids;
	struct pb_in in;
	struct pb_field fd;
	int r, ret = -1;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->data = data;
	f->len = len;
	u64map_init(&f->location_index);
	u64map_init(&map_ids);
	u64map_init(&func_ids);
	if (read_strings(f) < 0)
		goto out;
	in = pb_sub(data, data, len);
	while ((r = next(f, &in, &fd)) > 0)
		if (read_top(f, &fd, &map_ids, &func_ids) < 0)
			goto out;
	if (r < 0)
		goto out;
	if (!f->ntypes) {
		bad(f, 0, "no sample type (a profile names what its values are)");
		goto out;
	}
	in = pb_sub(data, data, len);
	while ((r = next(f, &in, &fd)) > 0)
		if (fd.num == PPROF_LOCATION &&
		    read_location(f, &fd, &map_ids, &func_ids) < 0)
			goto out;
	if (r < 0)
		goto out;
	ret = 0;
out:
	u64map_release(&map_ids);
	u64map_release(&func_ids);
	return ret;
}

void pprof_file_release(struct pprof_file *f)
{
	free(f->strings);
	free(f->types);
	free(f->mappings);
	free(f->locations);
	free(f->lines);
	free(f->funcs);
	free(f->comments);
	u64map_release(&f->location_index);
	memset(f, 0, sizeof(*f));
}

static int add_location(const struct pprof_file *f, void *arg, uint64_t v,
			size_t off)
{
	struct pprof_sample *s = arg;
	uint32_t loc = u64map_get(&f->location_index, v);

	if (loc == U64MAP_NONE)
		return error_at_offset(f->path, off, "a sample's location id "
				       "%llu, which no location has",
				       (unsigned long long)v);
	ARRAY_GROW(s->locs, s->nlocs + 1, s->locs_alloc);
	s->locs[s->nlocs++] = loc;
	return 0;
}

static int add_value(const struct pprof_file *f, void *arg, uint64_t v,
		     size_t off)
{
	struct pprof_sample *s = arg;

	/* int64 on the wire: a diff profile's values may be negative, and
	 * the model's costs are not */
	if (v > INT64_MAX)
		return error_at_offset(f->path, off, "a negative sample value "
				       "(%lld): a difference of profiles? "
				       "cganalyze --diff compares two profiles "
				       "itself", (long long)v);
	if (s->nvalues >= f->ntypes)
		return error_at_offset(f->path, off, "a sample with more values "
				       "than the %zu sample types", f->ntypes);
	s->values[s->nvalues++] = v;
	return 0;
}

int pprof_next_sample(const struct pprof_file *f, size_t *off,
		      struct pprof_sample *s)
{
	struct pb_in in = pb_sub(f->data, f->data + *off, f->len - *off);
	struct pb_field fd, sf;
	struct pb_in sin;
	int r;

	do {
		r = next(f, &in, &fd);
		if (r <= 0)
			return r;
	} while (fd.num != PPROF_SAMPLE);
	*off = pb_offset(&in);
	s->off = fd.off;
	s->nlocs = s->nvalues = 0;
	ARRAY_GROW(s->values, f->ntypes, s->values_alloc);
	sin = pb_sub(f->data, fd.data, fd.len);
	while ((r = next(f, &sin, &sf)) > 0) {
		if (sf.num == 1 && each_varint(f, &sf, "a sample's locations",
					       add_location, s) < 0)
			return -1;
		if (sf.num == 2 && each_varint(f, &sf, "a sample's values",
					       add_value, s) < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (s->nvalues != f->ntypes)
		return error_at_offset(f->path, fd.off, "a sample with %zu "
				       "values for %zu sample types", s->nvalues,
				       f->ntypes);
	return 1;
}

void pprof_sample_release(struct pprof_sample *s)
{
	free(s->locs);
	free(s->values);
}
