/* What a user who typed an unknown long option most likely meant. */
#ifndef CGA_OPTION_GUESS_H
#define CGA_OPTION_GUESS_H

#include <getopt.h>
#include <stddef.h>

/*
 * For arg ("--tresh=1"), not an option of opts (getopt_long's table,
 * ending in a zeroed entry): write into buf (size bytes, always
 * terminated) the options it begins when it begins more than one
 * ("is ambiguous: --threshold, --threads"), else the one option within
 * two edits of it, when one is nearer than every other ("did you mean
 * '--threshold'?"). Returns buf, or NULL (buf empty) when nothing fits.
 */
const char *option_guess(const struct option *opts, const char *arg,
			 char *buf, size_t size);

#endif
