/*
 * The synthetic "name@plt" symbols of the PLT stubs, from libbfd's
 * bfd_get_synthetic_symtab() as objdump and gprof get them: the stubs
 * have no symbols of their own, bfd derives them from the dynamic
 * relocations and the PLT layout of each architecture.
 *
 * bfd gives no sizes: a stub ends where the next symbol starts, or at
 * the end of its section (symtab_build_syms() guesses ends that way).
 *
 * An IRELATIVE slot (libc's calls to its own ifuncs: memcpy, strlen,
 * ...) has no symbol to name it after: bfd calls it "*ABS*+0x9c6a0@plt",
 * after the relocation's addend, which is the address of the ifunc the
 * slot ends up calling. We name it after the function at that address,
 * "mempcpy@plt", which is where the time goes. (objdump prints the *ABS*
 * form; perf 6.1 names such slots after a wrong relocation,
 * "__tls_get_addr@plt", or "@plt" alone.)
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

/* The ifunc address of an IRELATIVE slot's bfd name, "*ABS*+0xADDR@plt". */
static bool irelative_target(const char *name, uint64_t *target)
{
	static const char prefix[] = "*ABS*+0x";
	const char *p = name + sizeof(prefix) - 1;
	uint64_t v = 0;

	if (strncmp(name, prefix, sizeof(prefix) - 1))
		return false;
	for (; *p && *p != '@'; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0 || v >> 60)
			return false;
		v = v << 4 | (uint64_t)d;
	}
	if (p == name + sizeof(prefix) - 1 || strcmp(p, "@plt"))
		return false;
	*target = v;
	return true;
}

static bool is_code(const asymbol *s)
{
	return (s->flags & (BSF_FUNCTION | BSF_GNU_INDIRECT_FUNCTION)) &&
	       (s->flags & (BSF_GLOBAL | BSF_WEAK | BSF_LOCAL)) && s->section;
}

static int by_value(const void *a, const void *b)
{
	bfd_vma x = bfd_asymbol_value(*(asymbol *const *)a);
	bfd_vma y = bfd_asymbol_value(*(asymbol *const *)b);

	return x < y ? -1 : x > y;
}

/* The length of a symbol's name without its version ("@@GLIBC_2.2.5"). */
static size_t unversioned_len(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? (size_t)(at - name) : strlen(name);
}

/* Whether symbol a's name reads better than b's for the code both
 * name: a public name (mempcpy) over an internal one (__mempcpy), then
 * a global over a weak alias (memcmp over bcmp, strrchr over rindex),
 * then the shorter, then the first in byte order, so that the choice
 * does not depend on the tables' order. */
static bool better_name(const asymbol *a, const asymbol *b)
{
	const char *x = bfd_asymbol_name(a), *y = bfd_asymbol_name(b);
	size_t nx = unversioned_len(x), ny = unversioned_len(y);
	bool gx = a->flags & BSF_GLOBAL, gy = b->flags & BSF_GLOBAL;

	if ((x[0] == '_') != (y[0] == '_'))
		return y[0] == '_';
	if (gx != gy)
		return gx;
	if (nx != ny)
		return nx < ny;
	return strncmp(x, y, nx) < 0;
}

/*
 * The code symbols of both tables (an ifunc is in the dynamic one of a
 * shared library, maybe only in the static one of an executable),
 * sorted by address, for irelative_name().
 */
static asymbol **code_by_value(asymbol **syms, long nsyms, asymbol **dyn,
			       long ndyn, size_t *n)
{
	asymbol **v = xcalloc((size_t)(nsyms + ndyn) + 1, sizeof(*v));

	*n = 0;
	for (long i = 0; i < nsyms; i++)
		if (is_code(syms[i]))
			v[(*n)++] = syms[i];
	for (long i = 0; i < ndyn; i++)
		if (is_code(dyn[i]))
			v[(*n)++] = dyn[i];
	qsort(v, *n, sizeof(*v), by_value);
	return v;
}

/* The best name of the code at target (better_name()), its length
 * without the version in *len; NULL when no symbol starts there. */
static const char *irelative_name(asymbol **v, size_t n, uint64_t target,
				  size_t *len)
{
	size_t lo = 0, hi = n;
	const asymbol *best = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bfd_asymbol_value(v[mid]) < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && bfd_asymbol_value(v[lo]) == target; lo++) {
		const char *name = bfd_asymbol_name(v[lo]);

		if (name && *name && *name != '@' &&
		    (!best || better_name(v[lo], best)))
			best = v[lo];
	}
	if (!best)
		return NULL;
	*len = unversioned_len(bfd_asymbol_name(best));
	return bfd_asymbol_name(best);
}

void plt_read(const char *path, struct names *names, bool demangle,
	      uint32_t first_order, struct raw_syms *raw)
{
	asymbol **syms = NULL, **dynsyms = NULL, *synth = NULL, **code = NULL;
	long nsyms, ndyn, nsynth;
	size_t ncode = 0;
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
		uint64_t target;

		if (!name || !*name || !sec)
			continue;
		ARRAY_GROW(raw->v, raw->nr + 1, raw->alloc);
		r = &raw->v[raw->nr++];
		memset(r, 0, sizeof(*r));
		r->addr = bfd_asymbol_value(s);
		r->limit = bfd_section_vma(sec) + bfd_section_size(sec);
		r->raw = NO_NAME;
		if (irelative_target(name, &target)) {
			const char *callee;
			size_t len;
			char *named;

			if (!code)
				code = code_by_value(syms, nsyms, dynsyms, ndyn,
						     &ncode);
			callee = irelative_name(code, ncode, target, &len);
			if (callee) {
				named = xmalloc(len + sizeof("@plt"));
				memcpy(named, callee, len);
				memcpy(named + len, "@plt", sizeof("@plt"));
				r->raw = names_intern(names, named, strlen(named));
				free(named);
			}
		}
		if (r->raw == NO_NAME)
			r->raw = names_intern(names, name, strlen(name));
		r->name = demangle ? demangle_name(names, r->raw) : r->raw;
		r->order = first_order + (uint32_t)i;
		r->kind = SYM_PLT;
		r->bind = 1;	/* STB_GLOBAL: the stub stands for one */
	}
	free(synth);
	free(code);
out:
	free(syms);
	free(dynsyms);
	b->close(abfd);
	bfd_diag_end();
}
