/*
 * The run's messages kept as well as printed: the HTML report shows
 * them, and stderr still gets every one, at the end of the run.
 */
#ifndef CGA_DIAG_KEEP_H
#define CGA_DIAG_KEEP_H

#include <stddef.h>
#include <stdio.h>

struct diag_keep {
	FILE *f;	/* the messages' sink while kept; NULL: not kept */
	char *text;
	size_t len;
};

/* From now on the messages go to k (where memory allows: else they go
 * to stderr at once, as before). */
void diag_keep_begin(struct diag_keep *k);
/* A copy of the messages kept so far, or NULL where none could be kept */
char *diag_keep_copy(struct diag_keep *k);
/* The messages back to stderr, and the kept ones printed there */
void diag_keep_end(struct diag_keep *k);

#endif
