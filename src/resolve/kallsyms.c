/*
 * /proc/kallsyms (or a copy of it) as a sorted table of the kernel's
 * code symbols (see kallsyms.h).
 *
 * The names are not interned here: the kernel lists some 120,000 code
 * symbols of which a recording names a few thousand, and interning
 * them all was most of the load (and, with the load on another thread,
 * done twice: into a table of its own, then into the profile's). What
 * interning them did decide is which alias names an address (the
 * symbols at one address ordered by their names' ids), and
 * kallsyms_order() orders them as those ids would have.
 */
#include "kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/sorted.h"
#include "base/hashmap.h"
#include "base/mapped_files.h"
#include "base/xalloc.h"

/* A hex digit's value + 1 by its byte, 0 for the others: hex_digit()'s
 * comparisons took 16 million instructions for the kernel's addresses */
static const unsigned char hex_plus1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/*
 * The value of the 8 hex digits at s, the first the highest, into *v:
 * false when one is not a hex digit. On a little-endian machine eight
 * bytes a step: a byte b is in [lo, hi] when b + 0x80 - lo has its high
 * bit set and b + 0x7f - hi has not (no carry between the bytes when
 * each is below 0x80); a digit's value is its low 4 bits, + 9 for a
 * letter; then the nibbles are packed in pairs, fours and eights. Else
 * by hex_plus1[].
 */
static bool hex8(const char *s, uint32_t *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;
	uint64_t w, l, digit, alpha, x;

	memcpy(&w, s, 8);
	if (w & highs)
		return false;
	digit = (w + ones * (0x80 - '0')) & ~(w + ones * (0x7f - '9')) & highs;
	l = w | ones * 0x20;	/* 'A'-'F' to 'a'-'f' */
	alpha = (l + ones * (0x80 - 'a')) & ~(l + ones * (0x7f - 'f')) & highs;
	if ((digit | alpha) != highs)
		return false;
	x = (w & ones * 0x0f) + (alpha >> 7) * 9;
	x = (x & 0x000f000f000f000full) << 4 | (x >> 8 & 0x000f000f000f000full);
	x = (x & 0x000000ff000000ffull) << 8 | (x >> 16 & 0x000000ff000000ffull);
	*v = (uint32_t)((x & 0xffff) << 16 | (x >> 32 & 0xffff));
	return true;
#else
	uint32_t r = 0;

	for (int i = 0; i < 8; i++) {
		int d = hex_plus1[(unsigned char)s[i]];

		if (!d)
			return false;
		r = r << 4 | (uint32_t)(d - 1);
	}
	*v = r;
	return true;
#endif
}

/*
 * The length of the name at s, of at most n bytes: up to a space, a tab
 * or a NUL (strcspn() of it NUL-ended at n). Eight bytes a step on a
 * little-endian machine: a byte of w equal to c is a zero byte of
 * w ^ c * ones, and the lowest bit set by (v - ones) & ~v & highs is the
 * first zero byte's (a borrow only sets bits above it). A byte at a
 * time, the 2.7 MB of the kernel's names took 30 million instructions.
 */
static size_t name_len(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;

	for (; n - i >= 8; i += 8) {
		uint64_t w, sp, tab, hit;

		memcpy(&w, s + i, 8);
		sp = w ^ (ones * ' ');
		tab = w ^ (ones * '\t');
		hit = (((w - ones) & ~w) | ((sp - ones) & ~sp) |
		       ((tab - ones) & ~tab)) & highs;
		if (hit)
			return i + (size_t)__builtin_ctzll(hit) / 8;
	}
#endif
	for (; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t' || !s[i])
			break;
	return i;
}

/* One line, its n bytes without the '\n': "ffffffff81000000 T _stext"
 * or "... t name\t[module]"; the name at *name, *len bytes. A NUL ends
 * the line as its end does (the line is read as if NUL-ended there). */
static int parse_line(const char *line, size_t n, uint64_t *addr, char *type,
		      const char **name, size_t *len)
{
	size_t at = 0;
	uint64_t a = 0;
	uint32_t hi, lo;
	int d;

	/* the kernel's 16 digits and a space, by hand (strtoull() took
	 * 450 instructions a line: 56 million for /proc/kallsyms), eight
	 * at a time; fewer digits one at a time; any other start (a sign,
	 * "0x", more digits) as strtoull() reads it, from a copy of the
	 * line NUL-ended */
	if (n > 16 && line[16] == ' ' && hex8(line, &hi) &&
	    hex8(line + 8, &lo)) {
		a = (uint64_t)hi << 32 | lo;
		at = 16;
	}
	if (!at)
		while (at < 16 && at < n &&
		       (d = hex_plus1[(unsigned char)line[at]]) != 0) {
			a = a << 4 | (uint64_t)(d - 1);
			at++;
		}
	if (at && at < n && line[at] == ' ') {
		*addr = a;
	} else {
		char *copy = xstrndup(line, n), *end;
		int bad;

		errno = 0;
		*addr = strtoull(copy, &end, 16);
		bad = errno || end == copy || *end != ' ';
		at = (size_t)(end - copy);
		free(copy);
		if (bad)
			return -1;
	}
	/* the type and a space, in the line and before any NUL */
	if (n - at < 3 || !line[at + 1] || line[at + 2] != ' ')
		return -1;
	*type = line[at + 1];
	*name = line + at + 3;
	*len = name_len(*name, n - (at + 3));
	return *len ? 0 : -1;
}

/* The longest kallsyms line: an address, a type, a name of at most
 * KSYM_NAME_LEN (512) and a module's name. */
#define LINE_MAX_ 4096

/* Whether buf's first n bytes begin with a kallsyms line: 1 yes, 0 not,
 * -1 not known yet (no whole line, and fewer than LINE_MAX_ bytes). */
static int starts_right(const char *buf, size_t n)
{
	const char *nl = memchr(buf, '\n', n < LINE_MAX_ ? n : LINE_MAX_);
	const char *name;
	uint64_t addr;
	size_t len;
	char type;

	if (!nl)
		return n < LINE_MAX_ ? -1 : 0;
	return parse_line(buf, (size_t)(nl - buf), &addr, &type, &name,
			  &len) == 0;
}

/*
 * A regular file (perf's copy in ~/.debug, --kallsyms=FILE) is read
 * through a mapping, its names left there; another (/proc/kallsyms,
 * which cannot be mapped, or a pipe) a piece at a time into one buffer
 * (KALLSYMS_PIECE bytes, more for a line longer than that), only the
 * code symbols' names copied out of it. The whole file read at once into
 * a 16 MiB buffer wrote 5.4 MB of memory new to the process (three huge
 * pages zeroed) of which 3.1 MB was kept, and on this virtual machine
 * new memory costs about 2.5 ms a MiB (doc/PERFORMANCE.md, session 33).
 */
#define KALLSYMS_PIECE ((size_t)64 << 10)

/* The table being made: the names kept, and their room. */
struct kept {
	size_t len, cap;
	size_t alloc;		/* k->syms' */
	bool any_addr;
};

/* One line, its n bytes without the '\n', into k: 0, or -1 after
 * reporting. A mapped file's name stays where it is; else it is copied
 * into the text, NUL-ended. */
static int add_line(struct kallsyms *k, struct kept *t, const char *line,
		    size_t n, const char *path, uint64_t lineno)
{
	const char *name;
	uint64_t addr;
	size_t nlen, at;
	char type;

	if (parse_line(line, n, &addr, &type, &name, &nlen) < 0)
		return error_at(path, lineno, "not a kallsyms line "
				"(address, type, name)");
	if (addr)
		t->any_addr = true;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (k->mapped) {
		/* below the file's size, itself below 4 GiB */
		at = (size_t)(name - k->text);
	} else {
		if (nlen >= UINT32_MAX || t->len > UINT32_MAX - nlen - 1)
			return error_at(path, lineno, "more than 4 GiB of "
					"names");
		if (t->cap - t->len < nlen + 2) {
			/* past the room load_pieces() made */
			size_t cap = t->cap * 2;

			if (cap < t->len + nlen + 2)
				cap = t->len + nlen + 2;
			k->text = xreallocarray(k->text, cap, 1);
			t->cap = cap;
		}
		memcpy(k->text + t->len, name, nlen);
		k->text[t->len + nlen] = '\0';
		at = t->len;
		t->len += nlen + 1;
	}
	ARRAY_GROW(k->syms, k->n + 1, t->alloc);
	k->syms[k->n].addr = addr;
	k->syms[k->n].name = (uint32_t)at;
	k->syms[k->n].len = (uint32_t)nlen;
	k->n++;
	return 0;
}

/* The file's next bytes after buf's first *end, read more than once
 * when a read is cut short by a signal: *end grows, or *eof is set; -1
 * after reporting. */
static int read_more(int fd, const char *path, char *buf, size_t cap,
		     size_t *end, bool *eof)
{
	for (;;) {
		ssize_t got = read(fd, buf + *end, cap - *end);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return error_errno("cannot read '%s'", path);
		if (!got)
			*eof = true;
		*end += (size_t)got;
		return 0;
	}
}

/* By address, then in the file's order (a name's offset in the text
 * grows with its line). */
static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* The load's end: the symbols' room not taken given back (to the heap,
 * in place: the next loads take it), and sorted. */
static void finish(struct kallsyms *k)
{
	k->syms = xreallocarray(k->syms, k->n ? k->n : 1, sizeof(*k->syms));
	/* the kernel lists its code symbols by address already */
	for (size_t i = 1; i < k->n; i++)
		if (by_addr(&k->syms[i - 1], &k->syms[i]) > 0) {
			qsort(k->syms, k->n, sizeof(*k->syms), by_addr);
			break;
		}
}

/*
 * A regular file's lines read through a mapping of it, where the names
 * stay: its bytes are neither copied out of the page cache nor again
 * into memory of the process's (perf's copy in ~/.debug: 5.4 MB, and 3.1
 * MB of names, doc/PERFORMANCE.md session 33). kallsyms_load()'s
 * answer; 2 when it cannot be mapped (read it in pieces).
 */
static int load_mapped(struct kallsyms *k, const char *path, int fd,
		       size_t size)
{
	struct kept t = { .alloc = size / 32 + 16 };
	const char *line, *end, *nl;
	uint64_t lineno = 0;
	void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

	if (m == MAP_FAILED)
		return 2;
	k->text = m;
	k->mapped = size;
	/* the file cut short while it is read: a bus error, said with
	 * its name */
	k->mapped_path = xstrdup(path);
	mapped_files_note(m, size, k->mapped_path);
	/* as read in pieces: a first line that is none stops it there */
	if (starts_right(k->text, size) == 0) {
		kallsyms_release(k);
		return error_at(path, 1, "not a kallsyms line (address, type, "
				"name)");
	}
	k->syms = xmalloc(t.alloc * sizeof(*k->syms));
	end = k->text + size;
	for (line = k->text; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		if (add_line(k, &t, line, (size_t)(nl - line), path,
			     ++lineno) < 0) {
			kallsyms_release(k);
			return -1;
		}
	}
	if (!t.any_addr) {
		kallsyms_release(k);
		return 1;
	}
	finish(k);
	return 0;
}

/*
 * The file read `piece` bytes at a time into one buffer (more for a
 * line longer than that), the code symbols' names copied out of it into
 * the text. size: a regular file's, else 0. kallsyms_load()'s answer.
 */
static int load_pieces(struct kallsyms *k, const char *path, int fd,
		       size_t size, size_t piece)
{
	struct kept t = { 0 };
	size_t cap = piece ? piece : 1, start = 0, end = 0;
	uint64_t lineno = 0;
	bool eof = false;
	int first = -1, ret = -1;
	char *buf;

	/*
	 * A regular file's names fit in its size, and its lines' symbols
	 * in its size / 32 (the kernel's lines are 44 bytes on average;
	 * grown if they are shorter). /proc/kallsyms says no size: room
	 * for a distribution kernel's (5-12 MB, 3-7 MB of names), grown
	 * past it, and the rest given back at the end. Pages not written
	 * are not touched, where a copy at each doubling writes new ones.
	 */
	if (size && size < SIZE_MAX / 2) {
		t.cap = size + 2;
		t.alloc = size / 32 + 16;
	} else {
		t.cap = (size_t)4 << 20;
		t.alloc = (size_t)1 << 17;
	}
	k->text = xmalloc(t.cap);
	k->syms = xmalloc(t.alloc * sizeof(*k->syms));
	buf = xmalloc(cap + 1);
	/*
	 * Each line as getline() gave it: up to and with its '\n', the
	 * last one without. A first line that is not kallsyms' stops the
	 * read (--kallsyms=/dev/zero grew until the memory ran out). The
	 * addresses, types and other lines (40% of the kernel's bytes)
	 * are not kept; the names' order, which kallsyms_order() reads,
	 * stays the file's.
	 */
	for (;;) {
		char *nl = memchr(buf + start, '\n', end - start);

		if (nl) {
			if (add_line(k, &t, buf + start,
				     (size_t)(nl - (buf + start)), path,
				     ++lineno) < 0)
				goto out;
			start = (size_t)(nl + 1 - buf);
			continue;
		}
		if (eof) {
			if (start < end &&
			    add_line(k, &t, buf + start, end - start, path,
				     ++lineno) < 0)
				goto out;
			break;
		}
		/* the line begun kept at the buffer's start, the next
		 * piece after it; a line longer than the buffer grows it */
		memmove(buf, buf + start, end - start);
		end -= start;
		start = 0;
		if (end == cap) {
			cap *= 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
		if (read_more(fd, path, buf, cap, &end, &eof) < 0)
			goto out;
		if (first < 0 && lineno == 0)
			first = starts_right(buf, end);
		if (first == 0) {
			error_at(path, 1, "not a kallsyms line (address, type, "
				 "name)");
			goto out;
		}
	}
	if (!t.any_addr) {
		ret = 1;
		goto out;
	}
	/* the rest of the room given back */
	k->text = xreallocarray(k->text, t.len + 1, 1);
	k->text[t.len] = '\0';
	finish(k);
	ret = 0;
out:
	free(buf);
	if (ret)
		kallsyms_release(k);
	return ret;
}

/* kallsyms_load(), a regular file through a mapping when map */
static int load(struct kallsyms *k, const char *path, size_t piece, bool map)
{
	size_t size = 0;
	struct stat sb;
	int fd, ret = 2;

	memset(k, 0, sizeof(*k));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return error_errno("cannot open '%s'", path);
	/* /proc files are regular, of size 0 */
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
		size = (uint64_t)sb.st_size < SIZE_MAX ? (size_t)sb.st_size : 0;
	/* the names' offsets are 32 bits */
	if (map && size && size < UINT32_MAX)
		ret = load_mapped(k, path, fd, size);
	if (ret == 2)
		ret = load_pieces(k, path, fd, size, piece);
	close(fd);
	return ret;
}

int kallsyms_load(struct kallsyms *k, const char *path)
{
	return load(k, path, KALLSYMS_PIECE, true);
}

int kallsyms_load_pieces(struct kallsyms *k, const char *path, size_t piece)
{
	return load(k, path, piece, false);
}

/*
 * An alias's place among those of its address, as the id its name has
 * or would have had: (id, 1, 0, 0) for an id the profile gave it;
 * (at, 0, i, its id there) for a name of before[i] (interned when the
 * profile had `at` names: after its id at - 1, before id at); else,
 * new (rank 1), the offset of the name's first line, which orders new
 * names as interning them in the file's order would number them. The
 * least of a name's keys is its first interning.
 */
struct alias_key {
	struct ksym s;
	int rank;		/* 1: new */
	uint64_t at;
	uint32_t after, table;
	uint64_t id;
};

static int key_cmp(const struct alias_key *x, const struct alias_key *y)
{
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->after != y->after)
		return x->after < y->after ? -1 : 1;
	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_key(const void *a, const void *b)
{
	return key_cmp(a, b);
}

static bool same_name(const struct kallsyms *k, const struct ksym *a,
		      const struct ksym *b)
{
	return a->len == b->len &&
	       !memcmp(k->text + a->name, k->text + b->name, a->len);
}

/* A name's length (its low 6 bits) and first byte, as a bit of a
 * set of the new names': a test that most names fail, cheaper than a
 * hash. */
#define LIKE_BITS (64 * 256)

static size_t like_bit(const struct kallsyms *k, const struct ksym *s)
{
	return (size_t)(s->len & 63) * 256 +
	       (unsigned char)kallsyms_name(k, s)[0];
}

static bool new_like(const uint64_t *like, const struct kallsyms *k,
		     const struct ksym *s)
{
	size_t b = like_bit(k, s);

	return like[b / 64] >> (b % 64) & 1;
}

void kallsyms_order(struct kallsyms *k, const struct names *names,
		    const struct kallsyms_before *before, size_t nbefore)
{
	struct alias_key *keys = NULL;
	size_t nkeys = 0, keys_alloc = 0, *first = NULL, mask = 0;
	uint64_t like[LIKE_BITS / 64] = { 0 };
	size_t nnew = 0;

	/* every symbol of an address that has more than one (a few
	 * hundred of the 120,000), and the names had before */
	for (size_t i = 0, j; i < k->n; i = j) {
		for (j = i + 1; j < k->n && k->syms[j].addr == k->syms[i].addr;)
			j++;
		if (j - i < 2)
			continue;
		for (size_t a = i; a < j; a++) {
			const struct ksym *s = &k->syms[a];
			const char *str = kallsyms_name(k, s);
			name_id id = names_find(names, str, s->len);
			struct alias_key key = { *s, 1, s->name, 0, 0, 0 };

			if (id != NO_NAME)
				key = (struct alias_key){ *s, 0, id, 1, 0, 0 };
			for (size_t t = 0; t < nbefore; t++) {
				struct alias_key in = { *s, 0, before[t].at, 0,
							(uint32_t)t, 0 };

				id = names_find(before[t].names, str, s->len);
				in.id = id;
				if (id != NO_NAME && key_cmp(&in, &key) < 0)
					key = in;
			}
			ARRAY_GROW(keys, nkeys + 1, keys_alloc);
			keys[nkeys++] = key;
			nnew += key.rank;
		}
	}
	if (nnew) {
		/* a new name's first line may be another address's: look
		 * every symbol up in a table of the new names */
		mask = 1;
		while (mask < nnew * 2)
			mask <<= 1;
		first = xmalloc(mask * sizeof(*first));
		for (size_t i = 0; i < mask; i++)
			first[i] = SIZE_MAX;
		mask--;
		for (size_t i = 0; i < nkeys; i++) {
			const struct ksym *s = &keys[i].s;
			size_t h = (size_t)hash_bytes(kallsyms_name(k, s),
						      s->len) & mask;

			if (!keys[i].rank)
				continue;
			while (first[h] != SIZE_MAX &&
			       !same_name(k, &keys[first[h]].s, s))
				h = (h + 1) & mask;
			if (first[h] == SIZE_MAX)
				first[h] = i;
			like[like_bit(k, s) / 64] |= 1ull << like_bit(k, s) % 64;
		}
		for (size_t i = 0; i < k->n; i++) {
			const struct ksym *s = &k->syms[i];
			size_t h;

			/* most names are none of the new ones' length and
			 * first byte: not hashed */
			if (!new_like(like, k, s))
				continue;
			h = (size_t)hash_bytes(kallsyms_name(k, s), s->len) &
			    mask;
			for (; first[h] != SIZE_MAX; h = (h + 1) & mask) {
				struct alias_key *key = &keys[first[h]];

				if (same_name(k, &key->s, s)) {
					if (s->name < key->at)
						key->at = s->name;
					break;
				}
			}
		}
		/* each name's first line to every key of that name */
		for (size_t i = 0; i < nkeys; i++) {
			const struct ksym *s = &keys[i].s;
			size_t h = (size_t)hash_bytes(kallsyms_name(k, s),
						      s->len) & mask;

			if (!keys[i].rank)
				continue;
			while (!same_name(k, &keys[first[h]].s, s))
				h = (h + 1) & mask;
			keys[i].at = keys[first[h]].at;
		}
	}
	/* the keys are the groups' symbols in the table's order: sort each
	 * group and put it back */
	for (size_t i = 0, t = 0, j; i < k->n; i = j) {
		for (j = i + 1; j < k->n && k->syms[j].addr == k->syms[i].addr;)
			j++;
		if (j - i < 2)
			continue;
		qsort(keys + t, j - i, sizeof(*keys), by_key);
		for (size_t a = i; a < j; a++)
			k->syms[a] = keys[t++].s;
	}
	free(first);
	free(keys);
}

void kallsyms_release(struct kallsyms *k)
{
	free(k->syms);
	if (k->mapped) {
		mapped_files_forget(k->text);
		munmap(k->text, k->mapped);
	} else {
		free(k->text);
	}
	free(k->mapped_path);
	memset(k, 0, sizeof(*k));
}

const struct ksym *kallsyms_lookup(const struct kallsyms *k, uint64_t addr)
{
	/* the last symbol at or below addr */
	size_t lo = SORTED_UPTO(k->syms, k->n, addr, addr);

	return lo ? &k->syms[lo - 1] : NULL;
}

static bool named(const struct kallsyms *k, const struct ksym *s,
		  const char *name, size_t len)
{
	return s->len == len && !memcmp(kallsyms_name(k, s), name, len);
}

int kallsyms_check_ref(const struct kallsyms *k, const char *name, size_t len,
		       uint64_t addr, uint64_t *found)
{
	size_t at = SORTED_UPTO(k->syms, k->n, addr, addr);

	/* the symbols at addr first: the search the right file takes */
	while (at > 0 && k->syms[at - 1].addr == addr)
		if (named(k, &k->syms[--at], name, len))
			return 1;
	for (size_t i = 0; i < k->n; i++)
		if (named(k, &k->syms[i], name, len)) {
			*found = k->syms[i].addr;
			return 0;
		}
	return -1;
}

/*
 * The running kernel's build-id, from the ELF notes in
 * /sys/kernel/notes (namesz, descsz, type, name, desc, each padded to 4
 * bytes; the build-id is type 3, NT_GNU_BUILD_ID, of "GNU"). Its
 * length, 0 when it cannot be read.
 */
size_t kallsyms_running_build_id(uint8_t *id, size_t max)
{
	unsigned char buf[4096];
	size_t n, at = 0;
	FILE *f = fopen("/sys/kernel/notes", "rb");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (n - at >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_at = at + 12, desc_at;

		memcpy(&namesz, buf + at, 4);	/* the machine's own order */
		memcpy(&descsz, buf + at + 4, 4);
		memcpy(&type, buf + at + 8, 4);
		desc_at = name_at + ((namesz + 3u) & ~3u);
		if (namesz > n || descsz > n || desc_at + descsz > n)
			return 0;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_at, "GNU", 4)) {
			size_t len = descsz < max ? descsz : max;

			memcpy(id, buf + desc_at, len);
			return len;
		}
		at = desc_at + ((descsz + 3u) & ~3u);
	}
	return 0;
}
