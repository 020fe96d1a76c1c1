/*
 * Protocol buffers' wire format (see pbwire.h): a varint is 7 bits a
 * byte, least significant first, the top bit set on every byte but the
 * last; a field's key is the varint (number << 3 | wire type).
 */
#include "pbwire.h"

#include <stdlib.h>
#include <string.h>

#include "array.h"

int pb_varint(const unsigned char **p, const unsigned char *end,
	      uint64_t *v, const char **why)
{
	const unsigned char *s = *p;
	uint64_t x = 0;

	for (unsigned i = 0; i < 10; i++) {
		if (s + i >= end) {
			*why = "truncated varint (the data ends inside it)";
			return -1;
		}
		/* the tenth byte holds bit 63 alone */
		if (i == 9 && s[i] > 1) {
			*why = "varint longer than 64 bits";
			return -1;
		}
		x |= (uint64_t)(s[i] & 0x7f) << (7 * i);
		if (!(s[i] & 0x80)) {
			*v = x;
			*p = s + i + 1;
			return 0;
		}
	}
	*why = "varint longer than 64 bits";
	return -1;
}

int pb_next(struct pb_in *in, struct pb_field *f, const char **why)
{
	const unsigned char *s = in->p;
	uint64_t key;

	if (s >= in->end)
		return 0;
	f->off = (size_t)(s - in->start);
	if (pb_varint(&s, in->end, &key, why) < 0)
		return -1;
	if (key >> 3 == 0 || key >> 3 > UINT32_MAX) {
		*why = "field number 0 or past 2^32 (not protocol buffers)";
		return -1;
	}
	f->num = (uint32_t)(key >> 3);
	f->wire = (enum pb_wire)(key & 7);
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (key & 7) {
	case PB_VARINT:
		if (pb_varint(&s, in->end, &f->v, why) < 0)
			return -1;
		break;
	case PB_I64:
	case PB_I32: {
		size_t n = (key & 7) == PB_I64 ? 8 : 4;

		if ((size_t)(in->end - s) < n) {
			*why = "truncated fixed-size field";
			return -1;
		}
		for (size_t i = n; i-- > 0;)
			f->v = f->v << 8 | s[i];
		s += n;
		break;
	}
	case PB_LEN: {
		uint64_t len;

		if (pb_varint(&s, in->end, &len, why) < 0)
			return -1;
		if (len > (uint64_t)(in->end - s)) {
			*why = "length past the end of the enclosing message";
			return -1;
		}
		f->data = s;
		f->len = (size_t)len;
		s += len;
		break;
	}
	default:
		*why = "group or unknown wire type (not pprof's protocol buffers)";
		return -1;
	}
	in->p = s;
	return 1;
}

void pb_out_release(struct pb_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->len = o->alloc = 0;
}

void pb_put_raw(struct pb_out *o, const void *data, size_t len)
{
	ARRAY_GROW(o->buf, o->len + len, o->alloc);
	if (len)
		memcpy(o->buf + o->len, data, len);
	o->len += len;
}

size_t pb_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void pb_put_varint(struct pb_out *o, uint64_t v)
{
	ARRAY_GROW(o->buf, o->len + 10, o->alloc);
	while (v >= 0x80) {
		o->buf[o->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	o->buf[o->len++] = (unsigned char)v;
}

void pb_put_uint(struct pb_out *o, uint32_t num, uint64_t v)
{
	if (!v)
		return;
	pb_put_varint(o, (uint64_t)num << 3 | PB_VARINT);
	pb_put_varint(o, v);
}

void pb_put_bytes(struct pb_out *o, uint32_t num, const void *data,
		  size_t len)
{
	pb_put_varint(o, (uint64_t)num << 3 | PB_LEN);
	pb_put_varint(o, len);
	pb_put_raw(o, data, len);
}

void pb_put_packed(struct pb_out *o, uint32_t num, const uint64_t *v,
		   size_t n)
{
	size_t len = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		len += pb_varint_size(v[i]);
	pb_put_varint(o, (uint64_t)num << 3 | PB_LEN);
	pb_put_varint(o, len);
	for (size_t i = 0; i < n; i++)
		pb_put_varint(o, v[i]);
}
