/*
 * -gsplit-dwarf: the split unit of a skeleton unit, found in its .dwo
 * file or in the binary's .dwp package (dwarf_split.c). Only dwarf.c
 * uses it: it speaks libdwarf's types.
 */
#ifndef CGA_DWARF_SPLIT_H
#define CGA_DWARF_SPLIT_H

#include <stdbool.h>
#include <stdint.h>
#include <libdwarf.h>

struct elf_file;

struct dwarf_split {
	const char *path;	/* the file read, named in messages */
	const char *prog;	/* the program: path, or the binary whose
				 * separate debug file path is */
	char *bin_dir;		/* prog's directory, "." when it has none */
	struct elf_file *dwp_ef;	/* <binary>.dwp, once opened */
	Dwarf_Debug dwp;
	bool dwp_tried;
	struct elf_file *dwo_ef;	/* the .dwo in use, until put */
	Dwarf_Debug dwo;
	unsigned missing;	/* skeletons whose split unit was not found */
	char *missing_where;	/* where the first of them was looked for */
	unsigned refused;	/* found but of another build, or corrupt */
	unsigned unreadable;	/* files libdwarf cannot open */
};

void dwarf_split_init(struct dwarf_split *sp, const char *path,
		      const char *prog);

/*
 * The split unit of the skeleton whose DW_AT_dwo_name is dwo_name
 * (may be NULL), DW_AT_comp_dir comp_dir (may be NULL) and dwo id
 * dwo_id: first <comp_dir>/<dwo_name>, then <prog's dir>/<dwo_name>
 * and <prog's dir>/<base name of dwo_name> (a build tree moved), then
 * <prog>.dwp, then <path>.dwp when path is prog's debug file. A unit whose dwo id differs is refused with a warning.
 * Returns true with *dbg, *die and the unit's .debug_rnglists.dwo bytes
 * (*rnglists NULL when it has none) (the caller frees *die; *dbg and the
 * bytes live until dwarf_split_put()), false when none was found
 * (counted for the note dwarf_split_release() prints).
 */
bool dwarf_split_get(struct dwarf_split *sp, const char *dwo_name,
		     const char *comp_dir, const Dwarf_Sig8 *dwo_id,
		     Dwarf_Debug *dbg, Dwarf_Die *die,
		     const unsigned char **rnglists, size_t *rnglists_len);

/*
 * The dwo id of a unit of type type (from its header, whose signature is
 * sig): DWARF 5 skeleton and split units have it there, GCC's DWARF 4
 * ones in DW_AT_GNU_dwo_id. False when it has none: not split.
 */
bool dwarf_split_unit_id(Dwarf_Debug dbg, Dwarf_Die cu_die, Dwarf_Half type,
			 const Dwarf_Sig8 *sig, Dwarf_Sig8 *id);

/* Done with the unit dwarf_split_get() gave: its .dwo is closed. */
void dwarf_split_put(struct dwarf_split *sp);

/* Close the .dwp and say what was missing. */
void dwarf_split_release(struct dwarf_split *sp);

#endif
