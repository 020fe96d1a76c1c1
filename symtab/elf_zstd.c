/*
 * DWARF compressed with zstd (objcopy or ld --compress-debug-sections=
 * zstd, the default of some distributions' debug packages): the
 * libdwarf (20210528) and libelf (0.188) we build with read only zlib's
 * (ELFCOMPRESS_ZLIB), and said a zstd section was corrupt DWARF. Such a
 * file gets a copy in memory (a memfd) of what the DWARF reader needs,
 * each zstd section decompressed by libzstd: its bytes appended at the
 * end of the copy, its section header pointed there with SHF_COMPRESSED
 * off. Every other offset stays what it was, so the copy is the same
 * ELF file to every reader of its DWARF:
 *
 *   file:  [ehdr][phdrs][.text ...][.debug_info: chdr + zstd][.debug_str][shdrs]
 *   copy:  [ehdr][phdrs][ (hole)  ][ (hole)                 ][.debug_str][shdrs][.debug_info]
 *                                                   sh_offset points here ------^
 *
 * The copy is as long as the file, but only the headers, the section
 * names and the DWARF sections are written: the rest is a hole, which
 * a memfd keeps without memory. One section is in memory at a time.
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
#define ET_REL_ 1u
/* A section may claim at most this many times its compressed size: real
 * DWARF compresses 3 to 10 times; a claim past it is not believed. */
#define MAX_RATIO 1024u
/* A claimed alignment past a page is not believed (2^40 asked for a
 * terabyte); where a section lands in the copy matters to no reader. */
#define MAX_ALIGN 4096u
/* Bytes copied at a time. */
#define CHUNK (1u << 20)

/* A warning, as for other DWARF that cannot be read: the symbols stay. */
#define say(...) (warning(__VA_ARGS__), -1)

struct copy {
	int in, out;		/* the file, its copy */
	const char *path;
	uint64_t size;		/* the file's */
	uint64_t end;		/* the copy's: the next section goes there */
	uint64_t inflated;	/* the decompressed sections' bytes so far */
	uint64_t copied;	/* the other sections' bytes copied so far */
	bool is64, big;
	unsigned char *sh;	/* the section header table, patched here */
	uint64_t shoff, shnum;
	unsigned entsize;
	char *names;		/* the section names (shstrtab) */
	uint64_t names_size, names_ndx;
};

/* Section header fields: where each is in a 32- or 64-bit entry, and
 * the width of flags, offset, size and alignment. */
struct shdr_at {
	size_t name, type, flags, offset, size, align;
	unsigned w;
};

static const struct shdr_at sh64 = { 0, 4, 8, 24, 32, 48, 8 };
static const struct shdr_at sh32 = { 0, 4, 8, 16, 20, 32, 4 };

static uint64_t get(const struct copy *c, const unsigned char *p, unsigned w)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < w; i++)
		v |= (uint64_t)p[c->big ? w - 1 - i : i] << (8 * i);
	return v;
}

static void put(const struct copy *c, unsigned char *p, unsigned w,
		uint64_t v)
{
	for (unsigned i = 0; i < w; i++)
		p[c->big ? w - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	unsigned char *p = buf;

	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		off += (uint64_t)r;
		n -= (size_t)r;
	}
	return 0;
}

static int write_at(int fd, const void *buf, size_t n, uint64_t off)
{
	const unsigned char *p = buf;

	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		off += (uint64_t)w;
		n -= (size_t)w;
	}
	return 0;
}

/* Bytes [off, off + n) of the file to the same place in the copy. */
static int copy_range(struct copy *c, uint64_t off, uint64_t n)
{
	unsigned char *buf;
	int ret = 0;

	if (!n)
		return 0;
	buf = xmalloc(n < CHUNK ? (size_t)n : CHUNK);
	while (n && !ret) {
		size_t k = n < CHUNK ? (size_t)n : CHUNK;

		ret = read_at(c->in, buf, k, off) < 0 ||
			      write_at(c->out, buf, k, off) < 0
			      ? -1 : 0;
		off += k;
		n -= k;
	}
	free(buf);
	return ret;
}

static const struct shdr_at *fields(const struct copy *c)
{
	return c->is64 ? &sh64 : &sh32;
}

static unsigned char *shdr(const struct copy *c, uint64_t i)
{
	return c->sh + i * c->entsize;
}

/* A section's bytes lie inside the file (elf.c has said it otherwise). */
static bool inside(const struct copy *c, uint64_t off, uint64_t size)
{
	return off <= c->size && size <= c->size - off;
}

static bool is_zstd(struct copy *c, uint64_t i)
{
	const struct shdr_at *f = fields(c);
	const unsigned char *h = shdr(c, i);
	uint64_t off = get(c, h + f->offset, f->w);
	uint64_t size = get(c, h + f->size, f->w);
	unsigned char type[4];

	return get(c, h + f->type, 4) != SHT_NOBITS_ &&
	       (get(c, h + f->flags, f->w) & SHF_COMPRESSED_) &&
	       size >= (c->is64 ? 24u : 12u) && inside(c, off, size) &&
	       read_at(c->in, type, 4, off) == 0 &&
	       get(c, type, 4) == ELFCOMPRESS_ZSTD_;
}

/* Whether section i is one the DWARF reader reads. */
static bool wanted(const struct copy *c, uint64_t i, bool rel)
{
	uint64_t name = get(c, shdr(c, i) + fields(c)->name, 4);
	const char *s;

	if (rel)
		return true;	/* an object file's relocations, symbols */
	if (!c->names || name >= c->names_size)
		return false;
	s = c->names + name;
	return !strncmp(s, ".debug", 6) || !strncmp(s, ".zdebug", 7);
}

/* What all the sections together may claim: MAX_RATIO times the file. */
static uint64_t budget(const struct copy *c)
{
	return c->size > UINT64_MAX / MAX_RATIO ? UINT64_MAX
						 : c->size * MAX_RATIO;
}

/* zstd section i decompressed and appended to the copy, its header
 * pointed there. */
static int inflate_one(struct copy *c, uint64_t i)
{
	const struct shdr_at *f = fields(c);
	unsigned char *h = shdr(c, i);
	uint64_t off = get(c, h + f->offset, f->w);
	uint64_t size = get(c, h + f->size, f->w);
	unsigned chdr = c->is64 ? 24 : 12;
	unsigned char head[24], *in = NULL, *out = NULL;
	uint64_t want, align;
	size_t r;
	int ret = -1;

	if (read_at(c->in, head, chdr, off) < 0)
		return say("%s: offset 0x%llx: cannot read a compressed "
			   "section's header; DWARF not read", c->path,
			   (unsigned long long)off);
	want = get(c, head + (c->is64 ? 8 : 4), c->is64 ? 8 : 4);
	align = get(c, head + (c->is64 ? 16 : 8), c->is64 ? 8 : 4);
	if (want > (uint64_t)MAX_RATIO * size || want > SIZE_MAX / 2)
		return say("%s: offset 0x%llx: a zstd-compressed section "
			   "claims %llu bytes from %llu: not believed; DWARF "
			   "not read", c->path, (unsigned long long)off,
			   (unsigned long long)want, (unsigned long long)size);
	/* the same bound for all sections together: their headers may all
	 * point at one compressed run, each adding its claim to the copy */
	if (want > budget(c) - c->inflated)
		return say("%s: offset 0x%llx: zstd-compressed sections claim "
			   "%llu bytes or more in all from a file of %llu: not "
			   "believed; DWARF not read", c->path,
			   (unsigned long long)off,
			   (unsigned long long)(c->inflated + want),
			   (unsigned long long)c->size);
	if (align == 0 || (align & (align - 1)) || align > MAX_ALIGN)
		align = 1;
	/* not xmalloc's abort: a claim within the ratio may still be more
	 * than this machine has, and the symbols serve without DWARF */
	in = malloc((size_t)(size - chdr) + 1);
	out = malloc((size_t)want + 1);
	if (!in || !out) {
		warning("%s: offset 0x%llx: no memory for the %llu bytes of a "
		    "zstd-compressed section; DWARF not read", c->path,
		    (unsigned long long)off, (unsigned long long)want);
		goto out;
	}
	if (read_at(c->in, in, (size_t)(size - chdr), off + chdr) < 0) {
		warning("%s: offset 0x%llx: cannot read a compressed section; "
		    "DWARF not read", c->path, (unsigned long long)off);
		goto out;
	}
	r = ZSTD_decompress(out, (size_t)want, in, (size_t)(size - chdr));
	if (ZSTD_isError(r) || r != want) {
		warning("%s: offset 0x%llx: a zstd-compressed section does not "
		    "decompress to its %llu bytes%s%s; DWARF not read",
		    c->path, (unsigned long long)off, (unsigned long long)want,
		    ZSTD_isError(r) ? ": " : "",
		    ZSTD_isError(r) ? ZSTD_getErrorName(r) : "");
		goto out;
	}
	c->end = (c->end + align - 1) & ~(align - 1);
	/* a 32-bit header's offset and size are 32 bits: put() would cut
	 * them, and the DWARF reader read what lies there as the section */
	if (!c->is64 && (c->end > UINT32_MAX || want > UINT32_MAX - c->end)) {
		warning("%s: offset 0x%llx: a zstd-compressed section would "
			"end at 0x%llx of the decompressed copy, past what a "
			"32-bit ELF file's section header can say; DWARF not "
			"read", c->path, (unsigned long long)off,
			(unsigned long long)(c->end + want));
		goto out;
	}
	if (write_at(c->out, out, (size_t)want, c->end) < 0) {
		warning("%s: cannot make a decompressed copy of its DWARF: %s; "
		    "DWARF not read", c->path, strerror(errno));
		goto out;
	}
	put(c, h + f->offset, f->w, c->end);
	put(c, h + f->size, f->w, want);
	put(c, h + f->flags, f->w,
	    get(c, h + f->flags, f->w) & ~(uint64_t)SHF_COMPRESSED_);
	put(c, h + f->align, f->w, align);
	c->end += want;
	c->inflated += want;
	ret = 0;
out:
	free(in);
	free(out);
	return ret;
}

/* The ELF header's fields and the section header table, and the names
 * of the sections: 0 when they are not there to read (elf.c judged the
 * file), 1 read. */
static int read_headers(struct copy *c, unsigned char ehdr[64])
{
	uint64_t shstrndx, noff, nsize;
	const struct shdr_at *f;

	c->is64 = ehdr[4] == 2;
	c->big = ehdr[5] == 2;
	f = fields(c);
	c->shoff = get(c, ehdr + (c->is64 ? 0x28 : 0x20), c->is64 ? 8 : 4);
	c->entsize = (unsigned)get(c, ehdr + (c->is64 ? 0x3a : 0x2e), 2);
	c->shnum = get(c, ehdr + (c->is64 ? 0x3c : 0x30), 2);
	shstrndx = get(c, ehdr + (c->is64 ? 0x3e : 0x32), 2);
	if (c->entsize < (c->is64 ? 64u : 40u) || !inside(c, c->shoff, c->entsize))
		return 0;
	c->sh = xmalloc(c->entsize);
	if (read_at(c->in, c->sh, c->entsize, c->shoff) < 0)
		return 0;
	if (c->shnum == 0)	/* the count is in the first entry */
		c->shnum = get(c, c->sh + f->size, f->w);
	if (shstrndx == 0xffff)
		shstrndx = get(c, c->sh + (c->is64 ? 40 : 24), 4);
	if (!c->shnum || c->shnum > (c->size - c->shoff) / c->entsize)
		return 0;
	c->sh = xreallocarray(c->sh, c->shnum, c->entsize);
	if (read_at(c->in, c->sh, c->shnum * c->entsize, c->shoff) < 0)
		return 0;
	if (shstrndx >= c->shnum)
		return 1;
	c->names_ndx = shstrndx;
	noff = get(c, shdr(c, shstrndx) + f->offset, f->w);
	nsize = get(c, shdr(c, shstrndx) + f->size, f->w);
	if (!inside(c, noff, nsize))
		return 1;
	c->names = xmalloc(nsize + 1);
	c->names[nsize] = '\0';
	if (read_at(c->in, c->names, nsize, noff) < 0) {
		free(c->names);
		c->names = NULL;
		return 1;
	}
	c->names_size = nsize;
	return 1;
}

/* The copy's contents: the headers and the DWARF sections. */
static int fill(struct copy *c, const unsigned char ehdr[64])
{
	const struct shdr_at *f = fields(c);
	uint64_t phoff = get(c, ehdr + (c->is64 ? 0x20 : 0x1c), c->is64 ? 8 : 4);
	uint64_t phsize = get(c, ehdr + (c->is64 ? 0x36 : 0x2a), 2) *
			  get(c, ehdr + (c->is64 ? 0x38 : 0x2c), 2);
	bool rel = get(c, ehdr + 16, 2) == ET_REL_;

	if (ftruncate(c->out, (off_t)c->size) < 0 ||
	    copy_range(c, 0, c->is64 ? 64 : 52) < 0 ||
	    (inside(c, phoff, phsize) && copy_range(c, phoff, phsize) < 0))
		return say("%s: cannot make a decompressed copy of its DWARF: "
			   "%s; DWARF not read", c->path, strerror(errno));
	for (uint64_t i = 1; i < c->shnum; i++) {
		const unsigned char *h = shdr(c, i);
		uint64_t off = get(c, h + f->offset, f->w);
		uint64_t size = get(c, h + f->size, f->w);

		if (is_zstd(c, i)) {
			if (inflate_one(c, i) < 0)
				return -1;
			continue;
		}
		if (!(wanted(c, i, rel) || i == c->names_ndx) ||
		    get(c, h + f->type, 4) == SHT_NOBITS_ ||
		    !inside(c, off, size))
			continue;
		/* sections that do not overlap add up to the file at most;
		 * headers all naming the whole file would copy it once each */
		if (size > c->size - c->copied)
			return say("%s: section %llu at offset 0x%llx: the "
				   "sections overlap, %llu bytes and more in all "
				   "from a file of %llu: not believed; DWARF not "
				   "read", c->path, (unsigned long long)i,
				   (unsigned long long)off,
				   (unsigned long long)(c->copied + size),
				   (unsigned long long)c->size);
		c->copied += size;
		if (copy_range(c, off, size) < 0)
			return say("%s: cannot make a decompressed copy of its "
				   "DWARF: %s; DWARF not read", c->path,
				   strerror(errno));
	}
	if (write_at(c->out, c->sh, c->shnum * c->entsize, c->shoff) < 0)
		return say("%s: cannot make a decompressed copy of its DWARF: "
			   "%s; DWARF not read", c->path, strerror(errno));
	return 0;
}

int elf_zstd_inflate(int fd, const char *path, int *copy)
{
	struct copy c = { .in = fd, .out = -1, .path = path };
	unsigned char ehdr[64];
	struct stat sb;
	bool any = false;
	int ret = 0;

	*copy = -1;
	if (fstat(fd, &sb) < 0 || sb.st_size < 64 ||
	    read_at(fd, ehdr, sizeof(ehdr), 0) < 0 ||
	    (ehdr[4] != 1 && ehdr[4] != 2))
		return 0;
	c.size = c.end = (uint64_t)sb.st_size;
	if (read_headers(&c, ehdr) <= 0)
		goto done;
	for (uint64_t i = 1; i < c.shnum && !any; i++)
		any = is_zstd(&c, i);
	if (!any)
		goto done;
	c.out = memfd_create("cganalyze-dwarf", MFD_CLOEXEC);
	if (c.out < 0) {
		ret = say("%s: cannot make a decompressed copy of its DWARF: "
			  "%s; DWARF not read", path, strerror(errno));
		goto done;
	}
	ret = fill(&c, ehdr);
	if (ret == 0) {
		*copy = c.out;
		c.out = -1;
		ret = 1;
	}
done:
	if (c.out >= 0)
		close(c.out);
	free(c.sh);
	free(c.names);
	return ret;
}
