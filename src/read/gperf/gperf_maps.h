/*
 * The mappings a gperftools profile carries: the text of the process's
 * /proc/self/maps, after a CPU profile's records and after a heap
 * profile's "MAPPED_LIBRARIES:" line. They give each address its object
 * and the offset in that object's file, as perf.data's MMAP records do,
 * so the frames go to resolve_perf() as a recording's do.
 */
#ifndef CGA_GPERF_MAPS_H
#define CGA_GPERF_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "base/names.h"
#include "profile/perf_data.h"

struct gperf_map {
	uint64_t start, end, pgoff;
	uint32_t object;		/* into perf_data.objects */
	enum perf_object_kind kind;
};

struct gperf_maps {
	struct gperf_map *maps;		/* sorted by start once sorted */
	size_t n, alloc;
	uint64_t skipped;		/* lines that are no mapping */
	uint64_t first_skipped;		/* the first one's offset or line
					 * (the caller's where) */
};

void gperf_maps_init(struct gperf_maps *m);
void gperf_maps_release(struct gperf_maps *m);

/*
 * One line of /proc/self/maps ("start-end perms offset dev inode path"):
 * an executable mapping is added (its object created in d), another is
 * left out (code runs only from executable ones, as pprof keeps them),
 * and a line that is no mapping is counted in skipped (gperftools may
 * write "build=DIR" and the like there). Never fails.
 */
void gperf_maps_add_line(struct gperf_maps *m, struct perf_data *d,
			 struct names *names, const char *line, size_t len,
			 uint64_t where);

/* After the last line: sorted for gperf_maps_frame(). */
void gperf_maps_sort(struct gperf_maps *m);

/*
 * The frame of addr: its mapping's object and file offset (from the
 * mapping's start for an anonymous one), else the object unknown with
 * the address itself. Mappings do not overlap in /proc/self/maps; where
 * a file says they do, the one starting last at or below addr is taken,
 * so a look-up stays one binary search.
 */
uint32_t gperf_maps_frame(const struct gperf_maps *m, struct perf_data *d,
			  uint32_t unknown, uint64_t addr);

#endif
