/*
 * Run another program with our output as its standard input (Graphviz's
 * dot for --svg): no shell, so arguments with spaces or quotes are
 * passed as they are.
 */
#ifndef CGA_PIPE_TO_H
#define CGA_PIPE_TO_H

#include <stdio.h>

/*
 * Start argv[0] (looked up in PATH) with argv, call emit(in, arg) to
 * write its standard input, close it and wait for the program. Returns
 * 0 when it exited with status 0, else -1 after reporting, `place`
 * (what it was run for) first: it could not be started (`hint` follows
 * the message when it is not installed), it exited with another
 * status, or a signal ended it.
 */
int pipe_to(const char *place, const char *const argv[], const char *hint,
	    void (*emit)(FILE *in, const void *arg), const void *arg);

#endif
