/* The profiled program among a profile's functions (program.h) */
#include "program.h"

#include <string.h>

bool profile_is_main(const struct profile *p, uint32_t f)
{
	const char *name = profile_str(p, p->funcs[f].name);

	return !strcmp(name, "main") || !strcmp(name, "main.main");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The object whose base name is that of the word cmd[0, len), or
 * NO_NAME. */
static name_id object_named(const struct profile *p, const char *cmd,
			    size_t len)
{
	const char *prog = cmd;
	size_t plen;

	for (size_t k = 0; k < len; k++)
		if (cmd[k] == '/')
			prog = cmd + k + 1;
	plen = (size_t)(cmd + len - prog);
	if (!plen)
		return NO_NAME;
	for (uint32_t f = 0; f < p->nfuncs; f++) {
		name_id ob = p->funcs[f].object;
		const char *b;

		if (ob == NO_NAME)
			continue;
		b = base_name(profile_str(p, ob));
		if (strlen(b) == plen && !memcmp(b, prog, plen))
			return ob;
	}
	return NO_NAME;
}

name_id profile_command_object(const struct profile *p)
{
	for (size_t i = 0; i < p->ninputs; i++) {
		const char *cmd;

		if (p->inputs[i].cmd == NO_NAME)
			continue;
		cmd = profile_str(p, p->inputs[i].cmd);
		while (*cmd) {
			size_t len = strcspn(cmd, " ");
			name_id ob = object_named(p, cmd, len);

			if (ob != NO_NAME)
				return ob;
			cmd += len;
			cmd += strspn(cmd, " ");
		}
	}
	return NO_NAME;
}
