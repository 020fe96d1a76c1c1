/*
 * Symbol tables loaded on a second thread while a perf.data's samples
 * are read (see perf_preload.h).
 *
 * Names: symtab_open() interns its names into the names table it is
 * given, so a table loaded on the helper has a names table of its own.
 * A symbol table is taken with it: the table keeps its own names (lent
 * by the load until perf_preload_free()), and resolve_perf.c interns
 * into the profile's the few names it gives functions (symbol_func()),
 * where interning every name of the table there again took the main
 * thread 3% of the run (libLLVM's 44,000 raw names for its 105 sampled
 * functions). Which ids the profile's names get is no listing's
 * business but one: the kernel's symbols at one address are ordered as
 * their names' ids would have been (the last names the address), and
 * those ids depend on the names interned before them, a taken table's
 * among them. resolve_perf.c tells kallsyms_order() which tables it
 * took and when, and the order is what interning them would have made
 * (kallsyms.h). kallsyms interns no names at all.
 *
 * Messages: the helper's go to a buffer of each load's (diag.h's thread
 * sink); a load that said anything is not taken but opened again on
 * the main thread, where its messages come in their place. libbfd's
 * own writes to file descriptor 2 are kept from the main thread's
 * messages by diag_lock() (symtab/bfd_diag.c).
 *
 * Libraries: the helper uses libelf and libbfd, on files of its own;
 * the reader's unwinder meanwhile uses libdw and libelf on its own
 * handles, and nothing else of libbfd runs before perf_preload_finish().
 */
#include "perf_preload.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/arena.h"
#include "base/array.h"
#include "base/diag.h"
#include "base/spare_cpu.h"
#include "base/xalloc.h"
#include "profile/perf_files.h"

/* What one load made: a table or kallsyms with its own names. */
struct loaded {
	uint32_t obj;		/* UINT32_MAX: the kernel's symbols */
	char *path;
	struct symtab *st;	/* NULL: symtab_open() failed */
	struct kallsyms k;
	int ret;		/* kallsyms_load()'s */
	struct arena arena;
	struct names names;	/* a taken table's, until the end */
	bool lent;		/* the table taken: names and arena kept */
	char *msgs;
	size_t msg_len;
};

/* An object's candidate files (kernel: kallsyms' path alone), each
 * its own string: a recording may map many objects. */
struct job {
	uint32_t obj;
	bool kernel;
	char *paths[PERF_OBJECT_PATHS];
	size_t n;
	uint8_t build_id[PERF_BUILD_ID_MAX];
	size_t build_id_len;
};

struct perf_preload {
	const struct resolve_opts *o;
	pthread_t thread;
	bool always;		/* whether a processor is free or not */
	bool started, off, closed;
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct job *jobs;	/* under lock */
	size_t njobs, jobs_alloc, next;
	/* the build-id table's objects (perf_preload_listed()), taken
	 * when jobs has none left: under lock */
	struct job *listed;
	size_t nlisted, listed_alloc, next_listed;
	/* the objects given a frame while no processor was free for the
	 * helper (perf_preload_reading() asks again), and the tables
	 * their names are in */
	bool said_no;
	uint32_t *declined;
	size_t ndeclined, declined_alloc;
	const struct names *names;
	const struct perf_data *d;
	char (*scratch)[PERF_PATH_MAX];	/* perf_object_paths()' */
	struct loaded *loaded;	/* the helper's alone until finished */
	size_t nloaded, loaded_alloc;
};

#define KERNEL_OBJ UINT32_MAX
/*
 * Objects loaded ahead at most; the others are opened where resolve
 * gets to them, as without the helper. Each load holds a names table of
 * its own (a 127 KiB arena block at least) until it is taken: a
 * recording of many small objects must not make that many of them.
 */
#define PRELOAD_MAX_JOBS 256

struct perf_preload *perf_preload_new(const struct resolve_opts *o,
				      bool always)
{
	struct perf_preload *pl = xcalloc(1, sizeof(*pl));

	pl->o = o;
	pl->always = always;
	pthread_mutex_init(&pl->lock, NULL);
	pthread_cond_init(&pl->more, NULL);
	return pl;
}

/* One load on the helper, its messages kept, added to pl->loaded. */
static struct loaded *load(struct perf_preload *pl, const struct job *j,
			   const char *path)
{
	/* resolve_perf.c's bind_recorded() for names only */
	struct symtab_opts so = { .debug_dir = pl->o->debug_dir,
				  .demangle = true,
				  .no_dwarf = true,
				  .names_later = true };
	struct loaded l;
	FILE *msgs;

	memset(&l, 0, sizeof(l));
	l.obj = j->kernel ? KERNEL_OBJ : j->obj;
	l.path = xstrdup(path);
	arena_init(&l.arena);
	names_init(&l.names, &l.arena);
	msgs = open_memstream(&l.msgs, &l.msg_len);
	if (!msgs) {
		/* said nowhere: taken as said, so opened again */
		l.msg_len = 1;
	} else {
		diag_set_thread_sink(msgs);
	}
	if (j->kernel) {
		l.ret = kallsyms_load(&l.k, path);
	} else {
		l.st = xcalloc(1, sizeof(*l.st));
		if (symtab_open(l.st, path, &so, &l.names) < 0) {
			free(l.st);
			l.st = NULL;
		}
	}
	if (msgs) {
		diag_set_thread_sink(NULL);
		fclose(msgs);
	}
	ARRAY_GROW(pl->loaded, pl->nloaded + 1, pl->loaded_alloc);
	pl->loaded[pl->nloaded] = l;
	return &pl->loaded[pl->nloaded++];
}

/* bind_recorded()'s walk of the candidates: up to the first that opens
 * with the recorded build-id (the calls check is the main thread's,
 * which opens the next ones itself if it refuses that one). */
static void run_job(struct perf_preload *pl, const struct job *j)
{
	if (j->kernel) {
		load(pl, j, j->paths[0]);
		return;
	}
	struct perf_object ob;

	memset(&ob, 0, sizeof(ob));
	memcpy(ob.build_id, j->build_id, j->build_id_len);
	ob.build_id_len = (uint8_t)j->build_id_len;
	for (size_t c = 0; c < j->n; c++) {
		struct stat sb;
		const struct symtab *st;

		if (stat(j->paths[c], &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		st = load(pl, j, j->paths[c])->st;
		if (st && (!ob.build_id_len ||
			   perf_build_id_is(&ob, st->build_id,
					    st->build_id_len)))
			break;
	}
}

static void *helper(void *arg)
{
	struct perf_preload *pl = arg;

	pthread_mutex_lock(&pl->lock);
	for (;;) {
		struct job j;

		while (pl->next == pl->njobs &&
		       pl->next_listed == pl->nlisted && !pl->closed)
			pthread_cond_wait(&pl->more, &pl->lock);
		if (pl->next < pl->njobs)
			j = pl->jobs[pl->next++];
		else if (pl->next_listed < pl->nlisted)
			j = pl->listed[pl->next_listed++];
		else
			break;
		pthread_mutex_unlock(&pl->lock);
		run_job(pl, &j);
		pthread_mutex_lock(&pl->lock);
	}
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

/* The kernel's symbols as load_kallsyms() would choose them first:
 * --kallsyms, else this kernel's when its release made the recording
 * (perf's cached copy of them where it will do, else /proc/kallsyms;
 * the build-id and the boot are checked there: at worst they were
 * loaded for nothing). cached: room for the copy's path. */
static const char *kernel_path(const struct perf_preload *pl,
			       const struct names *names,
			       const struct perf_data *d,
			       char cached[PERF_PATH_MAX])
{
	struct utsname u;

	if (pl->o->kallsyms)
		return pl->o->kallsyms;
	if (d->osrelease == NO_NAME || uname(&u) != 0 ||
	    strcmp(names_str(names, d->osrelease), u.release))
		return NULL;
	if (perf_kernel_cache_first(d, pl->o->sysroot, cached))
		return cached;
	return "/proc/kallsyms";
}

/* Whether obj's files are queued already (the main thread's: it alone
 * adds jobs). */
static bool queued(const struct perf_preload *pl, uint32_t obj)
{
	for (size_t i = 0; i < pl->njobs; i++)
		if (pl->jobs[i].obj == obj && !pl->jobs[i].kernel)
			return true;
	for (size_t i = 0; i < pl->nlisted; i++)
		if (pl->listed[i].obj == obj)
			return true;
	return false;
}

/* Object obj's job: its candidate files as bind_recorded() walks them
 * (kpath: the kernel's symbols' file instead). */
static void make_job(struct perf_preload *pl, const struct names *names,
		     const struct perf_data *d, uint32_t obj,
		     const char *kpath, struct job *j)
{
	const struct perf_object *ob = &d->objects[obj];

	memset(j, 0, sizeof(*j));
	j->obj = obj;
	j->kernel = kpath != NULL;
	if (kpath) {
		j->paths[0] = xstrdup(kpath);
		j->n = 1;
		return;
	}
	if (!pl->scratch)
		pl->scratch = xmalloc(PERF_OBJECT_PATHS * sizeof(*pl->scratch));
	j->n = perf_object_paths(ob, names_str(names, ob->path),
				 pl->o->sysroot, pl->o->debug_dir, pl->scratch);
	for (size_t c = 0; c < j->n; c++)
		j->paths[c] = xstrdup(pl->scratch[c]);
	j->build_id_len = ob->build_id_len;
	memcpy(j->build_id, ob->build_id, ob->build_id_len);
}

void perf_preload_listed(void *ctx, const struct names *names,
			 const struct perf_data *d, uint32_t obj)
{
	struct perf_preload *pl = ctx;
	struct job j;

	if (pl->off || pl->closed ||
	    pl->njobs + pl->nlisted >= PRELOAD_MAX_JOBS ||
	    d->objects[obj].kind != PERF_OBJ_FILE || queued(pl, obj))
		return;
	make_job(pl, names, d, obj, NULL, &j);
	pthread_mutex_lock(&pl->lock);
	ARRAY_GROW(pl->listed, pl->nlisted + 1, pl->listed_alloc);
	pl->listed[pl->nlisted++] = j;
	pthread_cond_signal(&pl->more);
	pthread_mutex_unlock(&pl->lock);
}

/* Object obj's files queued for the helper, if it has any to load. */
static void queue_object(struct perf_preload *pl, const struct names *names,
			 const struct perf_data *d, uint32_t obj)
{
	const struct perf_object *ob = &d->objects[obj];
	const char *kpath = NULL;
	char cached[PERF_PATH_MAX];
	struct job j;

	if (pl->njobs + pl->nlisted >= PRELOAD_MAX_JOBS)
		return;
	if (ob->kind == PERF_OBJ_KERNEL) {
		kpath = kernel_path(pl, names, d, cached);
		if (!kpath)
			return;
	} else if (ob->kind != PERF_OBJ_FILE) {
		return;
	}
	if (!kpath && queued(pl, obj))
		return;		/* listed: loaded once */
	make_job(pl, names, d, obj, kpath, &j);
	pthread_mutex_lock(&pl->lock);
	ARRAY_GROW(pl->jobs, pl->njobs + 1, pl->jobs_alloc);
	pl->jobs[pl->njobs++] = j;
	pthread_cond_signal(&pl->more);
	pthread_mutex_unlock(&pl->lock);
}

/* The helper started: false (and nothing more tried) if it cannot be. */
static bool start_helper(struct perf_preload *pl)
{
	if (pthread_create(&pl->thread, NULL, helper, pl) != 0) {
		pl->off = true;
		return false;
	}
	pl->started = true;
	return true;
}

void perf_preload_object(void *ctx, const struct names *names,
			 const struct perf_data *d, uint32_t obj)
{
	struct perf_preload *pl = ctx;

	if (pl->off || pl->closed)
		return;
	if (!pl->started) {
		/* asked once; while the answer is no, the objects wait
		 * for perf_preload_reading() to ask again */
		if (pl->always || (!pl->said_no && spare_cpu_beside_own())) {
			if (!start_helper(pl))
				return;
		} else {
			pl->said_no = true;
			if (pl->ndeclined < PRELOAD_MAX_JOBS) {
				ARRAY_GROW(pl->declined, pl->ndeclined + 1,
					   pl->declined_alloc);
				pl->declined[pl->ndeclined++] = obj;
			}
			pl->names = names;
			pl->d = d;
			return;
		}
	}
	queue_object(pl, names, d, obj);
}

void perf_preload_reading(void *ctx)
{
	struct perf_preload *pl = ctx;

	if (pl->started || pl->off || pl->closed || !pl->ndeclined ||
	    !spare_cpu_beside_own() || !start_helper(pl))
		return;
	for (size_t i = 0; i < pl->ndeclined; i++)
		queue_object(pl, pl->names, pl->d, pl->declined[i]);
	pl->ndeclined = 0;
}

void perf_preload_finish(struct perf_preload *pl)
{
	if (pl->closed)
		return;
	pthread_mutex_lock(&pl->lock);
	pl->closed = true;
	pthread_cond_signal(&pl->more);
	pthread_mutex_unlock(&pl->lock);
	if (pl->started)
		pthread_join(pl->thread, NULL);
	pl->started = false;
}

/* What was loaded, but for a lent names table (final: that too). */
static void drop(struct loaded *l, bool final)
{
	bool keep = l->lent && !final;

	if (l->st) {
		symtab_release(l->st);
		free(l->st);
		l->st = NULL;
	}
	kallsyms_release(&l->k);
	if (!keep) {
		names_release(&l->names);
		arena_release(&l->arena);
	}
	free(l->path);
	free(l->msgs);
	l->path = l->msgs = NULL;	/* path NULL: taken or dropped */
	l->msg_len = 0;
	l->lent = keep;
}

/* The load of obj's file at path; NULL when there is none or it said
 * something. */
static struct loaded *find(struct perf_preload *pl, uint32_t obj,
			   const char *path)
{
	struct loaded *l = NULL;

	perf_preload_finish(pl);
	for (size_t i = 0; i < pl->nloaded && !l; i++)
		if (pl->loaded[i].obj == obj && pl->loaded[i].path &&
		    !strcmp(pl->loaded[i].path, path))
			l = &pl->loaded[i];
	if (!l)
		return NULL;
	if (l->msg_len) {
		drop(l, false);
		return NULL;
	}
	return l;
}

struct symtab *perf_preload_take(struct perf_preload *pl, uint32_t obj,
				 const char *path)
{
	struct loaded *l = find(pl, obj, path);
	struct symtab *st;

	if (!l)
		return NULL;
	st = l->st;
	l->st = NULL;
	if (st) {
		/* the load was copied into pl->loaded, which no longer
		 * moves (the helper is done): its names table and the
		 * table's pointer to it are made to point there */
		l->names.arena = &l->arena;
		st->names = &l->names;
		l->lent = true;
	}
	drop(l, false);
	return st;
}

bool perf_preload_take_kallsyms(struct perf_preload *pl, const char *path,
				struct kallsyms *k, int *ret)
{
	/* its names are not interned: nothing to move */
	struct loaded *l = find(pl, KERNEL_OBJ, path);

	if (!l)
		return false;
	*k = l->k;
	memset(&l->k, 0, sizeof(l->k));
	*ret = l->ret;
	drop(l, false);
	return true;
}

void perf_preload_free(struct perf_preload *pl)
{
	if (!pl)
		return;
	perf_preload_finish(pl);
	for (size_t i = 0; i < pl->njobs; i++)
		for (size_t c = 0; c < pl->jobs[i].n; c++)
			free(pl->jobs[i].paths[c]);
	free(pl->jobs);
	free(pl->declined);
	for (size_t i = 0; i < pl->nlisted; i++)
		for (size_t c = 0; c < pl->listed[i].n; c++)
			free(pl->listed[i].paths[c]);
	free(pl->listed);
	free(pl->scratch);
	for (size_t i = 0; i < pl->nloaded; i++)
		drop(&pl->loaded[i], true);
	free(pl->loaded);
	pthread_mutex_destroy(&pl->lock);
	pthread_cond_destroy(&pl->more);
	free(pl);
}
