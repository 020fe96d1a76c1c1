/*
 * The one rule by which a pattern names a function, for -p -P -q -Q -k,
 * --annotate=FUNC, --disasm=FUNC and the report's filter (whose
 * src/print/html/js/match.js mirrors this file line for line; the
 * cases both are tested on are tests/name-match.cases).
 *
 * A C++ demangled name is read as
 *
 *   [RETURN-TYPE ] QUALIFIER::LAST[<TEMPLATE-ARGS>][(PARAMS)[ const...]]
 *
 *   void std::vector<int>::push_back<int>(int const&) const [clone .cold]
 *   ^    ^                 ^        ^    ^                                ^
 *   0    ret               last     targs params                          len
 *
 * and a pattern (a name, or a glob as fnmatch(3) takes it) names it when
 * it matches one of these whole:
 *
 *   the name                 [0, len)      the whole text
 *   without return type      [ret, len)    "std::vector<int>::push_back<int>(int const&) const ..."
 *   without parameter list   [0, params)   "void std::vector<int>::push_back<int>"
 *   without both             [ret, params) "std::vector<int>::push_back<int>"
 *   ... and template args    [ret, targs)  "std::vector<int>::push_back"
 *   the last component       [last, params) "push_back<int>"
 *   ... without template     [last, targs) "push_back"
 *
 * and, when none does, the same for the name without valgrind's
 * recursion level ("fib" names "fib'2"; a pattern with a level, "fib'2",
 * names that level alone). A C name has no return type, qualifier or
 * template arguments: "f", "f(int)" and the like. What follows
 * "operator" is the operator's name (spaces, '<' and all), so
 * "operator new" and "operator<<" are last components.
 */
#ifndef CGA_NAME_MATCH_H
#define CGA_NAME_MATCH_H

#include <stdbool.h>
#include <stddef.h>

/* Offsets into a name of its parts, as drawn above. A part that is not
 * there has the offset of what follows it: no return type, ret = 0; no
 * parameter list, params = len; no template arguments, targs = params. */
struct name_parts {
	size_t ret, last, targs, params, len;
};

void name_parts_of(const char *name, struct name_parts *np);

/* Does pattern name the function called name (the rule above)? */
bool symspec_name_matches(const char *pattern, const char *name);

#endif
