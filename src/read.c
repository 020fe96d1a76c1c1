#include "read.h"

#include <string.h>

#include "diag.h"

/* KCachegrind looks this far for an "events:" line; so do we. */
#define SNIFF_BYTES 2047

static bool starts_with(const char *data, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(data, prefix, n);
}

static int report_unknown(const struct line_reader *lr, const char *data,
			  size_t len)
{
	if (starts_with(data, len, "P=("))
		return error("%s: this is an IgProf profile; IgProf input is not supported yet",
			     lr->path);
	if (starts_with(data, len, "gmon"))
		return error("%s: this is a gprof gmon.out file; gmon.out input is not supported yet",
			     lr->path);
	return error("%s: not a profile cganalyze can read (expected a Callgrind "
		     "'events:' line within the first %d bytes)",
		     lr->path, SNIFF_BYTES);
}

int read_profile(struct profile *p, const char *path,
		 const struct read_opts *opts)
{
	struct line_reader lr;
	const char *data;
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
		error("%s: the file is empty (if valgrind wrote it with "
		      "--separate-threads=yes, the profiles are in '%s-01', "
		      "'%s-02', ...)", lr.path, lr.path, lr.path);
		goto out;
	}
	if (callgrind_sniff(data, (size_t)len))
		ret = read_callgrind(p, &lr, opts);
	else
		report_unknown(&lr, data, (size_t)len);
out:
	line_reader_close(&lr);
	return ret;
}

size_t fold_recursion_suffix(const char *name, size_t len, char *out)
{
	/* The recursion level is the first "'" + digits component that
	 * ends at another "'" or at the end of the name. */
	for (size_t i = 0; i < len; i++) {
		size_t j = i + 1;

		if (name[i] != '\'')
			continue;
		while (j < len && name[j] >= '0' && name[j] <= '9')
			j++;
		if (j > i + 1 && (j == len || name[j] == '\'')) {
			memcpy(out, name, i);
			memcpy(out + i, name + j, len - j);
			return len - (j - i);
		}
	}
	memcpy(out, name, len);
	return len;
}
