/*
 * Symbols' names made ahead of the charging (see names_ahead.h).
 */
#include "names_ahead.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"

void names_ahead_init(struct names_ahead *na)
{
	memset(na, 0, sizeof(*na));
	pthread_mutex_init(&na->lock, NULL);
	pthread_cond_init(&na->cond, NULL);
}

void names_ahead_quiet(struct names_ahead *na)
{
	pthread_mutex_lock(&na->lock);
	na->quiet = true;
	pthread_cond_broadcast(&na->cond);
	pthread_mutex_unlock(&na->lock);
}

void names_ahead_wait(struct names_ahead *na)
{
	pthread_mutex_lock(&na->lock);
	while (!na->quiet)
		pthread_cond_wait(&na->cond, &na->lock);
	pthread_mutex_unlock(&na->lock);
}

void names_ahead_claim(struct names_ahead *na, unsigned t,
		       const struct symtab *st, const struct sym *s,
		       const struct names *shared)
{
	char *text;

	/* read atomically: another thread may be claiming it */
	if (__atomic_load_n(&s->names_later, __ATOMIC_RELAXED) != 1 ||
	    st->names == shared || !symtab_name_claim(st, s, &text))
		return;
	ARRAY_GROW(na->claimed[t], na->n[t] + 1, na->alloc[t]);
	na->claimed[t][na->n[t]++] = (struct claimed_name){ st, s, text };
}

void names_ahead_put(struct names_ahead *na)
{
	for (unsigned t = 0; t < NAMES_AHEAD_THREADS; t++) {
		for (size_t i = 0; i < na->n[t]; i++)
			symtab_name_put(na->claimed[t][i].st,
					na->claimed[t][i].s,
					na->claimed[t][i].text);
		na->n[t] = 0;
	}
}

void names_ahead_release(struct names_ahead *na)
{
	for (unsigned t = 0; t < NAMES_AHEAD_THREADS; t++) {
		for (size_t i = 0; i < na->n[t]; i++)
			free(na->claimed[t][i].text);
		free(na->claimed[t]);
	}
	pthread_cond_destroy(&na->cond);
	pthread_mutex_destroy(&na->lock);
	memset(na, 0, sizeof(*na));
}
