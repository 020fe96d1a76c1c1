/*
 * The progress line on a terminal while a profile loads (see
 * progress.h).
 */
#include "progress.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

/* The longest line we draw; a wider terminal still gets this much. */
#define LINE_MAX_CHARS 512

static struct {
	FILE *out;		/* NULL: disabled */
	unsigned columns;
	double delay;
	double (*now)(void);

	/* the file being read; total 0: none */
	const char *path;
	uint64_t total;
	double start, drawn_at;
	uint64_t next_check;	/* look at the clock from this many bytes */
	size_t shown;		/* characters on the terminal; 0: none */
} pg = { .next_check = UINT64_MAX };

static double monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_enable(FILE *out, unsigned columns, double delay,
		     double (*clock)(void))
{
	progress_disable();
	pg.out = out;
	pg.columns = columns;
	pg.delay = delay;
	pg.now = clock ? clock : monotonic_seconds;
	diag_set_before_message(progress_clear);
}

void progress_disable(void)
{
	progress_end();
	diag_set_before_message(NULL);
	memset(&pg, 0, sizeof(pg));
	pg.next_check = UINT64_MAX;
}

/* Seconds from the environment, or the default with a warning. */
static double delay_from_env(void)
{
	const char *v = getenv("CGANALYZE_PROGRESS_DELAY");
	char *end;
	double d;

	if (!v)
		return PROGRESS_DEFAULT_DELAY;
	errno = 0;
	d = strtod(v, &end);
	/* written so that NaN fails too */
	if (errno || end == v || *end || !(d >= 0 && d <= 3600)) {
		warning("CGANALYZE_PROGRESS_DELAY wants seconds from 0 to 3600, not '%s'; using %g",
			v, PROGRESS_DEFAULT_DELAY);
		return PROGRESS_DEFAULT_DELAY;
	}
	return d;
}

bool progress_enable_on_tty(void)
{
	struct winsize ws;
	unsigned columns = 80;

	if (!isatty(STDERR_FILENO))
		return false;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		columns = ws.ws_col;
	progress_enable(stderr, columns, delay_from_env(), NULL);
	return true;
}

void progress_begin(const char *path, uint64_t total)
{
	progress_end();
	if (!pg.out || !total)
		return;
	pg.path = path;
	pg.total = total;
	pg.start = pg.now();
	pg.drawn_at = -INFINITY;
	pg.next_check = 0;
}

/* The unit that shows `total` with two to four digits, or bytes. */
static void pick_unit(uint64_t total, uint64_t *unit, const char **name)
{
	if (total >= 10000000000ULL)
		*unit = 1000000000, *name = "GB";
	else if (total >= 10000000)
		*unit = 1000000, *name = "MB";
	else if (total >= 10000)
		*unit = 1000, *name = "kB";
	else
		*unit = 1, *name = "bytes";
}

static void draw(uint64_t done)
{
	char line[LINE_MAX_CHARS + 1], tail[96];
	size_t width = pg.columns > 1 ? pg.columns - 1 : 1;
	size_t plen = strlen(pg.path), fixed, len;
	const char *path = pg.path, *dots = "";
	uint64_t unit;
	const char *uname;

	if (width > LINE_MAX_CHARS)
		width = LINE_MAX_CHARS;
	if (done > pg.total)
		done = pg.total;	/* the file grew while we read it */
	pick_unit(pg.total, &unit, &uname);
	snprintf(tail, sizeof(tail), ": %u%% (%llu of %llu %s)",
		 (unsigned)((double)done * 100 / (double)pg.total),
		 (unsigned long long)(done / unit),
		 (unsigned long long)(pg.total / unit), uname);
	/* A line wider than the terminal would wrap, and "\r" would only
	 * go back to the start of its last row: shorten the path from the
	 * left. */
	fixed = strlen("cganalyze: reading ") + strlen(tail);
	if (fixed + plen > width) {
		size_t room = width > fixed + 3 ? width - fixed - 3 : 0;

		path += plen - (room < plen ? room : plen);
		plen = strlen(path);
		dots = "...";
	}
	len = (size_t)snprintf(line, sizeof(line), "cganalyze: reading %s%s%s",
			       dots, path, tail);
	if (len > width)
		len = width;
	/* pad over what a longer line before left; stderr held, as a
	 * message holds it (diag.h) */
	diag_lock();
	fprintf(pg.out, "\r%.*s%*s", (int)len, line,
		pg.shown > len ? (int)(pg.shown - len) : 0, "");
	fflush(pg.out);
	diag_unlock();
	pg.shown = len > pg.shown ? len : pg.shown;
}

void progress_update(uint64_t done)
{
	double t;

	if (done < pg.next_check)
		return;
	pg.next_check = done + PROGRESS_CHECK_BYTES;
	t = pg.now();
	if (t - pg.start < pg.delay || t - pg.drawn_at < PROGRESS_INTERVAL)
		return;
	pg.drawn_at = t;
	draw(done);
}

void progress_clear(void)
{
	if (!pg.shown)
		return;
	diag_lock();
	fprintf(pg.out, "\r%*s\r", (int)pg.shown, "");
	fflush(pg.out);
	diag_unlock();
	pg.shown = 0;
}

void progress_end(void)
{
	progress_clear();
	pg.total = 0;
	pg.path = NULL;
	pg.next_check = UINT64_MAX;
}
