/*
 * The raw side of the line reader: bytes from its file descriptor, and
 * the decoder that turns them into text, plain, gzip or bzip2, as the
 * first bytes say (see decompress.h).
 */
#include "decompress.h"

#include <bzlib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/diag.h"
#include "base/progress.h"
#include "base/xalloc.h"
#include "line_reader.h"

/*
 * Raw bytes come from the fd through `in`; a decoder turns them into
 * text. Keeping our own input buffer (rather than gzdopen) lets format
 * sniffing look at the first bytes of a pipe without seeking.
 */
struct decoder {
	unsigned char *in;
	size_t in_pos, in_end;
	bool in_eof;
	bool stream_open;	/* a gzip/bzip2 stream is mid-way */
	z_stream z;
	bz_stream bz;
};

#define SNIFF_BYTES ((size_t)4096)

/* A read(2) failed, errno says why; raw_bytes were read before it. */
static int read_error(const struct line_reader *lr)
{
	return error_at_offset(lr->path, lr->raw_bytes, "read error: %s",
			       strerror(errno));
}

/* Up to n raw bytes at raw_bytes into dst: read(2)'s answer, retried
 * when a signal interrupts it. A part of a file is read by offset. */
static ssize_t raw_read(const struct line_reader *lr, void *dst, size_t n)
{
	ssize_t r;

	do
		r = lr->by_offset ? pread(lr->fd, dst, n, (off_t)lr->raw_bytes)
				  : read(lr->fd, dst, n);
	while (r < 0 && errno == EINTR);
	return r;
}

static int raw_fill(struct line_reader *lr)
{
	struct decoder *d = lr->dec;
	ssize_t n;

	if (d->in_pos < d->in_end || d->in_eof)
		return 0;
	n = raw_read(lr, d->in, RAW_CHUNK);
	if (n < 0)
		return read_error(lr);
	d->in_pos = 0;
	d->in_end = (size_t)n;
	if (n == 0)
		d->in_eof = true;
	lr->raw_bytes += (uint64_t)n;
	if (!lr->progress_by_caller && !lr->part_of)
		progress_update(lr->raw_bytes);
	return 0;
}

/*
 * Have at least n raw bytes unconsumed, fewer only at the end of the
 * file. A member's magic number can be split between two reads (a
 * member ending just before a block boundary, or any pipe), and
 * raw_fill() only reads once everything is consumed.
 */
static int raw_want(struct line_reader *lr, size_t n)
{
	struct decoder *d = lr->dec;

	while (d->in_end - d->in_pos < n && !d->in_eof) {
		ssize_t r;

		memmove(d->in, d->in + d->in_pos, d->in_end - d->in_pos);
		d->in_end -= d->in_pos;
		d->in_pos = 0;
		r = raw_read(lr, d->in + d->in_end, RAW_CHUNK - d->in_end);
		if (r < 0)
			return read_error(lr);
		if (r == 0)
			d->in_eof = true;
		d->in_end += (size_t)r;
		lr->raw_bytes += (uint64_t)r;
	}
	return 0;
}

uint64_t decoder_raw_offset(const struct line_reader *lr)
{
	return lr->raw_bytes - (lr->dec->in_end - lr->dec->in_pos);
}

/*
 * Plain text with nothing buffered, into a room of 64 KiB or more: read
 * straight into dst. The kernel's copy is then the only one; through
 * `in` every byte of a large file was copied twice (4% of the
 * instructions reading a 16 MB profile).
 */
static long read_plain_direct(struct line_reader *lr, char *dst, size_t room)
{
	struct decoder *d = lr->dec;
	uint64_t left = lr->stop - lr->raw_bytes;
	ssize_t n;

	if (room > left)
		room = (size_t)left;
	n = raw_read(lr, dst, room);
	if (n < 0)
		return read_error(lr);
	if (n == 0)
		d->in_eof = true;
	lr->raw_bytes += (uint64_t)n;
	if (!lr->progress_by_caller && !lr->part_of)
		progress_update(lr->raw_bytes);
	return (long)n;
}

static long decode_plain(struct line_reader *lr, char *dst, size_t room)
{
	struct decoder *d = lr->dec;
	size_t n;

	if (decoder_raw_offset(lr) >= lr->stop)
		return 0;
	if (d->in_pos == d->in_end && !d->in_eof && room >= RAW_CHUNK / 4)
		return read_plain_direct(lr, dst, room);
	if (raw_fill(lr) < 0)
		return -1;
	n = d->in_end - d->in_pos;
	if (n > room)
		n = room;
	if (n > lr->stop - decoder_raw_offset(lr))
		n = (size_t)(lr->stop - decoder_raw_offset(lr));
	memcpy(dst, d->in + d->in_pos, n);
	d->in_pos += n;
	return (long)n;
}

/* zlib's words for the checks at the end of a member, said plainly. */
static const char *gzip_problem(const char *msg)
{
	if (!msg)
		return "inflate failed";
	if (!strcmp(msg, "incorrect data check"))
		return "incorrect data check: the CRC-32 in the member's "
		       "trailer does not match the data";
	if (!strcmp(msg, "incorrect length check"))
		return "incorrect length check: the length in the member's "
		       "trailer does not match the data";
	return msg;
}

static const char *bzip2_problem(int ret)
{
	switch (ret) {
	case BZ_DATA_ERROR:
		return "a block's CRC does not match its data, or the "
		       "data is damaged";
	case BZ_DATA_ERROR_MAGIC:
		return "bad stream header";
	case BZ_MEM_ERROR:
		return "out of memory";
	default:
		return "the decoder failed";
	}
}

static bool at_gzip_magic(const struct decoder *d)
{
	return d->in_end - d->in_pos >= 2 && d->in[d->in_pos] == 0x1f &&
	       d->in[d->in_pos + 1] == 0x8b;
}

static long decode_gzip(struct line_reader *lr, char *dst, size_t room)
{
	struct decoder *d = lr->dec;
	z_stream *z = &d->z;

	z->next_out = (unsigned char *)dst;
	z->avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
	while (z->avail_out == room) {
		int ret;

		if (raw_fill(lr) < 0)
			return -1;
		if (!d->stream_open) {
			/* Between members: the end, or another member
			 * (concatenated gzip files are one stream). */
			if (raw_want(lr, 2) < 0)
				return -1;
			if (d->in_pos == d->in_end)
				return 0;
			if (!at_gzip_magic(d))
				return error_at_offset(lr->path, decoder_raw_offset(lr),
					"unexpected data after the end of the gzip stream");
			if (inflateReset(z) != Z_OK)
				return error("%s: cannot restart gzip decoder",
					     lr->path);
			d->stream_open = true;
		}
		if (d->in_pos == d->in_end)
			return error_at_offset(lr->path, decoder_raw_offset(lr),
				"truncated gzip data (the compressed stream ends early)");
		z->next_in = d->in + d->in_pos;
		z->avail_in = (uInt)(d->in_end - d->in_pos);
		ret = inflate(z, Z_NO_FLUSH);
		d->in_pos = d->in_end - z->avail_in;
		if (ret == Z_STREAM_END) {
			d->stream_open = false;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			return error_at_offset(lr->path, decoder_raw_offset(lr),
				"corrupt gzip data (%s)", gzip_problem(z->msg));
		}
	}
	return (long)(room - z->avail_out);
}

static bool at_bzip2_magic(const struct decoder *d)
{
	return d->in_end - d->in_pos >= 4 && !memcmp(d->in + d->in_pos, "BZh", 3) &&
	       d->in[d->in_pos + 3] >= '1' && d->in[d->in_pos + 3] <= '9';
}

static long decode_bzip2(struct line_reader *lr, char *dst, size_t room)
{
	struct decoder *d = lr->dec;
	bz_stream *bz = &d->bz;
	unsigned int want = room > UINT32_MAX ? UINT32_MAX : (unsigned)room;

	bz->next_out = dst;
	bz->avail_out = want;
	while (bz->avail_out == want) {
		int ret;

		if (raw_fill(lr) < 0)
			return -1;
		if (!d->stream_open) {
			/* pbzip2 and `cat a.bz2 b.bz2` make several streams */
			if (raw_want(lr, 4) < 0)
				return -1;
			if (d->in_pos == d->in_end)
				return 0;
			if (!at_bzip2_magic(d))
				return error_at_offset(lr->path, decoder_raw_offset(lr),
					"unexpected data after the end of the bzip2 stream");
			BZ2_bzDecompressEnd(bz);
			memset(bz, 0, sizeof(*bz));
			if (BZ2_bzDecompressInit(bz, 0, 0) != BZ_OK)
				return error("%s: cannot start bzip2 decoder",
					     lr->path);
			/* Nothing was written in this call yet (the loop
			 * runs while avail_out == want), and the memset
			 * cleared avail_out: start at dst again. */
			bz->next_out = dst;
			bz->avail_out = want;
			d->stream_open = true;
		}
		if (d->in_pos == d->in_end)
			return error_at_offset(lr->path, decoder_raw_offset(lr),
				"truncated bzip2 data (the compressed stream ends early)");
		bz->next_in = (char *)d->in + d->in_pos;
		bz->avail_in = (unsigned)(d->in_end - d->in_pos);
		ret = BZ2_bzDecompress(bz);
		d->in_pos = d->in_end - bz->avail_in;
		if (ret == BZ_STREAM_END)
			d->stream_open = false;
		else if (ret != BZ_OK)
			return error_at_offset(lr->path, decoder_raw_offset(lr),
				"corrupt bzip2 data (%s)", bzip2_problem(ret));
	}
	return (long)(want - bz->avail_out);
}

long decoder_read(struct line_reader *lr, char *dst, size_t room)
{
	switch (lr->encoding) {
	case INPUT_PLAIN:
		return decode_plain(lr, dst, room);
	case INPUT_GZIP:
		return decode_gzip(lr, dst, room);
	case INPUT_BZIP2:
		return decode_bzip2(lr, dst, room);
	default:
		BUG("encoding %d", (int)lr->encoding);
	}
}

int decoder_start(struct line_reader *lr)
{
	struct decoder *d;

	lr->dec = d = xcalloc(1, sizeof(*lr->dec));
	d->in = xmalloc(RAW_CHUNK);

	/* Sniff the encoding from the first raw bytes: a page of them,
	 * as a plain file's text is read straight into the line buffer
	 * after them and the rest of `in` is then never touched. */
	while (d->in_end < 4 && !d->in_eof) {
		ssize_t n;

		n = raw_read(lr, d->in + d->in_end, SNIFF_BYTES - d->in_end);
		if (n < 0)
			return read_error(lr);
		if (n == 0)
			d->in_eof = true;
		d->in_end += (size_t)n;
		lr->raw_bytes += (uint64_t)n;
	}
	if (at_gzip_magic(d)) {
		lr->encoding = INPUT_GZIP;
		/* 15 + 16: gzip wrapper only, largest window */
		if (inflateInit2(&d->z, 15 + 16) != Z_OK)
			return error("%s: cannot start gzip decoder", lr->path);
		d->stream_open = true;
	} else if (at_bzip2_magic(d)) {
		lr->encoding = INPUT_BZIP2;
		if (BZ2_bzDecompressInit(&d->bz, 0, 0) != BZ_OK)
			return error("%s: cannot start bzip2 decoder", lr->path);
		d->stream_open = true;
	} else {
		lr->encoding = INPUT_PLAIN;
	}
	return 0;
}

void decoder_restart(struct line_reader *lr)
{
	lr->dec->in_pos = lr->dec->in_end = 0;
	lr->dec->in_eof = false;
}

void decoder_start_plain(struct line_reader *lr)
{
	lr->dec = xcalloc(1, sizeof(*lr->dec));
	lr->dec->in = xmalloc(RAW_CHUNK);
}

void decoder_end(struct line_reader *lr)
{
	if (!lr->dec)
		return;
	if (lr->encoding == INPUT_GZIP)
		inflateEnd(&lr->dec->z);
	else if (lr->encoding == INPUT_BZIP2)
		BZ2_bzDecompressEnd(&lr->dec->bz);
	free(lr->dec->in);
	free(lr->dec);
	lr->dec = NULL;
}
