/*
 * The arcs' inclusive costs packed into 4 bytes a number once the
 * profile is read (see profile.h), and while the Callgrind reader adds
 * to them: other readers add in 8 bytes (profile_call_incl() unpacks),
 * the analysis and the listings only read them. On a big program's profile
 * (2.4 million arcs) that is 9.6 MB less through the analysis, where
 * the call graph's own arrays are built on top of the profile.
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "profile.h"

/* v in 4 bytes: itself, or PCALL_BIG | its index in big_incl[]. */
static uint32_t pack(struct profile *p, uint64_t v)
{
	if (v < PCALL_BIG)
		return (uint32_t)v;
	if (p->nbig_incl >= PCALL_BIG)
		BUG("%zu inclusive costs of 2^31 or more", p->nbig_incl);
	ARRAY_GROW(p->big_incl, p->nbig_incl + 1, p->big_incl_alloc);
	p->big_incl[p->nbig_incl] = v;
	return PCALL_BIG | (uint32_t)p->nbig_incl++;
}

void profile_pack_incl(struct profile *p)
{
	size_t n = p->ncalls * p->stride;
	uint32_t *out;

	if (p->incl_packed) {
		if (p->incl_packed_alloc > p->ncalls) {
			p->incl_packed = xreallocarray(p->incl_packed,
						       n ? n : 1,
						       sizeof(*p->incl_packed));
			p->incl_packed_alloc = p->ncalls;
		}
		return;
	}
	/*
	 * In place, over the wide numbers: number i is read (at byte 8i)
	 * before it is written (at 4i), and 4i <= 8i, so no number is
	 * written over before it is read; then the rest given back. Never
	 * both arrays at once. memcpy() because the bytes change type.
	 */
	out = (uint32_t *)(void *)p->call_incl;
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		uint32_t w;

		memcpy(&v, (char *)p->call_incl + i * sizeof(v), sizeof(v));
		w = pack(p, v);
		memcpy((char *)out + i * sizeof(w), &w, sizeof(w));
	}
	p->incl_packed = xreallocarray(out, n ? n : 1, sizeof(*out));
	p->incl_packed_alloc = p->ncalls;
	p->call_incl = NULL;
	p->call_incl_alloc = 0;
}

void profile_grow_packed_incl(struct profile *p, size_t ncalls)
{
	size_t old = p->incl_packed_alloc, rows;

	if (ncalls <= old)
		return;
	rows = array_capacity(old, ncalls,
			      (p->stride ? p->stride : 1) * sizeof(*p->incl_packed));
	p->incl_packed = xreallocarray(p->incl_packed, rows * p->stride + 1,
				       sizeof(*p->incl_packed));
	p->incl_packed_alloc = rows;
}

bool profile_call_incl_add(struct profile *p, uint32_t c, const uint32_t *map,
			   const uint64_t *vals, size_t n)
{
	uint32_t *packed;
	bool over = false;

	if (!p->incl_packed)
		return cost_row_add(p->call_incl + (size_t)c * p->stride, map,
				    vals, n);
	packed = p->incl_packed + (size_t)c * p->stride;
	for (size_t i = 0; i < n; i++) {
		uint32_t *w = &packed[map ? map[i] : i];
		uint64_t sum;

		if (*w & PCALL_BIG) {
			over |= __builtin_add_overflow(p->big_incl[*w & ~PCALL_BIG],
						       vals[i],
						       &p->big_incl[*w & ~PCALL_BIG]);
		} else if (__builtin_add_overflow(*w, vals[i], &sum)) {
			over = true;
		} else {
			*w = pack(p, sum);
		}
	}
	return !over;
}

void profile_unpack_incl(struct profile *p)
{
	size_t n = p->ncalls * p->stride;
	uint64_t *wide;

	if (!p->incl_packed)
		return;
	/* from the end, for the same reason */
	wide = xreallocarray(p->incl_packed, n ? n : 1, sizeof(*wide));
	for (size_t i = n; i-- > 0;) {
		uint32_t v;
		uint64_t w;

		memcpy(&v, (char *)wide + i * sizeof(v), sizeof(v));
		w = v & PCALL_BIG ? p->big_incl[v & ~PCALL_BIG] : v;
		memcpy((char *)wide + i * sizeof(w), &w, sizeof(w));
	}
	p->call_incl = wide;
	p->call_incl_alloc = p->ncalls;
	p->incl_packed = NULL;
	p->incl_packed_alloc = 0;
	free(p->big_incl);
	p->big_incl = NULL;
	p->nbig_incl = p->big_incl_alloc = 0;
}

const uint64_t *profile_call_incl_row(const struct profile *p, uint32_t c,
				      uint64_t *buf)
{
	if (!p->incl_packed)
		return p->call_incl + (size_t)c * p->stride;
	for (size_t e = 0; e < p->stride; e++)
		buf[e] = profile_call_incl_at(p, c, e);
	return buf;
}
