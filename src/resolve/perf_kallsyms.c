/*
 * Which kallsyms names a perf recording's kernel (see perf_kallsyms.h).
 */
#include "perf_kallsyms.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/diag.h"
#include "perf_preload.h"
#include "profile/perf_files.h"

struct choice {
	const struct profile *p;
	const struct perf_data *d;
	const struct resolve_opts *o;
	struct kallsyms *k;
};

/*
 * Whether the recording was made on the running kernel: the same
 * release (OSRELEASE, uname -r), and the same build when the recording
 * gives the kernel's build-id.
 */
static bool recorded_here(const struct choice *r)
{
	const struct perf_data *d = r->d;
	const struct perf_object *k = NULL;
	uint8_t id[PERF_BUILD_ID_MAX];
	struct utsname u;
	size_t n;

	if (d->osrelease == NO_NAME || uname(&u) != 0 ||
	    strcmp(profile_str(r->p, d->osrelease), u.release))
		return false;
	for (size_t i = 0; i < d->nobjects; i++)
		if (d->objects[i].kind == PERF_OBJ_KERNEL)
			k = &d->objects[i];
	if (!k || !k->build_id_len)
		return true;
	n = kallsyms_running_build_id(id, sizeof(id));
	return !n || (n <= k->build_id_len && !memcmp(id, k->build_id, n));
}

/*
 * A recording made on another kernel (another machine's, a reboot into
 * another build) without --kallsyms: its kernel code is one function,
 * [kernel.kallsyms]. Said once when it has kernel samples, with what
 * names them.
 */
static void note_kernel_unnamed(const struct choice *r)
{
	const struct perf_data *d = r->d;
	const char *where = NULL;
	struct utsname u;
	bool kernel = false;

	for (size_t f = 0; f < d->nframes && !kernel; f++)
		kernel = d->objects[d->frames[f].object].kind ==
			 PERF_OBJ_KERNEL;
	if (!kernel)
		return;
	for (size_t i = 0; i < r->p->ninputs && !where; i++)
		if (!strcmp(profile_str(r->p, r->p->inputs[i].format), "perf"))
			where = profile_str(r->p, r->p->inputs[i].path);
	if (uname(&u) != 0)
		strcpy(u.release, "?");
	if (d->osrelease != NO_NAME &&
	    !strcmp(profile_str(r->p, d->osrelease), u.release))
		note("%s: its kernel code is one function, [kernel.kallsyms]: "
		     "it was recorded on another build of kernel %s (the "
		     "recorded build-id is not the running kernel's; "
		     "--kallsyms=FILE, a copy of that kernel's /proc/kallsyms, "
		     "names its functions)", where ? where : "the recording",
		     u.release);
	/* the running release is not in the other message: the tests'
	 * expected output must not depend on the machine */
	else
		note("%s: its kernel code is one function, [kernel.kallsyms]: "
		     "it was recorded on kernel %s, which is not the running "
		     "one (--kallsyms=FILE, a copy of that kernel's "
		     "/proc/kallsyms, names its functions)",
		     where ? where : "the recording",
		     d->osrelease != NO_NAME ? profile_str(r->p, d->osrelease)
					     : "(not recorded)");
}

/*
 * The recorded kernel's symbols in perf's build-id cache, by its
 * build-id: perf record keeps a copy of /proc/kallsyms there, and perf
 * archive's tarball, unpacked into ~/.debug on another machine, brings
 * it along with the objects. Into path; NULL when it is not there.
 */
static const char *cached_kallsyms(const struct choice *r,
				   char path[PERF_PATH_MAX])
{
	return perf_kernel_cache_file(r->d, r->o->sysroot, path) ? path : NULL;
}

/* kallsyms from path into r->k, as the preloader loaded it if it did:
 * kallsyms_load()'s answer. */
static int load_ksyms(struct choice *r, const char *path)
{
	int ret;

	if (!r->o->preload ||
	    !perf_preload_take_kallsyms(r->o->preload, path, r->k, &ret))
		ret = kallsyms_load(r->k, path);
	return ret;
}

/* kallsyms at path is of another boot than the recording's (at found
 * it has the symbol the recording placed): said. */
static void other_boot(struct choice *r, const char *path, uint64_t found)
{
	const char *ref = profile_str(r->p, r->d->kernel_ref);

	warning("%s has %s at %#" PRIx64 ", the recording at %#" PRIx64
		": it is of another boot, whose kernel was placed elsewhere; "
		"the kernel's code is left one function, [kernel.kallsyms] "
		"(--kallsyms=FILE, a copy of /proc/kallsyms made in the "
		"recording's boot, names its functions)", path, ref, found,
		r->d->kernel_ref_addr);
}

/*
 * The kernel's symbols: --kallsyms, or this kernel's when it made the
 * recording (perf's cached copy of them first where it will do:
 * perf_kernel_cache_first()), or else the recorded kernel's in perf's
 * build-id cache. Each is checked to be of the recording's boot by the
 * symbol the recording placed, the next tried when it is not.
 */
static int load(struct choice *r)
{
	char cached[PERF_PATH_MAX];
	const char *paths[2], *other = NULL;
	uint64_t found = 0;
	size_t n = 0;
	bool here = false, first_extra = false;
	int ret;

	if (r->o->kallsyms) {
		paths[n++] = r->o->kallsyms;
	} else if ((here = recorded_here(r))) {
		/* an extra: another boot's copy is passed over unsaid */
		first_extra = perf_kernel_cache_first(r->d, r->o->sysroot,
						      cached);
		if (first_extra)
			paths[n++] = cached;
		paths[n++] = "/proc/kallsyms";
	} else if (cached_kallsyms(r, cached)) {
		paths[n++] = cached;
	} else {
		note_kernel_unnamed(r);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t at = 0;
		int same = -1;

		ret = load_ksyms(r, paths[i]);
		if (ret < 0 && paths[i] == r->o->kallsyms)
			return -1;
		if (ret == 0 && r->d->kernel_ref != NO_NAME) {
			const char *ref = profile_str(r->p, r->d->kernel_ref);

			same = kallsyms_check_ref(r->k, ref, strlen(ref),
						  r->d->kernel_ref_addr, &at);
		}
		if (ret == 0 && same) {
			/* the cache's copy said when the recording is of
			 * another kernel (for the running one it is what
			 * /proc/kallsyms lists); one without addresses (a
			 * perf record not allowed to see them caches them
			 * all 0) or unreadable (said) names nothing */
			if (paths[i] == cached && !here)
				note("symbols from %s for [kernel.kallsyms] "
				     "(found by its build-id)", cached);
			return 1;
		}
		if (ret == 0) {
			kallsyms_release(r->k);
			if (!other && !(i == 0 && first_extra)) {
				other = paths[i];
				found = at;
			}
		}
	}
	if (other)
		other_boot(r, other, found);
	else if (!here && !r->o->kallsyms)
		note_kernel_unnamed(r);
	return 0;
}

int perf_kallsyms_load(const struct profile *p, const struct perf_data *d,
		       const struct resolve_opts *o, struct kallsyms *k)
{
	struct choice r = { p, d, o, k };

	memset(k, 0, sizeof(*k));
	return load(&r);
}
