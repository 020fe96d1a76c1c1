/*
 * Long C++ names made short enough to read, for --dot's labels and the
 * text listings' --short-names: "std::vector<int, std::allocator<int> >
 * ::push_back(int const&)" becomes "std::vector<...>::push_back(...)",
 * and less is cut where that would make two names look alike.
 */
#ifndef CGA_SHORT_NAMES_H
#define CGA_SHORT_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* Names up to this long are shown whole. */
#define SHORT_NAME 40

/* Levels, tried in turn until no two names look alike. */
enum {
	SHORT_TEMPLATES,	/* template arguments and parameters "..." */
	SHORT_NESTED,		/* nested template arguments, parameters */
	SHORT_PARAMS,		/* parameters "..." */
	SHORT_NONE,		/* the whole name */
	SHORT_WITH_ID,		/* the whole name and the function's id */
};

/*
 * name (len bytes) shortened at `level` into buf (len + 1 bytes; the
 * result is never longer); returns its length (no "\0" written).
 */
size_t shorten_name(const char *name, size_t len, int level, char *buf);

struct linebuf;

/*
 * level[n] for each n of nodes[0..k): the lowest level at which node n's
 * label, text(ctx, n, level, lb) (appended to lb; read as a C string, up
 * to a "\0"), looks like no other of them, and at most max_level.
 * level[] has nnodes entries. Only the levels are kept, never the
 * labels: a caller makes the text again when it writes it (a report
 * labels 700,000 functions, and kept strings were tens of MB of its
 * peak).
 */
void unique_short_levels(uint8_t *level, const uint32_t *nodes, size_t k,
			 int max_level,
			 void (*text)(void *ctx, uint32_t n, int level,
				      struct linebuf *lb),
			 void *ctx, size_t nnodes);

/*
 * label[n] for each n of nodes[0..k): make(ctx, n, level) (malloc'd)
 * at the level unique_short_levels() finds. label[] has nnodes
 * entries; the caller frees the labels.
 */
void unique_short_labels(char **label, const uint32_t *nodes, size_t k,
			 int max_level,
			 char *(*make)(void *ctx, uint32_t n, int level),
			 void *ctx, size_t nnodes);

#endif
