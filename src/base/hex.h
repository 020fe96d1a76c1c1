#ifndef CGA_HEX_H
#define CGA_HEX_H

/* The value of the hex digit c, or -1: for hex numbers read by hand
 * where strtoull() would be slower or accept too much (kallsyms'
 * addresses, pprof's build ids). */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
