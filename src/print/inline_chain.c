/*
 * The chain of functions inlined at an instruction, as --disasm prints
 * it after the source line and the report's Disassembly under its
 * heading: one text for both (inline_chain.h).
 */
#include <stdbool.h>
#include <string.h>

#include "base/path.h"
#include "inline_chain.h"

/* Whether s[0..i) ends with the word "operator": what follows it at i
 * is an operator's symbol ("()", "<", ">>"), no list of arguments */
static bool after_operator(const char *s, size_t i)
{
	return i >= 8 && !memcmp(s + i - 8, "operator", 8) &&
	       (i == 8 || !(s[i - 9] == '_' || (s[i - 9] >= 'a' && s[i - 9] <= 'z') ||
			    (s[i - 9] >= 'A' && s[i - 9] <= 'Z') ||
			    (s[i - 9] >= '0' && s[i - 9] <= '9')));
}

/* s[0..end) without what may follow a parameter list: a method's
 * qualifiers (" const", " &&") and GCC's clone suffix (" [clone
 * .isra.0]"), as many as there are */
static size_t without_suffixes(const char *s, size_t end)
{
	static const char *const tails[] = {
		" const", " volatile", " &&", " &", " noexcept",
	};
	bool again = true;

	while (again) {
		again = false;
		for (size_t k = 0; k < sizeof(tails) / sizeof(tails[0]); k++) {
			size_t n = strlen(tails[k]);

			if (end > n && !memcmp(s + end - n, tails[k], n)) {
				end -= n;
				again = true;
			}
		}
		if (end && s[end - 1] == ']') {
			for (size_t i = end - 1; i-- > 0;)
				if (s[i] == '[') {
					if (i > 0 && s[i - 1] == ' ' &&
					    !strncmp(s + i, "[clone ", 7)) {
						end = i - 1;
						again = true;
					}
					break;
				}
		}
	}
	return end;
}

/*
 * A function's name as an inline chain shows it: the last component of
 * a C++ name without its parameters, template arguments, return type
 * and qualifiers ("emplace_back" for "sample::Point& std::vector<...>::
 * emplace_back<sample::Point>(sample::Point&&)", "norm2" for
 * "sample::Point::norm2() const"; an operator keeps its symbol,
 * "operator()"), so a chain fits on a line.
 */
static void put_short_name(FILE *out, const struct names *names, name_id id)
{
	const char *s = id != NO_NAME ? names_str(names, id) : "??";
	size_t end = without_suffixes(s, strlen(s)), start = 0;
	int depth = 0;

	/* a parameter list at the end, (...) with nesting, unless it is
	 * an operator's own "()" */
	if (end && s[end - 1] == ')') {
		size_t i = end;

		while (i-- > 0) {
			depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
			if (!depth)
				break;
		}
		if (!depth && i > 0 && !(end - i == 2 && after_operator(s, i)))
			end = i;
	}
	/* template arguments at the end, <...> with nesting; not an
	 * operator's symbol ("operator>", "operator>>", "operator->") */
	if (end && s[end - 1] == '>') {
		size_t i = end, k = end;

		while (k > 0 && strchr("<>-=", s[k - 1]))
			k--;
		depth = 0;
		while (!after_operator(s, k) && i-- > 0) {
			depth += s[i] == '>' ? 1 : s[i] == '<' ? -1 : 0;
			if (!depth)
				break;
		}
		if (!after_operator(s, k) && !depth && i > 0)
			end = i;
	}
	/* the last "::" or blank outside <> and (), an operator's symbol
	 * taken whole */
	depth = 0;
	for (size_t i = 0; i < end; i++) {
		if (after_operator(s, i)) {
			while (i < end && s[i] != '(' && s[i] != ' ')
				i++;
			if (i + 1 < end && s[i] == '(' && s[i + 1] == ')')
				i++;
			continue;
		}
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
