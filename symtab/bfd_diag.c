/*
 * libbfd's messages, through our diagnostics. Left alone, bfd prints
 * "BFD: ..." lines on stderr, one per problem it meets in a corrupt
 * file (a hundred for a damaged string table). Here the first one is
 * a warning that names the file, and the rest are counted into one
 * line at the end.
 *
 * bfd's format strings are not printf's: %pA is a section (printed as
 * its name), %pB a bfd (its file name), and arguments may be numbered
 * ("%2$s") as in translations. So the format is scanned once for the
 * type of every argument, the arguments are fetched in their order,
 * and each conversion is printed by itself. A format we do not
 * understand is printed as it is, with no argument fetched: reading a
 * va_list with a wrong type is undefined.
 */
#define PACKAGE "cganalyze"
#define PACKAGE_VERSION "0"
#include <bfd.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/diag.h"
#include "binutils_load.h"
#include "symtab_int.h"

#define MAX_ARGS 16
/* What bfd calls us in the messages it prints itself. */
#define PROGRAM_NAME "BFD"

enum arg_type {
	ARG_NONE,
	ARG_INT,	/* int and what promotes to it */
	ARG_LONG,
	ARG_LLONG,
	ARG_SIZE,
	ARG_PTRDIFF,
	ARG_INTMAX,
	ARG_DOUBLE,
	ARG_LDOUBLE,
	ARG_PTR,	/* %s, %p, %pA, %pB */
};

union arg {
	int i;
	long l;
	long long ll;
	size_t z;
	ptrdiff_t t;
	intmax_t j;
	double d;
	long double ld;
	const void *p;
};

/* One conversion: "%[N$][flags][width][.prec][length]conv". */
struct conv {
	const char *start, *end;	/* the whole spec, '%' included */
	int pos;			/* argument number, 1-based */
	int width_pos, prec_pos;	/* of a '*', or 0 */
	char flags[8];
	int width, prec;		/* -1: not given */
	char len[3];
	char conv;
	enum { EXT_NONE, EXT_SECTION, EXT_BFD } ext;	/* %pA, %pB */
	enum arg_type type;
};

static enum arg_type type_of(const char *len, char conv)
{
	switch (conv) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
		if (!strcmp(len, "l"))
			return ARG_LONG;
		if (!strcmp(len, "ll") || !strcmp(len, "q"))
			return ARG_LLONG;
		if (!strcmp(len, "z"))
			return ARG_SIZE;
		if (!strcmp(len, "t"))
			return ARG_PTRDIFF;
		if (!strcmp(len, "j"))
			return ARG_INTMAX;
		return conv == 'c' && *len ? ARG_NONE : ARG_INT;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G':
	case 'a': case 'A':
		return !strcmp(len, "L") ? ARG_LDOUBLE : ARG_DOUBLE;
	case 's': case 'p':
		return *len ? ARG_NONE : ARG_PTR;
	default:
		return ARG_NONE;
	}
}

static const char *digits(const char *s, int *out)
{
	long v = 0;

	while (*s >= '0' && *s <= '9') {
		if (v < 100000)
			v = v * 10 + (*s - '0');
		s++;
	}
	*out = (int)v;
	return s;
}

/* Parse the spec at s (just past '%'); 0, or -1 if we cannot print it. */
static int parse_conv(const char *s, struct conv *c, int *next_pos,
		      bool *numbered)
{
	const char *t;
	size_t nf = 0, nl = 0;
	int n;

	memset(c, 0, sizeof(*c));
	c->start = s - 1;
	c->width = c->prec = -1;
	t = digits(s, &n);
	if (t > s && *t == '$') {
		c->pos = n;
		*numbered = true;
		s = t + 1;
	}
	while (*s && strchr("-+ #0'", *s) && nf + 1 < sizeof(c->flags))
		c->flags[nf++] = *s++;
	if (*s == '*') {
		if (*numbered)
			return -1;	/* not in bfd's own messages */
		c->width_pos = (*next_pos)++;
		s++;
	} else if (*s >= '0' && *s <= '9') {
		s = digits(s, &c->width);
	}
	if (*s == '.') {
		s++;
		if (*s == '*') {
			if (*numbered)
				return -1;
			c->prec_pos = (*next_pos)++;
			s++;
		} else {
			s = digits(s, &c->prec);
		}
	}
	while (*s && strchr("hlLqztj", *s) && nl + 1 < sizeof(c->len))
		c->len[nl++] = *s++;
	if (!strcmp(c->len, "h") || !strcmp(c->len, "hh"))
		c->len[0] = '\0';	/* promoted to int */
	c->conv = *s;
	if (!*s)
		return -1;
	s++;
	if (c->conv == 'p' && (*s == 'A' || *s == 'B'))
		c->ext = *s++ == 'A' ? EXT_SECTION : EXT_BFD;
	c->type = type_of(c->len, c->conv);
	if (c->type == ARG_NONE)
		return -1;
	if (!c->pos)
		c->pos = (*next_pos)++;
	c->end = s;
	return 0;
}

static int set_type(enum arg_type *types, int pos, enum arg_type t)
{
	if (pos < 1 || pos > MAX_ARGS ||
	    (types[pos - 1] != ARG_NONE && types[pos - 1] != t))
		return -1;
	types[pos - 1] = t;
	return 0;
}

/* Every argument's type from the format, then the arguments. */
static int fetch_args(const char *fmt, va_list ap, union arg *args)
{
	enum arg_type types[MAX_ARGS] = { ARG_NONE };
	int next_pos = 1, nargs = 0;
	bool numbered = false;
	struct conv c;

	for (const char *s = fmt; (s = strchr(s, '%'));) {
		if (s[1] == '%') {
			s += 2;
			continue;
		}
		if (parse_conv(s + 1, &c, &next_pos, &numbered) < 0 ||
		    set_type(types, c.pos, c.type) < 0 ||
		    (c.width_pos && set_type(types, c.width_pos, ARG_INT) < 0) ||
		    (c.prec_pos && set_type(types, c.prec_pos, ARG_INT) < 0))
			return -1;
		s = c.end;
	}
	for (int i = 0; i < MAX_ARGS; i++)
		if (types[i] != ARG_NONE)
			nargs = i + 1;
	for (int i = 0; i < nargs; i++) {
		switch (types[i]) {
		case ARG_INT:
			args[i].i = va_arg(ap, int);
			break;
		case ARG_LONG:
			args[i].l = va_arg(ap, long);
			break;
		case ARG_LLONG:
			args[i].ll = va_arg(ap, long long);
			break;
		case ARG_SIZE:
			args[i].z = va_arg(ap, size_t);
			break;
		case ARG_PTRDIFF:
			args[i].t = va_arg(ap, ptrdiff_t);
			break;
		case ARG_INTMAX:
			args[i].j = va_arg(ap, intmax_t);
			break;
		case ARG_DOUBLE:
			args[i].d = va_arg(ap, double);
			break;
		case ARG_LDOUBLE:
			args[i].ld = va_arg(ap, long double);
			break;
		case ARG_PTR:
			args[i].p = va_arg(ap, const void *);
			break;
		case ARG_NONE:
		default:
			/* a gap in numbered arguments: its type is unknown */
			return -1;
		}
	}
	return 0;
}

/* Append to buf[*n..size) what snprintf wrote, keeping it terminated. */
static void advance(size_t *n, size_t size, int wrote)
{
	if (wrote > 0)
		*n = *n + (size_t)wrote < size ? *n + (size_t)wrote : size - 1;
}

/* spec is built from a conversion parse_conv() accepted, with the
 * argument type it implies */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void print_conv(char *buf, size_t size, size_t *n, const struct conv *c,
		       const union arg *args)
{
	char spec[48];
	const union arg *a = &args[c->pos - 1];
	int width = c->width_pos ? args[c->width_pos - 1].i : c->width;
	int prec = c->prec_pos ? args[c->prec_pos - 1].i : c->prec;
	size_t k;
	int w = 0;

	k = (size_t)snprintf(spec, sizeof(spec), "%%%s", c->flags);
	if (width >= 0)
		k += (size_t)snprintf(spec + k, sizeof(spec) - k, "%d", width);
	if (prec >= 0)
		k += (size_t)snprintf(spec + k, sizeof(spec) - k, ".%d", prec);
	if (c->ext == EXT_SECTION) {
		const asection *sec = a->p;

		snprintf(spec + k, sizeof(spec) - k, "s");
		w = snprintf(buf + *n, size - *n, spec,
			     sec && sec->name ? sec->name : "(null)");
		advance(n, size, w);
		return;
	}
	if (c->ext == EXT_BFD) {
		const bfd *abfd = a->p;
		const char *name = abfd ? bfd_get_filename(abfd) : NULL;

		snprintf(spec + k, sizeof(spec) - k, "s");
		w = snprintf(buf + *n, size - *n, spec, name ? name : "(null)");
		advance(n, size, w);
		return;
	}
	snprintf(spec + k, sizeof(spec) - k, "%s%c", c->len, c->conv);
	switch (c->type) {
	case ARG_INT:
		w = snprintf(buf + *n, size - *n, spec, a->i);
		break;
	case ARG_LONG:
		w = snprintf(buf + *n, size - *n, spec, a->l);
		break;
	case ARG_LLONG:
		w = snprintf(buf + *n, size - *n, spec, a->ll);
		break;
	case ARG_SIZE:
		w = snprintf(buf + *n, size - *n, spec, a->z);
		break;
	case ARG_PTRDIFF:
		w = snprintf(buf + *n, size - *n, spec, a->t);
		break;
	case ARG_INTMAX:
		w = snprintf(buf + *n, size - *n, spec, a->j);
		break;
	case ARG_DOUBLE:
		w = snprintf(buf + *n, size - *n, spec, a->d);
		break;
	case ARG_LDOUBLE:
		w = snprintf(buf + *n, size - *n, spec, a->ld);
		break;
	case ARG_PTR:
		if (c->conv == 's' && !a->p)
			w = snprintf(buf + *n, size - *n, "(null)");
		else
			w = snprintf(buf + *n, size - *n, spec, a->p);
		break;
	case ARG_NONE:
	default:
		break;
	}
	advance(n, size, w);
}
#pragma GCC diagnostic pop

void bfd_format_message(char *buf, size_t size, const char *fmt, va_list ap)
{
	union arg args[MAX_ARGS];
	int next_pos = 1;
	bool numbered = false;
	size_t n = 0;
	struct conv c;

	if (!size)
		return;
	buf[0] = '\0';
	if (fetch_args(fmt, ap, args) < 0) {
		snprintf(buf, size, "%s", fmt);
		return;
	}
	for (const char *s = fmt; *s && n + 1 < size;) {
		const char *pct = strchr(s, '%');
		size_t lit = pct ? (size_t)(pct - s) : strlen(s);

		if (lit > size - 1 - n)
			lit = size - 1 - n;
		memcpy(buf + n, s, lit);
		n += lit;
		buf[n] = '\0';
		if (!pct)
			break;
		if (pct[1] == '%') {
			advance(&n, size, snprintf(buf + n, size - n, "%%"));
			s = pct + 2;
			continue;
		}
		/* fetch_args() parsed the same specs without an error */
		parse_conv(pct + 1, &c, &next_pos, &numbered);
		print_conv(buf, size, &n, &c, args);
		s = c.end;
	}
}

/* ---- routing ---- */

/* The file bfd is reading, and what it said about it. A C callback has
 * no context pointer: this is that context. */
static const char *cur_path;
static unsigned cur_count;

/* bfd names the file itself: "PATH: msg", "PATH(.sec): msg", "PATH
 * has ...", "warning: PATH: msg". Say it our way, the file first. */
static void tidy(const char *msg, const char *path, char *out, size_t size)
{
	size_t plen = strlen(path);
	const char *m = msg, *close;

	if (!strncmp(m, "warning: ", 9))
		m += 9;
	if (strncmp(m, path, plen)) {
		snprintf(out, size, "%s", m);
		return;
	}
	m += plen;
	if (!strncmp(m, ": ", 2)) {
		m += 2;
		if (!strncmp(m, "warning: ", 9))
			m += 9;
		snprintf(out, size, "%s", m);
	} else if (*m == '(' && (close = strstr(m, "): "))) {
		snprintf(out, size, "section '%.*s': %s", (int)(close - m - 1),
			 m + 1, close + 3);
	} else if (*m == ' ') {
		snprintf(out, size, "the file%s", m);
	} else {
		snprintf(out, size, "%s", msg);
	}
}

static void report_now(const char *msg)
{
	char out[1024];

	if (!cur_path) {
		warning("libbfd: %s", msg);
		return;
	}
	if (cur_count++)
		return;
	tidy(msg, cur_path, out, sizeof(out));
	warning("%s: libbfd: %s", cur_path, out);
}

/* While stderr is the scratch file (below), our own messages would go
 * into it too: the first is held back and said after, the rest counted. */
static int capture_fd = -1;
static char held[1024];
static unsigned held_more;

static void report(const char *msg)
{
	if (capture_fd < 0) {
		report_now(msg);
	} else if (!held[0]) {
		snprintf(held, sizeof(held), "%s", msg[0] ? msg : " ");
	} else {
		held_more++;
	}
}

static void on_error(const char *fmt, va_list ap)
{
	char msg[1024];

	bfd_format_message(msg, sizeof(msg), fmt, ap);
	report(msg);
}

static void on_assert(const char *fmt, const char *version, const char *file,
		      int line)
{
	(void)fmt;
	(void)version;
	if (cur_path && cur_count++)
		return;
	warning("%s%slibbfd: an internal check failed at %s:%d",
		cur_path ? cur_path : "", cur_path ? ": " : "",
		file ? file : "?", line);
}

void bfd_diag_begin(const char *path)
{
	const struct bfd_api *b = libbfd_load();

	cur_path = path;
	cur_count = 0;
	if (!b)
		return;
	b->set_error_program_name(PROGRAM_NAME);
	b->set_error_handler(on_error);
	b->set_assert_handler(on_assert);
}

/*
 * While bfd_check_format() tries each target, bfd holds the messages
 * back and then writes those of the target it chose straight to stderr
 * ("NAME: msg\nmsg\n..."), past the error handler. So stderr goes to a
 * scratch file for that call, and its lines are reported as the
 * handler's are.
 */
static int saved_stderr = -1;

void bfd_diag_capture_begin(void)
{
	/* fd 2 is the process's: no other thread's message may go into
	 * the scratch file meanwhile (symtabs load on a helper thread
	 * while a perf.data is read, resolve/perf_preload.c) */
	diag_lock();
	fflush(stderr);
	capture_fd = memfd_create("bfd-messages", MFD_CLOEXEC);
	if (capture_fd < 0)
		return;		/* the messages stay on stderr */
	saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved_stderr < 0 || dup2(capture_fd, STDERR_FILENO) < 0) {
		if (saved_stderr >= 0)
			close(saved_stderr);
		close(capture_fd);
		saved_stderr = capture_fd = -1;
	}
}

void bfd_diag_capture_end(void)
{
	static const char prefix[] = PROGRAM_NAME ": ";
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;
	int fd;

	if (capture_fd < 0) {
		diag_unlock();
		return;
	}
	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	saved_stderr = -1;
	diag_unlock();
	fd = capture_fd;
	capture_fd = -1;
	if (held[0]) {
		report_now(held);
		held[0] = '\0';
		if (cur_path)
			cur_count += held_more;
		held_more = 0;
	}
	f = lseek(fd, 0, SEEK_SET) == 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		close(fd);
		return;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		char *m = line;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (!strncmp(m, prefix, sizeof(prefix) - 1))
			m += sizeof(prefix) - 1;
		if (*m)
			report_now(m);
	}
	free(line);
	fclose(f);
}

void bfd_diag_end(void)
{
	if (cur_path && cur_count > 1)
		warning("%s: libbfd: %u more problem%s like the one above",
			cur_path, cur_count - 1, cur_count > 2 ? "s" : "");
	cur_path = NULL;
	cur_count = 0;
}
