/*
 * symtab_frames() against addr2line, on the real binaries under
 * tests/resolve/ (tests/resolve/README.md says how they were made). For
 * every <case>/<binary>.addrs, each address is printed the way
 * `addr2line -f -C -i -a -p` prints it (symtab_format_addr2line) and
 * compared with <binary>.addr2line, and without inlines with
 * <binary>.addr2line-noinline.
 *
 * addr2line (binutils 2.40) is wrong in two ways, and only these two
 * differences are let through, each checked to be exactly that:
 *
 * 1. Stale discriminators. On each " (inlined by)" line it prints the
 *    discriminator of frame #0's line-table row again: translate_addresses()
 *    in binutils/addr2line.c prints its `discriminator` variable for every
 *    frame, and bfd_find_inliner_info() has no discriminator to update it
 *    with. The call sites have none: readelf --debug-dump=info shows no
 *    DW_AT_GNU_discriminator on any DW_TAG_inlined_subroutine of these
 *    binaries (c-pie 0x1332: "classify at prog.c:100 (discriminator 3)
 *    (inlined by) main at prog.c:180 (discriminator 3)"; llvm-symbolizer
 *    prints the second frame without it). We print each frame's own.
 *
 * 2. The first look-up of a function without a linkage name. For such a
 *    function (C++ templates over lambdas, main), bfd's
 *    _bfd_dwarf2_find_nearest_line() asks the ELF symbol table and
 *    answers with the closest symbol's name even when that symbol is
 *    another function; it then marks the function's name final, so later
 *    look-ups in the same process give the DWARF name. cxx-O2 0x11f4 is in
 *    an inlined copy of std::__sort<...> (DW_TAG_inlined_subroutine with
 *    that abstract origin, inside main): the first answer is "main at
 *    stl_algo.h:1937", a second `addr2line` question in the same process
 *    "__sort<...> at stl_algo.h:1937" (README.md, "history"). We always
 *    give the second. The exception applies only to frame #0 of the first
 *    address, in the file's order, whose innermost function is that one,
 *    and only with the name frames_first_lookup_name() predicts.
 *
 * 3. The same history, for callers. When the ELF symbol does start the
 *    function (a clone such as std::__introsort_loop<...> [clone
 *    .constprop.0] of a template over a lambda, which has no linkage
 *    name), that first look-up makes the symbol's name the function's
 *    for good. Until then, " (inlined by)" lines name it by DW_AT_name
 *    ("__introsort_loop<...>"). We always give the settled name. Let
 *    through only for a caller that no earlier address had as frame #0,
 *    and only with its DW_AT_name. (None in tests/resolve/; thousands in
 *    a million random addresses of a big C++ program, CGA_RESOLVE_DIR.)
 */
#include "helpers.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "symtab/symtab_int.h"

#define RESOLVE_DIR "tests/resolve"
#define MAX_SHOWN 10

struct block {
	char **lines;		/* one per frame */
	size_t n;
};

struct answers {
	uint64_t *addrs;
	struct block *blocks;
	size_t n;
};

static void block_add(struct block *b, const char *line, size_t len)
{
	b->lines = realloc(b->lines, (b->n + 1) * sizeof(*b->lines));
	assert_non_null(b->lines);
	b->lines[b->n++] = strndup(line, len);
}

/* Text in addr2line -a -p layout into one block per address. */
static void answers_parse(struct answers *a, const char *text)
{
	const char *p = text;

	memset(a, 0, sizeof(*a));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, "0x", 2)) {
			a->addrs = realloc(a->addrs,
					   (a->n + 1) * sizeof(*a->addrs));
			a->blocks = realloc(a->blocks,
					    (a->n + 1) * sizeof(*a->blocks));
			assert_non_null(a->addrs);
			assert_non_null(a->blocks);
			a->addrs[a->n] = strtoull(p, NULL, 16);
			memset(&a->blocks[a->n], 0, sizeof(a->blocks[0]));
			a->n++;
		}
		assert_true(a->n > 0);
		block_add(&a->blocks[a->n - 1], p, len);
		p += len + (nl != NULL);
	}
}

static void answers_free(struct answers *a)
{
	for (size_t i = 0; i < a->n; i++) {
		for (size_t k = 0; k < a->blocks[i].n; k++)
			free(a->blocks[i].lines[k]);
		free(a->blocks[i].lines);
	}
	free(a->blocks);
	free(a->addrs);
}

/* " (discriminator N)" at the end of line, or NULL. */
static const char *disc_suffix(const char *line)
{
	const char *s = strstr(line, " (discriminator ");

	return s && s[strlen(s) - 1] == ')' ? s : NULL;
}

/* Exception 1: expected is ours plus frame #0's discriminator again. */
static bool stale_discriminator(const struct block *ours,
				const struct block *want, size_t k)
{
	const char *first = disc_suffix(want->lines[0]);
	const char *s = disc_suffix(want->lines[k]);

	return k > 0 && first && s && !strcmp(first, s) &&
	       !disc_suffix(ours->lines[k]) &&
	       strlen(ours->lines[k]) == (size_t)(s - want->lines[k]) &&
	       !strncmp(ours->lines[k], want->lines[k],
			(size_t)(s - want->lines[k]));
}

/* Exception 2: frame #0 named as addr2line's first look-up names it. */
static bool first_lookup(const struct symtab *st, uint64_t addr,
			 const char *ours, const char *want)
{
	name_id elf = frames_first_lookup_name(st, addr);
	const char *name, *at;
	char *fixed;
	bool same;

	if (elf == NO_NAME)
		return false;
	/* "0x...: NAME at FILE:LINE" with NAME replaced */
	at = strchr(ours, ' ');
	name = strstr(ours, " at ");
	if (!at || !name)
		return false;
	name = names_str(st->names, elf);
	fixed = malloc(strlen(ours) + strlen(name) + 1);
	assert_non_null(fixed);
	memcpy(fixed, ours, (size_t)(at - ours) + 1);
	strcpy(fixed + (at - ours) + 1, name);
	strcat(fixed, strstr(ours, " at "));
	same = !strcmp(fixed, want);
	free(fixed);
	return same;
}

struct tally {
	size_t addrs, exact, explained, bad;
	size_t stale_disc, first_lookups, unsettled;	/* frames let
							 * through */
};

/* Exception 3: caller frame k named by its DW_AT_name still. */
static bool unsettled_caller(const struct symtab *st, uint32_t fn,
			     const char *ours, const char *want)
{
	static const char prefix[] = " (inlined by) ";
	const struct dfunc *f = &st->priv->funcs[fn];
	const char *settled = names_str(st->names, f->name);
	const char *dwarf = names_str(st->names, f->dwarf_name);
	size_t plen = sizeof(prefix) - 1, slen = strlen(settled);
	size_t dlen = strlen(dwarf);

	return f->dwarf_name != f->name &&
	       !strncmp(ours, prefix, plen) &&
	       !strncmp(ours + plen, settled, slen) &&
	       !strncmp(want, prefix, plen) &&
	       !strncmp(want + plen, dwarf, dlen) &&
	       !strcmp(ours + plen + slen, want + plen + dlen);
}

/* Compare one answer file; returns the number of unexplained blocks. */
static void compare(const struct symtab *st, const char *bin,
		    const struct answers *want, bool inlines, struct tally *t)
{
	struct u64map seen;	/* functions looked up before */
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct answers ours;

	assert_non_null(out);
	for (size_t i = 0; i < want->n; i++)
		symtab_format_addr2line(out, st, want->addrs[i], inlines);
	fclose(out);
	answers_parse(&ours, buf);
	free(buf);
	assert_int_equal(ours.n, want->n);
	u64map_init(&seen);
	for (size_t i = 0; i < want->n; i++) {
		const struct block *o = &ours.blocks[i], *w = &want->blocks[i];
		uint32_t fn = frames_func_at(st, want->addrs[i], 0);
		bool first = fn != NO_IDX && u64map_get(&seen, fn) ==
						     U64MAP_NONE;
		bool ok = o->n == w->n, explained = false;
		uint32_t up;

		if (fn != NO_IDX)
			u64map_put(&seen, fn, 1);
		for (size_t k = 0; ok && k < o->n; k++) {
			if (!strcmp(o->lines[k], w->lines[k]))
				continue;
			if (stale_discriminator(o, w, k)) {
				t->stale_disc++;
				explained = true;
			} else if (k == 0 && first &&
				   first_lookup(st, want->addrs[i],
						o->lines[0], w->lines[0])) {
				t->first_lookups++;
				explained = true;
			} else if (k > 0 &&
				   (up = frames_func_at(st, want->addrs[i],
							k)) != NO_IDX &&
				   u64map_get(&seen, up) == U64MAP_NONE &&
				   unsettled_caller(st, up, o->lines[k],
						    w->lines[k])) {
				t->unsettled++;
				explained = true;
			} else {
				ok = false;
			}
		}
		t->addrs++;
		if (ok && !explained)
			t->exact++;
		if (ok && explained)
			t->explained++;
		if (ok)
			continue;
		if (t->bad++ < MAX_SHOWN) {
			printf("%s%s: address %zu differs from addr2line\n",
			       bin, inlines ? "" : " (no -i)", i);
			for (size_t k = 0; k < w->n; k++)
				printf("  want %s\n", w->lines[k]);
			for (size_t k = 0; k < o->n; k++)
				printf("  ours %s\n", o->lines[k]);
		}
	}
	u64map_release(&seen);
	answers_free(&ours);
}

static void check_binary(const char *dir, const char *bin_name,
			 struct tally *total)
{
	static const struct {
		const char *suffix;
		bool inlines;
	} kinds[] = {
		{ ".addr2line", true },
		{ ".addr2line-noinline", false },
	};
	struct symtab_opts opts = { .demangle = true };
	struct arena arena;
	struct names names;
	struct symtab st;
	char path[4096];

	arena_init(&arena);
	names_init(&names, &arena);
	snprintf(path, sizeof(path), "%s/%s", dir, bin_name);
	diag_capture_begin();
	assert_int_equal(symtab_open(&st, path, &opts, &names), 0);
	free(diag_capture_end());	/* nodwarf says it has no DWARF */
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct tally t = { 0 };
		struct answers want;
		char file[4200];
		char *text;

		snprintf(file, sizeof(file), "%s%s", path, kinds[k].suffix);
		text = slurp(file, NULL);
		if (!text)
			continue;
		answers_parse(&want, text);
		free(text);
		compare(&st, path, &want, kinds[k].inlines, &t);
		printf("%-32s %-20s %4zu addresses: %4zu as addr2line, "
		       "%zu explained (%zu stale discriminators, %zu first "
		       "look-ups, %zu unsettled callers), %zu differ\n", path,
		       kinds[k].suffix, t.addrs, t.exact, t.explained,
		       t.stale_disc, t.first_lookups, t.unsettled, t.bad);
		total->addrs += t.addrs;
		total->exact += t.exact;
		total->explained += t.explained;
		total->stale_disc += t.stale_disc;
		total->first_lookups += t.first_lookups;
		total->unsettled += t.unsettled;
		total->bad += t.bad;
		answers_free(&want);
	}
	symtab_release(&st);
	names_release(&names);
	arena_release(&arena);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* CGA_RESOLVE_DIR=<dir> runs the same comparison on other cases laid
 * out the same way (a big binary of one's own, say). */
static void test_addr2line_peers(void **state)
{
	const char *dir_name = getenv("CGA_RESOLVE_DIR");
	struct tally total = { 0 };
	char **cases = NULL;
	size_t ncases = 0;
	struct dirent *de;
	DIR *top;

	(void)state;
	if (!dir_name)
		dir_name = RESOLVE_DIR;
	top = opendir(dir_name);
	if (!top) {
		printf("%s: no cases\n", dir_name);
		return;
	}
	while ((de = readdir(top))) {
		if (de->d_name[0] == '.')
			continue;
		cases = realloc(cases, (ncases + 1) * sizeof(*cases));
		assert_non_null(cases);
		cases[ncases++] = strdup(de->d_name);
	}
	closedir(top);
	qsort(cases, ncases, sizeof(*cases), name_cmp);
	for (size_t c = 0; c < ncases; c++) {
		char dir[2048];
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s", dir_name, cases[c]);
		d = opendir(dir);
		while (d && (de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char bin[256];

			if (n <= 6 || n - 6 >= sizeof(bin) ||
			    strcmp(de->d_name + n - 6, ".addrs"))
				continue;
			memcpy(bin, de->d_name, n - 6);
			bin[n - 6] = '\0';
			check_binary(dir, bin, &total);
		}
		if (d)
			closedir(d);
		free(cases[c]);
	}
	free(cases);
	printf("all: %zu addresses, %zu as addr2line, %zu explained (%zu "
	       "stale discriminators, %zu first look-ups, %zu unsettled "
	       "callers), %zu differ\n", total.addrs, total.exact,
	       total.explained, total.stale_disc, total.first_lookups,
	       total.unsettled, total.bad);
	assert_int_equal(total.bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr2line_peers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
