/*
 * A JIT's symbol map, /tmp/perf-PID.map: one line per function of code
 * the process made at run time, "START SIZE NAME" (START and SIZE in
 * hexadecimal, with or without 0x; NAME the rest of the line), as
 * node --perf-basic-prof, the JVM's perf-map-agent, LuaJIT, .NET and
 * Python 3.12's -X perf write it and perf report reads it.
 */
#ifndef CGA_PERF_JITMAP_H
#define CGA_PERF_JITMAP_H

#include <stddef.h>
#include <stdint.h>

struct jit_sym {
	uint64_t start, end;
	size_t name;		/* its offset in text, NUL-ended */
	uint32_t len;
};

struct jitmap {
	struct jit_sym *syms;	/* sorted by start */
	size_t n;
	char *text;		/* the file's bytes */
};

/*
 * Load path. Returns 0; 1 when there is no such file (nothing loaded);
 * -1 after reporting when it cannot be read. Lines that are not a map
 * entry are skipped.
 */
int jitmap_load(struct jitmap *m, const char *path);
void jitmap_release(struct jitmap *m);

/* The entry holding address addr (the last one starting at or before
 * it, as perf takes a later entry over an earlier one there), or NULL. */
const struct jit_sym *jitmap_lookup(const struct jitmap *m, uint64_t addr);

static inline const char *jitmap_name(const struct jitmap *m,
				      const struct jit_sym *s)
{
	return m->text + s->name;
}

/* Whether path is a JIT map's name, "/tmp/perf-PID.map". */
int jitmap_is_path(const char *path);

/* The maps of a recording's objects, each loaded when first asked for. */
struct jitmaps {
	struct jitmap *maps;	/* per object */
	uint8_t *state;		/* per object: 0 not looked for, 1 loaded,
				 * 2 not there or not read */
	size_t n;
	/* the machine the recording was made on (its HEADER_HOSTNAME;
	 * NULL: not said) and this one's (NULL: uname()'s; the tests set
	 * it): a map at /tmp here is another process's when they differ */
	const char *recorded_on, *here;
};

/*
 * The name of address addr in object `object` of the recording, whose
 * recorded path is path (a JIT map's name: jitmap_is_path()), from that
 * map under sysroot (when given) or at path, or NULL: no such map, or a
 * recording made on another machine and no sysroot (each said once per
 * map, in a warning), or no entry holds addr. The name lives as long as
 * j.
 */
const char *jitmaps_name(struct jitmaps *j, size_t nobjects, uint32_t object,
			 const char *path, const char *sysroot, uint64_t addr,
			 uint32_t *len);
void jitmaps_release(struct jitmaps *j);

#endif
