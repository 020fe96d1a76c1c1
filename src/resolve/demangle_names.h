/*
 * A profile's mangled function names made readable, for the formats that
 * record them mangled (IgProf: igprof names a frame by dladdr()'s
 * symbol, "_ZN6sample11make_pointsEi"), as the names the other inputs
 * get are (valgrind demangles; -b's symbols are demangled).
 */
#ifndef CGA_DEMANGLE_NAMES_H
#define CGA_DEMANGLE_NAMES_H

#include <stdint.h>

#include "profile/profile.h"

/*
 * Rename every function whose name is mangled (Itanium C++ or Rust v0)
 * to its demangled form. Functions that then share their name, file and
 * object (a constructor's C1 and C2 symbols) are merged, as -b's
 * resolution merges them. Returns how many were renamed.
 */
uint32_t demangle_names(struct profile *p);

#endif
