/*
 * The bytes of a binary's code, for the disassembler: read from the file
 * through its PT_LOAD segments, the way the loader maps them.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/diag.h"
#include "symtab.h"

int symtab_read_bytes(const struct symtab *st, uint64_t addr, size_t len,
		      unsigned char *buf, size_t *got)
{
	const struct segment *s = symtab_segment(st, addr);
	uint64_t in_seg, avail;
	size_t done = 0;
	int fd;

	*got = 0;
	if (!s || !len)
		return 0;
	in_seg = addr - s->vaddr;
	/* only the part of the segment the file holds: past filesz is
	 * zero-filled memory (.bss), never code */
	if (in_seg >= s->filesz)
		return 0;
	avail = s->filesz - in_seg;
	if (len > avail)
		len = (size_t)avail;
	fd = open(st->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("%s: cannot open to read its code", st->path);
	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done,
				  (off_t)(s->offset + in_seg + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* the file is shorter than its header says */
		done += (size_t)n;
	}
	close(fd);
	*got = done;
	return 0;
}
