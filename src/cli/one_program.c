/*
 * Profiles of different programs added up are rarely meant (runs of one
 * program with other arguments are): say it once, naming both.
 *
 * An input is known by up to three things: its command line's program
 * word (cmd_program()), the program file its recorded processes ran
 * (perf.data: their first executable mapping, with its build-id when
 * recorded), and their command name (perf's comm, which a process can
 * change with prctl PR_SET_NAME). Two inputs are compared by the best
 * both have, in that order.
 */
#include "one_program.h"

#include <stdbool.h>
#include <string.h>

#include "base/diag.h"
#include "cmd_program.h"

enum known { BY_CMD, BY_EXE, BY_COMM };

struct program {
	const char *cmd, *exe, *comm;	/* NULL: not known */
	size_t lcmd, lexe, lcomm;
	const uint8_t *build_id;
	size_t lbuild_id;		/* 0: none */
};

static void input_program(const struct profile *p, const struct pinput *in,
			  struct program *g)
{
	memset(g, 0, sizeof(*g));
	if (in->cmd != NO_NAME)
		g->cmd = cmd_program(profile_str(p, in->cmd), &g->lcmd);
	if (in->exe != NO_NAME) {
		static const char deleted[] = " (deleted)";
		size_t ld = sizeof(deleted) - 1;

		g->exe = profile_str(p, in->exe);
		g->lexe = names_len(&p->names, in->exe);
		/* the kernel's mark on a file removed or replaced (rebuilt)
		 * while it ran: the program is still the one of that name */
		if (g->lexe > ld && !memcmp(g->exe + g->lexe - ld, deleted, ld))
			g->lexe -= ld;
		g->build_id = in->exe_build_id;
		g->lbuild_id = in->exe_build_id_len;
	}
	if (in->comm != NO_NAME) {
		g->comm = profile_str(p, in->comm);
		g->lcomm = names_len(&p->names, in->comm);
	}
}

static bool known(const struct program *g)
{
	return g->cmd || g->exe || g->comm;
}

/* The word g is named by when compared as a program file: its command
 * line's, else its executable's path. */
static const char *file_word(const struct program *g, size_t *len,
			     enum known *by)
{
	*by = g->cmd ? BY_CMD : BY_EXE;
	*len = g->cmd ? g->lcmd : g->lexe;
	return g->cmd ? g->cmd : g->exe;
}

static const char *base_name(const char *s, size_t *len)
{
	const char *b = memrchr(s, '/', *len);

	b = b ? b + 1 : s;
	*len = (size_t)(s + *len - b);
	return b;
}

/*
 * Whether a and b are one program, and what each was compared by
 * (*wa, *la and *ka for a; the same for b) for the message when not. Two
 * command lines are one program when their words are equal; two
 * executables when their build-ids are, or their file names (a rebuilt
 * or moved program is still the program); a command line's word and an
 * executable by file name. A command name is the program's file name
 * cut to 15 bytes (the kernel's TASK_COMM_LEN): compared so with the
 * other's word, or with the other's command name.
 */
static bool same_program(const struct program *a, const struct program *b,
			 const char **wa, size_t *la, enum known *ka,
			 const char **wb, size_t *lb, enum known *kb)
{
	const char *x, *y;
	size_t lx, ly;

	if (a->cmd && b->cmd) {
		*wa = a->cmd, *la = a->lcmd, *ka = BY_CMD;
		*wb = b->cmd, *lb = b->lcmd, *kb = BY_CMD;
		return *la == *lb && !memcmp(*wa, *wb, *la);
	}
	if (a->exe && b->exe) {
		*wa = a->exe, *la = a->lexe, *ka = BY_EXE;
		*wb = b->exe, *lb = b->lexe, *kb = BY_EXE;
		if (a->lbuild_id && a->lbuild_id == b->lbuild_id &&
		    !memcmp(a->build_id, b->build_id, a->lbuild_id))
			return true;
	} else if ((a->cmd || a->exe) && (b->cmd || b->exe)) {
		*wa = file_word(a, la, ka);
		*wb = file_word(b, lb, kb);
	} else {
		/* one has a command name alone (or neither has more) */
		bool ca = !a->cmd && !a->exe, cb = !b->cmd && !b->exe;

		if (a->comm && b->comm && (ca || cb)) {
			*wa = a->comm, *la = a->lcomm, *ka = BY_COMM;
			*wb = b->comm, *lb = b->lcomm, *kb = BY_COMM;
			return *la == *lb && !memcmp(*wa, *wb, *la);
		}
		if (ca) {
			*wa = a->comm, *la = a->lcomm, *ka = BY_COMM;
			*wb = file_word(b, lb, kb);
		} else {
			*wa = file_word(a, la, ka);
			*wb = b->comm, *lb = b->lcomm, *kb = BY_COMM;
		}
		x = *wa, lx = *la, y = *wb, ly = *lb;
		if (ca) {	/* y the file's word */
			y = base_name(y, &ly);
			if (ly > 15)
				ly = 15;
		} else {
			x = base_name(x, &lx);
			if (lx > 15)
				lx = 15;
		}
		return lx == ly && !memcmp(x, y, lx);
	}
	x = *wa, lx = *la, y = *wb, ly = *lb;
	x = base_name(x, &lx);
	y = base_name(y, &ly);
	return lx == ly && !memcmp(x, y, lx);
}

static const char *const what[] = {
	[BY_CMD] = "",
	[BY_EXE] = "program",
	[BY_COMM] = "command name",
};

/* ", the first the command name of the processes it recorded" and the
 * like: what the words in the warning are when not command lines'. */
static void say_what(char *buf, size_t size, enum known ka, enum known kb)
{
	if (ka == kb && ka != BY_CMD)
		snprintf(buf, size, ", the %ss of the processes they recorded",
			 what[ka]);
	else if (ka != BY_CMD && kb != BY_CMD)
		snprintf(buf, size, ", the first the %s of the processes it "
			 "recorded, the second the %s", what[ka], what[kb]);
	else if (ka != BY_CMD)
		snprintf(buf, size, ", the first the %s of the processes it "
			 "recorded", what[ka]);
	else if (kb != BY_CMD)
		snprintf(buf, size, ", the second the %s of the processes it "
			 "recorded", what[kb]);
	else
		buf[0] = '\0';
}

/* one command line, two programs (both run as ./prog): two mains in
 * different objects */
static void check_mains(const struct profile *p)
{
	name_id main_name = names_find(&p->names, "main", 4);
	name_id ob = NO_NAME;

	for (size_t f = 0; main_name != NO_NAME && f < p->nfuncs; f++) {
		const struct pfunc *fn = &p->funcs[f];

		if (fn->name != main_name || fn->object == NO_NAME)
			continue;
		if (ob == NO_NAME) {
			ob = fn->object;
		} else if (fn->object != ob) {
			warning("the profiles are of different programs "
				"(main is in '%s' and in '%s'): their costs "
				"are added up as if they were one",
				profile_str(p, ob), profile_str(p, fn->object));
			return;
		}
	}
}

void check_one_program(const struct profile *p)
{
	const struct pinput *first = NULL;
	struct program a = { 0 };

	for (size_t i = 0; i < p->ninputs; i++) {
		const struct pinput *in = &p->inputs[i];
		struct program b;
		const char *wa, *wb;
		size_t la, lb;
		enum known ka, kb;
		char said[128];

		input_program(p, in, &b);
		if (!known(&b))
			continue;
		if (!first) {
			first = in, a = b;
			continue;
		}
		if (same_program(&a, &b, &wa, &la, &ka, &wb, &lb, &kb))
			continue;
		say_what(said, sizeof(said), ka, kb);
		warning("'%s' and '%s' are profiles of different programs "
			"('%.*s' and '%.*s'%s): their costs are added up as "
			"if they were one", profile_str(p, first->path),
			profile_str(p, in->path), (int)la, wa, (int)lb, wb,
			said);
		return;
	}
	if (p->ninputs > 1)
		check_mains(p);
}
