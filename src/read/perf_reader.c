/*
 * What the perf.data reader's files share (perf_reader.h): messages
 * that name the file and the offset, and cursors in the file's byte
 * order.
 */
#include <stdarg.h>
#include <stdio.h>

#include "perf_reader.h"

int perf_fail(const struct perf_reader *r, size_t off, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error_at_offset(r->path, off, "%s", msg);
}

void perf_cursor(const struct perf_reader *r, struct cursor *c,
		 const unsigned char *p, size_t len)
{
	cursor_init(c, p, len);
	c->big_endian = r->big_endian;
}
