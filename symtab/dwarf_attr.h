/*
 * Attribute values of a DIE through libdwarf, each error given back to
 * libdwarf (dwarf_attr.c): the readers of dwarf.c, for a unit of the
 * binary or a split unit of a .dwo (dbg is the file's).
 */
#ifndef CGA_DWARF_ATTR_H
#define CGA_DWARF_ATTR_H

#include <stdbool.h>
#include <libdwarf.h>

/* The unsigned value of attr; false when it has no integer form. */
bool attr_udata(Dwarf_Debug dbg, Dwarf_Attribute attr, Dwarf_Unsigned *v);

/* The unsigned value of attribute at of die; false when absent or of no
 * integer form. */
bool die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
	       Dwarf_Unsigned *val);

/* A section offset (DW_FORM_sec_offset, which dwarf_formudata() does
 * not read, or a constant) of die; false when absent. */
bool die_offset(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		Dwarf_Unsigned *val);

/* The string value of attribute at of die, or NULL; it lives as long as
 * dbg. */
const char *die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at);

/* The attributes of die (freed with attrs_free()), or false (n 0) when
 * it has none. */
bool die_attrs(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Attribute **attrs,
	       Dwarf_Signed *n);
void attrs_free(Dwarf_Debug dbg, Dwarf_Attribute *attrs, Dwarf_Signed n);

/* The attribute's number (DW_AT_*), 0 when libdwarf cannot say. */
Dwarf_Half attr_number(Dwarf_Debug dbg, Dwarf_Attribute attr);

/* Whether names of the DW_AT_language lang are not mangled (bfd's
 * mangle_style() == 0), so addr2line takes DW_AT_name as the linkage
 * name. */
bool lang_is_c_like(Dwarf_Unsigned lang);

#endif
