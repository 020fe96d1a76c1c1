/*
 * Numbers as text, for the listings: the same characters printf writes,
 * without printf. The flat profile and call graph of an 11,000-function
 * profile print about 600,000 numbers; through printf, formatting them
 * took more time than reading the profile (glibc's %f divides the
 * exact binary value in multi-precision arithmetic every time).
 */
#ifndef CGA_FMT_H
#define CGA_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any number these write, "\0" included: %.3f of DBL_MAX. */
#define FMT_NUM_MAX 320

/* v in decimal, as "%llu"; returns its length (buf gets no "\0"). */
size_t fmt_u64(char *buf, uint64_t v);

/*
 * Exactly what snprintf(buf, FMT_NUM_MAX, "%.*f", decimals, v) writes
 * (0 <= decimals <= 3): the exact binary value of v rounded to nearest,
 * a tie to even, as glibc does (0.125 -> "0.12", 0.375 -> "0.38"),
 * "-0.00" for -0.0. Returns its length (buf gets no "\0").
 */
size_t fmt_fixed(char *buf, double v, int decimals);

#endif
