/*
 * read_profile(): the format found from the content, and the file
 * handed to its reader (see read.h).
 */
#include "read.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/xalloc.h"

/* KCachegrind looks this far for an "events:" line; so do we. */
#define SNIFF_BYTES 2047

static const char *article_format(const char *format)
{
	if (!strcmp(format, "callgrind"))
		return "a Callgrind";
	if (!strcmp(format, "igprof"))
		return "an IgProf";
	if (!strncmp(format, "gmon", 4))
		return "a gmon.out";
	if (!strcmp(format, "perf"))
		return "a perf.data";
	if (!strcmp(format, "gperftools-cpu"))
		return "a gperftools CPU";
	if (!strcmp(format, "gperftools-heap"))
		return "a gperftools heap";
	if (!strcmp(format, "pprof"))
		return "a pprof";
	return format;
}

/*
 * Compressions cganalyze does not decode, by their magic numbers: a
 * Callgrind file compressed with lz4 was read as Callgrind (its
 * literals hold 'events:') and refused at line 1 with a cost line of
 * binary bytes; xz and zstd were "not a profile". None of these can
 * start a profile of a format read (binary ones start with their magic;
 * 0x28 and 0x04 are no pprof field key; no text starts so). NULL: none.
 */
static const char *foreign_compression(const char *data, size_t len)
{
	static const struct {
		const char *name;
		const char *magic;
		size_t len;
	} kinds[] = {
		{ "xz", "\xfd" "7zXZ\0", 6 },
		{ "zstd", "\x28\xb5\x2f\xfd", 4 },
		{ "lz4", "\x04\x22\x4d\x18", 4 },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (len >= kinds[i].len &&
		    !memcmp(data, kinds[i].magic, kinds[i].len))
			return kinds[i].name;
	return NULL;
}

static bool thread_files_beside(const char *path)
{
	size_t len = strlen(path);
	char *first = xmalloc(len + 4);
	struct stat sb;
	bool there;

	memcpy(first, path, len);
	memcpy(first + len, "-01", 4);
	there = stat(first, &sb) == 0 && S_ISREG(sb.st_mode);
	free(first);
	return there;
}

static int report_unknown(const struct line_reader *lr)
{
	return error("%s: not a profile cganalyze can read (expected a Callgrind "
		     "'events:' line within the first %d bytes, an IgProf "
		     "'P=(' header, a gmon.out, a perf.data, a gperftools "
		     "profile or a pprof profile.proto)",
		     lr->path, SNIFF_BYTES);
}

/*
 * Profiles of one format add up; profiles of two do not (an IgProf
 * profile's inclusive costs come from whole stacks, a Callgrind one's
 * from its calls), so they are not read into one profile.
 */
static int same_format(const struct profile *p, const struct line_reader *lr,
		       const char *format)
{
	for (size_t i = 0; i < p->ninputs; i++) {
		const char *f = profile_str(p, p->inputs[i].format);

		if (strcmp(f, format))
			return error("%s: this is %s profile and '%s' is %s one; "
				     "profiles of different formats cannot be added up",
				     lr->path, article_format(format),
				     profile_str(p, p->inputs[i].path),
				     article_format(f));
	}
	return 0;
}

bool read_is_callgrind(const char *path)
{
	struct line_reader lr;
	const char *data;
	long len;
	bool ret;

	if (line_reader_open(&lr, path) < 0)
		return false;
	len = line_reader_peek(&lr, SNIFF_BYTES, &data);
	ret = len > 0 && !perf_sniff(data, (size_t)len) &&
	      callgrind_sniff(data, (size_t)len);
	line_reader_close(&lr);
	return ret;
}

int read_profile(struct profile *p, const char *path,
		 const struct read_opts *opts)
{
	struct line_reader lr;
	const char *data, *packer;
	long len;
	int ret = -1;

	if (line_reader_open(&lr, path) < 0)
		return -1;
	len = line_reader_peek(&lr, SNIFF_BYTES, &data);
	if (len < 0)
		goto out;
	if (len == 0 && lr.encoding != INPUT_PLAIN) {
		error("%s: the compressed data holds nothing (an empty file, "
		      "compressed)", lr.path);
		goto out;
	}
	if (len == 0) {
		/* valgrind --separate-threads=yes leaves the file it was
		 * given empty beside FILE-01, FILE-02, ...: said when they
		 * are there (not for /dev/null or a pipe) */
		if (thread_files_beside(lr.path))
			error("%s: the file is empty (valgrind wrote it with "
			      "--separate-threads=yes: the profiles are in "
			      "'%s-01', '%s-02', ...)", lr.path, lr.path,
			      lr.path);
		else
			error("%s: the file is empty", lr.path);
		goto out;
	}
	if (lr.encoding == INPUT_PLAIN &&
	    (packer = foreign_compression(data, (size_t)len))) {
		error("%s: offset 0: %s-compressed data, which cganalyze does "
		      "not decompress (gzip and bzip2 it does): decompress it "
		      "first ('%s -dc FILE | cganalyze ... -' reads it from a "
		      "pipe)", lr.path, packer, packer);
		goto out;
	}
	/* coarse positions (cli/hot_files.c) were chosen for Callgrind
	 * files, whose format a pipe does not tell before it is read: the
	 * other readers keep every position, as they always did */
	if (!callgrind_sniff(data, (size_t)len) || perf_sniff(data, (size_t)len))
		p->pos_detail = POS_ALL;
	if (perf_sniff(data, (size_t)len)) {
		if (same_format(p, &lr, "perf") == 0)
			ret = read_perf(p, &lr, opts);
	} else if (gperf_sniff(data, (size_t)len)) {
		const char *f = gperf_format(data, (size_t)len);

		if (same_format(p, &lr, f) == 0)
			ret = read_gperf(p, &lr, !strcmp(f, "gperftools-heap"));
	} else if (callgrind_sniff(data, (size_t)len)) {
		if (same_format(p, &lr, "callgrind") == 0)
			ret = read_callgrind(p, &lr, opts);
	} else if (igprof_sniff(data, (size_t)len)) {
		/* IgProf's anonymous functions are named by their positions'
		 * addresses: it keeps them for -b in any case */
		struct read_opts io = *opts;

		io.want_positions |= io.want_func_addrs;
		if (same_format(p, &lr, "igprof") == 0)
			ret = read_igprof(p, &lr, &io);
	} else if (gmon_sniff(data, (size_t)len)) {
		ret = read_gmon(p, &lr, opts);
	} else if (pprof_sniff(data, (size_t)len, len < SNIFF_BYTES)) {
		/* no magic: after every format that has one */
		if (same_format(p, &lr, "pprof") == 0)
			ret = read_pprof(p, &lr, opts);
	} else {
		/* a BSD gmon.out has no magic: tried last */
		int bsd = read_gmon_bsd_maybe(p, &lr, opts);

		if (bsd < 0)
			goto out;
		if (bsd > 0)
			ret = 0;
		else
			report_unknown(&lr);
	}
out:
	line_reader_close(&lr);
	return ret;
}
