/*
 * perf record -z's compressed records decompressed with libzstd
 * (perf_inflate.h). perf compresses what it takes from each ring buffer
 * with one zstd stream for the whole recording, flushed at the end of
 * each compressed record but never ended, so the pieces are decompressed
 * in order by one stream: a piece alone is not a zstd frame. perf
 * splits the ring buffer's bytes where they wrap and where a compressed
 * record is full, not between records: a record may be cut in two.
 *
 * What the memory is bounded by: the output of one piece, which perf
 * reads into a buffer of the ring buffer's size (the COMPRESSED
 * feature's mmap_len), so a bigger one is not perf's; the part of a
 * record carried over (under 64 KiB, a record's size being a u16); and
 * zstd's window, which its decoder bounds (ZSTD_d_windowLogMax's
 * default, 128 MiB, the largest perf's levels use). What the time is
 * bounded by: all pieces' output, at most PERF_INFLATE_RATIO times
 * their input (perf_inflate.h), so that a file of 275 KB cannot make
 * 700 MB of records to read, twice.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/xalloc.h"
#include "perf_inflate.h"
#include "perf_reader.h"

/* Without the COMPRESSED feature (a file perf did not finish): the
 * ring buffer perf makes by default, 512 KiB and a page, rounded up. */
#define DEFAULT_LIMIT ((size_t)1 << 20)
/* The most we take one piece to decompress to, whatever the feature
 * says (perf record -m takes at most what the machine's locked memory
 * allows; a GiB is well past any real ring buffer). */
#define MAX_LIMIT ((size_t)1 << 30)
#define FIRST_ALLOC ((size_t)64 << 10)
/* What ZSTD_decompressStream() asks for next between two blocks: the
 * next one's header (ZSTD_blockHeaderSize, not in zstd.h's stable
 * part) */
#define BLOCK_HEADER_SIZE 3

static size_t limit_of(const struct perf_reader *r)
{
	size_t l = r->comp_known && r->comp_mmap_len ? r->comp_mmap_len
						     : DEFAULT_LIMIT;

	return l < MAX_LIMIT ? l : MAX_LIMIT;
}

/* The most all pieces may decompress to, with used bytes of this one
 * read */
static uint64_t cap_total(const struct perf_inflate *z, size_t used)
{
	uint64_t in = z->in_total + used;

	if (in > PERF_INFLATE_FLOOR / PERF_INFLATE_RATIO)
		return in * PERF_INFLATE_RATIO;
	return PERF_INFLATE_FLOOR;
}

int perf_inflate(const struct perf_reader *r, struct perf_inflate *z,
		 const unsigned char *src, size_t n, size_t off)
{
	size_t limit = limit_of(r), start = z->len;
	size_t wants = BLOCK_HEADER_SIZE;	/* see below */
	ZSTD_inBuffer in = { src, n, 0 };

	if (!z->ds) {
		z->ds = ZSTD_createDStream();
		if (!z->ds)
			return perf_fail(r, off, "cannot make a zstd "
					 "decompression stream (out of "
					 "memory?)");
	}
	for (;;) {
		/* room for one byte past the limit, to see it passed */
		size_t cap = start + limit + 1, ret, in_was, out_was;
		ZSTD_outBuffer out;

		if (z->len == z->alloc) {
			size_t want = z->alloc ? z->alloc * 2 : FIRST_ALLOC;

			z->alloc = want < cap ? want : cap;
			z->buf = xreallocarray(z->buf, z->alloc, 1);
		}
		out.dst = z->buf;
		out.size = z->alloc < cap ? z->alloc : cap;
		out.pos = z->len;
		in_was = in.pos;
		out_was = out.pos;
		ret = ZSTD_decompressStream(z->ds, &out, &in);
		if (ZSTD_isError(ret))
			return perf_fail(r, off, "the compressed record's zstd "
					 "data is corrupt (%s, at its byte "
					 "%zu)", ZSTD_getErrorName(ret),
					 in.pos);
		z->len = out.pos;
		z->out_total += out.pos - out_was;
		/* what the decoder waits for, after the last call that
		 * did something (one more after a frame's end asks for
		 * the next frame's header) */
		if (in.pos != in_was || out.pos != out_was)
			wants = ret;
		if (z->out_total > cap_total(z, in.pos))
			return perf_fail(r, off, "the compressed records "
					 "decompress to more than %u times "
					 "their size, %llu bytes from %llu up "
					 "to this one's byte %zu (perf's "
					 "records compress 10 to 30 times; the "
					 "limit is %u times, or %llu MiB)",
					 PERF_INFLATE_RATIO,
					 (unsigned long long)z->out_total,
					 (unsigned long long)(z->in_total +
							      in.pos), in.pos,
					 PERF_INFLATE_RATIO,
					 (unsigned long long)(PERF_INFLATE_FLOOR
							      >> 20));
		if (z->len - start > limit)
			return perf_fail(r, off, "a compressed record that "
					 "decompresses to more than %zu bytes, "
					 "the size of the ring buffer it was "
					 "taken from (the compression "
					 "feature's)", limit);
		/* done when the input is used up and zstd had room left:
		 * it holds nothing more back */
		if (in.pos == in.size && out.pos < out.size) {
			z->in_total += n;
			/* perf flushes zstd at the end of each record, so
			 * the decoder then waits for a block's 3-byte
			 * header (0: the frame ended; an empty record
			 * leaves it as it was). More is the rest of
			 * a block cut short, whose records are lost: perf
			 * report reads on without them, or says "Couldn't
			 * decompress data" when none came out */
			if (n && wants != 0 && wants != BLOCK_HEADER_SIZE)
				return perf_fail(r, off, "the compressed "
						 "record's zstd data ends "
						 "inside a block: %zu bytes "
						 "more were expected (the "
						 "record was cut short)",
						 wants - BLOCK_HEADER_SIZE);
			return 0;
		}
		/* no progress with room and input left should not
		 * happen; do not loop if it does */
		if (in.pos == in_was && out.pos == out_was && out.pos < out.size)
			return perf_fail(r, off, "the compressed record's zstd "
					 "data stops decompressing at its "
					 "byte %zu", in.pos);
	}
}

void perf_inflate_drop(struct perf_inflate *z, size_t used)
{
	memmove(z->buf, z->buf + used, z->len - used);
	z->len -= used;
	z->stream_off += used;
}

void perf_inflate_free(struct perf_inflate *z)
{
	ZSTD_freeDStream(z->ds);
	free(z->buf);
	memset(z, 0, sizeof(*z));
}
