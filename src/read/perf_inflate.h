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
};

/*
 * Decompress the n bytes at src, the data of the compressed record at
 * file offset off, onto the end of z->buf. One record decompresses to
 * at most the recording's ring buffer size (its COMPRESSED feature),
 * as perf reads it. Returns 0, or -1 after reporting corrupt data or
 * output past that size.
 */
int perf_inflate(const struct perf_reader *r, struct perf_inflate *z,
		 const unsigned char *src, size_t n, size_t off);

/* The first used bytes of z->buf were read: drop them. */
void perf_inflate_drop(struct perf_inflate *z, size_t used);

void perf_inflate_free(struct perf_inflate *z);

#endif
