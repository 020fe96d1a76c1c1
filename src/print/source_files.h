/*
 * Source files for the annotated listings: found where the profile or the
 * DWARF line table says they are, or through search directories (-I) and
 * prefix maps (--source-map OLD=NEW) for profiles made on another
 * machine; read once, split into lines, and checked against the
 * profile's age. A file that cannot be found is remembered as such, with
 * the places that were tried, so each listing can say why it has no
 * text.
 */
#ifndef CGA_SOURCE_FILES_H
#define CGA_SOURCE_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* A path starting with from[0..from_len) is looked for starting with to. */
struct source_map {
	const char *from;
	size_t from_len;
	const char *to;
};

struct source_opts {
	const char *const *dirs;	/* -I, in order */
	size_t ndirs;
	const struct source_map *maps;	/* --source-map, in order */
	size_t nmaps;
	time_t profile_mtime;		/* 0: unknown (no stale check) */
};

struct source_file {
	char *asked;		/* the name the profile or DWARF gave */
	char *found;		/* the path read, or NULL when not found */
	char *text;		/* the whole file, NUL-terminated */
	size_t size;
	const char **lines;	/* lines[i] starts line i + 1 */
	uint32_t nlines;
	bool stale;		/* modified after the profile was written */
	int err;		/* errno of the last failed open, if not found */
	struct source_file *next;
};

struct sources {
	struct source_opts opts;
	struct source_file *files;	/* loaded or missing, newest first */
};

void sources_init(struct sources *s, const struct source_opts *opts);
void sources_release(struct sources *s);

/* The file for this name: loaded on first request, NULL-free (check
 * ->found for whether it was found). */
const struct source_file *sources_get(struct sources *s, const char *name);

/* Line n (1-based) of f without its newline: *len bytes at the result, or
 * NULL when f has no such line. */
const char *source_line(const struct source_file *f, uint32_t n, size_t *len);

/* Parse "OLD=NEW" into m (pointing into arg). Returns -1 if OLD is
 * missing. */
int source_map_parse(const char *arg, struct source_map *m);

#endif
