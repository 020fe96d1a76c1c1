/*
 * --sum: gmon.out data written as a file gprof reads.
 */
#ifndef CGA_WRITE_GMON_H
#define CGA_WRITE_GMON_H

#include "profile/gmon_data.h"

/*
 * Write the data as one GNU gmon.out to path (gprof -s). Counts that do
 * not fit the format (a bin over 65535, an arc count over 2^32 - 1) are
 * written at the largest value it holds, with a warning. Returns 0, or
 * -1 after reporting.
 */
int gmon_write(const struct gmon_data *g, const char *path);

#endif
