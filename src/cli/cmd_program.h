/* The program a profile's recorded command line ran. */
#ifndef CGA_CMD_PROGRAM_H
#define CGA_CMD_PROGRAM_H

#include <stddef.h>

/*
 * The program word of command line cmd (words split at blanks): its
 * first word ("./prog 5" -> "./prog"), or for a perf recording's line
 * ("/usr/bin/perf record -F 499 -g -o x.data ./prog 5") the first word
 * after perf's own options, which every recording's line starts with.
 * Sets *len to the word's length; NULL when there is none (perf record
 * -p PID, -t TID, -u UID, with or without a command that sets how long:
 * processes already running, which the recording's command names (the
 * input's comm) or its symbols tell). A system-wide recording (perf record -a, -C CPUS), whatever
 * command set its length, gives one static string that says so: two
 * such recordings are of one "program", and neither is one program's.
 */
const char *cmd_program(const char *cmd, size_t *len);

#endif
