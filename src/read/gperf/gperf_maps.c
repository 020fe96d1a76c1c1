/*
 * A gperftools profile's /proc/self/maps text as mappings (see
 * gperf_maps.h).
 */
#include "gperf_maps.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/sorted.h"

void gperf_maps_init(struct gperf_maps *m)
{
	memset(m, 0, sizeof(*m));
}

void gperf_maps_release(struct gperf_maps *m)
{
	free(m->maps);
	memset(m, 0, sizeof(*m));
}

/* A hex number at *s (no "0x"), at most 16 digits; false if none. */
static bool hex_field(const char **s, const char *end, uint64_t *v)
{
	const char *p = *s;
	int digits = 0;

	*v = 0;
	for (; p < end && digits < 17; p++, digits++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		*v = *v << 4 | (uint64_t)d;
	}
	if (digits == 0 || digits > 16)
		return false;
	*s = p;
	return true;
}

static const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* The next blank-separated word: [*w, *wend). */
static const char *word(const char *s, const char *end, const char **wend)
{
	s = skip_blanks(s, end);
	*wend = s;
	while (*wend < end && **wend != ' ' && **wend != '\t')
		(*wend)++;
	return s;
}

static void skip(struct gperf_maps *m, uint64_t where)
{
	if (!m->skipped++)
		m->first_skipped = where;
}

void gperf_maps_add_line(struct gperf_maps *m, struct perf_data *d,
			 struct names *names, const char *line, size_t len,
			 uint64_t where)
{
	const char *s = line, *end = line + len, *w, *wend;
	uint64_t start, stop, pgoff;
	enum perf_object_kind kind = PERF_OBJ_FILE;
	struct gperf_map *map;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' ||
			   end[-1] == ' '))
		end--;
	s = skip_blanks(s, end);
	if (s == end)
		return;		/* a blank line is no mapping either */
	if (!hex_field(&s, end, &start) || s == end || *s++ != '-' ||
	    !hex_field(&s, end, &stop) || stop <= start) {
		skip(m, where);
		return;
	}
	w = word(s, end, &wend);	/* perms: r-xp */
	if (wend - w != 4) {
		skip(m, where);
		return;
	}
	if (w[2] != 'x')
		return;
	s = skip_blanks(wend, end);
	if (!hex_field(&s, end, &pgoff)) {
		skip(m, where);
		return;
	}
	word(s, end, &wend);		/* dev */
	w = word(wend, end, &wend);	/* inode */
	if (w == wend) {
		skip(m, where);
		return;
	}
	s = skip_blanks(wend, end);	/* the path, blanks and all */
	/* /proc/PID/maps has none: the listings would cut the path */
	if (memchr(s, '\0', (size_t)(end - s))) {
		skip(m, where);
		return;
	}
	if (s == end) {
		s = "//anon";
		end = s + strlen(s);
		kind = PERF_OBJ_ANON;
	} else if (*s != '/') {
		kind = PERF_OBJ_ANON;	/* [vdso], [vsyscall], ... */
	}
	ARRAY_GROW(m->maps, m->n + 1, m->alloc);
	map = &m->maps[m->n++];
	map->start = start;
	map->end = stop;
	map->pgoff = kind == PERF_OBJ_FILE ? pgoff : 0;
	map->kind = kind;
	map->object = perf_data_object(d, names, s, (size_t)(end - s), kind);
}

static int by_start(const void *a, const void *b)
{
	const struct gperf_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void gperf_maps_sort(struct gperf_maps *m)
{
	if (m->n > 1)
		qsort(m->maps, m->n, sizeof(*m->maps), by_start);
}

uint32_t gperf_maps_frame(const struct gperf_maps *m, struct perf_data *d,
			  uint32_t unknown, uint64_t addr)
{
	/* the last mapping starting at or below addr */
	size_t lo = SORTED_UPTO(m->maps, m->n, start, addr);

	if (lo > 0 && addr < m->maps[lo - 1].end) {
		const struct gperf_map *map = &m->maps[lo - 1];

		return perf_data_frame(d, map->object,
				       addr - map->start + map->pgoff);
	}
	return perf_data_frame(d, unknown, addr);
}
