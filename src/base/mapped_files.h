/*
 * The files read through a mapping, so that a bus error in one can be
 * told for what it is. A mapped file cut short while it is read (another
 * program truncating or rewriting it) makes the next read of a page past
 * its new end raise SIGBUS, which would end the run with "Bus error" and
 * nothing else. main() catches it (cli/main.c) and names the file from
 * here: the readers note each mapping they read a profile through.
 *
 * A few mappings at once at most (a profile, an added one, the kernel's
 * symbols); one noted beyond that is simply not named. The table is
 * read by the signal handler, and noted into from any thread: a slot
 * is claimed atomically, noted before the mapping is read and
 * forgotten after its last read.
 */
#ifndef CGA_MAPPED_FILES_H
#define CGA_MAPPED_FILES_H

#include <stddef.h>

void mapped_files_note(const void *p, size_t len, const char *path);
void mapped_files_forget(const void *p);

/* The path of the noted mapping holding addr, or NULL; async-signal
 * safe. */
const char *mapped_files_path_at(const void *addr);

#endif
