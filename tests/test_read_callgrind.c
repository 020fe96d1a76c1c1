/*
 * The Callgrind reader (src/read/callgrind/), one grammar element at a
 * time. Each case is a small profile text read through read_text(); the
 * checks look at the resulting struct profile and at the diagnostics.
 * Quirk numbers (Qn) refer to FORMAT-NOTES.md.
 */
#include "helpers.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/diag.h"

/* ---- helpers ---- */

struct res {
	struct profile p;
	char *diag;
	int ret;
};

static void rd_opts(struct res *r, const char *text,
		    const struct read_opts *o)
{
	profile_init(&r->p);
	r->ret = read_text(&r->p, text, -1, o, &r->diag);
}

static void rd(struct res *r, const char *text)
{
	rd_opts(r, text, NULL);
}

static void rd_done(struct res *r)
{
	profile_release(&r->p);
	free(r->diag);
}

/* Read text that must be accepted without any diagnostic. */
static void rd_clean(struct res *r, const char *text)
{
	rd(r, text);
	if (r->ret != 0 || r->diag[0])
		fail_msg("expected a clean read, got %d and:\n%s\nfor:\n%s",
			 r->ret, r->diag, text);
}

static unsigned count_of(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *s = hay; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

/*
 * True when one line of diag holds both "/profile:<line>:" (the place of
 * a message about the temporary file read_text() writes) and phrase.
 */
static bool diag_line_has(const char *diag, unsigned long line,
			  const char *phrase)
{
	char tag[64];
	const char *s = diag;

	snprintf(tag, sizeof(tag), "/profile:%lu: ", line);
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char *one = strndup(s, n);
		bool ok = strstr(one, tag) && strstr(one, phrase);

		free(one);
		if (ok)
			return true;
		s += n + (nl != NULL);
	}
	return false;
}

static void assert_diag(const char *diag, unsigned long line,
			const char *phrase)
{
	if (!diag_line_has(diag, line, phrase))
		fail_msg("expected a message at line %lu with '%s', got:\n%s",
			 line, phrase, diag);
}

static uint32_t event_of(const struct profile *p, const char *ev)
{
	uint32_t e = profile_find_event(p, ev);

	if (e == NO_ID)
		fail_msg("no event '%s'", ev);
	return e;
}

static uint64_t self_of(const struct profile *p, const char *fn,
			const char *ev)
{
	uint32_t f = find_func(p, fn);

	if (f == NO_ID)
		fail_msg("no function '%s'", fn);
	return profile_self(p, f)[event_of(p, ev)];
}

static uint32_t call_of(const struct profile *p, const char *caller,
			const char *callee)
{
	uint32_t c = find_call(p, caller, callee);

	if (c == NO_ID)
		fail_msg("no call %s -> %s", caller, callee);
	return c;
}

static uint64_t incl_of(const struct profile *p, const char *caller,
			const char *callee, const char *ev)
{
	return profile_call_incl_at(p, call_of(p, caller, callee), event_of(p, ev));
}

static uint64_t count_of_call(const struct profile *p, const char *caller,
			      const char *callee)
{
	return profile_call_count(p, call_of(p, caller, callee));
}

/* The function with this exact identity ("" for no object/file), or NO_ID. */
static uint32_t find_func3(const struct profile *p, const char *ob,
			   const char *file, const char *name)
{
	for (size_t f = 0; f < p->nfuncs; f++) {
		const struct pfunc *pf = &p->funcs[f];

		if (!strcmp(profile_str(p, pf->name), name) &&
		    !strcmp(profile_str(p, pf->file), file) &&
		    !strcmp(profile_str(p, pf->object), ob))
			return (uint32_t)f;
	}
	return NO_ID;
}

static size_t funcs_named(const struct profile *p, const char *name)
{
	size_t n = 0;

	for (size_t f = 0; f < p->nfuncs; f++)
		n += !strcmp(profile_str(p, p->funcs[f].name), name);
	return n;
}

/* ---- accepted inputs: one function's self cost after reading ---- */

static const struct ok_case {
	const char *name, *text, *fn, *event;
	uint64_t self;
} ok_cases[] = {
	{ "format marker (Q1)",
	  "# callgrind format\nevents: Ir\nfn=main\n15 90\n16 20\n",
	  "main", "Ir", 110 },
	{ "no format marker (Q1)",
	  "events: Ir\nfn=main\n15 90\n", "main", "Ir", 90 },
	{ "version 1",
	  "# callgrind format\nversion: 1\nevents: Ir\nfn=main\n1 7\n",
	  "main", "Ir", 7 },
	{ "Xdebug's version 0.9.6",
	  "version: 0.9.6\nevents: Time\nfn=main\n1 7\n", "main", "Time", 7 },
	{ "version 1.0",
	  "version: 1.0\nevents: Ir\nfn=main\n1 7\n", "main", "Ir", 7 },
	{ "creator, pid, thread, part",
	  "creator: callgrind-3.19.0\npid: 4242\nthread: 2\npart: 1\n"
	  "events: Ir\nfn=main\n1 3\ntotals: 3\n", "main", "Ir", 3 },
	{ "desc with colons and an empty value (Q2)",
	  "desc: I1 cache: \ndesc: Timerange: Basic block 0 - 75990\n"
	  "desc: Trigger: Program termination\ndesc:\nevents: Ir\n"
	  "fn=main\n1 3\n", "main", "Ir", 3 },
	{ "positions: line",
	  "positions: line\nevents: Ir\nfn=main\n1 3\n", "main", "Ir", 3 },
	{ "positions: instr",
	  "positions: instr\nevents: Ir\nfn=main\n0x401000 3\n+4 2\n",
	  "main", "Ir", 5 },
	{ "positions: instr line",
	  "positions: instr line\nevents: Ir\nfn=main\n0x10 5 3\n+2 * 2\n",
	  "main", "Ir", 5 },
	{ "positions: bb",
	  "positions: bb\nevents: Ir\nfn=main\n7 3\n", "main", "Ir", 3 },
	{ "positions: instr bb line",
	  "positions: instr bb line\nevents: Ir\nfn=main\n0x10 7 5 3\n",
	  "main", "Ir", 3 },
	{ "events: with a trailing space (Q2)",
	  "events: Ir Dr \nfn=main\n1 3 4\n", "main", "Dr", 4 },
	{ "events: separated by tabs",
	  "events:\tIr\tDr\nfn=main\n1\t3\t4\n", "main", "Dr", 4 },
	{ "event names with parentheses (Q21)",
	  "events: Time_(10ns) Memory_(bytes)\nfn={main}\n1 5 100\n",
	  "{main}", "Memory_(bytes)", 100 },
	{ "fewer costs than events: the rest is zero",
	  "events: A B C\nfn=f\n1 5\n2 1 2 3\n", "f", "C", 3 },
	{ "fewer costs than events: first column summed",
	  "events: A B C\nfn=f\n1 5\n2 1 2 3\n", "f", "A", 6 },
	{ "hex costs",
	  "events: Ir\nfn=f\n1 0x10\n2 0XfF\n", "f", "Ir", 16 + 255 },
	{ "the largest 64-bit cost",
	  "events: Ir\nfn=f\n1 18446744073709551615\n", "f", "Ir",
	  UINT64_MAX },
	{ "a position-only line adds nothing",
	  "events: Ir\nfn=f\n1 4\n2\n", "f", "Ir", 4 },
	{ "cost lines before any fn= go to ??? ",
	  "events: Ir\n1 5\nfn=main\n1 3\n", "???", "Ir", 5 },
	{ "comments and blank lines anywhere",
	  "# callgrind format\n\n# a comment\nversion: 1\n\n#\nevents: Ir\n"
	  "\n# body\nfn=main\n# between\n\n1 5\n   # indented\n\t\n2 6\n#end",
	  "main", "Ir", 11 },
	{ "indented lines",
	  "events: Ir\n  fn=main\n\t1 5\n", "main", "Ir", 5 },
	{ "Xdebug's ==== NEW PROFILING FILE ==== line (Q21)",
	  "events: Ir\nfn=main\n1 5\n==== NEW PROFILING FILE ==============\n"
	  "version: 1\nevents: Ir\nfn=main\n1 6\n", "main", "Ir", 11 },
	{ "one function in several fn= blocks is summed (Q11)",
	  "events: Ir\nfl=(1) a.c\nfn=(1) main\n1 5\nfn=(2) f\n1 1\n"
	  "fn=(1)\n2 7\nfn=main\n3 1\n", "main", "Ir", 13 },
	{ "the same position twice is summed",
	  "events: Ir\nfn=main\n1 5\n* 5\n1 5\n", "main", "Ir", 15 },
	{ "spaces after '='",
	  "events: Ir\nfn=  main\n1 5\n", "main", "Ir", 5 },
	{ "trailing spaces after a name",
	  "events: Ir\nfn=main \t\n1 5\n", "main", "Ir", 5 },
	{ "an empty fl= (pprof, Q22)",
	  "events: Ir\nfl=\nfn=main\n1 5\n", "main", "Ir", 5 },
	{ "cachegrind 3.19 layout (Q20)",
	  "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
	  "cmd: ./t\nevents: Ir \nfl=???\nfn=(below main)\n0 4\n"
	  "fl=t.c\nfn=main\n3 10\nsummary: 14\n", "(below main)", "Ir", 4 },
};

static void test_accepted(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		const struct ok_case *c = &ok_cases[i];
		struct res r;
		uint64_t got;

		rd(&r, c->text);
		if (r.ret != 0 || r.diag[0])
			fail_msg("%s: read returned %d with:\n%s", c->name,
				 r.ret, r.diag);
		got = self_of(&r.p, c->fn, c->event);
		if (got != c->self)
			fail_msg("%s: self %s of %s is %llu, expected %llu",
				 c->name, c->event, c->fn,
				 (unsigned long long)got,
				 (unsigned long long)c->self);
		rd_done(&r);
	}
}

/* ---- refused inputs: the message names the line and the problem ---- */

static const struct err_case {
	const char *text;
	unsigned long line;
	const char *phrase;
} err_cases[] = {
	/* header */
	{ "version: 2\nevents: Ir\n", 1, "format version 2 is not supported" },
	{ "version: 10.1\nevents: Ir\n", 1, "format version 10.1 is not supported" },
	{ "version: x\nevents: Ir\n", 1, "expected a version number" },
	{ "events: Ir\npid: abc\n", 2, "expected a number after 'pid:'" },
	{ "events: Ir\nthread: 1x\n", 2, "expected a number after 'thread:'" },
	{ "events: Ir\npart: \n", 2, "expected a number after 'part:'" },
	{ "events: Ir\npart: 1 2\n", 2, "expected a number after 'part:'" },
	{ "positions: instr foo\nevents: Ir\n", 1,
	  "unknown position kind 'foo'" },
	{ "positions: line line\nevents: Ir\n", 1, "position 'line' given twice" },
	{ "events: Ir Dr Ir\n", 1, "event 'Ir' listed twice" },
	{ "# callgrind format\nevents: \n", 2, "'events:' names no events" },
	{ "summary: 5\nevents: Ir\n", 1, "'summary:' before 'events:'" },
	{ "events: Ir\nsummary: 1 2\n", 2,
	  "'summary:' has more numbers than there are events (1)" },
	{ "events: Ir\nsummary: 1x\n", 2, "expected a number in 'summary:'" },
	{ "events: Ir\ntotals: 18446744073709551616\n", 2,
	  "number in 'totals:' does not fit in 64 bits" },
	{ "event: = Ir\nevents: Ir\n", 1, "expected an event name after 'event:'" },
	{ "event: S = Ir +\nevents: Ir\n", 1,
	  "expected an event name in the formula of event 'S'" },
	{ "event: S = 2 *\nevents: Ir\n", 1,
	  "expected an event name in the formula of event 'S'" },
	{ "event: S Ir\nevents: Ir\n", 1, "unexpected 'Ir' in 'event:' line" },
	/* cost lines */
	{ "# callgrind format\nfn=main\n1 5\nevents: Ir\n", 3,
	  "cost line before any 'events:' line" },
	{ "events: Ir\nfn=main\n1 5 6\n", 3,
	  "cost line has more costs than 'events:' has events (1; extra '6')" },
	{ "events: Ir\nfn=main\n9a 21\n", 3, "expected a line number, found '9a 21'" },
	{ "events: Ir\nfn=main\n1 21b\n", 3, "expected a cost, found '21b'" },
	{ "events: Ir\nfn=main\n1 0x\n", 3, "expected a cost, found '0x'" },
	{ "events: Ir\nfn=main\n1 0xg\n", 3, "expected a cost, found '0xg'" },
	{ "events: Ir\nfn=main\n1 18446744073709551616\n", 3,
	  "cost does not fit in 64 bits" },
	{ "events: Ir\nfn=main\n1 0x10000000000000000\n", 3,
	  "cost does not fit in 64 bits" },
	{ "events: Ir\nfn=main\n18446744073709551616 1\n", 3,
	  "line number does not fit in 64 bits" },
	{ "events: Ir\nfn=main\n5 1\n+18446744073709551615 1\n", 4,
	  "line number does not fit in 64 bits" },
	{ "events: Ir\nfn=main\n5 1\n-6 1\n", 4,
	  "relative line number goes below zero" },
	{ "positions: instr\nevents: Ir\nfn=main\n0x10 1\n-0x11 1\n", 5,
	  "relative instruction address goes below zero" },
	{ "positions: instr line\nevents: Ir\nfn=main\n0x10 5 1\n+1 -6 1\n", 5,
	  "relative line number goes below zero" },
	{ "positions: instr line\nevents: Ir\nfn=main\n0x10\n", 4,
	  "expected a line number, found ''" },
	{ "events: Ir\nfn=main\n*5 1\n", 3, "expected a line number, found '*5 1'" },
	{ "events: Ir\nfn=main\n+ 1\n", 3, "expected a line number, found '+ 1'" },
	/* Q16: old Xdebug's negative memory costs are refused */
	{ "events: Ir\nfn=main\n1 -5\n", 3, "expected a cost, found '-5'" },
	{ "events: Ir\nfn=main\nfoo bar\n", 3,
	  "expected a cost line, 'key=value' or 'key: value', found 'foo bar'" },
	/* name compression */
	{ "events: Ir\nfn=(9)\n", 2,
	  "'fn=(9)' refers to function id 9, which was never defined" },
	{ "events: Ir\nfn=main\ncfn=(3)\n", 3,
	  "'cfn=(3)' refers to function id 3, which was never defined" },
	{ "events: Ir\nfn=main\njfn=(3)\n", 3, "'jfn=(3)' refers to function id 3" },
	{ "events: Ir\nob=(4)\n", 2, "'ob=(4)' refers to object id 4" },
	{ "events: Ir\nfn=main\ncob=(4)\n", 3, "'cob=(4)' refers to object id 4" },
	{ "events: Ir\nfl=(5)\n", 2, "'fl=(5)' refers to file id 5" },
	{ "events: Ir\nfi=(5)\n", 2, "'fi=(5)' refers to file id 5" },
	{ "events: Ir\nfe=(5)\n", 2, "'fe=(5)' refers to file id 5" },
	{ "events: Ir\nfn=main\ncfi=(5)\n", 3, "'cfi=(5)' refers to file id 5" },
	{ "events: Ir\nfn=main\ncfl=(5)\n", 3, "'cfl=(5)' refers to file id 5" },
	{ "events: Ir\nfn=main\njfi=(5)\n", 3, "'jfi=(5)' refers to file id 5" },
	/* ids live in separate spaces: a file id is not a function id */
	{ "events: Ir\nfl=(1) a.c\nfn=(1)\n", 3, "refers to function id 1" },
	{ "events: Ir\nfn=(4000000000) f\nfn=(4000000001)\n", 3,
	  "refers to function id 4000000001" },
	{ "events: Ir\nfl=(2 ) a.c\n", 2, "expected ')' after '(2' in 'fl='" },
	{ "events: Ir\nfn=(2\n", 2, "expected ')' after '(2' in 'fn='" },
	{ "events: Ir\nfn=(12x) f\n", 2, "expected ')' after '(12' in 'fn='" },
	{ "events: Ir\nfn=(99999999999999999999) x\n", 2,
	  "compressed function id in 'fn=' does not fit in 64 bits" },
	/* calls= */
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n", 4,
	  "'calls=' at the end of the file has no cost line" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n\n# nothing follows\n", 4,
	  "'calls=' at the end of the file has no cost line" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\nfn=g\n1 1\n", 4,
	  "'calls=' must be followed by a cost line" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\nfn=g\n1 1\n", 4,
	  "(line 5 is not one)" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\ncalls=1 5\n1 1\n", 4,
	  "(line 5 is not one)" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\nevents: Ir\n1 1\n", 4,
	  "'calls=' must be followed by a cost line" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=x 5\n1 1\n", 4,
	  "expected a call count after 'calls='" },
	{ "events: Ir\nfn=main\ncalls=1 5\n1 1\n", 3,
	  "'calls=' without a 'cfn=' naming the called function" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=18446744073709551616 5\n1 1\n", 4,
	  "call count does not fit in 64 bits" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5z\n1 1\n", 4,
	  "expected the target's line number in 'calls='" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 18446744073709551616\n1 1\n", 4,
	  "target line number of 'calls=' does not fit in 64 bits" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n1 1 2\n", 5,
	  "cost line has more costs than 'events:' has events" },
	/* jumps */
	{ "events: Ir\nfn=main\njump=x 5\n", 3, "expected a jump count after 'jump='" },
	{ "events: Ir\nfn=main\njump=18446744073709551616 5\n", 3,
	  "jump count does not fit in 64 bits" },
	{ "events: Ir\nfn=main\njcnd=3/x 5\n", 3, "expected 'jcnd=followed/executed'" },
	{ "events: Ir\nfn=main\njcnd=3 5z 7\n", 3, "expected 'jcnd=followed/executed'" },
	{ "events: Ir\nfn=main\njcnd=3x/5 7\n", 3, "expected 'jcnd=followed/executed'" },
	{ "events: Ir\nfn=main\njump=1 q\n", 3, "expected the target's line number in 'jump='" },
	/* after an error nothing more is read */
	{ "events: Ir\nfn=main\n1 1\n2 x\n3 y\n", 4, "expected a cost, found 'x'" },
	/* sums that pass 2^64 - 1 would wrap to small numbers */
	{ "events: Ir Dr\nfn=main\n1 1 18446744073709551615\n2 0 1\n", 4,
	  "the self cost of 'main' passes 2^64 - 1" },
	{ "events: Ir\nfn=main\n1 18446744073709551615\nfn=g\n1 1\n", 5,
	  "the sum of this part's self costs passes 2^64 - 1" },
	/* numbers of 19 digits, read by the run of cost lines
	 * (fast_cost_run()), and the same in the middle of a run */
	{ "events: Ir\nfn=main\n1 9999999999999999999\n+1 9999999999999999999\n", 4,
	  "the self cost of 'main' passes 2^64 - 1" },
	{ "events: Ir\nfn=main\n1 1\n+1 9999999999999999999\n+1 1\n"
	  "+1 9999999999999999999\n+1 1\n", 6,
	  "the self cost of 'main' passes 2^64 - 1" },
	{ "events: Ir\nfn=main\n1 9999999999999999999\nfn=g\n1 9999999999999999999\n", 5,
	  "the sum of this part's self costs passes 2^64 - 1" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=18446744073709551615 1\n1 1\n"
	  "calls=1 1\n1 1\n", 7,
	  "the call count of the calls from 'main' to 'f' passes 2^64 - 1" },
	{ "events: Ir\nfn=main\ncfn=f\ncalls=1 1\n1 18446744073709551615\n"
	  "calls=1 1\n1 1\n", 7,
	  "the inclusive cost of the calls from 'main' to 'f' passes 2^64 - 1" },
};

static void test_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct res r;

		rd(&r, c->text);
		if (r.ret != -1)
			fail_msg("accepted:\n%s\nwith diagnostics:\n%s", c->text,
				 r.diag);
		if (!diag_line_has(r.diag, c->line, c->phrase))
			fail_msg("for:\n%s\nexpected a message at line %lu with '%s', got:\n%s",
				 c->text, c->line, c->phrase, r.diag);
		/* one error, reported once */
		if (count_of(r.diag, "cganalyze: ") != 1)
			fail_msg("for:\n%s\nexpected one message, got:\n%s",
				 c->text, r.diag);
		rd_done(&r);
	}
}

/* ---- warnings: said once, with a count of repeats, and not errors ---- */

static const struct warn_case {
	const char *text;
	unsigned long line;
	const char *phrase;
	unsigned nmessages;	/* including "applies to N more lines" */
	const char *repeats;	/* NULL when said only once */
} warn_cases[] = {
	{ "events: Ir\nfoo: bar\nfn=main\n1 1\n", 2,
	  "warning: unknown header key 'foo:' ignored", 1, NULL },
	{ "events: Ir\nfoo: 1\nbar_baz: 2\nfn=main\n1 1\n", 2,
	  "unknown header key 'foo:' ignored", 2,
	  "the warning above applies to 1 more lines" },
	{ "events: Ir\nfn=main\nxx=1\n1 1\n", 3,
	  "warning: unknown specification 'xx=' ignored", 1, NULL },
	{ "events: Ir\nfn=main\nxx=1\n1 1\nyy=2\nzz=(3)\n", 3,
	  "unknown specification 'xx=' ignored", 2,
	  "the warning above applies to 2 more lines" },
	{ "events: Ir\nfn=(1) a\n1 1\nfn=(1) b\n1 1\nfn=(1) c\n1 1\n", 4,
	  "warning: function id 1 redefined from 'a' to 'b'", 2,
	  "the warning above applies to 1 more lines" },
	{ "events: Ir\nfl=(1) a.c\nfn=main\n1 1\nfl=(1) b.c\n", 5,
	  "warning: file id 1 redefined from 'a.c' to 'b.c'", 1, NULL },
	{ "events: Ir\nfn=main\n5 1\ncfn=f\ncalls=1 -10\n5 3\n", 5,
	  "warning: the target of 'calls=' is below zero; target ignored",
	  1, NULL },
	{ "event: Bad = Ir + Nope\nevents: Ir\nfn=main\n1 1\n", 1,
	  "warning: derived event 'Bad' refers to an event the profile does "
	  "not have; left out", 1, NULL },
	{ "event: Ir = Dr\nevents: Ir Dr\nfn=main\n1 1 2\n", 1,
	  "warning: event 'Ir' is both recorded and derived", 1, NULL },
	{ "events: Ir\nfn=main\n1 5\ntotals: 6\n", 4,
	  "warning: 'totals:' says 6 Ir but the cost lines of this part add up to 5",
	  1, NULL },
	/* valgrind's callgrind writes totals: last; a file of its that
	 * ends otherwise was cut short (comments and blank lines after
	 * totals: do not count) */
	{ "creator: callgrind-3.19.0\nevents: Ir\nfn=main\n1 5\n\n", 5,
	  "warning: the file ends without the 'totals:' line "
	  "callgrind-3.19.0 writes last: it may be truncated", 1, NULL },
	{ "creator: callgrind-3.19.0\nevents: Ir\nfn=main\n1 5\ntotals: 5\n"
	  "fn=f\n1", 7, "it may be truncated", 1, NULL },
	{ "creator: callgrind-3.19.0\nevents: Ir\nfn=main\n1 5\ntotals: 5\n"
	  "part: 2\n", 6, "it may be truncated", 1, NULL },
	/* cachegrind writes summary: last, and no creator:; its desc:
	 * lines about the simulated caches tell it */
	{ "desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	  "cmd: ./prog\nevents: Ir I1mr\nfl=a.c\nfn=main\n1 5 1\n", 6,
	  "warning: the file ends without the 'summary:' line cachegrind "
	  "writes last: it may be truncated", 1, NULL },
	{ "desc: LL cache:         109051904 B, 64 B, 26-way associative\n"
	  "cmd: ./prog\nevents: Ir\nfl=a.c\nfn=main\n1 5\nsummary: 5\n"
	  "fl=b.c\n", 8, "it may be truncated", 1, NULL },
};

static void test_warnings(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(warn_cases) / sizeof(warn_cases[0]); i++) {
		const struct warn_case *c = &warn_cases[i];
		struct res r;

		rd(&r, c->text);
		if (r.ret != 0)
			fail_msg("refused:\n%s\nwith:\n%s", c->text, r.diag);
		if (!diag_line_has(r.diag, c->line, c->phrase))
			fail_msg("for:\n%s\nexpected a warning at line %lu with '%s', got:\n%s",
				 c->text, c->line, c->phrase, r.diag);
		if (count_of(r.diag, "cganalyze: ") != c->nmessages)
			fail_msg("for:\n%s\nexpected %u messages, got:\n%s",
				 c->text, c->nmessages, r.diag);
		if (c->repeats && !diag_line_has(r.diag, c->line, c->repeats))
			fail_msg("for:\n%s\nexpected '%s' at line %lu, got:\n%s",
				 c->text, c->repeats, c->line, r.diag);
		rd_done(&r);
	}
}

/* ---- header values ---- */

static void test_header_values(void **state)
{
	struct res r;
	const struct pinput *in;

	(void)state;
	/* cmd: is trimmed (Q2); the first creator:/cmd: of a file counts */
	rd_clean(&r, "# callgrind format\nversion: 1\n"
		 "creator: callgrind-3.19.0 \npid: 4242\n"
		 "cmd:  ./t --arg  x \r\npart: 1\nevents: Ir\nfn=main\n1 1\n"
		 "part: 2\ncreator: other\ncmd: ./u\nevents: Ir\nfn=main\n1 1\n"
		 "totals: 1\n");
	assert_int_equal(r.p.ninputs, 1);
	in = &r.p.inputs[0];
	assert_string_equal(profile_str(&r.p, in->format), "callgrind");
	assert_string_equal(profile_str(&r.p, in->creator), "callgrind-3.19.0");
	assert_string_equal(profile_str(&r.p, in->cmd), "./t --arg  x");
	assert_int_equal(in->nparts, 2);
	assert_non_null(strstr(profile_str(&r.p, in->path), "/profile"));
	rd_done(&r);

	/* none given */
	rd_clean(&r, "events: Ir\nfn=main\n1 1\n");
	assert_int_equal(r.p.inputs[0].creator, NO_NAME);
	assert_int_equal(r.p.inputs[0].cmd, NO_NAME);
	assert_int_equal(r.p.inputs[0].nparts, 1);
	rd_done(&r);
}

static void test_no_events_line(void **state)
{
	struct res r;

	(void)state;
	/* sniffed by the marker, but never says what its costs are */
	rd(&r, "# callgrind format\nfn=main\n");
	assert_int_equal(r.ret, -1);
	assert_non_null(strstr(r.diag, "/profile: no 'events:' line"));
	rd_done(&r);

	/* no marker and no events: not recognised at all */
	rd(&r, "fn=main\n1 5\n");
	assert_int_equal(r.ret, -1);
	assert_non_null(strstr(r.diag, "not a profile cganalyze can read"));
	rd_done(&r);
}

/* ---- events ---- */

static void test_event_long_names(void **state)
{
	struct res r;
	uint32_t ir, dr, st;

	(void)state;
	/* event: lines may come before or after events: (spec) */
	rd_clean(&r, "event: Ir : Instruction Fetches\n"
		 "event: sysTime : sysTime (elapsed ns)\n"
		 "events: Ir Dr sysTime\nevent: Dr:Data: Reads\n"
		 "fn=main\n1 1 2 3\n");
	ir = event_of(&r.p, "Ir");
	dr = event_of(&r.p, "Dr");
	st = event_of(&r.p, "sysTime");
	assert_int_equal(r.p.nevents, 3);
	assert_string_equal(profile_str(&r.p, r.p.events[ir].long_name),
			    "Instruction Fetches");
	assert_string_equal(profile_str(&r.p, r.p.events[st].long_name),
			    "sysTime (elapsed ns)");
	assert_string_equal(profile_str(&r.p, r.p.events[dr].long_name),
			    "Data: Reads");
	assert_false(r.p.events[ir].derived);
	assert_int_equal(self_of(&r.p, "main", "sysTime"), 3);
	rd_done(&r);

	/* "event: X :" with no long name leaves it unset */
	rd_clean(&r, "event: Ir :\nevents: Ir\nfn=main\n1 1\n");
	assert_int_equal(r.p.events[event_of(&r.p, "Ir")].long_name, NO_NAME);
	rd_done(&r);
}

static void test_event_derived(void **state)
{
	struct res r;
	uint32_t tot;

	(void)state;
	/* Tot is declared before the events it is made of (any order) */
	rd_clean(&r, "event: Tot = Sum + Mul : Grand total\n"
		 "event: Sum = Ir + 2 Dr\n"
		 "event: Mul = 3 * Dr\n"
		 "event: Hex=0x10*Ir+Dr\n"
		 "events: Ir Dr\n"
		 "summary: 100 10\n"
		 "fn=main\n1 10 1\ncfn=f\ncalls=1 5\n1 40 4\n"
		 "fn=f\n5 40 4\n");
	assert_int_equal(self_of(&r.p, "main", "Sum"), 12);
	assert_int_equal(self_of(&r.p, "main", "Mul"), 3);
	assert_int_equal(self_of(&r.p, "main", "Tot"), 15);
	assert_int_equal(self_of(&r.p, "main", "Hex"), 161);
	assert_int_equal(self_of(&r.p, "f", "Sum"), 48);
	assert_int_equal(incl_of(&r.p, "main", "f", "Sum"), 48);
	assert_int_equal(incl_of(&r.p, "main", "f", "Tot"), 60);
	assert_int_equal(r.p.summary[event_of(&r.p, "Sum")], 120);
	assert_int_equal(r.p.totals[event_of(&r.p, "Sum")], 60);
	tot = event_of(&r.p, "Tot");
	assert_true(r.p.events[tot].derived);
	assert_true(r.p.events[event_of(&r.p, "Sum")].derived);
	assert_false(r.p.events[event_of(&r.p, "Ir")].derived);
	assert_string_equal(profile_str(&r.p, r.p.events[tot].long_name),
			    "Grand total");
	rd_done(&r);

	/* a derived event on an unknown event is left out */
	rd(&r, "events: Ir\nevent: Bad = Ir + 2 Nope\nevent: Good = Ir\n"
	   "fn=main\n1 7\n");
	assert_int_equal(r.ret, 0);
	assert_diag(r.diag, 2, "derived event 'Bad'");
	assert_int_equal(profile_find_event(&r.p, "Bad"), NO_ID);
	assert_int_equal(self_of(&r.p, "main", "Good"), 7);
	rd_done(&r);
}

/* ---- summary: and totals: (Q3) ---- */

static void test_summary(void **state)
{
	struct res r;

	(void)state;
	/* in the header (callgrind) */
	rd_clean(&r, "events: Ir Dr\nsummary: 100 7\nfn=main\n1 90 7\n");
	assert_non_null(r.p.summary);
	assert_int_equal(r.p.summary[event_of(&r.p, "Ir")], 100);
	assert_int_equal(r.p.summary[event_of(&r.p, "Dr")], 7);
	assert_int_equal(r.p.totals[event_of(&r.p, "Ir")], 90);
	rd_done(&r);

	/* at the end (cachegrind, Xdebug), with fewer numbers than events */
	rd_clean(&r, "events: Ir Dr\nfn=main\n1 90 7\nsummary: 95\n");
	assert_int_equal(r.p.summary[event_of(&r.p, "Ir")], 95);
	assert_int_equal(r.p.summary[event_of(&r.p, "Dr")], 0);
	assert_int_equal(r.p.inputs[0].nparts, 1);
	rd_done(&r);

	/* none */
	rd_clean(&r, "events: Ir\nfn=main\n1 90\n");
	assert_null(r.p.summary);
	rd_done(&r);
}

static void test_totals(void **state)
{
	struct res r;

	(void)state;
	/* matching totals, per part, with the events in another order in
	 * the second part; call costs are not self costs */
	rd_clean(&r, "events: Ir Dr\nfn=main\n1 5 1\ncfn=f\ncalls=1 3\n1 100 100\n"
		 "* 2\ntotals: 7 1\n"
		 "events: Dr Ir\nfn=main\n1 3 4\ntotals: 3 4\n");
	assert_int_equal(self_of(&r.p, "main", "Ir"), 11);
	assert_int_equal(self_of(&r.p, "main", "Dr"), 4);
	rd_done(&r);

	/* two parts disagree: one warning, and a repeat count */
	rd(&r, "events: Ir\nfn=main\n1 5\ntotals: 6\n"
	   "part: 2\nfn=main\n1 5\ntotals: 7\n");
	assert_int_equal(r.ret, 0);
	assert_diag(r.diag, 4, "'totals:' says 6 Ir but the cost lines of this part add up to 5");
	assert_diag(r.diag, 4, "the warning above applies to 1 more lines");
	assert_int_equal(count_of(r.diag, "'totals:' says"), 1);
	assert_int_equal(count_of(r.diag, "cganalyze: "), 2);
	rd_done(&r);

	/* a mismatch in the second event only */
	rd(&r, "events: Ir Dr\nfn=main\n1 5 2\ntotals: 5 3\n");
	assert_diag(r.diag, 4, "'totals:' says 3 Dr but the cost lines of this part add up to 2");
	rd_done(&r);
}

/* ---- position specifications and name compression (Q4, Q5, Q23) ---- */

static void test_name_compression(void **state)
{
	struct res r;
	uint32_t main_f, helper_f;

	(void)state;
	/* sparse and huge ids, defined at first use (cfn= before fn=),
	 * one id space per kind */
	rd_clean(&r, "events: Ir\n"
		 "ob=(4000000000) /lib/libc.so\n"
		 "fl=(52) a.c\n"
		 "fn=(648) main\n"
		 "1 10\n"
		 "cob=(1) /bin/t\n"
		 "cfi=(1) b.c\n"
		 "cfn=(1) helper\n"
		 "calls=2 3\n"
		 "1 100\n"
		 "ob=(1)\n"
		 "fl=(1)\n"
		 "fn=(1)\n"
		 "3 100\n"
		 "ob=(4000000000)\n"
		 "fl=(52)\n"
		 "fn=(648)\n"
		 "2 5\n");
	assert_int_equal(r.p.nfuncs, 2);
	main_f = find_func3(&r.p, "/lib/libc.so", "a.c", "main");
	helper_f = find_func3(&r.p, "/bin/t", "b.c", "helper");
	assert_int_not_equal(main_f, NO_ID);
	assert_int_not_equal(helper_f, NO_ID);
	assert_int_equal(profile_self(&r.p, main_f)[0], 15);
	assert_int_equal(profile_self(&r.p, helper_f)[0], 100);
	assert_int_equal(count_of_call(&r.p, "main", "helper"), 2);
	assert_int_equal(incl_of(&r.p, "main", "helper", "Ir"), 100);
	rd_done(&r);

	/* the file space is shared by fl fi fe cfi cfl jfi, the function
	 * space by fn cfn jfn (Q4) */
	rd_clean(&r, "events: Ir\n"
		 "fl=(1) a.c\n"
		 "fn=(1) main\n"
		 "fi=(2) inc.h\n"
		 "jfi=(3) j.c\n"
		 "jfn=(4) target\n"
		 "fe=(1)\n"
		 "1 1\n"
		 "cfi=(2)\n"
		 "cfn=(4)\n"
		 "calls=1 1\n"
		 "1 10\n"
		 "cfl=(3)\n"
		 "cfn=(1)\n"
		 "calls=1 1\n"
		 "1 20\n");
	assert_int_not_equal(find_func3(&r.p, "", "inc.h", "target"), NO_ID);
	assert_int_not_equal(find_func3(&r.p, "", "j.c", "main"), NO_ID);
	assert_int_equal(incl_of(&r.p, "main", "target", "Ir"), 10);
	rd_done(&r);
}

static void test_ids_global_across_parts(void **state)
{
	struct res r;

	(void)state;
	/* Q18: ids are file-global; a later part uses ids defined in an
	 * earlier one, and may define them again with the same name */
	rd_clean(&r, "# callgrind format\nversion: 1\npart: 1\nevents: Ir\n"
		 "fl=(1) a.c\nfn=(1) main\n1 1\ncfn=(2) f\ncalls=1 1\n1 2\n"
		 "# callgrind format\nversion: 1\npart: 2\nevents: Ir\n"
		 "fl=(1)\nfn=(2)\n1 3\nfn=(1) main\n1 4\n");
	assert_int_equal(self_of(&r.p, "main", "Ir"), 5);
	assert_int_equal(self_of(&r.p, "f", "Ir"), 3);
	assert_int_equal(r.p.nfuncs, 2);
	assert_int_equal(r.p.inputs[0].nparts, 2);
	rd_done(&r);
}

static const struct name_case {
	const char *spec;	/* fn= value */
	const char *name;	/* the function's name after reading */
} name_cases[] = {
	{ "(1) std::map<int, int>::operator[](int const&)",
	  "std::map<int, int>::operator[](int const&)" },
	{ "main::{lambda(int, int)#1}", "main::{lambda(int, int)#1}" },
	/* "(" not followed by a digit is a plain name (Q23) */
	{ "(below main)", "(below main)" },
	{ "(anonymous namespace)::f(int)", "(anonymous namespace)::f(int)" },
	{ "( 1) f", "( 1) f" },
	{ "(7) (below main)", "(below main)" },
	{ "(7)   spaced  name  ", "spaced  name" },
	{ "(7)no_space", "no_space" },
	{ "0x000000000486d368", "0x000000000486d368" },
	{ "__libc_start_main@@GLIBC_2.34", "__libc_start_main@@GLIBC_2.34" },
	{ "_M_erase(node*) [clone .isra.0]'2", "_M_erase(node*) [clone .isra.0]'2" },
	{ "fib'main'(below main)", "fib'main'(below main)" },
	{ "php::strlen", "php::strlen" },
	{ "require_once::/var/www/a.php", "require_once::/var/www/a.php" },
	{ "Class->method", "Class->method" },
	{ "a=b", "a=b" },
	{ "", "???" },
};

static void test_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]); i++) {
		char text[512];
		struct res r;

		snprintf(text, sizeof(text), "events: Ir\nfn=%s\n1 3\n",
			 name_cases[i].spec);
		rd_clean(&r, text);
		if (find_func(&r.p, name_cases[i].name) == NO_ID)
			fail_msg("fn=%s: no function named '%s' (first is '%s')",
				 name_cases[i].spec, name_cases[i].name,
				 r.p.nfuncs ? profile_str(&r.p, r.p.funcs[0].name) : "");
		assert_int_equal(self_of(&r.p, name_cases[i].name, "Ir"), 3);
		rd_done(&r);
	}
}

static void test_long_name(void **state)
{
	size_t n = 5000;
	char *text = malloc(n + 64), *name = malloc(n + 1);
	struct res r;
	int len;

	(void)state;
	for (size_t i = 0; i < n; i++)
		name[i] = "abc, ()<>:"[i % 10];
	name[n] = '\0';
	len = sprintf(text, "events: Ir\nfn=(3) %s\n1 3\nfn=(3)\n1 4\n", name);
	assert_true(len > 0);
	rd_clean(&r, text);
	assert_int_equal(self_of(&r.p, name, "Ir"), 7);
	rd_done(&r);
	free(text);
	free(name);
}

static void test_redefined_id(void **state)
{
	struct res r;

	(void)state;
	/* after a redefinition the id means the new name */
	rd(&r, "events: Ir\nfn=(1) a\n1 1\nfn=(1) b\n1 2\nfn=(1)\n1 4\n");
	assert_int_equal(r.ret, 0);
	assert_int_equal(self_of(&r.p, "a", "Ir"), 1);
	assert_int_equal(self_of(&r.p, "b", "Ir"), 6);
	assert_diag(r.diag, 4, "function id 1 redefined from 'a' to 'b'");
	rd_done(&r);

	/* the same name again is no redefinition (Q18) */
	rd_clean(&r, "events: Ir\nfn=(1) a\n1 1\nfn=(1) a\n1 2\n");
	assert_int_equal(self_of(&r.p, "a", "Ir"), 3);
	rd_done(&r);
}

static void test_function_identity(void **state)
{
	struct res r;
	uint32_t libc, exe, other_file;

	(void)state;
	/* Q5: functions are (object, file, name); the same name in two
	 * objects, or two files, is two functions */
	rd_clean(&r, "events: Ir\n"
		 "ob=(1) /lib/libc.so.6\nfl=(1) ???\nfn=(528) (below main)\n0 5\n"
		 "ob=(2) /bin/t\nfl=(2) ???\nfn=(502) (below main)\n0 7\n"
		 "fl=(3) t.c\nfn=(502)\n0 11\n"
		 "ob=(1)\nfl=(1)\nfn=(528)\n0 13\n");
	assert_int_equal(funcs_named(&r.p, "(below main)"), 3);
	libc = find_func3(&r.p, "/lib/libc.so.6", "???", "(below main)");
	exe = find_func3(&r.p, "/bin/t", "???", "(below main)");
	other_file = find_func3(&r.p, "/bin/t", "t.c", "(below main)");
	assert_int_not_equal(libc, NO_ID);
	assert_int_not_equal(exe, NO_ID);
	assert_int_not_equal(other_file, NO_ID);
	assert_int_equal(profile_self(&r.p, libc)[0], 18);
	assert_int_equal(profile_self(&r.p, exe)[0], 7);
	assert_int_equal(profile_self(&r.p, other_file)[0], 11);
	rd_done(&r);

	/* a function's file is its fl=, not an fi= file (Q9, Q10) */
	rd_clean(&r, "events: Ir\nfl=brk_call.h\nfn=brk\nfi=brk.c\n1 5\n"
		 "fe=brk_call.h\n2 1\n");
	assert_int_not_equal(find_func3(&r.p, "", "brk_call.h", "brk"), NO_ID);
	assert_int_equal(r.p.nfuncs, 1);
	rd_done(&r);

	/* lsprofcalltree writes only fi=: then that is the file */
	rd_clean(&r, "events: Ir\nfi=x.py\nfn=f\n1 5\n");
	assert_int_not_equal(find_func3(&r.p, "", "x.py", "f"), NO_ID);
	rd_done(&r);

	/*
	 * fn= starts over at fl='s file, as KCachegrind reads and
	 * callgrind's dump.c writes: a --dump-every-bb part (valgrind
	 * 3.19) had strings(int) end on a call from inlined stl_tree.h
	 * code with no cost of its own (calls=0), then main with no fe=;
	 * main's call to strings(int) without cfi= made a second
	 * strings(int), of stl_tree.h, and main's lines went there too.
	 */
	rd_clean(&r, "events: Ir\nfl=(1) app.cc\nfn=(1) strings\n"
		 "fi=(2) stl_tree.h\ncfi=(2)\ncfn=(3) erase\n"
		 "calls=0 1929\n984 8\n\nfn=(4) main\ncfn=(1)\n"
		 "calls=0 36\n47 17\n48 2\n");
	assert_int_equal(funcs_named(&r.p, "strings"), 1);
	assert_int_not_equal(call_of(&r.p, "main", "strings"), NO_ID);
	assert_int_equal(incl_of(&r.p, "main", "strings", "Ir"), 17);
	assert_int_equal(self_of(&r.p, "main", "Ir"), 2);
	rd_done(&r);
}

/* ---- subpositions ---- */

/*
 * Nothing per line is kept, so relative positions are checked by
 * walking down to exactly zero (accepted) and one below (refused).
 */
static const struct pos_case {
	const char *text;
	unsigned long bad_line;	/* 0: accepted */
} pos_cases[] = {
	{ "events: Ir\nfn=f\n100 1\n+0x10 1\n-116 1\n", 0 },
	{ "events: Ir\nfn=f\n100 1\n+0x10 1\n-117 1\n", 5 },
	{ "events: Ir\nfn=f\n5 1\n* 1\n*\t1\n-5 1\n", 0 },
	{ "events: Ir\nfn=f\n5 1\n* 1\n-6 1\n", 5 },
	{ "events: Ir\nfn=f\n0x10 1\n-0x10 1\n", 0 },
	{ "events: Ir\nfn=f\n0x10 1\n-0x11 1\n", 4 },
	{ "events: Ir\nfn=f\n+3 1\n-3 1\n", 0 },
	{ "events: Ir\nfn=f\n-0 1\n-1 1\n", 4 },
	/* an absolute position replaces the last one */
	{ "events: Ir\nfn=f\n100 1\n3 1\n-3 1\n", 0 },
	{ "events: Ir\nfn=f\n100 1\n3 1\n-4 1\n", 5 },
	/* each position kind has its own last value */
	{ "positions: instr line\nevents: Ir\nfn=f\n"
	  "0x80001234 90 1\n+3 * 5\n+1 +1 6\n-0x80001238 -91 1\n", 0 },
	{ "positions: instr line\nevents: Ir\nfn=f\n"
	  "0x80001234 90 1\n+3 * 5\n+1 +1 6\n-0x80001238 -92 1\n", 7 },
	{ "positions: instr line\nevents: Ir\nfn=f\n"
	  "0x80001234 90 1\n+3 * 5\n+1 +1 6\n-0x80001239 -91 1\n", 7 },
	/* pprof: the last position carries over into the next fn= block */
	{ "events: Ir\nfn=a\n10 1\nfn=b\n-10 1\n", 0 },
	{ "events: Ir\nfn=a\n10 1\nfn=b\n-11 1\n", 5 },
	{ "events: Ir\nfl=a.c\nfn=a\n10 1\nfl=b.c\nfn=b\nfi=c.h\n-10 1\n", 0 },
	/* a new part, or a new positions: line, starts again from zero */
	{ "events: Ir\nfn=a\n10 1\npart: 2\nfn=b\n-1 1\n", 6 },
	{ "events: Ir\nfn=a\n10 1\npositions: line\n-1 1\n", 5 },
	/* a call target is relative to the last cost line and does not
	 * move it (Q13); the call's cost line does */
	{ "events: Ir\nfn=f\n10 1\ncfn=g\ncalls=1 +40\n-10 5\n", 0 },
	{ "events: Ir\nfn=f\n10 1\ncfn=g\ncalls=1 +40\n-11 5\n", 6 },
	{ "events: Ir\nfn=f\n10 1\ncfn=g\ncalls=1 +40\n+2 5\n-12 1\n", 0 },
	{ "events: Ir\nfn=f\n10 1\ncfn=g\ncalls=1 +40\n+2 5\n-13 1\n", 7 },
	{ "positions: instr line\nevents: Ir\nfn=f\n0x1000 58 1\ncfn=g\n"
	  "calls=1 0x11cf -6\n* * 5\n-0x1000 -58 1\n", 0 },
	/* so does a jump target, and the jump's source line moves it */
	{ "events: Ir\nfn=f\n10 1\njump=1 +40\n*\n-10 1\n", 0 },
	{ "events: Ir\nfn=f\n10 1\njump=1 +40\n+1\n-12 1\n", 6 },
};

static void test_subpositions(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pos_cases) / sizeof(pos_cases[0]); i++) {
		const struct pos_case *c = &pos_cases[i];
		struct res r;

		rd(&r, c->text);
		if (!c->bad_line && (r.ret != 0 || r.diag[0]))
			fail_msg("refused:\n%s\nwith:\n%s", c->text, r.diag);
		if (c->bad_line && (r.ret != -1 ||
				    !diag_line_has(r.diag, c->bad_line, "goes below zero")))
			fail_msg("for:\n%s\nexpected 'goes below zero' at line %lu, got %d:\n%s",
				 c->text, c->bad_line, r.ret, r.diag);
		rd_done(&r);
	}
}

/* ---- calls= (Q13, Q27) ---- */

static void test_calls_spec_example(void **state)
{
	struct res r;

	(void)state;
	/* the spec's compressed example */
	rd_clean(&r, "# callgrind format\nevents: Instructions\n\n"
		 "fl=(1) file1.c\nfn=(1) main\n16 20\ncfn=(2) func1\ncalls=1 50\n"
		 "16 400\ncfi=(2) file2.c\ncfn=(3) func2\ncalls=3 20\n16 400\n\n"
		 "fn=(2)\n51 100\ncfi=(2)\ncfn=(3)\ncalls=2 20\n51 300\n\n"
		 "fl=(2)\nfn=(3)\n20 700\n");
	assert_int_equal(r.p.nfuncs, 3);
	assert_int_equal(r.p.ncalls, 3);
	assert_true(r.p.calls_have_incl);
	/* inclusive cost goes to the arc, not to the caller's self cost */
	assert_int_equal(self_of(&r.p, "main", "Instructions"), 20);
	assert_int_equal(self_of(&r.p, "func1", "Instructions"), 100);
	assert_int_equal(self_of(&r.p, "func2", "Instructions"), 700);
	assert_int_equal(count_of_call(&r.p, "main", "func1"), 1);
	assert_int_equal(count_of_call(&r.p, "main", "func2"), 3);
	assert_int_equal(count_of_call(&r.p, "func1", "func2"), 2);
	assert_int_equal(incl_of(&r.p, "main", "func1", "Instructions"), 400);
	assert_int_equal(incl_of(&r.p, "main", "func2", "Instructions"), 400);
	assert_int_equal(incl_of(&r.p, "func1", "func2", "Instructions"), 300);
	assert_int_equal(r.p.totals[0], 820);
	/* func2 is one function, called from file1.c with cfi=file2.c */
	assert_int_not_equal(find_func3(&r.p, "", "file2.c", "func2"), NO_ID);
	rd_done(&r);
}

static void test_calls_details(void **state)
{
	struct res r;

	(void)state;
	/* the self cost line after the call's cost line, at the same
	 * position, is the call instruction's own cost (Q13) */
	rd_clean(&r, "events: Ir Dr\nfn=main\n+3 6\ncfn=f\ncalls=1 -2\n* 100470 9\n"
		 "* 3\ncalls=2 -2\n* 30 1\n");
	assert_int_equal(self_of(&r.p, "main", "Ir"), 9);
	assert_int_equal(self_of(&r.p, "main", "Dr"), 0);
	assert_int_equal(count_of_call(&r.p, "main", "f"), 3);
	assert_int_equal(incl_of(&r.p, "main", "f", "Ir"), 100500);
	assert_int_equal(incl_of(&r.p, "main", "f", "Dr"), 10);
	/* f only appears as a callee: it exists, with no self cost */
	assert_int_equal(self_of(&r.p, "f", "Ir"), 0);
	rd_done(&r);

	/* calls=0 (callgrind dumps with calls running, pprof; Q27) still
	 * records the inclusive cost */
	rd_clean(&r, "positions: instr line\nevents: cpu(ms)\nfl=\nfn=main\n"
		 "0x401000 10 5\ncfl=lib.c\ncfn=work\ncalls=0 +0x100 20\n* * 30\n"
		 "fl=lib.c\nfn=work\n+0x100 20 30\n");
	assert_int_equal(count_of_call(&r.p, "main", "work"), 0);
	assert_int_equal(incl_of(&r.p, "main", "work", "cpu(ms)"), 30);
	assert_int_equal(self_of(&r.p, "main", "cpu(ms)"), 5);
	assert_int_not_equal(find_func3(&r.p, "", "???", "main"), NO_ID);
	assert_int_not_equal(find_func3(&r.p, "", "lib.c", "work"), NO_ID);
	assert_int_equal(r.p.nfuncs, 2);
	rd_done(&r);

	/* Xdebug: "calls=1 0 0", one number more than positions: line */
	rd_clean(&r, "version: 1\ncreator: xdebug 3.2.0 (PHP 8.2.0)\n"
		 "cmd: /var/www/index.php\npart: 1\npositions: line\n\n"
		 "events: Time_(10ns) Memory_(bytes)\n\n"
		 "fl=(1) php:internal\nfn=(1) php::strlen\n2 10 0\n\n"
		 "fl=(2) /var/www/index.php\nfn=(2) {main}\n1 5 100\n"
		 "cfl=(1)\ncfn=(1)\ncalls=1 0 0\n2 10 0\n"
		 "cfl=(1)\ncfn=(1)\ncalls=1 0 0\n3 12 8\n\nsummary: 27 108\n");
	assert_int_equal(count_of_call(&r.p, "{main}", "php::strlen"), 2);
	assert_int_equal(incl_of(&r.p, "{main}", "php::strlen", "Time_(10ns)"), 22);
	assert_int_equal(incl_of(&r.p, "{main}", "php::strlen", "Memory_(bytes)"), 8);
	assert_int_equal(self_of(&r.p, "{main}", "Time_(10ns)"), 5);
	assert_int_equal(r.p.summary[event_of(&r.p, "Time_(10ns)")], 27);
	rd_done(&r);

	/* comments and blank lines between calls= and its cost line */
	rd_clean(&r, "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n# cost:\n\n1 40\n");
	assert_int_equal(incl_of(&r.p, "main", "f", "Ir"), 40);
	assert_int_equal(self_of(&r.p, "main", "Ir"), 0);
	rd_done(&r);

	/* calls= before any fn=: the caller is ??? */
	rd_clean(&r, "events: Ir\ncfn=f\ncalls=1 5\n1 40\n");
	assert_int_equal(incl_of(&r.p, "???", "f", "Ir"), 40);
	rd_done(&r);

	/* cfn= stays for the next calls= of the same function, and fn=
	 * forgets it */
	rd_clean(&r, "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n1 40\ncalls=1 5\n1 2\n");
	assert_int_equal(count_of_call(&r.p, "main", "f"), 2);
	rd_done(&r);
	rd(&r, "events: Ir\nfn=main\ncfn=f\ncalls=1 5\n1 40\nfn=g\ncalls=1 5\n1 2\n");
	assert_int_equal(r.ret, -1);
	assert_diag(r.diag, 7, "'calls=' without a 'cfn='");
	rd_done(&r);
}

static void test_call_targets_defaults(void **state)
{
	struct res r;
	uint32_t f_libc, f_local, helper;

	(void)state;
	/* Q12: an omitted cob= is the caller's object, an omitted cfi= the
	 * current file including an fi= file; both apply to one call */
	rd_clean(&r, "events: Ir\n"
		 "ob=(1) /bin/t\nfl=(1) a.c\nfn=(1) main\n1 1\n"
		 "fi=(2) inc.h\n2 1\n"
		 "cfn=(2) helper\ncalls=1 7\n2 10\n"
		 "fe=(1)\n"
		 "cob=(3) /lib/libc.so\ncfi=(3) libc.c\ncfn=(3) memcpy\n"
		 "calls=1 100\n3 20\n"
		 "cfn=(3)\ncalls=1 100\n3 30\n"
		 "cob=(3)\ncfl=(3)\ncfn=(3)\ncalls=1 100\n3 40\n"
		 "jfi=(4) j.c\njump=1 9\n3\n"
		 "cfn=(5) other\ncalls=1 100\n3 50\n");
	helper = find_func3(&r.p, "/bin/t", "inc.h", "helper");
	f_libc = find_func3(&r.p, "/lib/libc.so", "libc.c", "memcpy");
	f_local = find_func3(&r.p, "/bin/t", "a.c", "memcpy");
	assert_int_not_equal(helper, NO_ID);
	assert_int_not_equal(f_libc, NO_ID);
	assert_int_not_equal(f_local, NO_ID);
	assert_int_equal(r.p.nfuncs, 5);
	for (size_t c = 0; c < r.p.ncalls; c++) {
		uint64_t want;

		if (r.p.calls[c].callee == helper)
			want = 10;
		else if (r.p.calls[c].callee == f_libc)
			want = 60;	/* cfi= and its synonym cfl= */
		else if (r.p.calls[c].callee == f_local)
			want = 30;
		else
			want = 50;
		assert_int_equal(profile_call_incl_at(&r.p, (uint32_t)c, 0), want);
	}
	/* jfi= does not name a call's file */
	assert_int_not_equal(find_func3(&r.p, "/bin/t", "a.c", "other"), NO_ID);
	rd_done(&r);
}

/* ---- jumps (Q14) ---- */

static void test_jumps(void **state)
{
	struct res r;

	(void)state;
	rd_clean(&r, "positions: instr line\nevents: Ir\nfl=t.c\nfn=f\n"
		 "0x10 5 3\n"
		 "jump=1 0x10e0 0\n* *\n"	/* absolute hex target */
		 "jcnd=985/1972 +11 *\n* *\n"	/* valgrind 3.19 */
		 "jcnd=5 3 +2 +1\n* *\n"	/* the spec's order */
		 "jfi=(1) j.c\njfn=(2) g\njump=2 +4 *\n+2 *\n"
		 "+2 * 4\n");
	assert_int_equal(self_of(&r.p, "f", "Ir"), 7);
	assert_int_equal(r.p.nfuncs, 1);
	assert_int_equal(r.p.ncalls, 0);
	rd_done(&r);

	/* per-line jumps (no --dump-instr) and "* " source lines */
	rd_clean(&r, "events: Ir\nfn=f\n315 2\njcnd=1/1 315\n* \njump=3 +1\n* \n"
		 "316 5\n");
	assert_int_equal(self_of(&r.p, "f", "Ir"), 7);
	rd_done(&r);
}

static const struct pjump *jump_from(const struct profile *p, uint64_t addr,
				      uint64_t to)
{
	for (size_t i = 0; i < p->njumps; i++)
		if (p->pos[p->jumps[i].from].addr == addr &&
		    p->jumps[i].to_addr == to)
			return &p->jumps[i];
	return NULL;
}

/* With positions, jumps keep their source, target and counts. */
static void test_jumps_kept(void **state)
{
	struct read_opts o = { .want_positions = true };
	const struct pjump *j;
	struct res r;

	(void)state;
	rd_opts(&r, "positions: instr line\nevents: Ir\nfl=t.c\nfn=f\n"
		"0x10 5 3\n"
		"jump=1 0x10e0 0\n* *\n"
		"+2 6 1\njcnd=985/1972 +11 *\n* *\n"	/* followed/executed */
		"jcnd=5 3 +2 +1\n* *\n"		/* executed followed */
		"jfi=(1) j.c\njump=2 +4 *\n+2 *\n"	/* source +2 */
		"+2 * 4\n"
		"0x12 6\njcnd=985/1972 0x1d *\n* *\n",	/* adds up */
		&o);
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	assert_int_equal(r.p.njumps, 4);
	j = jump_from(&r.p, 0x10, 0x10e0);
	assert_non_null(j);
	assert_false(j->conditional);
	assert_int_equal(j->executed, 1);
	assert_int_equal(j->followed, 1);
	assert_int_equal(j->to_line, 0);
	j = jump_from(&r.p, 0x12, 0x1d);
	assert_non_null(j);
	assert_true(j->conditional);
	assert_int_equal(j->executed, 2 * 1972);
	assert_int_equal(j->followed, 2 * 985);
	assert_int_equal(j->to_line, 6);
	j = jump_from(&r.p, 0x12, 0x14);
	assert_non_null(j);
	assert_int_equal(j->executed, 5);
	assert_int_equal(j->followed, 3);
	assert_int_equal(j->to_line, 7);
	/* jfi= names the target's file; the source moved to 0x14 */
	j = jump_from(&r.p, 0x14, 0x16);
	assert_non_null(j);
	assert_string_equal(profile_str(&r.p, j->to_file), "j.c");
	assert_string_equal(profile_str(&r.p, r.p.pos[j->from].file), "t.c");
	assert_int_equal(self_of(&r.p, "f", "Ir"), 8);
	rd_done(&r);

	/* without positions nothing is kept */
	rd_clean(&r, "positions: instr\nevents: Ir\nfn=f\n0x10 1\n"
		 "jump=1 0x20\n* \n");
	assert_int_equal(r.p.njumps, 0);
	rd_done(&r);
}

/* With positions, each call keeps the position it was made from. */
static void test_callsites(void **state)
{
	struct read_opts o = { .want_positions = true };
	struct pfunc ident[3];
	uint32_t map[3], c;
	struct res r;

	(void)state;
	rd_opts(&r, "positions: line\nevents: Ir Dr\nfl=t.c\nfn=main\n"
		"3 1\ncfn=g\ncalls=2 10\n4 50 5\n"
		"cfn=h\ncalls=1 20\n+1 7\n"
		"cfn=g\ncalls=1 10\n4 25 2\n"
		"fn=g\n10 75 7\nfn=h\n20 7\n",
		&o);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.p.ncallsites, 2);	/* line 4 -> g, line 5 -> h */
	for (size_t i = 0; i < r.p.ncallsites; i++) {
		const struct pcallsite *cs = &r.p.callsites[i];
		const struct pcall *call = &r.p.calls[cs->call];
		const char *callee = profile_str(&r.p,
						 r.p.funcs[call->callee].name);

		if (!strcmp(callee, "g")) {
			assert_int_equal(r.p.pos[cs->pos].line, 4);
			assert_int_equal(cs->count, 3);
			assert_int_equal(profile_callsite_incl(&r.p, (uint32_t)i)[0], 75);
			assert_int_equal(profile_callsite_incl(&r.p, (uint32_t)i)[1], 7);
		} else {
			assert_string_equal(callee, "h");
			assert_int_equal(r.p.pos[cs->pos].line, 5);
			assert_int_equal(cs->count, 1);
		}
	}
	/* merging g and h into one function merges their call sites at
	 * line 4 and 5 only where the positions are the same */
	for (size_t f = 0; f < r.p.nfuncs; f++)
		ident[f] = r.p.funcs[f];
	ident[find_func(&r.p, "h")] = r.p.funcs[find_func(&r.p, "g")];
	profile_rekey(&r.p, ident, NULL, NULL, map);
	assert_int_equal(r.p.ncallsites, 2);
	c = find_call(&r.p, "main", "g");
	assert_int_equal(profile_call_count(&r.p, c), 4);
	for (size_t i = 0; i < r.p.ncallsites; i++) {
		assert_int_equal(r.p.callsites[i].call, c);
		if (r.p.pos[r.p.callsites[i].pos].line == 4)
			assert_int_equal(r.p.callsites[i].count, 3);
		else
			assert_int_equal(r.p.callsites[i].count, 1);
	}
	rd_done(&r);
}

/* Five events make rows of six until profile_finish() narrows them:
 * every row table must be narrowed with them (call sites too). */
static void test_callsites_narrowed(void **state)
{
	struct read_opts o = { .want_positions = true };
	struct res r;

	(void)state;
	rd_opts(&r, "positions: line\nevents: A B C D E\nfn=main\n"
		"3 1 1 1 1 1\ncfn=g\ncalls=2 10\n4 10 20 30 40 50\n"
		"cfn=h\ncalls=1 20\n5 1 2 3 4 5\n"
		"fn=g\n10 10 20 30 40 50\nfn=h\n20 1 2 3 4 5\n", &o);
	assert_int_equal(r.ret, 0);
	profile_finish(&r.p);
	assert_int_equal(r.p.stride, 5);
	for (size_t i = 0; i < r.p.ncallsites; i++) {
		const uint64_t *row = profile_callsite_incl(&r.p, (uint32_t)i);
		uint64_t k = r.p.pos[r.p.callsites[i].pos].line == 4 ? 10 : 1;

		for (size_t e = 0; e < 5; e++)
			assert_int_equal(row[e], k * (e + 1));
	}
	rd_done(&r);
}

/* ---- parts (Q18) ---- */

static const char parts_text[] =
	"# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
	"pid: 10\ncmd: ./t\npart: 1\nthread: 1\npositions: line\n"
	"events: Ir Dr\nsummary: 15 3\n"
	"fl=(1) t.c\nfn=(1) main\n1 10 2\ncfn=(2) work\ncalls=1 5\n1 5 1\n"
	"fn=(2)\n5 5 1\ntotals: 15 3\n"
	"# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
	"pid: 10\ncmd: ./t\npart: 1\nthread: 2\npositions: line\n"
	"events: Ir Dr\nsummary: 7 0\n"
	"fl=(1)\nfn=(2)\n5 7\ntotals: 7 0\n"
	"part: 2\nthread: 1\npositions: line\nevents: Dr Ir\nsummary: 2 24\n"
	"fl=(1)\nfn=(1)\n1 1 20\ncfn=(2)\ncalls=2 5\n1 0 4\n"
	"fn=(2)\n5 1 4\ntotals: 2 24\n";

static const struct part_case {
	uint64_t part;
	uint64_t main_ir, main_dr, work_ir, calls, incl_ir, summary_ir;
} part_cases[] = {
	{ 0, 30, 3, 16, 3, 9, 46 },	/* all parts, summed */
	{ 1, 10, 2, 12, 1, 5, 22 },	/* both threads of part 1 */
	{ 2, 20, 1, 4, 2, 4, 24 },	/* ids defined in skipped parts */
};

static void test_parts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(part_cases) / sizeof(part_cases[0]); i++) {
		const struct part_case *c = &part_cases[i];
		struct read_opts o = { .part = c->part };
		struct res r;

		rd_opts(&r, parts_text, &o);
		if (r.ret != 0 || r.diag[0])
			fail_msg("part %llu: %d\n%s", (unsigned long long)c->part,
				 r.ret, r.diag);
		assert_int_equal(self_of(&r.p, "main", "Ir"), c->main_ir);
		assert_int_equal(self_of(&r.p, "main", "Dr"), c->main_dr);
		assert_int_equal(self_of(&r.p, "work", "Ir"), c->work_ir);
		assert_int_equal(count_of_call(&r.p, "main", "work"), c->calls);
		assert_int_equal(incl_of(&r.p, "main", "work", "Ir"), c->incl_ir);
		assert_int_equal(r.p.summary[event_of(&r.p, "Ir")], c->summary_ir);
		assert_int_equal(r.p.inputs[0].nparts, 3);
		rd_done(&r);
	}
}

static void test_parts_by_ordinal(void **state)
{
	struct read_opts o = { .part = 2 };
	struct res r;

	(void)state;
	/* without part: lines, parts count from 1; a header line after
	 * body lines starts a new part */
	rd_opts(&r, "events: Ir\nfn=a\n1 1\nevents: Ir\nfn=b\n1 2\n"
		"cmd: x\nfn=c\n1 4\n", &o);
	assert_int_equal(r.ret, 0);
	/* functions of parts left out are not in the profile at all */
	assert_int_equal(find_func(&r.p, "a"), NO_ID);
	assert_int_equal(self_of(&r.p, "b", "Ir"), 2);
	assert_int_equal(find_func(&r.p, "c"), NO_ID);
	assert_int_equal(r.p.inputs[0].nparts, 3);
	assert_int_equal(r.p.inputs[0].nselected, 1);
	rd_done(&r);

	/* summary: and totals: at the end do not start a part */
	o.part = 1;
	rd_opts(&r, "events: Ir\nfn=a\n1 1\nsummary: 1\ntotals: 1\nfn=b\n1 2\n",
		&o);
	assert_int_equal(r.ret, 0);
	assert_int_equal(self_of(&r.p, "b", "Ir"), 2);
	assert_int_equal(r.p.inputs[0].nparts, 1);
	rd_done(&r);
}

static void test_xdebug_appended(void **state)
{
	struct res r;

	(void)state;
	/* Q21: xdebug.profiler_append repeats the whole header after a
	 * "==== NEW PROFILING FILE ====" line */
	rd_clean(&r, "version: 1\ncreator: xdebug 3.2.0 (PHP 8.2.0)\n"
		 "cmd: /var/www/index.php\npart: 1\npositions: line\n\n"
		 "events: Time_(10ns) Memory_(bytes)\n\n"
		 "fl=(1) /var/www/index.php\nfn=(1) {main}\n1 5 100\n\n"
		 "summary: 5 100\n\n"
		 "==== NEW PROFILING FILE ==============================\n"
		 "version: 1\ncreator: xdebug 3.2.0 (PHP 8.2.0)\n"
		 "cmd: /var/www/other.php\npart: 1\npositions: line\n\n"
		 "events: Time_(10ns) Memory_(bytes)\n\n"
		 "fl=(1) /var/www/index.php\nfn=(1) {main}\n1 3 50\n\n"
		 "summary: 3 50\n");
	assert_int_equal(self_of(&r.p, "{main}", "Time_(10ns)"), 8);
	assert_int_equal(self_of(&r.p, "{main}", "Memory_(bytes)"), 150);
	assert_int_equal(r.p.inputs[0].nparts, 2);
	assert_string_equal(profile_str(&r.p, r.p.inputs[0].cmd),
			    "/var/www/index.php");
	rd_done(&r);
}

/* ---- line endings and compression ---- */

static void test_crlf(void **state)
{
	struct res r;

	(void)state;
	rd_clean(&r, "# callgrind format\r\nversion: 1\r\ncmd: ./t\r\n"
		 "events: Ir Dr\r\n\r\nfl=(1) a.c\r\nfn=(1) main\r\n16 20 1\r\n"
		 "cfn=(2) f\r\ncalls=1 50\r\n16 400\r\nfn=(2)\r\n50 400 2\r\n"
		 "totals: 420 3\r\n");
	assert_int_equal(self_of(&r.p, "main", "Ir"), 20);
	assert_int_equal(self_of(&r.p, "f", "Dr"), 2);
	assert_int_equal(incl_of(&r.p, "main", "f", "Ir"), 400);
	assert_int_not_equal(find_func3(&r.p, "", "a.c", "f"), NO_ID);
	assert_string_equal(profile_str(&r.p, r.p.inputs[0].cmd), "./t");
	rd_done(&r);
}

static const char small_profile[] =
	"# callgrind format\nevents: Ir\nfl=(1) a.c\nfn=(1) main\n1 20\n"
	"cfn=(2) f\ncalls=3 9\n1 400\nfn=(2)\n9 400\n";

typedef unsigned char *(*compress_fn)(const void *, size_t, size_t *);

static void check_compressed(compress_fn compress, const char *kind)
{
	size_t n;
	unsigned char *z = compress(small_profile, strlen(small_profile), &n);
	char *path = write_temp(z, n);
	char *path2, *diag, phrase[64];
	struct profile p;

	profile_init(&p);
	assert_int_equal(read_path(&p, path, NULL, &diag), 0);
	assert_string_equal(diag, "");
	assert_int_equal(profile_self(&p, find_func(&p, "main"))[0], 20);
	assert_int_equal(profile_self(&p, find_func(&p, "f"))[0], 400);
	assert_int_equal(profile_call_count(&p, find_call(&p, "main", "f")), 3);
	free(diag);
	profile_release(&p);

	/* cut off the end: an error that names the file */
	path2 = write_temp(z, n - 6);
	profile_init(&p);
	assert_int_equal(read_path(&p, path2, NULL, &diag), -1);
	snprintf(phrase, sizeof(phrase), "truncated %s data", kind);
	if (!strstr(diag, path2) || !strstr(diag, phrase))
		fail_msg("expected '%s' and '%s' in:\n%s", path2, phrase, diag);
	free(diag);
	profile_release(&p);

	remove_temp(path);
	remove_temp(path2);
	free(z);
}

static void test_gzip(void **state)
{
	(void)state;
	check_compressed(gzip_bytes, "gzip");
}

static void test_bzip2(void **state)
{
	(void)state;
	check_compressed(bzip2_bytes, "bzip2");
}

/* ---- files that are not profiles ---- */

static void test_bad_files(void **state)
{
	struct profile p;
	char *diag, *path;
	char dir[64] = "/tmp/cga-test-XXXXXX";

	(void)state;
	/* Q19: --separate-threads=yes leaves an empty base file */
	path = write_temp("", 0);
	profile_init(&p);
	assert_int_equal(read_path(&p, path, NULL, &diag), -1);
	assert_non_null(strstr(diag, path));
	assert_non_null(strstr(diag, "the file is empty"));
	free(diag);
	profile_release(&p);
	remove_temp(path);

	assert_non_null(mkdtemp(dir));
	profile_init(&p);
	assert_int_equal(read_path(&p, dir, NULL, &diag), -1);
	assert_non_null(strstr(diag, dir));
	assert_non_null(strstr(diag, "is a directory"));
	free(diag);
	profile_release(&p);

	strcat(dir, "/missing");
	profile_init(&p);
	assert_int_equal(read_path(&p, dir, NULL, &diag), -1);
	assert_non_null(strstr(diag, "cannot open"));
	assert_non_null(strstr(diag, dir));
	free(diag);
	profile_release(&p);
	*strrchr(dir, '/') = '\0';
	rmdir(dir);
}

/* ---- --lenient ---- */

static void test_lenient(void **state)
{
	struct read_opts lenient = { .lenient = true };
	struct res r;

	(void)state;
	/* an undefined id becomes a name of its own, said once */
	rd_opts(&r, "events: Ir\nfn=(9)\n1 5\ncfn=(8)\ncalls=1 1\n1 7\n"
		"fn=(9)\n2 1\n", &lenient);
	assert_int_equal(r.ret, 0);
	assert_diag(r.diag, 2, "warning: 'fn=(9)' refers to function id 9, which was never defined");
	assert_diag(r.diag, 2, "the warning above applies to 1 more lines");
	assert_int_equal(self_of(&r.p, "(undefined id 9)", "Ir"), 6);
	assert_int_equal(incl_of(&r.p, "(undefined id 9)", "(undefined id 8)", "Ir"), 7);
	rd_done(&r);

	/* extra costs are ignored, the others kept */
	rd_opts(&r, "events: Ir Dr\nfn=main\n1 5 6 7 8\n2 1 1 1\n", &lenient);
	assert_int_equal(r.ret, 0);
	assert_diag(r.diag, 3, "extra '7 8' ignored");
	assert_int_equal(count_of(r.diag, "cganalyze: "), 2);
	assert_int_equal(self_of(&r.p, "main", "Ir"), 6);
	assert_int_equal(self_of(&r.p, "main", "Dr"), 7);
	rd_done(&r);

	/* other errors stay errors */
	rd_opts(&r, "events: Ir\nfn=main\n1 x\n", &lenient);
	assert_int_equal(r.ret, -1);
	assert_diag(r.diag, 3, "expected a cost, found 'x'");
	rd_done(&r);
}

/* ---- --fold-recursion ---- */

static void test_fold_recursion(void **state)
{
	static const char text[] =
		"events: Ir\n"
		"fn=(1) fib\n1 10\ncfn=(2) fib'2\ncalls=1 1\n1 90\n"
		"fn=(2)\n1 50\ncfn=(2)\ncalls=3 1\n1 40\n"
		"fn=(3) odd'2'even'odd\n1 1\n"
		"fn=(4) _M_erase(node*) [clone .isra.0]'2\n1 2\n"
		"fn=(5) _M_erase(node*) [clone .isra.0]\n1 3\n"
		"fn=(6) fib'main'(below main)\n1 4\n";
	struct read_opts fold = { .fold_recursion = true };
	struct res r;

	(void)state;
	rd_opts(&r, text, &fold);
	assert_int_equal(r.ret, 0);
	assert_string_equal(r.diag, "");
	assert_int_equal(funcs_named(&r.p, "fib'2"), 0);
	assert_int_equal(self_of(&r.p, "fib", "Ir"), 60);
	assert_int_equal(count_of_call(&r.p, "fib", "fib"), 4);
	assert_int_equal(incl_of(&r.p, "fib", "fib", "Ir"), 130);
	assert_int_equal(self_of(&r.p, "odd'even'odd", "Ir"), 1);
	assert_int_equal(self_of(&r.p, "_M_erase(node*) [clone .isra.0]", "Ir"), 5);
	assert_int_equal(self_of(&r.p, "fib'main'(below main)", "Ir"), 4);
	assert_int_equal(r.p.nfuncs, 4);
	rd_done(&r);

	/* without the option the names stay apart */
	rd_clean(&r, text);
	assert_int_equal(self_of(&r.p, "fib", "Ir"), 10);
	assert_int_equal(self_of(&r.p, "fib'2", "Ir"), 50);
	assert_int_equal(count_of_call(&r.p, "fib'2", "fib'2"), 3);
	assert_int_equal(r.p.nfuncs, 6);
	rd_done(&r);
}

static const struct fold_case {
	const char *in, *out;
} fold_cases[] = {
	{ "fib'2", "fib" },
	{ "fib", "fib" },
	{ "fib'12", "fib" },
	{ "odd'2'even'odd", "odd'even'odd" },
	{ "fib'2'main'(below main)", "fib'main'(below main)" },
	{ "fib'main'(below main)", "fib'main'(below main)" },
	{ "_M_erase(node*) [clone .isra.0]'2", "_M_erase(node*) [clone .isra.0]" },
	{ "a'12'b'3", "a'b'3" },	/* only the first level */
	{ "f'", "f'" },
	{ "f''", "f''" },
	{ "f'x2", "f'x2" },
	{ "f'2x", "f'2x" },
	{ "f'2x'3", "f'2x" },
	{ "'3", "" },
	{ "", "" },
};

static void test_fold_recursion_suffix(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fold_cases) / sizeof(fold_cases[0]); i++) {
		const struct fold_case *c = &fold_cases[i];
		size_t len = strlen(c->in);
		char out[64];
		size_t n;

		memset(out, '#', sizeof(out));
		n = fold_recursion_suffix(c->in, len, out);
		if (n != strlen(c->out) || memcmp(out, c->out, n))
			fail_msg("'%s' -> '%.*s', expected '%s'", c->in, (int)n,
				 out, c->out);
		/* never writes past len */
		assert_int_equal(out[len], '#');
	}
}

/* ---- limits that hostile input cannot get around ---- */

/* A growing text buffer for generated profiles. */
struct text {
	char *s;
	size_t len, alloc;
};

static void add(struct text *t, const char *fmt, ...) CGA_PRINTF(2, 3);

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL,
			      t->s ? t->alloc - t->len : 0, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if (t->s && t->len + (size_t)n < t->alloc)
			break;
		t->alloc = (t->alloc + (size_t)n + 1) * 2;
		t->s = realloc(t->s, t->alloc);
		assert_non_null(t->s);
	}
	t->len += (size_t)n;
}

/* Each part adds an event and a function: the rows widen many times,
 * and every number lands where it belongs; once finished, a row has one
 * number per event. */
static void test_events_added_part_by_part(void **state)
{
	struct text t = { 0 };
	struct res r;

	(void)state;
	for (int k = 0; k < 40; k++)
		add(&t, "events: E%d\nfn=f%d\n1 %d\nfn=g\n1 %d\n", k, k, k + 1,
		    100 + k);
	rd_clean(&r, t.s);
	assert_int_equal(r.p.nevents, 40);
	assert_int_equal(r.p.stride, 40);
	for (int k = 0; k < 40; k++) {
		char fn[16], ev[16];

		snprintf(fn, sizeof(fn), "f%d", k);
		snprintf(ev, sizeof(ev), "E%d", k);
		assert_int_equal(self_of(&r.p, fn, ev), k + 1);
		assert_int_equal(self_of(&r.p, "g", ev), 100 + k);
		assert_int_equal(r.p.totals[event_of(&r.p, ev)], k + 1 + 100 + k);
		/* f_k has no cost in the other events */
		snprintf(ev, sizeof(ev), "E%d", (k + 1) % 40);
		assert_int_equal(self_of(&r.p, fn, ev), 0);
	}
	rd_done(&r);
	free(t.s);
}

/* Sums the reader does not make (derived events, totals over several
 * files) stop at 2^64 - 1 instead of wrapping around. */
static void test_saturated_sums(void **state)
{
	static const char a[] = "events: Ir\nfn=a\n1 18446744073709551615\n";
	static const char b[] = "events: Ir\nfn=b\n1 7\n";
	struct res r;
	struct profile p;
	char *path, *diag;

	(void)state;
	rd_clean(&r, "events: Ir\nevent: Big = 4294967296 Ir + Ir\n"
		 "fn=main\n1 4294967296\n");
	assert_true(self_of(&r.p, "main", "Big") == UINT64_MAX);
	assert_true(r.p.totals[event_of(&r.p, "Big")] == UINT64_MAX);
	rd_done(&r);

	/* two files, each within bounds; their totals are not */
	path = write_temp(a, strlen(a));
	profile_init(&p);
	assert_int_equal(read_profile(&p, path, &(struct read_opts){ 0 }), 0);
	remove_temp(path);
	path = write_temp(b, strlen(b));
	assert_int_equal(read_path(&p, path, NULL, &diag), 0);
	assert_string_equal(diag, "");
	assert_true(p.totals[0] == UINT64_MAX);
	remove_temp(path);
	free(diag);
	profile_release(&p);
}

/* 1024 different events, recorded and derived, and no more. */
static void test_event_limit(void **state)
{
	struct text t = { 0 };
	struct res r;

	(void)state;
	add(&t, "event: D0 = E0 + E1\nevent: D1 = 2 E255\n");
	for (int line = 0; line < 4; line++) {
		add(&t, "events:");
		for (int k = 0; k < 255; k++)
			add(&t, " E%d", line * 255 + k);
		add(&t, "\nfn=f\n1 1\n");
	}
	/* 1020 recorded, 2 derived: two more fit; a repeated formula is
	 * the same event (parts repeat their "event:" lines) */
	add(&t, "event: D0 = E0 + E1\nevents: X1 X2\nfn=f\n1 1\n");
	rd_clean(&r, t.s);
	assert_int_equal(r.p.nevents, 1024);
	assert_int_equal(self_of(&r.p, "f", "D0"), 1);
	assert_int_equal(self_of(&r.p, "f", "D1"), 2);
	rd_done(&r);

	add(&t, "events: X1 X2 X3\nfn=f\n1 1\n");
	rd(&r, t.s);
	assert_int_equal(r.ret, -1);
	assert_diag(r.diag, 19, "more than 1024 different events in the profile "
		    "(recorded and derived)");
	rd_done(&r);
	free(t.s);

	/* a derived event past the limit */
	t = (struct text){ 0 };
	add(&t, "events:");
	for (int k = 0; k < 1024; k++)
		add(&t, " E%d", k);
	add(&t, "\nevent: D = E0 + E1\nfn=f\n1 1\n");
	rd(&r, t.s);
	assert_int_equal(r.ret, -1);
	assert_diag(r.diag, 2, "more than 1024 different events");
	rd_done(&r);
	free(t.s);

	/* one events: line naming an event twice */
	rd(&r, "events: A B C B\nfn=f\n1 1\n");
	assert_int_equal(r.ret, -1);
	assert_diag(r.diag, 1, "event 'B' listed twice");
	rd_done(&r);
}

/* The cost tables have a size limit, whatever order functions and
 * events come in (read_opts.max_costs lowers it for the test). */
static void test_cost_limit(void **state)
{
	struct read_opts o = { .max_costs = 1000 };
	struct res r;

	(void)state;
	/* 10 events x 100 rows fits; the 101st function does not */
	for (int events_first = 0; events_first < 2; events_first++) {
		struct text t = { 0 };
		unsigned long want_line;

		if (events_first)
			add(&t, "events: A B C D E F G H I J\n");
		else
			add(&t, "events: A\n");
		for (int f = 0; f < 101; f++)
			add(&t, "fn=f%d\n1 1\n", f);
		if (!events_first)
			add(&t, "events: A B C D E F G H I J\n");
		want_line = events_first ? 202 : 204;
		rd_opts(&r, t.s, &o);
		assert_int_equal(r.ret, -1);
		assert_diag(r.diag, want_line, "the profile would need more than 7 KiB "
			    "for its costs (101 functions, calls and positions, 10 events): refused");
		rd_done(&r);
		free(t.s);
	}
	/* 100 rows of 10 events */
	{
		struct text t = { 0 };

		add(&t, "events: A B C D E F G H I J\n");
		for (int f = 0; f < 100; f++)
			add(&t, "fn=f%d\n1 1\n", f);
		rd_opts(&r, t.s, &o);
		assert_int_equal(r.ret, 0);
		rd_done(&r);
		free(t.s);
	}
}

/* The program of the header's cmd: line (code_positions.c's one read
 * without -b opens it before reading): its first word; none after the
 * body has begun, nor from a line the bytes cut. */
static void test_cmd_program(void **state)
{
	static const char *const cases[][2] = {
		{ "# callgrind format\nversion: 1\ncmd:  /usr/bin/prog -O2 x.c\npart: 1\n",
		  "/usr/bin/prog" },
		{ "version: 1\ncmd:\t./prog\r\nevents: Ir\n", "./prog" },
		{ "version: 1\ncmd: \nevents: Ir\n", NULL },
		{ "events: Ir\nfn=main\ncmd: /bin/late\n", NULL },
		{ "events: Ir\n16 3\ncmd: /bin/late\n", NULL },
		{ "version: 1\ncmd: /usr/bin/pr", NULL },
		{ "version: 1\ncommand: /usr/bin/prog\n", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = callgrind_cmd_program(cases[i][0],
						  strlen(cases[i][0]));

		if (cases[i][1])
			assert_string_equal(got, cases[i][1]);
		else
			assert_null(got);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_cmd_program),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_events_added_part_by_part),
		cmocka_unit_test(test_event_limit),
		cmocka_unit_test(test_saturated_sums),
		cmocka_unit_test(test_cost_limit),
		cmocka_unit_test(test_header_values),
		cmocka_unit_test(test_no_events_line),
		cmocka_unit_test(test_event_long_names),
		cmocka_unit_test(test_event_derived),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_name_compression),
		cmocka_unit_test(test_ids_global_across_parts),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_redefined_id),
		cmocka_unit_test(test_function_identity),
		cmocka_unit_test(test_subpositions),
		cmocka_unit_test(test_calls_spec_example),
		cmocka_unit_test(test_calls_details),
		cmocka_unit_test(test_call_targets_defaults),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_jumps_kept),
		cmocka_unit_test(test_callsites),
		cmocka_unit_test(test_callsites_narrowed),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_parts_by_ordinal),
		cmocka_unit_test(test_xdebug_appended),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_bzip2),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_lenient),
		cmocka_unit_test(test_fold_recursion),
		cmocka_unit_test(test_fold_recursion_suffix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
