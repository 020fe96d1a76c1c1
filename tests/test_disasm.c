/*
 * The disassembler (symtab/disasm.c) against objdump, and the listing's
 * data (src/print/disasm_data.c) on the instruction-level sample profiles.
 *
 * tests/disasm/NAME.objdump hold GNU objdump 2.40's disassembly of chosen
 * functions (tests/disasm/make-objdump.sh). Where we differ, on purpose:
 *  - the symbol named in a %rip-relative comment ("# 4000 <...>"): objdump
 *    names a GOT slot after its dynamic relocation (<qsort@GLIBC_2.2.5>,
 *    <__gmon_start__@Base>), which we do not read; we name the nearest
 *    symbol of its section. The address itself is compared.
 *  - objdump names an address with a symbol of ANOTHER section when its
 *    own has none below it ("jmp 1020 <_init+0x20>" in .plt, which is not
 *    part of _init); we print the bare address there. We are right: _init
 *    ends at 0x101b in .init. None of the compared functions jumps there.
 *  - objdump also disassembles the padding after a function up to the
 *    next symbol; we stop at the symbol's end.
 */
#include "helpers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "cg/cg.h"
#include "print/disasm_data.h"
#include "print/disasm_members.h"
#include "resolve/resolve.h"
#include "select/selection.h"
#include "symtab/disasm.h"

/* --- against objdump --- */

struct ref_insn {
	uint64_t addr;
	char *text;
};

/* The text before a '#' comment, without trailing blanks, and the hex
 * address after the comment's '#' (0 when none). */
static void split_comment(const char *text, size_t *len, uint64_t *comment)
{
	const char *hash = strchr(text, '#');

	*len = hash ? (size_t)(hash - text) : strlen(text);
	while (*len && (text[*len - 1] == ' ' || text[*len - 1] == '\t'))
		(*len)--;
	*comment = hash ? strtoull(hash + 1, NULL, 16) : 0;
}

/* objdump's direct target: "call   1139 <square>" -> 0x1139. */
static bool objdump_target(const char *text, uint64_t *target)
{
	const char *sp = strchr(text, ' ');
	char *end;

	if (!sp)
		return false;
	while (*sp == ' ')
		sp++;
	*target = strtoull(sp, &end, 16);
	return end != sp && end[0] == ' ' && end[1] == '<';
}

/*
 * The two texts differ only in which of several symbols at one address
 * names a target: C++ emits the complete- and base-object constructor
 * and destructor (D1Ev, D2Ev) at one address, and objdump and we pick
 * different aliases. Both names must be symbols at the same address.
 */
static bool alias_only(const struct symtab *st, const char *a, size_t la,
		       const char *b, size_t lb)
{
	const char *oa = memchr(a, '<', la), *ob = memchr(b, '<', lb);
	size_t na, nb;
	name_id ia, ib;
	const struct sym *sa, *sb;

	if (!oa || !ob || oa - a != ob - b || memcmp(a, b, (size_t)(oa - a)))
		return false;
	oa++;
	ob++;
	na = strcspn(oa, "+>");
	nb = strcspn(ob, "+>");
	if (strcmp(oa + na, ob + nb))	/* the offsets and the rest */
		return false;
	ia = names_find(st->names, oa, na);
	ib = names_find(st->names, ob, nb);
	sa = ia == NO_NAME ? NULL : symtab_find(st, ia);
	sb = ib == NO_NAME ? NULL : symtab_find(st, ib);
	return sa && sb && sa->addr == sb->addr;
}

static void compare_function(const struct symtab *st, const char *name,
			     const struct ref_insn *ref, size_t nref,
			     size_t *compared)
{
	name_id id = names_find(st->names, name, strlen(name));
	const struct sym *s = id == NO_NAME ? NULL : symtab_find(st, id);
	struct disasm d = { 0 };
	size_t k = 0;

	if (!s)
		fail_msg("%s: no symbol '%s'", st->path, name);
	assert_int_equal(disasm_range(st, s->addr, s->end, false, &d), 0);
	for (size_t i = 0; i < nref && ref[i].addr < s->end; i++, k++) {
		const struct insn *in;
		const char *ours;
		size_t la, lb;
		uint64_t ca, cb, t;

		if (k >= d.ninsns)
			fail_msg("%s: objdump has an instruction at 0x%llx, we "
				 "stopped before", name,
				 (unsigned long long)ref[i].addr);
		in = &d.insns[k];
		ours = insn_text(&d, in);
		if (in->addr != ref[i].addr)
			fail_msg("%s: instruction %zu at 0x%llx, objdump 0x%llx",
				 name, k, (unsigned long long)in->addr,
				 (unsigned long long)ref[i].addr);
		split_comment(ours, &la, &ca);
		split_comment(ref[i].text, &lb, &cb);
		if ((la != lb || memcmp(ours, ref[i].text, la) || ca != cb) &&
		    !alias_only(st, ours, la, ref[i].text, lb))
			fail_msg("%s at 0x%llx: we say '%s', objdump '%s'", name,
				 (unsigned long long)in->addr, ours, ref[i].text);
		if (objdump_target(ref[i].text, &t) &&
		    (!strncmp(ref[i].text, "call", 4) || ref[i].text[0] == 'j')) {
			assert_true(in->kind == INSN_CALL || in->kind == INSN_JUMP ||
				    in->kind == INSN_CJUMP);
			assert_true(in->has_target);
			assert_int_equal(in->target, t);
		}
		if (!strncmp(ref[i].text, "call", 4))
			assert_int_equal(in->kind, INSN_CALL);
		if (!strncmp(ref[i].text, "jmp", 3))
			assert_int_equal(in->kind, INSN_JUMP);
		if (!strncmp(ref[i].text, "ret", 3))
			assert_int_equal(in->kind, INSN_RET);
		(*compared)++;
	}
	if (k != d.ninsns)
		fail_msg("%s: %zu instructions, objdump %zu", name, d.ninsns, k);
	disasm_release(&d);
}

/* Every function of one objdump file compared with ours. */
static void compare_file(const char *ref_path, const char *binary,
			 size_t want_functions)
{
	struct arena arena;
	struct names names;
	struct symtab st;
	struct symtab_opts so = { .demangle = false };
	size_t len, nref = 0, alloc = 0, functions = 0, compared = 0;
	char *text = slurp(ref_path, &len), *line, *save = NULL;
	char *name = NULL;
	struct ref_insn *ref = NULL;

	assert_non_null(text);
	arena_init(&arena);
	names_init(&names, &arena);
	diag_capture_begin();
	assert_int_equal(symtab_open(&st, binary, &so, &names), 0);
	free(diag_capture_end());
	for (line = strtok_r(text, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
		char *lt, *colon;

		/* a header ends the function before it */
		if (!line || (line[0] != ' ' && line[0] != '#')) {
			if (name) {
				compare_function(&st, name, ref, nref, &compared);
				functions++;
			}
			if (!line)
				break;
			lt = strchr(line, '<');
			name = lt + 1;
			*strrchr(name, '>') = '\0';
			nref = 0;
			continue;
		}
		if (line[0] == '#')
			continue;
		colon = strchr(line, ':');
		assert_non_null(colon);
		ARRAY_GROW(ref, nref + 1, alloc);
		ref[nref].addr = strtoull(line, NULL, 16);
		ref[nref].text = colon + 2;	/* past ":\t" */
		nref++;
	}
	assert_int_equal(functions, want_functions);
	assert_true(compared > functions);
	free(ref);
	free(text);
	symtab_release(&st);
	names_release(&names);
	arena_release(&arena);
}

static void test_objdump_recursion(void **state)
{
	(void)state;
	compare_file("tests/disasm/recursion.objdump", "samples/recursion/prog", 8);
}

static void test_objdump_cxx(void **state)
{
	(void)state;
	compare_file("tests/disasm/cxx.objdump", "samples/cxx/prog", 6);
}

static void test_objdump_nopie(void **state)
{
	(void)state;
	compare_file("tests/disasm/nopie.objdump", "tests/resolve/c-nopie/prog", 5);
}

static void test_objdump_shlib(void **state)
{
	(void)state;
	compare_file("tests/disasm/libwork.objdump",
		     "tests/resolve/shlib/libwork.so", 3);
}

/* --- hostile ranges --- */

static void test_bad_ranges(void **state)
{
	struct arena arena;
	struct names names;
	struct symtab st;
	struct symtab_opts so = { 0 };
	struct disasm d = { 0 };
	char *msg;
	uint16_t machine;

	(void)state;
	arena_init(&arena);
	names_init(&names, &arena);
	assert_int_equal(symtab_open(&st, "samples/recursion/prog", &so, &names), 0);

	diag_capture_begin();
	assert_int_equal(disasm_range(&st, 0x1000, 0x1000 + DISASM_MAX_BYTES + 1,
				      false, &d), -1);
	msg = diag_capture_end();
	assert_non_null(strstr(msg, "more than the"));
	free(msg);

	/* past the file-backed part of every segment */
	diag_capture_begin();
	assert_int_equal(disasm_range(&st, 0x7ffff000, 0x7ffff010, false, &d), -1);
	msg = diag_capture_end();
	assert_non_null(strstr(msg, "not all in the file's loaded segments"));
	free(msg);
	assert_int_equal(d.ninsns, 0);

	machine = st.machine;
	st.machine = 0xfffe;
	diag_capture_begin();
	assert_int_equal(disasm_range(&st, 0x118b, 0x11b6, false, &d), -1);
	msg = diag_capture_end();
	assert_non_null(strstr(msg, "cannot disassemble code for ELF machine 65534"));
	free(msg);
	st.machine = machine;

	/* a range ending inside an instruction: the rest is "(bad)" */
	assert_int_equal(disasm_range(&st, 0x118b, 0x1191, false, &d), 0);
	assert_int_equal(d.ninsns, 3);
	assert_int_equal(d.insns[2].kind, INSN_BAD);
	assert_int_equal(d.insns[2].len, 1);
	assert_string_equal(insn_text(&d, &d.insns[2]), ".byte 0x7e");
	assert_null(disasm_find(&d, 0x118c));
	assert_non_null(disasm_find(&d, 0x118d));
	disasm_release(&d);

	symtab_release(&st);
	names_release(&names);
	arena_release(&arena);
}

/* --- the listing's data on real profiles --- */

struct run {
	struct profile p;
	struct symtab *st[2];
	struct resolve_report rep[2];
	size_t nst;
	struct cg cg;
	struct print_opts po;
	uint32_t show[16];
};

static void run_load(struct run *r, const char *profile, const char *b1,
		     const char *b2)
{
	struct read_opts ro = { .want_positions = true };
	struct symtab_opts so = { .demangle = true };
	struct resolve_opts rso = { .inlined = INLINE_CALLER, .demangle = true };
	char *diag = NULL;

	memset(r, 0, sizeof(*r));
	profile_init(&r->p);
	assert_int_equal(read_path(&r->p, profile, &ro, &diag), 0);
	free(diag);
	diag_capture_begin();
	r->nst = b2 ? 2 : 1;
	for (size_t b = 0; b < r->nst; b++) {
		r->st[b] = xcalloc(1, sizeof(*r->st[b]));
		assert_int_equal(symtab_open(r->st[b], b ? b2 : b1, &so,
					     &r->p.names), 0);
	}
	assert_int_equal(resolve_profile(&r->p, r->st, r->nst, &rso, r->rep), 0);
	free(diag_capture_end());
	profile_finish(&r->p);
	cg_build(&r->cg, &r->p, 0);
	cg_find_cycles(&r->cg);
	cg_propagate_measured(&r->cg);
	cg_rank(&r->cg);
	for (size_t e = 0; e < r->p.nevents && e < 16; e++)
		r->show[e] = (uint32_t)e;
	r->po.show = r->show;
	r->po.nshow = r->p.nevents < 16 ? r->p.nevents : 16;
	r->po.reports = r->rep;
	r->po.nreports = r->nst;
	r->po.symtabs = r->st;
	r->po.disasm = true;
}

static void run_release(struct run *r)
{
	cg_release(&r->cg);
	for (size_t b = 0; b < r->nst; b++) {
		symtab_release(r->st[b]);
		free(r->st[b]);
	}
	profile_release(&r->p);
}

/* Whether f's name but for a valgrind suffix ("fib'2") is sym's name or
 * raw name: the rule as the listing had it per symbol, a test by bytes. */
static bool named_as(const struct run *r, const struct symtab *st, uint32_t f,
		     const struct sym *sym)
{
	const char *name = profile_str(&r->p, r->p.funcs[f].name);
	name_id ids[2] = { sym->name, sym->raw };

	for (int k = 0; k < 2; k++) {
		size_t n;

		if (ids[k] == NO_NAME)
			continue;
		n = names_len(st->names, ids[k]);
		if (!strncmp(name, names_str(st->names, ids[k]), n) &&
		    (name[n] == '\0' || name[n] == '\''))
			return true;
	}
	return false;
}

/*
 * disasm_members_init() found for every pick at once what a walk of every
 * position and function for each pick finds: its functions (a position
 * inside the symbol, or named after it), their positions, call sites and
 * jumps, each ascending.
 */
static void check_members(const struct run *r, const struct disasm_pick *picks,
			  size_t n, const struct disasm_members *m)
{
	const struct profile *p = &r->p;
	bool *member = xcalloc(p->nfuncs + 1, sizeof(*member));

	assert_int_equal(m->n, n);
	for (size_t k = 0; k < n; k++) {
		const struct symtab *st = r->st[picks[k].binary];
		const struct resolve_report *rep = &r->rep[picks[k].binary];
		const struct sym *sym = &st->syms[picks[k].sym];
		size_t w;

		memset(member, 0, p->nfuncs * sizeof(*member));
		for (size_t i = 0; i < p->npos; i++) {
			const struct ppos *q = &p->pos[i];

			if (q->addr && p->funcs[q->func].object == rep->object &&
			    q->addr - rep->load_offset >= sym->addr &&
			    q->addr - rep->load_offset < sym->end)
				member[q->func] = true;
		}
		for (uint32_t f = 0; f < p->nfuncs; f++)
			if (p->funcs[f].object == rep->object &&
			    named_as(r, st, f, sym) &&
			    resolve_named_sym(p, st, f) == sym)
				member[f] = true;
		w = m->func_at[k];
		for (uint32_t f = 0; f < p->nfuncs; f++)
			if (member[f]) {
				assert_true(w < m->func_at[k + 1]);
				assert_int_equal(m->funcs[w++], f);
			}
		assert_int_equal(w, m->func_at[k + 1]);
		w = m->pos_at[k];
		for (size_t i = 0; i < p->npos; i++)
			if (member[p->pos[i].func]) {
				assert_true(w < m->pos_at[k + 1]);
				assert_int_equal(m->pos[w++], i);
			}
		assert_int_equal(w, m->pos_at[k + 1]);
		w = m->site_at[k];
		for (size_t c = 0; c < p->ncallsites; c++)
			if (member[p->pos[p->callsites[c].pos].func]) {
				assert_true(w < m->site_at[k + 1]);
				assert_int_equal(m->sites[w++], c);
			}
		assert_int_equal(w, m->site_at[k + 1]);
		w = m->jump_at[k];
		for (size_t j = 0; j < p->njumps; j++)
			if (member[p->pos[p->jumps[j].from].func]) {
				assert_true(w < m->jump_at[k + 1]);
				assert_int_equal(m->jumps[w++], j);
			}
		assert_int_equal(w, m->jump_at[k + 1]);
	}
	free(member);
}

/*
 * Every function of the binaries with a cost: its listing's instructions
 * and the costs it sets apart add up to the self cost of its profile
 * functions, every event. Only one kind of cost is set apart in these
 * profiles: valgrind counts code reached by a tail jump into another
 * symbol as the jumping function's (frame_dummy's "jmp
 * register_tm_clones"), so the listing of register_tm_clones has
 * frame_dummy's own instructions set apart, outside it, and the listing
 * of frame_dummy those of register_tm_clones; each is an instruction
 * start of the symbol that holds it. Every profile function of the binaries' objects
 * with a self cost is in some listing.
 */
static void check_sums(const char *profile, const char *b1, const char *b2,
		       size_t min_listings)
{
	struct run r;
	struct disasm_pick *picks = NULL;
	struct disasm_members m;
	size_t n = 0;
	uint32_t *listed;
	size_t unplaced = 0;

	run_load(&r, profile, b1, b2);
	listed = xcalloc(r.p.nfuncs + 1, sizeof(*listed));
	r.po.disasm_what = "*";
	assert_int_equal(disasm_pick(&r.cg, &r.po, &picks, &n), 0);
	assert_true(n >= min_listings);
	/* with the binaries' code moved away, no position is in a symbol:
	 * what is found is by name alone */
	for (size_t b = 0; b < r.nst; b++)
		r.rep[b].load_offset += 1ULL << 40;
	disasm_members_init(&m, &r.cg, &r.po, picks, n);
	check_members(&r, picks, n, &m);
	assert_true(m.func_at[n] > 0);
	disasm_members_release(&m);
	for (size_t b = 0; b < r.nst; b++)
		r.rep[b].load_offset -= 1ULL << 40;
	disasm_members_init(&m, &r.cg, &r.po, picks, n);
	check_members(&r, picks, n, &m);
	for (size_t i = 0; i < n; i++) {
		struct disasm_listing l;
		uint64_t sum = 0;

		assert_int_equal(disasm_listing_build(&l, &r.cg, &r.po, picks,
						      &m, i), 0);
		assert_true(l.code_ok);
		for (size_t k = 0; k < l.nunplaced; k++) {
			const struct dl_unplaced *u = &l.unplaced[k];
			const struct sym *other = symtab_lookup(l.st, u->addr);
			struct disasm od = { 0 };

			if (u->where != DL_OUTSIDE || !other || other == l.sym)
				fail_msg("%s: %s: cost at 0x%llx, at no instruction",
					 profile, names_str(&r.p.names, l.sym->name),
					 (unsigned long long)u->addr);
			assert_int_equal(disasm_range(l.st, other->addr, other->end,
						      true, &od), 0);
			assert_non_null(disasm_find(&od, u->addr));
			disasm_release(&od);
			assert_int_equal(l.nfuncs, 1);
			assert_string_equal(profile_str(&r.p, r.p.funcs[l.funcs[0]].name),
					    "frame_dummy");
			unplaced++;
		}
		for (size_t e = 0; e < l.stride; e++) {
			uint64_t apart = 0;

			sum = 0;
			for (size_t k = 0; k < l.code.ninsns; k++)
				sum += dl_row(l.cost, &l, k)[e];
			assert_int_equal(sum, l.placed[e]);
			for (size_t k = 0; k < l.nunplaced; k++)
				apart += dl_row(l.unplaced_cost, &l, k)[e];
			sum += apart;
			if (sum != l.self[e])
				fail_msg("%s: %s: the instructions' %s sum to %llu, "
					 "the self cost is %llu", profile,
					 names_str(&r.p.names, l.sym->name),
					 profile_str(&r.p, r.p.events[e].name),
					 (unsigned long long)sum,
					 (unsigned long long)l.self[e]);
		}
		for (size_t k = 0; k < l.nfuncs; k++)
			listed[l.funcs[k]]++;
		disasm_listing_release(&l);
	}
	for (uint32_t f = 0; f < r.p.nfuncs; f++) {
		bool ours = false, any = false;

		for (size_t b = 0; b < r.nst; b++)
			ours |= r.p.funcs[f].object == r.rep[b].object;
		for (size_t e = 0; e < r.p.stride; e++)
			any |= profile_self(&r.p, f)[e] != 0;
		if (ours && any && !listed[f])
			fail_msg("%s: %s is in %u listings", profile,
				 profile_str(&r.p, r.p.funcs[f].name), listed[f]);
	}
	/* frame_dummy's, in each of these binaries */
	assert_true(unplaced > 0);
	disasm_members_release(&m);
	free(listed);
	free(picks);
	run_release(&r);
}

static void test_sums_recursion(void **state)
{
	(void)state;
	check_sums("samples/recursion/callgrind.instr.out",
		   "samples/recursion/prog", NULL, 15);
}

static void test_sums_cxx(void **state)
{
	(void)state;
	check_sums("samples/cxx/callgrind.instr.out", "samples/cxx/prog", NULL, 10);
}

static void test_sums_shlib(void **state)
{
	(void)state;
	check_sums("tests/resolve/shlib/callgrind.out",
		   "tests/resolve/shlib/prog", "tests/resolve/shlib/libwork.so", 5);
}

static void test_sums_nopie(void **state)
{
	(void)state;
	check_sums("tests/resolve/c-nopie/callgrind.out",
		   "tests/resolve/c-nopie/prog", NULL, 8);
}

/* disasm_pick() chose want_n functions, the first named first (NULL:
 * any); frees picks. */
static void assert_picks(const struct run *r, struct disasm_pick *picks,
			 size_t n, size_t want_n, const char *first)
{
	assert_int_equal(n, want_n);
	if (first)
		assert_string_equal(names_str(&r->p.names,
					      r->st[0]->syms[picks[0].sym].name),
				    first);
	free(picks);
}

/* Which functions --disasm=WHAT lists. */
static void test_pick(void **state)
{
	static const struct {
		const char *what;
		int ret;
		size_t n;
		const char *first;
	} cases[] = {
		{ "fib", 0, 1, "fib" },
		{ "fib'2", 0, 1, "fib" },	/* valgrind's recursion level */
		{ "ring_*", 0, 3, NULL },
		{ "main", 0, 1, "main" },
		{ "_init", 0, 1, "_init" },	/* exact: listed without cost */
		{ "_ini*", -1, 0, NULL },	/* glob: only with cost */
		{ "nosuch", -1, 0, NULL },
	};
	struct run r;

	(void)state;
	run_load(&r, "samples/recursion/callgrind.instr.out",
		 "samples/recursion/prog", NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct disasm_pick *picks = NULL;
		size_t n = 0;
		char *msg;

		r.po.disasm_what = cases[i].what;
		diag_capture_begin();
		assert_int_equal(disasm_pick(&r.cg, &r.po, &picks, &n), cases[i].ret);
		msg = diag_capture_end();
		if (cases[i].ret < 0)
			assert_non_null(strstr(msg, cases[i].what));
		free(msg);
		assert_picks(&r, picks, n, cases[i].n, cases[i].first);
	}
	/* the hottest, above a threshold, hottest first */
	{
		struct disasm_pick *picks = NULL;
		size_t n = 0;

		r.po.disasm_what = NULL;
		r.po.listing_threshold = 5;
		assert_int_equal(disasm_pick(&r.cg, &r.po, &picks, &n), 0);
		assert_int_equal(n, 2);
		assert_string_equal(names_str(&r.p.names,
				r.st[0]->syms[picks[0].sym].name), "fib");
		assert_int_equal(picks[0].cost, 29290);
		assert_string_equal(names_str(&r.p.names,
				r.st[0]->syms[picks[1].sym].name), "cmp_uint");
		free(picks);
	}
	/* the report's rule (disasm_max): every function with a cost,
	 * whatever the threshold, the hottest first, at most that many */
	{
		struct disasm_pick *picks = NULL, *all = NULL;
		size_t n = 0, nall = 0;

		r.po.listing_threshold = 5;
		r.po.disasm_max = SIZE_MAX;
		assert_int_equal(disasm_pick(&r.cg, &r.po, &all, &nall), 0);
		assert_true(nall > 2);
		for (size_t k = 0; k < nall; k++) {
			assert_true(all[k].cost > 0);
			if (k)
				assert_true(all[k].cost <= all[k - 1].cost);
		}
		r.po.disasm_max = 3;
		assert_int_equal(disasm_pick(&r.cg, &r.po, &picks, &n), 0);
		assert_int_equal(n, 3);
		assert_memory_equal(picks, all, 3 * sizeof(*picks));
		free(picks);
		free(all);
		r.po.disasm_max = 0;
	}
	run_release(&r);
}

/*
 * -p/-P SPEC choose among the functions too (as gprof's -A/-J SPEC do
 * for its annotated source): only what -p names, everything but what
 * -P names, with or without WHAT.
 */
static void test_pick_selected(void **state)
{
	static const struct {
		enum symspec_use use;
		const char *spec, *what;
		double threshold;
		int ret;
		size_t n;
		const char *first;
	} cases[] = {
		{ SPEC_FLAT_ONLY, "cmp_uint", NULL, 0, 0, 1, "cmp_uint" },
		{ SPEC_FLAT_ONLY, "main", NULL, 0, 0, 1, "main" },
		/* the hottest two but fib (and fib'2, its code) */
		{ SPEC_FLAT_NOT, "fib*", NULL, 5, 0, 1, "cmp_uint" },
		{ SPEC_FLAT_NOT, "fib*", "fib", 0, -1, 0, NULL },
		/* a bare name is every recursion level: fib and fib'2 */
		{ SPEC_FLAT_NOT, "fib", NULL, 5, 0, 1, "cmp_uint" },
		/* fib'2 alone is most of fib's code */
		{ SPEC_FLAT_NOT, "fib'2", NULL, 5, 0, 1, "cmp_uint" },
		{ SPEC_FLAT_ONLY, "fib'2", NULL, 0, 0, 1, "fib" },
		{ SPEC_FLAT_ONLY, "main", "ring_*", 0, -1, 0, NULL },
		{ SPEC_FLAT_ONLY, "ring_a", "ring_*", 0, 0, 1, "ring_a" },
		/* an exact WHAT without cost: listed when -p names it */
		{ SPEC_FLAT_ONLY, "main", "_init", 0, -1, 0, NULL },
		{ SPEC_FLAT_ONLY, "main", "main", 0, 0, 1, "main" },
	};
	struct run r;

	(void)state;
	run_load(&r, "samples/recursion/callgrind.instr.out",
		 "samples/recursion/prog", NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct symspec_opt so = { .use = cases[i].use };
		struct selection sel;
		struct disasm_pick *picks = NULL;
		size_t n = 0;
		const char *why;

		assert_int_equal(symspec_parse(cases[i].spec, &so.spec, &why), 0);
		selection_init(&sel, &r.p, &so, 1);
		r.po.flat_listed = sel.flat;
		r.po.disasm_what = cases[i].what;
		r.po.listing_threshold = cases[i].threshold;
		diag_capture_begin();
		assert_int_equal(disasm_pick(&r.cg, &r.po, &picks, &n), cases[i].ret);
		free(diag_capture_end());
		assert_picks(&r, picks, n, cases[i].n, cases[i].first);
		selection_release(&sel);
		symspec_opt_release(&so);
	}
	r.po.flat_listed = NULL;
	run_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objdump_recursion),
		cmocka_unit_test(test_objdump_cxx),
		cmocka_unit_test(test_objdump_nopie),
		cmocka_unit_test(test_objdump_shlib),
		cmocka_unit_test(test_bad_ranges),
		cmocka_unit_test(test_sums_recursion),
		cmocka_unit_test(test_sums_cxx),
		cmocka_unit_test(test_sums_shlib),
		cmocka_unit_test(test_sums_nopie),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_pick_selected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
