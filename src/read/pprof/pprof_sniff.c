/*
 * Is this pprof's profile.proto? Protocol buffers have no magic number,
 * so the first bytes must parse as fields of message Profile: each key
 * a field number profile.proto has with its wire type (samples, tables
 * and strings length-delimited; the period, times and indexes varints),
 * and each message within the bytes looked at made of well-formed
 * fields. The other formats fail at once: text (Callgrind, IgProf,
 * gperftools' heap profiles) has keys of wrong wire types or numbers
 * past 15 ('#' is a group, 'e' a fixed32, 'P=(' a varint then a
 * varint where a function must be a message), and the binary ones
 * start with a zero word (gperftools) or a magic that is no such
 * field ("gmon", "PERFILE2"). It is tried after every format with a
 * magic, and before the BSD gmon.out, which has none.
 */
#include <stdbool.h>
#include <stddef.h>

#include "base/pbwire.h"
#include "pprof.h"
#include "read/read.h"

/* The wire type field n of Profile must have; -1: none such field. */
static int profile_wire(uint32_t n)
{
	switch (n) {
	case PPROF_SAMPLE_TYPE:
	case PPROF_SAMPLE:
	case PPROF_MAPPING:
	case PPROF_LOCATION:
	case PPROF_FUNCTION:
	case PPROF_STRING:
	case PPROF_PERIOD_TYPE:
		return PB_LEN;
	case PPROF_DROP_FRAMES:
	case PPROF_KEEP_FRAMES:
	case PPROF_TIME:
	case PPROF_DURATION:
	case PPROF_PERIOD:
	case PPROF_DEFAULT_TYPE:
	case PPROF_DOC_URL:
		return PB_VARINT;
	default:
		return -1;
	}
}

/* A sub-message whose bytes are all here: well-formed fields of small
 * numbers (its schema's are at most 10), no groups. */
static bool message_ok(const unsigned char *data, size_t len)
{
	struct pb_in in = pb_sub(data, data, len);
	struct pb_field f;
	const char *why;
	int r;

	while ((r = pb_next(&in, &f, &why)) > 0)
		if (f.num > 10 || f.wire == PB_I64 || f.wire == PB_I32)
			return false;
	return r == 0;
}

bool pprof_sniff(const char *data, size_t len, bool whole)
{
	const unsigned char *p = (const unsigned char *)data;
	const unsigned char *end = p + len;
	bool strings = false, tables = false;
	size_t nfields = 0;

	while (p < end) {
		const char *why;
		uint64_t key, v;
		int want;

		/* past the bytes looked at (or a file cut short): a
		 * profile when a table before was whole and well-formed,
		 * for the reader to say where it ends */
		if (pb_varint(&p, end, &key, &why) < 0)
			return tables;
		want = (key >> 3) <= 15 ? profile_wire((uint32_t)(key >> 3)) : -1;
		if (want < 0 || (key & 7) != (uint64_t)want) {
			/* a comment's indexes may come packed or not */
			if ((key >> 3) != PPROF_COMMENT ||
			    ((key & 7) != PB_LEN && (key & 7) != PB_VARINT))
				return false;
		}
		if (pb_varint(&p, end, &v, &why) < 0)
			return tables;
		nfields++;
		if ((key & 7) != PB_LEN)
			continue;
		if (v > (uint64_t)(end - p))
			return tables;
		if ((key >> 3) == PPROF_STRING)
			strings = true;
		else if ((key >> 3) != PPROF_COMMENT) {
			if (!message_ok(p, (size_t)v))
				return false;
			tables = true;
		}
		p += v;
	}
	/* a whole profile has its string table and something more */
	return whole ? strings && tables : nfields > 0 && (strings || tables);
}
