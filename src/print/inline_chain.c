/*
 * The chain of functions inlined at an instruction, as --disasm prints
 * it after the source line and the report's Disassembly under its
 * heading: one text for both (inline_chain.h).
 */
#include <string.h>

#include "base/path.h"
#include "inline_chain.h"

/*
 * A function's name as an inline chain shows it: the last component of
 * a C++ name without its parameters, template arguments and return type
 * ("emplace_back" for "sample::Point& std::vector<...>::emplace_back<
 * sample::Point>(sample::Point&&)"), so a chain fits on a line.
 */
static void put_short_name(FILE *out, const struct names *names, name_id id)
{
	const char *s = id != NO_NAME ? names_str(names, id) : "??";
	size_t end = strlen(s), start = 0;
	int depth = 0;

	/* a parameter list at the end, (...) with nesting */
	if (end && s[end - 1] == ')') {
		size_t i = end;

		while (i-- > 0) {
			depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
			if (!depth)
				break;
		}
		if (!depth && i > 0)
			end = i;
	}
	/* template arguments at the end, <...> with nesting */
	if (end && s[end - 1] == '>' && (end < 8 || strncmp(s + end - 8, "operator", 8))) {
		size_t i = end;

		depth = 0;
		while (i-- > 0) {
			depth += s[i] == '>' ? 1 : s[i] == '<' ? -1 : 0;
			if (!depth)
				break;
		}
		if (!depth && i > 0)
			end = i;
	}
	/* the last "::" or blank outside <> and () */
	depth = 0;
	for (size_t i = 0; i < end; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth)
			depth--;
		else if (!depth && s[i] == ' ')
			start = i + 1;
		else if (!depth && s[i] == ':' && s[i + 1] == ':')
			start = i + 2;
	}
	if (start >= end)
		start = 0;
	fprintf(out, "%.*s", (int)(end - start), s + start);
}

void inline_chain_put(FILE *out, const struct names *names,
		      const struct frame *fr, size_t n)
{
	put_short_name(out, names, fr[0].func);
	for (size_t k = 1; k < n; k++) {
		fputs(" <- ", out);
		put_short_name(out, names, fr[k].func);
		fprintf(out, " at %s:%u",
			fr[k].file != NO_NAME
				? path_base(names_str(names, fr[k].file))
				: "??",
			fr[k].line);
	}
}

bool inline_chain_same(const struct frame *a, size_t na,
		       const struct frame *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t k = 0; k < na; k++)
		if (a[k].func != b[k].func || a[k].file != b[k].file ||
		    a[k].line != b[k].line)
			return false;
	return true;
}
