/*
 * Attribute values of a DIE through libdwarf (see dwarf_attr.h).
 */
#include <dwarf.h>
#include <libdwarf.h>
#include <stddef.h>

#include "dwarf_attr.h"

bool attr_udata(Dwarf_Debug dbg, Dwarf_Attribute attr, Dwarf_Unsigned *v)
{
	Dwarf_Error err = NULL;
	Dwarf_Signed sv;

	if (dwarf_formudata(attr, v, &err) == DW_DLV_OK)
		return true;
	if (err)
		dwarf_dealloc_error(dbg, err);
	err = NULL;
	/* DW_FORM_implicit_const and sdata */
	if (dwarf_formsdata(attr, &sv, &err) == DW_DLV_OK && sv >= 0) {
		*v = (Dwarf_Unsigned)sv;
		return true;
	}
	if (err)
		dwarf_dealloc_error(dbg, err);
	return false;
}

bool die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
	       Dwarf_Unsigned *val)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	bool ok;
	int ret = dwarf_attr(die, at, &attr, &err);

	if (ret != DW_DLV_OK) {
		if (ret == DW_DLV_ERROR)
			dwarf_dealloc_error(dbg, err);
		return false;
	}
	ok = attr_udata(dbg, attr, val);
	dwarf_dealloc_attribute(attr);
	return ok;
}

bool die_offset(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		Dwarf_Unsigned *val)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	bool ok;
	int ret = dwarf_attr(die, at, &attr, &err);

	if (ret != DW_DLV_OK) {
		if (ret == DW_DLV_ERROR)
			dwarf_dealloc_error(dbg, err);
		return false;
	}
	ok = dwarf_global_formref(attr, &off, &err) == DW_DLV_OK;
	if (ok)
		*val = off;
	else {
		if (err)
			dwarf_dealloc_error(dbg, err);
		ok = attr_udata(dbg, attr, val);
	}
	dwarf_dealloc_attribute(attr);
	return ok;
}

const char *die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Attribute attr;
	Dwarf_Error err = NULL;
	char *s = NULL;
	int ret = dwarf_attr(die, at, &attr, &err);

	if (ret != DW_DLV_OK) {
		if (ret == DW_DLV_ERROR)
			dwarf_dealloc_error(dbg, err);
		return NULL;
	}
	if (dwarf_formstring(attr, &s, &err) != DW_DLV_OK) {
		if (err)
			dwarf_dealloc_error(dbg, err);
		s = NULL;
	}
	dwarf_dealloc_attribute(attr);
	return s;
}

bool die_attrs(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Attribute **attrs,
	       Dwarf_Signed *n)
{
	Dwarf_Error err = NULL;
	int ret = dwarf_attrlist(die, attrs, n, &err);

	if (ret == DW_DLV_OK)
		return true;
	if (ret == DW_DLV_ERROR)
		dwarf_dealloc_error(dbg, err);
	*n = 0;
	return false;
}

void attrs_free(Dwarf_Debug dbg, Dwarf_Attribute *attrs, Dwarf_Signed n)
{
	for (Dwarf_Signed i = 0; i < n; i++)
		dwarf_dealloc_attribute(attrs[i]);
	dwarf_dealloc(dbg, attrs, DW_DLA_LIST);
}

Dwarf_Half attr_number(Dwarf_Debug dbg, Dwarf_Attribute attr)
{
	Dwarf_Error err = NULL;
	Dwarf_Half at;

	if (dwarf_whatattr(attr, &at, &err) == DW_DLV_OK)
		return at;
	dwarf_dealloc_error(dbg, err);
	return 0;
}

/* bfd's mangle_style() == 0: names of these languages are not mangled,
 * so addr2line takes DW_AT_name as the linkage name. */
bool lang_is_c_like(Dwarf_Unsigned lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_PLI:
	case DW_LANG_C99:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
	case 0x8765:		/* DW_LANG_Upc */
	case 0x8004:		/* DW_LANG_HP_Basic91 */
	case 0x8006:		/* DW_LANG_HP_IMacro */
	case 0x8007:		/* DW_LANG_HP_Assembler */
		return true;
	default:
		return false;
	}
}
