/*
 * Diagnostics. Library code reports a problem once, where it is found,
 * and returns -1; callers pass the -1 up without printing again. Only
 * main() decides to exit.
 *
 * Messages name the place first, start lowercase and have no final
 * period:   cganalyze: callgrind.out.42:17: unknown key 'fx'
 */
#ifndef CGA_DIAG_H
#define CGA_DIAG_H

#include <stdint.h>
#include <stdio.h>

#define CGA_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Where messages go; stderr by default. Tests point it at a memstream. */
void diag_set_sink(FILE *f);
FILE *diag_sink(void);
/*
 * This thread's messages go to f instead (NULL: back to the shared
 * sink), for a helper thread whose messages the main thread prints when
 * it gets to them, in the order of the input.
 */
void diag_set_thread_sink(FILE *f);
/*
 * fn (NULL: none) is called before each message to the shared sink, so
 * that a line drawn over itself there (progress.h) is erased first.
 */
void diag_set_before_message(void (*fn)(void));

/*
 * The process's standard error, held: symtab/'s libbfd calls point file
 * descriptor 2 elsewhere for a while (bfd_diag.c), and on a helper
 * thread (resolve/perf_preload.c) that must not swallow a message of
 * the main thread's. Messages to the shared sink and the progress line
 * hold it while they write. Recursive: a message said while it is held
 * by the same thread goes through.
 */
void diag_lock(void);
void diag_unlock(void);

/* Each returns -1 so that `return error(...)` reads naturally. */
int error(const char *fmt, ...) CGA_PRINTF(1, 2);
int error_at(const char *path, uint64_t lineno, const char *fmt, ...)
	CGA_PRINTF(3, 4);
int error_at_offset(const char *path, uint64_t offset, const char *fmt, ...)
	CGA_PRINTF(3, 4);
int error_errno(const char *fmt, ...) CGA_PRINTF(1, 2);

void warning(const char *fmt, ...) CGA_PRINTF(1, 2);
/* What the run did that the reader of a listing should know (the load
 * offset used, frames folded), on the sink beside the warnings, so that
 * standard output carries the listing alone. */
void note(const char *fmt, ...) CGA_PRINTF(1, 2);
void warning_at(const char *path, uint64_t lineno, const char *fmt, ...)
	CGA_PRINTF(3, 4);

/* Our own broken invariant, never bad input: report file:line and abort. */
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
	CGA_PRINTF(3, 4);

#endif
