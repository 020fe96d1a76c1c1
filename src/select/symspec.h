/*
 * Function selection in gprof's symspec syntax, for -p/-P/-q/-Q and -k:
 *
 *   NAME          the function called NAME, and every function of the
 *                 file or object NAME (gprof tells the two apart by a
 *                 '.' in NAME; C++ and GCC names have dots too, so we
 *                 take both)
 *   FILE:FUNC     function FUNC of file FILE
 *   FILE:LINE     the function of FILE that LINE is in: the one whose
 *                 definition starts last at or before LINE (needs the
 *                 functions' lines, which -b gives)
 *
 * The ':' is a single one: "std::sort" is a name. NAME, FILE and FUNC
 * may be glob patterns (fnmatch: * ? [...]), which C++ names want
 * ('std::*'). A file matches by its path as the profile has it, by its
 * last components ("src/a.c" names "/home/me/src/a.c") or by its base
 * name. A function matches by name_match.h's rule (its name whole, or
 * without its return type, parameter list, template arguments or
 * qualifiers, or recursion level: "std::*" names "void
 * std::vector<int>::push_back(int const&)", "push_back" too), and by its
 * other form: a mangled name given (_Z...) is demangled to be compared,
 * and a mangled name shown (--no-demangle) is compared demangled too.
 */
#ifndef CGA_SYMSPEC_H
#define CGA_SYMSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "name_match.h"
#include "profile/profile.h"

struct symspec {
	char *text;		/* as given */
	char *file;		/* a path, base name or glob; NULL: any file */
	char *func;		/* a name or glob; NULL: any function */
	char *func_demangled;	/* func demangled when it is mangled, or NULL */
	uint32_t line;		/* FILE:LINE, or 0 */
	bool either;		/* no ':': func names a function or a file */
};

/*
 * Parse text into s (which then owns copies: symspec_release()). Returns
 * 0, or -1 with *why set to what is wrong (a static string).
 */
int symspec_parse(const char *text, struct symspec *s, const char **why);

/* symspec_name_matches(), or for a mangled name (--no-demangle) the
 * same on its demangled form: -p's "other form", for the options that
 * name a function by one name at a time (--annotate=FUNC). */
bool symspec_name_or_demangled_matches(const char *pattern, const char *name);
void symspec_release(struct symspec *s);

/*
 * What matching looks at, once per profile: each function's other name
 * (the demangled form of a mangled name shown, or NO_NAME).
 */
struct symspec_names {
	const struct profile *p;
	name_id *other;		/* nfuncs entries */
};

void symspec_names_init(struct symspec_names *sn, struct profile *p);
void symspec_names_release(struct symspec_names *sn);

/* Set out[f] for every function f that s matches (others are left as
 * they are); returns how many it matched. */
size_t symspec_select(const struct symspec *s, const struct symspec_names *sn,
		      bool *out);

/* Does s match function f? (FILE:LINE specs: use symspec_select.) */
bool symspec_match(const struct symspec *s, const struct symspec_names *sn,
		   uint32_t f);

/* What an option does with its symspecs. */
enum symspec_use {
	SPEC_FLAT_ONLY,		/* -pSPEC: the flat profile lists only these */
	SPEC_FLAT_NOT,		/* -PSPEC: ... leaves these out */
	SPEC_GRAPH_ONLY,	/* -qSPEC: the graph lists these and what
				 * they call */
	SPEC_GRAPH_NOT,		/* -QSPEC: ... leaves these out */
	SPEC_ARC,		/* -k FROM/TO: arcs deleted before analysis */
};

struct symspec_opt {
	enum symspec_use use;
	struct symspec spec;	/* SPEC_ARC: FROM */
	struct symspec to;	/* SPEC_ARC: TO */
	/*
	 * SPEC_ARC: the other ways to split the text, when FROM or TO
	 * name a file by a path with '/': alt[2k] FROM, alt[2k + 1] TO,
	 * in the order of their '/'. The profile decides (selection.c).
	 */
	struct symspec *alt;
	size_t nalt;		/* pairs */
};

/*
 * "FROM/TO" of -k split at the first '/' that leaves two valid specs
 * (without a profile to choose by). 0 or -1 with *why.
 */
int symspec_parse_arc(const char *text, struct symspec *from,
		      struct symspec *to, const char **why);

/*
 * The same into o (use SPEC_ARC): o->spec and o->to get the first split
 * that parses, o->alt every later one, for selection to choose the one
 * the profile has calls for (a path's '/' cannot be told from FROM/TO's
 * by the text alone: "src/a.c/g" and "f/src/b.c"). 0 or -1 with *why.
 */
int symspec_parse_arcs(const char *text, struct symspec_opt *o,
		       const char **why);

void symspec_opt_release(struct symspec_opt *o);

#endif
