/*
 * Source files for the annotated listings, found, read once and split
 * into lines (see source_files.h).
 */
#include "source_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/xalloc.h"

/* Sources bigger than this are not listings anyone reads; refuse them
 * rather than read a stray multi-gigabyte file named like a source. */
#define MAX_SOURCE_BYTES (256u << 20)

void sources_init(struct sources *s, const struct source_opts *opts)
{
	memset(s, 0, sizeof(*s));
	if (opts)
		s->opts = *opts;
}

void sources_release(struct sources *s)
{
	struct source_file *f = s->files, *next;

	for (; f; f = next) {
		next = f->next;
		free(f->asked);
		free(f->found);
		free(f->text);
		free(f->lines);
		free(f);
	}
	s->files = NULL;
}

int source_map_parse(const char *arg, struct source_map *m)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return -1;
	m->from = arg;
	m->from_len = (size_t)(eq - arg);
	m->to = eq + 1;
	return 0;
}

/* Read a regular file whole; 0, or -1 with errno set. */
static int read_whole(const char *path, char **text, size_t *size,
		      time_t *mtime)
{
	struct stat sb;
	size_t got = 0;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size > MAX_SOURCE_BYTES) {
		int e = errno;

		if (!S_ISREG(sb.st_mode))
			e = EISDIR;
		else if ((uint64_t)sb.st_size > MAX_SOURCE_BYTES)
			e = EFBIG;
		close(fd);
		errno = e;
		return -1;
	}
	buf = xmalloc((size_t)sb.st_size + 1);
	while (got < (size_t)sb.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)sb.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* shrank while we read: keep what is there */
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*text = buf;
	*size = got;
	*mtime = sb.st_mtime;
	return 0;
}

static void split_lines(struct source_file *f)
{
	size_t alloc = 0;
	const char *s = f->text, *end = f->text + f->size;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		ARRAY_GROW(f->lines, (size_t)f->nlines + 1, alloc);
		f->lines[f->nlines++] = s;
		if (!nl || f->nlines == UINT32_MAX)
			break;
		s = nl + 1;
	}
}

/* Try one candidate path; true when it was read. */
static bool try_path(struct sources *s, struct source_file *f,
		     const char *path)
{
	time_t mtime;

	if (read_whole(path, &f->text, &f->size, &mtime) < 0) {
		f->err = errno;
		return false;
	}
	f->found = xstrdup(path);
	f->stale = s->opts.profile_mtime && mtime > s->opts.profile_mtime;
	split_lines(f);
	return true;
}

static char *join(const char *dir, const char *tail)
{
	size_t dl = strlen(dir);
	char *out = xmalloc(dl + strlen(tail) + 2);

	memcpy(out, dir, dl);
	out[dl] = '/';
	strcpy(out + dl + 1, tail);
	return out;
}

/*
 * Where a name may be, in order: the name with each --source-map prefix
 * replaced, the name as given, then under each -I directory every tail
 * of the name from the longest ("src/a/b.c" under DIR is DIR/src/a/b.c,
 * then DIR/a/b.c, then DIR/b.c), so a tree copied elsewhere is found
 * with the fewest wrong matches.
 */
static void locate(struct sources *s, struct source_file *f)
{
	const char *name = f->asked;

	for (size_t i = 0; i < s->opts.nmaps; i++) {
		const struct source_map *m = &s->opts.maps[i];
		size_t fl = m->from_len;

		if (!strncmp(name, m->from, fl)) {
			char *p = xmalloc(strlen(m->to) + strlen(name + fl) + 1);
			bool ok;

			strcpy(p, m->to);
			strcat(p, name + fl);
			ok = try_path(s, f, p);
			free(p);
			if (ok)
				return;
		}
	}
	if (try_path(s, f, name))
		return;
	for (size_t i = 0; i < s->opts.ndirs; i++) {
		const char *tail = name;

		while (*tail == '/')
			tail++;
		while (*tail) {
			char *p = join(s->opts.dirs[i], tail);
			bool ok = try_path(s, f, p);
			const char *slash;

			free(p);
			if (ok)
				return;
			slash = strchr(tail, '/');
			if (!slash)
				break;
			tail = slash + 1;
		}
	}
}

const struct source_file *sources_get(struct sources *s, const char *name)
{
	struct source_file *f;

	for (f = s->files; f; f = f->next)
		if (!strcmp(f->asked, name))
			return f;
	f = xcalloc(1, sizeof(*f));
	f->asked = xstrdup(name);
	f->err = ENOENT;
	locate(s, f);
	f->next = s->files;
	s->files = f;
	return f;
}

const char *source_line(const struct source_file *f, uint32_t n, size_t *len)
{
	const char *s, *end, *nl;

	if (!f->found || n == 0 || n > f->nlines)
		return NULL;
	s = f->lines[n - 1];
	end = f->text + f->size;
	nl = memchr(s, '\n', (size_t)(end - s));
	*len = nl ? (size_t)(nl - s) : (size_t)(end - s);
	if (*len && s[*len - 1] == '\r')
		(*len)--;
	return s;
}
