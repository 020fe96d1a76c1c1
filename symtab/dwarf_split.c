/*
 * -gsplit-dwarf: where the split unit of a skeleton unit is, the way
 * gdb and llvm-symbolizer look for it:
 *
 *   <DW_AT_comp_dir>/<DW_AT_dwo_name>    (DW_AT_GNU_dwo_name in DWARF 4)
 *   <binary's dir>/<DW_AT_dwo_name>      the build tree moved with it
 *   <binary's dir>/<base name>           the .dwo copied next to it
 *   <binary>.dwp                         dwp / llvm-dwp's package, by id
 *
 * A unit is used only when its dwo id is the skeleton's: a .dwo left
 * from another build would give wrong names and frames.
 *
 * libdwarf reads the split unit's DIEs; their addresses and range lists,
 * which index the binary's .debug_addr, are read by split_ranges.c (the
 * split file is not "tied" to the binary with dwarf_set_tied_dbg():
 * libdwarf 20210528 reads no DW_FORM_rnglistx nor a .dwp unit's
 * addresses through it). Every file goes through dwarf_precheck() first,
 * like the binary.
 */
#include <dwarf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/xalloc.h"
#include "dwarf_split.h"
#include "symtab_int.h"

void dwarf_split_init(struct dwarf_split *sp, const char *path,
		      const char *prog)
{
	const char *slash = strrchr(prog, '/');

	memset(sp, 0, sizeof(*sp));
	sp->path = path;
	sp->prog = prog;
	if (!slash)
		sp->bin_dir = xstrdup(".");
	else if (slash == prog)
		sp->bin_dir = xstrdup("/");
	else
		sp->bin_dir = xstrndup(prog, (size_t)(slash - prog));
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *s = xmalloc(len);

	snprintf(s, len, "%s/%s", dir, name);
	return s;
}

static void sig_hex(const Dwarf_Sig8 *s, char out[17])
{
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x",
			 (unsigned char)s->signature[i]);
}

bool dwarf_split_unit_id(Dwarf_Debug dbg, Dwarf_Die cu_die, Dwarf_Half type,
			 const Dwarf_Sig8 *sig, Dwarf_Sig8 *id)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	bool ok = false;
	int ret;

	if (type == DW_UT_skeleton || type == DW_UT_split_compile) {
		*id = *sig;
		return true;
	}
	ret = dwarf_attr(cu_die, DW_AT_GNU_dwo_id, &attr, &err);
	if (ret != DW_DLV_OK) {
		if (ret == DW_DLV_ERROR)
			dwarf_dealloc_error(dbg, err);
		return false;
	}
	if (dwarf_formsig8_const(attr, id, &err) == DW_DLV_OK)
		ok = true;
	else if (err)
		dwarf_dealloc_error(dbg, err);
	dwarf_dealloc_attribute(attr);
	return ok;
}

/* Whether the file has section name with bytes in it. */
static bool has_bytes(struct elf_file *ef, const char *name)
{
	const unsigned char *data;
	size_t size;

	return elf_section_bytes(ef, name, &data, &size) && size > 0;
}

/* libdwarf on the ELF file at path; false after a warning when it
 * cannot be read. */
static bool open_split(struct dwarf_split *sp, const char *path,
		       struct elf_file **ef, Dwarf_Debug *dbg)
{
	Dwarf_Error err = NULL;
	const char *missing;
	int ret, copy;

	if (elf_file_open(ef, path) < 0)
		return false;
	if (dwarf_precheck(*ef) < 0)
		goto fail;
	/* a .dwp without abbreviations made libdwarf 20210528 read its
	 * units from a null pointer in dwarf_die_from_hash_signature()
	 * (tests/fuzz/regress/dwp-no-abbrev); a split file has both */
	missing = !has_bytes(*ef, ".debug_info.dwo") ? ".debug_info.dwo"
		  : !has_bytes(*ef, ".debug_abbrev.dwo") ? ".debug_abbrev.dwo"
							 : NULL;
	if (missing) {
		if (!sp->unreadable++)
			warning("%s: cannot read DWARF of the split units of "
				"'%s': it has no %s", path, sp->path, missing);
		goto fail;
	}
	ret = dwarf_init_b(elf_fd(*ef), DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL,
			   NULL, dbg, &err);
	/* g++ -fdebug-types-section: a section per type unit (dwo_types.c) */
	if (ret == DW_DLV_ERROR && err &&
	    dwarf_errno(err) == DW_DLE_SECTION_DUPLICATION &&
	    dwo_types_copy(elf_fd(*ef), path, &copy) > 0) {
		dwarf_dealloc_error(NULL, err);
		err = NULL;
		elf_file_close(*ef);
		*ef = NULL;
		if (elf_file_open_fd(ef, path, copy) < 0)
			goto fail;
		ret = dwarf_init_b(elf_fd(*ef), DW_DLC_READ,
				   DW_GROUPNUMBER_ANY, NULL, NULL, dbg, &err);
	}
	/* one warning: a build's .dwo are all alike */
	if (ret != DW_DLV_OK && !sp->unreadable++) {
		warning("%s: cannot read DWARF of the split units of '%s': %s",
			path, sp->path,
			ret == DW_DLV_NO_ENTRY ? "it has none"
			: err		       ? dwarf_errmsg(err)
					       : "unknown error");
	}
	if (ret != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(NULL, err);
		goto fail;
	}
	return true;
fail:
	elf_file_close(*ef);
	*ef = NULL;
	*dbg = NULL;
	return false;
}

static void close_split(struct elf_file **ef, Dwarf_Debug *dbg)
{
	Dwarf_Error err = NULL;

	if (*dbg)
		dwarf_finish(*dbg, &err);
	if (*ef)
		elf_file_close(*ef);
	*dbg = NULL;
	*ef = NULL;
}

static void refuse(struct dwarf_split *sp, const char *file,
		   const Dwarf_Sig8 *want, const Dwarf_Sig8 *have,
		   const char *why)
{
	char w[17], h[17];

	if (sp->refused++)
		return;
	sig_hex(want, w);
	if (have) {
		sig_hex(have, h);
		warning("%s: its unit has dwo id 0x%s, the skeleton in '%s' "
			"0x%s: another build; not used", file, h, sp->path, w);
	} else {
		warning("%s: %s (the skeleton in '%s' has dwo id 0x%s); not "
			"used", file, why, sp->path, w);
	}
}

/* The split unit of a .dwo: its first unit that is no type unit (DWARF
 * 5 puts those in .debug_info.dwo too), which must carry id. */
static bool dwo_unit(struct dwarf_split *sp, const char *file,
		     const Dwarf_Sig8 *id, Dwarf_Die *die)
{
	Dwarf_Unsigned len, type_off, next;
	Dwarf_Half version, addr_size, off_size, ext_size, type;
	Dwarf_Off abbrev_off;
	Dwarf_Sig8 sig, have;
	Dwarf_Error err = NULL;
	int ret;

	do
		ret = dwarf_next_cu_header_d(sp->dwo, 1, &len, &version,
					     &abbrev_off, &addr_size, &off_size,
					     &ext_size, &sig, &type_off, &next,
					     &type, &err);
	while (ret == DW_DLV_OK &&
	       (type == DW_UT_split_type || type == DW_UT_type));
	if (ret != DW_DLV_OK ||
	    dwarf_siblingof_b(sp->dwo, NULL, 1, die, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(sp->dwo, err);
		refuse(sp, file, id, NULL, "no readable unit");
		return false;
	}
	if (!dwarf_split_unit_id(sp->dwo, *die, type, &sig, &have)) {
		refuse(sp, file, id, NULL, "its unit has no dwo id");
		dwarf_dealloc_die(*die);
		return false;
	}
	if (memcmp(&have, id, sizeof(have))) {
		refuse(sp, file, id, &have, NULL);
		dwarf_dealloc_die(*die);
		return false;
	}
	return true;
}

/* The unit of id in <binary>.dwp, opened on first use. */
static bool dwp_unit(struct dwarf_split *sp, const Dwarf_Sig8 *id,
		     Dwarf_Die *die)
{
	Dwarf_Error err = NULL;
	int ret;

	/* gdb's order: the program's name, then its debug file's */
	for (int i = 0; i < 2 && !sp->dwp_tried; i++) {
		const char *base = i ? sp->path : sp->prog;
		size_t len = strlen(base) + 5;
		char *p;

		if (i && !strcmp(sp->path, sp->prog))
			break;
		p = xmalloc(len);
		snprintf(p, len, "%s.dwp", base);
		if (is_file(p))
			open_split(sp, p, &sp->dwp_ef, &sp->dwp);
		free(p);
		if (sp->dwp)
			break;
	}
	sp->dwp_tried = true;
	if (!sp->dwp)
		return false;
	ret = dwarf_die_from_hash_signature(sp->dwp, (Dwarf_Sig8 *)id, "cu",
					    die, &err);
	if (ret == DW_DLV_ERROR)
		dwarf_dealloc_error(sp->dwp, err);
	return ret == DW_DLV_OK;
}

/* The unit's part of the .dwp's .debug_rnglists.dwo (its index entry's
 * DW_SECT_RNGLISTS contribution). */
static void dwp_rnglists(struct dwarf_split *sp, Dwarf_Die die,
			 const unsigned char **p, size_t *len)
{
	Dwarf_Debug_Fission_Per_CU fi;
	Dwarf_Error err = NULL;
	uint64_t off, size;

	memset(&fi, 0, sizeof(fi));
	if (dwarf_get_debugfission_for_die(die, &fi, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(sp->dwp, err);
		*p = NULL;
		return;
	}
	off = fi.pcu_offset[DW_SECT_RNGLISTS];
	size = fi.pcu_size[DW_SECT_RNGLISTS];
	if (!size || off > *len || *len - off < size) {
		*p = NULL;
		return;
	}
	*p += off;
	*len = (size_t)size;
}

/* Add path (malloc'd) to the n candidates unless there already: the
 * binary in its build directory is one place, looked at once. */
static size_t cand_add(char **cand, size_t n, char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cand[i], path)) {
			free(path);
			return n;
		}
	cand[n] = path;
	return n + 1;
}

bool dwarf_split_get(struct dwarf_split *sp, const char *dwo_name,
		     const char *comp_dir, const Dwarf_Sig8 *dwo_id,
		     Dwarf_Debug *dbg, Dwarf_Die *die,
		     const unsigned char **rnglists, size_t *rnglists_len)
{
	char *cand[3] = { NULL, NULL, NULL };
	struct stat tried[3];
	size_t ntried = 0;
	const char *base;
	size_t n = 0;
	bool found = false;

	if (dwo_name) {
		base = strrchr(dwo_name, '/');
		base = base ? base + 1 : dwo_name;
		if (dwo_name[0] == '/')
			n = cand_add(cand, n, xstrdup(dwo_name));
		else if (comp_dir)
			n = cand_add(cand, n, join(comp_dir, dwo_name));
		n = cand_add(cand, n, join(sp->bin_dir, dwo_name));
		if (base != dwo_name)
			n = cand_add(cand, n, join(sp->bin_dir, base));
	}
	for (size_t i = 0; i < n && !found; i++) {
		struct stat st;
		bool seen = false;

		/* ./x.dwo and /build/x.dwo: one file, tried once */
		if (stat(cand[i], &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		for (size_t k = 0; k < ntried; k++)
			seen |= tried[k].st_dev == st.st_dev &&
				tried[k].st_ino == st.st_ino;
		if (seen)
			continue;
		tried[ntried++] = st;
		if (!open_split(sp, cand[i], &sp->dwo_ef, &sp->dwo))
			continue;
		found = dwo_unit(sp, cand[i], dwo_id, die);
		if (found) {
			*dbg = sp->dwo;
			if (!elf_section_bytes(sp->dwo_ef,
					       ".debug_rnglists.dwo", rnglists,
					       rnglists_len))
				*rnglists = NULL;
		} else
			close_split(&sp->dwo_ef, &sp->dwo);
	}
	if (!found && dwp_unit(sp, dwo_id, die)) {
		*dbg = sp->dwp;
		found = true;
		if (elf_section_bytes(sp->dwp_ef, ".debug_rnglists.dwo",
				      rnglists, rnglists_len))
			dwp_rnglists(sp, *die, rnglists, rnglists_len);
		else
			*rnglists = NULL;
	}
	if (found && !*rnglists)
		*rnglists_len = 0;
	if (!found && !sp->missing++) {
		size_t len = strlen(sp->prog) + 8;

		for (size_t i = 0; i < n; i++)
			len += strlen(cand[i]) + 2;
		sp->missing_where = xmalloc(len);
		sp->missing_where[0] = '\0';
		for (size_t i = 0; i < n; i++) {
			strcat(sp->missing_where, cand[i]);
			strcat(sp->missing_where, ", ");
		}
		strcat(sp->missing_where, sp->prog);
		strcat(sp->missing_where, ".dwp");
	}
	for (size_t i = 0; i < n; i++)
		free(cand[i]);
	return found;
}

void dwarf_split_put(struct dwarf_split *sp)
{
	close_split(&sp->dwo_ef, &sp->dwo);
}

void dwarf_split_release(struct dwarf_split *sp)
{
	close_split(&sp->dwo_ef, &sp->dwo);
	close_split(&sp->dwp_ef, &sp->dwp);
	if (sp->unreadable > 1)
		warning("%s: %u split files unreadable", sp->path,
			sp->unreadable);
	if (sp->refused > 1)
		warning("%s: %u split units of another build or unreadable, "
			"not used", sp->path, sp->refused);
	if (sp->missing)
		note("%s: %u compilation unit%s split off (-gsplit-dwarf) "
		     "into .dwo or .dwp files not found or not read (the "
		     "first looked for as %s): %s lines are known, %s "
		     "inlined frames are not", sp->path, sp->missing,
		     sp->missing == 1 ? " is" : "s are", sp->missing_where,
		     sp->missing == 1 ? "its" : "their",
		     sp->missing == 1 ? "its" : "their");
	free(sp->missing_where);
	free(sp->bin_dir);
	memset(sp, 0, sizeof(*sp));
}
