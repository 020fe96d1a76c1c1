/*
 * The files the --call-graph dwarf unwinder (perf_unwind.c) places
 * each object's code with: found once for the run (a -b binary for it,
 * else the recorded file, checked by build-id, under --sysroot and the
 * debug directories), with its separate debug file when that has a
 * .debug_frame, and where a mapping puts it in a process.
 */
#ifndef CGA_READ_PERF_UNWIND_FILES_H
#define CGA_READ_PERF_UNWIND_FILES_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf_ehcfi.h"
#include "perf_fde.h"
#include "perf_maps.h"
#include "perf_reader.h"

struct perf_unwind;
struct unwind_files;

/* An object's file, as far as placing it in a process goes. */
struct ufile {
	bool looked;		/* searched for */
	char *path;		/* NULL: no file to unwind with */
	int fd;
	Elf *elf;		/* open for the run; modules share it */
	uint16_t e_type;
	GElf_Phdr *loads;	/* its PT_LOAD segments */
	size_t nloads;
	bool cfi_looked, dcfi_looked;
	Dwarf_CFI *cfi;		/* its .eh_frame, for the cached rows */
	struct perf_ehcfi eh;	/* what cfi is made on, when by its table */
	struct perf_fde fde;	/* cfi's rows read without libdw */
	bool fde_ok;		/* fde can be read */
	Dwarf *dw;		/* its DWARF (own or separate), if any */
	Dwarf_CFI *dcfi;	/* its .debug_frame */

	/* its separate debug file, when that has a .debug_frame */
	bool debug_looked;
	char *debug_path;
	int debug_fd;
	Elf *debug_elf;

	struct perf_unwind *u;	/* for libdwfl's callbacks */
	const struct unwind_files *table;	/* the one it is in */
	uint32_t object;
};

/* A module reported to a process's Dwfl: an object at a load bias. */
struct umod {
	uint32_t object;
	uint64_t bias, lo, hi;	/* [lo, hi): the module's addresses */
};


/* Every object's file, by its perf_data object. */
struct unwind_files {
	struct perf_reader *r;
	struct perf_unwind *u;	/* whose: each ufile's u */
	/* each allocated alone: libdwfl's modules keep pointers to them
	 * (find_elf()), which growing one array of them left dangling */
	struct ufile **files;
	size_t nfiles;
	/* -b binaries' build-ids, read when first needed */
	uint8_t (*bin_id)[PERF_BUILD_ID_MAX];
	size_t *bin_id_len;
	bool *bin_id_read;
};

void unwind_files_init(struct unwind_files *t, struct perf_reader *r,
		       struct perf_unwind *u);
/* Every file closed, with the CFI and DWARF the unwinder made on it
 * (after every Dwfl: they hold references to the files' handles). */
void unwind_files_release(struct unwind_files *t);

/* The file to unwind object i's code with, found once: NULL when
 * there is none. */
const struct ufile *unwind_file(struct unwind_files *t, uint32_t i);

/*
 * Object f's separate debug file, looked up once, kept only if it has
 * a .debug_frame: NULL without one.
 */
Elf *unwind_file_debug(struct ufile *f);

/*
 * Where mapping map puts file f: the load bias (its address minus the
 * link-time address of the file offset it maps), and the module's
 * span as libdwfl takes it (the first PT_LOAD's page to the last's
 * end). False when no segment holds the mapping's offset.
 */
bool unwind_file_place(const struct ufile *f, const struct perf_map *map,
		       struct umod *m);

#endif
