/*
 * Numbers as text, for the listings: the same characters printf writes,
 * without printf. The flat profile and call graph of an 11,000-function
 * profile print about 600,000 numbers; through printf, formatting them
 * took more time than reading the profile (glibc's %f divides the
 * exact binary value in multi-precision arithmetic every time).
 */
#ifndef CGA_FMT_H
#define CGA_FMT_H

#include <stdbool.h>
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

/*
 * buf[0..len), a number as the two above write it, with the digits of
 * its whole part grouped in threes by commas, in place: "8800280.5"
 * becomes "8,800,280.5", as callgrind_annotate prints counts. buf has
 * room for FMT_NUM_MAX bytes. Returns the new length.
 */
size_t fmt_group(char *buf, size_t len);

/* fmt_fixed(buf, v, decimals), grouped when `groups` */
size_t fmt_number(char *buf, double v, int decimals, bool groups);

/* A figure per call: two decimals, or none when they would be ".00"
 * ("8", "23.08"); grouped when `groups`. */
size_t fmt_per_call(char *buf, double v, bool groups);

/* A function's calls as the listings show them: "calls", "calls+N"
 * with N recursive calls, nothing when both are 0; grouped when
 * `groups`. buf has room for 2 * FMT_NUM_MAX; returns the length. */
size_t fmt_calls(char *buf, uint64_t calls, uint64_t recursive, bool groups);

/* v as "%llu", grouped when `groups`, NUL-terminated in buf (room for
 * FMT_NUM_MAX); returns buf, for printf's "%s". */
const char *fmt_count(char *buf, uint64_t v, bool groups);

#endif
