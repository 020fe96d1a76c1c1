/* The run's messages kept as well as printed (diag_keep.h) */
#include "diag_keep.h"

#include <stdlib.h>

#include "diag.h"
#include "xalloc.h"

void diag_keep_begin(struct diag_keep *k)
{
	k->text = NULL;
	k->len = 0;
	k->f = open_memstream(&k->text, &k->len);
	if (k->f)
		diag_set_sink(k->f);
}

char *diag_keep_copy(struct diag_keep *k)
{
	return k->f && fflush(k->f) == 0 ? xstrdup(k->text) : NULL;
}

void diag_keep_end(struct diag_keep *k)
{
	if (!k->f)
		return;
	diag_set_sink(NULL);
	fclose(k->f);
	k->f = NULL;
	fputs(k->text, stderr);
	free(k->text);
	k->text = NULL;
}
