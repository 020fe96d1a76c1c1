/*
 * libelf: what symtab needs from an ELF file. The header (class, byte
 * order, machine, type), PT_LOAD segments, allocated sections, the
 * build-id note, .gnu_debuglink, and the symbols of .symtab or .dynsym.
 *
 * Every section with file contents is checked against the file size when
 * the file is opened, so a truncated file is one error naming the file
 * and the section, and nothing later reads past the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/diag.h"
#include "base/xalloc.h"
#include "symtab_int.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

struct elf_file {
	const char *path;
	bool quiet;		/* opened as a candidate: no messages */
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t shnum, shstrndx;
	/* sections elf_section_bytes() decompressed: libelf then says
	 * they are not compressed, and the file's bytes are not theirs */
	size_t *inflated;
	size_t ninflated, inflated_alloc;
};

static int elf_error(const char *path, const char *what)
{
	return error("%s: %s: %s", path, what, elf_errmsg(-1));
}

/* elf_error(), or nothing when probing a candidate file quietly. */
#define OPEN_ERROR(ef, ...) ((ef)->quiet ? -1 : error(__VA_ARGS__))

/*
 * The identification and the header, read by us before libelf: libelf
 * says "invalid ELF file data" for a file cut inside its header, and
 * takes a file of an unknown class or byte order for no ELF at all.
 */
static int check_ident(struct elf_file *ef, const struct stat *st)
{
	unsigned char id[EI_NIDENT];
	ssize_t n;
	unsigned hdr_size;

	do
		n = pread(ef->fd, id, sizeof(id), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (!ef->quiet)
			error("%s: offset 0x0: cannot read: %s", ef->path,
			      strerror(errno));
		return -1;
	}
	if (n == 0)
		return OPEN_ERROR(ef, "%s: the file is empty, not an ELF file",
				  ef->path);
	if (n < SELFMAG || memcmp(id, ELFMAG, SELFMAG))
		return OPEN_ERROR(ef, "%s: not an ELF file (expected the magic "
				  "bytes 7f 45 4c 46 at offset 0)",
				  ef->path);
	if (n <= EI_DATA)
		return OPEN_ERROR(ef, "%s: offset 0x%zx: the file ends inside "
				  "the ELF identification (16 bytes)",
				  ef->path, (size_t)n);
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return OPEN_ERROR(ef, "%s: offset 0x%x: unknown ELF class %u "
				  "(expected 1 for 32-bit or 2 for 64-bit)",
				  ef->path, EI_CLASS, id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return OPEN_ERROR(ef, "%s: offset 0x%x: unknown ELF byte order "
				  "%u (expected 1 for little-endian or 2 for "
				  "big-endian)", ef->path, EI_DATA, id[EI_DATA]);
	hdr_size = id[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr)
					      : sizeof(Elf32_Ehdr);
	if (S_ISREG(st->st_mode) && (uint64_t)st->st_size < hdr_size)
		return OPEN_ERROR(ef, "%s: offset 0x%llx: the file ends inside "
				  "the ELF header (%u bytes in a %d-bit file)",
				  ef->path, (unsigned long long)st->st_size,
				  hdr_size, id[EI_CLASS] == ELFCLASS64 ? 64 : 32);
	return 0;
}

/* Header tables and sections that point past the end of the file. */
static int check_sections(struct elf_file *ef, uint64_t file_size)
{
	const GElf_Ehdr *eh = &ef->ehdr;
	/* from the header itself: libelf says 0 sections when it cannot
	 * read their table; e_shnum 0 with a table: the count is in it */
	uint64_t shnum = eh->e_shnum ? eh->e_shnum : (eh->e_shoff ? 1 : 0);
	uint64_t phsize = (uint64_t)eh->e_phnum * eh->e_phentsize;
	uint64_t shsize;

	if (shnum < ef->shnum)
		shnum = ef->shnum;
	shsize = shnum * eh->e_shentsize;
	if (shnum && (eh->e_shoff > file_size ||
		      shsize > file_size - eh->e_shoff))
		return OPEN_ERROR(ef, "%s: offset 0x%llx: the section header "
				  "table (%llu entries of %u bytes) runs past "
				  "the end of the file at 0x%llx (truncated?)",
				  ef->path, (unsigned long long)eh->e_shoff,
				  (unsigned long long)shnum, eh->e_shentsize,
				  (unsigned long long)file_size);
	if (eh->e_phnum && (eh->e_phoff > file_size ||
			    phsize > file_size - eh->e_phoff))
		return OPEN_ERROR(ef, "%s: offset 0x%llx: the program header "
				  "table (%u entries of %u bytes) runs past "
				  "the end of the file at 0x%llx (truncated?)",
				  ef->path, (unsigned long long)eh->e_phoff,
				  eh->e_phnum, eh->e_phentsize,
				  (unsigned long long)file_size);
	for (size_t i = 1; i < ef->shnum; i++) {
		Elf_Scn *scn = elf_getscn(ef->elf, i);
		GElf_Shdr sh;
		const char *name;

		if (!scn || !gelf_getshdr(scn, &sh))
			return OPEN_ERROR(ef, "%s: cannot read section "
					  "headers: %s", ef->path,
					  elf_errmsg(-1));
		if (sh.sh_type == SHT_NOBITS || sh.sh_size == 0)
			continue;
		if (sh.sh_offset <= file_size &&
		    sh.sh_size <= file_size - sh.sh_offset)
			continue;
		name = elf_strptr(ef->elf, ef->shstrndx, sh.sh_name);
		return OPEN_ERROR(ef, "%s: offset 0x%llx: section [%zu] '%s' "
				  "(0x%llx bytes) runs past the end of the "
				  "file at 0x%llx (truncated?)", ef->path,
				  (unsigned long long)sh.sh_offset, i,
				  name ? name : "?",
				  (unsigned long long)sh.sh_size,
				  (unsigned long long)file_size);
	}
	return 0;
}

/* fd >= 0: that file, already open; else path opened here. */
static int open_file(struct elf_file **efp, const char *path, bool quiet,
		     int fd)
{
	struct elf_file *ef = xcalloc(1, sizeof(*ef));
	struct stat stbuf;

	ef->path = path;
	ef->quiet = quiet;
	ef->fd = fd;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		OPEN_ERROR(ef, "libelf is out of date");
		goto fail;
	}
	/* O_NONBLOCK: a FIFO without a writer is refused below, not
	 * waited for; on files it changes nothing */
	if (ef->fd < 0)
		ef->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (ef->fd < 0 || fstat(ef->fd, &stbuf) < 0) {
		if (!quiet)
			error_errno("cannot open '%s'", path);
		goto fail;
	}
	if (S_ISDIR(stbuf.st_mode)) {
		OPEN_ERROR(ef, "'%s' is a directory, not a binary", path);
		goto fail;
	}
	if (S_ISFIFO(stbuf.st_mode) || S_ISSOCK(stbuf.st_mode)) {
		/* libelf maps or seeks; a profile may come from a pipe,
		 * a binary cannot */
		OPEN_ERROR(ef, "'%s' is a pipe, not a binary (symbols are "
			   "read from a file)", path);
		goto fail;
	}
	if (check_ident(ef, &stbuf) < 0)
		goto fail;
	ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP, NULL);
	if (!ef->elf) {
		OPEN_ERROR(ef, "%s: cannot read: %s", path, elf_errmsg(-1));
		goto fail;
	}
	if (elf_kind(ef->elf) != ELF_K_ELF) {
		OPEN_ERROR(ef, "%s: not an ELF file", path);
		goto fail;
	}
	if (!gelf_getehdr(ef->elf, &ef->ehdr)) {
		OPEN_ERROR(ef, "%s: bad ELF header: %s", path, elf_errmsg(-1));
		goto fail;
	}
	if (elf_getshdrnum(ef->elf, &ef->shnum) < 0 ||
	    elf_getshdrstrndx(ef->elf, &ef->shstrndx) < 0) {
		OPEN_ERROR(ef, "%s: bad section header table: %s", path,
			   elf_errmsg(-1));
		goto fail;
	}
	if (check_sections(ef, (uint64_t)stbuf.st_size) < 0)
		goto fail;
	*efp = ef;
	return 0;
fail:
	elf_file_close(ef);
	*efp = NULL;
	return -1;
}

int elf_file_open(struct elf_file **efp, const char *path)
{
	return open_file(efp, path, false, -1);
}

int elf_file_open_fd(struct elf_file **efp, const char *path, int fd)
{
	return open_file(efp, path, false, fd);
}

bool elf_has_zstd_section(struct elf_file *ef)
{
	for (size_t i = 1; i < ef->shnum; i++) {
		Elf_Scn *scn = elf_getscn(ef->elf, i);
		GElf_Shdr sh;
		unsigned char type[4];

		/* ch_type is the Chdr's first word, of either class */
		if (scn && gelf_getshdr(scn, &sh) &&
		    (sh.sh_flags & SHF_COMPRESSED) &&
		    sh.sh_type != SHT_NOBITS && sh.sh_size >= 4 &&
		    pread(ef->fd, type, 4, (off_t)sh.sh_offset) == 4 &&
		    (elf_big_endian(ef) ? type[3] : type[0]) == 2 &&
		    !type[1] && !type[2] &&
		    !(elf_big_endian(ef) ? type[0] : type[3]))
			return true;
	}
	return false;
}

size_t elf_path_build_id(const char *path, uint8_t id[64])
{
	struct elf_file *ef;
	size_t len;

	if (open_file(&ef, path, true, -1) < 0)
		return 0;
	len = elf_read_build_id(ef, id);
	elf_file_close(ef);
	return len;
}

void elf_file_close(struct elf_file *ef)
{
	if (!ef)
		return;
	if (ef->elf)
		elf_end(ef->elf);
	if (ef->fd >= 0)
		close(ef->fd);
	free(ef->inflated);
	free(ef);
}

int elf_fd(struct elf_file *ef)
{
	return ef->fd;
}

bool elf_big_endian(struct elf_file *ef)
{
	return ef->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
}

const char *elf_path(struct elf_file *ef)
{
	return ef->path;
}

static const char *section_name(struct elf_file *ef, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(ef->elf, ef->shstrndx, sh->sh_name);

	return name ? name : "";
}

/* The first section of that type, or named so; NULL when absent. */
static Elf_Scn *find_section(struct elf_file *ef, uint32_t type,
			     const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ef->elf, scn))) {
		if (!gelf_getshdr(scn, sh))
			continue;
		if (name ? !strcmp(section_name(ef, sh), name)
			 : sh->sh_type == type)
			return scn;
	}
	return NULL;
}

static bool was_inflated(const struct elf_file *ef, size_t ndx)
{
	for (size_t i = 0; i < ef->ninflated; i++)
		if (ef->inflated[i] == ndx)
			return true;
	return false;
}

bool elf_section_bytes(struct elf_file *ef, const char *name,
		       const unsigned char **data, size_t *size)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(ef, 0, name, &sh);
	Elf_Data *d;

	if (!scn || sh.sh_type == SHT_NOBITS)
		return false;
	/*
	 * The bytes as the file has them (decompressed), as libdwarf reads
	 * them: it goes by the name alone. elf_getdata() and elf_rawdata()
	 * go by the section's type too and fail when the size does not fit
	 * it, so a .debug_rnglists marked SHT_FINI_ARRAY with an odd size
	 * went unchecked to libdwarf, which freed memory twice
	 * (tests/fuzz/regress/rnglists-fini-array).
	 */
	if (sh.sh_flags & SHF_COMPRESSED) {
		if (elf_compress(scn, 0, 0) < 0)
			return false;
		ARRAY_GROW(ef->inflated, ef->ninflated + 1, ef->inflated_alloc);
		ef->inflated[ef->ninflated++] = elf_ndxscn(scn);
		d = elf_getdata(scn, NULL);
	} else if (was_inflated(ef, elf_ndxscn(scn))) {
		/* asked again (dwarf_check.c, then dwarf.c): the header now
		 * has the decompressed size, but sh_offset is still where
		 * the compressed bytes are */
		d = elf_getdata(scn, NULL);
	} else {
		d = elf_getdata_rawchunk(ef->elf, (int64_t)sh.sh_offset,
					 sh.sh_size, ELF_T_BYTE);
	}
	if (!d)
		return false;
	*data = d->d_buf;
	*size = d->d_size;
	return true;
}

bool elf_section_vaddr(struct elf_file *ef, const char *name, uint64_t *addr)
{
	GElf_Shdr sh;

	if (!find_section(ef, 0, name, &sh))
		return false;
	*addr = sh.sh_addr;
	return true;
}

bool elf_has_symtab(struct elf_file *ef)
{
	GElf_Shdr sh;

	return find_section(ef, SHT_SYMTAB, NULL, &sh) != NULL;
}

size_t elf_symbol_count(struct elf_file *ef, bool dynamic)
{
	GElf_Shdr sh;

	if (!find_section(ef, dynamic ? SHT_DYNSYM : SHT_SYMTAB, NULL, &sh) ||
	    sh.sh_entsize == 0)
		return 0;
	return sh.sh_size / sh.sh_entsize;
}

/* A .debug_info with contents (a stripped file keeps none; a debug file
 * made by objcopy --only-keep-debug keeps it). */
bool elf_has_dwarf(struct elf_file *ef)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(ef, 0, ".debug_info", &sh);

	if (!scn)
		scn = find_section(ef, 0, ".zdebug_info", &sh);
	return scn && sh.sh_type != SHT_NOBITS && sh.sh_size > 0;
}

/* A .text without bytes: objcopy --only-keep-debug keeps its header
 * alone, SHT_NOBITS, as it does every section but the debug ones. */
bool elf_code_is_nobits(struct elf_file *ef)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(ef, 0, ".text", &sh);

	return scn && sh.sh_type == SHT_NOBITS && sh.sh_size > 0;
}

const char *elf_empty_dwarf_section(struct elf_file *ef)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ef->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOBITS ||
		    sh.sh_size == 0)
			continue;
		name = section_name(ef, &sh);
		if (!strncmp(name, ".debug_", 7) || !strncmp(name, ".zdebug_", 8))
			return name;
	}
	return NULL;
}

static int read_segments(struct elf_file *ef, struct symtab *st)
{
	size_t n, alloc = 0;

	if (elf_getphdrnum(ef->elf, &n) < 0)
		return elf_error(ef->path, "bad program header table");
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		struct segment *s;

		if (!gelf_getphdr(ef->elf, (int)i, &ph))
			return elf_error(ef->path, "bad program header");
		if (ph.p_type != PT_LOAD)
			continue;
		ARRAY_GROW(st->segs, st->nsegs + 1, alloc);
		s = &st->segs[st->nsegs++];
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->offset = ph.p_offset;
		s->filesz = ph.p_filesz;
		s->flags = ph.p_flags;
	}
	return 0;
}

static void read_sections(struct elf_file *ef, struct symtab *st,
			  struct symtab_priv *priv)
{
	Elf_Scn *scn = NULL;
	size_t alloc = 0;

	while ((scn = elf_nextscn(ef->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		struct sec *s;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		name = section_name(ef, &sh);
		ARRAY_GROW(priv->secs, priv->nsecs + 1, alloc);
		s = &priv->secs[priv->nsecs++];
		s->addr = sh.sh_addr;
		s->end = sh.sh_addr + sh.sh_size < sh.sh_addr
				 ? UINT64_MAX
				 : sh.sh_addr + sh.sh_size;
		s->index = (uint32_t)elf_ndxscn(scn);
		s->name = names_intern(st->names, name, strlen(name));
		s->code = (sh.sh_flags & SHF_EXECINSTR) != 0;
	}
}

/* The build-id in one block of notes, or 0. */
static size_t note_build_id(Elf_Data *data, uint8_t id[64])
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *name = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(name, "GNU", 4) && nh.n_descsz > 0 &&
		    nh.n_descsz <= 64) {
			memcpy(id, (const char *)data->d_buf + desc_off,
			       nh.n_descsz);
			return nh.n_descsz;
		}
	}
	return 0;
}

size_t elf_read_build_id(struct elf_file *ef, uint8_t id[64])
{
	Elf_Scn *scn = NULL;
	size_t n, len;

	while ((scn = elf_nextscn(ef->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		len = note_build_id(elf_getdata(scn, NULL), id);
		if (len)
			return len;
	}
	/* no section headers (sstrip): the PT_NOTE segments */
	if (ef->shnum == 0 && elf_getphdrnum(ef->elf, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(ef->elf, (int)i, &ph) ||
			    ph.p_type != PT_NOTE)
				continue;
			len = note_build_id(
				elf_getdata_rawchunk(ef->elf,
						     (int64_t)ph.p_offset,
						     ph.p_filesz, ELF_T_NHDR),
				id);
			if (len)
				return len;
		}
	}
	return 0;
}

int elf_read_target(struct elf_file *ef, struct symtab *st,
		    struct symtab_priv *priv)
{
	const unsigned char *ident = ef->ehdr.e_ident;

	st->elf_class = ident[EI_CLASS];
	st->big_endian = ident[EI_DATA] == ELFDATA2MSB;
	st->machine = ef->ehdr.e_machine;
	st->is_dyn = ef->ehdr.e_type == ET_DYN;
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return error("%s: unknown ELF class %u", ef->path,
			     ident[EI_CLASS]);
	if (read_segments(ef, st) < 0)
		return -1;
	read_sections(ef, st, priv);
	st->build_id_len = elf_read_build_id(ef, st->build_id);
	return 0;
}

/*
 * .gnu_debuglink: the file name, NUL, padding to 4 bytes, then the CRC-32
 * of the debug file in the binary's byte order.
 */
int elf_read_debuglink(struct elf_file *ef, char **name, uint32_t *crc)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(ef, 0, ".gnu_debuglink", &sh);
	const unsigned char *p;
	Elf_Data *data;
	size_t len, crc_off;

	*name = NULL;
	*crc = 0;
	if (!scn || sh.sh_type == SHT_NOBITS)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return elf_error(ef->path, "cannot read .gnu_debuglink");
	p = data->d_buf;
	/* an empty section has no buffer (fuzz_symtab) */
	len = p ? strnlen((const char *)p, data->d_size) : 0;
	crc_off = (len + 4) & ~(size_t)3;
	if (len == 0 || crc_off + 4 > data->d_size) {
		warning("%s: malformed .gnu_debuglink ignored", ef->path);
		return 0;
	}
	if (ef->ehdr.e_ident[EI_DATA] == ELFDATA2MSB)
		*crc = (uint32_t)p[crc_off] << 24 |
		       (uint32_t)p[crc_off + 1] << 16 |
		       (uint32_t)p[crc_off + 2] << 8 | p[crc_off + 3];
	else
		*crc = (uint32_t)p[crc_off + 3] << 24 |
		       (uint32_t)p[crc_off + 2] << 16 |
		       (uint32_t)p[crc_off + 1] << 8 | p[crc_off];
	*name = xstrndup((const char *)p, len);
	return 0;
}

/* --- symbols --- */

/* Where a symbol of this file lands in the binary: its section there. */
struct sec_map {
	uint32_t bin_index;	/* NO_IDX: not an allocated section there */
	uint64_t addr, end;
	bool tls, code;
};

/*
 * Map this file's section indexes onto the binary's allocated sections.
 * The same file maps onto itself; a debug file made by objcopy keeps the
 * binary's section headers, but we match by name and address anyway.
 */
static struct sec_map *map_sections(struct elf_file *ef, const struct sec *secs,
				    size_t nsecs, struct names *names)
{
	struct sec_map *map = xcalloc(ef->shnum ? ef->shnum : 1, sizeof(*map));

	for (size_t i = 0; i < ef->shnum; i++) {
		Elf_Scn *scn = elf_getscn(ef->elf, i);
		GElf_Shdr sh;
		const char *name;
		name_id nid;

		map[i].bin_index = NO_IDX;
		if (!scn || !gelf_getshdr(scn, &sh) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		name = section_name(ef, &sh);
		nid = names_find(names, name, strlen(name));
		for (size_t k = 0; k < nsecs; k++) {
			if (secs[k].name == nid && secs[k].addr == sh.sh_addr) {
				map[i].bin_index = secs[k].index;
				map[i].addr = secs[k].addr;
				map[i].end = secs[k].end;
				map[i].tls = (sh.sh_flags & SHF_TLS) != 0;
				map[i].code = secs[k].code;
				break;
			}
		}
	}
	return map;
}

/* Mapping symbols of ARM, AArch64 and RISC-V ($a, $d, $x...) and
 * assembler locals mark places, not functions or objects. */
static bool is_marker(const char *name)
{
	return name[0] == '$' || (name[0] == '.' && name[1] == 'L');
}

/*
 * bfd's choice of STT_FILE name for a symbol (elf_find_function): file
 * symbols are local, and all locals come before the globals, so a global
 * cannot tell its file once a second file symbol followed a symbol.
 */
enum file_state { NOTHING_SEEN, SYMBOL_SEEN, FILE_AFTER_SYMBOL_SEEN };

struct sym_reader {
	struct elf_file *ef;
	struct names *names;
	enum demangle_when demangle;
	struct sec_map *map;
	const struct sym_out *out;
	name_id file;		/* the last STT_FILE, or NO_NAME */
	enum file_state state;
};

/* bfd's maybe_function_sym(): what elf_find_function may answer with. */
static void add_fsym(struct sym_reader *sr, const GElf_Sym *s,
		     const struct sec_map *m, name_id name, uint32_t order)
{
	unsigned type = GELF_ST_TYPE(s->st_info);
	unsigned bind = GELF_ST_BIND(s->st_info);
	struct fsyms *fs = sr->out->fsyms;
	struct fsym *f;

	switch (type) {
	case STT_SECTION:
	case STT_FILE:
	case STT_OBJECT:
	case STT_COMMON:
	case STT_TLS:
	case 8:		/* STT_RELC */
	case 9:		/* STT_SRELC */
		return;
	default:
		break;
	}
	/* annobin's hidden local notype markers are not functions */
	if (s->st_size == 0 && bind == STB_LOCAL && type == STT_NOTYPE &&
	    GELF_ST_VISIBILITY(s->st_other) == STV_HIDDEN)
		return;
	/* bfd's value is section-relative: below the section it wraps
	 * around and can never be the closest symbol below an address */
	if (s->st_value < m->addr)
		return;
	ARRAY_GROW(fs->v, fs->nr + 1, fs->alloc);
	f = &fs->v[fs->nr++];
	f->addr = s->st_value;
	f->size = s->st_size ? s->st_size : 1;
	f->sec = m->bin_index;
	f->order = order;
	f->name = name;
	f->file = sr->file != NO_NAME &&
			  (bind == STB_LOCAL ||
			   sr->state != FILE_AFTER_SYMBOL_SEEN)
		  ? sr->file
		  : NO_NAME;
}

static void add_raw(struct sym_reader *sr, const GElf_Sym *s,
		    const struct sec_map *m, name_id raw, name_id name,
		    uint32_t order)
{
	unsigned type = GELF_ST_TYPE(s->st_info);
	struct raw_syms *rs = sr->out->raw;
	struct raw_sym *r;
	uint8_t kind;

	switch (type) {
	case STT_FUNC:
	case STT_GNU_IFUNC:
		kind = SYM_FUNC;
		break;
	case STT_OBJECT:
	case STT_COMMON:
		kind = SYM_OBJECT;
		break;
	case STT_NOTYPE:
		kind = SYM_OTHER;
		break;
	default:		/* sections, files, TLS offsets */
		return;
	}
	if (m->tls)
		return;
	ARRAY_GROW(rs->v, rs->nr + 1, rs->alloc);
	r = &rs->v[rs->nr++];
	r->addr = s->st_value;
	r->size = s->st_size;
	r->limit = m->end;
	r->name = name;
	r->raw = raw;
	r->order = order;
	r->kind = kind;
	r->bind = (uint8_t)GELF_ST_BIND(s->st_info);
}

static void add_xsym(struct sym_reader *sr, const GElf_Sym *s,
		     const struct sec_map *m, name_id raw, uint32_t order)
{
	struct xsyms *xs = sr->out->xsyms;
	struct xsym *x;

	ARRAY_GROW(xs->v, xs->nr + 1, xs->alloc);
	x = &xs->v[xs->nr++];
	x->addr = s->st_value;
	x->sec = m->bin_index;
	x->order = order;
	x->raw = raw;
	x->global = GELF_ST_BIND(s->st_info) == STB_GLOBAL;
}

/* Whether name (maybe versioned, "mcount@GLIBC_2.2.5") says a binary
 * writes a gmon.out: the function -pg code calls first thing (glibc's
 * x86 mcount, _mcount on aarch64 and the BSDs, __fentry__ with
 * -mfentry), or the one that starts the histogram, which gcrt1.o, linked
 * in by -pg, calls however the objects were compiled (__monstartup;
 * monstartup on the BSDs) */
static bool is_mcount(const char *name)
{
	static const char *const hooks[] = {
		"mcount", "_mcount", "__mcount", ".mcount", "__fentry__",
		"__monstartup", "monstartup",
	};
	size_t n = strcspn(name, "@");

	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (strlen(hooks[i]) == n && !strncmp(name, hooks[i], n))
			return true;
	return false;
}

static void read_one(struct sym_reader *sr, const GElf_Sym *s, uint32_t shndx,
		     const char *str, uint32_t order)
{
	unsigned type = GELF_ST_TYPE(s->st_info);
	const struct sec_map *m;
	name_id raw, name;

	if (type == STT_FILE) {
		sr->file = names_intern(sr->names, str, strlen(str));
		if (sr->state == SYMBOL_SEEN)
			sr->state = FILE_AFTER_SYMBOL_SEEN;
		return;
	}
	if (shndx == SHN_UNDEF && sr->out->calls_mcount && is_mcount(str))
		*sr->out->calls_mcount = true;
	m = shndx < sr->ef->shnum && shndx != SHN_UNDEF ? &sr->map[shndx]
							: NULL;
	if (m && m->bin_index != NO_IDX && *str && type != STT_SECTION) {
		raw = names_intern(sr->names, str, strlen(str));
		if (sr->out->xsyms && !m->code)
			add_xsym(sr, s, m, raw, order);
		if (is_marker(str))
			goto out;
		name = sr->demangle == DEMANGLE_NOW
			       ? demangle_name(sr->names, raw)
			       : raw;
		/*
		 * names_later: a name demangled to one word is interned
		 * here all the same, where it was when every name was:
		 * such a name can be a kernel symbol's, and the names
		 * there before kallsyms order the kernel's aliases at one
		 * address (resolve/kallsyms.c), and so name its frames
		 */
		if (sr->demangle == DEMANGLE_WORDS && demangles_to_word(str))
			(void)demangle_name(sr->names, raw);
		if (sr->out->fsyms)
			add_fsym(sr, s, m, name, order);
		/* annobin markers are no symbols of ours either */
		if (sr->out->raw &&
		    !(s->st_size == 0 &&
		      GELF_ST_BIND(s->st_info) == STB_LOCAL &&
		      type == STT_NOTYPE &&
		      GELF_ST_VISIBILITY(s->st_other) == STV_HIDDEN))
			add_raw(sr, s, m, raw, name, order);
	}
out:
	if (sr->state == NOTHING_SEEN)
		sr->state = SYMBOL_SEEN;
}

/*
 * The string table strndx's bytes, when elf_strptr() would answer any
 * offset below *size with a string there: a whole, uncompressed
 * SHT_STRTAB whose last byte ends a string (libelf's own test, which
 * then finds every string of it ended). NULL: elf_strptr() it is. Its
 * calls were 4% of loading libLLVM's symbols.
 */
static const char *strtab_whole(struct elf_file *ef, size_t strndx,
				size_t *size)
{
	Elf_Scn *scn = elf_getscn(ef->elf, strndx);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB ||
	    (sh.sh_flags & SHF_COMPRESSED) || sh.sh_size == 0)
		return NULL;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size != sh.sh_size ||
	    elf_getdata(scn, d) ||
	    ((const char *)d->d_buf)[d->d_size - 1] != '\0')
		return NULL;
	*size = d->d_size;
	return d->d_buf;
}

int elf_read_symbols(struct elf_file *ef, bool dynamic, struct names *names,
		     enum demangle_when demangle, const struct sec *secs,
		     size_t nsecs, const struct sym_out *out)
{
	const char *strs;
	size_t strs_size = 0;
	struct sym_reader sr = {
		.ef = ef, .names = names, .demangle = demangle,
		.out = out, .file = NO_NAME, .state = NOTHING_SEEN,
	};
	Elf_Data *data, *xdata = NULL;
	Elf_Scn *scn, *xscn;
	GElf_Shdr sh, xsh;
	size_t n, bad = 0, first = 0, in_place_n;
	bool in_place;

	scn = find_section(ef, dynamic ? SHT_DYNSYM : SHT_SYMTAB, NULL, &sh);
	if (!scn)
		return 0;
	if (sh.sh_entsize == 0 || sh.sh_link >= ef->shnum)
		return error("%s: malformed symbol table header", ef->path);
	data = elf_getdata(scn, NULL);
	if (!data)
		return elf_error(ef->path, "cannot read the symbol table");
	/* SHN_XINDEX: section indexes beyond 0xff00 live here */
	xscn = find_section(ef, SHT_SYMTAB_SHNDX, NULL, &xsh);
	if (xscn && xsh.sh_link == elf_ndxscn(scn))
		xdata = elf_getdata(xscn, NULL);
	sr.map = map_sections(ef, secs, nsecs, names);
	strs = strtab_whole(ef, sh.sh_link, &strs_size);
	n = sh.sh_size / sh.sh_entsize;
	in_place = !xdata && data->d_type == ELF_T_SYM &&
		   ef->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	in_place_n = in_place ? data->d_size / sizeof(Elf64_Sym) : 0;
	/* room for every symbol of the table at once: grown one by one,
	 * libLLVM's 45,000 were copied along and their fresh pages
	 * written twice */
	if (out->raw && n > 1) {
		ARRAY_GROW(out->raw->v, out->raw->nr + n - 1,
			   out->raw->alloc);
		/* and their names: most are new (names_reserve()) */
		names_reserve(names, n - 1);
	}
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		Elf32_Word xndx = 0;
		uint32_t shndx;
		const char *str;

		/* a 64-bit file's symbols are libelf's array of Elf64_Sym,
		 * GElf_Sym's type: read in place (what gelf_getsymshndx()
		 * copies, without its calls and checks per symbol) */
		if (in_place && i < in_place_n)
			memcpy(&s, (const Elf64_Sym *)data->d_buf + i,
			       sizeof(s));
		else if (!gelf_getsymshndx(data, xdata, (int)i, &s, &xndx))
			break;
		if (strs)
			str = s.st_name < strs_size ? strs + s.st_name : NULL;
		else
			str = elf_strptr(ef->elf, sh.sh_link, s.st_name);
		if (!str) {
			/* said once, as libbfd did when it read the table
			 * for the @plt stubs (tests/e2e/elf-bad-strtab) */
			if (!bad++)
				first = s.st_name;
			str = "";
		}
		shndx = s.st_shndx == SHN_XINDEX ? xndx : s.st_shndx;
		if (s.st_shndx >= SHN_LORESERVE && s.st_shndx != SHN_XINDEX)
			shndx = SHN_UNDEF;	/* ABS, COMMON: no section */
		read_one(&sr, &s, shndx, str, (uint32_t)i);
	}
	if (bad)
		warning("%s: %zu symbol name%s past the end of the string "
			"table (offset %zu), left unnamed", ef->path, bad,
			bad > 1 ? "s start" : " starts", first);
	free(sr.map);
	return 0;
}
