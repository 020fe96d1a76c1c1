/*
 * The separate debug file of a stripped binary, found the way gdb finds
 * it ("Debugging Information in Separate Files" in the gdb manual):
 *
 *   1. by build-id: <debug_dir>/.build-id/ab/cdef...debug, where ab is
 *      the first byte of the build-id in hex and cdef... the rest; the
 *      file must carry the same build-id;
 *   2. by .gnu_debuglink name, with the CRC-32 recorded next to it:
 *        <binary's dir>/<name>
 *        <binary's dir>/.debug/<name>
 *        <debug_dir>/<binary's dir>/<name>
 *      where <binary's dir> is the absolute, symlink-free directory.
 *
 * A file that is found but does not match is skipped with a warning, as
 * gdb does, and the search goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/debug_dirs.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "symtab_int.h"

/* The .gnu_debuglink CRC is zlib's CRC-32 of the whole file (gdb's
 * gnu_debuglink_crc32 is the same polynomial and start value). */
int debugfile_crc(const char *path, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		c = crc32(c, buf, (uInt)n);
	if (n < 0) {
		error_errno("cannot read '%s'", path);
		close(fd);
		return -1;
	}
	close(fd);
	*crc = (uint32_t)c;
	return 0;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether candidate is the binary itself (a debuglink naming itself). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static char *by_build_id(const char *debug_dir, const uint8_t *id,
			 size_t len)
{
	char *path = xmalloc(strlen(debug_dir) + 2 * len + 32);
	uint8_t found[64];
	size_t flen, n;

	n = (size_t)sprintf(path, "%s/.build-id/%02x/", debug_dir, id[0]);
	for (size_t i = 1; i < len; i++)
		n += (size_t)sprintf(path + n, "%02x", id[i]);
	strcpy(path + n, ".debug");
	if (!is_file(path))
		goto no;
	flen = elf_path_build_id(path, found);
	if (flen == len && !memcmp(found, id, len))
		return path;
	if (!flen)	/* a truncated copy said "does not match" */
		warning("%s: no build-id can be read from it (not ELF, cut "
			"short, or without the note): ignored", path);
	else
		warning("%s: build-id does not match the binary's: ignored",
			path);
no:
	free(path);
	return NULL;
}

/* beside: look beside the binary too (once: not again for each debug
 * directory, which said a mismatch there once per directory) */
static char *by_debuglink(const char *path, const char *debug_dir,
			  const char *link, uint32_t want, bool beside)
{
	char *real = realpath(path, NULL), *dir, *slash, *cand;
	size_t max;
	uint32_t crc;

	if (!real)
		return NULL;
	slash = strrchr(real, '/');
	dir = xstrndup(real, slash ? (size_t)(slash - real) : 0);
	max = strlen(debug_dir) + strlen(dir) + strlen(link) + 16;
	cand = xmalloc(max);
	for (int i = beside ? 0 : 2; i < 3; i++) {
		if (i == 0)
			snprintf(cand, max, "%s/%s", dir, link);
		else if (i == 1)
			snprintf(cand, max, "%s/.debug/%s", dir, link);
		else
			snprintf(cand, max, "%s%s/%s", debug_dir, dir, link);
		if (!is_file(cand) || same_file(cand, real))
			continue;
		if (debugfile_crc(cand, &crc) < 0)
			continue;
		if (crc == want)
			goto out;
		warning("%s: CRC does not match the .gnu_debuglink of '%s': "
			"ignored", cand, path);
	}
	free(cand);
	cand = NULL;
out:
	free(dir);
	free(real);
	return cand;
}

char *debugfile_find(const char *path, const char *debug_dir,
		     const uint8_t *build_id, size_t build_id_len,
		     const char *debuglink, uint32_t crc)
{
	const char *dirs[DEBUG_DIRS_MAX];
	size_t n = debug_dirs(debug_dir, dirs);
	char *found = NULL;

	/* --debug-dir adds a directory: the system's debug files (libc6-dbg's,
	 * for libc's static functions) are still found after it; a file
	 * found there matches by build-id or CRC as any other */
	for (size_t i = 0; i < n && !found; i++) {
		if (build_id_len)
			found = by_build_id(dirs[i], build_id, build_id_len);
		if (!found && debuglink)
			found = by_debuglink(path, dirs[i], debuglink, crc,
					     i == 0);
	}
	return found;
}
