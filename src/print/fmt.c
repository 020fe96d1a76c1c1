/*
 * Numbers as text without printf (see fmt.h).
 */
#include "fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t fmt_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

static const uint64_t scale_of[] = { 1, 10, 100, 1000 };

/*
 * v * 10^decimals rounded as printf rounds, into *out: false when it
 * does not fit in 64 bits. v = m * 2^e exactly, m an integer of at most
 * 53 bits, so x = m * 10^decimals (under 2^63) times 2^e is the exact
 * scaled value, and the bits shifted out are its exact fraction.
 */
static int scaled_round(double v, uint64_t scale, uint64_t *out)
{
	int e;
	double f = frexp(v, &e);
	uint64_t x = (uint64_t)ldexp(f, 53) * scale, rem, half;
	int sh;

	e -= 53;
	if (e >= 0) {
		if (e >= 63 || x > UINT64_MAX >> e)
			return 0;
		*out = x << e;
		return 1;
	}
	sh = -e;
	if (sh >= 64) {
		/* x < 2^63 <= 2^(sh - 1): under half of one */
		*out = 0;
		return 1;
	}
	rem = x & (((uint64_t)1 << sh) - 1);
	half = (uint64_t)1 << (sh - 1);
	*out = x >> sh;
	if (rem > half || (rem == half && (*out & 1)))
		(*out)++;
	return 1;
}

size_t fmt_fixed(char *buf, double v, int decimals)
{
	uint64_t scale, n, frac;
	size_t len = 0;

	if (decimals < 0 || decimals > 3 || !isfinite(v))
		goto slow;
	scale = scale_of[decimals];
	n = 0;
	if (v != 0 && !scaled_round(fabs(v), scale, &n))
		goto slow;
	if (signbit(v))
		buf[len++] = '-';
	len += fmt_u64(buf + len, n / scale);
	if (decimals) {
		buf[len++] = '.';
		frac = n % scale;
		for (int i = decimals - 1; i >= 0; i--) {
			buf[len + (size_t)i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		len += (size_t)decimals;
	}
	return len;
slow:
	/* past 2^64 after scaling, or not a number: printf's own */
	{
		char tmp[FMT_NUM_MAX];
		int r = snprintf(tmp, sizeof(tmp), "%.*f",
				 decimals < 0 ? 0 : decimals, v);

		if (r < 0)
			r = 0;
		if ((size_t)r >= sizeof(tmp))
			r = (int)sizeof(tmp) - 1;
		memcpy(buf, tmp, (size_t)r);
		return (size_t)r;
	}
}

size_t fmt_group(char *buf, size_t len)
{
	size_t start = buf[0] == '-' || buf[0] == '+', end = start, nd, commas;
	size_t first, o;
	char tmp[FMT_NUM_MAX];

	while (end < len && buf[end] >= '0' && buf[end] <= '9')
		end++;
	nd = end - start;
	if (nd <= 3)
		return len;
	commas = (nd - 1) / 3;
	if (len + commas > FMT_NUM_MAX)
		return len;
	/* the digits in groups, in tmp: the first group of 1 to 3, then
	 * ",ddd" for each other; the decimals move right to make room */
	first = nd - commas * 3;
	memcpy(tmp, buf + start, first);
	o = first;
	for (size_t i = start + first; i < end; i += 3) {
		tmp[o] = ',';
		memcpy(tmp + o + 1, buf + i, 3);
		o += 4;
	}
	memmove(buf + start + o, buf + end, len - end);
	memcpy(buf + start, tmp, o);
	return len + commas;
}

size_t fmt_number(char *buf, double v, int decimals, bool groups)
{
	size_t n = fmt_fixed(buf, v, decimals);

	return groups ? fmt_group(buf, n) : n;
}

size_t fmt_per_call(char *buf, double v, bool groups)
{
	size_t n = fmt_fixed(buf, v, 2);

	if (n > 3 && !memcmp(buf + n - 3, ".00", 3))
		n -= 3;
	return groups ? fmt_group(buf, n) : n;
}

/* v in decimal with a comma before each group of three, built from
 * the right: cheaper than fmt_u64 then fmt_group, for the counts */
static size_t u64_grouped(char *buf, uint64_t v)
{
	char tmp[32];
	size_t n = 0;
	unsigned k = 0;

	do {
		if (k == 3) {
			tmp[n++] = ',';
			k = 0;
		}
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
		k++;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

const char *fmt_count(char *buf, uint64_t v, bool groups)
{
	size_t n = groups ? u64_grouped(buf, v) : fmt_u64(buf, v);

	buf[n] = '\0';
	return buf;
}

size_t fmt_calls(char *buf, uint64_t calls, uint64_t recursive, bool groups)
{
	size_t n = 0;

	if (calls || recursive)
		n = strlen(fmt_count(buf, calls, groups));
	if (recursive) {
		buf[n++] = '+';
		n += strlen(fmt_count(buf + n, recursive, groups));
	}
	return n;
}
