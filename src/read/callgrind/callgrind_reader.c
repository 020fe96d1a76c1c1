/*
 * The Callgrind reader's state outside its line parsers: the tables of
 * compressed ids and the stand-ins a stretch read ahead uses for ids it
 * has no definition for, the messages (errors at the current line,
 * warnings said once per file), and releasing what a reader allocated.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "callgrind_reader.h"

void callgrind_id_put(struct callgrind_reader *rd, enum id_space space,
		      uint64_t id, name_id name)
{
	/* the seek design reads a block again with the ids as the file
	 * ends: an id naming two things cannot be */
	if (rd->seek_rec && !rd->seek_bad) {
		name_id old = callgrind_id_get(rd, space, id);

		if (old != NO_NAME && old != name &&
		    !callgrind_is_stand_in(rd->p, old))
			rd->seek_bad = true;
	}
	if (rd->ahead) {
		ARRAY_GROW(rd->ids_set, rd->nids_set + 1, rd->ids_set_alloc);
		rd->ids_set[rd->nids_set].space = space;
		rd->ids_set[rd->nids_set++].id = id;
	}
	/* a stretch read ahead defines few ids, spread over the range: a
	 * page of the map each, up to 2 MB of a 100 MB file's peak
	 * (valgrind --separate-callers=3) for a few thousand ids */
	if (id >= SMALL_IDS || rd->ahead) {
		idmap_put(&rd->ids[space], id, name);
		return;
	}
	if (!rd->small_ids[space])
		rd->small_ids[space] = xmap_zeroed(SMALL_IDS * sizeof(name_id));
	rd->small_ids[space][id] = name + 1;
}

name_id callgrind_id_stand_in(struct profile *p, enum id_space space,
			      uint64_t id)
{
	char s[48];
	int n = snprintf(s, sizeof(s), "\n%d %llu", (int)space,
			 (unsigned long long)id);

	return names_intern(&p->names, s, (size_t)n);
}

int callgrind_error(struct callgrind_reader *rd, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_at(rd->lr->path, rd->lr->lineno, "%s", msg);
}

void callgrind_warn_once(struct callgrind_reader *rd, enum once kind,
			 const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (rd->once_count[kind]++)
		return;
	rd->once_line[kind] = rd->lr->lineno;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warning_at(rd->lr->path, rd->lr->lineno, "%s", msg);
}

void callgrind_report_repeats(struct callgrind_reader *rd)
{
	for (int k = 0; k < ONCE_COUNT; k++) {
		if (rd->once_count[k] > 1)
			warning_at(rd->lr->path, rd->once_line[k],
				   "the warning above applies to %u more lines",
				   rd->once_count[k] - 1);
	}
}

const char *callgrind_quote(const char *s, size_t len, char *buf, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 4 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (n < len && n + 4 <= size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

void callgrind_reader_stand_ins(struct callgrind_reader *rd,
				struct names *names)
{
	rd->ph_ob = names_intern(names, "\nob", 3);
	rd->ph_fl = names_intern(names, "\nfl", 3);
	rd->ph_file = names_intern(names, "\nfile", 5);
	rd->ph_func = names_intern(names, "\nfunc", 5);
	rd->ob = rd->ph_ob;
	rd->fl = rd->ph_fl;
	rd->file = rd->ph_file;
	rd->have_fl = true;
	rd->func = NO_ID;
	rd->cob = rd->cfi = rd->cfn = rd->jfi = rd->jfn = NO_NAME;
	rd->call_arc = NO_ID;
}

void callgrind_reader_release_read(struct callgrind_reader *rd)
{
	for (int i = 0; i < IDS_COUNT; i++) {
		idmap_release(&rd->ids[i]);
		xunmap(rd->small_ids[i], SMALL_IDS * sizeof(name_id));
	}
	free(rd->part_totals);
	free(rd->fold_buf);
	free(rd->ids_set);
	free(rd->coll_lo);
	free(rd->coll_hi);
	callgrind_blocks_release(&rd->blk);
}

void callgrind_reader_release(struct callgrind_reader *rd)
{
	callgrind_reader_release_read(rd);
	free(rd->event_map);
	free(rd->vals);
	free(rd->part_sum);
}
