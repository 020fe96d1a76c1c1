/*
 * IgProf's buffers handed on in one pass (read_opts.part_done,
 * read_igprof.c): each buffer as handed on equals the buffer read alone
 * with --part=N, function by function (self, inclusive, count and peak
 * of every event), arc by arc (count and inclusive costs, those of no
 * cost too) and stack by stack (the values on each path), on
 * tests/inputs/igprof/perf.txt (two buffers, the second beginning three
 * frames deep) and buffers.txt (bench/igprof-buffers.py 40 12 7: 40
 * buffers, 25 of which begin below the stack the one before left, a
 * sum and a maximum counter, two FNs of one name). And a file of many
 * buffers of a line each is read in time and memory of the file.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/parts.h"
#include "read/read.h"

/* A profile as text, in an order of names: what the two must share */
struct text {
	char **lines;
	size_t n, alloc;
};

static void add(struct text *t, char *line)
{
	if (t->n == t->alloc) {
		t->alloc = t->alloc * 2 + 16;
		t->lines = realloc(t->lines, t->alloc * sizeof(*t->lines));
		assert_non_null(t->lines);
	}
	t->lines[t->n++] = line;
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *fname(const struct profile *p, uint32_t f)
{
	return profile_str(p, p->funcs[f].name);
}

/* event e's costs of a row, by the events' names */
static void put_row(const struct profile *p, char *buf, size_t size,
		    const char *what, const uint64_t *row)
{
	size_t n = strlen(buf);

	for (uint32_t e = 0; e < p->nevents; e++)
		n += (size_t)snprintf(buf + n, size - n, " %s.%s=%llu", what,
				      profile_str(p, p->events[e].name),
				      (unsigned long long)row[e]);
}

static bool zero(const struct profile *p, const uint64_t *row)
{
	for (uint32_t e = 0; e < p->nevents; e++)
		if (row[e])
			return false;
	return true;
}

/* the path of stack s, outermost first */
static size_t put_path(const struct profile *p, uint32_t s, char *buf,
		       size_t size)
{
	size_t n = 0;

	if (p->stacks[s].caller != NO_ID)
		n = put_path(p, p->stacks[s].caller, buf, size);
	return n + (size_t)snprintf(buf + n, size - n, "/%s",
				    fname(p, p->stacks[s].func));
}

static void as_text(const struct profile *p, struct text *t)
{
	uint64_t *row = calloc(p->stride + 1, sizeof(*row));
	char buf[4096];

	memset(t, 0, sizeof(*t));
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		const uint64_t *rows[] = {
			profile_self(p, f),
			profile_func_row(p, p->func_incl, f),
			profile_func_row(p, p->func_count, f),
			profile_func_row(p, p->func_peak, f) };
		const char *what[] = { "self", "incl", "count", "peak" };

		/* read alone, the buffer has every function of the file */
		if (zero(p, rows[0]) && zero(p, rows[1]) &&
		    zero(p, rows[2]) && zero(p, rows[3]))
			continue;
		snprintf(buf, sizeof(buf), "fn %s", fname(p, f));
		for (size_t i = 0; i < 4; i++)
			put_row(p, buf, sizeof(buf), what[i], rows[i]);
		add(t, strdup(buf));
	}
	for (uint32_t c = 0; c < p->ncalls; c++) {
		snprintf(buf, sizeof(buf), "arc %s>%s calls=%llu",
			 fname(p, p->calls[c].caller),
			 fname(p, p->calls[c].callee),
			 (unsigned long long)pcall_count(&p->calls[c],
							 p->big_counts));
		put_row(p, buf, sizeof(buf), "incl",
			profile_call_incl_row(p, c, row));
		add(t, strdup(buf));
	}
	for (size_t v = 0; v < p->nstack_values; v++) {
		const struct pstack_value *sv = &p->stack_values[v];
		size_t n = put_path(p, sv->stack, buf, sizeof(buf));

		snprintf(buf + n, sizeof(buf) - n, " %s=%llu,%llu",
			 profile_str(p, p->events[sv->event].name),
			 (unsigned long long)sv->value,
			 (unsigned long long)sv->count);
		add(t, strdup(buf));
	}
	if (t->n > 1)
		qsort(t->lines, t->n, sizeof(*t->lines), line_cmp);
	free(row);
}

static void text_free(struct text *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
}

struct got {
	const char *path;
	size_t n;		/* buffers handed on */
	uint32_t count_event;	/* by name, checked */
	bool counts_by_event;
};

/* A buffer handed on: the buffer read alone must be the same */
static void compare(void *ctx, struct profile *part, const struct ppart *pt)
{
	struct got *g = ctx;
	struct read_opts ro = { .part = pt->ordinal, .want_stacks = true };
	struct profile alone;
	struct text a, b;

	g->n++;
	assert_int_equal(pt->ordinal, g->n);
	profile_init(&alone);
	/* not read_path(): its capture of messages is the outer read's */
	assert_int_equal(read_profile(&alone, g->path, &ro), 0);
	as_text(part, &a);
	as_text(&alone, &b);
	assert_true(a.n > 0);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.lines[i], b.lines[i]);
	assert_int_equal(part->counts_by_event, alone.counts_by_event);
	assert_string_equal(profile_str(part, part->events[part->count_event]
					.name),
			    profile_str(&alone, alone.events[alone.count_event]
					.name));
	text_free(&a);
	text_free(&b);
	profile_release(&alone);
}

static void check_buffers(const char *path, size_t nbuffers)
{
	struct got g = { .path = path };
	struct read_opts ro = { .want_stacks = true, .part_done = compare,
				.part_ctx = &g };
	struct profile p;
	char *diag;

	profile_init(&p);
	assert_int_equal(read_path(&p, path, &ro, &diag), 0);
	free(diag);
	assert_int_equal(g.n, nbuffers);
	assert_int_equal(p.nparts, nbuffers);
	profile_release(&p);
}

static void test_two_buffers(void **state)
{
	(void)state;
	check_buffers("tests/inputs/igprof/perf.txt", 2);
}

static void test_forty_buffers(void **state)
{
	(void)state;
	check_buffers("tests/inputs/igprof/buffers.txt", 40);
}

/* --part=N in the pass: only that buffer is handed on */
static void count_only(void *ctx, struct profile *part, const struct ppart *pt)
{
	(void)part;
	*(uint64_t *)ctx = pt->ordinal;
}

static void test_part_chosen(void **state)
{
	uint64_t seen = 0;
	struct read_opts ro = { .part = 7, .want_stacks = true,
				.part_done = count_only, .part_ctx = &seen };
	struct profile p;
	char *diag;

	(void)state;
	profile_init(&p);
	assert_int_equal(read_path(&p, "tests/inputs/igprof/buffers.txt", &ro,
				   &diag), 0);
	free(diag);
	assert_int_equal(seen, 7);
	profile_release(&p);
}

struct tally {
	size_t n;
	size_t funcs;		/* most functions in a part handed on */
};

static void tally(void *ctx, struct profile *part, const struct ppart *pt)
{
	struct tally *t = ctx;

	(void)pt;
	t->n++;
	if (part->nfuncs > t->funcs)
		t->funcs = part->nfuncs;
}

/*
 * 50000 buffers of one line, each defining a new function: a buffer
 * handed on holds its own functions, not the file's (copying the
 * file's every time would make 1.25e9 copies), and the reading is
 * linear (well under the seconds a quadratic one would take).
 */
static void test_many_tiny_buffers(void **state)
{
	const size_t n = 50000;
	size_t size = n * 64 + 64, len;
	char *text = malloc(size);
	struct tally t = { 0 };
	struct read_opts ro = { .want_stacks = true, .part_done = tally,
				.part_ctx = &t };
	struct profile p;
	struct timespec a, b;
	char *diag;

	(void)state;
	assert_non_null(text);
	len = (size_t)snprintf(text, size, "P=(ID=1 N=(./x) T=0.01)\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, size - len,
					"C1 FN%zu=(F%zu=(x)+%zu N=(f%zu))+0 "
					"V%zu=(T):(1,1,1)\n", i, i, i + 1, i, i);
	profile_init(&p);
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(read_text(&p, text, (long)len, &ro, &diag), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	free(diag);
	assert_int_equal(t.n, n);
	assert_int_equal(t.funcs, 1);
	assert_int_equal(p.nfuncs, n);
	/* about 0.1 s here; all the functions copied each time: minutes */
	assert_true((double)(b.tv_sec - a.tv_sec) +
		    (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 10.0);
	profile_release(&p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_buffers),
		cmocka_unit_test(test_forty_buffers),
		cmocka_unit_test(test_part_chosen),
		cmocka_unit_test(test_many_tiny_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
