/*
 * The line reader (see line_reader.h): the text of a file, plain or
 * decompressed (decompress.c), in large blocks, handed out a line or a
 * block of whole lines at a time, and read in parts by offset for the
 * Callgrind reader's stretches.
 */
#include "line_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/mapped_files.h"
#include "base/progress.h"
#include "base/xalloc.h"
#include "decompress.h"

/*
 * The buffer lines are read into, doubled for a longer line. Each page
 * of it costs a page fault the first time it is filled (30 to 75 us on
 * a paravirtualized machine), and a larger one saves nothing but
 * read(2) calls: 256 KiB touches 64 pages, 1 MiB touched 256.
 */
#define FIRST_BUF ((size_t)256 << 10)

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
	lr->cap = FIRST_BUF;
	lr->buf = xmalloc(lr->cap + 1);
	if (decoder_start(lr) < 0)
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
	decoder_end(lr);
	if (lr->close_fd && lr->fd >= 0 && !lr->part_of)
		close(lr->fd);
	free(lr->buf);
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
	n = decoder_read(lr, lr->buf + lr->end, lr->cap - lr->end);
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

		lr->last_unterminated = false;
		if (!nl && lr->eof && lr->pos < lr->end) {
			nl = lr->buf + lr->end; /* last line, no newline */
			lr->last_unterminated = true;
		}
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
		got = decoder_read(lr, (char *)buf + n, cap - n);
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

int line_reader_map(struct line_reader *lr, const unsigned char **data,
		    size_t *len)
{
	void *p;

	if (lr->encoding != INPUT_PLAIN || !lr->file_size ||
	    lr->file_size > SIZE_MAX)
		return 0;
	p = mmap(NULL, (size_t)lr->file_size, PROT_READ, MAP_PRIVATE, lr->fd, 0);
	if (p == MAP_FAILED)
		return 0;	/* not mappable (a special file): read it */
	/* cut short since it was opened: its last pages would raise
	 * SIGBUS when read */
	if (line_reader_shrank(lr)) {
		munmap(p, (size_t)lr->file_size);
		return -1;
	}
	mapped_files_note(p, (size_t)lr->file_size, lr->path);
	*data = p;
	*len = (size_t)lr->file_size;
	return 1;
}

bool line_reader_shrank(const struct line_reader *lr)
{
	struct stat st;

	if (fstat(lr->fd, &st) != 0 || (uint64_t)st.st_size >= lr->file_size)
		return false;
	error("%s: it is %llu bytes, shorter than the %llu when it was "
	      "opened: it changed while it was read (truncated or "
	      "rewritten); read it again once it is whole", lr->path,
	      (unsigned long long)st.st_size,
	      (unsigned long long)lr->file_size);
	return true;
}

int line_reader_bytes(struct line_reader *lr, size_t max,
		      struct input_bytes *b)
{
	int mapped = line_reader_map(lr, &b->data, &b->len);
	long n;

	b->copy = NULL;
	b->mapped = mapped > 0;
	if (mapped)
		return mapped < 0 ? -1 : 0;
	n = line_reader_slurp(lr, max, &b->copy);
	if (n < 0)
		return -1;
	b->data = b->copy;
	b->len = (size_t)n;
	return 0;
}

void input_bytes_release(struct input_bytes *b)
{
	if (b->mapped) {
		mapped_files_forget(b->data);
		munmap((void *)b->data, b->len);
	}
	free(b->copy);
	memset(b, 0, sizeof(*b));
}

bool line_reader_splittable(const struct line_reader *lr, uint64_t offset)
{
	return lr->encoding == INPUT_PLAIN && lr->file_size &&
	       lr->stop == UINT64_MAX && decoder_raw_offset(lr) <= offset &&
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
	decoder_restart(lr);
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
	decoder_start_plain(part);
	part->cap = FIRST_BUF;
	part->buf = xmalloc(part->cap + 1);
	restart_at(part, offset);
}

uint64_t line_reader_offset(const struct line_reader *lr, const char *p)
{
	return decoder_raw_offset(lr) - (uint64_t)(lr->buf + lr->end - p);
}

uint64_t line_reader_next_offset(const struct line_reader *lr)
{
	return line_reader_offset(lr, lr->buf + lr->pos);
}

uint64_t line_reader_end_offset(const struct line_reader *lr)
{
	return decoder_raw_offset(lr);
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
