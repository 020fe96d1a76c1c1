/*
 * perf record -z's data: each PERF_RECORD_COMPRESSED holds the next
 * piece of one zstd stream, which decompresses to the kernel's records
 * (perf_inflate.c). A record may start in one piece and end in the
 * next, so what was not read yet stays in buf before the new output.
 */
#ifndef CGA_PERF_INFLATE_H
#define CGA_PERF_INFLATE_H

#include <stddef.h>
#include <stdint.h>

struct perf_reader;

struct perf_inflate {
	void *ds;			/* the ZSTD_DStream, made at the
					 * first piece */
	unsigned char *buf;		/* records not read yet, then the
					 * new output */
	size_t len, alloc;
	uint64_t stream_off;		/* buf[0]'s offset in the
					 * decompressed stream */
	uint64_t in_total, out_total;	/* bytes of every piece so far,
					 * compressed and not */
};

/*
 * What the decompressed records may come to, in all: PERF_INFLATE_RATIO
 * times the compressed bytes so far, or PERF_INFLATE_FLOOR if more.
 * zstd makes perf's records 10 to 30 times smaller; a file that says
 * more is made to take the reader's time and memory (zstd itself
 * allows over 30,000 times on repeated bytes).
 */
#define PERF_INFLATE_RATIO 1000
#define PERF_INFLATE_FLOOR ((uint64_t)64 << 20)

/*
 * Decompress the n bytes at src, the data of the compressed record at
 * file offset off, onto the end of z->buf. One record decompresses to
 * at most the recording's ring buffer size (its COMPRESSED feature),
 * as perf reads it; all of them to at most PERF_INFLATE_RATIO times
 * their size (or PERF_INFLATE_FLOOR). Returns 0, or -1 after reporting
 * corrupt data or output past those sizes.
 */
int perf_inflate(const struct perf_reader *r, struct perf_inflate *z,
		 const unsigned char *src, size_t n, size_t off);

/* The first used bytes of z->buf were read: drop them. */
void perf_inflate_drop(struct perf_inflate *z, size_t used);

void perf_inflate_free(struct perf_inflate *z);

#endif
