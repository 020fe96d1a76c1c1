/*
 * cganalyze: options -> pipeline -> exit status. The only place that
 * exits and the only owner of stdout.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "base/diag.h"
#include "base/heap_tune.h"
#include "base/mapped_files.h"
#include "base/progress.h"
#include "base/xalloc.h"
#include "diff.h"
#include "options.h"
#include "resolve_cmd.h"

/* Whether path and the file sb describes are one file. */
static bool same_file(const char *path, const struct stat *sb)
{
	struct stat other;

	return stat(path, &other) == 0 && other.st_dev == sb->st_dev &&
	       other.st_ino == sb->st_ino;
}

/*
 * A binary given where a profile goes: gprof's order (gprof ./prog
 * gmon.out) typed to cganalyze, or -b forgotten. Said with the command
 * to type instead, rather than the reader's "not a profile"; and "-"
 * when standard input is a terminal. Returns 0, or 2 (a usage error)
 * after saying so.
 */
static int check_inputs_not_binaries(const struct options *o)
{
	for (int i = 0; i < o->ninputs; i++) {
		const char *in = o->inputs[i];
		unsigned char magic[4];
		struct stat sb;
		size_t got = 0;
		char rest[256];
		size_t used = 0;
		FILE *f;

		/* "-" on a terminal would wait for a profile typed in */
		if (!strcmp(in, "-") && isatty(STDIN_FILENO)) {
			error("'-' reads the profile from standard input, "
			      "which is a terminal: pipe or redirect a "
			      "profile in (cganalyze - <callgrind.out)");
			return 2;
		}
		if (!strcmp(in, "-") || stat(in, &sb) != 0 ||
		    !S_ISREG(sb.st_mode))
			continue;
		f = fopen(in, "rb");
		if (!f)
			continue;	/* the reader says why */
		got = fread(magic, 1, sizeof(magic), f);
		fclose(f);
		if (got < 4 || memcmp(magic, "\x7f" "ELF", 4))
			continue;
		rest[0] = '\0';
		for (int j = 0; j < o->ninputs && used < sizeof(rest); j++) {
			int n;

			if (j == i)
				continue;
			n = snprintf(rest + used, sizeof(rest) - used, " %s",
				     o->inputs[j]);
			if (n < 0)
				break;
			used += (size_t)n;
		}
		error("'%s' is a binary (an ELF file), not a profile: give it "
		      "with -b (cganalyze -b %s%s)", in, in,
		      o->ninputs > 1 ? rest : " PROFILE");
		return 2;
	}
	return 0;
}

/*
 * -o FILE naming an input: a Callgrind file may replace a profile it
 * was read from (it is that profile, written again), but a listing would
 * put text where the profile was, and nothing replaces a binary.
 * Returns 0, or 2 (a usage error) after saying so.
 */
static int check_output_not_input(const struct options *o)
{
	struct stat sb;

	if (stat(o->output_file, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	for (int i = 0; i < o->nbinaries; i++)
		if (same_file(o->binaries[i], &sb)) {
			error("-o '%s' is the binary given with -b '%s': it "
			      "would be replaced; write the output elsewhere",
			      o->output_file, o->binaries[i]);
			return 2;
		}
	if (o->mode == OUT_CALLGRIND && !o->diff && !o->resolve_mode)
		return 0;
	for (int i = 0; i < o->ninputs; i++)
		if (same_file(o->inputs[i], &sb)) {
			error("-o '%s' is the input '%s': the listing would "
			      "replace the profile; write it elsewhere (only "
			      "--output=callgrind may replace a profile it "
			      "reads)", o->output_file, o->inputs[i]);
			return 2;
		}
	return 0;
}

/*
 * -o FILE: the output goes to a new file beside FILE, renamed to FILE
 * once complete. So a failed run leaves FILE as it was, and FILE may be
 * one of the inputs (`-o prof.out prof.out`): they are read first.
 */
static FILE *open_output(const char *path, char **tmp)
{
	size_t len = strlen(path);
	struct stat sb;
	int fd;
	FILE *f;

	/* a device or a pipe (/dev/stdout) is written, never replaced */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		*tmp = NULL;
		f = fopen(path, "w");
		if (!f)
			error_errno("cannot write '%s'", path);
		return f;
	}
	*tmp = xmalloc(len + 16);
	memcpy(*tmp, path, len);
	memcpy(*tmp + len, ".tmp-XXXXXX", 12);
	fd = mkstemp(*tmp);
	if (fd < 0 && errno == ENOENT && strrchr(path, '/')) {
		const char *slash = strrchr(path, '/');

		error("cannot create '%s': the directory '%.*s' does not exist",
		      path, slash == path ? 1 : (int)(slash - path), path);
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	if (fd < 0) {
		error_errno("cannot create '%s' (a new file beside it, renamed to it when complete)", path);
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	/* mkstemp() makes it 0600; a file we create gets 0666 & ~umask */
	{
		mode_t mask = umask(0);

		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	f = fdopen(fd, "w");
	if (!f) {
		error_errno("cannot write '%s'", *tmp);
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

/*
 * CGANALYZE_READER_THREAD=1 (or 0) forces the Callgrind reader's
 * splitting thread on (or no second thread), "ahead" reading ahead in
 * small stretches, whatever the file's size: `make e2e` runs the suite
 * every way. For perf.data, 1 or "ahead" reads ahead and loads the
 * symbol tables on second threads whatever the size and the load, 0
 * neither.
 */
static enum read_thread reader_thread_from_env(void)
{
	const char *force = getenv("CGANALYZE_READER_THREAD");

	if (!force || !*force)
		return READ_THREAD_AUTO;
	if (!strcmp(force, "ahead"))
		return READ_THREAD_AHEAD;
	return strcmp(force, "1") ? READ_THREAD_OFF : READ_THREAD_ON;
}

/*
 * CGANALYZE_UNWIND=libdwfl unwinds every --call-graph dwarf sample with
 * libdwfl, "check" with the cached CFI rows and libdwfl both, warning
 * if they differ: the tests compare the two ways.
 */
static enum perf_unwinder perf_unwinder_from_env(void)
{
	const char *v = getenv("CGANALYZE_UNWIND");

	if (v && !strcmp(v, "libdwfl"))
		return PERF_UNWIND_LIBDWFL;
	if (v && !strcmp(v, "check"))
		return PERF_UNWIND_CHECK;
	return PERF_UNWIND_AUTO;
}

/*
 * CGANALYZE_PRINT_CHUNK=N (tests): the listings' second thread takes
 * chunks of N entries, and is used however few entries there are. Any
 * other value (or none): the listings decide, 0.
 */
static size_t print_chunk_from_env(void)
{
	const char *v = getenv("CGANALYZE_PRINT_CHUNK");
	char *end;
	unsigned long n;

	if (!v || !*v || *v == '-')
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || !n || n > 1000000)
		return 0;
	return (size_t)n;
}

static int run(const struct options *o, FILE *out)
{
	if (o->resolve_mode)
		return resolve_run(o, stdin, out);
	return o->diff ? diff_run(o, out) : analyze_run(o, out);
}

/*
 * CGANALYZE_HUGE_PAGES=0 keeps the heap on small pages (see
 * base/heap_tune.h): for comparing, and for a machine where huge pages
 * are short.
 */
static bool huge_pages_from_env(void)
{
	const char *v = getenv("CGANALYZE_HUGE_PAGES");

	return !v || strcmp(v, "0") != 0;
}

static void say(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/*
 * SIGBUS: a page of a mapped file past its end, which is what reading a
 * profile or a binary another program cuts short meanwhile does. Said
 * as that, naming the file where a reader noted its mapping, rather
 * than the shell's "Bus error"; the listing is not finished, so the
 * status is an error's. Only async-signal-safe calls here.
 */
static void on_bus_error(int sig, siginfo_t *info, void *ctx)
{
	const char *path = mapped_files_path_at(info->si_addr);

	(void)sig;
	(void)ctx;
	say("cganalyze: ");
	if (path) {
		say(path);
		say(": ");
	}
	say(path ? "it was cut short while it was read (truncated or "
		   "rewritten by another program): stopped; read it again "
		   "once it is whole\n"
		 : "a file mapped to be read (a profile or a binary) was cut "
		   "short while it was read (truncated or rewritten by "
		   "another program): stopped\n");
	_exit(1);
}

static void catch_bus_errors(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_bus_error;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct options o;
	int status;

	heap_tune(huge_pages_from_env());
	catch_bus_errors();

	switch (options_parse(&o, argc, argv, stdout)) {
	case OPTIONS_OK:
		break;
	case OPTIONS_EXIT_OK:
		options_release(&o);
		return 0;
	case OPTIONS_USAGE:
	default:
		options_release(&o);
		return 2;
	}
	if (!o.resolve_mode) {
		status = check_inputs_not_binaries(&o);
		if (status) {
			options_release(&o);
			return status;
		}
	}
	o.reader_thread = reader_thread_from_env();
	/* CGANALYZE_ALL_POSITIONS=1: --disasm reads every position, as
	 * before issue 33 (the tests compare the two) */
	o.all_positions = getenv("CGANALYZE_ALL_POSITIONS") &&
			  !strcmp(getenv("CGANALYZE_ALL_POSITIONS"), "1");
	o.positions_again = getenv("CGANALYZE_ALL_POSITIONS") &&
			    !strcmp(getenv("CGANALYZE_ALL_POSITIONS"), "again");
	o.show_positions = getenv("CGANALYZE_SHOW_POSITIONS") &&
			   !strcmp(getenv("CGANALYZE_SHOW_POSITIONS"), "1");
	o.perf_unwinder = perf_unwinder_from_env();
	o.print_chunk = print_chunk_from_env();
	if (!o.no_progress && !o.resolve_mode)
		progress_enable_on_tty();
	/* a page or gzip'd bytes on a terminal is a screenful of noise
	 * after the whole analysis: say so before reading */
	if (!o.output_file && !o.resolve_mode &&
	    (o.mode == OUT_HTML || o.mode == OUT_PPROF) &&
	    isatty(STDOUT_FILENO)) {
		error("--output=%s writes %s, not for a terminal: give -o FILE "
		      "(-o %s), or send standard output to a file or a pipe",
		      o.mode == OUT_HTML ? "html" : "pprof",
		      o.mode == OUT_HTML ? "a whole HTML page"
					 : "gzip'd binary data",
		      o.mode == OUT_HTML ? "report.html" : "profile.pb.gz");
		options_release(&o);
		return 2;
	}
	if (o.output_file) {
		char *tmp;
		FILE *f;

		status = check_output_not_input(&o);
		if (status) {
			options_release(&o);
			return status;
		}
		f = open_output(o.output_file, &tmp);
		if (!f) {
			options_release(&o);
			return 1;
		}
		if (!tmp) {
			status = run(&o, f);
			/* a write that failed may have emptied the buffer, so
			 * that fclose() flushes nothing and succeeds: the
			 * error flag says it */
			if ((fflush(f) != 0 || ferror(f)) && !status) {
				error_errno("cannot write '%s'", o.output_file);
				status = 1;
			}
			if (fclose(f) != 0 && !status) {
				error_errno("cannot write '%s'", o.output_file);
				status = 1;
			}
			options_release(&o);
			return status;
		}
		status = run(&o, f);
		if (fflush(f) != 0 || ferror(f)) {
			error_errno("cannot write '%s'", o.output_file);
			status = status ? status : 1;
		}
		if (fclose(f) != 0 && !status) {
			error_errno("cannot write '%s'", o.output_file);
			status = 1;
		}
		if (!status && rename(tmp, o.output_file) != 0) {
			error_errno("cannot rename '%s' to '%s'", tmp,
				    o.output_file);
			status = 1;
		}
		if (status)
			unlink(tmp);
		free(tmp);
		options_release(&o);
		return status;
	}
	status = run(&o, stdout);
	options_release(&o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		error_errno("cannot write the output");
		return 1;
	}
	return status;
}
