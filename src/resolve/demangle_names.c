/*
 * Mangled function names demangled after reading (demangle_names.h),
 * with the symbol table's demangler, and the profile rekeyed.
 */
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "demangle_names.h"
#include "symtab/symtab.h"

uint32_t demangle_names(struct profile *p)
{
	struct pfunc *ident = NULL;
	uint32_t n = 0, twice;

	for (size_t f = 0; f < p->nfuncs; f++) {
		const char *name = profile_str(p, p->funcs[f].name);
		char *d;

		d = symtab_demangle_mangled(name);
		if (!d)
			continue;
		if (!ident) {
			ident = xreallocarray(NULL, p->nfuncs + 1, sizeof(*ident));
			memcpy(ident, p->funcs, p->nfuncs * sizeof(*ident));
		}
		ident[f].name = names_intern(&p->names, d, strlen(d));
		free(d);
		n++;
	}
	/* the readers that charge stacks demangle as they read (IgProf:
	 * read_opts.demangle), else merged names would count twice */
	twice = ident ? profile_rekey(p, ident, NULL, NULL, NULL) : NO_ID;
	if (twice != NO_ID)
		warning("functions demangled to one name, %s, may be on "
			"one stack (the arcs join them): a stack through two "
			"of them counts twice in its inclusive cost and its "
			"arcs' (--no-demangle keeps them apart)",
			profile_str(p, p->funcs[twice].name));
	free(ident);
	return n;
}
