/*
 * DWARF compressed with zstd (objcopy or ld --compress-debug-sections=
 * zstd, the default of some distributions' debug packages): the
 * libdwarf (20210528) and libelf (0.188) we build with read only zlib's
 * (ELFCOMPRESS_ZLIB), and said a zstd section was corrupt DWARF. Such a
 * file is copied into memory (a memfd) with each zstd section
 * decompressed by libzstd: its bytes appended at the end of the copy,
 * its section header pointed there with SHF_COMPRESSED off. Everything
 * else, the section header table included, stays where it was, so the
 * copy is the same ELF file to every reader.
 *
 *   file:  [ehdr][...][.debug_info: chdr + zstd frame][...][shdrs]
 *   copy:  [ehdr][...][ (unused, as it was)           ][...][shdrs][.debug_info bytes]
 *                                                           sh_offset ---^
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "symtab_int.h"

#define SHT_NOBITS_ 8u
#define SHF_COMPRESSED_ 0x800u
#define ELFCOMPRESS_ZSTD_ 2u
/* A section may claim at most this many times its compressed size: real
 * DWARF compresses 3 to 10 times; a claim past it is not believed. */
#define MAX_RATIO 1024u

struct image {
	unsigned char *b;
	size_t n;
	bool is64, big;
};

static uint64_t get(const struct image *im, size_t off, unsigned w)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < w; i++)
		v |= (uint64_t)im->b[off + (im->big ? w - 1 - i : i)] << (8 * i);
	return v;
}

static void put(struct image *im, size_t off, unsigned w, uint64_t v)
{
	for (unsigned i = 0; i < w; i++)
		im->b[off + (im->big ? w - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* A section header's fields: where each is in a 32- or 64-bit entry. */
struct shdr_at {
	size_t type, flags, offset, size, align;
	unsigned w;	/* flags, offset, size, align width */
};

static struct shdr_at shdr_fields(bool is64)
{
	return is64 ? (struct shdr_at){ 4, 8, 24, 32, 48, 8 }
		    : (struct shdr_at){ 4, 8, 16, 20, 32, 4 };
}

/* A warning, as for other DWARF that cannot be read: the symbols stay. */
#define say(...) (warning(__VA_ARGS__), -1)

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The whole file, read into im (the caller frees im->b); -1 said. */
static int read_all(int fd, const char *path, struct image *im)
{
	struct stat sb;
	size_t got = 0;

	if (fstat(fd, &sb) < 0)
		return say("%s: cannot read: %s; DWARF not read", path,
			   strerror(errno));
	im->n = (size_t)sb.st_size;
	im->b = xmalloc(im->n + 1);
	while (got < im->n) {
		ssize_t r = pread(fd, im->b + got, im->n - got, (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return say("%s: cannot read: %s; DWARF not read", path,
				   r < 0 ? strerror(errno) : "the file shrank");
		got += (size_t)r;
	}
	return 0;
}

/* The zstd-compressed section whose header is at sh: its decompressed
 * bytes appended to out, the header in im pointed at them. */
static int inflate_one(struct image *im, size_t sh, const struct shdr_at *f,
		       size_t base, unsigned char **out, size_t *nout,
		       const char *path)
{
	uint64_t off = get(im, sh + f->offset, f->w);
	uint64_t size = get(im, sh + f->size, f->w);
	size_t chdr = im->is64 ? 24 : 12;
	uint64_t want, align, at;
	size_t r;

	want = get(im, off + (im->is64 ? 8 : 4), im->is64 ? 8 : 4);
	align = get(im, off + (im->is64 ? 16 : 8), im->is64 ? 8 : 4);
	if (want > (uint64_t)MAX_RATIO * size || want > SIZE_MAX / 2)
		return say("%s: offset 0x%llx: a zstd-compressed section "
			   "claims %llu bytes from %llu: not believed; DWARF "
			   "not read", path, (unsigned long long)off,
			   (unsigned long long)want, (unsigned long long)size);
	if (align == 0 || (align & (align - 1)))
		align = 1;
	at = (*nout + base + align - 1) & ~(align - 1);
	*out = xreallocarray(*out, (size_t)(at - base + want + 1), 1);
	memset(*out + *nout, 0, (size_t)(at - base) - *nout);
	r = ZSTD_decompress(*out + (at - base), (size_t)want,
			    im->b + off + chdr, (size_t)(size - chdr));
	if (ZSTD_isError(r) || r != want)
		return say("%s: offset 0x%llx: a zstd-compressed section does "
			   "not decompress to its %llu bytes%s%s; DWARF not "
			   "read", path, (unsigned long long)off,
			   (unsigned long long)want, ZSTD_isError(r) ? ": " : "",
			   ZSTD_isError(r) ? ZSTD_getErrorName(r) : "");
	*nout = (size_t)(at - base + want);
	put(im, sh + f->offset, f->w, at);
	put(im, sh + f->size, f->w, want);
	put(im, sh + f->flags, f->w,
	    get(im, sh + f->flags, f->w) & ~(uint64_t)SHF_COMPRESSED_);
	put(im, sh + f->align, f->w, align);
	return 0;
}

/* Each zstd section of im inflated; how many, or -1 said. */
static int inflate_all(struct image *im, unsigned char **out, size_t *nout,
		       const char *path)
{
	struct shdr_at f = shdr_fields(im->is64);
	uint64_t shoff = get(im, im->is64 ? 0x28 : 0x20, im->is64 ? 8 : 4);
	unsigned entsize = (unsigned)get(im, im->is64 ? 0x3a : 0x2e, 2);
	uint64_t shnum = get(im, im->is64 ? 0x3c : 0x30, 2);
	size_t chdr = im->is64 ? 24 : 12;
	int n = 0;

	if (entsize < (im->is64 ? 64u : 40u) || shoff > im->n)
		return 0;	/* not ours to judge: elf.c said it */
	if (shnum == 0 && im->n - shoff >= entsize)
		shnum = get(im, shoff + f.size, f.w);	/* the count, there */
	if (shnum > (im->n - shoff) / entsize)
		return 0;
	for (uint64_t i = 1; i < shnum; i++) {
		size_t sh = (size_t)(shoff + i * entsize);
		uint64_t off = get(im, sh + f.offset, f.w);
		uint64_t size = get(im, sh + f.size, f.w);

		if (get(im, sh + f.type, 4) == SHT_NOBITS_ ||
		    !(get(im, sh + f.flags, f.w) & SHF_COMPRESSED_) ||
		    size < chdr || off > im->n || size > im->n - off ||
		    get(im, off, 4) != ELFCOMPRESS_ZSTD_)
			continue;
		if (inflate_one(im, sh, &f, im->n, out, nout, path) < 0)
			return -1;
		n++;
	}
	return n;
}

int elf_zstd_inflate(int fd, const char *path, int *copy)
{
	struct image im = { 0 };
	unsigned char *out = NULL;
	size_t nout = 0;
	int n, ret = -1;

	*copy = -1;
	if (read_all(fd, path, &im) < 0)
		goto done;
	if (im.n < 0x40 || (im.b[4] != 1 && im.b[4] != 2)) {
		ret = 0;
		goto done;
	}
	im.is64 = im.b[4] == 2;
	im.big = im.b[5] == 2;
	n = inflate_all(&im, &out, &nout, path);
	if (n <= 0) {
		ret = n;
		goto done;
	}
	*copy = memfd_create("cganalyze-dwarf", MFD_CLOEXEC);
	if (*copy < 0 ||
	    write_all(*copy, im.b, im.n) < 0 || write_all(*copy, out, nout) < 0) {
		warning("%s: cannot make a decompressed copy of its DWARF: "
			"%s; DWARF not read", path, strerror(errno));
		if (*copy >= 0)
			close(*copy);
		*copy = -1;
		goto done;
	}
	ret = 1;
done:
	free(im.b);
	free(out);
	return ret;
}
