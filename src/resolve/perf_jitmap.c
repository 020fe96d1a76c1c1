/*
 * A JIT's /tmp/perf-PID.map read into a sorted table (perf_jitmap.h),
 * for naming the samples in the code a process made at run time.
 */
#include "perf_jitmap.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/sorted.h"
#include "base/xalloc.h"

/* A map of more than this is not a JIT's map (a hostile file, or the
 * wrong file at that path): refused rather than read into memory. */
#define JITMAP_MAX_BYTES ((off_t)1 << 30)

static int parse_hex(const char *s, const char **end, uint64_t *v)
{
	char *e;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
	      (*s >= 'A' && *s <= 'F')))
		return -1;
	errno = 0;
	*v = strtoull(s, &e, 16);
	if (errno || (*e != ' ' && *e != '\t'))
		return -1;
	*end = e;
	return 0;
}

static int cmp_start(const void *x, const void *y)
{
	const struct jit_sym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	/* one start twice: the later line after (it wins the lookup) */
	return a->name < b->name ? -1 : a->name > b->name;
}

int jitmap_load(struct jitmap *m, const char *path)
{
	size_t alloc = 0, len;
	struct stat sb;
	FILE *f = NULL;
	char *line;
	int fd;

	memset(m, 0, sizeof(*m));
	/* O_NONBLOCK: a FIFO at that path must not wait for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR
			? 1 : error_errno("cannot open '%s'", path);
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > JITMAP_MAX_BYTES || !(f = fdopen(fd, "rb"))) {
		close(fd);
		return error("'%s': not a JIT's symbol map (not a regular "
			     "file of at most 1 GiB)", path);
	}
	len = (size_t)sb.st_size;
	m->text = xmalloc(len + 1);
	if (fread(m->text, 1, len, f) != len) {
		fclose(f);
		jitmap_release(m);
		return error("'%s': read error", path);
	}
	fclose(f);
	m->text[len] = '\0';
	for (line = m->text; line < m->text + len;) {
		char *nl = memchr(line, '\n', (size_t)(m->text + len - line));
		char *next = nl ? nl + 1 : m->text + len;
		const char *p;
		uint64_t start, size;
		size_t nlen;

		if (nl)
			*nl = '\0';
		nlen = strlen(line);
		if (nlen && line[nlen - 1] == '\r')
			line[--nlen] = '\0';
		if (parse_hex(line, &p, &start) == 0 &&
		    parse_hex(p + strspn(p, " \t"), &p, &size) == 0) {
			p += strspn(p, " \t");
			if (*p && size && start + size > start) {
				ARRAY_GROW(m->syms, m->n + 1, alloc);
				m->syms[m->n++] = (struct jit_sym){
					start, start + size,
					(size_t)(p - m->text),
					(uint32_t)strlen(p),
				};
			}
		}
		line = next;
	}
	if (m->n)
		qsort(m->syms, m->n, sizeof(*m->syms), cmp_start);
	return 0;
}

void jitmap_release(struct jitmap *m)
{
	free(m->syms);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

const struct jit_sym *jitmap_lookup(const struct jitmap *m, uint64_t addr)
{
	/* the last entry starting at or before addr */
	size_t lo = SORTED_UPTO(m->syms, m->n, start, addr);

	if (!lo || addr >= m->syms[lo - 1].end)
		return NULL;
	return &m->syms[lo - 1];
}

int jitmap_is_path(const char *path)
{
	const char *p = path;

	if (strncmp(p, "/tmp/perf-", 10))
		return 0;
	p += 10;
	if (*p < '0' || *p > '9')
		return 0;
	p += strspn(p, "0123456789");
	return !strcmp(p, ".map");
}

static const char *here_name(struct jitmaps *j)
{
	static struct utsname u;

	if (!j->here)
		j->here = uname(&u) == 0 ? u.nodename : "";
	return j->here;
}

/* Whether the recording says it was made on another machine. */
static bool elsewhere(struct jitmaps *j)
{
	return j->recorded_on && *j->recorded_on &&
	       strcmp(j->recorded_on, here_name(j)) != 0;
}

const char *jitmaps_name(struct jitmaps *j, size_t nobjects, uint32_t object,
			 const char *path, const char *sysroot, uint64_t addr,
			 uint32_t *len)
{
	const struct jit_sym *s;

	if (!j->state) {
		j->n = nobjects;
		j->maps = xcalloc(nobjects + 1, sizeof(*j->maps));
		j->state = xcalloc(nobjects + 1, 1);
	}
	if (object >= j->n)
		return NULL;
	if (!j->state[object]) {
		char *where = NULL;
		int r;

		if (sysroot && *sysroot) {
			where = xmalloc(strlen(sysroot) + strlen(path) + 1);
			sprintf(where, "%s%s", sysroot, path);
		} else if (elsewhere(j)) {
			/* pids are per machine: the map of that number here,
			 * if any, is of another process, and its names would
			 * be wrong ones */
			j->state[object] = 2;
			warning("%s: not read: the recording was made on %s, "
				"not on this machine (%s), so the code process "
				"%.*s made at run time is shown as addresses; "
				"copy the map from there to DIR/tmp and give "
				"--sysroot=DIR", path, j->recorded_on,
				here_name(j),
				(int)strspn(path + 10, "0123456789"), path + 10);
			return NULL;
		}
		r = jitmap_load(&j->maps[object], where ? where : path);
		j->state[object] = r == 0 ? 1 : 2;
		if (r == 1)
			warning("%s: not here: the code process %.*s made at "
				"run time (a JIT's, in anonymous memory) is "
				"shown as addresses (perf report names it from "
				"the map the JIT writes there%s)",
				where ? where : path,
				(int)strspn(path + 10, "0123456789"), path + 10,
				where ? "; --sysroot=DIR looks in DIR/tmp" : "");
		free(where);
	}
	if (j->state[object] != 1 ||
	    !(s = jitmap_lookup(&j->maps[object], addr)))
		return NULL;
	*len = s->len;
	return jitmap_name(&j->maps[object], s);
}

void jitmaps_release(struct jitmaps *j)
{
	for (size_t i = 0; i < j->n; i++)
		jitmap_release(&j->maps[i]);
	free(j->maps);
	free(j->state);
	memset(j, 0, sizeof(*j));
}
