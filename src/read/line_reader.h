/*
 * The line reader for the text formats. It takes plain, gzip or bzip2 data, detected from the
 * first bytes (never from the file name), from a file or from a pipe
 * ("-" is standard input). It reads in large blocks and hands out one
 * line at a time without copying or allocating per line.
 */
#ifndef CGA_LINE_READER_H
#define CGA_LINE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum input_encoding { INPUT_PLAIN, INPUT_GZIP, INPUT_BZIP2 };

/* No line may be longer than this; a longer one is reported as an error. */
#define LINE_READER_MAX_LINE ((size_t)256 << 20)

struct decoder;

struct line_reader {
	const char *path;	/* as given; used in every message */
	uint64_t lineno;	/* of the line last returned, 1-based */
	/* line_reader_next(): the line last returned is the input's last
	 * and has no "\n" (a file cut short, for formats whose every line
	 * ends) */
	bool last_unterminated;
	enum input_encoding encoding;
	uint64_t file_size;	/* 0 when unknown (pipes) */
	/* progress_update() is the caller's to call: set when another
	 * thread than the main one reads (the progress line is the main
	 * thread's) */
	bool progress_by_caller;

	/* private */
	int fd;
	bool close_fd, eof;
	char *buf;		/* data in [pos, end); one spare byte */
	size_t cap, pos, end, scan;
	struct decoder *dec;
	uint64_t raw_bytes;	/* compressed bytes consumed so far */
	size_t max_line;
	/* a plain file read in parts (line_reader_stop_at() and after) */
	uint64_t stop;		/* text ends here, as if the file did */
	bool by_offset;		/* pread() at raw_bytes, not read() */
	bool part_of;		/* line_reader_open_part()'s: no progress,
				 * the fd is the whole file's */
};

/*
 * Open path for reading lines. Returns 0, or -1 after reporting (cannot
 * open, a directory, read error).
 */
int line_reader_open(struct line_reader *lr, const char *path);
void line_reader_close(struct line_reader *lr);

/*
 * The next line without its "\n" (and without a "\r" before it), NUL-
 * terminated in place; valid until the next call. Returns 1 with a line,
 * 0 at the end of the input, -1 after reporting an error (read error,
 * corrupt or truncated compressed data, a line over the limit).
 */
int line_reader_next(struct line_reader *lr, char **line, size_t *len);

/*
 * The next whole lines at once, for a reader that splits lines itself
 * (the Callgrind reader: one call per block, not per line, and its cost
 * lines parsed straight from the buffer). *data holds *len bytes: one or
 * more lines, each ended by "\n" (the input's last line gets one if it
 * has none), "\r" left in place; writable, valid until the next call.
 * Line numbers are the caller's to count: lr->lineno must be the number
 * of lines consumed when this is called, so that a line over the limit
 * is reported with its number. Returns 1 with lines, 0 at the end of the
 * input, -1 after reporting (as line_reader_next()). Do not mix with
 * line_reader_next() on one reader.
 */
int line_reader_lines(struct line_reader *lr, char **data, size_t *len);

/*
 * Up to `want` bytes from the start of the (decompressed) input, without
 * consuming them, for format detection. Only valid before the first
 * line_reader_next(). Returns the number of bytes available in *data,
 * or -1 after reporting an error.
 */
long line_reader_peek(struct line_reader *lr, size_t want, const char **data);

/*
 * Everything not yet consumed (decompressed), for the binary formats:
 * *data is malloc'd (the caller frees it) and the length is returned.
 * More than max bytes is an error. Returns -1 after reporting.
 */
long line_reader_slurp(struct line_reader *lr, size_t max,
		       unsigned char **data);

/*
 * The whole input mapped read-only, for a binary format, when it is a
 * plain regular file: *data and *len (munmap() them when done), and 1.
 * 0 when it is not one (compressed, a pipe): read it with
 * line_reader_slurp(). -1 after reporting.
 */
int line_reader_map(struct line_reader *lr, const unsigned char **data,
		    size_t *len);

/*
 * Whether lr's plain file is now shorter than when it was opened
 * (another program truncated or rewrote it): said, naming both sizes.
 * A mapping of it would raise SIGBUS past the new end.
 */
bool line_reader_shrank(const struct line_reader *lr);

/* The whole input's bytes, as the binary readers take them: mapped when
 * line_reader_map() can, else read (at most max bytes) into copy. */
struct input_bytes {
	const unsigned char *data;
	size_t len;
	unsigned char *copy;	/* malloc'd when not mapped */
	bool mapped;
};

/* 0, or -1 after reporting; input_bytes_release() when done. */
int line_reader_bytes(struct line_reader *lr, size_t max,
		      struct input_bytes *b);
void input_bytes_release(struct input_bytes *b);

/* Bytes of the file consumed so far (compressed bytes for compressed
 * input), for progress reports. */
uint64_t line_reader_progress(const struct line_reader *lr);

/*
 * Reading a plain regular file in parts, on several threads: the text
 * is the file's bytes, so offsets in it are file offsets.
 *
 * line_reader_splittable(): lr reads such a file and has handed out no
 * text past `offset` yet.
 * line_reader_stop_at(): lr's text ends at `offset` (a line start), as
 * if the file ended there.
 * line_reader_go_on_at(): after that end, go on at `offset` (the same
 * or later, a line start) to the end of the file; line numbers are the
 * caller's (lr->lineno).
 * line_reader_open_part(): a second reader of the same file from
 * `offset` (a line start) to its end, for another thread: it reads by
 * pread(2) on whole's fd (which must stay open), and shows no progress.
 * line_reader_offset(): the file offset of p, a byte of the lines the
 * last line_reader_lines() gave (or just past them).
 */
bool line_reader_splittable(const struct line_reader *lr, uint64_t offset);
void line_reader_stop_at(struct line_reader *lr, uint64_t offset);
void line_reader_go_on_at(struct line_reader *lr, uint64_t offset);
void line_reader_open_part(struct line_reader *part,
			   const struct line_reader *whole, uint64_t offset);
uint64_t line_reader_offset(const struct line_reader *lr, const char *p);
/* The offset of the next line not handed out, and of the end of what
 * was read (a plain file). */
uint64_t line_reader_next_offset(const struct line_reader *lr);
uint64_t line_reader_end_offset(const struct line_reader *lr);
/* Up to n bytes of the file at offset into buf, apart from the reading
 * (a plain regular file): how many, or -1 (nothing said). */
long line_reader_read_at(const struct line_reader *lr, uint64_t offset,
			 char *buf, size_t n);

/* Set a smaller line limit (tests). */
void line_reader_set_max_line(struct line_reader *lr, size_t max);

#endif
