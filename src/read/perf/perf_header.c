/*
 * perf.data's description of itself: the attrs (one per event, with
 * the ids its samples carry) and the feature sections the reader uses
 * (EVENT_DESC for the events' names, BUILD_ID, HOSTNAME, OSRELEASE,
 * VERSION, ARCH, NRCPUS, CMDLINE, COMPRESSED), the same in a file's sections and in
 * pipe mode's HEADER_ATTR, HEADER_FEATURE and HEADER_BUILD_ID records.
 * The layouts are perf's (tools/perf/util/header.c writes them).
 */
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "perf_reader.h"
#include "perf_samples.h"

/* The first attr layout (PERF_ATTR_SIZE_VER0): up to the flags word
 * and the fields after it that every version has. */
#define ATTR_SIZE_VER0 64
/* Where the later fields are, and the attr sizes that hold them. */
#define ATTR_BRANCH_TYPE_AT 72
#define ATTR_REGS_USER_AT 80
#define ATTR_REGS_INTR_AT 96

/* A build-id record: the header, a pid, 24 bytes of build-id, then the
 * file name (struct perf_record_header_build_id). */
#define BUILD_ID_NAME_AT 36
#define MISC_BUILD_ID_SIZE (1u << 15)

static uint64_t reverse_bits(uint64_t v)
{
	uint64_t r = 0;

	for (int i = 0; i < 64; i++)
		r |= ((v >> i) & 1) << (63 - i);
	return r;
}

static uint64_t u64_at(const struct perf_reader *r, const unsigned char *p)
{
	struct cursor c;
	uint64_t v = 0;

	perf_cursor(r, &c, p, 8);
	cursor_u64(&c, &v);
	return v;
}

static uint32_t u32_at(const struct perf_reader *r, const unsigned char *p)
{
	struct cursor c;
	uint32_t v = 0;

	perf_cursor(r, &c, p, 4);
	cursor_u32(&c, &v);
	return v;
}

int perf_parse_attr(const struct perf_reader *r, const unsigned char *data,
		    size_t len, size_t off, struct perf_attr *a, size_t *used)
{
	uint32_t size;

	memset(a, 0, sizeof(*a));
	if (len < 8)
		return perf_fail(r, off, "an event attr truncated: it needs "
				 "8 bytes, %zu are left", len);
	a->type = u32_at(r, data);
	size = u32_at(r, data + 4);
	if (!size)
		size = ATTR_SIZE_VER0;	/* perf's reading of a 0 size */
	if (size < ATTR_SIZE_VER0)
		return perf_fail(r, off, "an event attr of %u bytes, fewer "
				 "than the %d of its first version", size,
				 ATTR_SIZE_VER0);
	if (size > len)
		return perf_fail(r, off, "an event attr of %u bytes where "
				 "%zu are left for it (the attr size "
				 "disagrees with its place)", size, len);
	a->size = size;
	a->config = u64_at(r, data + 8);
	a->sample_period = u64_at(r, data + 16);
	a->sample_type = u64_at(r, data + 24);
	a->read_format = u64_at(r, data + 32);
	a->flags = u64_at(r, data + 40);
	/* The flags are C bitfields: a big-endian writer allocates them
	 * from the word's top bit down. */
	if (r->big_endian)
		a->flags = reverse_bits(a->flags);
	a->precise = (unsigned)(a->flags >> 15) & 3;
	if (size >= ATTR_BRANCH_TYPE_AT + 8)
		a->branch_sample_type = u64_at(r, data + ATTR_BRANCH_TYPE_AT);
	if (size >= ATTR_REGS_USER_AT + 8)
		a->sample_regs_user = u64_at(r, data + ATTR_REGS_USER_AT);
	if (size >= ATTR_REGS_INTR_AT + 8)
		a->sample_regs_intr = u64_at(r, data + ATTR_REGS_INTR_AT);
	*used = size;
	return 0;
}

int perf_add_attr(struct perf_reader *r, const struct perf_attr *a,
		  const unsigned char *ids, uint64_t n, size_t off)
{
	uint32_t idx = (uint32_t)r->nattrs;

	if (r->nattrs >= PERF_MAX_ATTRS)
		return perf_fail(r, off, "more than %d event attrs",
				 PERF_MAX_ATTRS);
	if (r->nattrs && perf_sample_id_offset(a->sample_type) !=
				 perf_sample_id_offset(r->attrs[0].sample_type))
		return perf_fail(r, off, "an event attr whose samples carry "
				 "their id elsewhere than the first one's: "
				 "samples could not be told apart");
	/* perf report refuses these too ("non matching sample_type"):
	 * every sample would be taken for the first event's */
	if (r->nattrs && perf_sample_id_offset(a->sample_type) < 0)
		return perf_fail(r, off, "a second event attr, but the samples "
				 "carry no id (sample_type has neither ID nor "
				 "IDENTIFIER): the events' samples could not "
				 "be told apart");
	if (a->sample_type & ~PERF_SAMPLE_KNOWN)
		perf_quirk(r, PERF_Q_SAMPLE_TYPE, off);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t id = u64_at(r, ids + 8 * i);
		bool added = false;
		uint32_t had = u64map_get_or_put(&r->id_attr, id, idx, &added);

		if (!added && had != idx)
			return perf_fail(r, off + 8 * i, "the sample id %llu "
					 "of event attr %u is event attr %u's "
					 "too: their samples could not be told "
					 "apart", (unsigned long long)id, idx,
					 had);
	}
	ARRAY_GROW(r->attrs, r->nattrs + 1, r->attrs_alloc);
	r->attrs[r->nattrs] = *a;
	r->attrs[r->nattrs].event = idx;
	r->nattrs++;
	return 0;
}

/* A perf_header_string (u32 length, then that many bytes, NUL padded)
 * at *at; the string ends at its first NUL. Returns 0, or -1 after
 * reporting. */
static int header_string(struct perf_reader *r, size_t *at, size_t end,
			 const char *what, name_id *out)
{
	uint32_t n;
	const char *s;

	if (end - *at < 4)
		return perf_fail(r, *at, "%s truncated: no room for its length",
				 what);
	n = u32_at(r, r->data + *at);
	if (n > end - *at - 4)
		return perf_fail(r, *at, "%s of %u bytes, past the end of its "
				 "section (%zu bytes left)", what, n,
				 end - *at - 4);
	s = (const char *)r->data + *at + 4;
	*out = names_intern(&r->p->names, s, strnlen(s, n));
	*at += 4 + (size_t)n;
	return 0;
}

static int read_nrcpus(struct perf_reader *r, size_t off, size_t len)
{
	if (len < 8)
		return perf_fail(r, off, "the NRCPUS section truncated: it "
				 "needs 8 bytes, it has %zu", len);
	r->d->nrcpus_avail = u32_at(r, r->data + off);
	r->d->nrcpus_online = u32_at(r, r->data + off + 4);
	return 0;
}

static int read_cmdline(struct perf_reader *r, size_t off, size_t len)
{
	size_t at = off + 4, end = off + len;
	uint32_t n;

	if (len < 4)
		return perf_fail(r, off, "the CMDLINE section truncated");
	n = u32_at(r, r->data + off);
	if (n > len / 4)
		return perf_fail(r, off, "a command line of %u words in a "
				 "section of %zu bytes", n, len);
	free(r->cmdline);
	r->cmdline = xcalloc(n ? n : 1, sizeof(*r->cmdline));
	r->ncmdline = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (header_string(r, &at, end, "a command-line word",
				  &r->cmdline[i]) < 0)
			return -1;
		r->ncmdline++;
	}
	return 0;
}

/* EVENT_DESC: u32 count, u32 attr size, then per event its attr, u32
 * number of ids, its name (a header string) and the ids. The events are
 * in the attrs' order. */
static int read_event_desc(struct perf_reader *r, size_t off, size_t len)
{
	size_t at = off + 8, end = off + len;
	uint32_t n, attr_size;

	if (len < 8)
		return perf_fail(r, off, "the EVENT_DESC section truncated");
	n = u32_at(r, r->data + off);
	attr_size = u32_at(r, r->data + off + 4);
	/* each event takes at least its attr, its ids' count and a name's
	 * length; in 64 bits: attr_size + 8 wraps to 0 in 32 (issue 32) */
	if (attr_size < ATTR_SIZE_VER0 || n > len / ((uint64_t)attr_size + 8))
		return perf_fail(r, off, "an EVENT_DESC section of %u events "
				 "with attrs of %u bytes, in %zu bytes", n,
				 attr_size, len);
	free(r->desc_names);
	r->desc_names = xcalloc(n ? n : 1, sizeof(*r->desc_names));
	r->ndesc = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nids;

		if (end - at < (size_t)attr_size + 4)
			return perf_fail(r, at, "event %u of EVENT_DESC "
					 "truncated", i + 1);
		at += attr_size;
		nids = u32_at(r, r->data + at);
		at += 4;
		if (header_string(r, &at, end, "an event name",
				  &r->desc_names[i]) < 0)
			return -1;
		if (nids > (end - at) / 8)
			return perf_fail(r, at, "event %u of EVENT_DESC has "
					 "%u ids, past the section's end",
					 i + 1, nids);
		at += (size_t)nids * 8;
		r->ndesc++;
	}
	return 0;
}

static enum perf_object_kind kind_of(const char *name)
{
	if (!strcmp(name, PERF_KERNEL_OBJECT))
		return PERF_OBJ_KERNEL;
	return name[0] == '/' ? PERF_OBJ_FILE : PERF_OBJ_ANON;
}

/* A build-id record at off: its object *obj and its misc field. */
static int build_id_record(struct perf_reader *r, size_t off, size_t size,
			   uint32_t *obj_out, uint16_t *misc_out)
{
	const unsigned char *rec = r->data + off;
	uint16_t misc;
	size_t idlen = PERF_BUILD_ID_MAX;
	const char *name;
	struct perf_object *o;
	uint32_t obj;

	if (size < BUILD_ID_NAME_AT)
		return perf_fail(r, off, "a build-id record of %zu bytes, "
				 "fewer than the %d its fields take", size,
				 BUILD_ID_NAME_AT);
	misc = (uint16_t)(u32_at(r, rec + 4) & 0xffff);
	if (r->big_endian)
		misc = (uint16_t)(u32_at(r, rec + 4) >> 16);
	if (misc & MISC_BUILD_ID_SIZE)
		idlen = rec[12 + PERF_BUILD_ID_MAX] <= PERF_BUILD_ID_MAX
				? rec[12 + PERF_BUILD_ID_MAX]
				: PERF_BUILD_ID_MAX;
	name = (const char *)rec + BUILD_ID_NAME_AT;
	obj = perf_data_object(r->d, &r->p->names, name,
			       strnlen(name, size - BUILD_ID_NAME_AT),
			       PERF_OBJ_FILE);
	o = &r->d->objects[obj];
	o->kind = kind_of(names_str(&r->p->names, o->path));
	*obj_out = obj;
	*misc_out = misc;
	return perf_set_build_id(r, obj, rec + 12, idlen, off);
}

int perf_read_build_id(struct perf_reader *r, size_t off, size_t size)
{
	uint32_t obj;
	uint16_t misc;

	return build_id_record(r, off, size, &obj, &misc);
}

/* The BUILD_ID section: build-id records one after the other. */
static int read_build_ids(struct perf_reader *r, size_t off, size_t len)
{
	size_t at = off, end = off + len;

	while (end - at >= 8) {
		uint32_t obj;
		uint16_t misc;
		uint16_t size = (uint16_t)(r->big_endian
				? u32_at(r, r->data + at + 4) & 0xffff
				: u32_at(r, r->data + at + 4) >> 16);

		if (size < 8 || size > end - at)
			return perf_fail(r, at, "a build-id record of %u bytes "
					 "where %zu are left in its section",
					 size, end - at);
		if (build_id_record(r, at, size, &obj, &misc) < 0)
			return -1;
		/* a user-space file perf record saw samples in: told
		 * before the first record, so that its symbols can load
		 * long before a late mapping of it is read (a kernel
		 * module's frames are the kernel's: never its own) */
		if (r->opts->perf_object_listed &&
		    (misc & PERF_CPUMODE_MASK) == PERF_RECORD_MISC_USER &&
		    r->d->objects[obj].kind == PERF_OBJ_FILE)
			r->opts->perf_object_listed(r->opts->perf_object_ctx,
						    &r->p->names, r->d, obj);
		at += size;
	}
	return 0;
}

/*
 * COMPRESSED (perf record -z): u32 version, method, level, ratio, and
 * the ring buffer's size, which is what perf lets one compressed record
 * decompress to (perf_inflate.c).
 */
static int read_compressed(struct perf_reader *r, size_t off, size_t len)
{
	const unsigned char *p = r->data + off;

	if (len < 20)
		return perf_fail(r, off, "the compression section has %zu "
				 "bytes, fewer than its 20", len);
	r->comp_type = u32_at(r, p + 4);
	r->comp_mmap_len = u32_at(r, p + 16);
	r->comp_known = true;
	return 0;
}

int perf_read_feature(struct perf_reader *r, unsigned feat, size_t off,
		      size_t len)
{
	size_t at = off;

	if (off > r->len || len > r->len - off)
		return perf_fail(r, off, "feature section %u of %zu bytes "
				 "goes past the end of the file (%zu bytes)",
				 feat, len, r->len);
	switch (feat) {
	case PERF_FEAT_HOSTNAME:
		return header_string(r, &at, off + len, "the host name",
				     &r->d->hostname);
	case PERF_FEAT_OSRELEASE:
		return header_string(r, &at, off + len, "the kernel release",
				     &r->d->osrelease);
	case PERF_FEAT_VERSION:
		return header_string(r, &at, off + len, "perf's version",
				     &r->d->version);
	case PERF_FEAT_ARCH:
		return header_string(r, &at, off + len, "the architecture",
				     &r->d->arch);
	case PERF_FEAT_NRCPUS:
		return read_nrcpus(r, off, len);
	case PERF_FEAT_CMDLINE:
		return read_cmdline(r, off, len);
	case PERF_FEAT_EVENT_DESC:
		return read_event_desc(r, off, len);
	case PERF_FEAT_BUILD_ID:
		return read_build_ids(r, off, len);
	case PERF_FEAT_COMPRESSED:
		return read_compressed(r, off, len);
	default:
		return 0;	/* not used: skipped */
	}
}
