/*
 * Protocol buffers' wire format, the little of it pprof's profile.proto
 * needs: varints, field keys, length-delimited fields (messages,
 * strings, packed numbers), read with every byte bounds-checked and
 * written into a growing buffer. The schema is the caller's: this knows
 * wire types, not messages. libc only, so the reader (read/pprof/) and
 * the writer (print/write_pprof.c) share it.
 */
#ifndef CGA_PBWIRE_H
#define CGA_PBWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pb_wire {
	PB_VARINT = 0,
	PB_I64 = 1,
	PB_LEN = 2,
	PB_I32 = 5,
};

/* A message being read: [p, end) is what is left of it; start is where
 * the whole input starts, for offsets in messages. */
struct pb_in {
	const unsigned char *start, *p, *end;
};

/* One field. A varint's value is v (I64 and I32 too); a length-delimited
 * field's bytes are [data, data + len). off: where its key starts. */
struct pb_field {
	uint32_t num;
	enum pb_wire wire;
	uint64_t v;
	const unsigned char *data;
	size_t len;
	size_t off;
};

/* The message [data, data + len) of the input starting at start. */
static inline struct pb_in pb_sub(const unsigned char *start,
				  const unsigned char *data, size_t len)
{
	struct pb_in in = { start, data, data + len };

	return in;
}

static inline size_t pb_offset(const struct pb_in *in)
{
	return (size_t)(in->p - in->start);
}

/*
 * The varint at *p (at most 10 bytes, not past end): 0 and *p after
 * it, or -1 with *why saying what is wrong (*p unmoved).
 */
int pb_varint(const unsigned char **p, const unsigned char *end,
	      uint64_t *v, const char **why);

/*
 * The next field of the message: 1 with *f, 0 at its end, -1 with *why
 * (a truncated varint, a length past the message's end, field number 0,
 * a group or an unknown wire type) and in->p left at the field's key.
 */
int pb_next(struct pb_in *in, struct pb_field *f, const char **why);

/* A buffer being written. */
struct pb_out {
	unsigned char *buf;
	size_t len, alloc;
};

void pb_out_release(struct pb_out *o);
void pb_put_raw(struct pb_out *o, const void *data, size_t len);
void pb_put_varint(struct pb_out *o, uint64_t v);
/* A varint field; a zero value is left out, as proto3 leaves it. */
void pb_put_uint(struct pb_out *o, uint32_t num, uint64_t v);
/* A length-delimited field (a string, a message written apart). */
void pb_put_bytes(struct pb_out *o, uint32_t num, const void *data,
		  size_t len);
/* A packed repeated varint field of n values; none: left out. */
void pb_put_packed(struct pb_out *o, uint32_t num, const uint64_t *v,
		   size_t n);

/* Bytes a varint of v takes. */
size_t pb_varint_size(uint64_t v);

#endif
