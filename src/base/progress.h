/*
 * The progress line: while a profile loads, and only when standard error
 * is a terminal, "cganalyze: reading FILE: 37% (412 of 1105 MB)" is
 * written over itself with "\r" and erased when the file is done.
 *
 * One file is read at a time, so this is one state for the process, set
 * up by main() (as the diagnostics' sink is). Until progress_enable()
 * every call here does nothing: library users and tests see no output.
 *
 * Cost: progress_update() is called once per block the line reader
 * reads (256 KiB of the file), and looks at the clock only once per
 * PROGRESS_CHECK_BYTES; it draws at most every PROGRESS_INTERVAL seconds,
 * and only after the load has taken `delay` seconds, so a quick load
 * shows nothing at all.
 */
#ifndef CGA_PROGRESS_H
#define CGA_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PROGRESS_CHECK_BYTES ((uint64_t)1 << 20)
#define PROGRESS_INTERVAL 0.1
/* seconds before the first report, unless CGANALYZE_PROGRESS_DELAY says */
#define PROGRESS_DEFAULT_DELAY 1.0

/*
 * Report on `out`, a terminal `columns` wide (the line is kept shorter,
 * so that "\r" goes back to its start), after `delay` seconds. `clock`
 * gives seconds on a monotonic scale; NULL is CLOCK_MONOTONIC (tests
 * pass their own).
 */
void progress_enable(FILE *out, unsigned columns, double delay,
		     double (*clock)(void));
void progress_disable(void);

/*
 * progress_enable() on stderr when it is a terminal, with the terminal's
 * width and the delay CGANALYZE_PROGRESS_DELAY gives (seconds, 0 to
 * 3600; another value is warned about and the default used). Returns
 * whether it was enabled.
 */
bool progress_enable_on_tty(void);

/* A file of `total` bytes starts; 0 (size unknown: a pipe) shows nothing. */
void progress_begin(const char *path, uint64_t total);
/* `done` of its bytes have been read (compressed bytes if compressed). */
void progress_update(uint64_t done);
/* The file is done (or failed): erase the line. */
void progress_end(void);
/* Erase the line so that a message can be printed; the next update
 * draws it again. progress_enable() has the diagnostics call it
 * before every message (diag_set_before_message()). */
void progress_clear(void);

#endif
