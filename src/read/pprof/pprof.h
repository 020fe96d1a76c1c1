/*
 * pprof's profile.proto, decoded (pprof_decode.c) into tables whose
 * every reference is checked, then put into the profile: as functions
 * and stacks when the locations carry lines (read_pprof.c), as objects,
 * offsets and stacks for resolve_perf() when they carry addresses only
 * (pprof_addr.c).
 *
 * The schema (github.com/google/pprof, proto/profile.proto) by field
 * number:
 *   Profile:  1 sample_type (ValueType)  2 sample  3 mapping  4 location
 *             5 function  6 string_table  7 drop_frames  8 keep_frames
 *             9 time_nanos  10 duration_nanos  11 period_type  12 period
 *             13 comment (string indexes)  14 default_sample_type
 *   ValueType: 1 type  2 unit (string indexes)
 *   Sample:   1 location_id (packed, leaf first)  2 value (packed)
 *             3 label
 *   Mapping:  1 id  2 memory_start  3 memory_limit  4 file_offset
 *             5 filename  6 build_id (string indexes)  7-10 has_* flags
 *   Location: 1 id  2 mapping_id  3 address  4 line  5 is_folded
 *   Line:     1 function_id  2 line  (3 column)
 *   Function: 1 id  2 name  3 system_name  4 filename  5 start_line
 * Ids are the file's own nonzero numbers; string index 0 is "".
 */
#ifndef CGA_PPROF_H
#define CGA_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "base/pbwire.h"

/* Field numbers of message Profile. */
enum {
	PPROF_SAMPLE_TYPE = 1,
	PPROF_SAMPLE = 2,
	PPROF_MAPPING = 3,
	PPROF_LOCATION = 4,
	PPROF_FUNCTION = 5,
	PPROF_STRING = 6,
	PPROF_DROP_FRAMES = 7,
	PPROF_KEEP_FRAMES = 8,
	PPROF_TIME = 9,
	PPROF_DURATION = 10,
	PPROF_PERIOD_TYPE = 11,
	PPROF_PERIOD = 12,
	PPROF_COMMENT = 13,
	PPROF_DEFAULT_TYPE = 14,
	PPROF_DOC_URL = 15,
};

struct pprof_str {
	const char *s;
	size_t len;
};

struct pprof_type {
	uint32_t type, unit;		/* string indexes */
};

struct pprof_mapping {
	uint64_t id, start, limit, offset;
	uint32_t filename, build_id;	/* string indexes */
};

struct pprof_line {
	uint32_t func;			/* into funcs[] */
	int64_t line;
};

struct pprof_location {
	uint64_t id, address;
	uint32_t mapping;		/* into mappings[], or NO_ID */
	uint32_t first_line, nlines;	/* into lines[]; innermost first */
	size_t off;			/* where it is, for messages */
};

struct pprof_function {
	uint64_t id;
	uint32_t name, system_name, filename;	/* string indexes */
	int64_t start_line;
};

struct pprof_file {
	const char *path;		/* for messages */
	const unsigned char *data;	/* decompressed */
	size_t len;

	struct pprof_str *strings;
	size_t nstrings, strings_alloc;
	struct pprof_type *types;
	size_t ntypes, types_alloc;
	struct pprof_mapping *mappings;
	size_t nmappings, mappings_alloc;
	struct pprof_location *locations;
	size_t nlocations, locations_alloc;
	struct pprof_line *lines;
	size_t nlines, lines_alloc;
	struct pprof_function *funcs;
	size_t nfuncs, funcs_alloc;
	uint32_t *comments;		/* string indexes */
	size_t ncomments, comments_alloc;
	struct u64map location_index;	/* id -> location */

	struct pprof_type period_type;
	int64_t period;
	uint32_t default_type;		/* string index, 0 none */
	uint32_t drop_frames, keep_frames;	/* string indexes */
	bool any_lines;			/* some location has a line */
};

/* One Sample: leaf-first location indexes and one value per type. */
struct pprof_sample {
	uint32_t *locs;
	size_t nlocs, locs_alloc;
	uint64_t *values;
	size_t nvalues, values_alloc;
	size_t off;
};

/*
 * Decode everything but the samples, checking every id and string
 * index: 0, or -1 after an error naming the file and the offset.
 */
int pprof_decode(struct pprof_file *f, const char *path,
		 const unsigned char *data, size_t len);
void pprof_file_release(struct pprof_file *f);

/*
 * The samples, in the order of the file: *off is where to look next
 * (0 at first). 1 with *s filled, 0 when there are no more, -1 after an
 * error (a location id no location has, values not one per sample
 * type, a negative value).
 */
int pprof_next_sample(const struct pprof_file *f, size_t *off,
		      struct pprof_sample *s);
void pprof_sample_release(struct pprof_sample *s);

static inline const struct pprof_str *pprof_string(const struct pprof_file *f,
						   uint32_t i)
{
	return &f->strings[i];
}

#endif
