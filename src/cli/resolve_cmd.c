/*
 * --resolve: addr2line's answer for each address, from the first -b
 * binary's symbols, lines and inline frames.
 */
#include "resolve_cmd.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/names.h"
#include "base/xalloc.h"
#include "binaries.h"
#include "symtab/symtab.h"

/* An address: hex with or without 0x, as addr2line takes them. */
static int parse_address(const char *s, uint64_t *out)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 16);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	return errno || *end ? -1 : 0;
}

/* lineno 0: arg is a command-line argument. */
static int resolve_one(FILE *out, const struct symtab *st, const char *arg,
		       uint64_t lineno, bool inlines)
{
	uint64_t addr;

	if (parse_address(arg, &addr) < 0) {
		int n = (int)strcspn(arg, "\r\n");
		const char *more = n > 64 ? "..." : "";

		if (!lineno)
			return error("'%.64s%s' is not an address (hex, with "
				     "or without 0x)", arg, more);
		return error_at("<stdin>", lineno, "'%.*s%s' is not an "
				"address (hex, with or without 0x)",
				n > 64 ? 64 : n, arg, more);
	}
	symtab_format_addr2line(out, st, addr, inlines);
	return 0;
}

/*
 * One line of addresses from in, at most size - 1 bytes, without its
 * newline; a longer line is consumed whole and *too_long set (an address
 * has 18 characters: no need to hold gigabytes). Returns false at the end.
 */
static bool read_address_line(FILE *in, char *buf, size_t size,
			      bool *too_long)
{
	size_t len;

	*too_long = false;
	if (!fgets(buf, (int)size, in))
		return false;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n') {
		buf[len - 1] = '\0';
		return true;
	}
	if (feof(in))
		return true;
	*too_long = true;
	for (int c; (c = getc(in)) != EOF && c != '\n';)
		;
	return true;
}

int resolve_run(const struct options *o, FILE *in, FILE *out)
{
	struct arena arena;
	struct names names;
	struct symtab **st = xcalloc(1, sizeof(*st));
	int ret = 1;

	arena_init(&arena);
	names_init(&names, &arena);
	if (open_binaries(o, &names, st) < 0)
		goto out;
	ret = 0;
	if (o->ninputs) {
		for (int i = 0; i < o->ninputs; i++)
			if (resolve_one(out, st[0], o->inputs[i], 0,
					o->inlines) < 0)
				ret = 2;
	} else {
		char line[4096];
		uint64_t lineno = 0;
		bool too_long;
		struct stat sb;
		/* Like addr2line, answer each line as it comes when another
		 * program may be waiting for it (a pipe, a terminal); from a
		 * file, write in blocks. */
		bool interactive = fstat(fileno(in), &sb) < 0 ||
				   !S_ISREG(sb.st_mode);

		while (read_address_line(in, line, sizeof(line), &too_long)) {
			lineno++;
			if (too_long) {
				error_at("<stdin>", lineno, "line longer than "
					 "%zu bytes: not an address",
					 sizeof(line) - 2);
				ret = 1;
			} else if (resolve_one(out, st[0], line, lineno,
					       o->inlines) < 0) {
				ret = 1;
			}
			if (interactive)
				fflush(out);
		}
		if (ferror(in)) {
			error_errno("<stdin>: read error");
			ret = 1;
		}
	}
out:
	close_binaries(st, 1);
	names_release(&names);
	arena_release(&arena);
	return ret;
}
