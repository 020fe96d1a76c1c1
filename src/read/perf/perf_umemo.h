/*
 * The outer frames of a thread's last unwinding, kept for its next
 * sample (perf_unwind.c): samples of one thread a fraction of a
 * millisecond apart differ mostly in their innermost frames.
 *
 * Stepping from a frame is a function of that frame's state (its pc,
 * which registers are known and their values, whether it is the first
 * frame or a signal frame's), of the stack words the step reads, and
 * of the mappings and modules the frame's pc is looked up in. So when
 * a sample's unwinding reaches a frame whose state is that of a frame
 * of the thread's last unwinding, the frames from there on are the
 * last unwinding's if every word its steps read from there on reads
 * the same from this sample's dump (or fails the same way: below the
 * stack pointer, or past the dump), if each frame's look-up holds at
 * this sample's time (the times [from, until) the mapping found holds
 * for, with the process's mappings and its Dwfl's modules as they
 * were), and if the frame limit cuts them at the same place. Nothing
 * else is taken for granted: a word that differs, an mmap or exec
 * between the two samples (another gen, another Dwfl, another module
 * reported), and the frames are stepped again.
 *
 * Each unwinder has its own (perf_par.h): nothing is shared between
 * threads.
 */
#ifndef CGA_PERF_UMEMO_H
#define CGA_PERF_UMEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf_cfi.h"
#include "perf_unwind.h"

/* A frame as the unwinder steps from it, as libdwfl keeps one
 * (Dwfl_Frame): its registers, which of them are known, its pc. */
struct perf_ustate {
	uint64_t regs[CFI_NREGS];
	uint32_t set;		/* bit r: regs[r] is known */
	uint64_t pc;
	bool has_pc;		/* else the stack ends here */
	bool initial, signal;
};

/* A sample's stack dump: size bytes of the stack from sp up. */
struct perf_udump {
	const unsigned char *stack;
	uint64_t sp, size;
	bool swap;		/* the recording's byte order is not ours */
};

/* How a read of the dump went. */
enum perf_uread {
	UREAD_OK,
	UREAD_BELOW,		/* under the stack pointer */
	UREAD_PAST,		/* the stack goes on above the dump */
};

/* The word at addr of dump d, into *v when UREAD_OK. */
static inline enum perf_uread perf_udump_read(const struct perf_udump *d,
					      uint64_t addr, uint64_t *v)
{
	uint64_t at, w;

	if (addr < d->sp)
		return UREAD_BELOW;
	at = addr - d->sp;
	if (d->size < 8 || at > d->size - 8)
		return UREAD_PAST;
	/* a word per register per frame: read whole, not byte by byte as
	 * a cursor reads (the recording's byte order, then this one's) */
	memcpy(&w, d->stack + at, 8);
	*v = d->swap ? __builtin_bswap64(w) : w;
	return UREAD_OK;
}

/* Whose unwinding an entry is, and with what: it is reused only for a
 * sample with the same. */
struct perf_umemo_key {
	uint64_t made;		/* the process's Dwfl (perf_unwind.c) */
	size_t nmods;		/* the modules reported to it */
	uint32_t pid, tid;
	uint32_t gen;		/* the process's mappings' */
};

struct perf_umemo;

struct perf_umemo *perf_umemo_new(void);
void perf_umemo_free(struct perf_umemo *m);

/* The words the steps of an unwinding read, in order. */
struct perf_uread_rec {
	uint64_t addr, v;	/* v: when how is UREAD_OK */
	uint8_t how;		/* enum perf_uread */
};
struct perf_ureads {
	struct perf_uread_rec *r;
	size_t n;
};

/* The most words a step reads: a row's CFI_AT registers, or two. */
#define PERF_UREADS_STEP (CFI_NREGS + 2)

/*
 * A sample's unwinding begins: key k (its nmods as it is now), its
 * dump d (valid until perf_umemo_keep() or perf_umemo_drop()), its
 * time, and the most frames it may have. Returns where each word the
 * steps read is to be told (perf_ureads_add()): room for
 * PERF_UREADS_STEP a frame.
 */
struct perf_ureads *perf_umemo_begin(struct perf_umemo *m,
				     const struct perf_umemo_key *k,
				     const struct perf_udump *d,
				     uint64_t time, size_t max);

/* The step from the frame being unwound read addr: how, and the word. */
static inline void perf_ureads_add(struct perf_ureads *l, uint64_t addr,
				   enum perf_uread how, uint64_t v)
{
	struct perf_uread_rec *rec = &l->r[l->n++];

	rec->addr = addr;
	rec->v = how == UREAD_OK ? v : 0;
	rec->how = (uint8_t)how;
}

/*
 * The unwinding is at frame st, after i frames stepped, the process's
 * Dwfl with nmods modules: if the thread's last unwinding kept had a
 * frame of this state and the frames from it hold for this sample (see
 * above), they are written to pcs[], exact[] and where[], *past says
 * whether the last step read past the dump, and the count is returned
 * (the unwinding is over: perf_umemo_keep() or perf_umemo_drop()
 * next); else 0.
 */
size_t perf_umemo_reuse(struct perf_umemo *m, const struct perf_ustate *st,
			size_t i, size_t nmods, uint64_t *pcs, bool *exact,
			struct perf_unwind_where *where, bool *past);

/* How the unwinding stepped from a frame: the times [from, until) its
 * look-up holds for, where its step's reads end in the log, whether one
 * read past the dump. */
struct perf_ustep {
	uint64_t from, until;
	uint32_t reads_end;
	bool past;
};

/*
 * Whether the unwinding, over after n frames stepped (and those
 * perf_umemo_reuse() took, if it did), is worth keeping: when it took
 * none, or it stepped a few frames to reach them.
 */
bool perf_umemo_worth(const struct perf_umemo *m, size_t n);

/*
 * The unwinding kept for the thread's next sample: the n frames it
 * stepped (states st[], each by rows[] (NULL: by frame pointers), steps
 * how[], exact[] and where[] as the sample has them), then those reuse
 * took if it did, else its end (full: at the frame limit, with a caller
 * left); the Dwfl with nmods modules.
 */
void perf_umemo_keep(struct perf_umemo *m, const struct cfi_row *const *rows,
		     size_t n,
		     const struct perf_ustate *st,
		     const struct perf_ustep *how, const bool *exact,
		     const struct perf_unwind_where *where, bool full,
		     size_t nmods);

/* Nothing of the unwinding kept (left to libdwfl, or a Dwfl to make
 * again, or not worth it): the thread's last one kept stays. */
void perf_umemo_drop(struct perf_umemo *m);

/* Samples that took frames from the last one, and the frames taken. */
void perf_umemo_counts(const struct perf_umemo *m, uint64_t *samples,
		       uint64_t *taken);

#endif
