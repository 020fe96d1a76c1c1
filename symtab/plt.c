/*
 * The synthetic "name@plt" symbols of the PLT stubs, from libbfd's
 * bfd_get_synthetic_symtab() as objdump and gprof get them: the stubs
 * have no symbols of their own, bfd derives them from the dynamic
 * relocations and the PLT layout of each architecture.
 *
 * bfd gives no sizes: a stub ends where the next symbol starts, or at
 * the end of its section (symtab_build_syms() guesses ends that way).
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "binutils_load.h"
#include "symtab_int.h"

/* A symbol table of abfd (dynamic or not) as bfd canonicalises it; NULL
 * with *n 0 when there is none or it cannot be read. */
static asymbol **read_table(bfd *abfd, bool dynamic, long *n)
{
	long size = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd)
			    : bfd_get_symtab_upper_bound(abfd);
	asymbol **v;

	*n = 0;
	if (size <= 0)
		return NULL;
	v = xmalloc((size_t)size);
	*n = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, v)
		     : bfd_canonicalize_symtab(abfd, v);
	if (*n <= 0) {
		*n = 0;
		free(v);
		return NULL;
	}
	return v;
}

void plt_read(const char *path, struct names *names, bool demangle,
	      uint32_t first_order, struct raw_syms *raw)
{
	asymbol **syms = NULL, **dynsyms = NULL, *synth = NULL;
	long nsyms, ndyn, nsynth;
	const struct bfd_api *b = libbfd_load();
	bfd *abfd;
	bool ok;

	if (!b)
		return;
	b->init();
	bfd_diag_begin(path);
	abfd = b->openr(path, NULL);
	if (!abfd) {
		warning("%s: no @plt symbols: %s", path,
			b->errmsg(b->get_error()));
		bfd_diag_end();
		return;
	}
	bfd_diag_capture_begin();
	ok = b->check_format(abfd, bfd_object);
	bfd_diag_capture_end();
	if (!ok) {
		warning("%s: no @plt symbols: %s", path,
			b->errmsg(b->get_error()));
		goto out;
	}
	syms = read_table(abfd, false, &nsyms);
	dynsyms = read_table(abfd, true, &ndyn);
	nsynth = bfd_get_synthetic_symtab(abfd, nsyms, syms, ndyn, dynsyms,
					  &synth);
	for (long i = 0; i < nsynth; i++) {
		asymbol *s = &synth[i];
		const char *name = bfd_asymbol_name(s);
		asection *sec = s->section;
		struct raw_sym *r;

		if (!name || !*name || !sec)
			continue;
		ARRAY_GROW(raw->v, raw->nr + 1, raw->alloc);
		r = &raw->v[raw->nr++];
		memset(r, 0, sizeof(*r));
		r->addr = bfd_asymbol_value(s);
		r->limit = bfd_section_vma(sec) + bfd_section_size(sec);
		r->raw = names_intern(names, name, strlen(name));
		r->name = demangle ? demangle_name(names, r->raw) : r->raw;
		r->order = first_order + (uint32_t)i;
		r->kind = SYM_PLT;
		r->bind = 1;	/* STB_GLOBAL: the stub stands for one */
	}
	free(synth);
out:
	free(syms);
	free(dynsyms);
	b->close(abfd);
	bfd_diag_end();
}
