/*
 * --call-graph dwarf unwinding: perf record copies each sample's user
 * registers and the top of its user stack (PERF_SAMPLE_REGS_USER,
 * PERF_SAMPLE_STACK_USER) instead of walking frame pointers; the
 * callers are found afterwards from the CFI of the code's objects
 * (.eh_frame, .debug_frame). elfutils' libdwfl does the CFI work, as
 * for perf report (tools/perf/util/unwind-libdw.c): a Dwfl holds the
 * process's objects as modules at their load addresses, and
 * dwfl_getthread_frames() unwinds from our set_initial_registers and
 * memory_read callbacks, which serve the registers and the stack dump.
 *
 * libdwfl finds each frame's CFI row afresh; here the row of each
 * address of an object file is found once (perf_cfi.c) and each frame
 * is stepped from it as libdwfl would step it from the same row, with
 * libdwfl kept for what the rows do not hold (an expression, as in a
 * PLT): CGANALYZE_UNWIND=check compares the two ways on every sample.
 * A Dwfl is still kept per process, for those samples and because its
 * modules are what libdwfl looks pcs up in: the few processes sampled
 * last keep theirs (UNWIND_PROCS). Each object's file is opened
 * once for the run, and every module of it, in any process, shares that
 * libelf handle (elf_begin() on a handle counts a reference): a build's
 * hundreds of compiler processes then neither map nor unmap cc1 again.
 * A module is reported the first time one of the process's samples
 * reaches its code. A process that execs, or maps another object where
 * one was, no longer fits its Dwfl: when a mapping at a sample's time
 * disagrees with a module, the Dwfl is dropped and made again.
 *
 * A mapping's load bias is where it is minus where the file offset it
 * maps is linked (its PT_LOAD segment), so PIE, shared libraries and
 * executables are placed alike.
 *
 * Only x86_64's registers are known (perf's numbers, <asm/perf_regs.h>,
 * to DWARF's, the psABI's); other recordings keep their samples' ip.
 */
#include "perf_unwind.h"

#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"
#include "base/xalloc.h"
#include "libdw_load.h"
#include "perf_cfi.h"
#include "perf_ehcfi.h"
#include "perf_fde.h"
#include "perf_reader.h"
#include "profile/perf_files.h"
#include "unwind_files.h"

/* The processes whose Dwfl is kept. */
#define UNWIND_PROCS 32

/*
 * The bytes of a sample's stack dump asked into the cache as its
 * unwinding starts: each frame's CFA comes from registers read from the
 * dump at the frame below, so read as the steps came, each line of it
 * was a miss of its own (a quarter of unwind_once()'s samples, on its
 * reads of the dump, in the bench recording). 1 or 2 KiB took about a
 * tenth of the unwinding's CPU off (unwind_once() and
 * perf_unwind_sample(), 3 runs of one thread each, twice), 4 KiB less
 * than half as much.
 */
#define PREFETCH_DUMP 2048

/* perf's x86_64 register numbers (enum perf_event_x86_regs) of DWARF
 * registers 0-16: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip. */
static const unsigned x86_64_perf_reg[] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};
#define X86_64_NREGS (sizeof(x86_64_perf_reg) / sizeof(x86_64_perf_reg[0]))
#define PERF_REG_X86_SP 7
#define PERF_REG_X86_IP 8

/*
 * A process's modules, and its Dwfl, made only when libdwfl is to
 * unwind one of its samples (proc_dwfl()), with every module found by
 * then reported to it in the order found, as each was once reported
 * when found: the rows unwind all but a few hundred of a recording's
 * samples, and the bench recording made 2,794 Dwfls and reported 7,962
 * modules to them, as the processes came and went, for 461 samples.
 */
struct uproc {
	uint32_t pid;
	bool live;		/* false: a free slot */
	uint64_t used;		/* when last used, in samples */
	uint64_t made;		/* which process's slot this is
				 * (report_slot) */
	Dwfl *dwfl;		/* NULL: none made yet */
	bool attached;		/* dwfl_attach_state() done */
	struct umod *mods;
	size_t nmods, mods_alloc;
};

/*
 * report()'s REPORT_OK answers, by process and pc: each frame's module
 * is reported before it is unwound from, and most of a sample's frames
 * were the last ones' too. An answer holds while the mapping at pc is
 * the same ([from, until), perf_maps_find_span(), while the process's
 * mappings are: gen, the sample's, the reader's maps_gen, or changed
 * only elsewhere, perf_maps_same()) and the
 * process's Dwfl is the one that had the module (made): a module once
 * reported stays, and none overlapping it is added. Direct-mapped.
 */
struct report_slot {
	uint64_t pc, from, until, made;
	uint32_t pid, gen;
	/*
	 * step()'s look-up from a frame at pc with a return address (pc - 1
	 * looked up): the module's object and bias, and the CFI row found
	 * (perf_cfi_index() + 1; STEP_BY_FP: none, frame pointers; 0: not
	 * looked up yet). It holds as the slot does: the module found is
	 * the one of the same Dwfl, whose modules do not overlap, and the
	 * row is its file's. A look-up that found no module is not kept (a
	 * module reported later may hold pc - 1).
	 */
	uint32_t row1;
	uint32_t map;		/* the mapping found: into the maps[] */
};
#define STEP_BY_FP UINT32_MAX

/*
 * The mappings report() found last, each with the addresses it answers
 * alike (perf_maps_find_run()): a sample's frames missing in the report
 * cache (a process's first samples, mostly) are mostly in one object's
 * code, found there without searching the process's mappings. Each
 * holds as a report slot does (gen, or changes elsewhere).
 */
struct map_run {
	uint64_t lo, hi, from, until;	/* hi 0: empty */
	uint32_t pid, gen, map;
};
#define MAP_RUNS 4
#define REG_ABSENT 0xff
#define REPORT_CACHE_BITS 12

struct perf_unwind {
	struct perf_reader *r;
	struct report_slot *reported;	/* NULL until the first report() */
	uint64_t dwfls_made;
	Dwfl_Callbacks callbacks;
	char *debuginfo_path;
	struct unwind_files files;	/* per perf_data object */
	struct uproc procs[UNWIND_PROCS];
	uint64_t clock;


	/* the sample being unwound, and its process's mappings' gen */
	struct uproc *proc;
	const struct perf_sample *s;
	uint32_t gen;
	uint64_t regs[X86_64_NREGS];
	/* where each of regs is in a sample's registers, for regs_mask
	 * (sample_regs()); REG_ABSENT: not recorded */
	uint8_t regs_at[X86_64_NREGS];
	uint64_t regs_mask;
	bool regs_at_set;
	uint64_t sp;
	uint64_t *pcs;
	bool *exact;
	struct perf_unwind_where *where;	/* NULL: not asked for */
	size_t n, max;
	bool stale;		/* a module disagreed with the mappings */

	bool swap;		/* the recording's byte order is not ours */
	struct perf_cfi *rows;	/* the CFI rows of the objects' code */
	bool rows_by_libdw;	/* CGANALYZE_CFI=libdw: no perf_fde.h */
	/* their array as of the last perf_cfi_row() that found one (the
	 * rows move only when one is added): a report slot's row is read
	 * from it without a call per frame */
	const struct cfi_row *rows_at;
	struct report_slot *last;	/* the slot of report()'s last
					 * REPORT_OK; NULL after another */
	size_t mod;		/* the module of the process's that a
				 * report() missing its slot found
				 * (SIZE_MAX: not known) */
	struct map_run runs[MAP_RUNS];
	unsigned next_run;	/* the one replaced next */
	enum perf_unwinder how;
	uint64_t unwound, failed;
	uint64_t cut;		/* unwound to the end of the stack dump */
	bool past_dump;		/* the step from the last frame read
				 * above the dump */
	uint64_t by_rows, by_libdwfl, differed;
};

/* libdw's entry points: loaded by the first perf_unwind_new(), before
 * anything here runs */
static const struct libdw_api *libdw;

static const Dwfl_Thread_Callbacks thread_callbacks;

/* --- the processes' Dwfls --- */

static void proc_drop(struct uproc *pr)
{
	if (pr->dwfl)
		libdw->dwfl_end(pr->dwfl);
	free(pr->mods);
	memset(pr, 0, sizeof(*pr));
}

/* Process pid's Dwfl, made (in the slot used longest ago) if new. */
static struct uproc *proc_get(struct perf_unwind *u, uint32_t pid)
{
	struct uproc *old = &u->procs[0];

	for (size_t i = 0; i < UNWIND_PROCS; i++) {
		struct uproc *pr = &u->procs[i];

		if (pr->live && pr->pid == pid) {
			pr->used = ++u->clock;
			return pr;
		}
		if (!pr->live || (old->live && pr->used < old->used))
			old = pr;
	}
	proc_drop(old);
	old->live = true;
	old->pid = pid;
	old->used = ++u->clock;
	old->made = ++u->dwfls_made;
	return old;
}

/* Module m, a file's (f), reported to pr's Dwfl: false when libdwfl
 * takes it not (it has no memory). */
static bool dwfl_report(struct perf_unwind *u, struct uproc *pr,
			const struct umod *m, const struct ufile *f)
{
	Dwfl_Module *mod;
	void **slot;

	/* [lo, hi) at this bias: libdwfl takes the bias from lo and the
	 * file's first PT_LOAD, and asks find_elf() for the file */
	mod = libdw->report_module(pr->dwfl,
				 names_str(&u->r->p->names,
					   u->r->d->objects[m->object].path),
				 m->lo, m->hi);
	if (!mod)
		return false;
	libdw->module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
	*slot = (void *)f;
	libdw->report_end(pr->dwfl, NULL, NULL);
	return true;
}

/* pr's Dwfl, made now with every module found so far reported to it,
 * in their order: false when it cannot be. */
static bool proc_dwfl(struct perf_unwind *u, struct uproc *pr)
{
	if (pr->dwfl)
		return true;
	pr->dwfl = libdw->dwfl_begin(&u->callbacks);
	if (!pr->dwfl)
		return false;
	/* each module's file is its object's, which unwind_file() found
	 * when the module was */
	for (size_t i = 0; i < pr->nmods; i++)
		if (!dwfl_report(u, pr, &pr->mods[i],
				 u->files.files[pr->mods[i].object])) {
			libdw->dwfl_end(pr->dwfl);
			pr->dwfl = NULL;
			return false;
		}
	return true;
}

/* The sample's process's mapping at pc (perf_maps_find_span()), from
 * the runs kept when one holds it. */
static const struct perf_map *find_map(struct perf_unwind *u, uint64_t pc,
				       uint64_t t, uint64_t *from,
				       uint64_t *until)
{
	struct perf_maps *maps = &u->r->maps;
	uint32_t pid = u->s->pid;
	const struct perf_map *map;
	struct map_run *run;

	for (unsigned i = 0; i < MAP_RUNS; i++) {
		run = &u->runs[i];
		if (run->pid != pid || pc < run->lo || pc >= run->hi ||
		    t < run->from || t >= run->until)
			continue;
		if (run->gen != u->gen &&
		    (run->gen > u->gen ||
		     !perf_maps_same_run(maps, pid, run->gen, run->lo,
					 run->hi)))
			continue;
		run->gen = u->gen;
		*from = run->from;
		*until = run->until;
		return &maps->maps[run->map];
	}
	run = &u->runs[u->next_run++ % MAP_RUNS];
	map = perf_maps_find_run(maps, pid, pc, t, from, until, &run->lo,
				 &run->hi);
	if (!map || run->hi - run->lo < 2) {
		run->hi = 0;	/* nothing more than pc's: not kept */
		return map;
	}
	run->from = *from;
	run->until = *until;
	run->pid = pid;
	run->gen = u->gen;
	run->map = (uint32_t)(map - maps->maps);
	return map;
}

enum report { REPORT_OK, REPORT_NONE, REPORT_STALE };

/* report() where pc's slot rs does not answer: the mapping looked up,
 * the module found or reported, and rs filled. Apart from the hits,
 * whose path is short enough to be inlined in each frame's step (the
 * whole function's prologue and epilogue were a fifth of its
 * instructions). */
static __attribute__((noinline)) enum report
report_miss(struct perf_unwind *u, uint64_t pc, struct report_slot *rs)
{
	struct uproc *pr = u->proc;
	const struct perf_map *map;
	const struct ufile *f;
	struct umod m;
	uint64_t from = 0, until = UINT64_MAX, t = u->s->time;
	uint32_t at, row1;

	map = find_map(u, pc, t, &from, &until);
	if (!map || !map->file_offsets)
		return REPORT_NONE;
	f = unwind_file(&u->files, map->object);
	if (!f || !unwind_file_place(f, map, &m))
		return REPORT_NONE;
	m.object = map->object;
	at = (uint32_t)(map - u->r->maps.maps);
	/* the slot had pc in this Dwfl with the same mapping (its gen or
	 * its times no longer said so): the same module, so the same row */
	row1 = rs->made == pr->made && rs->pc == pc && rs->map == at
		       ? rs->row1
		       : 0;
	for (size_t i = 0; i < pr->nmods; i++) {
		const struct umod *o = &pr->mods[i];

		if (o->object == m.object && o->bias == m.bias) {
			*rs = (struct report_slot){ pc, from, until, pr->made,
						    pr->pid, u->gen, row1, at };
			u->last = rs;
			u->mod = i;
			return REPORT_OK;
		}
		if (o->lo < m.hi && m.lo < o->hi)
			return REPORT_STALE;
	}
	/* to libdwfl now only if it has the process's Dwfl already */
	if (pr->dwfl && !dwfl_report(u, pr, &m, f))
		return REPORT_NONE;
	ARRAY_GROW(pr->mods, pr->nmods + 1, pr->mods_alloc);
	u->mod = pr->nmods;
	pr->mods[pr->nmods++] = m;
	*rs = (struct report_slot){ pc, from, until, pr->made, pr->pid,
				    u->gen, 0, at };
	u->last = rs;
	return REPORT_OK;
}

/*
 * Make sure the module holding pc in the sample's process is reported:
 * REPORT_NONE when no file of ours holds it (unwinding stops there),
 * REPORT_STALE when the Dwfl has another object there (make it again).
 * A slot of the same Dwfl (made: each Dwfl is one process's) answers
 * for its pc while its mapping does.
 */
static inline enum report report(struct perf_unwind *u, uint64_t pc)
{
	const struct uproc *pr = u->proc;
	uint64_t t = u->s->time;
	uint64_t h = (pc ^ (uint64_t)pr->pid << 40) * 0x9e3779b97f4a7c15ull;
	struct report_slot *rs;

	if (!u->reported)
		u->reported = xcalloc((size_t)1 << REPORT_CACHE_BITS,
				      sizeof(*u->reported));
	rs = &u->reported[h >> (64 - REPORT_CACHE_BITS)];
	u->last = NULL;
	u->mod = SIZE_MAX;
	if (rs->made == pr->made && rs->pc == pc && rs->from <= t &&
	    t < rs->until &&
	    (rs->gen == u->gen ||
	     (rs->gen < u->gen &&
	      perf_maps_same(&u->r->maps, pr->pid, rs->gen, pc)))) {
		/* the same mapping, its module and row: the process's
		 * mappings changed elsewhere */
		rs->gen = u->gen;
		u->last = rs;
		return REPORT_OK;
	}
	return report_miss(u, pc, rs);
}

/* Frame u->n is at pc (exact: where the code was): its mapping, which
 * report() just found for it (u->last), kept too. */
static inline void keep_frame(struct perf_unwind *u, uint64_t pc, bool exact)
{
	u->pcs[u->n] = pc;
	u->exact[u->n] = exact;
	if (u->where)
		u->where[u->n] =
			u->last ? (struct perf_unwind_where){ u->last->from,
							      u->last->until,
							      u->last->map }
				: (struct perf_unwind_where){
					  0, 0, PERF_UNWIND_NO_MAP };
}

static Dwarf_CFI *file_cfi(struct perf_unwind *u, uint32_t i, bool debug);

/* --- libdwfl's callbacks --- */

/* A module's file: the object's handle, shared (its reference count
 * goes up; libdwfl's elf_end() at dwfl_end() takes it down). */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *name,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	struct ufile *f = *userdata;
	Elf *elf = f ? f->elf : NULL;

	(void)mod;
	(void)name;
	(void)base;
	/*
	 * A file whose .eh_frame_hdr libdw would not search (perf_ehcfi.h)
	 * is given as the handle without sections, so that the module's
	 * CFI, made again for each process's Dwfl, is searched by its
	 * table too: the same rows. Not one with DWARF of its own, which
	 * libdwfl would look for in the sections.
	 */
	if (f) {
		(void)file_cfi(f->u, f->object, false);
		if (f->eh.elf && !f->eh.own_dwarf)
			elf = f->eh.elf;
	}
	*elfp = elf ? elf_begin(-1, ELF_C_READ_MMAP, elf) : NULL;
	if (*elfp)
		*file_name = xstrdup(f->path);
	return -1;
}

/*
 * A module's separate debug file, which libdwfl asks for when the
 * module's .eh_frame does not describe a pc and the file has no DWARF
 * of its own: the one unwind_file_debug() found, so that libdwfl and the
 * cached rows take the same .debug_frame. libdwfl checks its build-id.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *name, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	struct ufile *f = *userdata;

	(void)mod;
	(void)name;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	*debuginfo_file_name = NULL;
	if (!f || !unwind_file_debug(f))
		return -1;
	*debuginfo_file_name = xstrdup(f->debug_path);
	return open(f->debug_path, O_RDONLY);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	struct perf_unwind *u = arg;

	(void)dwfl;
	if (*thread_arg)
		return 0;
	*thread_arg = arg;
	return u->s->tid ? (pid_t)u->s->tid : 1;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
	(void)dwfl;
	(void)tid;
	*thread_arg = arg;
	return true;
}

/*
 * A word of the stack dump, which holds the stack from the sampled
 * stack pointer up: nothing else of the process is there to read.
 * perf report (unwind-libdw.c's access_dso_mem()) serves a read outside
 * the dump from the file of an object mapped there; of the 44,916 such
 * reads unwinding bench/perf-dwarf's recording, 44,254 were in [stack]
 * above the dump, 658 in no mapping and 4 in anonymous memory, none in
 * an object's file, so that is not done here.
 */
static bool read_word(struct perf_unwind *u, uint64_t addr,
		      uint64_t *result)
{
	uint64_t size = u->s->stack_size, at, v;

	if (addr < u->sp)
		return false;
	at = addr - u->sp;
	if (size < 8 || at > size - 8) {
		/* the stack goes on above the dump: cut by its size */
		u->past_dump = true;
		return false;
	}
	/* a word per register per frame: read whole, not byte by byte as
	 * a cursor reads (the recording's byte order, then this one's) */
	memcpy(&v, u->s->stack + at, 8);
	if (u->swap)
		v = __builtin_bswap64(v);
	*result = v;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	uint64_t v;

	(void)dwfl;
	if (!read_word(arg, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct perf_unwind *u = arg;
	Dwarf_Word regs[X86_64_NREGS];

	for (size_t i = 0; i < X86_64_NREGS; i++)
		regs[i] = u->regs[i];
	if (!libdw->thread_state_registers(thread, 0, X86_64_NREGS, regs))
		return false;
	libdw->thread_state_register_pc(thread, u->regs[X86_64_NREGS - 1]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Each frame, innermost first; its module reported before libdwfl
 * unwinds from it (as perf does). */
static int frame(Dwfl_Frame *state, void *arg)
{
	struct perf_unwind *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!libdw->frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	if (report(u, pc) == REPORT_STALE) {
		u->stale = true;
		return DWARF_CB_ABORT;
	}
	/* of the step from the last frame only: telling an activation
	 * makes libdwfl unwind from this frame */
	u->past_dump = false;
	if (!libdw->frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	keep_frame(u, pc, activation);
	return ++u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* --- the cached rows --- */

/* A frame as libdwfl keeps one (Dwfl_Frame): its registers, which of
 * them are known, and its pc. */
struct fstate {
	uint64_t regs[CFI_NREGS];
	uint32_t set;		/* bit r: regs[r] is known */
	uint64_t pc;
	bool has_pc;		/* else the stack ends here */
	bool initial, signal;
};

enum fast { FAST_DONE, FAST_STALE, FAST_LIBDWFL };

/* The module of the process's Dwfl that holds address a, as
 * dwfl_addrmodule() finds it. */
static const struct umod *module_at(const struct uproc *pr, uint64_t a)
{
	for (size_t i = 0; i < pr->nmods; i++)
		if (pr->mods[i].lo <= a && a < pr->mods[i].hi)
			return &pr->mods[i];
	return NULL;
}

/* Object file i's CFI: its .eh_frame, or (debug) its .debug_frame, as
 * libdwfl's module has them: its own, else its separate debug file's. */
static Dwarf_CFI *file_cfi(struct perf_unwind *u, uint32_t i, bool debug)
{
	struct ufile *f = u->files.files[i];

	if (!debug && !f->cfi_looked) {
		f->cfi = perf_ehcfi_open(f->fd, f->elf, &f->eh);
		if (!f->cfi)
			f->cfi = libdw->getcfi_elf(f->elf);
		f->fde_ok = !u->rows_by_libdw && f->cfi &&
			    perf_fde_init(&f->fde, f->elf);
		f->cfi_looked = true;
	}
	if (debug && !f->dcfi_looked) {
		/* the object's own DWARF first, as libdwfl's find_dw() */
		f->dw = libdw->begin_elf(f->elf, DWARF_C_READ, NULL);
		if (!f->dw && unwind_file_debug(f))
			f->dw = libdw->begin_elf(f->debug_elf, DWARF_C_READ,
						NULL);
		f->dcfi = f->dw ? libdw->getcfi(f->dw) : NULL;
		f->dcfi_looked = true;
	}
	return debug ? f->dcfi : f->cfi;
}

/*
 * libdwfl's last resort where no CFI describes the code (x86_64's
 * backend, x86_64_unwind()): rbp taken for a frame pointer, the
 * caller's rbp and return address above it. Without them the stack
 * ends here (up->has_pc false).
 */
static void step_by_fp(struct perf_unwind *u, const struct fstate *st,
		       struct fstate *up)
{
	uint64_t fp = st->regs[6], sp = 0, prev = 0, ret;

	up->has_pc = false;
	up->signal = false;
	up->initial = false;
	if (!(st->set >> 6 & 1) || !fp)
		return;
	if (st->set >> 7 & 1)
		sp = st->regs[7];
	if (!read_word(u, fp, &prev))
		prev = 0;
	if (!read_word(u, fp + 8, &ret) || sp >= fp + 16)
		return;
	up->regs[6] = prev;
	up->regs[7] = fp + 16;
	up->set = 1u << 6 | 1u << 7;
	up->pc = ret;
	up->has_pc = true;
}

/* The caller's frame of st by row, as libdwfl's handle_cfi() makes it
 * from the same row. */
static inline void step_by_row(struct perf_unwind *u,
			       const struct fstate *st,
			       const struct cfi_row *row, struct fstate *up)
{
	unsigned first = row->nsame + row->nat;
	bool has_cfa;
	uint64_t cfa = 0, lo, hi, size = u->s->stack_size;

	has_cfa = row->cfa_reg < CFI_NREGS && (st->set >> row->cfa_reg & 1);
	if (has_cfa)
		cfa = st->regs[row->cfa_reg] + (uint64_t)row->cfa_off;
	if (row->plt_k) {
		/* a PLT entry's CFA (struct cfi_row), of the pc's register */
		has_cfa = has_cfa && (st->set >> 16 & 1);
		if (has_cfa && (st->regs[16] & 15) >= row->plt_k - 1u)
			cfa += 8;
	}
	up->set = 0;
	up->initial = false;
	up->signal = row->signal;
	/* each kind of rule in a loop of its own (a switch per register
	 * mispredicted most of its jumps); an undefined register is left
	 * unknown, and ends the stack if it is the return address. The
	 * registers of CFI_SAME copied with the rest (those not known
	 * stay unknown: their bits are not set) */
	if (row->same_mask) {
		memcpy(up->regs, st->regs, sizeof(up->regs));
		up->set = st->set & row->same_mask;
	}
	lo = cfa + (uint64_t)row->at_lo;
	hi = cfa + (uint64_t)row->at_hi;
	if (has_cfa && row->at_mask && lo >= u->sp && hi >= lo &&
	    size >= 8 && hi - u->sp <= size - 8) {
		/* every read in the dump, [lo, hi] not wrapping: none
		 * checked alone (as read_word() reads) */
		const unsigned char *base = u->s->stack + (lo - u->sp);
		uint64_t *regs = up->regs, from = (uint64_t)row->at_lo;
		const uint8_t *ruled = row->ruled;
		const int64_t *off = row->off;

		for (unsigned k = row->nsame; k < first; k++) {
			unsigned r = ruled[k];

			memcpy(&regs[r], base + ((uint64_t)off[r] - from), 8);
		}
		if (u->swap)
			for (unsigned k = row->nsame; k < first; k++)
				regs[ruled[k]] = __builtin_bswap64(
					regs[ruled[k]]);
		up->set |= row->at_mask;
	} else {
		for (unsigned k = row->nsame; has_cfa && k < first; k++) {
			unsigned r = row->ruled[k];

			if (read_word(u, cfa + (uint64_t)row->off[r],
				      &up->regs[r]))
				up->set |= 1u << r;
		}
	}
	for (unsigned k = first; k < first + row->nother; k++) {
		unsigned r = row->ruled[k];
		uint64_t off = (uint64_t)row->off[r];

		if (row->rule[r] == CFI_VAL && has_cfa) {
			up->regs[r] = cfa + off;
			up->set |= 1u << r;
		} else if (row->rule[r] == CFI_REG && (st->set >> off & 1)) {
			up->regs[r] = st->regs[off];
			up->set |= 1u << r;
		}
	}
	up->has_pc = row->rule[row->ra] != CFI_UNDEFINED &&
		     (up->set >> row->ra & 1) && up->regs[row->ra];
	up->pc = up->has_pc ? up->regs[row->ra] : 0;
}

/*
 * The caller's frame of st, as libdwfl's __libdwfl_frame_unwind()
 * makes it: the pc before a return address is looked up in its
 * module's .eh_frame, then .debug_frame, then frame pointers are
 * tried. A register whose rule cannot be followed is unknown in the
 * caller; the stack ends where the return address is undefined,
 * unknown or 0. False for a row that takes an expression (but a PLT
 * entry's CFA): left to libdwfl.
 */
static bool step(struct perf_unwind *u, const struct fstate *st,
		 struct fstate *up)
{
	bool ret_addr = !st->initial && !st->signal;
	uint64_t pc = st->pc - (ret_addr ? 1 : 0);
	struct report_slot *rs = ret_addr ? u->last : NULL;
	const struct uproc *pr = u->proc;
	const struct umod *m;
	const struct cfi_row *row = NULL;
	enum cfi_found found = CFI_NO_FDE;

	/* a return address's look-up, kept in st->pc's report slot */
	if (rs && rs->row1) {
		if (rs->row1 == STEP_BY_FP) {
			step_by_fp(u, st, up);
			return true;
		}
		row = u->rows_at + (rs->row1 - 1);
	} else {
		/* the module report() found for st->pc, when it holds pc */
		m = u->mod < pr->nmods && pr->mods[u->mod].lo <= pc &&
				    pc < pr->mods[u->mod].hi
			    ? &pr->mods[u->mod]
			    : module_at(pr, pc);
		for (int debug = 0; m && debug < 2 && found == CFI_NO_FDE;
		     debug++) {
			Dwarf_CFI *cfi = file_cfi(u, m->object, debug);
			struct ufile *f = u->files.files[m->object];

			found = perf_cfi_row(u->rows,
					     m->object * 2 + (uint32_t)debug,
					     cfi,
					     !debug && f->fde_ok ? &f->fde
								 : NULL,
					     pc - m->bias, &row);
		}
		if (found == CFI_HARD)
			return false;
		if (found == CFI_FOUND)
			u->rows_at = perf_cfi_at(u->rows, 0);
		if (rs && m)
			rs->row1 = found == CFI_FOUND
					   ? perf_cfi_index(u->rows, row) + 1
					   : STEP_BY_FP;
		if (found != CFI_FOUND) {
			step_by_fp(u, st, up);
			return true;
		}
	}
	step_by_row(u, st, row, up);
	return true;
}

/*
 * The sample's frames from the cached rows, as dwfl_getthread_frames()
 * and frame() would give them: each frame's module reported before
 * stepping from it, a frame exact when it or its caller is a signal
 * frame's. FAST_LIBDWFL: a frame needs libdwfl (the caller starts
 * over with it).
 */
static enum fast unwind_by_rows(struct perf_unwind *u)
{
	struct fstate a, b, *st = &a, *up = &b, *t;

	for (unsigned r = 0; r < CFI_NREGS; r++)
		a.regs[r] = u->regs[r];
	a.set = (1u << CFI_NREGS) - 1;
	a.pc = u->regs[X86_64_NREGS - 1];
	a.has_pc = a.initial = true;
	a.signal = false;
	u->n = 0;
	/* the first frame's pc reported by the caller, u->last its slot */
	for (bool first = true;; first = false) {
		if (!first && report(u, st->pc) == REPORT_STALE)
			return FAST_STALE;
		u->past_dump = false;	/* of the last step only */
		if (!step(u, st, up))
			return FAST_LIBDWFL;
		keep_frame(u, st->pc,
			   st->initial || st->signal ||
				   (up->has_pc && up->signal));
		if (++u->n >= u->max || !up->has_pc)
			return FAST_DONE;
		t = st;
		st = up;
		up = t;
	}
}

/* --- samples --- */

bool perf_unwind_regs_usable(const struct perf_attr *a,
			     const struct perf_sample *s)
{
	uint64_t mask = a->sample_regs_user;
	uint64_t need = 1ull << PERF_REG_X86_SP | 1ull << PERF_REG_X86_IP;

	return s->regs_abi == PERF_SAMPLE_REGS_ABI_64 && s->regs &&
	       (mask & need) == need &&
	       (uint64_t)__builtin_popcountll(mask) <= s->nregs;
}

/* The registers libdwfl needs, from the sample's: false when the
 * sample lacks one of them or is not a 64-bit process's. */
static bool sample_regs(struct perf_unwind *u, const struct perf_attr *a,
			const struct perf_sample *s)
{
	uint64_t mask = a->sample_regs_user;

	if (s->regs_abi != PERF_SAMPLE_REGS_ABI_64 || !s->regs)
		return false;
	/* each register's place in the sample's, once per mask: the
	 * popcounts were libgcc's calls, 17 a sample */
	if (!u->regs_at_set || u->regs_mask != mask) {
		for (size_t i = 0; i < X86_64_NREGS; i++) {
			unsigned r = x86_64_perf_reg[i];
			uint64_t below = mask & ((1ull << r) - 1);

			u->regs_at[i] = mask >> r & 1
				? (uint8_t)__builtin_popcountll(below)
				: REG_ABSENT;
		}
		u->regs_mask = mask;
		u->regs_at_set = true;
	}
	for (size_t i = 0; i < X86_64_NREGS; i++) {
		unsigned r = x86_64_perf_reg[i];
		uint64_t at = u->regs_at[i];

		u->regs[i] = 0;
		if (at == REG_ABSENT || at >= s->nregs) {
			if (r == PERF_REG_X86_SP || r == PERF_REG_X86_IP)
				return false;
			continue;
		}
		/* read whole, as read_word() does: a cursor's calls were
		 * 17 a sample */
		memcpy(&u->regs[i], s->regs + at * 8, 8);
		if (u->swap)
			u->regs[i] = __builtin_bswap64(u->regs[i]);
	}
	u->sp = u->regs[7];
	return true;
}

/* libdwfl's unwinding of the sample, with the process's Dwfl: the
 * frames found; u->stale when the Dwfl must be made again. */
static size_t unwind_libdwfl(struct perf_unwind *u)
{
	struct uproc *pr = u->proc;

	u->n = 0;
	if (!proc_dwfl(u, pr))
		return 0;
	/* the architecture comes from the first module reported */
	if (!pr->attached) {
		if (!libdw->attach_state(pr->dwfl, NULL, (pid_t)u->s->pid,
				       &thread_callbacks, u))
			return 0;
		pr->attached = true;
	}
	libdw->getthread_frames(pr->dwfl, u->s->tid ? (pid_t)u->s->tid : 1,
			      frame, u);
	return u->n;
}

/* Whether n frames of the rows are libdwfl's n frames in u. */
static bool same_frames(const struct perf_unwind *u, const uint64_t *pcs,
			const bool *exact, size_t n)
{
	if (n != u->n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (pcs[i] != u->pcs[i] || exact[i] != u->exact[i])
			return false;
	return true;
}

/* One try with the process's Dwfl: the frames found; u->stale when it
 * must be made again. */
static size_t unwind_once(struct perf_unwind *u)
{
	struct uproc *pr = proc_get(u, u->s->pid);
	uint64_t ip = u->regs[X86_64_NREGS - 1];
	uint64_t pcs[PERF_UNWIND_MAX];
	bool exact[PERF_UNWIND_MAX];
	size_t n;

	u->n = 0;
	u->stale = false;
	u->proc = pr;
	if (!pr)
		return 0;
	switch (report(u, ip)) {
	case REPORT_STALE:
		u->stale = true;
		return 0;
	case REPORT_NONE:
		return 0;
	case REPORT_OK:
	default:
		break;
	}
	if (u->how != PERF_UNWIND_LIBDWFL) {
		switch (unwind_by_rows(u)) {
		case FAST_STALE:
			u->stale = true;
			return 0;
		case FAST_DONE:
			u->by_rows++;
			if (u->how != PERF_UNWIND_CHECK)
				return u->n;
			break;
		case FAST_LIBDWFL:
		default:
			u->n = 0;
			break;
		}
	}
	n = u->n;
	memcpy(pcs, u->pcs, n * sizeof(*pcs));
	memcpy(exact, u->exact, n * sizeof(*exact));
	if (!n)
		u->by_libdwfl++;
	unwind_libdwfl(u);
	if (n && !u->stale && !same_frames(u, pcs, exact, n))
		u->differed++;
	return u->n;
}

size_t perf_unwind_sample(struct perf_unwind *u, const struct perf_attr *a,
			  const struct perf_sample *s, uint32_t gen,
			  uint64_t *pcs, bool *exact,
			  struct perf_unwind_where *where, size_t max)
{
	size_t n;

	if (!s->stack_size || !max || !sample_regs(u, a, s))
		return 0;
	for (uint64_t o = 0; o < s->stack_size && o < PREFETCH_DUMP; o += 64)
		__builtin_prefetch(s->stack + o);
	u->s = s;
	u->gen = gen;
	u->pcs = pcs;
	u->exact = exact;
	u->where = where;
	u->max = max;
	u->past_dump = false;
	n = unwind_once(u);
	if (u->stale) {
		/* the process is not what its Dwfl holds: start over */
		proc_drop(u->proc);
		n = unwind_once(u);
	}
	if (n)
		u->unwound++;
	else
		u->failed++;
	/* the frames stopped where a read fell past the dump (not at the
	 * recording's frame limit, where nothing more was read) */
	if (n && n < max && u->past_dump)
		u->cut++;
	return n;
}

struct perf_unwind *perf_unwind_new(struct perf_reader *r)
{
	const char *arch = r->d->arch == NO_NAME
				   ? NULL
				   : names_str(&r->p->names, r->d->arch);
	struct perf_unwind *u;

	/* x86_64's registers only; a recording without its ARCH feature
	 * is taken for this machine's */
	if (r->big_endian || (arch && strcmp(arch, "x86_64")))
		return NULL;
#ifndef __x86_64__
	if (!arch)
		return NULL;
#endif
	if (!(libdw = libdw_load()))
		return NULL;
	/* libelf's version set, as dwfl_begin() sets it: the files are
	 * opened before any Dwfl is made, if one ever is */
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	u = xcalloc(1, sizeof(*u));
	u->r = r;
	u->callbacks.find_elf = find_elf;
	u->callbacks.find_debuginfo = find_debuginfo;
	u->callbacks.section_address = libdw->offline_section_address;
	u->callbacks.debuginfo_path = &u->debuginfo_path;
	unwind_files_init(&u->files, r, u);
	u->rows = perf_cfi_new();
	u->rows_by_libdw = getenv("CGANALYZE_CFI") &&
			   !strcmp(getenv("CGANALYZE_CFI"), "libdw");
	u->swap = r->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	u->how = r->opts->perf_unwinder;
	return u;
}

void perf_unwind_free(struct perf_unwind *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < UNWIND_PROCS; i++)
		proc_drop(&u->procs[i]);
	unwind_files_release(&u->files);
	perf_cfi_free(u->rows);
	free(u->reported);
	free(u);
}

void perf_unwind_absorb(struct perf_unwind *u, const struct perf_unwind *from)
{
	u->unwound += from->unwound;
	u->failed += from->failed;
	u->cut += from->cut;
	u->by_rows += from->by_rows;
	u->by_libdwfl += from->by_libdwfl;
	u->differed += from->differed;
}

void perf_unwind_counts(const struct perf_unwind *u, uint64_t *unwound,
			uint64_t *failed)
{
	*unwound = u ? u->unwound : 0;
	*failed = u ? u->failed : 0;
}

uint64_t perf_unwind_cut(const struct perf_unwind *u)
{
	return u ? u->cut : 0;
}

void perf_unwind_ways(const struct perf_unwind *u, uint64_t *by_rows,
		      uint64_t *by_libdwfl, uint64_t *differed)
{
	*by_rows = u ? u->by_rows : 0;
	*by_libdwfl = u ? u->by_libdwfl : 0;
	*differed = u ? u->differed : 0;
}
