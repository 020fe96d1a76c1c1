/*
 * The synthetic "name@plt" symbols of the PLT stubs, as libbfd's
 * bfd_get_synthetic_symtab() gives them to objdump and gprof: the stubs
 * have no symbols of their own, bfd derives them from the dynamic
 * relocations and the PLT layout of each architecture. plt_elf.c reads
 * the same list for the x86-64 layouts it knows without loading libbfd
 * (opening each object with bfd cost a perf.data run some 4% of its
 * CPU); libbfd is asked for the others.
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
static bool better_name(const struct plt_code *a, const struct plt_code *b)
{
	const char *x = a->name, *y = b->name;
	size_t nx = unversioned_len(x), ny = unversioned_len(y);

	if ((x[0] == '_') != (y[0] == '_'))
		return y[0] == '_';
	if (a->global != b->global)
		return a->global;
	if (nx != ny)
		return nx < ny;
	return strncmp(x, y, nx) < 0;
}

/* The best name of the code at target (better_name()), its length
 * without the version in *len; NULL when no symbol starts there. */
static const char *irelative_name(const struct plt_code *v, size_t n,
				  uint64_t target, size_t *len)
{
	size_t lo = 0, hi = n;
	const struct plt_code *best = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].value < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].value == target; lo++) {
		const char *name = v[lo].name;

		if (*name && *name != '@' && (!best || better_name(&v[lo], best)))
			best = &v[lo];
	}
	if (!best)
		return NULL;
	*len = unversioned_len(best->name);
	return best->name;
}

const char *plt_stub_name_len(const struct plt_stubs *p, size_t i,
			      size_t *len, char **tmp)
{
	const char *name = p->v[i].name, *callee;
	uint64_t target;
	size_t n;

	*tmp = NULL;
	if (!irelative_target(name, &target) ||
	    !(callee = irelative_name(p->code, p->ncode, target, &n))) {
		*len = strlen(name);
		return name;
	}
	*tmp = xmalloc(n + sizeof("@plt"));
	memcpy(*tmp, callee, n);
	memcpy(*tmp + n, "@plt", sizeof("@plt"));
	*len = n + sizeof("@plt") - 1;
	return *tmp;
}

char *plt_stub_name(const struct plt_stubs *p, size_t i)
{
	size_t len;
	char *tmp;
	const char *name = plt_stub_name_len(p, i, &len, &tmp);

	return tmp ? tmp : xstrdup(name);
}

static bool is_code(const asymbol *s)
{
	return (s->flags & (BSF_FUNCTION | BSF_GNU_INDIRECT_FUNCTION)) &&
	       (s->flags & (BSF_GLOBAL | BSF_WEAK | BSF_LOCAL)) && s->section;
}

/* The code symbols of a bfd table into p->code. */
static void add_code(struct plt_stubs *p, asymbol **v, long n)
{
	for (long i = 0; i < n; i++) {
		struct plt_code *c;

		if (!is_code(v[i]) || !bfd_asymbol_name(v[i]))
			continue;
		ARRAY_GROW(p->code, p->ncode + 1, p->code_alloc);
		c = &p->code[p->ncode++];
		c->value = bfd_asymbol_value(v[i]);
		c->name = arena_strndup(&p->names, bfd_asymbol_name(v[i]),
					strlen(bfd_asymbol_name(v[i])));
		c->global = v[i]->flags & BSF_GLOBAL;
	}
}

bool plt_bfd_read(const char *path, struct plt_stubs *out)
{
	asymbol **syms = NULL, **dynsyms = NULL, *synth = NULL;
	long nsyms, ndyn, nsynth;
	const struct bfd_api *b = libbfd_load();
	bool irelative = false;
	bfd *abfd;
	bool ok;

	memset(out, 0, sizeof(*out));
	if (!b)
		return false;
	b->init();
	bfd_diag_begin(path);
	abfd = b->openr(path, NULL);
	if (!abfd) {
		warning("%s: no @plt symbols: %s", path,
			b->errmsg(b->get_error()));
		bfd_diag_end();
		return false;
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
		struct plt_stub *st;
		uint64_t target;

		if (!name || !*name || !sec)
			continue;
		ARRAY_GROW(out->v, out->nr + 1, out->alloc);
		st = &out->v[out->nr++];
		st->addr = bfd_asymbol_value(s);
		st->limit = bfd_section_vma(sec) + bfd_section_size(sec);
		st->name = arena_strndup(&out->names, name, strlen(name));
		irelative |= irelative_target(name, &target);
	}
	if (irelative) {
		add_code(out, syms, nsyms);
		add_code(out, dynsyms, ndyn);
		if (out->ncode > 1)
			qsort(out->code, out->ncode, sizeof(*out->code),
			      plt_code_cmp);
	}
	free(synth);
out:
	free(syms);
	free(dynsyms);
	b->close(abfd);
	bfd_diag_end();
	return ok;
}

void plt_read(struct elf_file *bin, struct names *names, bool demangle,
	      uint32_t first_order, struct raw_syms *raw)
{
	struct plt_stubs p;

	if (plt_elf_read(elf_fd(bin), &p) < 0 &&
	    !plt_bfd_read(elf_path(bin), &p)) {
		plt_stubs_free(&p);
		return;
	}
	for (size_t i = 0; i < p.nr; i++) {
		struct raw_sym *r;
		char *tmp;
		size_t len;
		const char *name = plt_stub_name_len(&p, i, &len, &tmp);

		ARRAY_GROW(raw->v, raw->nr + 1, raw->alloc);
		r = &raw->v[raw->nr++];
		memset(r, 0, sizeof(*r));
		r->addr = p.v[i].addr;
		r->limit = p.v[i].limit;
		r->raw = names_intern(names, name, len);
		r->name = demangle ? demangle_name(names, r->raw) : r->raw;
		r->order = first_order + (uint32_t)i;
		r->kind = SYM_PLT;
		r->bind = 1;	/* STB_GLOBAL: the stub stands for one */
		free(tmp);
	}
	plt_stubs_free(&p);
}
