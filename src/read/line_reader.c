#include "line_reader.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/diag.h"
#include "base/progress.h"
#include "base/xalloc.h"

#define RAW_CHUNK ((size_t)256 << 10)
#define FIRST_BUF ((size_t)1 << 20)

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

/* A read(2) failed, errno says why; raw_bytes were read before it. */
static int read_error(const struct line_reader *lr)
{
	return error_at_offset(lr->path, lr->raw_bytes, "read error: %s",
			       strerror(errno));
}

static int raw_fill(struct line_reader *lr)
{
	struct decoder *d = lr->dec;
	ssize_t n;

	if (d->in_pos < d->in_end || d->in_eof)
		return 0;
	do
		n = lr->by_offset ? pread(lr->fd, d->in, RAW_CHUNK,
					  (off_t)lr->raw_bytes)
				  : read(lr->fd, d->in, RAW_CHUNK);
	while (n < 0 && errno == EINTR);
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
		do
			r = read(lr->fd, d->in + d->in_end, RAW_CHUNK - d->in_end);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return read_error(lr);
		if (r == 0)
			d->in_eof = true;
		d->in_end += (size_t)r;
		lr->raw_bytes += (uint64_t)r;
	}
	return 0;
}

/* Offset in the raw file of the next unconsumed byte. */
static uint64_t raw_offset(const struct line_reader *lr)
{
	return lr->raw_bytes - (lr->dec->in_end - lr->dec->in_pos);
}

static long decode_plain(struct line_reader *lr, char *dst, size_t room)
{
	struct decoder *d = lr->dec;
	size_t n;

	if (raw_offset(lr) >= lr->stop)
		return 0;
	if (raw_fill(lr) < 0)
		return -1;
	n = d->in_end - d->in_pos;
	if (n > room)
		n = room;
	if (n > lr->stop - raw_offset(lr))
		n = (size_t)(lr->stop - raw_offset(lr));
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
				return error_at_offset(lr->path, raw_offset(lr),
					"unexpected data after the end of the gzip stream");
			if (inflateReset(z) != Z_OK)
				return error("%s: cannot restart gzip decoder",
					     lr->path);
			d->stream_open = true;
		}
		if (d->in_pos == d->in_end)
			return error_at_offset(lr->path, raw_offset(lr),
				"truncated gzip data (the compressed stream ends early)");
		z->next_in = d->in + d->in_pos;
		z->avail_in = (uInt)(d->in_end - d->in_pos);
		ret = inflate(z, Z_NO_FLUSH);
		d->in_pos = d->in_end - z->avail_in;
		if (ret == Z_STREAM_END) {
			d->stream_open = false;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			return error_at_offset(lr->path, raw_offset(lr),
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
				return error_at_offset(lr->path, raw_offset(lr),
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
			return error_at_offset(lr->path, raw_offset(lr),
				"truncated bzip2 data (the compressed stream ends early)");
		bz->next_in = (char *)d->in + d->in_pos;
		bz->avail_in = (unsigned)(d->in_end - d->in_pos);
		ret = BZ2_bzDecompress(bz);
		d->in_pos = d->in_end - bz->avail_in;
		if (ret == BZ_STREAM_END)
			d->stream_open = false;
		else if (ret != BZ_OK)
			return error_at_offset(lr->path, raw_offset(lr),
				"corrupt bzip2 data (%s)", bzip2_problem(ret));
	}
	return (long)(want - bz->avail_out);
}

static long decode(struct line_reader *lr, char *dst, size_t room)
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

static int start_decoder(struct line_reader *lr)
{
	struct decoder *d = lr->dec;

	/* Sniff the encoding from the first raw bytes. */
	while (d->in_end < 4 && !d->in_eof) {
		ssize_t n;

		do
			n = read(lr->fd, d->in + d->in_end, RAW_CHUNK - d->in_end);
		while (n < 0 && errno == EINTR);
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

int line_reader_open(struct line_reader *lr, const char *path)
{
	struct stat st;

	memset(lr, 0, sizeof(*lr));
	lr->path = path;
	lr->max_line = LINE_READER_MAX_LINE;
	lr->stop = UINT64_MAX;
	if (!strcmp(path, "-")) {
		lr->path = "<stdin>";
		lr->fd = 0;
	} else {
		lr->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (lr->fd < 0)
			return error_errno("cannot open '%s'", path);
		lr->close_fd = true;
	}
	if (fstat(lr->fd, &st) < 0) {
		error_errno("cannot stat '%s'", path);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		error("'%s' is a directory, not a profile", path);
		goto fail;
	}
	if (S_ISREG(st.st_mode))
		lr->file_size = (uint64_t)st.st_size;
	lr->dec = xcalloc(1, sizeof(*lr->dec));
	lr->dec->in = xmalloc(RAW_CHUNK);
	lr->cap = FIRST_BUF;
	lr->buf = xmalloc(lr->cap + 1);
	if (start_decoder(lr) < 0)
		goto fail;
	progress_begin(lr->path, lr->file_size);
	return 0;
fail:
	line_reader_close(lr);
	return -1;
}

void line_reader_close(struct line_reader *lr)
{
	if (!lr->part_of)
		progress_end();
	if (lr->dec) {
		if (lr->encoding == INPUT_GZIP)
			inflateEnd(&lr->dec->z);
		else if (lr->encoding == INPUT_BZIP2)
			BZ2_bzDecompressEnd(&lr->dec->bz);
		free(lr->dec->in);
		free(lr->dec);
	}
	if (lr->close_fd && lr->fd >= 0 && !lr->part_of)
		close(lr->fd);
	free(lr->buf);
	lr->dec = NULL;
	lr->buf = NULL;
	lr->close_fd = false;
}

/* The default limit is a whole number of MiB; tests set small ones. */
static int line_too_long(const struct line_reader *lr)
{
	if (lr->max_line % ((size_t)1 << 20) == 0)
		return error_at(lr->path, lr->lineno + 1,
				"line longer than %zu MiB", lr->max_line >> 20);
	return error_at(lr->path, lr->lineno + 1, "line longer than %zu bytes",
			lr->max_line);
}

/* Read more data after [pos, end), moving it to the front first. */
static int refill(struct line_reader *lr)
{
	long n;

	if (lr->pos > 0) {
		memmove(lr->buf, lr->buf + lr->pos, lr->end - lr->pos);
		lr->end -= lr->pos;
		lr->scan -= lr->pos;
		lr->pos = 0;
	}
	if (lr->end == lr->cap) {
		size_t cap = lr->cap * 2;

		/* room for a line of max_line bytes and its "\n" */
		if (lr->cap > lr->max_line)
			return line_too_long(lr);
		if (cap > lr->max_line + 1)
			cap = lr->max_line + 1;
		lr->buf = xreallocarray(lr->buf, cap + 1, 1);
		lr->cap = cap;
	}
	n = decode(lr, lr->buf + lr->end, lr->cap - lr->end);
	if (n < 0)
		return -1;
	if (n == 0)
		lr->eof = true;
	lr->end += (size_t)n;
	return 0;
}

/*
 * Nothing more whole in the buffer: 0 at the end of the input, -1 after
 * reporting, 1 when more data came (the scan goes on where it stopped).
 */
static int read_more(struct line_reader *lr)
{
	if (lr->eof)
		return 0;
	lr->scan = lr->end;
	return refill(lr) < 0 ? -1 : 1;
}

int line_reader_next(struct line_reader *lr, char **line, size_t *len)
{
	int r;

	for (;;) {
		char *nl = memchr(lr->buf + lr->scan, '\n', lr->end - lr->scan);
		char *start = lr->buf + lr->pos;
		size_t n;

		if (!nl && lr->eof && lr->pos < lr->end)
			nl = lr->buf + lr->end; /* last line, no newline */
		if (nl) {
			n = (size_t)(nl - start);
			if (n && start[n - 1] == '\r')
				n--;
			/* The buffer starts larger than a small limit set
			 * by line_reader_set_max_line(): check each line. */
			if (n > lr->max_line)
				return line_too_long(lr);
			lr->pos = lr->scan = (size_t)(nl - lr->buf) + 1;
			if (lr->pos > lr->end)
				lr->pos = lr->scan = lr->end;
			start[n] = '\0';
			lr->lineno++;
			*line = start;
			*len = n;
			return 1;
		}
		r = read_more(lr);
		if (r <= 0)
			return r;
	}
}

/*
 * The lines of a block must each fit the limit. With the default limit
 * the buffer cannot hold a longer one (refill() refuses to grow past
 * it); a smaller limit set by line_reader_set_max_line() is checked
 * line by line. Returns the bytes of [start, start + n) that are whole
 * lines within the limit: all of them, or fewer.
 */
static size_t lines_within_limit(const struct line_reader *lr,
				 const char *start, size_t n)
{
	const char *s = start, *end = start + n;

	if (lr->max_line >= lr->cap)
		return n;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = (size_t)(nl - s);

		if (len && s[len - 1] == '\r')
			len--;
		if (len > lr->max_line)
			break;
		s = nl + 1;
	}
	return (size_t)(s - start);
}

int line_reader_lines(struct line_reader *lr, char **data, size_t *len)
{
	int r;

	for (;;) {
		char *start = lr->buf + lr->pos;
		size_t avail = lr->end - lr->pos, n = 0;
		char *nl = avail ? memrchr(start, '\n', avail) : NULL;

		if (nl) {
			n = (size_t)(nl - start) + 1;
		} else if (lr->eof && avail) {
			/* the last line, no newline: the buffer's spare
			 * byte takes one */
			lr->buf[lr->end] = '\n';
			n = avail + 1;
		}
		if (n) {
			n = lines_within_limit(lr, start, n);
			if (!n)
				return line_too_long(lr);
			lr->pos += n;
			if (lr->pos > lr->end)
				lr->pos = lr->end;
			lr->scan = lr->pos;
			*data = start;
			*len = n;
			return 1;
		}
		r = read_more(lr);
		if (r <= 0)
			return r;
	}
}

long line_reader_peek(struct line_reader *lr, size_t want, const char **data)
{
	if (want > lr->cap)
		want = lr->cap;
	while (lr->end - lr->pos < want && !lr->eof) {
		if (refill(lr) < 0)
			return -1;
	}
	*data = lr->buf + lr->pos;
	return (long)(lr->end - lr->pos < want ? lr->end - lr->pos : want);
}

long line_reader_slurp(struct line_reader *lr, size_t max,
		       unsigned char **data)
{
	size_t cap = lr->end - lr->pos + RAW_CHUNK, n = lr->end - lr->pos;
	unsigned char *buf = xmalloc(cap);

	memcpy(buf, lr->buf + lr->pos, n);
	lr->pos = lr->scan = lr->end;
	while (!lr->eof) {
		long got;

		if (n == cap) {
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		got = decode(lr, (char *)buf + n, cap - n);
		if (got < 0)
			goto fail;
		if (got == 0)
			lr->eof = true;
		n += (size_t)got;
		if (n > max) {
			error("%s: larger than %zu MiB, more than a profile of "
			      "this kind can be", lr->path, max >> 20);
			goto fail;
		}
	}
	*data = buf;
	return (long)n;
fail:
	free(buf);
	return -1;
}

bool line_reader_splittable(const struct line_reader *lr, uint64_t offset)
{
	return lr->encoding == INPUT_PLAIN && lr->file_size &&
	       lr->stop == UINT64_MAX && raw_offset(lr) <= offset &&
	       offset <= lr->file_size;
}

void line_reader_stop_at(struct line_reader *lr, uint64_t offset)
{
	lr->stop = offset;
}

/* Nothing read and nothing decoded: the next text comes from `offset`. */
static void restart_at(struct line_reader *lr, uint64_t offset)
{
	lr->pos = lr->end = lr->scan = 0;
	lr->eof = false;
	lr->dec->in_pos = lr->dec->in_end = 0;
	lr->dec->in_eof = false;
	lr->raw_bytes = offset;
	lr->by_offset = true;
}

void line_reader_go_on_at(struct line_reader *lr, uint64_t offset)
{
	restart_at(lr, offset);
	lr->stop = UINT64_MAX;
}

void line_reader_open_part(struct line_reader *part,
			   const struct line_reader *whole, uint64_t offset)
{
	memset(part, 0, sizeof(*part));
	part->path = whole->path;
	part->encoding = INPUT_PLAIN;
	part->file_size = whole->file_size;
	part->progress_by_caller = true;
	part->part_of = true;
	part->fd = whole->fd;
	part->max_line = whole->max_line;
	part->stop = UINT64_MAX;
	part->dec = xcalloc(1, sizeof(*part->dec));
	part->dec->in = xmalloc(RAW_CHUNK);
	part->cap = FIRST_BUF;
	part->buf = xmalloc(part->cap + 1);
	restart_at(part, offset);
}

uint64_t line_reader_offset(const struct line_reader *lr, const char *p)
{
	return raw_offset(lr) - (uint64_t)(lr->buf + lr->end - p);
}

uint64_t line_reader_next_offset(const struct line_reader *lr)
{
	return line_reader_offset(lr, lr->buf + lr->pos);
}

uint64_t line_reader_end_offset(const struct line_reader *lr)
{
	return raw_offset(lr);
}

long line_reader_read_at(const struct line_reader *lr, uint64_t offset,
			 char *buf, size_t n)
{
	ssize_t r;

	do
		r = pread(lr->fd, buf, n, (off_t)offset);
	while (r < 0 && errno == EINTR);
	return (long)r;
}

uint64_t line_reader_progress(const struct line_reader *lr)
{
	return lr->raw_bytes;
}

void line_reader_set_max_line(struct line_reader *lr, size_t max)
{
	lr->max_line = max;
}

void cursor_init(struct cursor *c, const void *data, size_t len)
{
	c->start = c->p = data;
	c->end = c->p + len;
	c->big_endian = false;
}

int cursor_bytes(struct cursor *c, void *out, size_t n)
{
	if (cursor_left(c) < n)
		return -1;
	memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

static int cursor_uint(struct cursor *c, unsigned size, uint64_t *v)
{
	uint64_t x = 0;

	if (cursor_left(c) < size)
		return -1;
	for (unsigned i = 0; i < size; i++) {
		unsigned shift = c->big_endian ? 8 * (size - 1 - i) : 8 * i;

		x |= (uint64_t)c->p[i] << shift;
	}
	c->p += size;
	*v = x;
	return 0;
}

int cursor_u8(struct cursor *c, uint8_t *v)
{
	uint64_t x;

	if (cursor_uint(c, 1, &x) < 0)
		return -1;
	*v = (uint8_t)x;
	return 0;
}

int cursor_u16(struct cursor *c, uint16_t *v)
{
	uint64_t x;

	if (cursor_uint(c, 2, &x) < 0)
		return -1;
	*v = (uint16_t)x;
	return 0;
}

int cursor_u32(struct cursor *c, uint32_t *v)
{
	uint64_t x;

	if (cursor_uint(c, 4, &x) < 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int cursor_u64(struct cursor *c, uint64_t *v)
{
	return cursor_uint(c, 8, v);
}

int cursor_addr(struct cursor *c, unsigned size, uint64_t *v)
{
	if (size != 4 && size != 8)
		BUG("address size %u", size);
	return cursor_uint(c, size, v);
}
