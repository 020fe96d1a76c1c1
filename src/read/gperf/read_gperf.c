/*
 * gperftools profiles (see gperf_reader.h): a CPU profile is binary,
 * found by its header words; a heap profile is text, found by its
 * first line. Either is read into p->perf as objects, offsets and a
 * tree of stacks, which resolve_perf() names with the -b binaries or
 * the files at the paths the mappings record (gperftools records no
 * build-ids: a file at that path is taken as the one that ran).
 */
#include <string.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "gperf_reader.h"
#include "read/read.h"

bool gperf_sniff(const char *data, size_t len)
{
	return gperf_cpu_sniff(data, len) || gperf_heap_sniff(data, len);
}

const char *gperf_format(const char *data, size_t len)
{
	return gperf_heap_sniff(data, len) ? "gperftools-heap"
					   : "gperftools-cpu";
}

static int read_cpu(struct gperf_reader *r, struct line_reader *lr)
{
	struct input_bytes b;
	int ret;

	if (line_reader_bytes(lr, GPERF_MAX_BYTES, &b) < 0)
		return -1;
	ret = gperf_read_cpu(r, b.data, b.len);
	input_bytes_release(&b);
	return ret;
}

int read_gperf(struct profile *p, struct line_reader *lr, bool heap)
{
	struct gperf_reader r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.path = lr->path;
	r.p = p;
	/* a second profile adds to the first's objects, frames, stacks */
	r.d = p->perf ? p->perf : perf_data_new();
	gperf_maps_init(&r.maps);
	r.unknown = perf_data_object(r.d, &p->names, PERF_UNKNOWN_OBJECT,
				     strlen(PERF_UNKNOWN_OBJECT),
				     PERF_OBJ_UNKNOWN);
	xalloc_set_context(r.path);
	ret = heap ? gperf_read_heap(&r, lr) : read_cpu(&r, lr);
	xalloc_set_context(NULL);
	if (ret == 0)
		p->perf = r.d;
	else if (r.d != p->perf)
		perf_data_free(r.d);	/* else half added to: the caller
					 * stops */
	gperf_maps_release(&r.maps);
	free(r.pcs);
	return ret;
}
