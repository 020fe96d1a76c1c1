#include "helpers.h"

#include <bzlib.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/diag.h"

static char *capture_buf;
static size_t capture_len;
static FILE *capture;

void diag_capture_begin(void)
{
	capture = open_memstream(&capture_buf, &capture_len);
	assert_non_null(capture);
	diag_set_sink(capture);
}

char *diag_capture_end(void)
{
	char *s;

	diag_set_sink(NULL);
	fclose(capture);
	capture = NULL;
	s = capture_buf;
	capture_buf = NULL;
	return s;
}

char *write_temp(const void *data, size_t len)
{
	char dir[] = "/tmp/cga-test-XXXXXX";
	char *path;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = malloc(strlen(dir) + 16);
	assert_non_null(path);
	sprintf(path, "%s/profile", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

void remove_temp(char *path)
{
	char *slash;

	unlink(path);
	slash = strrchr(path, '/');
	*slash = '\0';
	rmdir(path);
	free(path);
}

int read_path(struct profile *p, const char *path, const struct read_opts *o,
	      char **diag)
{
	struct read_opts none = { 0 };
	int ret;

	diag_capture_begin();
	ret = read_profile(p, path, o ? o : &none);
	if (ret == 0)
		profile_finish(p);
	*diag = diag_capture_end();
	return ret;
}

int read_text(struct profile *p, const char *text, long len,
	      const struct read_opts *o, char **diag)
{
	size_t n = len < 0 ? strlen(text) : (size_t)len;
	char *path = write_temp(text, n);
	int ret = read_path(p, path, o, diag);

	remove_temp(path);
	return ret;
}

uint32_t find_func(const struct profile *p, const char *name)
{
	for (size_t f = 0; f < p->nfuncs; f++)
		if (!strcmp(profile_str(p, p->funcs[f].name), name))
			return (uint32_t)f;
	return NO_ID;
}

uint32_t find_call(const struct profile *p, const char *caller,
		   const char *callee)
{
	for (size_t c = 0; c < p->ncalls; c++)
		if (!strcmp(profile_str(p, p->funcs[p->calls[c].caller].name), caller) &&
		    !strcmp(profile_str(p, p->funcs[p->calls[c].callee].name), callee))
			return (uint32_t)c;
	return NO_ID;
}

static uint32_t spec_func(struct profile *p, const char *name, size_t len)
{
	name_id n = names_intern(&p->names, name, len);

	return profile_func(p, NO_NAME, NO_NAME, n);
}

void profile_from_spec(struct profile *p, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *tok;

	profile_event(p, names_intern(&p->names, "Ir", 2));
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *gt = strchr(tok, '>');

		if (gt) {
			char *c1 = strchr(gt, ':');
			char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
			uint32_t a, b, call;

			assert_non_null(c1);
			a = spec_func(p, tok, (size_t)(gt - tok));
			b = spec_func(p, gt + 1, (size_t)(c1 - gt - 1));
			call = profile_call(p, a, b);
			profile_call_add_count(p, call,
					       strtoull(c1 + 1, NULL, 10));
			if (c2) {
				profile_call_incl(p, call)[0] += strtoull(c2 + 1, NULL, 10);
				p->calls_have_incl = true;
			}
		} else {
			char *colon = strchr(tok, ':');
			uint32_t f;

			assert_non_null(colon);
			f = spec_func(p, tok, (size_t)(colon - tok));
			profile_self(p, f)[0] += strtoull(colon + 1, NULL, 10);
		}
	}
	free(copy);
	profile_finish(p);
}

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

unsigned char *gzip_bytes(const void *data, size_t len, size_t *out_len)
{
	z_stream z;
	unsigned char *out;
	size_t cap;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip wrapper, as gzip(1) writes, not a zlib one */
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8,
				      Z_DEFAULT_STRATEGY), Z_OK);
	cap = deflateBound(&z, (uLong)len);
	out = malloc(cap);
	assert_non_null(out);
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*out_len = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

unsigned char *bzip2_bytes(const void *data, size_t len, size_t *out_len)
{
	unsigned int n = (unsigned int)(len + len / 100 + 600);
	unsigned char *out = malloc(n);

	assert_non_null(out);
	assert_int_equal(BZ2_bzBuffToBuffCompress((char *)out, &n, (char *)data,
						  (unsigned int)len, 9, 0, 0),
			 BZ_OK);
	*out_len = n;
	return out;
}

/* Two readings of one input gave the same functions, calls and costs. */
void assert_same_profile(const struct profile *a,
				const struct profile *b)
{
	assert_int_equal(a->nfuncs, b->nfuncs);
	assert_int_equal(a->ncalls, b->ncalls);
	assert_int_equal(a->nevents, b->nevents);
	assert_int_equal(a->npos, b->npos);
	for (size_t f = 0; f < a->nfuncs; f++) {
		assert_string_equal(profile_str(a, a->funcs[f].name),
				    profile_str(b, b->funcs[f].name));
		assert_memory_equal(profile_self(a, (uint32_t)f),
				    profile_self(b, (uint32_t)f),
				    a->nevents * sizeof(uint64_t));
	}
	for (size_t c = 0; c < a->ncalls; c++) {
		assert_int_equal(a->calls[c].caller, b->calls[c].caller);
		assert_int_equal(a->calls[c].callee, b->calls[c].callee);
		assert_int_equal(profile_call_count(a, c),
				 profile_call_count(b, c));
		for (size_t e = 0; e < a->nevents; e++)
			assert_int_equal(profile_call_incl_at(a, (uint32_t)c, e),
					 profile_call_incl_at(b, (uint32_t)c, e));
	}
	if (a->npos)
		assert_memory_equal(a->pos_cost, b->pos_cost,
				    a->npos * a->stride * sizeof(uint64_t));
	for (size_t i = 0; i < a->npos; i++) {
		assert_int_equal(a->pos[i].func, b->pos[i].func);
		assert_string_equal(profile_str(a, a->pos[i].file),
				    profile_str(b, b->pos[i].file));
		assert_int_equal(a->pos[i].line, b->pos[i].line);
		assert_int_equal(a->pos[i].addr, b->pos[i].addr);
	}
	assert_int_equal(a->has_instr, b->has_instr);
	assert_int_equal(a->has_line, b->has_line);
	assert_int_equal(a->ncallsites, b->ncallsites);
	for (size_t i = 0; i < a->ncallsites; i++) {
		assert_int_equal(a->callsites[i].pos, b->callsites[i].pos);
		assert_int_equal(a->callsites[i].call, b->callsites[i].call);
		assert_int_equal(a->callsites[i].count, b->callsites[i].count);
		assert_memory_equal(profile_callsite_incl(a, (uint32_t)i),
				    profile_callsite_incl(b, (uint32_t)i),
				    a->nevents * sizeof(uint64_t));
	}
	assert_int_equal(a->njumps, b->njumps);
	for (size_t j = 0; j < a->njumps; j++) {
		const struct pjump *x = &a->jumps[j], *y = &b->jumps[j];

		assert_int_equal(x->from, y->from);
		assert_string_equal(profile_str(a, x->to_file),
				    profile_str(b, y->to_file));
		assert_int_equal(x->to_line, y->to_line);
		assert_int_equal(x->to_addr, y->to_addr);
		assert_int_equal(x->executed, y->executed);
		assert_int_equal(x->followed, y->followed);
		assert_int_equal(x->conditional, y->conditional);
	}
}

void elf_text_range(Elf *elf, uint64_t *lo, uint64_t *hi)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		assert_non_null(gelf_getshdr(scn, &sh));
		if (!strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".text")) {
			*lo = sh.sh_addr;
			*hi = sh.sh_addr + sh.sh_size;
			return;
		}
	}
	fail_msg("no .text");
}
