/*
 * A perf recording (p->perf: objects, offsets, a tree of stacks) made
 * into functions, self costs, arcs and exact inclusive costs.
 *
 * Names. Each object gets its symbols from a -b binary given for it
 * (-b OBJECT=FILE, else the binary with its build-id, else with its
 * file name), else from the file at the recorded path (under
 * --sysroot) when its build-id is the recorded one. A file offset becomes the binary's
 * link-time address through the PT_LOAD segment that maps it, so PIE
 * and shared libraries need no load offset. The kernel's addresses are
 * named from kallsyms (perf_kallsyms.h: --kallsyms FILE, else the
 * running kernel's when it made the recording, its OSRELEASE uname -r,
 * each checked to be of the recording's boot).
 * What cannot be named is shown as perf shows it: a hex offset in its
 * object, "[unknown]" outside every mapping, and the kernel as one
 * function "[kernel.kallsyms]" without its symbols.
 *
 * A stack's frames past the leaf are return addresses, but for the
 * first user frame under kernel frames (where the kernel was entered):
 * they are looked up one byte before, in the call instruction, so a
 * call that is the last instruction of its function (to a function
 * that does not return) is not taken for the next function. perf
 * report looks the return address up itself; the two differ only
 * there (ld.so's _start calls _dl_start last: perf names the frame
 * _dl_start_user, the code the call returns to).
 *
 * --inlined=callee: a frame whose address is in inlined code (a -b
 * binary's DWARF says so) stands for a chain of
 * functions, the one of its symbol, the function inlined there, and so
 * on in: the innermost is the function the address is in, as the
 * Callgrind input's --inlined=callee charges it. The chain is in the
 * stack as frames of their own, joined by arcs, so the sample's period
 * is the innermost's self cost, every function of the chain has it as
 * inclusive cost, and the frame's caller calls the chain's outermost
 * function. perf report --inline and perf script --inline expand a
 * stack the same way (test_perf_peers.c compares them).
 *
 * Costs, as for IgProf's whole stacks: a sample's period is the leaf's
 * self cost, and counts once for every distinct function (func_incl)
 * and every distinct caller -> callee arc (the arc's inclusive cost)
 * of its stack, however often recursion repeats them (perf_charge.h:
 * the stacks charged as a tree, in work of its nodes, not of the
 * samples or the stacks' depths).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "call_check.h"
#include "kallsyms.h"
#include "perf_jitmap.h"
#include "perf_kallsyms.h"
#include "perf_charge.h"
#include "perf_missing.h"
#include "perf_lines.h"
#include "perf_preload.h"
#include "profile/perf_data.h"
#include "profile/perf_files.h"
#include "resolve.h"

#define PF_X_FLAG 1u

/* What names one object's code. */
struct binding {
	const struct symtab *st;	/* NULL: no symbols */
	struct symtab *owned;		/* opened here from the recorded path */
	int binary;			/* the -b index, or -1 */
	/* the object its functions are listed under: NO_NAME, its own
	 * path; another object's that the same -b build names
	 * (bind_same_build()), so one function is one row */
	name_id listed_as;
};

struct presolve {
	struct profile *p;
	struct perf_data *d;
	const struct resolve_opts *o;
	struct binding *bind;		/* per perf object */
	struct perf_recorded *kept;	/* NULL: the recorded files' symbol
					 * tables are for names only */
	struct kallsyms ksyms;
	bool have_ksyms;
	/* the symbol tables taken from the preloader, with names of their
	 * own, in the order taken (kallsyms_order()) */
	struct kallsyms_before *taken;
	size_t ntaken, taken_alloc;
	uint32_t *func_exact, *func_ret;	/* per frame; NO_ID unknown */
	/* per frame (exact, return address), or NULL: its symbol looked
	 * up ahead (frame_syms()): its index in its object's table plus 2,
	 * 1 none that names a function, 0 not looked up */
	uint32_t *sym_exact, *sym_ret;
	size_t syms_next;	/* frame_syms()' next chunk of nodes */
	uint32_t *event_of;		/* perf event -> profile event */
	/* per object, up to RET_CHECKS of its return-address frames, for
	 * calls_match() (NULL until wanted) */
	uint32_t *ret_frames;
	uint8_t *nret_frames;
	uint8_t *ret_inside;		/* per object: its frames are callers'
					 * exact addresses (pprof) */
	/* --inlined=callee: per frame (exact, return address), where its
	 * chain of functions is in chain_funcs, outermost first (0: not
	 * made yet), and how many */
	uint32_t *chain_exact, *chain_ret;
	uint8_t *nchain_exact, *nchain_ret;
	uint32_t *chain_funcs;
	size_t nchain_funcs, chain_alloc;
	struct jitmaps jit;		/* JITs' /tmp/perf-PID.map */
	/* per object, per symbol of its table: the function symbol_func()
	 * gave it plus 1 (0: not yet) and the line it set (NULL until
	 * wanted) */
	uint32_t **sym_func;
};

/* The inlined functions a frame may stand for, at most (symtab's
 * frames; resolve.c's --inlined=callee has the same bound). */
#define MAX_INLINE 64

static bool same_build_id(const struct perf_object *ob,
			  const struct symtab *st)
{
	return perf_build_id_is(ob, st->build_id, st->build_id_len);
}

static bool object_has_frames(const struct perf_object *ob)
{
	return ob->frames.nr > 0;
}

/*
 * The object -b binary b is for, among the objects with frames (any:
 * all the recording maps): -b OBJECT=FILE names it (its path or its file
 * name); else the build-id says; else the file name. NO_ID when none.
 */
static uint32_t object_among(const struct presolve *r, size_t b,
			     const struct symtab *st, bool any,
			     const char **how)
{
	const char *want = r->o->objects ? r->o->objects[b] : NULL;
	const struct perf_data *d = r->d;
	uint32_t by_name = NO_ID;

	*how = want ? "named by -b OBJECT=FILE" : "matched by its file name";

	for (size_t i = 0; i < d->nobjects; i++) {
		const struct perf_object *ob = &d->objects[i];
		const char *path = profile_str(r->p, ob->path);

		if (ob->kind != PERF_OBJ_FILE ||
		    (!any && !object_has_frames(ob)))
			continue;
		if (want) {
			if (!strcmp(want, path) ||
			    !strcmp(perf_base_name(want), perf_base_name(path)))
				return (uint32_t)i;
			continue;
		}
		if (same_build_id(ob, st)) {
			*how = "matched by its build-id";
			return (uint32_t)i;
		}
		if (by_name == NO_ID &&
		    !strcmp(perf_base_name(st->path), perf_base_name(path)))
			by_name = (uint32_t)i;
	}
	return by_name;
}

/*
 * The object -b binary b is for: one with frames, else one the recording
 * maps without a frame of the samples read in it (--time, --pid, --tid,
 * --comm chose others: the report's threads panel offers such a window
 * with the run's -b), which is not a wrong -b.
 */
static uint32_t object_for_binary(const struct presolve *r, size_t b,
				  const struct symtab *st, const char **how)
{
	uint32_t i = object_among(r, b, st, false, how);

	return i != NO_ID ? i : object_among(r, b, st, true, how);
}

#define RET_CHECKS 64

/* What frame_classes() says of each frame: its object's */
#define FRAME_CHECKED 1		/* calls_match() may check it */
#define FRAME_KERNEL 2
#define FRAME_UNKNOWN 4		/* outside every mapping */

/* Whether calls_match() may ask for object i's return addresses: every
 * caller asks only for an object of a file, with frames, that holds no
 * build-id. */
static bool checks_calls(const struct perf_data *d, uint32_t i)
{
	const struct perf_object *ob = &d->objects[i];

	return ob->kind == PERF_OBJ_FILE && object_has_frames(ob) &&
	       !ob->build_id_len;
}

/* Each frame's FRAME_ bits, a byte each: the passes over the nodes
 * below read them where each node's object was two loads away, one of
 * them into the frames' table, megabytes in a big recording. */
static uint8_t *frame_classes(const struct perf_data *d)
{
	uint8_t *of = xcalloc(d->nobjects + 1, 1);
	uint8_t *class = xmalloc(d->nframes + 1);

	for (uint32_t i = 0; i < d->nobjects; i++)
		of[i] = (checks_calls(d, i) ? FRAME_CHECKED : 0) |
			(d->objects[i].kind == PERF_OBJ_KERNEL ? FRAME_KERNEL
							       : 0) |
			(d->objects[i].kind == PERF_OBJ_UNKNOWN ? FRAME_UNKNOWN
								: 0);
	for (size_t f = 0; f < d->nframes; f++)
		class[f] = of[d->frames[f].object];
	free(of);
	return class;
}

/*
 * Per node, whether a return address in no mapping is inside it (between
 * it and the sampled function; a sampled address there is JIT code or
 * the like, not a chain gone astray): a frame-pointer chain read outward through
 * code that keeps no frame pointer takes whatever the stack holds for
 * frames once it has gone astray (perf record -p of a C++ program, in
 * pipe mode: past an "address" 6, libstdc++'s vtable entries, function
 * entries that follow no call), and an object's build is not judged by
 * those. Frames read before it went astray, inside it, stay. Nodes come
 * after their parents (perf_data_path()).
 */
static uint8_t *astray_nodes(const struct perf_data *d, const uint8_t *class)
{
	uint8_t *astray = xcalloc(d->nnodes + 1, 1);

	for (size_t n = d->nnodes; n-- > 0;) {
		uint32_t up = d->nodes[n].parent;

		if (!d->nodes[n].exact &&
		    class[d->nodes[n].frame] & FRAME_UNKNOWN)
			astray[n] = 1;
		if (up != NO_ID && up < n && astray[n])
			astray[up] = 1;
	}
	return astray;
}

/*
 * Each object's first RET_CHECKS distinct return-address frames, for
 * the objects calls_match() may check (those of the others were kept
 * for nothing). An object whose frames are all
 * exact (an unsymbolized pprof profile's: pprof takes every location's
 * address as it is) has its callers' frames instead, those with a
 * callee outside the kernel: a caller's address is the return address
 * or one byte into the call (Go's runtime/pprof), which calls_match()
 * both take (r->ret_inside). Both are looked for in one pass over the
 * nodes (the callers' apart, with their own seen, which the first kind
 * never touches in an object that has none of it), with each frame's
 * object by frame_classes(): on the 1 GB bench recording, where one
 * object lacks a build-id and has exact frames only, two passes took
 * 16.9 million instructions, 3.3 ms of the main thread after the read.
 */
static void find_ret_frames(struct presolve *r)
{
	const struct perf_data *d = r->d;
	uint8_t *seen = xcalloc(d->nframes + 1, 1);
	uint8_t *seen_up = xcalloc(d->nframes + 1, 1);
	uint8_t *class = frame_classes(d);
	uint8_t *astray = astray_nodes(d, class);
	/* per object, the callers' frames found */
	uint32_t *up_frames = xmalloc((d->nobjects + 1) * RET_CHECKS *
				      sizeof(*up_frames));
	uint8_t *nup = xcalloc(d->nobjects + 1, 1);

	r->ret_frames = xmalloc((d->nobjects + 1) * RET_CHECKS *
				sizeof(*r->ret_frames));
	r->nret_frames = xcalloc(d->nobjects + 1, 1);
	r->ret_inside = xcalloc(d->nobjects + 1, 1);
	for (size_t n = 0; n < d->nnodes; n++) {
		uint32_t f = d->nodes[n].frame, up = d->nodes[n].parent;
		uint32_t o;

		if (class[f] & FRAME_CHECKED && !d->nodes[n].exact &&
		    !seen[f] && !astray[n]) {
			o = d->frames[f].object;
			if (r->nret_frames[o] < RET_CHECKS) {
				seen[f] = 1;
				r->ret_frames[o * RET_CHECKS +
					      r->nret_frames[o]++] = f;
			}
		}
		if (up == NO_ID || class[f] & FRAME_KERNEL)
			continue;
		f = d->nodes[up].frame;
		if (!(class[f] & FRAME_CHECKED) || !d->nodes[up].exact ||
		    seen_up[f] || astray[up])
			continue;
		o = d->frames[f].object;
		if (nup[o] < RET_CHECKS) {
			seen_up[f] = 1;
			up_frames[o * RET_CHECKS + nup[o]++] = f;
		}
	}
	/* the objects with no frame of the first kind: their callers' */
	for (uint32_t o = 0; o < d->nobjects; o++) {
		if (r->nret_frames[o] || !nup[o])
			continue;
		memcpy(&r->ret_frames[o * RET_CHECKS], &up_frames[o * RET_CHECKS],
		       nup[o] * sizeof(*up_frames));
		r->nret_frames[o] = nup[o];
		r->ret_inside[o] = 1;
	}
	free(nup);
	free(up_frames);
	free(astray);
	free(class);
	free(seen_up);
	free(seen);
}

/* Whether bind_recorded() may check an object's file by its return
 * addresses: one with frames holds no build-id. */
static bool wants_ret_frames(const struct presolve *r)
{
	for (uint32_t i = 0; i < r->d->nobjects; i++)
		if (checks_calls(r->d, i))
			return true;
	return false;
}

/*
 * Whether st can be the build of object i that ran, where no build-id
 * says (gperftools records none): at least half of the object's return
 * addresses (of those st has bytes at) must follow a call in st, which
 * they all do in the right build and seldom in another. One alone
 * (a stack cut short may end in garbage) is a match. *calls and
 * *checked say how many.
 */
static bool calls_match(struct presolve *r, uint32_t i,
			const struct symtab *st, unsigned *calls,
			unsigned *checked)
{
	*calls = *checked = 0;
	if (!r->ret_frames)
		find_ret_frames(r);
	for (unsigned k = 0; k < r->nret_frames[i]; k++) {
		const struct perf_frame *fr =
			&r->d->frames[r->ret_frames[i * RET_CHECKS + k]];
		uint64_t vaddr;
		int c;

		if (!perf_file_vaddr(st, fr->offset, &vaddr))
			continue;
		c = call_ends_at(st, vaddr);
		if (c != 1 && r->ret_inside[i]) {
			int in = call_ends_at(st, vaddr + 1);

			c = in == 1 ? 1 : c < 0 ? in : c;
		}
		if (c < 0)
			continue;
		(*checked)++;
		*calls += (unsigned)c;
	}
	return *checked < 2 || 2 * *calls >= *checked;
}

/*
 * Whether the file at path was changed after every recording read was
 * (their files' modification times): rebuilt since, perhaps. For an
 * object that neither a build-id nor its return addresses can check
 * (perf record -z writes no build-ids; frame-pointer chains through
 * code without frame pointers leave few return addresses). False when
 * a time is not known (an input read from a pipe).
 */
static bool newer_than_inputs(const struct presolve *r, const char *path)
{
	struct stat sb, in;

	if (!r->p->ninputs || stat(path, &sb) != 0)
		return false;
	for (size_t k = 0; k < r->p->ninputs; k++) {
		const char *ip = profile_str(r->p, r->p->inputs[k].path);

		if (stat(ip, &in) != 0 || !S_ISREG(in.st_mode) ||
		    sb.st_mtime <= in.st_mtime)
			return false;
	}
	return true;
}

/*
 * Said when a file that no build-id checks is newer than the recordings
 * and its return addresses do not settle it: fewer than RET_SURE to
 * check, or some that follow no call. The check takes half for a match
 * (a chain gone astray through code without frame pointers returns
 * anywhere), and the return addresses of code a rebuild did not move
 * follow a call in either build: a pipe-mode perf record -g of a
 * program rebuilt after (tests/perf/rebuilt: leaf's code 0x10 longer,
 * the functions after it moved, main not) had 2 return addresses to
 * check, both main's, which follow a call in either build, and cmp's
 * samples were named leaf without a word (perf report 6.1 names them so
 * too).
 */
#define RET_SURE 8

static void warn_unchecked(const struct presolve *r, const char *path,
			   const char *obj, unsigned calls, unsigned checked)
{
	char why[96];

	if ((checked >= RET_SURE && calls == checked) ||
	    !newer_than_inputs(r, path))
		return;
	if (checked < 2)
		snprintf(why, sizeof(why), "%s",
			 checked ? "only one return address in it to check"
				 : "no return address in it to check");
	else if (calls == checked)
		snprintf(why, sizeof(why), "only %u return addresses in it "
			 "to check (each follows a call)", checked);
	else
		snprintf(why, sizeof(why), "only %u of the %u return "
			 "addresses in it follow a call", calls, checked);
	warning("%s: changed after the recording, which holds no build-id "
		"of '%s' and %s: if it was rebuilt since, the names of its "
		"code are another build's (-b FILE gives the build that ran)",
		path, obj, why);
}

/* A -b binary for an object without a recorded build-id must have its
 * calls where the stacks return to. */
static int check_calls(struct presolve *r, const struct symtab *st,
		       uint32_t i)
{
	const char *obj = profile_str(r->p, r->d->objects[i].path);
	unsigned calls, checked;

	if (r->d->objects[i].build_id_len)
		return 0;
	if (calls_match(r, i, st, &calls, &checked)) {
		warn_unchecked(r, st->path, obj, calls, checked);
		return 0;
	}
	if (!r->o->force_binary)
		return error("%s: not the '%s' that ran: of %u return addresses "
			     "of the stacks in it, %u follow a call in this "
			     "file (the profile records no build-id to tell "
			     "builds apart; --force-binary uses it anyway)",
			     st->path, obj, checked, calls);
	warning("%s: not the '%s' that ran (%u of %u return addresses follow "
		"a call in it); used anyway (--force-binary)", st->path, obj,
		calls, checked);
	return 0;
}

/* A binary for an object whose build-id is recorded must have it. */
static int check_build_id(const struct presolve *r, const struct symtab *st,
			  const struct perf_object *ob)
{
	char want[2 * PERF_BUILD_ID_MAX + 1], have[2 * 64 + 1];

	if (!ob->build_id_len || same_build_id(ob, st))
		return 0;
	perf_build_id_hex(ob->build_id, ob->build_id_len, want);
	perf_build_id_hex(st->build_id, st->build_id_len, have);
	if (!r->o->force_binary)
		return error("%s: not the '%s' of the recording: its build-id "
			     "is %s, not %s, which %s records at offset "
			     "0x%llx (--force-binary uses it anyway)",
			     st->path, profile_str(r->p, ob->path),
			     st->build_id_len ? have : "absent", want,
			     profile_str(r->p, ob->build_id_from),
			     (unsigned long long)ob->build_id_off);
	warning("%s: not the '%s' of the recording (build-id %s, not %s, "
		"which %s records at offset 0x%llx); used anyway "
		"(--force-binary)", st->path, profile_str(r->p, ob->path),
		st->build_id_len ? have : "absent", want,
		profile_str(r->p, ob->build_id_from),
		(unsigned long long)ob->build_id_off);
	return 0;
}

/*
 * Recordings added up keep their objects apart by path: one build
 * recorded at two paths (moved, or another machine's) is two objects,
 * and -b b went to the first alone, leaving the other to its recorded
 * path: addresses where that is not here, without a word. Every other
 * object with samples that is this build takes it too: by its
 * build-id, or where none is recorded by its name (-b OBJECT=FILE's, or
 * the file's) and its return addresses, as -b's own object is matched.
 */
static void bind_same_build(struct presolve *r, size_t b,
			    const struct symtab *st, uint32_t first)
{
	const char *want = r->o->objects ? r->o->objects[b] : NULL;
	const char *name = perf_base_name(want ? want : st->path);

	for (size_t j = 0; j < r->d->nobjects; j++) {
		const struct perf_object *ob = &r->d->objects[j];
		const char *path = profile_str(r->p, ob->path);
		unsigned calls, checked;

		if (j == first || r->bind[j].st || ob->kind != PERF_OBJ_FILE ||
		    !object_has_frames(ob))
			continue;
		if (ob->build_id_len ? !same_build_id(ob, st)
				     : strcmp(name, perf_base_name(path)) ||
					       !calls_match(r, (uint32_t)j, st,
							    &calls, &checked))
			continue;
		r->bind[j].st = st;
		r->bind[j].binary = (int)b;
		r->bind[j].listed_as = r->d->objects[first].path;
		note("symbols from %s for %s too (%s)", st->path, path,
		     ob->build_id_len ? "matched by its build-id"
				      : "matched by its file name");
	}
}

/* The files the samples are in, for a -b that fits none: "'a', 'b'"
 * (the first few, then "..."), or "none" when no sample is in a file. */
static void sampled_files(const struct presolve *r, char *buf, size_t size)
{
	size_t used = 0, n = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < r->d->nobjects && used + 1 < size; j++) {
		const struct perf_object *ob = &r->d->objects[j];
		int w;

		if (ob->kind != PERF_OBJ_FILE || !object_has_frames(ob))
			continue;
		w = n == 4 ? snprintf(buf + used, size - used, ", ...")
			   : snprintf(buf + used, size - used, "%s'%s'",
				      n ? ", " : "", profile_str(r->p, ob->path));
		if (w < 0 || (size_t)w >= size - used || ++n > 4)
			break;
		used += (size_t)w;
	}
	if (!n)
		snprintf(buf, size, "none");
}

static int bind_binaries(struct presolve *r, struct symtab *const *st,
			 size_t nst, struct resolve_report *reports)
{
	for (size_t b = 0; b < nst; b++) {
		const char *how;
		uint32_t i = object_for_binary(r, b, st[b], &how);
		struct resolve_report *rep = &reports[b];

		memset(rep, 0, sizeof(*rep));
		rep->binary = st[b]->path;
		rep->object = NO_NAME;
		snprintf(rep->offset_reason, sizeof(rep->offset_reason),
			 "%s", how);
		if (i == NO_ID) {
			char files[400];

			sampled_files(r, files, sizeof(files));
			return error("%s: the recording maps no object of that "
				     "name or build-id (its samples are in %s; "
				     "-b OBJECT=FILE says which object it is)",
				     st[b]->path, files);
		}
		if (check_build_id(r, st[b], &r->d->objects[i]) < 0 ||
		    check_calls(r, st[b], i) < 0)
			return -1;
		if (!object_has_frames(&r->d->objects[i]))
			warning("%s: none of the samples read is in '%s', "
				"which the recording maps (--time, --pid, "
				"--tid or --comm may leave it out): it names "
				"nothing", st[b]->path,
				profile_str(r->p, r->d->objects[i].path));
		r->bind[i].st = st[b];
		r->bind[i].binary = (int)b;
		rep->object = r->d->objects[i].path;
		bind_same_build(r, b, st[b], i);
	}
	return 0;
}

/* The symbol table bound to object i, found as its candidate c, handed
 * to r->kept with its report: the caller lists its code. */
static void keep(struct presolve *r, uint32_t i, size_t c)
{
	struct perf_recorded *k = r->kept;
	struct resolve_report *rep;

	k->st = xreallocarray(k->st, k->n + 1, sizeof(*k->st));
	k->reports = xreallocarray(k->reports, k->n + 1, sizeof(*k->reports));
	rep = &k->reports[k->n];
	memset(rep, 0, sizeof(*rep));
	rep->binary = r->bind[i].owned->path;
	rep->object = r->d->objects[i].path;
	snprintf(rep->offset_reason, sizeof(rep->offset_reason), "%s",
		 c == 0 ? "the recorded file" : "found by its build-id");
	k->st[k->n++] = r->bind[i].owned;
	r->bind[i].owned = NULL;	/* the caller's now */
}

/* Per object: whether a sample's own address (not a caller's) is in
 * it, that is, whether it has code the listings of code would show. */
static bool *sampled_objects(const struct perf_data *d)
{
	bool *sampled = xcalloc(d->nobjects + 1, sizeof(*sampled));

	for (size_t n = 0; n < d->nnodes; n++)
		for (uint32_t c = d->nodes[n].cost; c != NO_ID; c = d->costs[c].next)
			if (d->costs[c].samples) {
				sampled[d->frames[d->nodes[n].frame].object] = true;
				break;
			}
	return sampled;
}

/* Sampled objects left without symbols, said once (perf_missing.h). */
static void warn_missing(const struct presolve *r)
{
	bool *named = xcalloc(r->d->nobjects + 1, sizeof(*named));

	for (size_t i = 0; i < r->d->nobjects; i++)
		named[i] = r->bind[i].st != NULL;
	perf_warn_missing(r->p, named, r->o->sysroot);
	free(named);
}

/*
 * Objects without a -b binary: the first candidate file that is there
 * and has the recorded build-id (or any, when none is recorded). A file
 * at the recorded path of another build is said once and not used.
 */
static void bind_recorded(struct presolve *r)
{
	/* names only, but for the code the listings of code show (r->kept):
	 * a system library's DWARF is large (libc6-dbg's has units of
	 * forms symtab/ skips, each said: --inlined=callee takes inlined
	 * frames from the -b binaries) */
	struct symtab_opts so = { .debug_dir = r->o->debug_dir,
				  .demangle = true,
				  .no_dwarf = true,
				  .names_later = true,
				  .dwarf_missing_later = true };
	char (*paths)[PERF_PATH_MAX] =
		xmalloc(PERF_OBJECT_PATHS * sizeof(*paths));
	bool *sampled = r->kept ? sampled_objects(r->d) : NULL;
	size_t kept_before = r->kept ? r->kept->n : 0;

	for (size_t i = 0; i < r->d->nobjects; i++) {
		const struct perf_object *ob = &r->d->objects[i];
		size_t n;

		if (r->bind[i].st || ob->kind != PERF_OBJ_FILE ||
		    !object_has_frames(ob))
			continue;
		so.no_dwarf = !sampled || !sampled[i];
		n = perf_object_paths(ob, profile_str(r->p, ob->path),
				      r->o->sysroot, r->o->debug_dir, paths);
		for (size_t c = 0; c < n && !r->bind[i].st; c++) {
			struct symtab *st;
			struct stat sb;
			unsigned calls, checked;

			if (stat(paths[c], &sb) != 0 || !S_ISREG(sb.st_mode))
				continue;
			/* loaded on the reading's second thread, as the
			 * call below would have loaded it */
			st = r->o->preload && so.no_dwarf
				     ? perf_preload_take(r->o->preload,
							 (uint32_t)i, paths[c])
				     : NULL;
			if (st) {
				/* its names, had they been interned now */
				ARRAY_GROW(r->taken, r->ntaken + 1,
					   r->taken_alloc);
				r->taken[r->ntaken++] = (struct kallsyms_before){
					st->names, r->p->names.nr
				};
			}
			if (!st) {
				st = xcalloc(1, sizeof(*st));
				if (symtab_open(st, paths[c], &so,
						&r->p->names) < 0) {
					free(st);
					continue;	/* said */
				}
			}
			if (ob->build_id_len && !same_build_id(ob, st)) {
				if (c == 0)
					warning("%s: not the file the recording "
						"used (another build-id): its "
						"code is shown as offsets unless "
						"perf's build-id cache has it (-b "
						"FILE gives the right one)",
						paths[c]);
				symtab_release(st);
				free(st);
				continue;
			}
			if (!ob->build_id_len &&
			    !calls_match(r, (uint32_t)i, st, &calls, &checked)) {
				if (c == 0)
					warning("%s: not the file that ran (of %u "
						"return addresses in it, %u follow "
						"a call): its code is shown as "
						"offsets (-b FILE gives the right "
						"one)", paths[c], checked, calls);
				symtab_release(st);
				free(st);
				continue;
			}
			if (!ob->build_id_len)
				warn_unchecked(r, paths[c],
					       profile_str(r->p, ob->path),
					       calls, checked);
			r->bind[i].st = r->bind[i].owned = st;
			if (sampled && sampled[i])
				keep(r, (uint32_t)i, c);
		}
	}
	free(paths);
	free(sampled);
	warn_missing(r);
	if (r->kept)
		perf_say_missing_dwarf(r->kept, kept_before);
}

/* The kernel's symbols (perf_kallsyms.h), ordered here, where their
 * names would have been interned. */
static int load_kallsyms(struct presolve *r)
{
	int ret = perf_kallsyms_load(r->p, r->d, r->o, &r->ksyms);

	if (ret < 0)
		return -1;
	r->have_ksyms = ret > 0;
	if (r->have_ksyms)
		kallsyms_order(&r->ksyms, &r->p->names, r->taken, r->ntaken);
	return 0;
}

/* The symbol table of frame f's object and the frame's link-time
 * address in it (one byte before, for a return address); NULL when its
 * object has no symbol table or no segment maps it. */
static const struct symtab *frame_vaddr(const struct presolve *r, uint32_t f,
					bool ret, uint64_t *vaddr)
{
	const struct perf_frame *fr = &r->d->frames[f];
	const struct symtab *st = r->bind[fr->object].st;
	uint64_t look = fr->offset - (ret && fr->offset ? 1 : 0);

	if (!st || r->d->objects[fr->object].kind != PERF_OBJ_FILE ||
	    !perf_file_vaddr(st, look, vaddr))
		return NULL;
	return st;
}

static uint32_t named(struct presolve *r, name_id object, const char *name)
{
	return profile_func(r->p, object, NO_NAME,
			    names_intern(&r->p->names, name, strlen(name)));
}

/*
 * The name of code that no symbol names (nor, in a stripped binary,
 * its CFI: symtab/cfi_funcs.c): its object's file name and the address
 * objdump -d and nm show, "cc1+0x672e9e", so that the name says where
 * it is. That is the link-time address when the object was read, else
 * the offset in its file. (perf report shows "0x0000000000272e9e", the
 * file offset, in a column of its own.)
 */
static const char *address_name(const struct presolve *r,
				const struct perf_frame *fr,
				const struct symtab *st, char *buf, size_t size)
{
	const char *path = profile_str(r->p, r->d->objects[fr->object].path);
	const char *slash = path ? strrchr(path, '/') : NULL;
	uint64_t at = fr->offset;

	if (st && r->d->objects[fr->object].kind == PERF_OBJ_FILE)
		perf_file_vaddr(st, fr->offset, &at);
	snprintf(buf, size, "%.*s+0x%llx", 200,
		 slash ? slash + 1 : path ? path : "?", (unsigned long long)at);
	return buf;
}

/*
 * Whether object i's functions take inlined frames from its DWARF
 * (--inlined=callee): a -b binary's. A recorded file's whole DWARF is
 * read for the listings of code alone (bind_recorded(): libc6-dbg's
 * costs plain --json a fifth more time); its functions' files and lines
 * come from the line rows of their units alone (perf_entry_lines()),
 * the same in every listing.
 */
static bool named_from_dwarf(const struct presolve *r, uint32_t i)
{
	return r->bind[i].binary >= 0;
}

/* The object object i's symbols' functions are listed under. */
static name_id listed_object(const struct presolve *r, uint32_t i)
{
	return r->bind[i].listed_as != NO_NAME ? r->bind[i].listed_as
					       : r->d->objects[i].path;
}

/*
 * The function of symbol s of st, in object: with the file and first
 * line of its entry where the line table has them, as
 * resolve_gmon() and resolve_profile() give a function's (the page's
 * file column, the function's place in the source view).
 */
static uint32_t symbol_func(struct presolve *r, name_id object,
			    const struct symtab *st, const struct sym *s,
			    uint32_t *line_set)
{
	const struct line_entry *le = st->nlines ? symtab_line(st, s->addr)
						 : NULL;
	bool at = le && !le->end_sequence && le->file != NO_NAME;
	name_id name = symtab_name(st, s, r->o->demangle);
	name_id file = at ? le->file : NO_NAME;
	uint32_t f;

	/* a table loaded ahead has names of its own (perf_preload.h) */
	if (st->names != &r->p->names && name != NO_NAME) {
		name = names_intern(&r->p->names, names_str(st->names, name),
				    names_len(st->names, name));
	}
	if (st->names != &r->p->names && file != NO_NAME) {
		file = names_intern(&r->p->names, names_str(st->names, file),
				    names_len(st->names, file));
	}
	f = profile_func(r->p, object, file, name);

	*line_set = 0;
	if (at && le->line) {
		profile_set_func_line(r->p, f, le->line);
		*line_set = le->line;
	}
	return f;
}

/*
 * symbol_func() of symbol s of object obj's table st, made once: the
 * frames of one function are many (77,197 frames, 9,882 functions in
 * the bench's recording), and each interned its name again. The line
 * is set again as symbol_func() sets it each time (another symbol of
 * the same name may have set another since).
 */
static uint32_t object_symbol_func(struct presolve *r, uint32_t obj,
				   const struct symtab *st,
				   const struct sym *s)
{
	uint32_t *memo, f;
	size_t k = (size_t)(s - st->syms);

	if (!r->sym_func[obj])
		r->sym_func[obj] = xcalloc(2 * st->nsyms + 1,
					   sizeof(*r->sym_func[obj]));
	memo = r->sym_func[obj] + 2 * k;
	if (memo[0]) {
		if (memo[1])
			profile_set_func_line(r->p, memo[0] - 1, memo[1]);
		return memo[0] - 1;
	}
	f = symbol_func(r, listed_object(r, obj), st, s, &memo[1]);
	memo[0] = f + 1;
	return f;
}

/* The function of frame f; ret: f is a return address. */
static uint32_t frame_func(struct presolve *r, uint32_t f, bool ret)
{
	uint32_t *slot = ret ? &r->func_ret[f] : &r->func_exact[f];
	const struct perf_frame *fr = &r->d->frames[f];
	const struct perf_object *ob = &r->d->objects[fr->object];
	const struct symtab *st = r->bind[fr->object].st;
	uint64_t look = fr->offset - (ret && fr->offset ? 1 : 0);
	char hex[256];

	if (*slot != NO_ID)
		return *slot;
	switch (ob->kind) {
	case PERF_OBJ_KERNEL: {
		const struct ksym *k =
			r->have_ksyms ? kallsyms_lookup(&r->ksyms, look) : NULL;

		*slot = k ? profile_func(r->p, ob->path, NO_NAME,
					 names_intern(&r->p->names,
						      kallsyms_name(&r->ksyms,
								    k),
						      k->len))
			  : named(r, ob->path, PERF_KERNEL_OBJECT);
		return *slot;
	}
	case PERF_OBJ_UNKNOWN:
		*slot = named(r, ob->path, PERF_UNKNOWN_OBJECT);
		return *slot;
	case PERF_OBJ_FILE: {
		uint64_t vaddr;
		const struct sym *s = NULL;
		uint32_t k = !r->sym_exact ? 0 : ret ? r->sym_ret[f]
						     : r->sym_exact[f];

		if (k)
			s = k > 1 ? &st->syms[k - 2] : NULL;
		else if (frame_vaddr(r, f, ret, &vaddr))
			s = symtab_lookup(st, vaddr);
		if (s && s->kind != SYM_OBJECT) {
			*slot = object_symbol_func(r, fr->object, st, s);
			return *slot;
		}
		break;
	}
	case PERF_OBJ_ANON: {
		/* a JIT's code: its offsets are addresses */
		const char *path = profile_str(r->p, ob->path), *name;
		uint32_t len;

		if (!r->jit.recorded_on && r->d->hostname != NO_NAME)
			r->jit.recorded_on = profile_str(r->p, r->d->hostname);
		if (jitmap_is_path(path) &&
		    (name = jitmaps_name(&r->jit, r->d->nobjects, fr->object,
					 path, r->o->sysroot, look, &len))) {
			*slot = profile_func(r->p, ob->path, NO_NAME,
					     names_intern(&r->p->names, name,
							  len));
			return *slot;
		}
		break;
	}
	default:
		break;
	}
	*slot = named(r, ob->path, address_name(r, fr, st, hex, sizeof(hex)));
	return *slot;
}

/*
 * The functions frame f stands for (ret: a return address), outermost
 * first, in *funcs: the function of its symbol alone, or with
 * --inlined=callee, each function inlined at its address after it.
 * Returns how many (at least 1). The pointer is good until the next
 * call.
 */
static size_t frame_chain(struct presolve *r, uint32_t f, bool ret,
			  const uint32_t **funcs)
{
	uint32_t *start = ret ? r->chain_ret : r->chain_exact;
	uint8_t *count = ret ? r->nchain_ret : r->nchain_exact;
	struct frame frames[MAX_INLINE];
	const struct symtab *st;
	uint32_t outer = frame_func(r, f, ret);
	uint64_t vaddr;
	size_t n = 0;
	name_id object;

	if (r->o->inlined != INLINE_CALLEE) {
		*funcs = ret ? &r->func_ret[f] : &r->func_exact[f];
		return 1;
	}
	if (!count[f]) {
		st = frame_vaddr(r, f, ret, &vaddr);
		if (st && st->has_dwarf &&
		    named_from_dwarf(r, r->d->frames[f].object))
			n = symtab_frames(st, vaddr, frames, MAX_INLINE);
		object = listed_object(r, r->d->frames[f].object);
		start[f] = (uint32_t)r->nchain_funcs;
		ARRAY_GROW(r->chain_funcs, r->nchain_funcs + (n ? n : 1),
			   r->chain_alloc);
		r->chain_funcs[r->nchain_funcs++] = outer;
		/* frames[n-1] is the function of the symbol; frames[0]
		 * the innermost inlined one */
		for (size_t k = n > 1 ? n - 1 : 0; k-- > 0;)
			r->chain_funcs[r->nchain_funcs++] =
				profile_func(r->p, object, frames[k].file,
					     frames[k].func);
		count[f] = (uint8_t)(n > 1 ? n : 1);
	}
	*funcs = r->chain_funcs + start[f];
	return count[f];
}

/* Frame f's symbol (ret: a return address), looked up as frame_func()
 * looks it up, into r->sym_exact or r->sym_ret. */
static void frame_sym(struct presolve *r, uint32_t f, bool ret)
{
	uint32_t *slot = ret ? &r->sym_ret[f] : &r->sym_exact[f];
	const struct symtab *st;
	const struct sym *s = NULL;
	uint64_t vaddr;

	/* a frame of nodes in both threads' chunks may be looked up by
	 * both: the same answer, stored whole */
	if (__atomic_load_n(slot, __ATOMIC_RELAXED) ||
	    r->d->objects[r->d->frames[f].object].kind != PERF_OBJ_FILE)
		return;
	if ((st = frame_vaddr(r, f, ret, &vaddr)))
		s = symtab_lookup(st, vaddr);
	__atomic_store_n(slot, s && s->kind != SYM_OBJECT
			 ? (uint32_t)(s - st->syms) + 2 : 1, __ATOMIC_RELAXED);
}

/* Nodes a take of frame_syms(): about 0.2 ms of lookups. */
#define SYMS_CHUNK 4096

/*
 * The symbols of the frames the charging names (a stack's leaf as an
 * exact address, the nodes above it as they were recorded), on the
 * charging's second thread while the main thread reads the lines and
 * the kernel's symbols, then on both: the main thread, done with those,
 * takes chunks of the nodes left rather than wait (the second thread
 * starts after the charging's preparation, and the lookups were the
 * last 5-15 ms of the two). It reads the frames and the symbol tables'
 * own symbols alone, which nothing changes once the objects are bound.
 */
static void frame_syms(void *ctx)
{
	struct presolve *r = ctx;
	const struct perf_data *d = r->d;
	size_t from;

	while ((from = __atomic_fetch_add(&r->syms_next, SYMS_CHUNK,
					  __ATOMIC_RELAXED)) < d->nnodes) {
		size_t to = d->nnodes - from < SYMS_CHUNK ? d->nnodes
							  : from + SYMS_CHUNK;

		for (size_t n = from; n < to; n++) {
			frame_sym(r, d->nodes[n].frame, !d->nodes[n].exact);
			if (!d->nodes[n].exact && d->nodes[n].cost != NO_ID)
				frame_sym(r, d->nodes[n].frame, false);
		}
	}
}

/* The threads' totals, by profile event (--threads, --json). */
static void keep_threads(struct presolve *r)
{
	const struct perf_data *d = r->d;
	struct profile *p = r->p;
	size_t ne = p->nevents;

	if (!d->nthreads || p->threads)
		return;
	p->threads = xcalloc(d->nthreads, sizeof(*p->threads));
	p->nthreads = d->nthreads;
	p->threads_nevents = ne;
	for (size_t i = 0; i < d->nthreads; i++) {
		struct pthread_total *t = &p->threads[i];

		t->pid = d->threads[i].pid;
		t->tid = d->threads[i].tid;
		t->comm = d->threads[i].comm;
		t->samples = arena_alloc(&p->arena,
					 (2 * ne + 1) * sizeof(uint64_t));
		memset(t->samples, 0, 2 * ne * sizeof(uint64_t));
		t->cost = t->samples + ne;
		for (uint32_t c = d->threads[i].cost; c != NO_ID;
		     c = d->thread_costs[c].next) {
			uint32_t e = r->event_of[d->thread_costs[c].event];

			if (e == NO_ID || e >= ne)
				continue;
			t->samples[e] += d->thread_costs[c].samples;
			t->cost[e] += d->thread_costs[c].period;
		}
	}
}

/* Profile events for the perf events with samples, and for all of them
 * when none has any; perf's "dummy" side-band events never. */
static void make_events(struct presolve *r)
{
	const struct perf_data *d = r->d;
	bool any = false;

	for (size_t e = 0; e < d->nevents; e++)
		any |= d->events[e].samples > 0;
	for (size_t e = 0; e < d->nevents; e++) {
		const char *name = profile_str(r->p, d->events[e].name);

		r->event_of[e] = NO_ID;
		if (any ? !d->events[e].samples : !strncmp(name, "dummy", 5))
			continue;
		r->event_of[e] = profile_event(r->p, d->events[e].name);
		r->p->events[r->event_of[e]].unit = d->events[e].unit;
	}
	r->p->sampled = true;
}

static void add_row(uint64_t *row, const uint64_t *v, size_t n)
{
	for (size_t e = 0; e < n; e++)
		row[e] = row[e] + v[e] < row[e] ? UINT64_MAX : row[e] + v[e];
}

/*
 * With positions asked for (--disasm, --annotate): the leaf's cost at
 * its instruction, by link-time address (the reports' load offset is
 * 0), with its line where the symbol table has lines. (perf annotate
 * puts a sample at its ip as we do: tests/test_perf_peers.c.)
 */
static void charge_position(struct presolve *r, uint32_t frame,
			    uint32_t func, const uint64_t *cost)
{
	struct profile *p = r->p;
	const struct line_entry *le = NULL;
	const struct symtab *st;
	uint64_t vaddr;
	uint32_t pos;

	/* code without a symbol table still has its cost somewhere: at no
	 * position, so that the listings' "in all" is the event's total */
	st = frame_vaddr(r, frame, false, &vaddr);
	if (!st) {
		pos = profile_pos(p, func, NO_NAME, 0, 0);
		add_row(profile_pos_cost(p, pos), cost, p->stride);
		return;
	}
	if (st->nlines)
		le = symtab_line(st, vaddr);
	pos = profile_pos(p, func, le ? le->file : NO_NAME,
			  le ? le->line : 0, vaddr);
	add_row(profile_pos_cost(p, pos), cost, p->stride);
	p->has_instr = true;
	if (le && le->line)
		p->has_line = true;
}

/* perf_charge.c's frame_chain() and charge_position() */
static size_t chain_of(void *ctx, uint32_t f, bool ret, const uint32_t **funcs)
{
	return frame_chain(ctx, f, ret, funcs);
}

static void position_of(void *ctx, uint32_t frame, uint32_t func,
			const uint64_t *cost)
{
	charge_position(ctx, frame, func, cost);
}

/* The profile's events and its threads' totals; and what the charging
 * needs of the recording before the functions are known, on a second
 * thread when beside. */
static void prepare_charging(struct presolve *r, struct perf_charge *pc,
			     bool beside)
{
	struct perf_data *d = r->d;

	make_events(r);
	keep_threads(r);
	free(d->event_profile);
	d->event_profile = xmalloc((d->nevents + 1) *
				   sizeof(*d->event_profile));
	memcpy(d->event_profile, r->event_of,
	       d->nevents * sizeof(*r->event_of));
	profile_want_func_extras(r->p);
	r->p->calls_have_incl = true;
	*pc = (struct perf_charge){
		.p = r->p, .d = r->d, .event_of = r->event_of,
		.chains = r->o->inlined == INLINE_CALLEE,
		.positions = r->o->want_positions,
		.chain = chain_of, .position = position_of, .ctx = r,
		.func_exact = r->func_exact, .func_ret = r->func_ret };
	if (beside)
		perf_charge_prepare_beside(pc);
	else
		perf_charge_prepare(pc);
}

/*
 * Whether the charging's preparation and the frames' symbols go to a
 * second thread: with the symbol tables loaded ahead (the work left
 * after the read is then this alone), as o->tail_thread says.
 */
static bool tail_beside(const struct presolve *r)
{
	if (!r->o->preload || r->o->inlined == INLINE_CALLEE ||
	    !r->d->nnodes)
		return false;
	return r->o->tail_thread > 0 ||
	       (r->o->tail_thread < 0 && spare_cpu_beside_own());
}

/* The files and lines of the functions of the recorded files found
 * without -b (perf_lines.h). */
static void entry_lines(struct presolve *r)
{
	struct symtab **owned = xcalloc(r->d->nobjects + 1, sizeof(*owned));

	for (size_t i = 0; i < r->d->nobjects; i++)
		owned[i] = r->bind[i].owned;
	perf_entry_lines(r->d, owned, r->o->debug_dir);
	free(owned);
}

int resolve_perf(struct profile *p, struct symtab *const *st, size_t nst,
		 const struct resolve_opts *o, struct resolve_report *reports)
{
	return resolve_perf_keeping(p, st, nst, o, reports, NULL);
}

int resolve_perf_keeping(struct profile *p, struct symtab *const *st,
			 size_t nst, const struct resolve_opts *o,
			 struct resolve_report *reports,
			 struct perf_recorded *kept)
{
	struct presolve r;
	struct perf_charge pc = { 0 };
	bool beside;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.d = p->perf;
	r.o = o;
	r.kept = kept;
	r.bind = xcalloc(r.d->nobjects + 1, sizeof(*r.bind));
	r.func_exact = xmalloc((r.d->nframes + 1) * sizeof(*r.func_exact));
	r.func_ret = xmalloc((r.d->nframes + 1) * sizeof(*r.func_ret));
	r.event_of = xcalloc(r.d->nevents + 1, sizeof(*r.event_of));
	r.sym_func = xcalloc(r.d->nobjects + 1, sizeof(*r.sym_func));
	if (o->inlined == INLINE_CALLEE) {
		r.chain_exact = xcalloc(r.d->nframes + 1, sizeof(*r.chain_exact));
		r.chain_ret = xcalloc(r.d->nframes + 1, sizeof(*r.chain_ret));
		r.nchain_exact = xcalloc(r.d->nframes + 1, 1);
		r.nchain_ret = xcalloc(r.d->nframes + 1, 1);
	}
	for (size_t f = 0; f < r.d->nframes; f++)
		r.func_exact[f] = r.func_ret[f] = NO_ID;
	for (size_t i = 0; i < r.d->nobjects; i++) {
		r.bind[i].binary = -1;
		r.bind[i].listed_as = NO_NAME;
	}
	beside = tail_beside(&r);
	if (o->preload) {
		/* while the last symbol tables load: calls_match()'s return
		 * addresses, which need none (a recording that holds no
		 * build-id of some object checks its file by them); the
		 * charging's preparation on a second thread, when beside,
		 * then the frames' symbols once the objects are bound */
		if (beside) {
			prepare_charging(&r, &pc, true);
			r.sym_exact = xcalloc(r.d->nframes + 1,
					      sizeof(*r.sym_exact));
			r.sym_ret = xcalloc(r.d->nframes + 1,
					    sizeof(*r.sym_ret));
		}
		if (wants_ret_frames(&r))
			find_ret_frames(&r);
		if (!beside)
			prepare_charging(&r, &pc, false);
		perf_preload_finish(o->preload);
	}
	if (bind_binaries(&r, st, nst, reports) < 0)
		goto out;
	bind_recorded(&r);
	if (beside)
		perf_charge_beside(&pc, frame_syms, &r);
	entry_lines(&r);
	if (load_kallsyms(&r) < 0)
		goto out;
	if (beside)
		frame_syms(&r);
	if (!o->preload)
		prepare_charging(&r, &pc, false);
	perf_charge_run(&pc);
	if (o->want_stacks)
		perf_charge_keep_stacks(&pc);
	ret = 0;
out:
	perf_charge_join(&pc);	/* before the tables it reads go */
	for (size_t i = 0; i < r.d->nobjects; i++)
		if (r.bind[i].owned) {
			symtab_release(r.bind[i].owned);
			free(r.bind[i].owned);
		}
	perf_charge_release(&pc);
	kallsyms_release(&r.ksyms);
	jitmaps_release(&r.jit);
	for (size_t i = 0; i < r.d->nobjects; i++)
		free(r.sym_func[i]);
	free(r.sym_func);
	free(r.taken);
	free(r.bind);
	free(r.func_exact);
	free(r.func_ret);
	free(r.sym_exact);
	free(r.sym_ret);
	free(r.event_of);
	free(r.ret_frames);
	free(r.nret_frames);
	free(r.ret_inside);
	free(r.chain_exact);
	free(r.chain_ret);
	free(r.nchain_exact);
	free(r.nchain_ret);
	free(r.chain_funcs);
	return ret;
}

/* Whether report rep's binary is the recorded file at its own path */
static bool at_recorded_path(const struct profile *p,
			     const struct resolve_report *rep)
{
	return rep->object != NO_NAME &&
	       strcmp(rep->offset_reason, "the recorded file") == 0 &&
	       strcmp(rep->binary, profile_str(p, rep->object)) == 0;
}

void resolve_perf_print_notes(FILE *out, const struct profile *p,
			      const struct resolve_report *reports, size_t n,
			      const struct resolve_opts *o)
{
	size_t same = 0;

	/* the files read where the recording says they were, the usual
	 * case, in one line (a recording of a build maps 25 objects);
	 * each found elsewhere (--sysroot, a build-id) in its own */
	for (size_t b = 0; b < n; b++)
		same += at_recorded_path(p, &reports[b]);
	for (size_t b = 0; b < n; b++)
		if (same < 2 || !at_recorded_path(p, &reports[b]))
			fprintf(out, "Symbols from %s for %s (%s).\n",
				reports[b].binary,
				profile_str(p, reports[b].object),
				reports[b].offset_reason);
	if (same >= 2) {
		fprintf(out, "Symbols from the recorded files, at the paths "
			"recorded, for %zu objects:", same);
		for (size_t b = 0, said = 0; b < n; b++)
			if (at_recorded_path(p, &reports[b])) {
				const char *base = strrchr(reports[b].binary, '/');

				fprintf(out, "%s %s", said++ ? "," : "",
					base ? base + 1 : reports[b].binary);
			}
		fputs(".\n", out);
	}
	if (o->inlined == INLINE_CALLEE)
		fputs("Inlined code is charged to the inlined function, "
		      "called from the function it was inlined into "
		      "(--inlined=callee).\n", out);
}
