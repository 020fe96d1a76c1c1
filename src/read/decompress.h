/*
 * The raw side of the line reader, for line_reader.c alone: bytes read
 * from its file descriptor (read(), or pread() at an offset for a part
 * of the file), and the decoder that turns them into text. The encoding
 * is taken from the first bytes, never the file name: gzip (1f 8b) and
 * bzip2 ("BZh") may hold several members one after the other, as
 * concatenated files do.
 */
#ifndef CGA_DECOMPRESS_H
#define CGA_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Raw bytes read at a time. */
#define RAW_CHUNK ((size_t)256 << 10)

struct line_reader;

/* Set up lr->dec on lr->fd, reading the first bytes to choose
 * lr->encoding: 0, or -1 after reporting. */
int decoder_start(struct line_reader *lr);
/* Set up lr->dec for plain text, reading nothing. */
void decoder_start_plain(struct line_reader *lr);
/* Free lr->dec (NULL is nothing). */
void decoder_end(struct line_reader *lr);

/* Up to room bytes of text into dst: their count, 0 at the end of the
 * input (or at lr->stop), -1 after reporting. */
long decoder_read(struct line_reader *lr, char *dst, size_t room);
/* The offset in the file of the next raw byte not yet decoded. */
uint64_t decoder_raw_offset(const struct line_reader *lr);
/* Forget the raw bytes read but not decoded (the next read is at
 * lr->raw_bytes). */
void decoder_restart(struct line_reader *lr);

#endif
