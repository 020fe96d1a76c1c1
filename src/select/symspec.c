/*
 * gprof's symspecs: parsing and matching against the profile's
 * functions (see symspec.h for the syntax).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "profile/profile.h"
#include "symspec.h"
#include "symtab/symtab.h"

static char *dup_range(const char *s, size_t len)
{
	char *d = xmalloc(len + 1);

	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* The one ':' that separates FILE from FUNC or LINE: a colon not next
 * to another ("ns::f" has none). NULL when there is none; *several set
 * when there is more than one. */
static const char *single_colon(const char *s, bool *several)
{
	const char *found = NULL;

	*several = false;
	for (const char *c = strchr(s, ':'); c; c = strchr(c + 1, ':')) {
		if ((c > s && c[-1] == ':') || c[1] == ':')
			continue;
		if (found)
			*several = true;
		found = found ? found : c;
	}
	return found;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Names that bfd_demangle takes: Itanium C++ and Rust v0. */
static bool looks_mangled(const char *s)
{
	return !strncmp(s, "_Z", 2) || !strncmp(s, "_R", 2);
}

int symspec_parse(const char *text, struct symspec *s, const char **why)
{
	bool several;
	const char *colon = single_colon(text, &several);

	memset(s, 0, sizeof(*s));
	if (!*text) {
		*why = "an empty name";
		return -1;
	}
	if (several) {
		*why = "more than one ':' (FILE:FUNC or FILE:LINE has one; "
		       "'::' is part of a name)";
		return -1;
	}
	if (colon == text) {
		*why = "no file before ':'";
		return -1;
	}
	if (colon && !colon[1]) {
		*why = "nothing after ':' (FILE:FUNC or FILE:LINE)";
		return -1;
	}
	s->text = xstrdup(text);
	if (!colon) {
		s->func = xstrdup(text);
		s->either = true;
	} else {
		s->file = dup_range(text, (size_t)(colon - text));
		if (all_digits(colon + 1)) {
			unsigned long long n;

			errno = 0;
			n = strtoull(colon + 1, NULL, 10);
			if (errno || !n || n > UINT32_MAX) {
				symspec_release(s);
				*why = "a line number from 1 to 4294967295 after ':'";
				return -1;
			}
			s->line = (uint32_t)n;
		} else {
			s->func = xstrdup(colon + 1);
		}
	}
	if (s->func && looks_mangled(s->func))
		s->func_demangled = symtab_demangle(s->func);
	return 0;
}

void symspec_release(struct symspec *s)
{
	free(s->text);
	free(s->file);
	free(s->func);
	free(s->func_demangled);
	memset(s, 0, sizeof(*s));
}

/* Parse text split at slash into from and to; false when a side is
 * empty or not a symspec (*why says why). */
static bool parse_split(const char *text, const char *slash,
			struct symspec *from, struct symspec *to,
			const char **why)
{
	char *left;
	int ret;

	if (slash == text || !slash[1]) {
		*why = "FROM/TO needs both (a pattern such as '*' names any function)";
		return false;
	}
	left = dup_range(text, (size_t)(slash - text));
	ret = symspec_parse(left, from, why);
	free(left);
	if (ret < 0)
		return false;
	if (symspec_parse(slash + 1, to, why) < 0) {
		symspec_release(from);
		return false;
	}
	return true;
}

int symspec_parse_arcs(const char *text, struct symspec_opt *o,
		       const char **why)
{
	struct symspec from, to;
	size_t alloc = 0;
	bool found = false, why_set = false;

	memset(&o->spec, 0, sizeof(o->spec));
	memset(&o->to, 0, sizeof(o->to));
	o->alt = NULL;
	o->nalt = 0;
	if (!strchr(text, '/')) {
		*why = "no '/' between FROM and TO";
		return -1;
	}
	for (const char *sl = strchr(text, '/'); sl; sl = strchr(sl + 1, '/')) {
		const char *side_why;

		if (!parse_split(text, sl, &from, &to, &side_why)) {
			if (!why_set)
				*why = side_why;	/* the first split's */
			why_set = true;
			continue;
		}
		if (!found) {
			o->spec = from;
			o->to = to;
			found = true;
			continue;
		}
		if (2 * o->nalt + 2 > alloc) {
			alloc = alloc ? 2 * alloc : 4;
			o->alt = xreallocarray(o->alt, alloc, sizeof(*o->alt));
		}
		o->alt[2 * o->nalt] = from;
		o->alt[2 * o->nalt + 1] = to;
		o->nalt++;
	}
	return found ? 0 : -1;
}

int symspec_parse_arc(const char *text, struct symspec *from,
		      struct symspec *to, const char **why)
{
	struct symspec_opt o;

	if (symspec_parse_arcs(text, &o, why) < 0)
		return -1;
	*from = o.spec;
	*to = o.to;
	o.spec = (struct symspec){ 0 };
	o.to = (struct symspec){ 0 };
	symspec_opt_release(&o);
	return 0;
}

void symspec_opt_release(struct symspec_opt *o)
{
	symspec_release(&o->spec);
	symspec_release(&o->to);
	for (size_t i = 0; i < 2 * o->nalt; i++)
		symspec_release(&o->alt[i]);
	free(o->alt);
	o->alt = NULL;
	o->nalt = 0;
}

void symspec_names_init(struct symspec_names *sn, struct profile *p)
{
	sn->p = p;
	sn->other = xcalloc(p->nfuncs + 1, sizeof(*sn->other));
	for (size_t f = 0; f < p->nfuncs; f++) {
		const char *name = profile_str(p, p->funcs[f].name);
		char *d = looks_mangled(name) ? symtab_demangle(name) : NULL;

		sn->other[f] = d ? names_intern(&p->names, d, strlen(d)) : NO_NAME;
		free(d);
	}
}

void symspec_names_release(struct symspec_names *sn)
{
	free(sn->other);
	sn->other = NULL;
}

static bool text_matches(const char *pattern, const char *s)
{
	return !strcmp(pattern, s) || !fnmatch(pattern, s, 0);
}

bool symspec_name_or_demangled_matches(const char *pattern, const char *name)
{
	char *d;
	bool r;

	if (symspec_name_matches(pattern, name))
		return true;
	if (!looks_mangled(name) || !(d = symtab_demangle(name)))
		return false;
	r = symspec_name_matches(pattern, d);
	free(d);
	return r;
}

static bool func_matches(const struct symspec *s,
			 const struct symspec_names *sn, uint32_t f)
{
	const struct profile *p = sn->p;
	const char *name = profile_str(p, p->funcs[f].name);
	name_id other = sn->other[f];

	if (symspec_name_matches(s->func, name) ||
	    (other != NO_NAME && symspec_name_matches(s->func, profile_str(p, other))))
		return true;
	return s->func_demangled && symspec_name_matches(s->func_demangled, name);
}

static bool path_matches(const char *pattern, const struct profile *p,
			 name_id path)
{
	const char *s;

	if (path == NO_NAME)
		return false;
	s = profile_str(p, path);
	if (text_matches(pattern, s))
		return true;
	/* its last components, down to the base name: "src/a.c" names
	 * "/home/me/proj/src/a.c" */
	for (const char *c = strchr(s, '/'); c; c = strchr(c + 1, '/'))
		if (text_matches(pattern, c + 1))
			return true;
	return false;
}

bool symspec_match(const struct symspec *s, const struct symspec_names *sn,
		   uint32_t f)
{
	const struct pfunc *fn = &sn->p->funcs[f];

	if (s->either)
		return func_matches(s, sn, f) ||
		       path_matches(s->func, sn->p, fn->file) ||
		       path_matches(s->func, sn->p, fn->object);
	if (!path_matches(s->file, sn->p, fn->file))
		return false;
	if (s->line)
		return profile_func_line(sn->p, f) &&
		       profile_func_line(sn->p, f) <= s->line;
	return func_matches(s, sn, f);
}

size_t symspec_select(const struct symspec *s, const struct symspec_names *sn,
		      bool *out)
{
	const struct profile *p = sn->p;
	size_t n = 0;
	struct u64map best;	/* file -> the function starting last */

	if (!s->line) {
		for (uint32_t f = 0; f < p->nfuncs; f++)
			if (symspec_match(s, sn, f)) {
				out[f] = true;
				n++;
			}
		return n;
	}
	/* FILE:LINE: per file that matches (two prog.c in two
	 * directories are two files), the function starting last at or
	 * before LINE; the functions starting there, all of them (fib
	 * and valgrind's fib'2 share their code) */
	u64map_init(&best);
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint32_t b;

		if (!symspec_match(s, sn, f))
			continue;
		b = u64map_get(&best, p->funcs[f].file);
		if (b == U64MAP_NONE ||
		    profile_func_line(p, b) < profile_func_line(p, f))
			u64map_put(&best, p->funcs[f].file, f);
	}
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		uint32_t b;

		if (!symspec_match(s, sn, f))
			continue;
		b = u64map_get(&best, p->funcs[f].file);
		if (profile_func_line(p, b) == profile_func_line(p, f)) {
			out[f] = true;
			n++;
		}
	}
	u64map_release(&best);
	return n;
}
