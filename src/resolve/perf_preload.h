/*
 * A perf.data's symbol tables loaded on a second thread while its
 * samples are read (issue 33): each object's files, as resolve_perf.c's
 * bind_recorded() would open them, from the moment the reader gives the
 * object its first frame; and the kernel's symbols at its first kernel
 * frame. resolve_perf.c then takes each table where it would have
 * opened it, so that every listing is what one thread makes.
 */
#ifndef CGA_PERF_PRELOAD_H
#define CGA_PERF_PRELOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/names.h"
#include "kallsyms.h"
#include "profile/perf_data.h"
#include "resolve.h"
#include "symtab/symtab.h"

struct perf_preload;

/* A preloader with o's --sysroot, debug directory and --kallsyms (o
 * must outlive it); always: whether a processor is free for it or not
 * (tests). Nothing runs until perf_preload_object(). */
struct perf_preload *perf_preload_new(const struct resolve_opts *o,
				      bool always);

/*
 * The reader's hook (read_opts' perf_object_seen, ctx the preloader):
 * object obj of d has its first frame. Its files are queued for the
 * helper thread, which starts with the first of them when a processor
 * is free for it (spare_cpu_beside_own()); without one, the objects
 * wait for perf_preload_reading() to find one.
 */
void perf_preload_object(void *ctx, const struct names *names,
			 const struct perf_data *d, uint32_t obj);

/*
 * The reader's hook (read_opts' perf_reading), called now and then
 * while the records are read: if no processor was free when the first
 * object came, one is asked for again, and if there is one now, the
 * helper starts with the objects given a frame so far.
 */
void perf_preload_reading(void *ctx);

/*
 * The reader's other hook (read_opts' perf_object_listed): object obj
 * of d is in the recording's build-id table, the files perf record
 * found samples in, known before the first record. Its files are
 * queued behind those of the objects given a frame, for the helper to
 * load when it has nothing else to do: an object first mapped at the
 * recording's end (a link's plugin: libLLVM) is then loaded long
 * before the samples are all read, not after. Starts nothing (the
 * helper starts at perf_preload_object()'s first object); an object
 * both listed and given a frame is loaded once. A table loaded for an
 * object no frame comes to is never taken: it costs the helper's time
 * and its memory until perf_preload_free(), and says nothing.
 */
void perf_preload_listed(void *ctx, const struct names *names,
			 const struct perf_data *d, uint32_t obj);

/* No more objects: waits for the helper to finish. Called before the
 * first take. */
void perf_preload_finish(struct perf_preload *pl);

/*
 * Object obj's file at path, as symtab_open() with resolve_perf.c's
 * options for names only would give it, but with a names table of its
 * own (st->names: the caller interns the names it uses into its own
 * table), which lives until perf_preload_free(): NULL when it was not
 * loaded ahead, or its loading said something (a warning, a failure):
 * then the caller opens it, for the message to come where it belongs.
 * The caller owns the table it gets, and releases it before
 * perf_preload_free().
 */
struct symtab *perf_preload_take(struct perf_preload *pl, uint32_t obj,
				 const char *path);

/*
 * kallsyms_load(k, path) as loaded ahead: true with *ret its answer, or
 * false when it was not (or said something). Not yet ordered
 * (kallsyms_order()).
 */
bool perf_preload_take_kallsyms(struct perf_preload *pl, const char *path,
				struct kallsyms *k, int *ret);

/* Stops the helper if running; frees what was not taken. */
void perf_preload_free(struct perf_preload *pl);

#endif
