/*
 * The Callgrind reader's second core: a thread that reads the input
 * (and decompresses it), splits it into lines and tokenizes the cost
 * lines a block ahead of the reader, which then only applies them.
 *
 * A block is about a megabyte of whole lines: their text (a copy the
 * reader may write to) and one token per line. A cost line the fast
 * path can read ("+3 * 1", "0x4bb1000 12 1": numbers with an optional
 * '+', '-' or a lone '*', at most CALLGRIND_TOK_MAX_FIELDS of them) is given
 * as its numbers. So are the frequent body lines, in the forms valgrind
 * writes them: a name ("fn=(12) main", "cfn=(12)", "fl=x.c") as its
 * key, its compressed id and where the name is in the text (the reader
 * interns it: names are its state), and "calls=", "jump=", "jcnd=" as
 * their counts and target fields. Blank lines and comments are marked
 * as nothing to do. Any other line, and any of these written otherwise
 * (spaces where valgrind writes none, "\r", a number too long), is
 * given as text only, for the reader's general path, which knows every
 * case and what to say about it. Nothing here depends on the reader's
 * state: the positions are not resolved ('+3' stays +3, the reader
 * knows which fields are positions and what they are relative to), nor
 * the ids.
 *
 * Two blocks go back and forth under one mutex, one handoff per block,
 * never per line. Errors of the input (read errors, damaged compressed
 * data, a line too long) are caught in the thread's own message buffer
 * and printed by callgrind_split_next() when the reader gets to them, so that
 * they come after every message about the lines before, exactly as
 * without the thread.
 */
#ifndef CGA_CALLGRIND_SPLIT_H
#define CGA_CALLGRIND_SPLIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callgrind_lex.h"
#include "read/line_reader.h"

#define CALLGRIND_TOK_MAX_FIELDS 16
#define CALLGRIND_BLOCK_BYTES ((size_t)1 << 20) /* at least, but at the end */

/* How a field is written: a number, '+'/'-' number, or '*'. */
enum callgrind_field {
	CALLGRIND_FIELD_ABS,
	CALLGRIND_FIELD_PLUS,
	CALLGRIND_FIELD_MINUS,
	CALLGRIND_FIELD_STAR
};

enum callgrind_tok_kind {
	CALLGRIND_TOK_TEXT,    /* for the general path */
	CALLGRIND_TOK_NOTHING, /* a blank line or a comment */
	CALLGRIND_TOK_COST,    /* nfields fields, tags */
	CALLGRIND_TOK_NAME,    /* key (enum callgrind_key), form (enum
				  callgrind_name_form) */
	CALLGRIND_TOK_COUNTS,  /* key calls/jump/jcnd: its counts, then nfields
				* target fields, tags */
};

/*
 * The numbers of a name line in vals: REF the id; DEF the id, the
 * name's offset in the block's text and its length; PLAIN the offset
 * and the length. The name is trimmed as the general path trims it.
 */
enum callgrind_name_form {
	CALLGRIND_NAME_REF,
	CALLGRIND_NAME_DEF,
	CALLGRIND_NAME_PLAIN
};

/*
 * The counts of a CALLGRIND_TOK_COUNTS line: calls= and jump= one, jcnd= two,
 * executed then followed (whichever way the line writes them).
 */
static inline unsigned callgrind_tok_ncounts(uint8_t key)
{
	return key == CALLGRIND_KEY_JCND ? 2 : 1;
}

struct callgrind_tok {
	uint32_t off;		/* of the line in the block's text */
	uint32_t tags; /* enum callgrind_field of field i in bits 2i, 2i+1 */
	uint32_t first;		/* index of its first number in vals */
	uint8_t nfields;
	uint8_t kind; /* enum callgrind_tok_kind */
	uint8_t key;  /* enum callgrind_key */
	uint8_t form; /* enum callgrind_name_form */
};

struct callgrind_block {
	char *text;		/* whole lines, each ended by "\n" */
	size_t len, cap;
	struct callgrind_tok *toks; /* one per line */
	size_t ntoks, toks_alloc;
	uint64_t *vals;
	size_t nvals, vals_alloc;
	uint64_t progress;	/* file bytes read when it was made */
	int status;		/* after its lines: 1 more blocks, 0 the end
				 * of the input, -1 an error */
	char *msg;		/* the error's message(s), with status -1 */
	size_t msg_len;
	bool full;		/* the reader's until it asks for the next */
};

struct callgrind_split {
	struct line_reader *lr;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct callgrind_block block[2];
	unsigned next;		/* the block the reader takes next */
	struct callgrind_block *held; /* the block the reader has now */
	bool stop;
	FILE *msgs;		/* the thread's messages, in msg_buf */
	char *msg_buf;
	size_t msg_len;
};

/*
 * Start the thread on lr (opened, nothing consumed but a peek). From
 * here until callgrind_split_stop() only the thread touches lr. Returns 0 or -1
 * after reporting (cannot start a thread).
 */
int callgrind_split_start(struct callgrind_split *sp, struct line_reader *lr);

/*
 * The next block, giving the one before back: its lines (perhaps none),
 * then, if its status is not 1, the end of the input or its error.
 */
struct callgrind_block *callgrind_split_next(struct callgrind_split *sp);

/* After the lines of a block whose status is not 1: prints the input's
 * error (status -1); returns the status. */
int callgrind_split_end(const struct callgrind_block *b);

/* Stop the thread (at once, whatever it is doing) and free the blocks;
 * lr is the caller's again. */
void callgrind_split_stop(struct callgrind_split *sp);

/* Tokenize whole lines into b, after those it has (the thread's work;
 * for tests). */
void callgrind_split_tokenize(struct callgrind_block *b, const char *data,
			      size_t len);

#endif
