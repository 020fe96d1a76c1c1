/*
 * resolve/kallsyms.c: the kernel's symbols, their names not interned.
 * Which of the symbols at one address names it (a look-up takes the
 * last) must be what interning every name in the file's order into the
 * profile's names, then ordering each address's symbols by their ids,
 * would give: the way kallsyms was read before its names were left
 * alone, here the reference.
 */
#include "helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/mapped_files.h"
#include "resolve/kallsyms.h"

/* Names the profile had before kallsyms: "b_alias" and "mid" among
 * them, so that old ids and new ones meet at one address. */
static void prefill(struct names *n)
{
	static const char *const before[] = { "zzz", "mid", "b_alias",
					      "printf" };

	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++)
		names_intern(n, before[i], strlen(before[i]));
}

/* Symbol s of k is named name (s->len bytes: a mapped file's names
 * are not NUL-ended). */
static void assert_named(const struct kallsyms *k, const struct ksym *s,
			 const char *name)
{
	assert_non_null(s);
	assert_int_equal(s->len, strlen(name));
	assert_memory_equal(kallsyms_name(k, s), name, s->len);
}

struct ref {
	uint64_t addr;
	size_t name;		/* the text offset: the file's order */
	size_t len;
	name_id id;
};

static int by_line(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

static int by_addr_id(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Every symbol of path in the order kallsyms_order() gives, against
 * the reference's, with the names prefill() gives before; the look-up
 * of each address is its last symbol. Returns the number of addresses
 * with more than one symbol.
 */
static size_t check_file(const char *path)
{
	struct arena a1, a2;
	struct names lazy, eager;
	struct kallsyms k;
	struct ref *ref;
	size_t groups = 0;

	arena_init(&a1);
	arena_init(&a2);
	names_init(&lazy, &a1);
	names_init(&eager, &a2);
	prefill(&lazy);
	prefill(&eager);
	assert_int_equal(kallsyms_load(&k, path), 0);
	ref = calloc(k.n + 1, sizeof(*ref));
	for (size_t i = 0; i < k.n; i++)
		ref[i] = (struct ref){ k.syms[i].addr, k.syms[i].name,
				       k.syms[i].len, 0 };
	/* the reference: each name interned in the file's order, then
	 * each address's symbols by id */
	qsort(ref, k.n, sizeof(*ref), by_line);
	for (size_t i = 0; i < k.n; i++) {
		ref[i].id = names_intern(&eager, k.text + ref[i].name,
					 ref[i].len);
	}
	qsort(ref, k.n, sizeof(*ref), by_addr_id);
	kallsyms_order(&k, &lazy, NULL, 0);
	/* nothing was interned */
	assert_int_equal(lazy.nr, 4);
	for (size_t i = 0; i < k.n; i++) {
		const struct ksym *s = &k.syms[i];
		bool last = i + 1 == k.n || k.syms[i + 1].addr != s->addr;

		assert_true(s->addr == ref[i].addr);
		assert_named(&k, s, names_str(&eager, ref[i].id));
		if (last)
			assert_ptr_equal(kallsyms_lookup(&k, s->addr), s);
		groups += last && i && k.syms[i - 1].addr == s->addr;
	}
	free(ref);
	kallsyms_release(&k);
	names_release(&lazy);
	names_release(&eager);
	arena_release(&a1);
	arena_release(&a2);
	return groups;
}

/* Aliases of new names and old ones; a new name whose first line is at
 * another address (it takes its id there, before a name listed before
 * it at this one); the same name twice at one address; a module's; two
 * old names listed against the order of their ids; a line out of the
 * addresses' order (the kernel lists them in order; a copy may not). */
static void test_alias_order(void **state)
{
	static const char text[] =
		"ffffffff81000000 T a_first\n"
		"ffffffff81000000 T b_alias\n"
		"ffffffff81000000 D not_code\n"
		"ffffffff81000100 t zz_dup\n"
		"ffffffff81000200 T c_here\n"
		"ffffffff81000200 t zz_dup\n"
		"ffffffff81000300 t mid\n"
		"ffffffff81000300 t late\n"
		"ffffffff81000300 t mid\n"
		"ffffffff81000400 t e_mod\t[somemod]\n"
		"ffffffff81000400 t d_mod\t[somemod]\n"
		"ffffffff81000500 W weak_one\n"
		"ffffffff81000500 T a_first\n"
		"ffffffff81000600 T printf\n"
		"ffffffff81000600 T zzz\n"
		"ffffffff81000050 t early\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct kallsyms k;
	struct arena a;
	struct names n;

	(void)state;
	assert_int_equal(check_file(path), 6);
	/* and by name, what the look-ups give */
	arena_init(&a);
	names_init(&n, &a);
	prefill(&n);
	assert_int_equal(kallsyms_load(&k, path), 0);
	kallsyms_order(&k, &n, NULL, 0);
	/* b_alias had an id: a_first's is new, later */
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000000ull), "a_first");
	/* zz_dup's id came first, at 0x100 */
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000210ull), "c_here");
	/* "mid" had an id */
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000300ull), "late");
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000400ull), "d_mod");
	/* a_first's id is from its first line */
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000500ull), "weak_one");
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000060ull), "early");
	/* both had ids: zzz's is the older */
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000600ull), "printf");
	assert_null(kallsyms_lookup(&k, 0xffffffff80000000ull));
	kallsyms_release(&k);
	names_release(&n);
	arena_release(&a);
	remove_temp(path);
}

/*
 * A symbol table taken with names of its own (perf_preload.h) when the
 * profile had 4 names, then a name interned into the profile's after
 * it: the aliases are ordered as if the table's names had been interned
 * then, in the order of their ids, and the later name after them.
 */
static void test_before_tables(void **state)
{
	static const char text[] =
		"ffffffff81000100 T a_first\n"
		"ffffffff81000100 T c_here\n"
		"ffffffff81000200 T x_after\n"
		"ffffffff81000200 T late\n"
		"ffffffff81000300 T new_one\n"
		"ffffffff81000300 T mid\n";
	static const char *const table[] = { "c_here", "mid", "a_first",
					     "late" };
	char *path = write_temp(text, sizeof(text) - 1);
	struct arena a1, a2, a3;
	struct names main_names, own, eager;
	struct kallsyms_before before;
	struct kallsyms k;

	(void)state;
	arena_init(&a1);
	arena_init(&a2);
	arena_init(&a3);
	names_init(&main_names, &a1);
	names_init(&own, &a2);
	names_init(&eager, &a3);
	prefill(&main_names);
	prefill(&eager);
	for (size_t i = 0; i < 4; i++) {
		names_intern(&own, table[i], strlen(table[i]));
		names_intern(&eager, table[i], strlen(table[i]));
	}
	before = (struct kallsyms_before){ &own, main_names.nr };
	names_intern(&main_names, "x_after", 7);
	names_intern(&eager, "x_after", 7);
	assert_int_equal(kallsyms_load(&k, path), 0);
	kallsyms_order(&k, &main_names, &before, 1);
	for (size_t i = 0; i + 1 < k.n; i += 2) {
		/* each address's two symbols, by their ids in eager */
		name_id x = names_intern(&eager, kallsyms_name(&k, &k.syms[i]),
					 k.syms[i].len);
		name_id y = names_intern(&eager,
					 kallsyms_name(&k, &k.syms[i + 1]),
					 k.syms[i + 1].len);

		assert_true(x < y);
	}
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000100ull), "a_first");
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000200ull), "x_after");
	assert_named(&k, kallsyms_lookup(&k, 0xffffffff81000300ull), "new_one");
	kallsyms_release(&k);
	names_release(&main_names);
	names_release(&own);
	names_release(&eager);
	arena_release(&a1);
	arena_release(&a2);
	arena_release(&a3);
	remove_temp(path);
}

/* This machine's kernel, where it lists addresses (hundreds of
 * addresses with aliases on Debian's), against the reference. */
static void test_proc_kallsyms(void **state)
{
	struct kallsyms k;
	int ret;

	(void)state;
	ret = kallsyms_load(&k, "/proc/kallsyms");
	kallsyms_release(&k);
	if (ret)
		skip();
	check_file("/proc/kallsyms");
}

/* The address as strtoull() reads it, whether the kernel's 16 digits
 * (read by hand) or another form: fewer digits, capitals, "0x", a
 * sign, a space before, more than 16 digits with zeros first. */
static void test_address_forms(void **state)
{
	static const char text[] =
		"ffffffff81000000 T a\n"
		"1 T b\n"
		"FFFFFFFF8100ABCD T c\n"
		"0x20 T d\n"
		"+30 T e\n"
		" 40 T f\n"
		"00000000000000000050 T g\n"
		"0000000000000060 T h\n";
	static const uint64_t want[] = {
		0x1, 0x20, 0x30, 0x40, 0x50, 0x60, 0xffffffff81000000ull,
		0xffffffff8100abcdull,
	};
	char *path = write_temp(text, sizeof(text) - 1);
	struct kallsyms k;

	(void)state;
	assert_int_equal(kallsyms_load(&k, path), 0);
	assert_int_equal(k.n, 8);
	for (size_t i = 0; i < k.n; i++)
		assert_int_equal(k.syms[i].addr, want[i]);
	kallsyms_release(&k);
	remove_temp(path);
}

/*
 * A regular file is read through a mapping, which is noted for a bus
 * error's message (the file cut short by another program while it is
 * read): its name while loaded, nothing once released. /proc/kallsyms
 * is read in pieces, never mapped.
 */
static void test_mapped_named(void **state)
{
	static const char text[] = "ffffffff81000000 T _stext\n"
				   "ffffffff81000100 t helper\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct kallsyms k;
	const char *at;

	(void)state;
	assert_int_equal(kallsyms_load(&k, path), 0);
	assert_int_equal(k.n, 2);
	assert_true(k.mapped > 0);
	at = k.text;
	assert_string_equal(mapped_files_path_at(at), path);
	assert_string_equal(mapped_files_path_at(at + sizeof(text) - 2), path);
	kallsyms_release(&k);
	assert_null(mapped_files_path_at(at));
	if (kallsyms_load(&k, "/proc/kallsyms") == 0) {
		assert_int_equal(k.mapped, 0);
		assert_null(mapped_files_path_at(k.text));
		kallsyms_release(&k);
	}
	remove_temp(path);
}

/*
 * The recording's reference symbol (_text): found at its address among
 * the aliases there, elsewhere (another boot), or not at all.
 */
static void test_check_ref(void **state)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 t start_here\n"
		"ffffffff81000200 T _etext_like\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct kallsyms k;
	uint64_t found = 0;

	(void)state;
	assert_int_equal(kallsyms_load(&k, path), 0);
	assert_int_equal(kallsyms_check_ref(&k, "_text", 5,
					    0xffffffff81000000ull, &found), 1);
	assert_int_equal(kallsyms_check_ref(&k, "_stext", 6,
					    0xffffffff81000000ull, &found), 1);
	/* the kernel placed 0x3c00000 lower in the recording's boot */
	assert_int_equal(kallsyms_check_ref(&k, "_text", 5,
					    0xffffffff7d400000ull, &found), 0);
	assert_int_equal(found, 0xffffffff81000000ull);
	/* a name at the address that only begins as the symbol's */
	assert_int_equal(kallsyms_check_ref(&k, "_tex", 4,
					    0xffffffff81000000ull, &found), -1);
	assert_int_equal(kallsyms_check_ref(&k, "_text", 5,
					    0xffffffff81000100ull, &found), 0);
	kallsyms_release(&k);
	remove_temp(path);
}

/* a and b the same table: symbols, names (their bytes, and their
 * offsets' order: the file's) and the symbol each one's address looks
 * up. A mapped file's names are at their offsets in it, a copy's at
 * theirs in the copy. */
static void assert_same_table(const struct kallsyms *a,
			      const struct kallsyms *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct ksym *x = &a->syms[i], *y = &b->syms[i];

		assert_true(x->addr == y->addr);
		assert_int_equal(x->len, y->len);
		assert_memory_equal(kallsyms_name(a, x), kallsyms_name(b, y),
				    x->len);
		for (size_t j = i + 1; j < a->n && j < i + 8; j++)
			assert_true((x->name < a->syms[j].name) ==
				    (y->name < b->syms[j].name));
		assert_int_equal(kallsyms_lookup(a, x->addr) - a->syms,
				 kallsyms_lookup(b, y->addr) - b->syms);
	}
}

/*
 * The file read in pieces of a few bytes (every line cut across them,
 * longer than the buffer, which grows) up to one piece for the whole:
 * the same table. Lines of every kind, a module's, aliases, one out of
 * the addresses' order, a name of 5,000 bytes, and a last line without
 * its newline.
 */
static void test_pieces(void **state)
{
	static const size_t pieces[] = { 1, 2, 3, 7, 16, 61, 4096, 65536 };
	size_t cap = 64 << 10, len = 0;
	char *text = malloc(cap), *path;
	struct kallsyms whole, k;

	(void)state;
	for (unsigned i = 0; i < 400; i++) {
		static const char types[] = "tTwWdDbr";
		uint64_t addr = 0xffffffff81000000ull + (i / 3) * 0x40;

		if (i == 152)
			addr = 0xffffffff80ff0000ull;
		len += (size_t)snprintf(text + len, cap - len,
					"%016llx %c sym_%u%s\n",
					(unsigned long long)addr, types[i % 8],
					i % 5 ? i : i / 5,
					i % 11 == 0 ? "\t[some_mod]" : "");
		if (i == 200) {
			len += (size_t)snprintf(text + len, cap - len,
						"ffffffff81001000 T ");
			for (int c = 0; c < 5000; c++)
				text[len++] = (char)('a' + c % 26);
			text[len++] = '\n';
		}
	}
	len += (size_t)snprintf(text + len, cap - len,
				"ffffffff82000000 T the_last_one");
	path = write_temp(text, len);
	assert_int_equal(kallsyms_load_pieces(&whole, path, 1 << 20), 0);
	assert_int_equal(whole.n, 202);
	assert_named(&whole, &whole.syms[whole.n - 1], "the_last_one");
	assert_non_null(kallsyms_lookup(&whole, 0xffffffff81001000ull));
	assert_int_equal(kallsyms_lookup(&whole, 0xffffffff81001000ull)->len,
			 5000);
	assert_int_equal(kallsyms_lookup(&whole, 0xffffffff80ff0000ull)->addr,
			 0xffffffff80ff0000ull);
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		assert_int_equal(kallsyms_load_pieces(&k, path, pieces[i]), 0);
		assert_same_table(&whole, &k);
		kallsyms_release(&k);
	}
	/* a regular file: through a mapping, its names left there */
	assert_int_equal(kallsyms_load(&k, path), 0);
	assert_int_equal(k.mapped, len);
	assert_int_equal(whole.mapped, 0);
	assert_same_table(&whole, &k);
	kallsyms_release(&k);
	kallsyms_release(&whole);
	remove_temp(path);
	free(text);
}

/*
 * A name ends at a space, a tab, a NUL or its line's end, wherever that
 * falls in the eight bytes the mapped read looks at a step: names of 1
 * to 17 bytes, each way.
 */
static void test_name_ends(void **state)
{
	static const char ends[] = { ' ', '\t', '\0', '\n' };
	char text[4096];
	size_t len = 0, want = 0;
	struct kallsyms k, pieces;
	char *path;

	(void)state;
	for (size_t e = 0; e < sizeof(ends); e++)
		for (size_t n = 1; n <= 17; n++) {
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%016zx T ", 0x1000 + want * 16);
			for (size_t c = 0; c < n; c++)
				text[len++] = (char)('a' + c);
			text[len++] = ends[e];
			if (ends[e] != '\n')
				len += (size_t)snprintf(text + len,
							sizeof(text) - len,
							"rest\n");
			want++;
		}
	path = write_temp(text, len);
	assert_int_equal(kallsyms_load(&k, path), 0);
	assert_int_equal(kallsyms_load_pieces(&pieces, path, 3), 0);
	assert_int_equal(k.n, want);
	for (size_t i = 0; i < k.n; i++)
		assert_int_equal(k.syms[i].len, i % 17 + 1);
	assert_same_table(&k, &pieces);
	kallsyms_release(&k);
	kallsyms_release(&pieces);
	remove_temp(path);
}

/* This machine's /proc/kallsyms (no size: the room grows) in pieces,
 * where it lists addresses */
static void test_proc_pieces(void **state)
{
	struct kallsyms whole, k;

	(void)state;
	if (kallsyms_load(&whole, "/proc/kallsyms")) {
		kallsyms_release(&whole);
		skip();
	}
	assert_int_equal(kallsyms_load_pieces(&k, "/proc/kallsyms", 777), 0);
	assert_same_table(&whole, &k);
	kallsyms_release(&k);
	kallsyms_release(&whole);
}

/* A line that is not one: its number, as before */
static void test_bad_line(void **state)
{
	static const char text[] = "ffffffff81000000 T ok\nnot a line\n";
	char *path = write_temp(text, sizeof(text) - 1);
	struct kallsyms k;
	char *said;

	(void)state;
	diag_capture_begin();
	assert_int_equal(kallsyms_load(&k, path), -1);
	said = diag_capture_end();
	assert_non_null(strstr(said, ":2: not a kallsyms line"));
	free(said);
	/* read in pieces, the same */
	diag_capture_begin();
	assert_int_equal(kallsyms_load_pieces(&k, path, 5), -1);
	said = diag_capture_end();
	assert_non_null(strstr(said, ":2: not a kallsyms line"));
	free(said);
	remove_temp(path);
}

/*
 * A stream that is no kallsyms (--kallsyms=/dev/zero, a pipe of a
 * binary): the read stops at its first line, not at its end, which
 * /dev/zero never reaches (it grew until the memory ran out). A FIFO
 * fed 64 MiB of zeros by a child: the child must see the read end
 * closed before it has written them all.
 */
static void test_stream_not_kallsyms(void **state)
{
	char dir[] = "/tmp/cganalyze-kallsyms-XXXXXX", path[64];
	struct kallsyms k;
	char *said;
	pid_t pid;
	int status;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static char zeros[1 << 16];
		int fd;

		signal(SIGPIPE, SIG_IGN);
		fd = open(path, O_WRONLY);
		for (int i = 0; fd >= 0 && i < 1024; i++) {
			size_t at = 0;

			while (at < sizeof(zeros)) {
				ssize_t w = write(fd, zeros + at,
						  sizeof(zeros) - at);

				if (w < 0 && errno == EPIPE)
					_exit(0);	/* stopped early */
				if (w < 0)
					_exit(2);
				at += (size_t)w;
			}
		}
		_exit(1);	/* read to the end */
	}
	diag_capture_begin();
	assert_int_equal(kallsyms_load(&k, path), -1);
	said = diag_capture_end();
	assert_non_null(strstr(said, ":1: not a kallsyms line"));
	free(said);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alias_order),
		cmocka_unit_test(test_before_tables),
		cmocka_unit_test(test_proc_kallsyms),
		cmocka_unit_test(test_address_forms),
		cmocka_unit_test(test_mapped_named),
		cmocka_unit_test(test_check_ref),
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_name_ends),
		cmocka_unit_test(test_proc_pieces),
		cmocka_unit_test(test_bad_line),
		cmocka_unit_test(test_stream_not_kallsyms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
