/* util.h: small helpers that are inlined into their callers at -O2. */
#ifndef UTIL_H
#define UTIL_H

static inline unsigned mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 16777619u;
	return h;
}

/* An inline helper that calls another: a two-deep inline chain. */
static inline unsigned mix_pair(unsigned h, unsigned a, unsigned b)
{
	h = mix(h, a);
	h = mix(h, b);
	return h;
}

#endif
