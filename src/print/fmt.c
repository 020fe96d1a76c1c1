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
	size_t start = buf[0] == '-' || buf[0] == '+', end = start, commas;

	while (end < len && buf[end] >= '0' && buf[end] <= '9')
		end++;
	commas = end - start > 3 ? (end - start - 1) / 3 : 0;
	if (!commas || len + commas > FMT_NUM_MAX)
		return len;
	/* from the right: the tail, then each digit, a comma after every
	 * third counted from the end of the whole part */
	memmove(buf + end + commas, buf + end, len - end);
	for (size_t i = end, o = end + commas, k = 0; i > start; k++) {
		if (k && k % 3 == 0)
			buf[--o] = ',';
		buf[--o] = buf[--i];
	}
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

const char *fmt_count(char *buf, uint64_t v, bool groups)
{
	size_t n = fmt_u64(buf, v);

	if (groups)
		n = fmt_group(buf, n);
	buf[n] = '\0';
	return buf;
}
