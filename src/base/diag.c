/*
 * Diagnostics: error and warning messages in one layout, on one sink,
 * and BUG() for our own broken invariants.
 */
#include "diag.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static FILE *sink;
/* A thread's own sink (diag_set_thread_sink()), over the shared one. */
static _Thread_local FILE *thread_sink;
/* Called before a message on the shared sink: the progress line's eraser. */
static void (*before_message)(void);

static pthread_mutex_t stderr_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void diag_lock(void)
{
	pthread_mutex_lock(&stderr_lock);
}

void diag_unlock(void)
{
	pthread_mutex_unlock(&stderr_lock);
}

void diag_set_sink(FILE *f)
{
	sink = f;
}

FILE *diag_sink(void)
{
	if (thread_sink)
		return thread_sink;
	return sink ? sink : stderr;
}

void diag_set_thread_sink(FILE *f)
{
	thread_sink = f;
}

void diag_set_before_message(void (*fn)(void))
{
	before_message = fn;
}

static void vreport(const char *kind, const char *place, const char *fmt,
		    va_list ap) CGA_PRINTF(3, 0);

static void vreport(const char *kind, const char *place, const char *fmt,
		    va_list ap)
{
	FILE *out = diag_sink();
	bool shared = !thread_sink;

	if (shared)
		diag_lock();
	if (shared && before_message)	/* never inside the progress line */
		before_message();
	fputs("cganalyze: ", out);
	if (place)
		fprintf(out, "%s: ", place);
	if (kind)
		fprintf(out, "%s: ", kind);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	fflush(out);
	if (shared)
		diag_unlock();
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, NULL, fmt, ap);
	va_end(ap);
	return -1;
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(NULL, NULL, fmt, ap);
	va_end(ap);
}

int error_at(const char *path, uint64_t lineno, const char *fmt, ...)
{
	char place[4096];
	va_list ap;

	snprintf(place, sizeof(place), "%s:%llu", path,
		 (unsigned long long)lineno);
	va_start(ap, fmt);
	vreport(NULL, place, fmt, ap);
	va_end(ap);
	return -1;
}

int error_at_offset(const char *path, uint64_t offset, const char *fmt, ...)
{
	char place[4096];
	va_list ap;

	snprintf(place, sizeof(place), "%s: offset 0x%llx", path,
		 (unsigned long long)offset);
	va_start(ap, fmt);
	vreport(NULL, place, fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	char msg[4096];
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s: %s", msg, strerror(saved));
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning", NULL, fmt, ap);
	va_end(ap);
}

void warning_at(const char *path, uint64_t lineno, const char *fmt, ...)
{
	char place[4096];
	va_list ap;

	snprintf(place, sizeof(place), "%s:%llu", path,
		 (unsigned long long)lineno);
	va_start(ap, fmt);
	vreport("warning", place, fmt, ap);
	va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "cganalyze: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
