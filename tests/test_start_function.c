/*
 * start_function.c: the function the report opens on is the program's
 * own heaviest, not the dynamic loader's entry, a start-up routine or
 * an address; and where the program's object is unknown, the heaviest
 * outside the loader.
 */
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

#include "print/start_function.h"

/* "name=cost" pairs: each function's inclusive cost, by hand */
struct cost {
	const char *name;
	double incl;
};

static const struct {
	const char *what, *profile;
	struct cost costs[8];
	const char *want;
} cases[] = {
	{ "the loader is heaviest: main, in the program",
	  "cmd: ./prog\nevents: Ir\n"
	  "ob=/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\nfn=0x000000000001ab70\n0 1\n"
	  "fn=_dl_start\n0 1\n"
	  "ob=/work/prog\nfn=_start\n0 1\nfn=(below main)\n0 1\nfn=main\n0 1\nfn=work\n0 1\n",
	  { { "0x000000000001ab70", 1000 }, { "_dl_start", 900 }, { "_start", 120 },
	    { "(below main)", 110 }, { "main", 100 }, { "work", 90 } },
	  "main" },
	{ "a thread's work is the program's heaviest",
	  "cmd: ./prog\nevents: Ir\n"
	  "ob=/lib/libc.so.6\nfn=clone\n0 1\nfn=start_thread\n0 1\n"
	  "ob=/work/prog\nfn=main\n0 1\nfn=work\n0 1\n",
	  { { "clone", 300 }, { "start_thread", 300 }, { "main", 100 }, { "work", 250 } },
	  "work" },
	{ "no main: the command's object",
	  "cmd: /usr/bin/prog --fast\nevents: Ir\n"
	  "ob=/lib/ld-linux.so.2\nfn=_dl_start\n0 1\n"
	  "ob=/lib/libc.so.6\nfn=qsort\n0 1\n"
	  "ob=/opt/prog\nfn=0x401000\n0 1\nfn=run\n0 1\n",
	  { { "_dl_start", 1000 }, { "qsort", 70 }, { "0x401000", 80 }, { "run", 50 } },
	  "run" },
	{ "no program object: outside the loader and the kernel",
	  "cmd: ./other\nevents: Ir\n"
	  "ob=/lib/ld-linux.so.2\nfn=_dl_start\n0 1\n"
	  "ob=[kernel.kallsyms]\nfn=do_syscall\n0 1\n"
	  "ob=/lib/libc.so.6\nfn=qsort\n0 1\nfn=__libc_start_main@@GLIBC_2.34\n0 1\n",
	  { { "_dl_start", 900 }, { "do_syscall", 500 }, { "qsort", 60 },
	    { "__libc_start_main@@GLIBC_2.34", 400 } },
	  "qsort" },
	{ "objects unknown: main's (none) is the program's",
	  "events: Ir\nfn=_start\n0 1\nfn=main\n0 1\nfn=helper\n0 1\n",
	  { { "_start", 100 }, { "main", 100 }, { "helper", 40 } },
	  "main" },
	{ "a tie goes to main",
	  "events: Ir\nob=/p\nfn=run\n0 1\nfn=main\n0 1\n",
	  { { "run", 100 }, { "main", 100 } },
	  "main" },
	{ "IgProf's unnamed function is an address",
	  "events: Ir\nob=./prog\nfn=@?0x555555555315\n0 1\nfn=main\n0 1\n",
	  { { "@?0x555555555315", 100 }, { "main", 40 } },
	  "main" },
	{ "nothing but addresses: the heaviest",
	  "events: Ir\nob=/p\nfn=0x10\n0 1\nfn=0x20\n0 1\n",
	  { { "0x10", 5 }, { "0x20", 7 } },
	  "0x20" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct profile p;
		char *diag;
		double *incl;
		uint32_t f;

		profile_init(&p);
		assert_int_equal(read_text(&p, cases[i].profile, -1, NULL, &diag), 0);
		free(diag);
		incl = calloc(p.nfuncs + 1, sizeof(*incl));
		for (const struct cost *c = cases[i].costs; c->name; c++)
			incl[find_func(&p, c->name)] = c->incl;
		f = start_function(&p, incl, 1);
		assert_int_not_equal(f, NO_ID);
		if (strcmp(profile_str(&p, p.funcs[f].name), cases[i].want))
			fail_msg("%s: %s, not %s", cases[i].what,
				 profile_str(&p, p.funcs[f].name), cases[i].want);
		free(incl);
		profile_release(&p);
	}
}

/* a stride: the column of one event among several */
static void test_stride(void **state)
{
	struct profile p;
	char *diag;
	/* main, work by two events: work is heavier in the second */
	const double incl[] = { 10, 10, 5, 20 };

	(void)state;
	profile_init(&p);
	assert_int_equal(read_text(&p, "events: A B\nob=/p\nfn=main\n0 1 1\n"
				   "fn=work\n0 1 1\n", -1, NULL, &diag), 0);
	free(diag);
	assert_string_equal(profile_str(&p, p.funcs[start_function(&p, incl, 2)].name),
			    "main");
	assert_string_equal(profile_str(&p, p.funcs[start_function(&p, incl + 1, 2)].name),
			    "work");
	profile_release(&p);
}

static void test_empty(void **state)
{
	struct profile p;

	(void)state;
	profile_init(&p);
	assert_int_equal(start_function(&p, NULL, 1), NO_ID);
	profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
