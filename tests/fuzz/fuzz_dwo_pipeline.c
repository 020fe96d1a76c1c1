/*
 * See fuzz_pipeline.h: fuzz_dwo_one(). The split-DWARF reader
 * (symtab/dwarf_split.c) looks for a skeleton unit's .dwo beside the
 * binary and for <binary>.dwp, by name: unlike the other harnesses'
 * memfds, the input must be a file of that name in the binary's
 * directory. One temporary directory per process holds copies of the
 * skeleton programs of tests/split-dwarf/; each input is written there
 * under the name its first byte picks, and removed after the run, so
 * that no input sees another's file.
 */
#include "fuzz_pipeline.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/names.h"
#include "symtab/symtab.h"

#define SPLIT_DIR "tests/split-dwarf"

/* The skeletons: two DWARF 5 and two DWARF 4 builds of one program,
 * the first of each with a .dwo per unit, the second with a .dwp. */
static const char *const progs[] = { "v5", "v4", "v5p", "v4p" };

static char dir[64];

static void remove_dir(void)
{
	char p[128];

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, progs[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* Write size bytes of data to path; false on any failure. */
static bool write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	size_t off = 0;

	if (fd < 0)
		return false;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	return close(fd) == 0 && off == size;
}

/* The temporary directory with the skeletons copied in (run from the top
 * of the repository), made on the first call; NULL when it cannot be. */
static const char *skeleton_dir(void)
{
	static bool tried;

	if (tried)
		return dir[0] ? dir : NULL;
	tried = true;
	snprintf(dir, sizeof(dir), "/tmp/cga-fuzz-dwo-XXXXXX");
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		return NULL;
	}
	atexit(remove_dir);
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		char src[128], dst[128];
		FILE *f;
		uint8_t *buf;
		long len;
		bool ok;

		snprintf(src, sizeof(src), "%s/%s", SPLIT_DIR, progs[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, progs[i]);
		f = fopen(src, "rb");
		if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 ||
		    fseek(f, 0, SEEK_SET) != 0)
			abort();	/* not run from the top: a harness error */
		buf = malloc((size_t)len);
		if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
			abort();
		fclose(f);
		ok = write_file(dst, buf, (size_t)len);
		free(buf);
		if (!ok)
			abort();
	}
	return dir;
}

/* Frames, line and symbol at addr, in every way the listings ask. */
static void look_up(FILE *out, const struct symtab *st, uint64_t addr)
{
	struct frame fr[16];

	symtab_lookup(st, addr);
	symtab_line(st, addr);
	symtab_frames(st, addr, fr, 16);
	symtab_format_addr2line(out, st, addr, true);
}

void fuzz_dwo_one(const uint8_t *data, size_t size)
{
	FILE *out = fuzz_devnull();
	struct symtab_opts so = { .debug_dir = "/nonexistent", .demangle = true };
	const char *d = skeleton_dir();
	unsigned sel, prog;
	char bin[128], file[160];
	struct symtab st;
	struct arena arena;
	struct names names;

	if (!d || size < 1)
		return;
	/* bits 0-1: the skeleton; for a .dwo skeleton, bit 2: which unit's
	 * .dwo the rest of the input is (the other one is not there) */
	sel = data[0];
	prog = sel & 3;
	snprintf(bin, sizeof(bin), "%s/%s", d, progs[prog]);
	if (prog < 2)
		snprintf(file, sizeof(file), "%s/%s-%s.dwo", d, progs[prog],
			 sel & 4 ? "main" : "area");
	else
		snprintf(file, sizeof(file), "%s.dwp", bin);
	if (!write_file(file, data + 1, size - 1)) {
		unlink(file);
		return;
	}
	arena_init(&arena);
	names_init(&names, &arena);
	if (symtab_open(&st, bin, &so, &names) == 0) {
		/* each function's start and, through the line table, the
		 * addresses inside them where inlined frames are */
		for (size_t i = 0; i < st.nsyms; i += 1 + st.nsyms / 32)
			look_up(out, &st, st.syms[i].addr);
		for (size_t i = 0; i < st.nlines; i += 1 + st.nlines / 64)
			look_up(out, &st, st.lines[i].addr);
		/* and addresses from the input's tail */
		for (size_t i = 0; i + 8 <= size - 1 && i < 32; i += 8) {
			uint64_t a;

			memcpy(&a, data + size - 8 - i, 8);
			look_up(out, &st, a);
		}
		symtab_release(&st);
	}
	names_release(&names);
	arena_release(&arena);
	unlink(file);
}
