/*
 * The files the unwinder places each object's code with (see
 * unwind_files.h).
 */
#include "unwind_files.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/debug_dirs.h"
#include "base/xalloc.h"
#include "libdw_load.h"
#include "profile/perf_files.h"

void unwind_files_init(struct unwind_files *t, struct perf_reader *r,
		       struct perf_unwind *u)
{
	const struct perf_files *pf = r->opts->perf_files;
	size_t nb = pf ? pf->nbinaries : 0;

	memset(t, 0, sizeof(*t));
	t->r = r;
	t->u = u;
	t->bin_id = xcalloc(nb + 1, sizeof(*t->bin_id));
	t->bin_id_len = xcalloc(nb + 1, sizeof(*t->bin_id_len));
	t->bin_id_read = xcalloc(nb + 1, sizeof(*t->bin_id_read));
}

void unwind_files_release(struct unwind_files *t)
{
	const struct libdw_api *libdw = libdw_load();

	for (size_t i = 0; i < t->nfiles; i++) {
		struct ufile *f = t->files[i];

		if (!f)
			continue;
		if (f->path) {
			if (f->cfi)
				libdw->cfi_end(f->cfi);
			perf_ehcfi_close(&f->eh);
			libdw->end(f->dw);
			if (f->debug_elf) {
				elf_end(f->debug_elf);
				close(f->debug_fd);
			}
			elf_end(f->elf);
			close(f->fd);
		}
		free(f->path);
		free(f->debug_path);
		free(f->loads);
		free(f);
	}
	free(t->files);
	free(t->bin_id);
	free(t->bin_id_len);
	free(t->bin_id_read);
	memset(t, 0, sizeof(*t));
}

/* The build-id of the ELF file at path: its length, 0 without one. */
static size_t file_build_id(const char *path, uint8_t *id, size_t max)
{
	int fd = open(path, O_RDONLY);
	const void *p = NULL;
	ssize_t n = 0;
	Elf *elf;

	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		n = libdw_load()->elf_gnu_build_id(elf, &p);
	if (n > 0) {
		if ((size_t)n > max)
			n = (ssize_t)max;
		memcpy(id, p, (size_t)n);
	}
	elf_end(elf);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

/* Whether the file at path may be object ob's: the same build-id, or
 * either side has none to say. */
static bool fits(const struct perf_object *ob, const char *path)
{
	uint8_t id[PERF_BUILD_ID_MAX];
	size_t n;

	if (!ob->build_id_len)
		return true;
	n = file_build_id(path, id, sizeof(id));
	return !n || perf_build_id_is(ob, id, n);
}

static bool regular_file(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/*
 * A -b binary for object ob: named by -b OBJECT=FILE, else the one
 * with its build-id, else one of its file name that does not have
 * another build-id (resolve_perf() binds -b binaries the same way).
 */
static const char *binary_for(struct unwind_files *u,
			      const struct perf_object *ob,
			      const char *recorded)
{
	const struct perf_files *pf = u->r->opts->perf_files;
	const char *by_name = NULL;

	if (!pf)
		return NULL;
	for (size_t b = 0; b < pf->nbinaries; b++) {
		const char *want = pf->objects ? pf->objects[b] : NULL;

		if (want) {
			if (!strcmp(want, recorded) ||
			    !strcmp(perf_base_name(want),
				    perf_base_name(recorded)))
				return pf->binaries[b];
			continue;
		}
		if (!u->bin_id_read[b]) {
			u->bin_id_len[b] = file_build_id(pf->binaries[b],
							 u->bin_id[b],
							 PERF_BUILD_ID_MAX);
			u->bin_id_read[b] = true;
		}
		if (perf_build_id_is(ob, u->bin_id[b], u->bin_id_len[b]))
			return pf->binaries[b];
		if (!by_name && !strcmp(perf_base_name(pf->binaries[b]),
					perf_base_name(recorded)) &&
		    (!ob->build_id_len || !u->bin_id_len[b]))
			by_name = pf->binaries[b];
	}
	return by_name;
}

/* The file at path opened into f, with its PT_LOAD segments: false if
 * it is not an ELF file with some. */
static bool open_file(struct ufile *f, const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t phnum;
	GElf_Ehdr eh;
	Elf *elf;

	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getphdrnum(elf, &phnum))
		goto fail;
	f->e_type = eh.e_type;
	f->nloads = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		f->loads = xreallocarray(f->loads, f->nloads + 1,
					 sizeof(*f->loads));
		f->loads[f->nloads++] = ph;
	}
	if (!f->nloads)
		goto fail;
	f->fd = fd;
	f->elf = elf;
	f->path = xstrdup(path);
	return true;
fail:
	elf_end(elf);
	close(fd);
	return false;
}

const struct ufile *unwind_file(struct unwind_files *u, uint32_t i)
{
	const struct perf_files *pf = u->r->opts->perf_files;
	const struct perf_object *ob = &u->r->d->objects[i];
	const char *recorded;
	struct ufile *f;
	char (*paths)[PERF_PATH_MAX];
	const char *bin;
	size_t n;

	if (i >= u->nfiles) {
		size_t old = u->nfiles;

		ARRAY_GROW(u->files, (size_t)i + 1, u->nfiles);
		memset(u->files + old, 0, (u->nfiles - old) * sizeof(*u->files));
	}
	if (!u->files[i])
		u->files[i] = xcalloc(1, sizeof(**u->files));
	f = u->files[i];
	if (f->looked)
		return f->path ? f : NULL;
	f->looked = true;
	f->u = u->u;
	f->table = u;
	f->object = i;
	if (ob->kind != PERF_OBJ_FILE)
		return NULL;
	recorded = names_str(&u->r->p->names, ob->path);
	bin = binary_for(u, ob, recorded);
	if (bin && open_file(f, bin))
		return f;
	paths = xmalloc(PERF_OBJECT_PATHS * sizeof(*paths));
	n = perf_object_paths(ob, recorded, pf ? pf->sysroot : NULL,
			      pf ? pf->debug_dir : NULL, paths);
	for (size_t c = 0; c < n && !f->path; c++)
		if (regular_file(paths[c]) && fits(ob, paths[c]))
			open_file(f, paths[c]);
	free(paths);
	return f->path ? f : NULL;
}

/* Whether the ELF file elf has a section of that name. */
static bool has_section(Elf *elf, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want) && sh.sh_type != SHT_NOBITS)
			return true;
	}
	return false;
}

/*
 * Object f's separate debug file, looked up once, by build-id where
 * libdwfl and perf look (under --debug-dir, then /usr/lib/debug, as the
 * symbols' debug files are (debug_dirs()), and in perf's cache, ~/.debug;
 * under --sysroot, as for the objects), and
 * kept only if it has a .debug_frame:
 * that is all the unwinder takes from it, for code its .eh_frame does
 * not describe (code built without unwind tables), and a debug file
 * without one is not opened again for each process as libdwfl would
 * (it decompresses the file's DWARF to find none).
 */
Elf *unwind_file_debug(struct ufile *f)
{
	const struct unwind_files *u = f->table;
	const struct perf_files *pf = u->r->opts->perf_files;
	const struct perf_object *ob = &u->r->d->objects[f->object];
	const char *home = getenv("HOME");
	const char *root = pf && pf->sysroot ? pf->sysroot : "";
	char hex[2 * PERF_BUILD_ID_MAX + 1];
	char path[DEBUG_DIRS_MAX + 1][PERF_PATH_MAX];
	const char *dirs[DEBUG_DIRS_MAX];
	uint8_t id[PERF_BUILD_ID_MAX];
	size_t n = ob->build_id_len, np;

	if (f->debug_looked)
		return f->debug_elf;
	f->debug_looked = true;
	if (n)
		memcpy(id, ob->build_id, n);
	else
		n = file_build_id(f->path, id, sizeof(id));
	if (n < 2)
		return NULL;
	perf_build_id_hex(id, n, hex);
	np = debug_dirs(pf ? pf->debug_dir : NULL, dirs);
	for (size_t d = 0; d < np; d++)
		snprintf(path[d], sizeof(path[d]), "%s%s/.build-id/%.2s/%s.debug",
			 root, dirs[d], hex, hex + 2);
	if (home)
		snprintf(path[np++], sizeof(path[0]),
			 "%s%s/.debug/.build-id/%.2s/%s/debug", root, home,
			 hex, hex + 2);
	for (size_t c = 0; c < np; c++) {
		int fd;
		Elf *elf;

		if (!regular_file(path[c]) || !fits(ob, path[c]))
			continue;
		fd = open(path[c], O_RDONLY);
		if (fd < 0)
			continue;
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (elf && elf_kind(elf) == ELF_K_ELF &&
		    has_section(elf, ".debug_frame")) {
			f->debug_path = xstrdup(path[c]);
			f->debug_fd = fd;
			f->debug_elf = elf;
			break;
		}
		elf_end(elf);
		close(fd);
	}
	return f->debug_elf;
}

bool unwind_file_place(const struct ufile *f, const struct perf_map *map,
		       struct umod *m)
{
	const GElf_Phdr *first = &f->loads[0], *last = &f->loads[f->nloads - 1];
	uint64_t align = first->p_align ? first->p_align : 1;

	m->bias = 0;
	if (f->e_type != ET_EXEC) {
		size_t i;

		for (i = 0; i < f->nloads; i++) {
			const GElf_Phdr *ph = &f->loads[i];
			uint64_t page = ph->p_align ? ph->p_align : 1;
			uint64_t from = ph->p_offset & ~(page - 1);

			if (map->pgoff >= from &&
			    map->pgoff < ph->p_offset + ph->p_filesz)
				break;
		}
		if (i == f->nloads)
			return false;
		m->bias = map->start - (f->loads[i].p_vaddr -
					f->loads[i].p_offset + map->pgoff);
	}
	m->lo = m->bias + (first->p_vaddr & ~(align - 1));
	m->hi = m->bias + last->p_vaddr + last->p_memsz;
	return m->lo < m->hi;
}

