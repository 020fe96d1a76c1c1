/*
 * Whether a pattern names a function: the parts of a C++ name and the
 * forms of it a pattern may match (name_match.h draws them). Mirrored
 * by src/print/html/js/match.js: change both.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "name_match.h"
#include "profile/profile.h"

/* The '(' that matches the last ')': where the parameter list starts.
 * len when there is none, or nothing before it ("(below main)"). */
static size_t params_start(const char *s, size_t len)
{
	const char *close = strrchr(s, ')');
	int depth = 0;

	if (!close)
		return len;
	for (const char *c = close; c >= s; c--) {
		if (*c == ')')
			depth++;
		else if (*c == '(' && --depth == 0)
			return c > s ? (size_t)(c - s) : len;
	}
	return len;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* "operator" as a word at s[i]: what follows it is an operator's name */
static bool operator_at(const char *s, size_t i, size_t end)
{
	return end - i >= 8 && !memcmp(s + i, "operator", 8) &&
	       (i == 0 || !ident_char(s[i - 1])) &&
	       (i + 8 == end || !ident_char(s[i + 8]));
}

void name_parts_of(const char *s, struct name_parts *np)
{
	size_t len = strlen(s), params = params_start(s, len);
	size_t ret = 0, last = 0;
	int depth = 0;

	/* Left to right over what is before the parameters, outside
	 * brackets: the last space ends the return type ("unsigned long
	 * ns::f"), the last "::" the qualifier; "operator" ends the walk,
	 * as its name may hold spaces and brackets ("operator new",
	 * "operator<<"). */
	for (size_t i = 0; i < params; i++) {
		char c = s[i];

		if (c == '(' || c == '<' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == '>' || c == ']' || c == '}') {
			if (depth > 0)
				depth--;
		} else if (depth) {
			continue;
		} else if (c == ' ') {
			ret = last = i + 1;
		} else if (c == ':' && i + 1 < params && s[i + 1] == ':') {
			last = i + 2;
			i++;
		} else if (operator_at(s, i, params)) {
			break;
		}
	}
	np->ret = ret;
	np->last = last;
	np->params = params;
	np->len = len;
	/* a function template's own arguments: LAST<...> ending where the
	 * parameters start (not an operator's: "operator<"; "operator->") */
	np->targs = params;
	if (params > last && s[params - 1] == '>' &&
	    !operator_at(s, last, params)) {
		const char *lt = memchr(s + last, '<', params - last);

		if (lt && lt > s + last)
			np->targs = (size_t)(lt - s);
	}
}

static bool text_matches(const char *pattern, const char *s)
{
	return !strcmp(pattern, s) || !fnmatch(pattern, s, 0);
}

/* The forms of name_match.h's table, in its order, as [from, to) */
static bool parts_match(const char *pattern, const char *name)
{
	struct name_parts np;
	size_t form[7][2];
	char small[256], *buf;
	bool r = false;

	name_parts_of(name, &np);
	form[0][0] = 0, form[0][1] = np.len;
	form[1][0] = np.ret, form[1][1] = np.len;
	form[2][0] = 0, form[2][1] = np.params;
	form[3][0] = np.ret, form[3][1] = np.params;
	form[4][0] = np.ret, form[4][1] = np.targs;
	form[5][0] = np.last, form[5][1] = np.params;
	form[6][0] = np.last, form[6][1] = np.targs;
	if (text_matches(pattern, name))
		return true;
	buf = np.len < sizeof(small) ? small : xmalloc(np.len + 1);
	for (size_t k = 1; k < 7 && !r; k++) {
		size_t from = form[k][0], to = form[k][1];
		bool seen = from >= to;

		/* each form once: most names have fewer than seven */
		for (size_t j = 0; j < k && !seen; j++)
			seen = form[j][0] == from && form[j][1] == to;
		if (seen)
			continue;
		memcpy(buf, name + from, to - from);
		buf[to - from] = '\0';
		r = text_matches(pattern, buf);
	}
	if (buf != small)
		free(buf);
	return r;
}

bool symspec_name_matches(const char *pattern, const char *name)
{
	size_t len, n;
	char *folded;
	bool r;

	if (parts_match(pattern, name))
		return true;
	if (!strchr(name, '\''))
		return false;
	len = strlen(name);
	folded = xmalloc(len + 1);
	n = fold_recursion_suffix(name, len, folded);
	folded[n] = '\0';
	r = n != len && parts_match(pattern, folded);
	free(folded);
	return r;
}
