/*
 * What the perf.data reader's files share (perf_reader.h): messages
 * that name the file and the offset, and cursors in the file's byte
 * order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "profile/perf_files.h"

#include "perf_reader.h"

int perf_fail(const struct perf_reader *r, size_t off, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	/* read again in two passes, which say it where they find it */
	if (r->one_pass)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->in_inflated)
		return error_at_offset(r->path, r->inflated_from, "%s (at "
				       "offset 0x%zx of the data decompressed "
				       "from the compressed records, reading "
				       "the one here)", msg, off);
	return error_at_offset(r->path, off, "%s", msg);
}

void perf_quirk(struct perf_reader *r, enum perf_quirk q, size_t off)
{
	if (!r->quirks[q].n++)
		r->quirks[q].first = r->in_inflated ? r->inflated_from : off;
}

int perf_set_build_id(struct perf_reader *r, uint32_t obj, const uint8_t *id,
		      size_t n, size_t off)
{
	struct perf_object *o = &r->d->objects[obj];

	/* an object of a recording read before this one: summing the
	 * two is only right if it is the same file */
	if (obj < r->first_object && o->build_id_len &&
	    !perf_build_id_is(o, id, n)) {
		char had[2 * PERF_BUILD_ID_MAX + 1], has[2 * PERF_BUILD_ID_MAX + 1];

		perf_build_id_hex(o->build_id, o->build_id_len, had);
		perf_build_id_hex(id, n, has);
		return perf_fail(r, off, "'%s' has the build-id %s here and %s "
				 "in the recording read before: recordings of "
				 "other builds are not added up",
				 names_str(&r->p->names, o->path), has, had);
	}
	/* one pass: the object's frames were made, and its files perhaps
	 * found (the unwinder, the symbol tables loaded ahead), by the
	 * build-id it had then */
	if (r->one_pass && o->frames.nr &&
	    (o->build_id_len != n || memcmp(o->build_id, id, n)))
		return -1;
	memcpy(o->build_id, id, n);
	o->build_id_len = (uint8_t)n;
	o->build_id_from = names_intern(&r->p->names, r->path,
					strlen(r->path));
	o->build_id_off = r->in_inflated ? r->inflated_from : off;
	return 0;
}
